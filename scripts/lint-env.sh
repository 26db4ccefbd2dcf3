# Sourced by the test tiers (scripts/test-fast.sh, scripts/test-live.sh):
# clippy's lints run inside the test build. clippy-driver, the compiler
# `cargo clippy` uses, wraps rustc for the workspace's crates, so every
# crate is compiled once, not checked by clippy and then built again: lint
# errors (warnings are errors) fail the build as `cargo clippy --workspace
# --all-targets -- -D warnings` would. Both tiers export the same values,
# so the live tier reuses the fast tier's build instead of redoing it.
#
# CLIPPY_ARGS is clippy-driver's private encoding: should it change, the
# lints would silently stop being enforced; scripts/lint-canary.sh (run by
# the fast tier) proves they still are.
if ! command -v clippy-driver >/dev/null 2>&1; then
    echo "scripts/lint-env.sh: clippy-driver not found; run: rustup component add clippy" >&2
    exit 2
fi
RUSTC_WORKSPACE_WRAPPER="$(command -v clippy-driver)"
export RUSTC_WORKSPACE_WRAPPER
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
