#!/usr/bin/env bash
# The whole test suite: installs what it needs (safe to run again), then
# runs the three tiers in order, each phase timed: the fast tier
# (formatting, lints with warnings as errors, unit, fixture and scripted
# tests: scripts/test-fast.sh), the live tier (real desktops, apps,
# browsers, Wine, the task suite: scripts/test-live.sh) and the packaging
# tier (manifests, fleet, wheel, Ray, Node, docs, image:
# scripts/test-packaging.sh). CONTRIBUTING.md says how to run one.
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

phase "web corpus for the web tests (python3-doc, rust-doc; Django and JupyterLab in target/webapps-venv)"
if [ "$(id -u)" -eq 0 ]; then
    scripts/install-webapps.sh
else
    sudo scripts/install-webapps.sh
fi

phase "fast tier (scripts/test-fast.sh)"
scripts/test-fast.sh
phase "live tier (scripts/test-live.sh)"
scripts/test-live.sh
phase "packaging tier (scripts/test-packaging.sh)"
scripts/test-packaging.sh
phase "done"
