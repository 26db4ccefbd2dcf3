//! `since-cost`: what a changes-only snapshot (`since`) costs next to the
//! whole one (issue 50), on one private desktop with gtk3-widget-factory:
//! o200k tokens and time of a whole foreground snapshot, and of a
//! `since: "last"` snapshot after one check button was toggled, run after
//! run.
//!
//! ```text
//! cargo run --release -p cup-bench --bin since-cost [-- --runs 7]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use cup::{ActionParams, Session, SnapshotRequest};
use cup_bench::stats::summarize;
use cup_linux::{Desktop, LinuxAdapter};
use cup_protocol::{Role, Scope, State};
use cup_sandbox::{Sandbox, SandboxOptions};

const USAGE: &str = "\
usage: since-cost [--runs N]

Tokens and time of a whole foreground snapshot of gtk3-widget-factory, and
of a changes-only snapshot (since the last) after one check button was
toggled; 1 warm-up, then N runs (default 7).";

fn session_on(sandbox: &Sandbox) -> Session {
    Session::new(Box::new(LinuxAdapter::for_desktop(Desktop {
        display: Some(sandbox.display().to_owned()),
        session_bus: Some(sandbox.session_bus_address().to_owned()),
        a11y_bus: Some(sandbox.a11y_address().to_owned()),
        xauthority: Some(sandbox.xauthority()),
        ..Desktop::default()
    })))
}

fn foreground(since: bool) -> SnapshotRequest {
    SnapshotRequest {
        scope: Scope::Foreground,
        since: since.then(|| "last".to_owned()),
        ..SnapshotRequest::default()
    }
}

/// One run: (whole tokens, whole ms, since tokens, since ms).
async fn run(session: &mut Session) -> anyhow::Result<(usize, f64, usize, f64)> {
    let t = Instant::now();
    let whole = session
        .snapshot(&foreground(false))
        .await
        .context("snapshot")?;
    let whole_ms = t.elapsed().as_secs_f64() * 1e3;
    let whole_tokens = cup_bench::tokens::count(&whole.text).map_err(anyhow::Error::msg)?;
    let id = whole
        .envelope
        .tree
        .iter()
        .flat_map(|r| r.iter())
        .find(|n| {
            n.role == Role::Checkbox
                && n.name == "checkbutton"
                && !n.states.contains(&State::Disabled)
                && !n.states.contains(&State::Mixed)
        })
        .map(|n| n.id.clone())
        .context("no enabled check button in gtk3-widget-factory")?;
    let acted = session
        .action(&id, "toggle", &ActionParams::default())
        .await
        .context("toggle")?;
    if !acted.success {
        bail!("the toggle failed: {}", acted.message);
    }
    // The toggle was observed (its events came), so the app shows it now.
    let t = Instant::now();
    let since = session.snapshot(&foreground(true)).await.context("since")?;
    let since_ms = t.elapsed().as_secs_f64() * 1e3;
    if !since.text.contains(&format!("[{id}] chk")) {
        bail!("the toggled check button {id} is not in:\n{}", since.text);
    }
    let since_tokens = cup_bench::tokens::count(&since.text).map_err(anyhow::Error::msg)?;
    Ok((whole_tokens, whole_ms, since_tokens, since_ms))
}

async fn measure(sandbox: &Sandbox, runs: usize) -> anyhow::Result<bool> {
    let mut session = session_on(sandbox);
    // Until the window is read whole (a loaded machine starts slowly).
    let deadline = Instant::now() + Duration::from_secs(30);
    while session
        .snapshot(&foreground(false))
        .await
        .map_or(true, |s| !s.text.contains("checkbutton"))
    {
        if Instant::now() > deadline {
            bail!("gtk3-widget-factory showed no check button in 30 s");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    run(&mut session).await?;
    let mut rows = Vec::new();
    for _ in 0..runs {
        rows.push(run(&mut session).await?);
    }
    let ratio: Vec<f64> = rows
        .iter()
        .map(|r| r.2 as f64 / r.0 as f64 * 100.0)
        .collect();
    let col =
        |f: fn(&(usize, f64, usize, f64)) -> f64| -> Vec<f64> { rows.iter().map(f).collect() };
    let show = |name: &str, v: &[f64], unit: &str| {
        if let Some(s) = summarize(v) {
            println!(
                "{name:<36} min {:>8.1} {unit}  median {:>8.1} {unit}",
                s.min, s.median
            );
        }
    };
    println!("gtk3-widget-factory, foreground, {runs} runs (o200k tokens):");
    show("whole snapshot tokens", &col(|r| r.0 as f64), "tok");
    show(
        "since snapshot tokens (one toggle)",
        &col(|r| r.2 as f64),
        "tok",
    );
    show("since / whole tokens", &ratio, "%");
    show("whole snapshot time", &col(|r| r.1), "ms");
    show("since snapshot time", &col(|r| r.3), "ms");
    let worst = ratio.iter().copied().fold(0.0, f64::max);
    let ok = worst <= 10.0;
    println!(
        "{} a one-control change costs <= 10% of the whole in every run (worst {worst:.1}%)",
        if ok { "PASS" } else { "FAIL" }
    );
    Ok(ok)
}

fn bench(runs: usize) -> anyhow::Result<bool> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?;
    eprintln!("== starting a private desktop");
    let sandbox = Sandbox::start(SandboxOptions::default()).context(
        "the private desktop did not start (scripts/install-deps.sh installs Xvfb, D-Bus, AT-SPI)",
    )?;
    let result = match sandbox.launch("gtk3-widget-factory", &[] as &[&str]) {
        Ok(_) => rt.block_on(measure(&sandbox, runs)),
        Err(e) => Err(anyhow::anyhow!(
            "gtk3-widget-factory did not start: {e} (scripts/install-deps.sh installs it)"
        )),
    };
    if let Err(e) = sandbox.stop() {
        eprintln!("warning: stopping the private desktop: {e}");
    }
    result
}

fn main() -> ExitCode {
    cup_bench::init_logs();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--runs") {
        args.extend(["--runs".to_owned(), "7".to_owned()]);
    }
    let result = match cup_bench::parse_runs(&args, USAGE).map_err(anyhow::Error::msg) {
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Some(runs)) => bench(runs),
        Err(e) => Err(e),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("since-cost: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
