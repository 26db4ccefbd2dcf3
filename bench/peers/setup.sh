#!/usr/bin/env bash
# Installs the peers of the Linux capture benchmark (bench/cup-bench,
# `linux-capture`) into target/bench-peers. Idempotent: skips what is there.
# Run as root on Debian 12:  bench/peers/setup.sh
#
#  1. Debian packages the Python CUP SDK needs (python3-venv, python3-gi,
#     gir1.2-atspi-2.0, python3-pip), only those missing.
#  2. A venv from Debian's /usr/bin/python3 with --system-site-packages (so
#     it finds `gi`), with computeruseprotocol==0.1.0 and the pinned extras
#     its Linux adapter imports.
#  3. The Cua Driver 0.37.0 wheel (pip download, no install), unzipped; its
#     Linux binary is cua_driver/bin/cua-driver.
#  4. Playwright MCP 0.0.83 from npm (web bench).
#  5. xa11y 0.15.4 (PyPI wheel) in a venv of its own, for `python-capture`.
#  6. cup's own Python package (cup-rs) from the newest target/wheels/cup_rs-*.whl
#     in a venv of its own, reinstalled when the wheel is newer, for
#     `python-capture`.
#  7. With --reference-ts DIR: the reference TypeScript CUP SDK built from DIR
#     into target/bench-peers/typescript-sdk (bench/peers/setup-typescript-sdk.sh,
#     skipped when built from the same source), for `node-capture` (which
#     also runs that step itself with its own --reference-ts DIR).
#
#  8. OSWorld's accessibility-tree observation (bench/peers/osworld/observe.py):
#     a venv from /usr/bin/python3 with --system-site-packages (Debian's
#     python3-pyatspi, step 1) with lxml, tiktoken and bpe-openai (whose
#     wheel ships the o200k_base/cl100k_base files tiktoken cannot download
#     here), and the desktop-env 1.0.2 wheel (pip download, no install)
#     unzipped for its mm_agents/ code, in target/bench-peers/osworld.
#
#  9. The web corpus of web-capture: scripts/install-webapps.sh (Debian's
#     python3-doc and rust-doc, Django and JupyterLab in target/webapps-venv).
#
#   bench/peers/setup.sh [--reference-ts DIR]
set -euo pipefail

REFERENCE_TS=""
while (($#)); do
    case "$1" in
        --reference-ts)
            [[ $# -ge 2 ]] || { echo "setup: error: --reference-ts needs a folder" >&2; exit 2; }
            REFERENCE_TS="$2"
            shift 2
            ;;
        *) echo "setup: error: unknown argument $1 (use --reference-ts DIR)" >&2; exit 2 ;;
    esac
done

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PEERS="$ROOT/target/bench-peers"
VENV="$PEERS/venv"
PY_SDK="computeruseprotocol==0.1.0"
# Extra pinned packages for the SDK's Linux adapter. None are needed: it
# reads AT-SPI through gi (Debian's python3-gi + gir1.2-atspi-2.0) and X11
# through ctypes (libX11); 0.1.0 declares no dependencies.
# The web adapter (the `web` extra) needs websocket-client; its MCP server
# (`python -m cup.mcp`, FastMCP) needs the MCP SDK, which 0.1.0 does not
# declare.
PY_EXTRAS=("websocket-client==1.9.2" "mcp==1.27.0")
CUA_VERSION="0.37.0"
CUA_DIR="$PEERS/cua-driver-$CUA_VERSION"
CUA_BIN="$CUA_DIR/cua_driver/bin/cua-driver"

step() { printf 'setup: %s\n' "$*"; }

mkdir -p "$PEERS"

# 1. Debian packages.
missing=()
for pkg in python3-venv python3-gi gir1.2-atspi-2.0 python3-pip unzip python3-pyatspi; do
    if ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
        missing+=("$pkg")
    fi
done
if ((${#missing[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
        echo "setup: error: missing Debian packages ${missing[*]}; run this script as root (or apt-get install them)" >&2
        exit 1
    fi
    step "apt-get install ${missing[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
else
    step "Debian packages present (python3-venv python3-gi gir1.2-atspi-2.0 python3-pip unzip python3-pyatspi)"
fi

# 2. The Python SDK in a venv that sees Debian's gi.
if [[ -x "$VENV/bin/python" ]]; then
    step "venv exists: $VENV"
else
    step "creating venv $VENV (/usr/bin/python3 --system-site-packages)"
    /usr/bin/python3 -m venv --system-site-packages "$VENV"
fi
want=("$PY_SDK" "${PY_EXTRAS[@]}")
if "$VENV/bin/python" - "${want[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for spec in sys.argv[1:]:
    name, _, ver = spec.partition("==")
    if version(name) != ver:
        sys.exit(1)
import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: F401
import cup.platforms.linux  # noqa: F401
import cup.platforms.web  # noqa: F401
PY
then
    step "Python SDK present: ${want[*]}"
else
    step "pip install ${want[*]}"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${want[@]}"
fi

# 3. The Cua Driver binary from its PyPI wheel.
if [[ -x "$CUA_BIN" ]]; then
    step "Cua Driver present: $CUA_BIN"
else
    wheel_dir="$PEERS/wheels"
    mkdir -p "$wheel_dir"
    wheel=$(ls "$wheel_dir"/cua_driver-"$CUA_VERSION"-*.whl 2>/dev/null | head -n1 || true)
    if [[ -z "$wheel" ]]; then
        step "pip download --no-deps cua-driver==$CUA_VERSION"
        "$VENV/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
            --only-binary=:all: --platform manylinux_2_31_x86_64 \
            --dest "$wheel_dir" "cua-driver==$CUA_VERSION"
        wheel=$(ls "$wheel_dir"/cua_driver-"$CUA_VERSION"-*.whl | head -n1)
    fi
    step "unzipping $(basename "$wheel")"
    rm -rf "$CUA_DIR.tmp"
    unzip -q -o "$wheel" -d "$CUA_DIR.tmp"
    chmod +x "$CUA_DIR.tmp/cua_driver/bin/cua-driver"
    rm -rf "$CUA_DIR"
    mv "$CUA_DIR.tmp" "$CUA_DIR"
fi
step "cua-driver: $("$CUA_BIN" --version 2>/dev/null | head -n1 || echo 'does not run')"
# 4. Playwright MCP from npm (it connects to our Chromium over CDP; no
#    browser download).
PW_VERSION="0.0.83"
PW_DIR="$PEERS/playwright-mcp-$PW_VERSION"
PW_CLI="$PW_DIR/node_modules/@playwright/mcp/cli.js"
if [[ -f "$PW_CLI" ]]; then
    step "Playwright MCP present: $PW_CLI"
elif ! command -v npm >/dev/null 2>&1; then
    step "npm missing: Playwright MCP not installed (apt-get install nodejs npm); the web bench shows it as FAILED"
else
    step "npm install @playwright/mcp@$PW_VERSION"
    mkdir -p "$PW_DIR"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --silent --no-audit --no-fund \
        --prefix "$PW_DIR" "@playwright/mcp@$PW_VERSION" >/dev/null
fi

# 5. xa11y (a Rust accessibility library's Python wheel: abi3, manylinux2014)
#    in a venv of its own, from the same /usr/bin/python3 as the SDK's. At run
#    time on Linux it needs only a D-Bus session with the AT-SPI bus
#    (org.a11y.Bus, at-spi2-core: the sandbox starts it); it talks D-Bus in
#    Rust (zbus) and ships its one C library (libxkbcommon) inside the wheel,
#    so no gi and no --system-site-packages.
XA11Y="xa11y==0.15.4"
XA11Y_VENV="$PEERS/xa11y-venv"
if [[ ! -x "$XA11Y_VENV/bin/python" ]]; then
    step "creating venv $XA11Y_VENV (/usr/bin/python3)"
    /usr/bin/python3 -m venv "$XA11Y_VENV"
fi
if "$XA11Y_VENV/bin/python" - "$XA11Y" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
name, _, ver = sys.argv[1].partition("==")
if version(name) != ver:
    sys.exit(1)
import xa11y  # noqa: F401
PY
then
    step "xa11y present: $XA11Y in $XA11Y_VENV"
else
    step "pip install $XA11Y into $XA11Y_VENV"
    "$XA11Y_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$XA11Y"
fi

# 6. cup's Python package (distribution cup-rs, import name cup) from the
#    newest wheel that bindings/python/build-wheel.sh --release made, in a
#    venv of its own (no system site-packages: it needs no gi). A stamp file
#    in the venv names the wheel installed; a newer or other wheel is
#    installed over it.
CUPRS_VENV="$PEERS/cup-rs-venv"
CUPRS_STAMP="$CUPRS_VENV/.cup-rs-wheel"
cuprs_wheel=$(ls -t "$ROOT"/target/wheels/cup_rs-*.whl 2>/dev/null | head -n1 || true)
if [[ -z "$cuprs_wheel" ]]; then
    step "no target/wheels/cup_rs-*.whl: run bindings/python/build-wheel.sh --release, then this script again (python-capture shows cup as FAILED until then)"
else
    if [[ ! -x "$CUPRS_VENV/bin/python" ]]; then
        step "creating venv $CUPRS_VENV (/usr/bin/python3)"
        /usr/bin/python3 -m venv "$CUPRS_VENV"
    fi
    if [[ -f "$CUPRS_STAMP" && "$(cat "$CUPRS_STAMP")" == "$cuprs_wheel" && ! "$cuprs_wheel" -nt "$CUPRS_STAMP" ]]; then
        step "cup-rs present: $(basename "$cuprs_wheel") in $CUPRS_VENV"
    else
        step "pip install $(basename "$cuprs_wheel") into $CUPRS_VENV"
        rm -f "$CUPRS_STAMP"
        if "$CUPRS_VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
            --force-reinstall "$cuprs_wheel"; then
            printf '%s\n' "$cuprs_wheel" >"$CUPRS_STAMP"
        else
            step "warning: $(basename "$cuprs_wheel") did not install into $CUPRS_VENV (built for another Python than $(/usr/bin/python3 --version)?); going on"
        fi
    fi
fi
# 7. The reference TypeScript SDK, from the folder given.
if [[ -n "$REFERENCE_TS" ]]; then
    if ! command -v npm >/dev/null 2>&1; then
        step "npm missing: the reference TypeScript SDK not built (apt-get install nodejs npm); node-capture shows it as FAILED"
    else
        "$ROOT/bench/peers/setup-typescript-sdk.sh" "$REFERENCE_TS" "$PEERS/typescript-sdk"
    fi
else
    step "reference TypeScript SDK: not asked (--reference-ts DIR; node-capture builds it itself)"
fi
# 8. OSWorld's observation: its agent code from the desktop-env wheel (only
#    unzipped: installing it would pull in the 67 packages it requires), and a venv
#    for observe.py that sees Debian's pyatspi.
OSW_DIR="$PEERS/osworld"
OSW_VENV="$OSW_DIR/venv"
OSW_WHEEL_VERSION="1.0.2"
OSW_CODE="$OSW_DIR/desktop_env-$OSW_WHEEL_VERSION"
OSW_PY=("lxml==6.0.2" "tiktoken==0.12.0" "bpe-openai==0.1.4")
mkdir -p "$OSW_DIR"
if [[ ! -x "$OSW_VENV/bin/python" ]]; then
    step "creating venv $OSW_VENV (/usr/bin/python3 --system-site-packages)"
    /usr/bin/python3 -m venv --system-site-packages "$OSW_VENV"
fi
if "$OSW_VENV/bin/python" - "${OSW_PY[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for spec in sys.argv[1:]:
    name, _, ver = spec.partition("==")
    if version(name) != ver:
        sys.exit(1)
import lxml.etree, pyatspi, tiktoken, bpe_openai  # noqa: F401,E401
PY
then
    step "OSWorld venv present: ${OSW_PY[*]} in $OSW_VENV"
else
    step "pip install ${OSW_PY[*]} into $OSW_VENV"
    "$OSW_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${OSW_PY[@]}"
fi
if [[ -f "$OSW_CODE/mm_agents/agent.py" ]]; then
    step "OSWorld agent code present: $OSW_CODE"
else
    osw_wheels="$PEERS/wheels"
    mkdir -p "$osw_wheels"
    osw_wheel=$(ls "$osw_wheels"/desktop_env-"$OSW_WHEEL_VERSION"-*.whl 2>/dev/null | head -n1 || true)
    if [[ -z "$osw_wheel" ]]; then
        step "pip download --no-deps desktop-env==$OSW_WHEEL_VERSION"
        "$OSW_VENV/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
            --dest "$osw_wheels" "desktop-env==$OSW_WHEEL_VERSION"
        osw_wheel=$(ls "$osw_wheels"/desktop_env-"$OSW_WHEEL_VERSION"-*.whl | head -n1)
    fi
    step "unzipping $(basename "$osw_wheel")"
    rm -rf "$OSW_CODE.tmp"
    unzip -q -o "$osw_wheel" -d "$OSW_CODE.tmp"
    rm -rf "$OSW_CODE"
    mv "$OSW_CODE.tmp" "$OSW_CODE"
fi
# 9. The web corpus of web-capture (issue 50): scripts/install-webapps.sh
#    (python3-doc, rust-doc, Django and JupyterLab in target/webapps-venv).
step "web corpus: scripts/install-webapps.sh"
"$ROOT/scripts/install-webapps.sh"
step "done; now: cargo run --release -p cup-bench --bin linux-capture (or linux-actions, web-capture, python-capture, node-capture)"
