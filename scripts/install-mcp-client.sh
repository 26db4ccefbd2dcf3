#!/usr/bin/env bash
# Installs the real MCP client the MCP tests drive `cup mcp` with: the
# official Python SDK (`mcp`, pinned) in a venv made from Debian's python3,
# at target/mcp-client (or $CUP_MCP_CLIENT_VENV). Idempotent: skips what is
# there. Needs python3-venv (scripts/install-deps.sh installs it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${CUP_MCP_CLIENT_VENV:-$ROOT/target/mcp-client}"
MCP="mcp==1.27.0"

if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("mcp") != sys.argv[1])' "${MCP#mcp==}" 2>/dev/null; then
    echo "install-mcp-client: $MCP present in $VENV"
    exit 0
fi
if ! /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; then
    echo "install-mcp-client: python3-venv missing; run scripts/install-deps.sh (or apt-get install python3-venv)" >&2
    exit 1
fi
echo "install-mcp-client: creating $VENV with $MCP"
mkdir -p "$(dirname "$VENV")"
/usr/bin/python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check "$MCP"
echo "install-mcp-client: done"
