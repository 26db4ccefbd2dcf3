#!/usr/bin/env bash
# The whole test suite: formatting, lints (warnings are errors) and every
# test of the workspace. Installs what it needs; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
    echo "scripts/test.sh: cargo not found; install the Rust toolchain (rustup) first" >&2
    exit 2
fi
for component in rustfmt clippy; do
    if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
        echo "scripts/test.sh: cargo ${component/rustfmt/fmt} missing; installing with rustup" >&2
        rustup component add "$component"
    fi
done

# Each phase says when it started and how much disk is free where the
# build goes (the CI log shows where the time and the space go).
free_gb() { df -BG --output=avail . 2>/dev/null | tail -1 | tr -dc '0-9'; }
phase() { echo "== [${SECONDS}s] $* ($(free_gb) GB free)"; }

# A clean run takes about 12 GB: build outputs in target/ (~9 GB: the
# workspace for Linux, Windows and macOS, the wheels, the Node package, the
# venvs, the release binary) and, made once, the Wine and image roots in
# /var/lib/cup (~4 GB). A full disk fails some later step with "No space
# left on device"; say so first.
free_now="$(free_gb)"
if [ ! -d target/debug ] && [ -n "$free_now" ] && [ "$free_now" -lt 12 ]; then
    echo "scripts/test.sh: warning: only ${free_now} GB free here and a clean run needs about 12 GB; free some space if a step fails with 'No space left on device'" >&2
fi

phase "system packages (Xvfb, D-Bus, AT-SPI, GTK/Qt apps, Chromium)"
if [ "$(id -u)" -eq 0 ]; then
    scripts/install-deps.sh
else
    sudo scripts/install-deps.sh
fi

# Windows: clippy checks the workspace for the MSVC target; cup.exe is
# linked for the GNU target with Debian's mingw-w64 (install-deps) and run
# under Wine 10 in a Debian 13 root. A failed download fails the run here.
phase "rustup targets for Windows (x86_64-pc-windows-msvc, -gnu)"
for target in x86_64-pc-windows-msvc x86_64-pc-windows-gnu; do
    if ! rustup target list --installed | grep -qx "$target"; then
        rustup target add "$target"
    fi
done

# macOS cannot be linked here (no Apple SDK): its crates are type-checked.
phase "rustup targets for macOS (aarch64- and x86_64-apple-darwin)"
for t in aarch64-apple-darwin x86_64-apple-darwin; do
    if ! rustup target list --installed | grep -qx "$t"; then
        rustup target add "$t"
    fi
done

phase "Wine 10 in a Debian 13 root (scripts/wine-root.sh; made once, reused)"
if [ "$(id -u)" -eq 0 ]; then
    scripts/wine-root.sh
else
    sudo scripts/wine-root.sh
fi

phase "MCP client for the MCP tests (Python SDK in target/mcp-client)"
scripts/install-mcp-client.sh

phase "Kubernetes manifests (deploy/kubernetes: strict offline schema validation)"
scripts/validate-manifests.sh

phase "cargo fmt --check"
cargo fmt --all -- --check
# The Windows build of every crate that runs on Windows (Linux-only crates
# excluded), and cup-windows' own tests, for the MSVC target: type-checked
# with clippy's lints (nothing is linked; no Windows SDK is needed).
phase "cargo clippy for x86_64-pc-windows-msvc (-D warnings)"
cargo clippy --locked --target x86_64-pc-windows-msvc --workspace \
    --exclude cup-linux --exclude cup-sandbox --exclude cup-bench -- -D warnings
cargo clippy --locked --target x86_64-pc-windows-msvc -p cup-windows -p cup-protocol -p cup \
    --all-targets -- -D warnings
# The macOS build of every crate that runs on macOS, and cup-macos' own
# tests, for Apple silicon: type-checked with clippy's lints.
phase "cargo clippy for aarch64-apple-darwin (-D warnings)"
cargo clippy --locked --target aarch64-apple-darwin --workspace \
    --exclude cup-linux --exclude cup-sandbox --exclude cup-bench -- -D warnings
cargo clippy --locked --target aarch64-apple-darwin -p cup-macos -p cup-protocol -p cup \
    --all-targets -- -D warnings
# Intel Macs: the adapter and the binary, with what they depend on.
phase "cargo clippy for x86_64-apple-darwin (-D warnings)"
cargo clippy --locked --target x86_64-apple-darwin -p cup-macos -p cup-cli -p cup-node -- -D warnings
# Clippy's lints run inside the test build (clippy-driver, the compiler
# `cargo clippy` uses, wraps rustc for the workspace's crates), so every
# crate is compiled once, not checked by clippy and then built again:
# lint errors (warnings are errors) fail the build as `cargo clippy
# --workspace --all-targets -- -D warnings` would.
export RUSTC_WORKSPACE_WRAPPER="$(command -v clippy-driver)"
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
# CLIPPY_ARGS is clippy-driver's private encoding: should it change, the
# lints would silently stop being enforced. Throwaway crates with a planted
# clippy warning and a planted rustc warning must fail to build with it.
phase "lint canary (planted warnings must fail a build)"
scripts/lint-canary.sh
phase "cargo build of every target, with clippy's lints (-D warnings)"
cargo test --workspace --all-targets --locked --no-run
# cup.exe, linked with mingw-w64 (and linted like the rest): the Wine
# tests of crates/cup-windows run it.
phase "cup.exe for x86_64-pc-windows-gnu (mingw-w64), with clippy's lints"
cargo build --locked -p cup-cli --target x86_64-pc-windows-gnu
phase "cargo test"
cargo test --workspace --locked
# A fleet of cup serve desktops, each in its own network namespace, memory
# cgroup and /tmp, as an unprivileged user: start, isolation (tokens,
# namespaces, the X cookie, one session per desktop), parallel MCP clients,
# SIGTERM, nothing left. Small here; the figures are the bench's (N = 20,
# docs/benchmarks.md).
phase "fleet of cup serve desktops (4 desktops, network namespaces, as root)"
cargo build --locked -p cup-bench --bin fleet
if [ "$(id -u)" -eq 0 ]; then
    target/debug/fleet --n 4 --seconds 5 --cup target/debug/cup
else
    sudo target/debug/fleet --n 4 --seconds 5 --cup target/debug/cup
fi
# The Python package: the wheel in a fresh venv, its pytest suite, and the
# reference SDK's own suite run against it.
phase "Python package (wheel, fresh venv, pytest, the reference SDK's suite)"
scripts/python-tests.sh
# Ray: a local cluster whose actors each own a cup serve desktop and run
# episodes on it through the Python package (examples/ray): 4 actors x 5
# episodes, isolation checks, every server exits 0, no Ray process left.
phase "Ray example (4 actors, each with its own cup serve desktop)"
scripts/ray-example.sh target/debug/cup
# The Node package: built, its live tests on the sandbox desktop and
# headless Chromium, a JavaScript adapter, the types under tsc --strict,
# and the packed tarballs in a fresh folder (require, import, npx cup-rs
# mcp with the official MCP client).
phase "Node package (addon, node --test, tsc --strict, npm pack in a fresh folder)"
scripts/node-tests.sh
# The API docs build without a warning (broken or private links). The
# binary is documented apart: its name is the facade library's.
phase "cargo doc (rustdoc warnings are errors)"
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --exclude cup-cli --no-deps --locked
RUSTDOCFLAGS="-D warnings" cargo doc -p cup-cli --bin cup --no-deps --locked
# cup's OCI image without a registry: a Debian 12 root made once and reused
# (like the Wine root), the release cup on top; inspected, run with runc
# (read-only root, tmpfs /tmp, uid 1000), driven by the MCP client, stopped
# with SIGTERM.
phase "OCI image, both variants (scripts/image.sh build, deploy/image/test.sh)"
cargo build --release --locked -p cup-cli
for variant in "" --chromium; do
    if [ "$(id -u)" -eq 0 ]; then
        deploy/image/test.sh $variant
    else
        sudo deploy/image/test.sh $variant
    fi
done
# OSWorld-style tasks end to end: 20 tasks in Calc, Writer, Impress,
# VLC, GIMP, Files, gnome-terminal and Chromium, each on a private
# desktop of its own, driven through `cup mcp` (the release cup built
# above) by the official MCP client, and judged by oracles that read the
# apps' files, settings and a loopback server; three runs in a row, all
# must pass (about 5 minutes).
phase "task suite (20 OSWorld-style tasks x 3 runs, cup mcp + the official MCP client)"
cargo build --locked -p cup-bench --bin osworld-tasks
target/debug/osworld-tasks --runs 3 --cup target/release/cup
phase "done"
