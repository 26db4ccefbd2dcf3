// Run by scripts/node-tests.sh in a fresh folder where cup-rs was installed
// from its tarballs: `npx cup-rs mcp` answers the official MCP client (the
// TypeScript SDK's) over stdio.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const transport = new StdioClientTransport({ command: "npx", args: ["--no-install", "cup-rs", "mcp"], stderr: "inherit" });
const client = new Client({ name: "cup-rs-packed-test", version: "0.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
for (const want of ["snapshot", "action", "find", "screenshot"]) {
  if (!names.includes(want)) throw new Error(`npx cup-rs mcp lists no ${want}: ${names.join(", ")}`);
}
const r = await client.callTool({ name: "find", arguments: { query: "x", state: "shiny" } });
const text = r.content.map((c) => c.text ?? "").join("");
if (!r.isError || !text.includes("shiny")) throw new Error(`a bad call is an error result with cup's message: ${JSON.stringify(r)}`);
await client.close();
console.log(`npx cup-rs mcp: ${names.length} tools over the official MCP client`);
