"""Fixtures of the package's live tests: the `cup` executable installed with
the wheel, a private sandbox desktop running gtk3-widget-factory, and a page
in headless Chromium. All are started by `cup` itself (its `sandbox` and
`browser` commands) and stopped by their state files (by PID). A missing
component fails the test with what to install; nothing is skipped."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Dict, Iterator, List

import pytest


def cup_executable() -> str:
    """The `cup` of this venv (installed from the wheel's scripts)."""
    path = Path(sysconfig.get_path("scripts")) / ("cup.exe" if sys.platform == "win32" else "cup")
    if not path.is_file():
        pytest.fail(f"{path} missing: the wheel did not install the cup executable")
    return str(path)


def run_cup(*args: str, env: Dict[str, str] = None, timeout: float = 120) -> str:
    """Runs `cup ARGS`; fails the test with its stderr when it fails."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    done = subprocess.run(
        [cup_executable(), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=full_env,
    )
    if done.returncode != 0:
        pytest.fail(f"cup {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def exports(text: str) -> Dict[str, str]:
    """The variables of `export NAME=VALUE` lines."""
    out: Dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("export "):
            name, _, value = line[len("export ") :].partition("=")
            words: List[str] = shlex.split(value)
            out[name] = words[0] if words else ""
    return out


@pytest.fixture(scope="session")
def cup_exe() -> str:
    return cup_executable()


@pytest.fixture(scope="session")
def desktop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dict[str, str]]:
    """A sandbox desktop with gtk3-widget-factory; its environment is set in
    this process (the Session reads it when it connects)."""
    state = str(tmp_path_factory.mktemp("sandbox") / "state.json")
    env = exports(run_cup("sandbox", "start", "--state", state))
    try:
        run_cup("sandbox", "run", "--state", state, "--", "gtk3-widget-factory", timeout=60)
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            yield env
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    finally:
        subprocess.run([cup_executable(), "sandbox", "stop", "--state", state], capture_output=True)


PAGE = """<!doctype html>
<html><head><title>cup python test</title></head>
<body>
  <h1>Orders</h1>
  <label for="q">Search orders</label>
  <input id="q" type="text" placeholder="order number">
  <button id="go" onclick="document.getElementById('out').textContent = 'Found ' + document.getElementById('q').value">Search</button>
  <label><input id="agree" type="checkbox"> I agree</label>
  <p id="out">Nothing yet</p>
  <ul>
    <li>First order</li>
    <li>Second order</li>
  </ul>
</body></html>
"""


@pytest.fixture(scope="session")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A page in headless Chromium; yields the DevTools URL."""
    d = tmp_path_factory.mktemp("browser")
    page = d / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    state = str(d / "state.json")
    env = exports(run_cup("browser", "start", "--headless", "--state", state, page.as_uri()))
    try:
        url = env.get("CUP_CDP_URL")
        if not url:
            port = env.get("CUP_CDP_PORT")
            if not port:
                pytest.fail(f"cup browser start printed no DevTools address: {env}")
            url = f"http://127.0.0.1:{port}"
        yield url
    finally:
        subprocess.run([cup_executable(), "browser", "stop", "--state", state], capture_output=True)
