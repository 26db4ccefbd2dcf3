"""cup's MCP server: ``python -m cup.mcp`` runs ``cup mcp`` (stdio)."""
