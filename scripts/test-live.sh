#!/usr/bin/env bash
# The live tier: the tests that start real components on private displays,
# compositors and buses (Xvfb, sway, KWin, GNOME Shell, D-Bus, AT-SPI, the
# apps of OSWorld's set, headless Chromium and Firefox, cup.exe under
# Wine, Debian's adb server, an MCP client), then the OSWorld-style task
# suite through `cup mcp`. scripts/tiers.py lists which test targets these
# are. Needs what scripts/test.sh installs (run it once on a machine); a
# missing component fails its test with what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

phase() { echo "== [live tier ${SECONDS}s] $*"; }
# shellcheck source=scripts/lint-env.sh
source scripts/lint-env.sh
# cup.exe, linked with mingw-w64 (and linted like the rest): the Wine
# tests of crates/cup-windows run it.
phase "cup.exe for x86_64-pc-windows-gnu (mingw-w64), with clippy's lints"
cargo build --locked -p cup-cli --target x86_64-pc-windows-gnu
phase "live tests (scripts/tiers.py live)"
# shellcheck disable=SC2046 # the tier's cargo arguments, split on purpose
cargo test --locked $(scripts/tiers.py live)
# OSWorld-style tasks end to end: 20 tasks in Calc, Writer, Impress,
# VLC, GIMP, Files, gnome-terminal and Chromium, each on a private
# desktop of its own, driven through `cup mcp` (the release cup) by the
# official MCP client, and judged by oracles that read the apps' files,
# settings and a loopback server; three runs in a row, all must pass
# (about 5 minutes).
phase "task suite (20 OSWorld-style tasks x 3 runs, cup mcp + the official MCP client)"
# The release cup is built without the lint wrapper, as the packaging
# tier's image builds it: one release build serves both.
env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS cargo build --release --locked -p cup-cli
cargo build --locked -p cup-bench --bin osworld-tasks
target/debug/osworld-tasks --runs 3 --cup target/release/cup
echo "== live tier passed in ${SECONDS}s"
