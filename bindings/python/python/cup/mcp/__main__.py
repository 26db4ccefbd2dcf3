"""``python -m cup.mcp [OPTIONS]``: cup's MCP server over stdio (``cup mcp``)."""

from __future__ import annotations

import sys

from cup.__main__ import main

if __name__ == "__main__":
    sys.exit(main(["mcp", *sys.argv[1:]]))
