//! `wayland-capture`: the same app captured under sway and under Xvfb
//! (issue 38).
//!
//! gtk3-widget-factory on a private X11 desktop (Xvfb) and on a private
//! headless sway, each 1280x800, the window in front: cup in process
//! (release build), 1 warm-up, then N timed full captures of the
//! foreground window on each; the Cua Driver 0.37.0's `get_window_state`
//! on both (its Wayland mode: `CUA_DRIVER_RS_ENABLE_WAYLAND=1`). Prints
//! min and median, node counts, whether the two trees have the same
//! nodes (role and name, in order), and the ratio sway / X11 (target
//! within 1.2x).
//!
//! ```text
//! bench/peers/setup.sh && cargo run --release -p cup-bench --bin wayland-capture [-- --runs 9]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context as _};
use cup_bench::measurement::Measurement;
use cup_bench::peers::{cua_driver, cup_inproc};
use cup_bench::stats;
use cup_protocol::Scope;
use cup_sandbox::{Sandbox, SandboxOptions};

const USAGE: &str = "\
usage: wayland-capture [--runs N]

Captures gtk3-widget-factory with cup under Xvfb and under a headless sway
(and with the Cua Driver 0.37.0 on both, where it runs); 1 warm-up, then N
timed runs each (default 9).";

/// The app of the comparison.
const APP: &str = "gtk3-widget-factory";

fn summary(m: &Result<Measurement, String>) -> String {
    match m {
        Ok(m) => match stats::summarize(&m.times_ms) {
            Some(s) => format!(
                "min {:.1} ms, median {:.1} ms, {} nodes",
                s.min,
                s.median,
                m.nodes_per_run
                    .last()
                    .copied()
                    .flatten()
                    .map_or_else(|| "?".to_owned(), |n| n.to_string())
            ),
            None => "no runs".to_owned(),
        },
        Err(e) => format!("failed: {e}"),
    }
}

/// (role, name) of every node of the envelope, in pre-order.
fn nodes_of(m: &Measurement) -> Vec<(String, String)> {
    fn walk(v: &serde_json::Value, out: &mut Vec<(String, String)>) {
        let text = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_owned();
        out.push((text("role"), text("name")));
        if let Some(children) = v.get("children").and_then(|c| c.as_array()) {
            for c in children {
                walk(c, out);
            }
        }
    }
    let mut out = Vec::new();
    if let Some(tree) = m
        .envelope
        .as_ref()
        .and_then(|e| e.get("tree"))
        .and_then(|t| t.as_array())
    {
        for root in tree {
            walk(root, &mut out);
        }
    }
    out
}

struct Side {
    cup: Result<Measurement, String>,
    cua: Result<Measurement, String>,
}

async fn side(wayland: bool, runs: usize) -> anyhow::Result<Side> {
    let sandbox = Sandbox::start(SandboxOptions {
        width: 1280,
        height: 800,
        wayland,
        ..SandboxOptions::default()
    })
    .context("cannot start the desktop (scripts/install-deps.sh installs Xvfb and sway)")?;
    let app = sandbox
        .launch(APP, &[] as &[&str])
        .with_context(|| format!("cannot launch {APP}"))?;
    // Let the app go idle (its first layout) before anything is timed.
    let _ = cup_bench::settle::wait_idle(app.pid, Duration::from_secs(20));
    let cup = cup_inproc::run(&sandbox, Scope::Foreground, runs, None).await;
    // The driver's scratch home belongs to the sandbox's user.
    let scratch = sandbox.state_dir().join("home").join("bench");
    std::fs::create_dir_all(scratch.join("cua-home")).context("scratch directory")?;
    if wayland {
        for dir in [scratch.clone(), scratch.join("cua-home")] {
            let _ = std::os::unix::fs::chown(&dir, Some(65534), Some(65534));
        }
    }
    let env: &[(&str, &str)] = if wayland {
        &[("CUA_DRIVER_RS_ENABLE_WAYLAND", "1")]
    } else {
        &[]
    };
    let cua = cua_driver::run_with(&sandbox, app.pid, runs, &scratch, env)
        .await
        .window_state;
    sandbox.stop().context("stopping the desktop")?;
    Ok(Side { cup, cua })
}

fn bench(runs: usize) -> anyhow::Result<bool> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?;
    let x11 = runtime.block_on(side(false, runs))?;
    let sway = runtime.block_on(side(true, runs))?;
    println!("gtk3-widget-factory, foreground window, 1280x800, {runs} timed runs after 1 warm-up");
    println!("  cup under Xvfb (X11):      {}", summary(&x11.cup));
    println!("  cup under sway (Wayland):  {}", summary(&sway.cup));
    println!("  Cua Driver 0.37 under Xvfb: {}", summary(&x11.cua));
    println!(
        "  Cua Driver 0.37 under sway (CUA_DRIVER_RS_ENABLE_WAYLAND=1): {}",
        summary(&sway.cua)
    );
    let (Ok(a), Ok(b)) = (&x11.cup, &sway.cup) else {
        println!("FAIL: cup did not capture on both");
        return Ok(false);
    };
    // GTK 3 shows Minimize and Maximize in its header bar only where the
    // window manager can do them (not on sway): the desktop's, not the
    // app's, nodes; left out of the comparison.
    let wm_buttons =
        |n: &(String, String)| n.0 == "button" && (n.1 == "Minimize" || n.1 == "Maximize");
    let (mut na, mut nb) = (nodes_of(a), nodes_of(b));
    let dropped = na.iter().filter(|n| wm_buttons(n)).count();
    na.retain(|n| !wm_buttons(n));
    nb.retain(|n| !wm_buttons(n));
    let same = na == nb;
    println!(
        "  same nodes (role and name, in order; X11's {dropped} Minimize/Maximize header-bar buttons aside): {} ({} under X11, {} under sway)",
        if same { "yes" } else { "NO" },
        na.len(),
        nb.len()
    );
    if !same {
        let first = na.iter().zip(&nb).position(|(x, y)| x != y);
        if let Some(i) = first {
            println!("    first difference at node {i}:");
            println!("      X11:  {:?}", &na[i..(i + 4).min(na.len())]);
            println!("      sway: {:?}", &nb[i..(i + 4).min(nb.len())]);
        }
        let only = |a: &[(String, String)], b: &[(String, String)]| {
            a.iter()
                .filter(|n| !b.contains(n))
                .cloned()
                .collect::<Vec<_>>()
        };
        println!("    only under X11: {:?}", only(&na, &nb));
        println!("    only under sway: {:?}", only(&nb, &na));
    }
    let (Some(sa), Some(sb)) = (stats::summarize(&a.times_ms), stats::summarize(&b.times_ms))
    else {
        return Ok(false);
    };
    let ratio = sb.median / sa.median;
    let within = ratio <= 1.2;
    println!(
        "  sway / X11 median: {ratio:.2}x (target <= 1.2x): {}",
        if within { "PASS" } else { "FAIL" }
    );
    if let (Ok(c), Some(s)) = (&sway.cua, stats::summarize(&b.times_ms)) {
        if let Some(cs) = stats::summarize(&c.times_ms) {
            println!(
                "  Cua Driver / cup under sway (median): {:.1}x",
                cs.median / s.median
            );
        }
    }
    Ok(same && within)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(cup_inproc::MEASURE_FLAG) {
        return match measure(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("wayland-capture: error: {e:#}");
                ExitCode::from(2)
            }
        };
    }
    let mut runs = 9;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--runs" => match it.next().and_then(|v| v.parse::<usize>().ok()) {
                Some(n) if n > 0 => runs = n,
                _ => {
                    eprintln!("wayland-capture: error: --runs needs a whole number of at least 1");
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!("wayland-capture: error: unknown argument {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    match bench(runs) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("wayland-capture: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Child mode: one JSON measurement of cup on the desktop of the
/// environment.
fn measure(args: &[String]) -> anyhow::Result<()> {
    let mut scope = Scope::Foreground;
    let mut runs = 9;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let value = it.next().with_context(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--scope" => scope = value.parse().map_err(|e| anyhow::anyhow!("--scope: {e}"))?,
            "--runs" => runs = value.parse().context("--runs")?,
            "--wait-for" => {}
            other => bail!("unknown argument {other:?}"),
        }
    }
    let measurement = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?
        .block_on(cup_inproc::measure(scope, runs, None))
        .map_err(|e| anyhow::anyhow!(e))?;
    println!("{}", serde_json::to_string(&measurement)?);
    Ok(())
}
