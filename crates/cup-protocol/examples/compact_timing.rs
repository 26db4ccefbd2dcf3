//! Times cup's compact rendering and parsing of one envelope, in process,
//! for the side-by-side benchmark `bench/compact_vs_reference.py`.
//!
//! `compact_timing gen N FILE` writes the synthetic N-node envelope as JSON;
//! `compact_timing time FILE RUNS` prints JSON with every run's milliseconds.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::expect_used,
    missing_docs
)]

#[path = "../benches/support/synthetic.rs"]
mod synthetic;

use std::time::Instant;

use cup_protocol::compact::{parse, render, RenderOptions};
use cup_protocol::Envelope;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("gen") => {
            let n: usize = args[2].parse().expect("node count");
            let env = synthetic::envelope(n);
            std::fs::write(&args[3], serde_json::to_string(&env).expect("json")).expect("write");
        }
        Some("time") => {
            let env: Envelope =
                serde_json::from_str(&std::fs::read_to_string(&args[2]).expect("read"))
                    .expect("envelope");
            let runs: usize = args[3].parse().expect("runs");
            let opts = RenderOptions {
                max_chars: 0,
                ..RenderOptions::default()
            };
            let text = render(&env, &opts); // warm-up
            let mut render_ms = Vec::new();
            let mut parse_ms = Vec::new();
            for _ in 0..runs {
                let t = Instant::now();
                let out = render(&env, &opts);
                render_ms.push(t.elapsed().as_secs_f64() * 1e3);
                let t = Instant::now();
                let doc = parse(&out).expect("parses");
                parse_ms.push(t.elapsed().as_secs_f64() * 1e3);
                assert_eq!(
                    doc.nodes().count(),
                    text.lines()
                        .filter(|l| l.trim_start().starts_with('['))
                        .count()
                );
            }
            println!(
                "{}",
                serde_json::json!({"render_ms": render_ms, "parse_ms": parse_ms, "lines": text.lines().count()})
            );
        }
        _ => eprintln!("usage: compact_timing gen N FILE | compact_timing time FILE RUNS"),
    }
}
