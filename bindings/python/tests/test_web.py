"""The Session on a page in headless Chromium (CDP)."""

from __future__ import annotations

import re
import time

import pytest

import cup

PNG = b"\x89PNG\r\n\x1a\n"


def id_of(text: str, *parts: str) -> str:
    for line in text.splitlines():
        if all(p in line for p in parts):
            m = re.search(r"\[(e\d+)\]", line)
            if m:
                return m.group(1)
    raise AssertionError(f"no line with {parts} in:\n{text}")


def test_snapshot_act_snapshot_on_a_page(web):
    s = cup.Session(platform="web", cdp_url=web)
    assert s.platform_name == "web"
    text = s.snapshot()
    assert text.startswith("# CUP 0.1.0 | web | "), text[:200]
    box = id_of(text, 'tbx "Search orders"')
    # Web nodes have real bounds.
    assert re.search(r'tbx "Search orders" -?\d+,-?\d+ \d+x\d+', text), text

    typed = s.action(box, "type", value="A-42")
    assert typed.success and typed.effect == "confirmed", typed
    go = id_of(text, 'btn "Search"')
    clicked = s.action(go, "click")
    assert clicked.success and clicked.effect == "confirmed", clicked

    after = s.snapshot()
    assert 'val="A-42"' in after
    # The paragraph's text (compact pruning drops a lone text under a named
    # ancestor; the full detail keeps it).
    assert 'txt "Found A-42"' in s.snapshot(detail="full")

    env = s.snapshot(compact=False)
    assert env["platform"] == "web" and cup.format.validate_envelope(env) == []


def test_find_press_screenshot_batch_on_a_page(web):
    s = cup.Session(platform="web", cdp_url=web)
    s.snapshot()
    agree = s.find(query="I agree checkbox")
    assert agree and agree[0]["role"] == "checkbox", agree
    assert agree[0]["bounds"]["w"] > 0

    box = s.find(role="textbox", name="Search orders")[0]["id"]
    assert s.action(box, "focus").success
    pressed = s.press("ctrl+a")
    assert pressed.success, pressed

    png = s.screenshot()
    assert png.startswith(PNG)

    started = time.monotonic()
    results = s.batch(
        [
            {"element_id": agree[0]["id"], "action": "toggle"},
            {"action": "wait", "ms": 200},
            {"element_id": box, "action": "setvalue", "value": "B-7"},
        ]
    )
    assert time.monotonic() - started >= 0.2
    assert [r.success for r in results] == [True, True, True], results
    assert results[0].effect == "confirmed"
    text = s.snapshot()
    assert re.search(r'chk "I agree".*\{[a-z,]*chk', text), text
    assert 'val="B-7"' in text

    with pytest.raises(ValueError, match="Unknown action 'fly'"):
        s.action(box, "fly")
    with pytest.raises(ValueError, match="not found in the current snapshot"):
        s.action("e99999", "click")
    # On the web, open_app opens addresses.
    with pytest.raises(cup.CupError, match="not a web address"):
        s.open_app("calculator")


def test_unreachable_browser_is_a_cup_error():
    s = cup.Session(platform="web", cdp_url="http://127.0.0.1:1")
    with pytest.raises(cup.CupError) as e:
        s.snapshot()
    assert "\n" not in str(e.value) and "127.0.0.1:1" in str(e.value)
