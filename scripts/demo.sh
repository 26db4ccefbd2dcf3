#!/usr/bin/env bash
# The main job, live: builds cup, starts a private headless desktop (Xvfb,
# D-Bus, AT-SPI), launches gtk3-widget-factory in it, and captures it as
# CUP compact text. Installs what it needs; safe to run again; the desktop
# is stopped at the end even on failure.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
    echo "scripts/demo.sh: cargo not found; install the Rust toolchain (rustup) first" >&2
    exit 2
fi
if [ "$(id -u)" -eq 0 ]; then
    scripts/install-deps.sh >/dev/null
else
    sudo scripts/install-deps.sh >/dev/null
fi
cargo build --release --locked -p cup-cli
cup=target/release/cup

state="$(mktemp -u "${TMPDIR:-/tmp}/cup-demo-XXXXXX.json")"
trap '"$cup" sandbox stop --state "$state" 2>/dev/null || true' EXIT

echo "\$ eval \"\$(cup sandbox start)\""
eval "$("$cup" sandbox start --state "$state")"
echo "\$ cup sandbox run -- gtk3-widget-factory"
"$cup" sandbox run --state "$state" -- gtk3-widget-factory
echo
echo "\$ cup snapshot --scope overview"
"$cup" snapshot --scope overview
echo
echo "\$ cup snapshot            # the foreground window, compact"
"$cup" snapshot
echo
echo "\$ cup snapshot --json > window.json && cup find window.json --role checkbox"
json="$(mktemp "${TMPDIR:-/tmp}/cup-demo-XXXXXX.json")"
"$cup" snapshot --json > "$json"
"$cup" find "$json" --role checkbox || true
rm -f "$json"
echo
# Acting: ids of the last `cup snapshot` work in later invocations; each
# result says what was observed (confirmed / no_change / unverified).
export CUP_SNAPSHOT_STATE="${state%.json}-last.json"
trap '"$cup" sandbox stop --state "$state" 2>/dev/null || true; rm -f "$CUP_SNAPSHOT_STATE"' EXIT
snapshot="$("$cup" snapshot)"
id_of() { printf '%s\n' "$snapshot" | grep -F -- "$1" | grep -v -F -- "$2" | head -1 | sed 's/.*\[\(e[0-9]*\)\].*/\1/'; }
check="$(id_of 'chk "checkbutton"' '{')"
entry="$(id_of 'val="entry"' 'dis')"
disabled="$(printf '%s\n' "$snapshot" | grep -F 'chk "checkbutton"' | grep -F '{dis}' | head -1 | sed 's/.*\[\(e[0-9]*\)\].*/\1/')"
echo "\$ cup action $check click"
"$cup" action "$check" click
echo "\$ cup action $entry type --value 'héllo ✓ 日本'"
"$cup" action "$entry" type --value 'héllo ✓ 日本'
echo "\$ cup action $disabled click      # a disabled check button: nothing happens, and cup says so"
"$cup" action "$disabled" click || true
echo "\$ cup press ctrl+a"
"$cup" press ctrl+a
shot="${state%.json}.png"
echo "\$ cup screenshot -o screen.png"
"$cup" screenshot -o "$shot"
rm -f "$shot"
echo
# The MCP tools (what `cup mcp` serves to an agent), run in-process.
echo "\$ cup call get_window_state '{\"query\": \"checkbutton\"}' -o window.png"
"$cup" call get_window_state '{"query": "checkbutton"}' -o "$shot"
rm -f "$shot"
echo "\$ cup click '{\"x\": 60, \"y\": 380, \"observe\": true}'   # a pixel click, observed"
"$cup" click '{"x": 60, "y": 380, "observe": true}' || true
echo "\$ cup call check_permissions"
"$cup" call check_permissions

echo
# The web: a headless Chromium over the DevTools protocol; nodes have bounds.
browser_state="${state%.json}-browser.json"
trap '"$cup" sandbox stop --state "$state" 2>/dev/null || true; "$cup" browser stop --state "$browser_state" 2>/dev/null || true; rm -f "$CUP_SNAPSHOT_STATE"' EXIT
page='data:text/html,<title>Checkout</title><h1>Shipping</h1><label>Name <input></label> <label><input type=checkbox> Gift wrap</label> <button onclick="this.textContent=`Ordered`">Order</button>'
echo "\$ eval \"\$(cup browser start --headless 'data:text/html,...')\""
eval "$("$cup" browser start --headless "$page" --state "$browser_state" 2>/dev/null)"
for _ in $(seq 50); do "$cup" snapshot 2>/dev/null | grep -q Order && break; sleep 0.1; done
echo "\$ cup snapshot            # CUP_PLATFORM=web: the page, with bounds"
snapshot="$("$cup" snapshot)"
printf '%s\n' "$snapshot"
order="$(id_of 'btn "Order"' '{dis}')"
gift="$(id_of 'chk "Gift wrap"' '{dis}')"
echo "\$ cup action $gift toggle"
"$cup" action "$gift" toggle
echo "\$ cup action $order click"
"$cup" action "$order" click
echo "\$ cup web js 'document.title'"
"$cup" web js 'document.title'
