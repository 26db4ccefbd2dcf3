#!/usr/bin/env node
// `cup-mcp`: cup's MCP server over stdio (the same as `cup mcp`).
"use strict";
require("./cup.js").run(["mcp", ...process.argv.slice(2)]);
