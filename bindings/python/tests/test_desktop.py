"""The Session on a real desktop: a private sandbox (Xvfb, D-Bus, AT-SPI)
running gtk3-widget-factory."""

from __future__ import annotations

import asyncio
import re
import threading
import time

import pytest

import cup
import cup.aio

PNG = b"\x89PNG\r\n\x1a\n"


def id_of(text: str, *parts: str) -> str:
    """The id of the first enabled element whose line contains every part."""
    for line in text.splitlines():
        states = re.search(r" \{([a-z,]+)\}", line)
        if states and "dis" in states.group(1).split(","):
            continue
        if all(p in line for p in parts):
            m = re.search(r"\[(e\d+)\]", line)
            if m:
                return m.group(1)
    raise AssertionError(f"no line with {parts} in:\n{text[:3000]}")


def line_of(text: str, element_id: str) -> str:
    for line in text.splitlines():
        if line.strip().startswith(f"[{element_id}]"):
            return line
    raise AssertionError(f"no line {element_id}")


def test_snapshot_act_snapshot(desktop):
    s = cup.Session()
    assert s.platform_name == "linux"
    text = s.snapshot()
    assert text.startswith("# CUP 0.1.0 | linux | 1920x1080\n"), text[:200]
    assert "gtk3-widget-factory" in text or "GTK+ Widget Factory" in text
    check = id_of(text, 'chk "checkbutton"', "[clk,tog]")
    before = "{chk" in line_of(text, check)

    result = s.action(check, "toggle")
    assert isinstance(result, cup.ActionResult)
    assert result.success, result
    assert result.effect == "confirmed", result
    assert any(c["field"] == "states" for c in result.changes), result.changes

    after = s.snapshot()
    assert ("{chk" in line_of(after, id_of(after, 'chk "checkbutton"'))) != before

    env = s.snapshot(compact=False)
    assert env["version"] == "0.1.0" and env["platform"] == "linux" and env["tree"]
    assert env["scope"] == "foreground"
    assert cup.format.validate_envelope(env) == []
    assert s._last_raw_tree == env["tree"]

    # Put it back (so reruns see the same start), through the reference's
    # lower-level executor this time: problems are results, not exceptions.
    exe = cup.ActionExecutor(s._adapter)
    assert exe.action(id_of(after, 'chk "checkbutton"'), "toggle").effect == "confirmed"
    missing = exe.action("e99999", "click")
    assert not missing.success and "not found in the current snapshot" in missing.error
    # Only what changed since the last snapshot: the check button, by its id.
    changed = s.snapshot(since="last")
    assert "# changes since s" in changed, changed
    check = id_of(after, 'chk "checkbutton"')
    assert ("{chk" in line_of(changed, check)) == before, changed
    assert len(changed) * 10 <= len(after), changed
    # Without bounds: the same lines, none with x,y wxh.
    by_id = s.snapshot(bounds=False)
    assert len(by_id.splitlines()) == len(s.snapshot().splitlines()), by_id
    assert not re.search(r"\] \w+ (\"[^\"]*\" )?-?\d+,-?\d+ \d+x\d+", by_id), by_id
    # Within a token budget: fewer lines, each a whole line of the whole
    # text (Rust's tests count the tokens exactly), and the header says so.
    whole = s.snapshot()
    budgeted = s.snapshot(max_tokens=300)
    assert "# max_tokens 300: " in budgeted, budgeted
    body = [l for l in budgeted.split("\n\n", 1)[1].splitlines() if not l.lstrip().startswith("#")]
    assert body and all(l in whole.splitlines() for l in body), budgeted
    assert len(budgeted) < len(whole), budgeted
    # Waiting: for an element (found in a fresh snapshot, its id valid),
    # for the load (a desktop has no loading note), and a timeout.
    waited = s.wait(query="checkbutton")
    assert waited["element"]["name"] == "checkbutton", waited
    assert f'[{waited["element"]["id"]}] chk "checkbutton"' in s.snapshot()
    assert s.wait(until="load")["element"] is None
    with pytest.raises(cup.CupError, match="nothing matched"):
        s.wait(name="zqxwv", timeout_ms=300)
    with pytest.raises(ValueError, match='use "load"'):
        s.wait(until="idle")


def test_find_press_screenshot_batch(desktop):
    s = cup.Session()
    hits = s.find(query="checkbutton")  # takes a snapshot first
    assert hits and hits[0]["role"] == "checkbox" and "children" not in hits[0]
    assert s.find(role="checkbox", name="checkbutton", limit=1)[0]["id"] == hits[0]["id"]
    text = s.snapshot()
    check = id_of(text, 'chk "checkbutton"')

    pressed = s.press("shift")
    assert pressed.success and pressed.message, pressed

    png = s.screenshot()
    assert png.startswith(PNG) and len(png) > 1000
    part = s.screenshot(region={"x": 0, "y": 0, "w": 100, "h": 50})
    assert part.startswith(PNG)
    assert int.from_bytes(part[16:20], "big") == 100 and int.from_bytes(part[20:24], "big") == 50

    started = time.monotonic()
    results = s.batch(
        [
            {"action": "wait", "ms": 300},
            {"element_id": check, "action": "toggle"},
            {"action": "wait", "ms": 50},
            {"element_id": check, "action": "toggle"},
        ]
    )
    assert time.monotonic() - started >= 0.35
    assert [r.success for r in results] == [True] * 4, results
    assert results[0].message == "Waited 300ms"
    assert results[1].effect == "confirmed" and results[3].effect == "confirmed"

    stopped = s.batch([{"action": "click"}, {"action": "wait", "ms": 50}])
    assert len(stopped) == 1 and not stopped[0].success and "element_id" in stopped[0].error



def test_bad_arguments_raise_with_cups_message(desktop):
    s = cup.Session()
    text = s.snapshot()
    check = id_of(text, 'chk "checkbutton"')
    cases = [
        (lambda: s.action(check, "fly"), "Unknown action 'fly'; valid: click"),
        (lambda: s.action("e99999", "click"), "element 'e99999' not found in the current snapshot"),
        (lambda: s.action(check, "type"), "requires a 'value' parameter"),
        (lambda: s.action(check, "scroll", direction="sideways"), "requires 'direction'"),
        (lambda: s.action(check, "click", colour="red"), "unknown parameter(s) colour"),
        (lambda: s.action(check, "press"), "requires a 'keys' parameter"),
        (lambda: s.snapshot(scope="everything"), 'scope "everything": use one of overview'),
        (lambda: s.press("ctrl+"), "keys \"ctrl+\""),
        (lambda: s.find(state="sleepy"), "is not a CUP state"),
        (lambda: s.screenshot(region={"x": 0, "y": 0}), "region needs x, y, w and h"),
        (lambda: s.screenshot(region={"x": 0, "y": 0, "w": 0, "h": 5}), "must be positive"),
        (lambda: s.batch("click e3"), "batch takes a list of dicts"),
        (lambda: s.open_app(" "), "App name must not be empty"),
        (lambda: s.page("e99999"), "not found in the current snapshot"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert message in str(e.value), (message, str(e.value))
        assert "\n" not in str(e.value)


def test_threads_share_one_session(desktop):
    s = cup.Session()
    out: list = []
    errors: list = []

    def work():
        try:
            for _ in range(3):
                out.append(s.snapshot())
        except Exception as e:  # noqa: BLE001 — reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    # The GIL is free while cup works: this thread keeps running.
    ticks = 0
    while any(t.is_alive() for t in threads):
        ticks += 1
        time.sleep(0.005)
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(out) == 9 and all(t.startswith("# CUP") for t in out)
    assert ticks > 3


def test_asyncio_session(desktop):
    async def main():
        s = cup.aio.Session()
        text, shot = await asyncio.gather(s.snapshot(), asyncio.sleep(0.01, "slept"))
        assert text.startswith("# CUP") and shot == "slept"
        hits = await s.find(query="checkbutton")
        enabled = [h for h in hits if "disabled" not in h.get("states", [])]
        r = await s.action(enabled[0]["id"], "toggle")
        assert r.effect == "confirmed"
        r = await s.action(enabled[0]["id"], "toggle")
        assert r.effect == "confirmed"
        png = await s.screenshot()
        assert png.startswith(PNG)
        with pytest.raises(ValueError, match="Unknown action"):
            await s.action(hits[0]["id"], "fly")

    asyncio.run(main())


def test_module_conveniences(desktop):
    assert cup.snapshot().startswith("# CUP")
    assert cup.snapshot_raw()["tree"]
    ov = cup.overview()
    assert "# overview |" in ov
    assert cup.get_foreground_compact().startswith("# CUP")


def test_close_and_context_managers(desktop):
    with cup.Session() as s:
        assert s.snapshot().startswith("# CUP")
    with pytest.raises(cup.CupError, match="closed"):
        s.snapshot()
    s.close()  # idempotent

    async def main():
        async with cup.aio.Session() as a:
            assert (await a.snapshot()).startswith("# CUP")
        with pytest.raises(cup.CupError, match="closed"):
            await a.snapshot()

    asyncio.run(main())
