//! Captures the live desktop N times in one session and prints the compact
//! text of the last capture and the timings (warm-up excluded).
//!
//! `cargo run --release -p cup-linux --example capture -- [scope] [runs] [app]`
#![allow(clippy::print_stdout, clippy::print_stderr, missing_docs)]

use std::time::Instant;

use cup::{Session, SnapshotRequest};
use cup_protocol::Scope;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("CUP_LOG"))
        .with_writer(std::io::stderr)
        .init();
    let args: Vec<String> = std::env::args().collect();
    let scope: Scope = args
        .get(1)
        .map_or(Ok(Scope::Foreground), |s| s.parse())
        .unwrap_or(Scope::Foreground);
    let runs: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let app = args.get(3).cloned();
    let mut session = Session::new(Box::new(cup_linux::LinuxAdapter::new()));
    let req = SnapshotRequest {
        scope,
        app,
        ..SnapshotRequest::default()
    };
    let mut times = Vec::new();
    for i in 0..=runs {
        let t = Instant::now();
        match session.snapshot(&req).await {
            Ok(_) => {}
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
        if i > 0 {
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    let snap = session.last().map(|s| s.text.clone()).unwrap_or_default();
    println!("{snap}");
    let nodes = session.last().map_or(0, |s| s.envelope.node_count());
    times.sort_by(f64::total_cmp);
    eprintln!(
        "{nodes} nodes; {runs} runs: min {:.1} ms, median {:.1} ms",
        times.first().copied().unwrap_or(0.0),
        times.get(times.len() / 2).copied().unwrap_or(0.0)
    );
}
