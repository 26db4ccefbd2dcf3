//! `fleet`: N `cup serve` desktops on this host, each in its own network
//! namespace, memory cgroup and /tmp, as uid 65534; one MCP client per
//! desktop in parallel. Prints start → /readyz, memory per desktop,
//! aggregate snapshots/s and per-call latency, the isolation checks and the
//! clean-up; exits 1 when a check fails, a call fails or anything is left.
//! Root only.
//!
//!   cargo run --release -p cup-bench --bin fleet -- [--n 20] [--seconds 60] [--cup target/release/cup]
//!
//! The test command runs it small (`--n 4 --seconds 5`, the debug cup):
//! there only the checks count; the figures are the bench's.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;

use cup_bench::fleet::{self, percentile, Options};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let parse = |name: &str, default: u64| -> Result<u64, String> {
        arg(&args, name).map_or(Ok(default), |v| {
            v.parse()
                .map_err(|_| format!("{name} {v:?}: give a whole number"))
        })
    };
    let options = match (parse("--n", 20), parse("--seconds", 60)) {
        (Ok(n), Ok(seconds)) if (2..=250).contains(&n) => Options {
            n: usize::try_from(n).unwrap_or(2),
            seconds,
            cup: arg(&args, "--cup").map_or_else(|| root.join("target/release/cup"), PathBuf::from),
        },
        (Ok(_), Ok(_)) => {
            eprintln!("fleet: --n must be 2..250");
            return ExitCode::from(2);
        }
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("fleet: {e}");
            return ExitCode::from(2);
        }
    };
    let uid = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(1).map(str::to_owned))
        })
        .unwrap_or_default();
    if uid != "0" {
        eprintln!("fleet: run as root (network namespaces, cgroups and setpriv need it)");
        return ExitCode::from(2);
    }
    let started = std::time::Instant::now();
    let report = match fleet::run(&options, &|line| eprintln!("fleet: {line}")) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("fleet: FAILED: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (apps, bare): (Vec<_>, Vec<_>) = report.desks.iter().partition(|d| d.app);
    println!(
        "fleet of {}: {} with {} and {} bare desktops, each `cup serve` in its own network namespace, memory cgroup and /tmp, as uid 65534 ({} cores)",
        report.desks.len(),
        apps.len(),
        fleet::APP,
        bare.len(),
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    for (label, desks, ready_target, memory_target) in [
        ("bare", &bare, 3000.0, 64.0),
        ("with the app", &apps, 6000.0, 128.0),
    ] {
        let ready: Vec<f64> = desks.iter().filter_map(|d| d.ready.map(ms)).collect();
        let memory: Vec<f64> = desks
            .iter()
            .map(|d| d.memory as f64 / 1_048_576.0)
            .collect();
        let p = |v: &[f64], q| percentile(v, q).unwrap_or(f64::NAN);
        println!(
            "  {label:<13} start → /readyz p50 {:>6.0} ms  p95 {:>6.0} ms (target ≤ {ready_target:.0} ms: {})   cgroup memory p50 {:>5.1} MiB  max {:>5.1} MiB (target ≤ {memory_target:.0} MiB: {})",
            p(&ready, 50.0),
            p(&ready, 95.0),
            if p(&ready, 95.0) <= ready_target { "met" } else { "NOT met" },
            p(&memory, 50.0),
            p(&memory, 100.0),
            if p(&memory, 100.0) <= memory_target { "met" } else { "NOT met" },
        );
    }
    let errors: usize = report.desks.iter().map(|d| d.errors.len()).sum();
    let load = report.load.as_secs_f64().max(1e-9);
    println!("  load {load:.1} s, one MCP client per desktop in parallel, {errors} errors:");
    for (label, with_app) in [
        ("app desktops' snapshots", true),
        ("bare desktops' answers", false),
    ] {
        let calls: Vec<f64> = report
            .desks
            .iter()
            .filter(|d| d.app == with_app)
            .flat_map(|d| d.calls.iter().map(|c| ms(*c)))
            .collect();
        println!(
            "    {label:<24} {:>6} calls, {:>6.1}/s in all, per call p50 {:>6.1} ms  p95 {:>6.1} ms",
            calls.len(),
            calls.len() as f64 / load,
            percentile(&calls, 50.0).unwrap_or(f64::NAN),
            percentile(&calls, 95.0).unwrap_or(f64::NAN),
        );
    }
    for d in &report.desks {
        for e in d.errors.iter().take(3) {
            println!("    desktop {}: {e}", d.index);
        }
    }
    for (what, ok, detail) in &report.checks {
        println!("  {} {what} ({detail})", if *ok { "ok  " } else { "FAIL" });
    }
    let slowest = report
        .desks
        .iter()
        .filter_map(|d| d.exit.as_ref().map(|e| ms(e.0)))
        .fold(0.0, f64::max);
    let statuses: Vec<String> = report
        .desks
        .iter()
        .filter_map(|d| d.exit.as_ref().map(|e| e.1.clone()))
        .filter(|s| s != "exit status: 0")
        .collect();
    println!(
        "  SIGTERM: every server gone within {slowest:.0} ms (target ≤ 5000 ms); {}",
        if statuses.is_empty() {
            "all exited 0".to_owned()
        } else {
            format!("exits: {statuses:?}")
        }
    );
    if report.leftovers.is_empty() {
        println!("  left behind: nothing (no process in any cgroup, no namespace, no temp dir)");
    } else {
        for l in &report.leftovers {
            println!("  LEFT: {l}");
        }
    }
    println!("  whole run {:.1} s", started.elapsed().as_secs_f64());
    if report.ok() {
        ExitCode::SUCCESS
    } else {
        println!("fleet: FAILED (see above)");
        ExitCode::FAILURE
    }
}
