#!/usr/bin/env bash
# Runs the reference TypeScript SDK's own vitest suite (computeruseprotocol
# 0.1.0's tests/, unmodified) twice, with the same vitest and ajv (the
# reference's package-lock.json): on the reference's own src/, and on the
# npm package cup-rs (bindings/node), and compares the two
# (reference_suite.mjs beside this script: the differences cup makes by
# decision, the tests that reach for the reference's private names).
# Fails unless every test the reference passes passes here too or is listed
# there with its reason, and every listed difference is still one.
#
#   bindings/node/ci/reference-suite.sh REFERENCE_DIR
#
# REFERENCE_DIR: the reference SDK's source folder (its src/, tests/,
# schema/, vitest.config.ts, package.json, package-lock.json). It is on no
# package registry, so it is given here; CI passes
# ../shared/reference/typescript-sdk.
#
# How the cup-rs run is made: every test imports the reference's modules by
# private path (../src/format.js, ../src/search.js, ../src/router.js,
# ../src/types.js, ../src/actions/{keys,executor,macos}.js; none imports the
# package entry). Each of those files is replaced by a shim
# `export * from "cup-rs"` (vitest resolves ../src/x.js to x.ts), and cup-rs
# is installed from the two tarballs bindings/node/build.sh --pack writes
# (target/npm/cup-rs-<version>.tgz and the platform package). A name cup-rs
# does not export is then undefined and fails the tests that use it, one by
# one (the reference's private MacosActionHandler).
#
# The schema tests read schema/cup.schema.json and schema/mappings.json.
# The reference run reads the reference's; the cup-rs run reads cup's own
# copies (crates/cup-protocol/data/: the schema cup-rs's validateEnvelope
# embeds, and cup's mapping tables), so that run tests cup's files, not the
# reference's. (cup.schema.json and example.json are byte-identical to the
# reference's; mappings.json differs in a few platform columns.)
#
# Work folder: target/node-reference-suite, made fresh each run except the
# npm ci of the reference's package-lock.json (node_modules at its top,
# reused while the lock file, Node and the machine are the same: both runs
# resolve vitest and ajv from there). cup-rs is installed fresh each run.
# The package is rebuilt (build.sh --pack) when a tarball is missing or
# older than the sources it is built from.
set -euo pipefail
if [[ $# -ne 1 ]]; then
    echo "usage: $0 REFERENCE_DIR (the reference TypeScript SDK's source folder)" >&2
    exit 2
fi
[[ -d "$1" ]] || { echo "reference-suite: $1 is not a folder" >&2; exit 2; }
REF="$(cd "$1" && pwd)"
for f in package.json package-lock.json vitest.config.ts tsconfig.json src tests schema; do
    [[ -e "$REF/$f" ]] || { echo "reference-suite: $REF has no $f (not the reference TypeScript SDK?)" >&2; exit 2; }
done
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NODE_DIR="$(cd "$HERE/.." && pwd)"
ROOT="$(cd "$NODE_DIR/../.." && pwd)"
WORK="$ROOT/target/node-reference-suite"

export LC_NUMERIC=C # EPOCHREALTIME with a decimal point, for awk
START=$EPOCHREALTIME
LAST=$START
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# Ends the phase before and names the next one, with the time each took.
phase() {
    local now=$EPOCHREALTIME
    if [[ -n "${PHASE:-}" ]]; then
        echo "reference-suite: [$(elapsed "$LAST" "$now")s] $PHASE"
    fi
    PHASE="$*"
    LAST=$now
    [[ -z "$PHASE" ]] || echo "reference-suite: $PHASE ..."
}

phase "the package (bindings/node/build.sh --pack if its tarballs are missing or stale)"
VERSION="$(node -p 'require(process.argv[1]).version' "$NODE_DIR/package.json")"
NPM_OUT="$ROOT/target/npm"
main_tgz="$NPM_OUT/cup-rs-$VERSION.tgz"
platform_tgz() { compgen -G "$NPM_OUT/cup-rs-*-$VERSION.tgz" | head -n1 || true; }
stale=""
if [[ ! -f "$main_tgz" || -z "$(platform_tgz)" ]]; then
    stale="missing"
else
    oldest="$main_tgz"
    [[ "$(platform_tgz)" -nt "$oldest" ]] || oldest="$(platform_tgz)"
    cd "$ROOT"
    newer="$(find bindings/node/ts bindings/node/src bindings/node/bin bindings/node/package.json \
        bindings/node/package-lock.json bindings/node/tsconfig.json bindings/node/build.sh \
        bindings/node/build.rs bindings/node/Cargo.toml bindings/node/README.md \
        bindings/python/LICENSE-MIT bindings/python/LICENSE-APACHE crates Cargo.toml Cargo.lock \
        -type f -newer "$oldest" -print -quit)"
    [[ -z "$newer" ]] || stale="older than $newer"
fi
if [[ -n "$stale" ]]; then
    echo "reference-suite: tarballs $stale; building"
    "$NODE_DIR/build.sh" --pack
fi
PLATFORM_TGZ="$(platform_tgz)"
[[ -f "$main_tgz" && -n "$PLATFORM_TGZ" ]] || { echo "reference-suite: no tarballs in $NPM_OUT after build.sh --pack" >&2; exit 1; }

phase "the work folder $WORK"
key="$(cat "$REF/package-lock.json" | sha256sum | cut -d' ' -f1) node $(node -p 'process.version + " " + process.platform + "-" + process.arch')"
mkdir -p "$WORK"
if [[ "$(cat "$WORK/.deps-key" 2>/dev/null || true)" != "$key" ]]; then
    rm -rf "$WORK"
    mkdir -p "$WORK"
else
    find "$WORK" -mindepth 1 -maxdepth 1 ! -name node_modules ! -name package.json \
        ! -name package-lock.json ! -name .deps-key -exec rm -rf {} +
fi
# The tarballs, copied before anything else can rebuild target/npm.
mkdir -p "$WORK/pkg"
cp "$main_tgz" "$PLATFORM_TGZ" "$WORK/pkg/"

phase "the reference's dependencies (npm ci of its package-lock.json; cached)"
if [[ -f "$WORK/.deps-key" ]]; then
    echo "reference-suite: reusing $WORK/node_modules ($key)"
else
    cp "$REF/package.json" "$REF/package-lock.json" "$WORK/"
    (cd "$WORK" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$key" > "$WORK/.deps-key"
fi
VITEST="$WORK/node_modules/.bin/vitest"
[[ -x "$VITEST" ]] || { echo "reference-suite: the reference's lock installs no vitest" >&2; exit 1; }
echo "reference-suite: both runs use $(cd "$WORK" && node -p '["vitest", "ajv"].map((p) => p + " " + require("./node_modules/" + p + "/package.json").version).join(", ")') (the reference's lock)"

phase "the two trees: the reference's tests/ with its src/, and with shims over cup-rs"
for run in reference cup-rs; do
    mkdir -p "$WORK/$run"
    cp -r "$REF/tests" "$REF/vitest.config.ts" "$REF/tsconfig.json" "$WORK/$run/"
done
cp -r "$REF/src" "$REF/schema" "$REF/package.json" "$WORK/reference/"
chmod -R u+w "$WORK/reference" "$WORK/cup-rs"
mkdir -p "$WORK/cup-rs/schema"
cp "$ROOT"/crates/cup-protocol/data/{cup.schema.json,example.json,mappings.json} "$WORK/cup-rs/schema/"
# Every module under src/ a test imports (found in the tests, so a new one
# is not missed), as a shim over the package.
shims="$(grep -rhoE "\.\./src/[A-Za-z0-9_/.-]+\.js" "$WORK/cup-rs/tests" | sort -u)"
for spec in $shims; do
    rel="${spec#../}"
    mkdir -p "$WORK/cup-rs/$(dirname "$rel")"
    printf '// The reference module %s, as cup-rs: reference-suite.sh.\nexport * from "cup-rs";\n' \
        "$rel" > "$WORK/cup-rs/${rel%.js}.ts"
done
echo "reference-suite: shims over cup-rs: $(echo $shims | sed 's|\.\./||g')"

phase "cup-rs from its tarballs (npm install, fresh)"
cat > "$WORK/cup-rs/package.json" <<'EOF'
{ "name": "cup-rs-reference-suite", "version": "0.0.0", "private": true, "type": "module" }
EOF
(cd "$WORK/cup-rs" && npm install --no-audit --no-fund --loglevel=error --no-package-lock \
    "$WORK/pkg/$(basename "$main_tgz")" "$WORK/pkg/$(basename "$PLATFORM_TGZ")")

runs_vitest() {
    # vitest exits non-zero when a test fails; the report is what counts.
    (cd "$WORK/$1" && "$VITEST" run --reporter=json --outputFile="$WORK/$1.json" >"$WORK/$1.log" 2>&1) || true
    [[ -s "$WORK/$1.json" ]] || { echo "reference-suite: vitest wrote no report for $1; its output:" >&2; cat "$WORK/$1.log" >&2; exit 1; }
}
phase "vitest on the reference's own src/"
runs_vitest reference
phase "vitest on cup-rs"
runs_vitest cup-rs

phase "comparison"
rc=0
node "$HERE/reference_suite.mjs" --reference "$WORK/reference.json" --reference-root "$WORK/reference" \
    --ours "$WORK/cup-rs.json" --ours-root "$WORK/cup-rs" || rc=$?
phase ""
echo "reference-suite: [$(elapsed "$START" "$EPOCHREALTIME")s] in all"
exit "$rc"
