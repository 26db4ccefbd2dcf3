#!/usr/bin/env bash
# Proves that the lint settings of the test build still make warnings
# errors. The test tiers enforce clippy's lints through clippy-driver's
# private encoding of its arguments (RUSTC_WORKSPACE_WRAPPER=clippy-driver,
# CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"): if that
# encoding changed, the lints would silently stop being enforced. So three
# throwaway crates (no dependencies, offline, in a temporary directory) are
# built with exactly that environment: a clean one must build, one with a
# planted clippy warning and one with a planted rustc warning must fail,
# each naming its lint. Takes a few seconds.
#
# Uses RUSTC_WORKSPACE_WRAPPER and CLIPPY_ARGS as the caller exported them
# (scripts/lint-env.sh, which the tiers source, exports them).
set -euo pipefail

fail() {
    echo "scripts/lint-canary.sh: $*" >&2
    exit 1
}

[ -n "${RUSTC_WORKSPACE_WRAPPER:-}" ] ||
    fail "RUSTC_WORKSPACE_WRAPPER is not set; source scripts/lint-env.sh first, as scripts/test-fast.sh does"

dir="$(mktemp -d "${TMPDIR:-/tmp}/cup-lint-canary.XXXXXX")"
trap 'rm -rf "$dir"' EXIT

# plant NAME CODE: a standalone package (its own workspace) whose lib.rs is
# CODE.
plant() {
    mkdir -p "$dir/$1/src"
    cat >"$dir/$1/Cargo.toml" <<EOF
[package]
name = "$1"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]
EOF
    printf '%s\n' "$2" >"$dir/$1/src/lib.rs"
}

# build NAME: builds the package with the caller's wrapper and lint
# arguments; its output is kept in $dir/NAME.log.
build() {
    (cd "$dir/$1" && CARGO_TARGET_DIR="$dir/target" cargo build --offline --quiet) \
        >"$dir/$1.log" 2>&1
}

plant canary_clean '//! No warning at all.

/// Twice `x`.
pub fn twice(x: u32) -> u32 {
    x.wrapping_mul(2)
}'
# clippy::needless_return: a default (warn-level) clippy lint that rustc
# does not know.
plant canary_clippy '//! A clippy warning only.

/// Twice `x`.
pub fn twice(x: u32) -> u32 {
    return x.wrapping_mul(2);
}'
# unused_variables: a rustc warning.
plant canary_rustc '//! A rustc warning only.

/// Twice `x`.
pub fn twice(x: u32) -> u32 {
    let unused = x;
    x.wrapping_mul(2)
}'

if ! build canary_clean; then
    cat "$dir/canary_clean.log" >&2
    fail "a crate without warnings does not build with RUSTC_WORKSPACE_WRAPPER=$RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS=${CLIPPY_ARGS:-}; the canary cannot tell anything (output above)"
fi
# must_fail NAME LINT: the package must fail to build, naming LINT (as
# `unused_variables` or `unused-variables`: rustc writes both).
must_fail() {
    if build "$1"; then
        cat "$dir/$1.log" >&2
        fail "LINTS ARE NOT ENFORCED: a crate with a planted $2 warning built without error under RUSTC_WORKSPACE_WRAPPER=$RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS=${CLIPPY_ARGS:-} (has clippy-driver's CLIPPY_ARGS encoding changed?)"
    fi
    if ! grep -q "${2//_/[-_]}" "$dir/$1.log"; then
        cat "$dir/$1.log" >&2
        fail "the crate with a planted $2 warning failed to build, but not because of $2 (output above)"
    fi
}
must_fail canary_clippy clippy::needless_return
must_fail canary_rustc unused_variables
echo "lint canary: planted clippy and rustc warnings fail the build"
