#!/usr/bin/env bash
# The Python package's tests: builds the cup-rs wheel (dev profile), installs
# it into a fresh venv with pinned pytest, jsonschema and the MCP client SDK,
# runs bindings/python/tests there (live: the sandbox desktop, headless
# Chromium, `cup mcp` under a real MCP client), then runs the reference
# Python SDK's own test suite (computeruseprotocol 0.1.0's sdist, fetched
# with pip download --no-binary) on the reference and on cup-rs and
# compares them (bindings/python/ci/reference_suite.py).
# Needs python3 with venv (scripts/install-deps.sh), the sandbox's packages
# and Chromium, and the package index for the pinned packages.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY=/usr/bin/python3
[[ -x "$PY" ]] || PY="$(command -v python3)"
if ! "$PY" -c 'import ensurepip, venv' 2>/dev/null; then
    echo "python-tests: $PY has no venv module; run scripts/install-deps.sh (or apt-get install python3-venv)" >&2
    exit 1
fi
WORK="$ROOT/target/py-test"
PINS=(pytest==9.2.0 jsonschema==4.26.0)
REF_SDK=computeruseprotocol==0.1.0
mkdir -p "$WORK"

echo "python-tests: building the wheel"
bindings/python/build-wheel.sh
wheel=$(ls target/wheels/cup_rs-*.whl)

echo "python-tests: fresh venv $WORK/venv with $(basename "$wheel")"
rm -rf "$WORK/venv"
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" "${PINS[@]}" mcp==1.27.0 mypy==2.4.1 uv==0.13.8

echo "python-tests: pytest bindings/python/tests"
(cd bindings/python && CUP_RS_WHEEL="$ROOT/$wheel" "$WORK/venv/bin/python" -m pytest -q -p no:cacheprovider -rs tests)

echo "python-tests: the reference SDK's own suite"
sdist="$WORK/computeruseprotocol-0.1.0.tar.gz"
if [[ ! -f "$sdist" ]]; then
    "$WORK/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
        --no-binary :all: "$REF_SDK" -d "$WORK"
fi
if ! "$WORK/ref-venv/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("pytest") != "9.2.0" or m.version("jsonschema") != "4.26.0")' 2>/dev/null; then
    rm -rf "$WORK/ref-venv"
    "$PY" -m venv "$WORK/ref-venv"
    "$WORK/ref-venv/bin/pip" install --quiet --disable-pip-version-check "${PINS[@]}"
fi
"$PY" bindings/python/ci/reference_suite.py --ref-python "$WORK/ref-venv/bin/python" \
    --ours-python "$WORK/venv/bin/python" --sdist "$sdist" --work "$WORK/reference-suite"
