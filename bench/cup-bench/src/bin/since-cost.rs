//! `since-cost`: what a changes-only snapshot (`since`) costs next to the
//! whole one (issue 50), on every platform that runs here: gtk3-widget-
//! factory in a private X11 desktop and under a headless sway, and a web
//! page in a headless Chromium. Per platform three changes an agent
//! makes: a click (a check box toggled), a typed text (an entry), a
//! dialog opening (GTK's font chooser; an HTML `<dialog>`). Each run: a
//! whole snapshot, the change, then `since: "last"`; o200k tokens and
//! time of both.
//!
//! ```text
//! cargo run --release -p cup-bench --bin since-cost [-- --runs 7] [--platforms x11,sway,web]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use cup::{ActionParams, Session, SnapshotRequest};
use cup_bench::stats::summarize;
use cup_linux::{Desktop, LinuxAdapter};
use cup_protocol::{Node, Role, Scope, State};
use cup_sandbox::{Browser, BrowserOptions, Compositor, Sandbox, SandboxOptions};

const USAGE: &str = "\
usage: since-cost [--runs N] [--platforms LIST]

Tokens and time of a whole snapshot and of a changes-only snapshot (since
the last) after a click, a typed text and a dialog opening, on
gtk3-widget-factory under X11 and sway and on a web page in headless
Chromium; 1 warm-up, then N runs (default 7). LIST: x11, sway, web (default
all).";

const PLATFORMS: [&str; 3] = ["x11", "sway", "web"];

/// A change an agent makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    Click,
    Type,
    Dialog,
}

impl Change {
    const ALL: [Change; 3] = [Change::Click, Change::Type, Change::Dialog];

    fn label(self) -> &'static str {
        match self {
            Change::Click => "a click (check box)",
            Change::Type => "a typed text",
            Change::Dialog => "a dialog opening",
        }
    }
}

/// One run: whole tokens, whole ms, since tokens, since ms.
type Sample = (usize, f64, usize, f64);

/// What a platform's app offers for each change.
struct App {
    /// Where the check box is and what it is named.
    check: &'static str,
    /// A test on an enabled entry to type into (as it was, or after an
    /// earlier run typed into it).
    entry: fn(&Node) -> bool,
    /// What opens the dialog (a button's name).
    opener: &'static str,
    /// A word of the dialog's text, seen once it is open.
    dialog: &'static str,
    /// The dialog's button that closes it.
    closer: &'static str,
    /// Scope of the dialog's snapshots: a desktop dialog is a window of
    /// its own, so both snapshots take every window.
    dialog_scope: Scope,
}

const GTK: App = App {
    check: "checkbutton",
    entry: |n| {
        n.role == Role::TextBox
            && n.value
                .as_deref()
                .is_some_and(|v| v == "entry" || v.contains("typed "))
            && !n.states.contains(&State::Disabled)
    },
    opener: "Sans Regular",
    dialog: "Pick a Font",
    closer: "Cancel",
    dialog_scope: Scope::Full,
};

const WEB: App = App {
    check: "Gift wrap",
    entry: |n| n.role == Role::TextBox && n.name == "Name",
    opener: "Review order",
    dialog: "Confirm the order",
    closer: "Close",
    dialog_scope: Scope::Foreground,
};

fn request(scope: Scope, since: bool) -> SnapshotRequest {
    SnapshotRequest {
        scope,
        since: since.then(|| "last".to_owned()),
        ..SnapshotRequest::default()
    }
}

fn find(snap: &cup::Snapshot, test: impl Fn(&Node) -> bool) -> Option<&Node> {
    snap.envelope
        .tree
        .iter()
        .flat_map(|r| r.iter())
        .find(|n| test(n))
}

fn tokens(text: &str) -> anyhow::Result<usize> {
    cup_bench::tokens::count(text).map_err(anyhow::Error::msg)
}

/// Takes fresh looks (nothing kept) until `test` holds of the text, for
/// 15 s at most.
async fn until(
    session: &Session,
    scope: Scope,
    what: &str,
    test: impl Fn(&str) -> bool,
) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let look = session.look(&request(scope, false)).await;
        if look.is_ok_and(|s| test(&s.text)) {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("{what} within 15 s");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// One run of `change`: a whole snapshot, the change, `since: "last"`.
async fn sample(
    session: &mut Session,
    app: &App,
    change: Change,
    run: usize,
) -> anyhow::Result<Sample> {
    let scope = if change == Change::Dialog {
        app.dialog_scope
    } else {
        Scope::Foreground
    };
    let t = Instant::now();
    let whole = session
        .snapshot(&request(scope, false))
        .await
        .context("snapshot")?;
    let whole_ms = t.elapsed().as_secs_f64() * 1e3;
    let whole_tokens = tokens(&whole.text)?;
    let none = ActionParams::default();
    let (target, expect) = match change {
        Change::Click => {
            let id = find(whole, |n| {
                n.role == Role::Checkbox
                    && n.name.contains(app.check)
                    && !n.states.contains(&State::Disabled)
                    && !n.states.contains(&State::Mixed)
            })
            .map(|n| n.id.clone())
            .with_context(|| format!("no enabled check box {:?}", app.check))?;
            let r = session
                .action(&id, "toggle", &none)
                .await
                .context("toggle")?;
            if !r.success {
                bail!("the toggle failed: {}", r.message);
            }
            (id.clone(), format!("[{id}] chk"))
        }
        Change::Type => {
            let id = find(whole, app.entry)
                .map(|n| n.id.clone())
                .context("no entry to type into")?;
            let text = format!("typed {run}");
            let params = ActionParams {
                value: Some(text.clone()),
                ..ActionParams::default()
            };
            let r = session.action(&id, "type", &params).await.context("type")?;
            if !r.success {
                bail!("typing failed: {}", r.message);
            }
            (id, text)
        }
        Change::Dialog => {
            let id = find(whole, |n| n.role == Role::Button && n.name == app.opener)
                .map(|n| n.id.clone())
                .with_context(|| format!("no button {:?}", app.opener))?;
            let r = session.action(&id, "click", &none).await.context("click")?;
            if !r.success {
                bail!("the click failed: {}", r.message);
            }
            until(session, scope, "the dialog did not open", |t| {
                t.contains(app.dialog)
            })
            .await?;
            (id, app.dialog.to_owned())
        }
    };
    let t = Instant::now();
    let since = session
        .snapshot(&request(scope, true))
        .await
        .context("since")?;
    let since_ms = t.elapsed().as_secs_f64() * 1e3;
    if !since.text.contains(&expect) {
        bail!(
            "{} ({target}): {expect:?} is not in:\n{}",
            change.label(),
            since.text
        );
    }
    let since_tokens = tokens(&since.text)?;
    if change == Change::Dialog {
        // Closed again for the next run, by its button (a key would go to
        // the window with the focus, not always the dialog).
        let close = find(since, |n| n.role == Role::Button && n.name == app.closer)
            .map(|n| n.id.clone())
            .with_context(|| format!("no button {:?} in the dialog", app.closer))?;
        let r = session
            .action(&close, "click", &none)
            .await
            .context("close")?;
        if !r.success {
            bail!("closing the dialog failed: {}", r.message);
        }
        until(session, scope, "the dialog did not close", |t| {
            !t.contains(app.dialog)
        })
        .await?;
    }
    Ok((whole_tokens, whole_ms, since_tokens, since_ms))
}

/// Every change on one platform: a warm-up, then `runs` runs each.
async fn platform(
    session: &mut Session,
    app: &App,
    runs: usize,
) -> anyhow::Result<Vec<(Change, Vec<Sample>)>> {
    let mut out = Vec::new();
    for change in Change::ALL {
        sample(session, app, change, 0)
            .await
            .with_context(|| format!("{} (warm-up)", change.label()))?;
        let mut rows = Vec::new();
        for run in 1..=runs {
            rows.push(
                sample(session, app, change, run)
                    .await
                    .with_context(|| format!("{}, run {run}", change.label()))?,
            );
        }
        out.push((change, rows));
    }
    Ok(out)
}

/// Prints one platform's table; `true` when every one-control change (a
/// click, a typed text) cost 10 % of the whole or less in every run.
fn report(name: &str, rows: &[(Change, Vec<Sample>)]) -> bool {
    println!("\n{name}: tokens (o200k) and ms, min / median");
    println!(
        "| change | whole tokens | since tokens | since / whole | whole ms | since ms |\n|---|---|---|---|---|---|"
    );
    let mut ok = true;
    for (change, samples) in rows {
        let col = |f: fn(&Sample) -> f64| -> Vec<f64> { samples.iter().map(f).collect() };
        let ratio: Vec<f64> = samples
            .iter()
            .map(|s| s.2 as f64 / s.0.max(1) as f64 * 100.0)
            .collect();
        let cell = |v: &[f64], digits: usize| {
            summarize(v).map_or("-".to_owned(), |s| {
                format!("{:.digits$} / {:.digits$}", s.min, s.median)
            })
        };
        println!(
            "| {} | {} | {} | {} % | {} | {} |",
            change.label(),
            cell(&col(|s| s.0 as f64), 0),
            cell(&col(|s| s.2 as f64), 0),
            cell(&ratio, 1),
            cell(&col(|s| s.1), 1),
            cell(&col(|s| s.3), 1),
        );
        let worst = ratio.iter().copied().fold(0.0, f64::max);
        if change != &Change::Dialog {
            let pass = worst <= 10.0;
            ok &= pass;
            println!(
                "{} {name}: {} costs <= 10% of the whole in every run (worst {worst:.1}%)",
                if pass { "PASS" } else { "FAIL" },
                change.label()
            );
        }
    }
    ok
}

/// gtk3-widget-factory on a private desktop (X11, or sway).
fn desktop(runs: usize, rt: &tokio::runtime::Runtime, wayland: bool) -> anyhow::Result<bool> {
    let name = if wayland { "sway" } else { "X11" };
    eprintln!("== {name}: starting a private desktop with gtk3-widget-factory");
    let sandbox = Sandbox::start(SandboxOptions {
        width: 1280,
        height: 800,
        wayland,
        compositor: Compositor::Sway,
        ..SandboxOptions::default()
    })
    .context(
        "the private desktop did not start (scripts/install-deps.sh installs Xvfb, sway, D-Bus, AT-SPI)",
    )?;
    let result = match sandbox.launch("gtk3-widget-factory", &[] as &[&str]) {
        Ok(_) => rt.block_on(async {
            let mut session = Session::new(Box::new(LinuxAdapter::for_desktop(
                Desktop::from_pairs(&sandbox.env()),
            )));
            until(
                &session,
                Scope::Foreground,
                "gtk3-widget-factory showed no check button",
                |t| t.contains("checkbutton"),
            )
            .await?;
            platform(&mut session, &GTK, runs).await
        }),
        Err(e) => Err(anyhow::anyhow!(
            "gtk3-widget-factory did not start: {e} (scripts/install-deps.sh installs it)"
        )),
    };
    if let Err(e) = sandbox.stop() {
        eprintln!("warning: stopping the private desktop: {e}");
    }
    Ok(report(
        &format!("gtk3-widget-factory, {name}"),
        &result.with_context(|| name.to_owned())?,
    ))
}

/// The bench's large page with a dialog to open at its top.
fn web_page() -> String {
    cup_bench::web::large_page().replacen(
        "<main>",
        "<main><p><button onclick=\"document.getElementById('review').showModal()\">Review order</button></p>\
         <dialog id=\"review\"><h2>Review</h2><p>Confirm the order?</p>\
         <button onclick=\"this.closest('dialog').close()\">Close</button></dialog>",
        1,
    )
}

/// The page in a headless Chromium.
fn web(runs: usize, rt: &tokio::runtime::Runtime) -> anyhow::Result<bool> {
    eprintln!("== web: starting headless Chromium");
    let port =
        cup_bench::web::serve(vec![("/".to_owned(), web_page())]).map_err(anyhow::Error::msg)?;
    let browser = Browser::start(&BrowserOptions {
        window_size: (1280, 800),
        ..BrowserOptions::default()
    })
    .context("Chromium did not start (scripts/install-deps.sh installs it)")?;
    let adapter = cup_web::WebAdapter::new(cup_web::Endpoint::Http {
        host: "127.0.0.1".into(),
        port: browser.port(),
    });
    let rows = rt.block_on(async {
        cup_bench::web::open(
            &adapter,
            &format!("http://127.0.0.1:{port}/"),
            "Shipping details",
        )
        .await
        .map_err(anyhow::Error::msg)?;
        let mut session = Session::new(Box::new(adapter));
        platform(&mut session, &WEB, runs).await
    });
    drop(browser);
    Ok(report("the large page, web", &rows.context("web")?))
}

fn main() -> ExitCode {
    cup_bench::init_logs();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut which: Vec<String> = PLATFORMS.iter().map(|p| (*p).to_owned()).collect();
    if let Some(i) = args.iter().position(|a| a == "--platforms") {
        let Some(list) = args.get(i + 1).cloned() else {
            eprintln!("since-cost: --platforms needs a list, e.g. --platforms x11,web");
            return ExitCode::from(2);
        };
        which = list.split(',').map(str::to_owned).collect();
        if let Some(bad) = which.iter().find(|p| !PLATFORMS.contains(&p.as_str())) {
            eprintln!(
                "since-cost: --platforms: unknown {bad:?}; use {}",
                PLATFORMS.join(", ")
            );
            return ExitCode::from(2);
        }
        args.drain(i..=i + 1);
    }
    if !args.iter().any(|a| a == "--runs") {
        args.extend(["--runs".to_owned(), "7".to_owned()]);
    }
    let runs = match cup_bench::parse_runs(&args, USAGE) {
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Some(runs)) => runs,
        Err(e) => {
            eprintln!("since-cost: {e}");
            return ExitCode::from(2);
        }
    };
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("since-cost: error: cannot start the tokio runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let mut all_ok = true;
    let mut failed = false;
    for p in &which {
        let result = match p.as_str() {
            "x11" => desktop(runs, &rt, false),
            "sway" => desktop(runs, &rt, true),
            _ => web(runs, &rt),
        };
        match result {
            Ok(ok) => all_ok &= ok,
            Err(e) => {
                eprintln!("since-cost: error: {e:#}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(2)
    } else if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
