#!/usr/bin/env bash
# The main job, live: builds cup and renders the CUP spec's example envelope
# as compact text, then searches it. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
    echo "scripts/demo.sh: cargo not found; install the Rust toolchain (rustup) first" >&2
    exit 2
fi
cargo build --release --locked -p cup-cli
cup=target/release/cup
example=crates/cup-protocol/data/example.json

echo "\$ cup render $example"
"$cup" render "$example"
echo
echo "\$ cup find $example \"the explorer tree\""
"$cup" find "$example" "the explorer tree"
echo
echo "\$ cup validate $example"
"$cup" validate "$example"
