"""Phones from Python. platform="android": the Session talks to Debian's
real adb server (started here on a private port and home, stopped by its
pid); no phone is connected, so the first call gives cup's one-line error.
platform="ios": no WebDriverAgent listens, so the same. Driving a phone is
tested in crates/cup-android (a device of the tests' own behind the real
adb server) and crates/cup-ios (recorded WebDriverAgent exchanges)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

import pytest

import cup


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def adb_server(tmp_path, monkeypatch):
    adb = shutil.which("adb")
    assert adb, "adb is missing: apt install adb (scripts/install-deps.sh does)"
    port = _free_port()
    proc = subprocess.Popen(
        [adb, "-P", str(port), "nodaemon", "server"],
        env={**os.environ, "HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the adb server did not listen"
                time.sleep(0.05)
        monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(port))
        monkeypatch.delenv("ANDROID_SERIAL", raising=False)
        yield port
    finally:
        proc.kill()
        proc.wait()


def test_android_session_asks_the_adb_server_for_its_phone(adb_server):
    s = cup.Session(platform="android")
    assert s.platform_name == "android"
    with pytest.raises(cup.CupError, match="^no Android device is connected; plug one in") as e:
        s.snapshot()
    assert "\n" not in str(e.value)
    named = cup.Session(platform="android", serial="R58M123")
    with pytest.raises(cup.CupError, match="no device R58M123 is connected"):
        named.snapshot()


def test_ios_session_says_when_no_webdriveragent_answers():
    port = _free_port()
    s = cup.Session(platform="ios", wda_url=f"http://127.0.0.1:{port}")
    assert s.platform_name == "ios"
    with pytest.raises(cup.CupError, match=f"^no WebDriverAgent answers at http://127.0.0.1:{port}") as e:
        s.snapshot()
    assert "forward port 8100" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(cup.CupError, match="WebDriverAgent serves plain http"):
        cup.Session(platform="ios", wda_url="https://phone.local")
