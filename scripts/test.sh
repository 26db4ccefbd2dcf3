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

echo "== system packages (Xvfb, D-Bus, AT-SPI, GTK/Qt apps, Chromium)"
if [ "$(id -u)" -eq 0 ]; then
    scripts/install-deps.sh
else
    sudo scripts/install-deps.sh
fi

echo "== MCP client for the MCP tests (Python SDK in target/mcp-client)"
scripts/install-mcp-client.sh

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test"
cargo test --workspace --locked
