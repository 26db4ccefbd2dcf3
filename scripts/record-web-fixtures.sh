#!/usr/bin/env bash
# Records the web native-dump fixtures of crates/cup-web/fixtures: each page
# of crates/cup-web/tests/web/pages opened in a headless Chromium started by
# `cup browser start`, captured with `cup snapshot --native-dump FILE`, and
# marked with where it came from. Stops the browser it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p cup-cli
CUP=$PWD/target/debug/cup
STATE=$(mktemp -u /tmp/cup-record-web.XXXXXX)
trap '"$CUP" browser stop --state "$STATE" >/dev/null 2>&1 || true' EXIT
version=$(chromium --version 2>/dev/null | head -1)
for page in crates/cup-web/tests/web/pages/*.html; do
    name=$(basename "$page" .html)
    out=crates/cup-web/fixtures/$name.json
    eval "$("$CUP" browser start --headless --state "$STATE" "file://$PWD/$page")"
    # The accessibility tree grows while the page loads: capture until the
    # node count stops changing.
    last=-1
    for _ in $(seq 50); do
        n=$("$CUP" snapshot --platform web --json | grep -c '"role"' || true)
        [ "$n" = "$last" ] && [ "$n" -gt 1 ] && break
        last=$n; sleep 0.2
    done
    "$CUP" snapshot --platform web --native-dump "$out" >/dev/null
    python3 - "$out" "$name.html" "$version" <<'PY'
import json, sys
path, page, version = sys.argv[1:]
d = json.load(open(path))
d = {"platform": d["platform"],
     "source": f"recorded live: tests/web/pages/{page} in headless {version}, by scripts/record-web-fixtures.sh",
     **{k: v for k, v in d.items() if k not in ("platform", "source")}}
json.dump(d, open(path, "w"), indent=1, ensure_ascii=False)
open(path, "a").write("\n")
PY
    "$CUP" browser stop --state "$STATE" >/dev/null
    echo "recorded $out ($(wc -c <"$out") bytes)"
done
