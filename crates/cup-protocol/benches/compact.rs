//! Compact rendering and parsing of a 10,000-node envelope.
//! Targets (issue 2): render ≤ 10 ms, parse ≤ 10 ms on the 2-core CI machine.
//! Side by side with the reference SDKs: `bench/compact_vs_reference.py`.
#![allow(missing_docs, clippy::expect_used)]

#[path = "support/synthetic.rs"]
mod synthetic;

use cup_protocol::compact::{parse, render, RenderOptions};
use divan::Bencher;

fn main() {
    divan::main();
}

#[divan::bench(args = [1_000, 10_000])]
fn render_compact(bencher: Bencher<'_, '_>, nodes: usize) {
    let env = synthetic::envelope(nodes);
    let opts = RenderOptions {
        max_chars: 0,
        ..RenderOptions::default()
    };
    bencher.bench(|| render(divan::black_box(&env), &opts));
}

#[divan::bench(args = [1_000, 10_000])]
fn parse_compact(bencher: Bencher<'_, '_>, nodes: usize) {
    let env = synthetic::envelope(nodes);
    let text = render(
        &env,
        &RenderOptions {
            max_chars: 0,
            ..RenderOptions::default()
        },
    );
    bencher.bench(|| parse(divan::black_box(&text)).expect("parses"));
}

#[divan::bench(args = [10_000])]
fn render_compact_capped(bencher: Bencher<'_, '_>, nodes: usize) {
    let env = synthetic::envelope(nodes);
    bencher.bench(|| render(divan::black_box(&env), &RenderOptions::default()));
}
