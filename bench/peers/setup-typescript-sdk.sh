#!/usr/bin/env bash
# Builds the reference TypeScript CUP SDK (computeruseprotocol 0.1.0) from a
# source folder for `node-capture` (bench/cup-bench): copies the folder
# (without node_modules and dist) into DEST, then `npm ci` and
# `npm run build` there (tsup: dist/index.js ESM, dist/index.cjs).
# Idempotent: skips everything when DEST was built from the same source
# (a hash of package.json, package-lock.json, the build configs and src/,
# kept in DEST/.cup-bench-source).
#
#   bench/peers/setup-typescript-sdk.sh SOURCE_DIR [DEST]
#
# DEST defaults to target/bench-peers/typescript-sdk (or
# $CUP_BENCH_PEERS/typescript-sdk). Needs node and npm (npm ci reaches the
# npm registry the first time).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SRC="${1:-}"
if [[ -z "$SRC" ]]; then
    echo "usage: $0 SOURCE_DIR [DEST]   (SOURCE_DIR: the reference typescript-sdk checkout)" >&2
    exit 2
fi
if [[ ! -f "$SRC/package.json" || ! -d "$SRC/src" ]]; then
    echo "setup-typescript-sdk: error: $SRC is not the TypeScript SDK's source (no package.json or src/)" >&2
    exit 2
fi
SRC="$(cd "$SRC" && pwd)"
PEERS="${CUP_BENCH_PEERS:-$ROOT/target/bench-peers}"
DEST="${2:-$PEERS/typescript-sdk}"
STAMP="$DEST/.cup-bench-source"

step() { printf 'setup-typescript-sdk: %s\n' "$*" >&2; }

for tool in node npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "setup-typescript-sdk: error: $tool is missing (apt-get install nodejs npm)" >&2
        exit 1
    fi
done

# The source's identity: every file the build reads.
source_hash() {
    (
        cd "$SRC"
        find package.json package-lock.json tsconfig.json tsup.config.ts src -type f 2>/dev/null \
            | LC_ALL=C sort \
            | xargs sha256sum
    ) | sha256sum | cut -d' ' -f1
}
hash="$(source_hash)"

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$hash" && -f "$DEST/dist/index.js" && -f "$DEST/dist/index.cjs" ]]; then
    step "present: $DEST (built from $SRC, source $hash)"
    exit 0
fi

step "copying $SRC to $DEST"
tmp="$DEST.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
tar -C "$SRC" --exclude=./node_modules --exclude=./dist --exclude=./.git -cf - . | tar -C "$tmp" -xf -
step "npm ci (in $tmp)"
(cd "$tmp" && npm ci --no-audit --no-fund --loglevel=error >&2)
step "npm run build"
(cd "$tmp" && npm run --silent build >/dev/null)
if [[ ! -f "$tmp/dist/index.js" ]]; then
    echo "setup-typescript-sdk: error: npm run build made no dist/index.js" >&2
    exit 1
fi
printf '%s\n' "$hash" >"$tmp/.cup-bench-source"
rm -rf "$DEST"
mv "$tmp" "$DEST"
step "built: $DEST/dist/index.js ($(node -p "require('$DEST/package.json').name + ' ' + require('$DEST/package.json').version"))"
