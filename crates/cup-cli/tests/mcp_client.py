"""A real MCP client (the official Python SDK, `mcp`) driven line by line.

The Rust tests start it, send one JSON command per line on stdin and read
one JSON answer per line on stdout, so they can decide each call from the
answers before (ids from a snapshot, and so on).

    python mcp_client.py stdio -- CMD ARGS...    one client over stdio
    python mcp_client.py http URL TOKEN [N]      N clients over streamable HTTP

Commands: {"op": "list", "client": 0}
          {"op": "call", "tool": "snapshot", "args": {...}, "client": 0}
          {"op": "quit"}
Answers:  {"tools": [...], "bytes": N} for list; for call
          {"is_error": bool, "text": "...", "images": [{"mime", "bytes",
          "png": bool, "width", "height"}], "structured": ...};
          {"exception": "..."} when the client itself failed.
"""

import asyncio
import base64
import json
import os
import struct
import sys
from contextlib import AsyncExitStack

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client


def png_facts(data: bytes) -> dict:
    ok = data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24]) if ok else (0, 0)
    return {"png": ok, "width": width, "height": height}


def describe(result) -> dict:
    texts, images = [], []
    for block in result.content:
        if block.type == "text":
            texts.append(block.text)
        elif block.type == "image":
            raw = base64.b64decode(block.data)
            images.append({"mime": block.mimeType, "bytes": len(raw), **png_facts(raw)})
    return {
        "is_error": bool(result.isError),
        "text": "\n".join(texts),
        "images": images,
        "structured": result.structuredContent,
    }


async def main() -> None:
    mode = sys.argv[1]
    async with AsyncExitStack() as stack:
        sessions = []
        if mode == "stdio":
            command = sys.argv[sys.argv.index("--") + 1 :]
            params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
            read, write = await stack.enter_async_context(stdio_client(params))
            sessions.append(await stack.enter_async_context(ClientSession(read, write)))
        else:
            url, token = sys.argv[2], sys.argv[3]
            count = int(sys.argv[4]) if len(sys.argv) > 4 else 1
            for _ in range(count):
                read, write, _ = await stack.enter_async_context(
                    streamablehttp_client(url, headers={"Authorization": f"Bearer {token}"})
                )
                sessions.append(await stack.enter_async_context(ClientSession(read, write)))
        for s in sessions:
            await s.initialize()
        print(json.dumps({"ready": len(sessions)}), flush=True)
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                break
            cmd = json.loads(line)
            if cmd["op"] == "quit":
                break
            session = sessions[cmd.get("client", 0)]
            try:
                if cmd["op"] == "list":
                    tools = await session.list_tools()
                    raw = json.dumps([t.model_dump(exclude_none=True) for t in tools.tools])
                    answer = {"tools": [t.name for t in tools.tools], "bytes": len(raw)}
                else:
                    result = await asyncio.wait_for(
                        session.call_tool(cmd["tool"], cmd.get("args") or {}), timeout=120
                    )
                    answer = describe(result)
            except Exception as e:  # the test reads what failed
                answer = {"exception": f"{type(e).__name__}: {e}"}
            print(json.dumps(answer), flush=True)


asyncio.run(main())
