//! `android-transport`: what cup's Android adapter costs on this machine
//! (issue 40), side by side in one run:
//!
//! - parse + map of a 3,000-node UI dump (target ≤ 10 ms);
//! - per-command transport overhead: cup's own client of the adb server
//!   against the `adb` command line, both through Debian's real adb
//!   server to the same device — a device of the bench's own on loopback
//!   that answers at once (no Android runs here), so the figures are the
//!   transport's alone: a shell command (`input tap`, shell protocol v2),
//!   and a 3,000-node dump through `exec:` (1.17 MB).
//!
//! ```text
//! cargo run --release -p cup-bench --bin android-transport [-- --runs 20]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use cup::CaptureLimits;
use cup_bench::stats::{summarize, Summary};

#[path = "../../../../crates/cup-android/tests/support/mod.rs"]
mod adb_support;

use adb_support::{AdbServerProcess, FakeDevice, Reply};

const USAGE: &str = "\
usage: android-transport [--runs N]

Times parse + map of a 3,000-node Android UI dump, and one command and one
dump through the real adb server to a loopback device, by cup's client and
by the adb command line; 2 warm-ups, then N timed runs each (default 20).";

/// Parse + map target of issue 40, in milliseconds.
const PARSE_MAP_TARGET_MS: f64 = 10.0;

fn runs_from_args() -> anyhow::Result<usize> {
    let mut args = std::env::args().skip(1);
    let mut runs = 20;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => {
                runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|n| *n >= 5)
                    .context("--runs needs a number of at least 5")?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => bail!("unknown argument {other}\n{USAGE}"),
        }
    }
    Ok(runs)
}

fn line(what: &str, s: Summary) -> String {
    format!(
        "{what:<46} min {:>8.2} ms   median {:>8.2} ms",
        s.min, s.median
    )
}

/// Times `f` `runs` times after 2 warm-ups, in milliseconds.
async fn time<F, Fut>(runs: usize, mut f: F) -> anyhow::Result<Summary>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>>,
{
    let mut times = Vec::new();
    for i in 0..runs + 2 {
        let started = Instant::now();
        f().await?;
        if i >= 2 {
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
    }
    summarize(&times).context("no timings")
}

fn adb_cli(port: u16, serial: &str, args: &[&str]) -> anyhow::Result<Vec<u8>> {
    let out = Command::new("adb")
        .args(["-P", &port.to_string(), "-s", serial])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .context("adb (apt install adb)")?;
    if !out.status.success() {
        bail!("adb {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(out.stdout)
}

async fn run() -> anyhow::Result<bool> {
    let runs = runs_from_args()?;
    let xml = cup_android::sample::long_list(600);
    let nodes = cup_android::dump::parse(&xml)
        .context("the sample dump")?
        .roots
        .iter()
        .map(cup_android::facts::AndroidNode::count)
        .sum::<usize>();

    // 1. Parse + map, on this thread, no I/O.
    let parse_map = time(runs, || {
        let xml = &xml;
        async move {
            let dump = cup_android::dump::parse(xml)?;
            let ws = cup_android::map::windows(&dump, None);
            let capture = cup_android::map::map(&dump, &ws, &CaptureLimits::default());
            anyhow::ensure!(capture.partial.is_none(), "cut");
            Ok(())
        }
    })
    .await?;

    // 2. The transport: the real adb server and a loopback device.
    let server = AdbServerProcess::start();
    let dump_reply = format!("{xml}UI hierchary dumped to: /dev/tty\n");
    let device = FakeDevice::start(
        "shell_v2,cmd",
        // The command line quotes what follows the program for exec-out
        // (`uiautomator 'dump' '/dev/tty'`); cup sends it as written.
        Arc::new(move |cmd: &str| {
            if cmd.starts_with("uiautomator") {
                Reply::text(&dump_reply)
            } else {
                Reply::text("")
            }
        }),
    )
    .await;
    let serial = server.adopt(device.addr).await;
    let client = server.client();
    let deadline = Duration::from_secs(10);
    let cup_tap = time(runs, || {
        let (client, serial) = (&client, &serial);
        async move {
            let out = client
                .shell(serial, "input tap 540 1200", true, deadline)
                .await?;
            anyhow::ensure!(out.exit == Some(0), "exit {:?}", out.exit);
            Ok(())
        }
    })
    .await?;
    let port = server.port;
    let cli_tap = time(runs, || {
        let serial = serial.clone();
        async move {
            tokio::task::spawn_blocking(move || {
                adb_cli(port, &serial, &["shell", "input", "tap", "540", "1200"]).map(|_| ())
            })
            .await?
        }
    })
    .await?;
    let cup_dump = time(runs, || {
        let (client, serial) = (&client, &serial);
        async move {
            let out = client
                .exec(serial, "uiautomator dump /dev/tty", deadline)
                .await?;
            anyhow::ensure!(out.len() > 1_000_000, "short dump: {}", out.len());
            Ok(())
        }
    })
    .await?;
    let cli_dump = time(runs, || {
        let serial = serial.clone();
        async move {
            let out = tokio::task::spawn_blocking(move || {
                adb_cli(
                    port,
                    &serial,
                    &["exec-out", "uiautomator", "dump", "/dev/tty"],
                )
            })
            .await??;
            anyhow::ensure!(out.len() > 1_000_000, "short dump: {}", out.len());
            Ok(())
        }
    })
    .await?;

    println!(
        "android-transport: {runs} runs each after 2 warm-ups; {nodes}-node dump of {} bytes",
        xml.len()
    );
    println!(
        "{}",
        line(&format!("parse + map, {nodes} nodes"), parse_map)
    );
    println!("{}", line("shell command: cup's adb client", cup_tap));
    println!("{}", line("shell command: adb command line", cli_tap));
    println!("{}", line("1.2 MB dump: cup's adb client", cup_dump));
    println!("{}", line("1.2 MB dump: adb command line", cli_dump));
    println!(
        "ratios (median): command line / cup: shell {:.1}x, dump {:.1}x",
        cli_tap.median / cup_tap.median,
        cli_dump.median / cup_dump.median
    );
    let pass = parse_map.median <= PARSE_MAP_TARGET_MS;
    println!(
        "parse + map median {:.2} ms, target <= {PARSE_MAP_TARGET_MS} ms: {}",
        parse_map.median,
        if pass { "PASS" } else { "FAIL" }
    );
    Ok(pass)
}

fn main() -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("android-transport: {e}");
            return ExitCode::from(2);
        }
    };
    match rt.block_on(run()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("android-transport: {e:#}");
            ExitCode::from(2)
        }
    }
}
