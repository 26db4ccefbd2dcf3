#!/usr/bin/env bash
# Create (once) a Debian 13 (trixie) root with Wine 10, Xvfb and a booted Wine
# prefix, in which cup-windows' tests run the linked cup.exe. As root.
# Idempotent: a root with the marker file ROOT/.cup-wine-root-complete is left
# alone; a root without it (an earlier run was interrupted) is removed and made
# again. Concurrent runs wait for each other (flock on ROOT.lock).
#
#   ROOT   = ${CUP_WINE_ROOT:-/var/lib/cup/wine-trixie}
#   mirror = the host's Debian mirror (the first non-security `URIs:`/`deb`
#            entry of /etc/apt/sources.list{,.d/*}); override with
#            CUP_DEBIAN_MIRROR.
#
# Steps (each prints how long it took): host debootstrap (installed if missing),
# `debootstrap --variant=minbase trixie ROOT MIRROR`, `apt-get install
# --no-install-recommends wine64 wine xvfb` in the root, `apt-get clean`,
# `wineboot -u` in the prefix ROOT/wineprefix (/wineprefix inside the root) with
# a private Xvfb, then the marker. /proc is mounted on ROOT/proc only for the
# wineboot step and always unmounted (trap); Xvfb and wineserver are stopped by
# PID / `wineserver -k`.
#
# How to run a Windows program in the root (what the Rust test harness does;
# every step as root; the program's files must be inside ROOT, e.g. copied to
# ROOT/tmp/cup.exe, which Wine sees as Z:\tmp\cup.exe or /tmp/cup.exe):
#
#   1. mount /proc unless ROOT/proc is already a mount point (Wine fails with
#      "could not load ntdll.so" without it):
#        mountpoint -q ROOT/proc || mount -t proc proc ROOT/proc
#   2. pick a display number N that is free on the HOST: no /tmp/.XN-lock on the
#      host and no abstract socket "@/tmp/.X11-unix/XN" in /proc/net/unix (the
#      root has its own /tmp, but abstract X sockets are shared with the host).
#   3. start a private X server (chroot execs it, so $! is Xvfb's PID):
#        env -i /usr/sbin/chroot ROOT /usr/bin/Xvfb :N -screen 0 1280x1024x24 -nolisten tcp &
#      and wait until ROOT/tmp/.X11-unix/XN exists.
#   4. run the program (plain `wine` finds the 64-bit loader; a "wine32 is
#      missing" warning is harmless):
#        env -i HOME=/root PATH=/usr/bin:/bin DISPLAY=:N WINEPREFIX=/wineprefix \
#            WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d" WINEDEBUG=-all \
#            /usr/sbin/chroot ROOT wine /tmp/cup.exe ARGS...
#      (a GUI test app the same way: `... /usr/sbin/chroot ROOT wine notepad`).
#   5. afterwards: `env -i WINEPREFIX=/wineprefix /usr/sbin/chroot ROOT wineserver -k`
#      (stops every Wine process of the prefix), kill the Xvfb by its PID, then
#      `umount ROOT/proc` (only if step 1 mounted it).
#   One wineserver serves the prefix: run one test at a time per prefix (or
#   hold ROOT.lock with flock while using it).
set -euo pipefail

ROOT="${CUP_WINE_ROOT:-/var/lib/cup/wine-trixie}"
MARKER="$ROOT/.cup-wine-root-complete"
PREFIX_IN_ROOT=/wineprefix

say() { echo "wine-root: $*"; }
# step NAME COMMAND...: runs COMMAND and prints how long it took.
step() {
    local name="$1" start=$SECONDS
    shift
    say "$name ..."
    "$@"
    say "$name: $((SECONDS - start)) s"
}

if [ "$(id -u)" -ne 0 ]; then
    echo "wine-root: must run as root (try: sudo $0)" >&2
    exit 1
fi

mkdir -p "$(dirname "$ROOT")"
exec 9>"$ROOT.lock"
flock 9

if [ -e "$MARKER" ]; then
    say "$ROOT is complete ($(cat "$MARKER")); nothing to do"
    exit 0
fi

# The host's Debian mirror, from its apt sources (deb822 or one-line format).
mirror() {
    if [ -n "${CUP_DEBIAN_MIRROR:-}" ]; then
        echo "$CUP_DEBIAN_MIRROR"
        return
    fi
    local files=() f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] && files+=("$f")
    done
    [ "${#files[@]}" -gt 0 ] || return 0
    for f in "${files[@]}"; do
        awk '
            # deb822 stanzas: remember Types, URIs and Suites, decide at the stanza end.
            function flush() {
                if (uris != "" && suites !~ /security/ && types ~ /(^| )deb( |$)/) { split(uris, u, " "); print u[1] }
                uris = ""; suites = ""; types = ""
            }
            /^[[:space:]]*$/ { flush(); next }
            /^Types:/  { sub(/^Types:[[:space:]]*/, ""); types = $0; next }
            /^URIs:/   { sub(/^URIs:[[:space:]]*/, ""); uris = $0; next }
            /^Suites:/ { sub(/^Suites:[[:space:]]*/, ""); suites = $0; next }
            # one-line format: deb [options] URI SUITE COMPONENTS
            /^deb[[:space:]]/ {
                i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                if ($(i + 1) !~ /security/) print $i
            }
            END { flush() }
        ' "$f"
    done | grep -m1 -E '/debian/?$' || true
}

cleanup() {
    set +e
    [ -n "${XVFB_PID:-}" ] && kill "$XVFB_PID" 2>/dev/null && wait "$XVFB_PID" 2>/dev/null
    if mountpoint -q "$ROOT/proc" 2>/dev/null && [ -n "${MOUNTED_PROC:-}" ]; then
        umount "$ROOT/proc" || umount -l "$ROOT/proc"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Remove a half-made root. Refuse if anything is mounted below it.
if [ -e "$ROOT" ]; then
    if mountpoint -q "$ROOT/proc" 2>/dev/null; then
        umount "$ROOT/proc" || umount -l "$ROOT/proc"
    fi
    if awk -v r="$ROOT/" 'index($2 "/", r) == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
        echo "wine-root: something is mounted under $ROOT; unmount it first" >&2
        exit 1
    fi
    step "removing the incomplete root $ROOT" rm -rf --one-file-system "$ROOT"
fi

host_debootstrap() {
    if command -v debootstrap >/dev/null 2>&1; then
        say "debootstrap already installed"
    else
        apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null 2>&1
    fi
}
step "host debootstrap" host_debootstrap

MIRROR="$(mirror)"
if [ -z "$MIRROR" ]; then
    echo "wine-root: no Debian mirror in the host's apt sources; set CUP_DEBIAN_MIRROR" >&2
    exit 1
fi
say "mirror $MIRROR"

bootstrap() {
    debootstrap --variant=minbase trixie "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 \
        || { echo "wine-root: debootstrap failed; see $ROOT.debootstrap.log" >&2; return 1; }
}
step "debootstrap --variant=minbase trixie" bootstrap

in_root() { env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive /usr/sbin/chroot "$ROOT" "$@"; }
install_wine() {
    # (apt's "Can not write log (Is /dev/pts mounted?)" and invoke-rc.d's
    # warnings in the log are harmless.)
    { in_root apt-get update -q && in_root apt-get install -y -q --no-install-recommends wine64 wine xvfb \
        && in_root apt-get clean; } >"$ROOT.apt.log" 2>&1 \
        || { echo "wine-root: apt-get in the root failed; see $ROOT.apt.log" >&2; return 1; }
}
step "apt-get install wine64 wine xvfb (in the root)" install_wine

# A display number free on the host (abstract X sockets are shared with it).
free_display() {
    local n
    for n in $(seq 90 189); do
        [ -e "/tmp/.X$n-lock" ] && continue
        [ -e "$ROOT/tmp/.X$n-lock" ] && continue
        grep -q "@/tmp/.X11-unix/X$n\$" /proc/net/unix && continue
        echo "$n"
        return
    done
    return 1
}

wineboot() {
    mount -t proc proc "$ROOT/proc"
    MOUNTED_PROC=1
    local n t
    n="$(free_display)"
    env -i /usr/sbin/chroot "$ROOT" /usr/bin/Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
    XVFB_PID=$!
    for t in $(seq 100); do
        [ -S "$ROOT/tmp/.X11-unix/X$n" ] && break
        kill -0 "$XVFB_PID" 2>/dev/null || { echo "wine-root: Xvfb :$n exited" >&2; return 1; }
        sleep 0.1
    done
    local env=(env -i HOME=/root PATH=/usr/bin:/bin DISPLAY=":$n" WINEPREFIX="$PREFIX_IN_ROOT"
               WINEDLLOVERRIDES="mscoree,mshtml=" WINEDEBUG=-all)
    say "$("${env[@]}" /usr/sbin/chroot "$ROOT" wine --version 2>/dev/null)"
    "${env[@]}" /usr/sbin/chroot "$ROOT" wine wineboot -u >"$ROOT.wineboot.log" 2>&1
    timeout 120 "${env[@]}" /usr/sbin/chroot "$ROOT" wineserver -w || true
    "${env[@]}" /usr/sbin/chroot "$ROOT" wineserver -k 2>/dev/null || true
    kill "$XVFB_PID"
    wait "$XVFB_PID" 2>/dev/null || true
    XVFB_PID=
    umount "$ROOT/proc"
    MOUNTED_PROC=
    [ -f "$ROOT$PREFIX_IN_ROOT/system.reg" ] || { echo "wine-root: wineboot made no prefix; see $ROOT.wineboot.log" >&2; return 1; }
}
step "wineboot -u in $PREFIX_IN_ROOT" wineboot

echo "trixie minbase + wine64 wine xvfb, prefix $PREFIX_IN_ROOT, made $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$MARKER"
say "done: $ROOT ($(du -sh --one-file-system "$ROOT" | cut -f1)) in $SECONDS s"
