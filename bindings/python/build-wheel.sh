#!/usr/bin/env bash
# Builds the cup-rs wheel (the Python package `cup` and the `cup` binary)
# into target/wheels. Usage: bindings/python/build-wheel.sh [--release]
#   --release  optimized (for benchmarks and publishing); default: the dev
#              profile, sharing the test build's compiled dependencies.
# Needs maturin (target/py-build/bin/maturin, made here if missing).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PROFILE=dev
OUT=debug
STRIP=()
for arg in "$@"; do
    case "$arg" in
        # The release profile keeps line tables (for profiling); the wheel
        # does not need them.
        --release) PROFILE=release; OUT=release; STRIP=(--strip) ;;
        *) echo "build-wheel.sh: unknown option $arg (use --release or nothing)" >&2; exit 2 ;;
    esac
done
MATURIN_VERSION=1.16.0
TOOLS="$ROOT/target/py-build"
if [[ ! -x "$TOOLS/bin/maturin" ]] || [[ "$("$TOOLS/bin/maturin" --version)" != "maturin $MATURIN_VERSION" ]]; then
    echo "build-wheel: installing maturin $MATURIN_VERSION into $TOOLS"
    python3 -m venv "$TOOLS"
    "$TOOLS/bin/pip" install --quiet --disable-pip-version-check "maturin==$MATURIN_VERSION"
fi
cd "$ROOT"
# The cup binary, installed on PATH by the wheel's data/scripts.
cargo build --locked --profile "$PROFILE" -p cup-cli --bin cup
mkdir -p "$HERE/wheel-data/scripts"
cp "$ROOT/target/$OUT/cup" "$HERE/wheel-data/scripts/cup"
chmod 755 "$HERE/wheel-data/scripts/cup"
if ((${#STRIP[@]})); then
    strip --strip-debug "$HERE/wheel-data/scripts/cup"
fi
rm -f "$ROOT"/target/wheels/cup_rs-*.whl
"$TOOLS/bin/maturin" build --locked --profile "$PROFILE" --manifest-path "$HERE/Cargo.toml" \
    --out "$ROOT/target/wheels" --compatibility linux --quiet ${STRIP[@]+"${STRIP[@]}"}
ls "$ROOT"/target/wheels/cup_rs-*.whl
