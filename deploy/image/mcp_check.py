"""Drives cup's MCP server in the container with the official MCP client.

    python mcp_check.py URL TOKEN [--app] [--expect TEXT]

deploy/image/test.sh runs it with the Python of target/mcp-client
(scripts/install-mcp-client.sh) against the container's published port:
initialize, list the tools, take a snapshot (which must contain TEXT), and
with --app (the desktop runs gtk3-widget-factory) toggle an enabled check
button and require the effect `confirmed`, then take a screenshot. Prints
one JSON line of facts; exits 1 with the reason on a failure.
"""

import argparse
import asyncio
import base64
import json
import re
import sys
import time

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client


def text_of(result) -> str:
    return "\n".join(b.text for b in result.content if b.type == "text")


class Failed(Exception):
    pass


def enabled_check_button(text: str) -> str:
    """The id of the first enabled check button of a compact snapshot."""
    for line in text.splitlines():
        if 'chk "checkbutton"' not in line or "[clk,tog]" not in line:
            continue
        states = re.search(r"\{([^}]*)\}", line)
        if states and "dis" in states.group(1).split(","):
            continue
        return re.search(r"\[(e\d+)\]", line).group(1)
    raise Failed(f"no enabled check button in the snapshot:\n{text[:2000]}")


async def drive(session: ClientSession, app: bool, expect: str | None) -> dict:
    facts = {}
    init = await session.initialize()
    facts["server"] = f"{init.serverInfo.name} {init.serverInfo.version}"
    tools = [t.name for t in (await session.list_tools()).tools]
    facts["tools"] = len(tools)
    for needed in ("snapshot", "action", "screenshot"):
        if needed not in tools:
            raise Failed(f"tool {needed} not offered: {tools}")
    snap = await asyncio.wait_for(session.call_tool("snapshot", {}), 60)
    text = text_of(snap)
    if snap.isError:
        raise Failed(f"snapshot failed: {text}")
    facts["snapshot_lines"] = len(text.splitlines())
    if expect is not None and expect not in text:
        raise Failed(f"{expect!r} not in the snapshot:\n{text[:2000]}")
    if not app:
        return facts
    if "gtk3-widget-factory" not in text:
        raise Failed(f"gtk3-widget-factory not in the snapshot:\n{text[:2000]}")
    element = enabled_check_button(text)
    acted = await asyncio.wait_for(
        session.call_tool("action", {"action": "toggle", "element_id": element}), 60
    )
    effect = (acted.structuredContent or {}).get("effect")
    if acted.isError or effect != "confirmed":
        raise Failed(f"toggle {element}: effect {effect!r}: {text_of(acted)}")
    facts["toggle"] = f"{element} {effect}"
    shot = await asyncio.wait_for(session.call_tool("screenshot", {}), 60)
    png = [base64.b64decode(b.data) for b in shot.content if b.type == "image"]
    if shot.isError or not png or png[0][:8] != b"\x89PNG\r\n\x1a\n":
        raise Failed(f"screenshot: no PNG: {text_of(shot)}")
    facts["screenshot_bytes"] = len(png[0])
    return facts


async def main(url: str, token: str, app: bool, expect: str | None) -> dict:
    start = time.monotonic()
    headers = {"Authorization": f"Bearer {token}"}
    outcome = {}
    async with streamablehttp_client(url, headers=headers) as (read, write, _):
        async with ClientSession(read, write) as session:
            try:
                outcome = await drive(session, app, expect)
            except Failed as e:  # leave the session cleanly, then report
                outcome = {"failed": str(e)}
    outcome["seconds"] = round(time.monotonic() - start, 2)
    return outcome


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Drive cup's MCP server over streamable HTTP.")
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("--app", action="store_true", help="gtk3-widget-factory runs: toggle, screenshot")
    parser.add_argument("--expect", help="text the first snapshot must contain")
    args = parser.parse_args()
    result = asyncio.run(main(args.url, args.token, args.app, args.expect))
    if "failed" in result:
        print(f"mcp_check: {result['failed']}", file=sys.stderr, flush=True)
        sys.exit(1)
    print(json.dumps(result), flush=True)
