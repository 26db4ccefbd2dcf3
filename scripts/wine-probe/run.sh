#!/usr/bin/env bash
# Build probe.c with mingw-w64 and run it under Wine in the root that
# scripts/wine-root.sh makes (as root). Output: the probe's log on stdout;
# the screenshot it takes is left at ROOT/wineprefix/drive_c/probe-shot.bmp.
# Every process it starts is stopped by PID (Xvfb) or `wineserver -k` (Wine),
# and /proc is unmounted again, also on failure.
set -euo pipefail
cd "$(dirname "$0")"
ROOT="${CUP_WINE_ROOT:-/var/lib/cup/wine-trixie}"
[ -e "$ROOT/.cup-wine-root-complete" ] || { echo "run.sh: no complete root at $ROOT (run scripts/wine-root.sh)" >&2; exit 1; }

x86_64-w64-mingw32-gcc -O1 -Wall -o "$ROOT/tmp/probe.exe" probe.c \
    -lole32 -loleaut32 -luuid -lshcore -ldwmapi -lshell32 -luser32 -lgdi32 -ladvapi32 -loleacc

exec 9>"$ROOT.lock"
flock 9
MOUNTED=
XVFB=
N=
WINE_ENV=()
cleanup() {
    set +e
    [ "${#WINE_ENV[@]}" -gt 0 ] && "${WINE_ENV[@]}" /usr/sbin/chroot "$ROOT" wineserver -k 2>/dev/null
    [ -n "$XVFB" ] && kill "$XVFB" 2>/dev/null && wait "$XVFB" 2>/dev/null
    [ -n "$MOUNTED" ] && umount "$ROOT/proc"
}
trap cleanup EXIT
trap "exit 130" INT TERM

if ! mountpoint -q "$ROOT/proc"; then
    mount -t proc proc "$ROOT/proc"
    MOUNTED=1
fi
for n in $(seq 90 189); do
    [ -e "/tmp/.X$n-lock" ] || [ -e "$ROOT/tmp/.X$n-lock" ] || grep -q "@/tmp/.X11-unix/X$n\$" /proc/net/unix || { N=$n; break; }
done
env -i /usr/sbin/chroot "$ROOT" /usr/bin/Xvfb ":$N" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
for _ in $(seq 100); do [ -S "$ROOT/tmp/.X11-unix/X$N" ] && break; sleep 0.1; done
WINE_ENV=(env -i HOME=/root PATH=/usr/bin:/bin DISPLAY=":$N" WINEPREFIX=/wineprefix
          WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d" WINEDEBUG="${WINEDEBUG:--all}" ${PROBE_STA:+PROBE_STA=1})
start=$(date +%s%3N)
"${WINE_ENV[@]}" /usr/sbin/chroot "$ROOT" wine /tmp/probe.exe "$start"
echo "== run.sh: wine exited after $(( $(date +%s%3N) - start )) ms"
