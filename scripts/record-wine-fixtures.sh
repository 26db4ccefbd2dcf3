#!/usr/bin/env bash
# Records the Wine native-dump fixtures of crates/cup-windows/fixtures
# (wine-*.json): Wine's own programs captured live by the linked cup.exe
# (`cup snapshot --scope full --app TITLE --native-dump FILE`) in the root
# of scripts/wine-root.sh, on a private Xvfb. As root; stops what it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="${CUP_WINE_ROOT:-/var/lib/cup/wine-trixie}"
EXE=target/x86_64-pc-windows-gnu/debug/cup.exe
[ -e "$ROOT/.cup-wine-root-complete" ] || { echo "no Wine root at $ROOT: run scripts/wine-root.sh" >&2; exit 1; }
[ -e "$EXE" ] || { echo "no $EXE: cargo build -p cup-cli --target x86_64-pc-windows-gnu" >&2; exit 1; }
cp "$EXE" "$ROOT/tmp/cup.exe"
N=
for n in $(seq 150 189); do [ -e "$ROOT/tmp/.X$n-lock" ] || { N=$n; break; }; done
MOUNTED=
mountpoint -q "$ROOT/proc" || { mount -t proc proc "$ROOT/proc"; MOUNTED=1; }
W=(env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 DISPLAY=":$N" WINEPREFIX=/wineprefix
   "WINEDLLOVERRIDES=mscoree,mshtml=;winedbg.exe=d" WINEDEBUG=-all /usr/sbin/chroot "$ROOT")
env -i /usr/sbin/chroot "$ROOT" /usr/bin/Xvfb ":$N" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
cleanup() {
    set +e
    "${W[@]}" wineserver -k
    kill "$XVFB"; wait "$XVFB" 2>/dev/null
    [ -n "$MOUNTED" ] && umount "$ROOT/proc"
}
trap cleanup EXIT
for _ in $(seq 100); do [ -S "$ROOT/tmp/.X11-unix/X$N" ] && break; sleep 0.1; done
version=$("${W[@]}" wine --version)
record() { # program, window title part, fixture name
    "${W[@]}" wine "$1" >/dev/null 2>&1 &
    for _ in $(seq 60); do
        "${W[@]}" wine /tmp/cup.exe snapshot --scope overview 2>/dev/null | grep -q "$2" && break
        sleep 0.5
    done
    sleep 1
    "${W[@]}" wine /tmp/cup.exe snapshot --scope full --app "$2" --native-dump 'C:\fixture.json' >/dev/null
    python3 - "$ROOT/wineprefix/drive_c/fixture.json" "crates/cup-windows/fixtures/$3.json" "$version" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["source"] = f"recorded live under Wine {sys.argv[3]} (Debian 13) by cup.exe snapshot --native-dump: {sys.argv[4]}"
json.dump(d, open(sys.argv[2], "w"), indent=1, ensure_ascii=False)
open(sys.argv[2], "a").write("\n")
PY
    echo "recorded $3.json"
}
record notepad "Notepad" wine-notepad
record regedit "Registry Editor" wine-regedit
record winecfg "Wine configuration" wine-winecfg
