#!/usr/bin/env bash
# The fast tier: formatting, clippy's lints (warnings are errors) on every
# target this project is built for, and the tests that need no desktop, no
# browser, no Wine and no adb: every crate's unit tests (fixtures of
# native facts included), the Session over a scripted adapter, the
# protocol's tests, the doc tests. Under 5 minutes on two cores with a
# warm build. Installs nothing: run scripts/test.sh once on a machine
# first (it adds the Rust targets and components).
#
# The live tier is scripts/test-live.sh, the packaging tier
# scripts/test-packaging.sh; scripts/test.sh (the README's test command)
# runs all three, in that order. CONTRIBUTING.md says how to run one test.
set -euo pipefail
cd "$(dirname "$0")/.."

phase() { echo "== [fast tier ${SECONDS}s] $*"; }
for t in x86_64-pc-windows-msvc aarch64-apple-darwin x86_64-apple-darwin; do
    if ! rustup target list --installed | grep -qx "$t"; then
        echo "scripts/test-fast.sh: Rust target $t missing; run: rustup target add $t (scripts/test.sh adds it)" >&2
        exit 2
    fi
done

phase "cargo fmt --check"
cargo fmt --all -- --check
phase "every test target in one tier (scripts/tiers.py check)"
scripts/tiers.py check
# The Windows build of every crate that runs on Windows (Linux-only crates
# excluded), and the tests of cup-windows and of the pure AT-SPI mapping,
# for the MSVC target: type-checked with clippy's lints (nothing is
# linked; no Windows SDK is needed).
phase "cargo clippy for x86_64-pc-windows-msvc (-D warnings)"
cargo clippy --locked --target x86_64-pc-windows-msvc --workspace \
    --exclude cup-linux --exclude cup-atspi --exclude cup-linux-display \
    --exclude cup-x11 --exclude cup-wayland --exclude cup-sandbox --exclude cup-bench -- -D warnings
cargo clippy --locked --target x86_64-pc-windows-msvc -p cup-windows -p cup-protocol -p cup -p cup-draw \
    -p cup-atspi-map --all-targets -- -D warnings
# The macOS build of every crate that runs on macOS, and the tests of
# cup-macos and of the pure AT-SPI mapping, for Apple silicon:
# type-checked with clippy's lints.
phase "cargo clippy for aarch64-apple-darwin (-D warnings)"
cargo clippy --locked --target aarch64-apple-darwin --workspace \
    --exclude cup-linux --exclude cup-atspi --exclude cup-linux-display \
    --exclude cup-x11 --exclude cup-wayland --exclude cup-sandbox --exclude cup-bench -- -D warnings
cargo clippy --locked --target aarch64-apple-darwin -p cup-macos -p cup-protocol -p cup -p cup-draw \
    -p cup-atspi-map --all-targets -- -D warnings
# Intel Macs: the adapter and the binary, with what they depend on.
phase "cargo clippy for x86_64-apple-darwin (-D warnings)"
cargo clippy --locked --target x86_64-apple-darwin -p cup-macos -p cup-cli -p cup-node -- -D warnings
# The X11-only build (no `wayland` feature: the OCI image's, `cup serve`'s).
phase "cargo clippy of cup built for X11 only (--no-default-features, -D warnings)"
cargo clippy --locked -p cup-linux -p cup-cli --no-default-features --all-targets -- -D warnings

# shellcheck source=scripts/lint-env.sh
source scripts/lint-env.sh
phase "lint canary (planted warnings must fail a build)"
scripts/lint-canary.sh
# Every target of the workspace, the live tier's tests included, so that
# their code is linted here too.
phase "cargo build of every target, with clippy's lints (-D warnings)"
cargo test --workspace --all-targets --locked --no-run
phase "unit tests of every crate (fixtures of native facts included)"
cargo test --workspace --locked --lib --bins
phase "the protocol's and the Session's tests (scripts/tiers.py fast)"
# shellcheck disable=SC2046 # the tier's cargo arguments, split on purpose
cargo test --locked $(scripts/tiers.py fast)
phase "doc tests"
cargo test --workspace --locked --doc
echo "== fast tier passed in ${SECONDS}s"
