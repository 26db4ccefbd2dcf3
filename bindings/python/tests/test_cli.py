"""The `cup` executable installed with the wheel: its version, and `cup mcp`
answering a real MCP client (the official Python SDK) over stdio."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import cup


def test_cup_version(cup_exe):
    out = subprocess.run([cup_exe, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"cup {cup.__version__}"
    via_module = subprocess.run(
        [sys.executable, "-m", "cup", "--version"], capture_output=True, text=True, check=True
    )
    assert via_module.stdout.strip() == f"cup {cup.__version__}"


def test_cup_mcp_answers_an_mcp_client(cup_exe, desktop):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def main():
        params = StdioServerParameters(command=cup_exe, args=["mcp"], env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as client:
                init = await client.initialize()
                assert init.serverInfo.name == "cup"
                tools = {t.name for t in (await client.list_tools()).tools}
                assert {"snapshot", "action", "find", "screenshot"} <= tools, tools
                snap = await client.call_tool("snapshot", {})
                assert not snap.isError
                text = snap.content[0].text
                assert text.startswith("# CUP 0.1.0 | linux |"), text[:200]
                assert 'chk "checkbutton"' in text
                bad = await client.call_tool("action", {"action": "fly", "element_id": "e1"})
                assert bad.isError and "Unknown action 'fly'" in bad.content[0].text

    asyncio.run(main())


def test_python_m_cup_mcp_is_the_same_server(desktop):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def main():
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "cup.mcp"], env=dict(os.environ)
        )
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as client:
                init = await client.initialize()
                assert init.serverInfo.name == "cup"

    asyncio.run(main())


def test_uvx_launch_of_cup_mcp_from_the_wheel(desktop, tmp_path):
    """What an MCP client's config runs with no Rust toolchain:
    `uvx --from <wheel> cup mcp` (offline: the wheel needs nothing else)."""
    import shutil

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    wheel = os.environ.get("CUP_RS_WHEEL")
    assert wheel, "CUP_RS_WHEEL (the built wheel's path) is not set; run scripts/python-tests.sh"
    uvx = shutil.which("uvx", path=os.path.dirname(sys.executable))
    assert uvx, "uvx missing from the test venv (pip install uv)"
    env = dict(os.environ, UV_CACHE_DIR=str(tmp_path / "uv-cache"))

    async def main():
        params = StdioServerParameters(
            command=uvx,
            args=["--offline", "--no-config", "--from", wheel, "cup", "mcp"],
            env=env,
        )
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as client:
                init = await client.initialize()
                assert init.serverInfo.name == "cup"
                snap = await client.call_tool("snapshot", {})
                assert not snap.isError and snap.content[0].text.startswith("# CUP 0.1.0 | linux |")

    asyncio.run(main())
