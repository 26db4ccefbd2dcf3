"""Editors and mypy see the API: the installed package type-checks a program
under `mypy --strict`, and mypy catches misuse (stubs and py.typed work)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GOOD = '''
import asyncio
from typing import Any, Dict, List

import cup
import cup.aio
from cup.search import SearchResult, search_tree

s = cup.Session(platform="web")
text: str = s.snapshot()
env: Dict[str, Any] = s.snapshot(compact=False)
r: cup.ActionResult = s.action("e1", "click")
effect = r.effect
hits: List[Dict[str, Any]] = s.find(query="ok")
png: bytes = s.screenshot(region={"x": 0, "y": 0, "w": 10, "h": 10})
found: List[SearchResult] = search_tree([], query="x")
mods, keys = cup.parse_combo("ctrl+s")


async def main() -> None:
    a = cup.aio.Session()
    res = await a.press("enter")
    print(res.success)
'''

BAD = '''
import cup
s = cup.Session()
n: int = s.snapshot()
s.action("e1")
'''


def mypy(tmp_path: Path, source: str, *flags: str) -> subprocess.CompletedProcess:
    path = tmp_path / "example.py"
    path.write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", *flags, str(path)],
        capture_output=True,
        text=True,
    )


def test_a_typed_program_passes_strict_mypy(tmp_path):
    done = mypy(tmp_path, GOOD, "--strict")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_catches_misuse(tmp_path):
    done = mypy(tmp_path, BAD)
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'expression has type "str", variable has type "int"' in done.stdout
    assert 'Missing positional argument "action"' in done.stdout
