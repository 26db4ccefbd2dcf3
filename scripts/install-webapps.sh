#!/usr/bin/env bash
# Installs the web corpus the web tests and `web-capture` read (issue 50),
# all served on this machine: Debian's python3-doc and rust-doc (Python's
# and Rust's documentation under /usr/share/doc), and Django with
# JupyterLab (pinned, from PyPI) in a venv made from Debian's python3 at
# target/webapps-venv. Idempotent: skips what is there. As root on Debian 12.
# Disk: rust-doc ~520 MB, python3.11-doc ~70 MB, the venv ~300 MB.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/target/webapps-venv"
# Django 5.2 is the newest for Debian 12's Python 3.11.
WANT=("django==5.2.19" "jupyterlab==4.6.6")

missing=()
for pkg in python3-doc rust-doc python3-venv; do
    if ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
        missing+=("$pkg")
    fi
done
if ((${#missing[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
        echo "install-webapps: missing Debian packages ${missing[*]}; run this script as root (or apt-get install them)" >&2
        exit 1
    fi
    echo "install-webapps: apt-get install ${missing[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "install-webapps: Debian packages present (python3-doc rust-doc)"
fi

if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" - "${WANT[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for spec in sys.argv[1:]:
    name, _, ver = spec.partition("==")
    if version(name) != ver:
        sys.exit(1)
PY
then
    echo "install-webapps: ${WANT[*]} present in $VENV"
    exit 0
fi
echo "install-webapps: pip install ${WANT[*]} into $VENV"
mkdir -p "$(dirname "$VENV")"
[[ -x "$VENV/bin/python" ]] || /usr/bin/python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${WANT[@]}"
echo "install-webapps: done"
