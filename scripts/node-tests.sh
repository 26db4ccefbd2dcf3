#!/usr/bin/env bash
# The Node package's tests: builds cup-rs (bindings/node/build.sh), runs its
# live tests (a sandbox desktop, headless Chromium) and pure tests with
# node --test, type-checks a program against its .d.ts (and checks that a
# misuse fails), then packs it, installs the tarballs into a fresh folder
# with no Rust toolchain on PATH and checks require, import, `npx cup-rs
# --version` and `npx cup-rs mcp` with the official MCP client (the
# TypeScript SDK's).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
NODE_DIR="$ROOT/bindings/node"
MCP_SDK="@modelcontextprotocol/sdk@1.26.0"

major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if ((major < 18)); then
    echo "node-tests: Node >= 18 is needed ($(node --version 2>/dev/null || echo none)); run scripts/install-deps.sh" >&2
    exit 1
fi

echo "node-tests: building the package"
bindings/node/build.sh --pack

echo "node-tests: node --test (pure, a JavaScript adapter, desktop, web, phones)"
# One file at a time (Node 18's runner has no --test-concurrency).
for f in test/pure.test.cjs test/adapter.test.mjs test/desktop.test.mjs test/web.test.mjs test/android.test.mjs; do
    (cd "$NODE_DIR" && node --test "$f")
done

echo "node-tests: tsc --strict on a program using the API, and on misuses it must refuse"
(cd "$NODE_DIR/test/types" && ../../node_modules/.bin/tsc -p tsconfig.json)
misuse=$(cd "$NODE_DIR/test/types" && ../../node_modules/.bin/tsc -p tsconfig.misuse.json 2>&1 || true)
want=$(grep -n '// TS[0-9]*' "$NODE_DIR/test/types/misuse.ts" | sed -E 's/^([0-9]+):.*\/\/ (TS[0-9]+).*/\1 \2/' | awk '{print $1+1, $2}')
got=$(printf '%s\n' "$misuse" | sed -nE 's/^misuse\.ts\(([0-9]+),[0-9]+\): error (TS[0-9]+):.*/\1 \2/p')
if [[ "$want" != "$got" ]]; then
    echo "node-tests: the misuses' errors differ; wanted (line code):" >&2
    echo "$want" >&2
    echo "got:" >&2
    echo "$misuse" >&2
    exit 1
fi
echo "node-tests: $(echo "$got" | wc -l) misuses refused as expected"

echo "node-tests: the packed package in a fresh folder, no Rust toolchain on PATH"
FRESH="$ROOT/target/npm/fresh"
rm -rf "$FRESH" && mkdir -p "$FRESH"
cp "$NODE_DIR/test/packed.mjs" "$FRESH/"
NODE_BIN="$(dirname "$(command -v node)")"
(
    cd "$FRESH"
    export PATH="$NODE_BIN:/usr/bin:/bin"
    if command -v cargo >/dev/null || command -v rustc >/dev/null; then
        echo "node-tests: a Rust toolchain is still on PATH" >&2
        exit 1
    fi
    echo '{"name": "fresh", "private": true}' > package.json
    npm install --no-audit --no-fund --loglevel=error "$ROOT"/target/npm/cup-rs-*.tgz "$MCP_SDK"
    node -e 'const c = require("cup-rs"); if (typeof c.Session.create !== "function") process.exit(1); console.log("require: ok", c.version)'
    node --input-type=module -e 'import { Session, version } from "cup-rs"; if (typeof Session.create !== "function") process.exit(1); console.log("import: ok", version)'
    v=$(npx --no-install cup-rs --version)
    [[ "$v" == cup* ]] || { echo "node-tests: npx cup-rs --version said: $v" >&2; exit 1; }
    echo "npx cup-rs --version: $v"
    node packed.mjs
)
echo "node-tests: all passed"
