//! `wayland-capture`: the same app captured under sway and under Xvfb
//! (issue 38).
//!
//! gtk3-widget-factory on a private X11 desktop (Xvfb) and on a private
//! headless sway, each 1280x800, both up at once, the window in front:
//! cup in process (release build), N timed full captures of the
//! foreground window on each, in alternating rounds (each round a
//! measuring process with 1 warm-up), so the machine's noise falls on both
//! alike; the Cua Driver 0.37.0's `get_window_state`
//! on both (its Wayland mode: `CUA_DRIVER_RS_ENABLE_WAYLAND=1`). Prints
//! min and median, node counts, whether the two trees have the same
//! nodes (role and name, in order), and the ratio sway / X11 (target
//! within 1.2x). Then on each desktop an element click and a pointer click
//! at a check button's centre, by cup and by the Cua Driver (its pixel
//! click, window-local), each checked by a fresh snapshot after it.
//!
//! ```text
//! bench/peers/setup.sh && cargo run --release -p cup-bench --bin wayland-capture [-- --runs 9]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context as _};
use cup::Session;
use cup_bench::actions;
use cup_bench::measurement::Measurement;
use cup_bench::peers::cua_driver::{self, McpClient};
use cup_bench::peers::cup_inproc;
use cup_bench::stats;
use cup_linux::{Desktop, LinuxAdapter};
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
    /// (what, who, outcome) of the click rows.
    clicks: Vec<(&'static str, &'static str, actions::Outcome)>,
}

/// The click rows on one desktop: an element click and a pointer click at
/// a check button's centre, by cup (in process) and by the Cua Driver
/// (MCP stdio, `env` its environment), each checked by a readback.
async fn clicks(
    sandbox: &Sandbox,
    pid: u32,
    runs: usize,
    scratch: &std::path::Path,
    env: &[(&str, &str)],
) -> Vec<(&'static str, &'static str, actions::Outcome)> {
    let mut session = Session::new(Box::new(LinuxAdapter::for_desktop(Desktop::from_pairs(
        &sandbox.env(),
    ))));
    let mut rows = vec![
        (
            "element click",
            "cup",
            actions::cup_clicks(&mut session, runs).await,
        ),
        (
            "pointer click",
            "cup",
            actions::cup_pointer_clicks(&mut session, runs).await,
        ),
    ];
    // Under Wayland the driver delivers pixel clicks only to the focused
    // window, and only when told to ("delivery_mode": "foreground").
    let extra = if env.is_empty() {
        serde_json::json!({})
    } else {
        serde_json::json!({"delivery_mode": "foreground"})
    };
    // The window's place: Cua's pixel clicks are window-local.
    let origin = match session.adapter().windows().await {
        Ok(w) => w
            .iter()
            .find(|w| w.info.pid == Some(i64::from(pid)))
            .and_then(|w| w.info.bounds)
            .map_or((0, 0), |b| (b.x, b.y)),
        Err(_) => (0, 0),
    };
    let binary = cua_driver::binary();
    let mut client = match McpClient::start_with(sandbox, &binary, &scratch.join("cua-clicks"), env)
    {
        Ok(c) => c,
        Err(e) => {
            rows.push(("element click", "Cua Driver", Err(e.clone())));
            rows.push(("pointer click", "Cua Driver", Err(e)));
            return rows;
        }
    };
    if let Err(e) = client.initialize().await {
        rows.push(("element click", "Cua Driver", Err(e.clone())));
        rows.push(("pointer click", "Cua Driver", Err(e)));
        client.shutdown().await;
        return rows;
    }
    rows.push((
        "element click",
        "Cua Driver",
        actions::cua_clicks(&mut client, &mut session, pid, runs).await,
    ));
    rows.push((
        "pointer click",
        "Cua Driver",
        actions::cua_pixel_clicks(&mut client, &mut session, pid, origin, &extra, runs).await,
    ));
    client.shutdown().await;
    rows
}

fn click_line(what: &str, who: &str, outcome: &actions::Outcome) -> String {
    match outcome {
        Ok(runs) => match stats::summarize(&runs.times_ms) {
            Some(s) => format!(
                "{what:<14} {who:<11} min {:.1} ms, median {:.1} ms; reported {}; the readback saw {}/{}",
                s.min,
                s.median,
                runs.reported_tally(),
                runs.observed_count(),
                runs.observed.len()
            ),
            None => format!("{what:<14} {who:<11} no runs"),
        },
        Err(e) => format!(
            "{what:<14} {who:<11} failed: {}",
            e.lines().next().unwrap_or_default()
        ),
    }
}

/// One desktop of the comparison, the app on it.
struct Desk {
    sandbox: Sandbox,
    pid: u32,
    wayland: bool,
}

fn desk(wayland: bool) -> anyhow::Result<Desk> {
    desk_with(wayland, cup_sandbox::Compositor::Sway)
}

fn desk_with(wayland: bool, compositor: cup_sandbox::Compositor) -> anyhow::Result<Desk> {
    let shell_extensions = if compositor == cup_sandbox::Compositor::Gnome {
        vec![gnome_extension()?]
    } else {
        Vec::new()
    };
    let sandbox = Sandbox::start(SandboxOptions {
        width: 1280,
        height: 800,
        wayland,
        compositor,
        shell_extensions,
        ..SandboxOptions::default()
    })
    .context(
        "cannot start the desktop (scripts/install-deps.sh installs Xvfb, sway, kwin-wayland, gnome-shell, pipewire and wireplumber)",
    )?;
    let app = sandbox
        .launch(APP, &[] as &[&str])
        .with_context(|| format!("cannot launch {APP}"))?;
    // Let the app go idle (its first layout) before anything is timed.
    let _ = cup_bench::settle::wait_idle(app.pid, Duration::from_secs(20));
    Ok(Desk {
        sandbox,
        pid: app.pid,
        wayland,
    })
}

/// cup's GNOME Shell extension for the GNOME Shell installed here.
fn gnome_extension() -> anyhow::Result<cup_sandbox::ShellExtension> {
    use cup_linux::setup;
    Ok(cup_sandbox::ShellExtension {
        uuid: setup::GNOME_EXTENSION_UUID.to_owned(),
        files: setup::gnome_extension_files().map_err(anyhow::Error::msg)?,
        bus_name: Some(setup::GNOME_EXTENSION_BUS_NAME.to_owned()),
    })
}

/// Rounds the timed captures are split into, alternating between the two
/// desktops (both up at once), so the machine's noise falls on both alike.
const ROUNDS: usize = 3;

/// cup's timed captures on every desktop, interleaved: [`ROUNDS`] rounds,
/// each a measuring process (1 warm-up) per desktop.
async fn interleaved(desks: &[&Desk], runs: usize) -> Vec<Result<Measurement, String>> {
    let mut out: Vec<Option<Result<Measurement, String>>> = desks.iter().map(|_| None).collect();
    let per_round = runs.div_ceil(ROUNDS);
    let mut left = runs;
    while left > 0 {
        let n = per_round.min(left);
        left -= n;
        for (slot, d) in out.iter_mut().zip(desks) {
            let got = cup_inproc::run(&d.sandbox, Scope::Foreground, n, None).await;
            *slot = Some(match (slot.take(), got) {
                (Some(Err(e)), _) | (_, Err(e)) => Err(e),
                (None, Ok(m)) => Ok(m),
                (Some(Ok(mut acc)), Ok(m)) => {
                    acc.times_ms.extend(m.times_ms);
                    acc.nodes_per_run.extend(m.nodes_per_run);
                    acc.cpu_ms.extend(m.cpu_ms);
                    acc.text = m.text;
                    acc.envelope = m.envelope;
                    Ok(acc)
                }
            });
        }
    }
    out.into_iter()
        .map(|m| m.unwrap_or_else(|| Err("no runs".to_owned())))
        .collect()
}

/// The Cua Driver's timed reads and both tools' clicks on `d`.
async fn peers_and_clicks(d: &Desk, runs: usize) -> anyhow::Result<Side> {
    // The driver's scratch home belongs to the sandbox's user.
    let scratch = d.sandbox.state_dir().join("home").join("bench");
    std::fs::create_dir_all(scratch.join("cua-home")).context("scratch directory")?;
    std::fs::create_dir_all(scratch.join("cua-clicks")).context("scratch directory")?;
    if d.wayland {
        for dir in [
            scratch.clone(),
            scratch.join("cua-home"),
            scratch.join("cua-clicks"),
        ] {
            let _ = std::os::unix::fs::chown(&dir, Some(65534), Some(65534));
        }
    }
    let env: &[(&str, &str)] = if d.wayland {
        &[("CUA_DRIVER_RS_ENABLE_WAYLAND", "1")]
    } else {
        &[]
    };
    let cua = cua_driver::run_with(&d.sandbox, d.pid, runs, &scratch, env)
        .await
        .window_state;
    let clicks = clicks(&d.sandbox, d.pid, runs, &scratch, env).await;
    Ok(Side {
        cup: Err("measured apart".to_owned()),
        cua,
        clicks,
    })
}

fn bench(runs: usize) -> anyhow::Result<bool> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?;
    // Part 1: X11 and sway up at once (the sway / X11 target, as it was
    // first measured); then sway goes, and X11, KWin and GNOME run at
    // once (X11 again, as the reference in the same load).
    let (x11_desk, sway_desk) = (desk(false)?, desk(true)?);
    let mut cups = runtime
        .block_on(interleaved(&[&x11_desk, &sway_desk], runs))
        .into_iter();
    let mut x11 = runtime.block_on(peers_and_clicks(&x11_desk, runs))?;
    let mut sway = runtime.block_on(peers_and_clicks(&sway_desk, runs))?;
    x11.cup = cups.next().unwrap_or_else(|| Err("no runs".to_owned()));
    sway.cup = cups.next().unwrap_or_else(|| Err("no runs".to_owned()));
    sway_desk.sandbox.stop().context("stopping the desktop")?;
    let kwin_desk = desk_with(true, cup_sandbox::Compositor::KWin)?;
    let gnome_desk = desk_with(true, cup_sandbox::Compositor::Gnome)?;
    let mut cups = runtime
        .block_on(interleaved(&[&x11_desk, &kwin_desk, &gnome_desk], runs))
        .into_iter();
    let x11_again = cups.next().unwrap_or_else(|| Err("no runs".to_owned()));
    let kwin_cup = cups.next().unwrap_or_else(|| Err("no runs".to_owned()));
    let gnome_cup = cups.next().unwrap_or_else(|| Err("no runs".to_owned()));
    // On KWin: cup's element click (AT-SPI). Its pointer needs KWin's fake
    // input, which KWin grants by program through /proc, unreadable for
    // this root process: see the KDE test for pointer clicks there.
    let kwin_click = runtime.block_on(async {
        let mut session = Session::new(Box::new(LinuxAdapter::for_desktop(Desktop::from_pairs(
            &kwin_desk.sandbox.env(),
        ))));
        actions::cup_clicks(&mut session, runs).await
    });
    // On GNOME: cup's element click and pointer click (mutter's
    // RemoteDesktop), both confirmed by cup and read back.
    let gnome_clicks = runtime.block_on(async {
        let mut session = Session::new(Box::new(LinuxAdapter::for_desktop(Desktop::from_pairs(
            &gnome_desk.sandbox.env(),
        ))));
        let element = actions::cup_clicks(&mut session, runs).await;
        let pointer = actions::cup_pointer_clicks(&mut session, runs).await;
        (element, pointer)
    });
    for d in [x11_desk, kwin_desk, gnome_desk] {
        d.sandbox.stop().context("stopping the desktop")?;
    }
    println!(
        "gtk3-widget-factory, foreground window, 1280x800, X11 and sway up at once, then X11, KWin and GNOME; cup: {runs} timed runs each in {ROUNDS} alternating rounds (1 warm-up a round), the others {runs} after 1 warm-up"
    );
    println!("  cup under Xvfb (X11):      {}", summary(&x11.cup));
    println!("  cup under sway (Wayland):  {}", summary(&sway.cup));
    println!("  then X11, KWin and GNOME up at once:");
    println!("  cup under Xvfb (X11):      {}", summary(&x11_again));
    println!("  cup under KWin 5.27 (Wayland): {}", summary(&kwin_cup));
    println!(
        "  cup under GNOME Shell 43 (Wayland): {}",
        summary(&gnome_cup)
    );
    println!("  Cua Driver 0.37 under Xvfb: {}", summary(&x11.cua));
    println!(
        "  Cua Driver 0.37 under sway (CUA_DRIVER_RS_ENABLE_WAYLAND=1): {}",
        summary(&sway.cua)
    );
    for (name, side) in [("Xvfb (X11)", &x11), ("sway (Wayland)", &sway)] {
        println!("  clicks on a check button under {name}, {runs} timed runs after 1 warm-up:");
        for (what, who, outcome) in &side.clicks {
            println!("    {}", click_line(what, who, outcome));
        }
    }
    println!("  clicks on a check button under KWin 5.27, {runs} timed runs after 1 warm-up:");
    println!("    {}", click_line("element click", "cup", &kwin_click));
    println!("  clicks on a check button under GNOME Shell 43, {runs} timed runs after 1 warm-up:");
    println!(
        "    {}",
        click_line("element click", "cup", &gnome_clicks.0)
    );
    println!(
        "    {}",
        click_line("pointer click", "cup", &gnome_clicks.1)
    );
    for (name, other) in [("KWin", &kwin_cup), ("GNOME", &gnome_cup)] {
        if let (Ok(a), Ok(k)) = (&x11_again, other) {
            if let (Some(sa), Some(sk)) =
                (stats::summarize(&a.times_ms), stats::summarize(&k.times_ms))
            {
                println!("  {name} / X11 median: {:.2}x", sk.median / sa.median);
            }
        }
    }
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
    cup_bench::init_logs();
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
