"""The pure helpers, errors and package layout (no desktop needed)."""

from __future__ import annotations

import importlib.metadata
import pathlib

import pytest

import cup
from cup.actions import VALID_ACTIONS, ActionExecutor, ActionResult
from cup.format import build_envelope, format_line, prune_tree, serialize_compact, validate_envelope
from cup.search import parse_query, resolve_roles, search_tree, tokenize

TREE = [
    {
        "id": "e0",
        "role": "window",
        "name": "Player",
        "bounds": {"x": 0, "y": 0, "w": 800, "h": 600},
        "children": [
            {"id": "e1", "role": "generic", "name": "", "children": [
                {"id": "e2", "role": "button", "name": "Play", "actions": ["click"],
                 "bounds": {"x": 10, "y": 10, "w": 80, "h": 30}},
                {"id": "e3", "role": "textbox", "name": "Search", "value": "C:\\dir",
                 "actions": ["type", "focus"], "states": ["focused"],
                 "bounds": {"x": 100, "y": 10, "w": 200, "h": 30}},
            ]},
        ],
    }
]


def envelope():
    return build_envelope(TREE, platform="linux", screen_w=1920, screen_h=1080, scope="foreground",
                          app_name="Player", app_pid=42)


def test_version_and_distribution():
    assert cup.__version__ == importlib.metadata.version("cup-rs")
    files = {str(f) for f in importlib.metadata.files("cup-rs")}
    assert any(f.endswith("py.typed") for f in files), files
    assert any(f.endswith("_native.pyi") for f in files), files
    assert any(f.endswith("LICENSE-MIT") for f in files) and any(f.endswith("LICENSE-APACHE") for f in files)


def test_envelope_is_schema_valid_and_compact_text_is_cups():
    env = envelope()
    assert validate_envelope(env) == []
    text = serialize_compact(env)
    assert text.startswith("# CUP 0.1.0 | linux | 1920x1080\n# app: Player\n")
    # The generic is hoisted; backslashes in values are escaped.
    assert '[e2] btn "Play" 10,10 80x30 [clk]' in text
    assert '[e3] tbx "Search" 100,10 200x30 {foc} [typ] val="C:\\\\dir"' in text
    assert format_line(TREE[0]["children"][0]["children"][0]) == '[e2] btn "Play" 10,10 80x30 [clk]'
    pruned = prune_tree(TREE)
    assert [n["id"] for n in pruned[0]["children"]] == ["e2", "e3"]
    assert "_clipped" not in str(pruned)
    assert prune_tree(TREE, detail="full")[0]["children"][0]["id"] == "e1"


def test_bad_input_raises_value_error_with_one_line():
    bad = build_envelope([{"id": "e0", "role": "sprocket", "name": ""}], platform="linux",
                         screen_w=10, screen_h=10)
    assert any("role" in v for v in validate_envelope(bad))
    with pytest.raises(ValueError, match="not valid CUP") as e:
        serialize_compact(bad)
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match='detail "tiny": use one of compact'):
        serialize_compact(envelope(), detail="tiny")
    with pytest.raises(ValueError, match="state"):
        search_tree(TREE, state="sleepy")


def test_search():
    hits = search_tree(TREE, query="the play button")
    assert hits[0].node["id"] == "e2" and "children" not in hits[0].node
    assert hits[0].score > 0.5
    assert search_tree(TREE, role="search bar")[0].node["id"] == "e3"
    assert tokenize("Straße ﬁle Résumé") == ["strasse", "file", "resume"]
    assert resolve_roles("button") == frozenset({"button"})
    assert parse_query("the play button") == ("button", ["play"])


def test_parse_combo_and_actions():
    assert cup.parse_combo("cmd+shift+p") == (["meta", "shift"], ["p"])
    assert cup.parse_combo("ctrl++") == (["ctrl"], ["plus"])
    with pytest.raises(ValueError, match="keys"):
        cup.parse_combo("ctrl+")
    assert len(VALID_ACTIONS) == 16 and "press" in VALID_ACTIONS
    r = ActionResult(success=True, message="Clicked")
    assert r.error is None and r.effect is None and r.changes == []


def test_platform_choice():
    with pytest.raises(RuntimeError, match="No adapter available for platform 'nintendo'"):
        cup.get_adapter("nintendo")
    with pytest.raises(RuntimeError, match="this cup runs on"):
        cup.Session(platform="windows" if cup.detect_platform() != "windows" else "linux")
    a = cup.get_adapter()
    assert a.platform_name == cup.detect_platform() and a is not cup.get_adapter()
    assert cup.Session(platform="web", cdp_port=1).platform_name == "web"


def test_executor_reports_problems_as_results():
    class Foreign:
        platform_name = "linux"

    exe = ActionExecutor(Foreign())
    assert "Unknown action 'fly'" in exe.action("e0", "fly").error
    assert "not found" in exe.action("e9", "click").error
    assert "requires a 'value' parameter" in exe.action("e0", "type").error
    assert "requires 'direction'" in exe.action("e0", "scroll", {"direction": "sideways"}).error
    assert "not a cup adapter" in exe.press("ctrl+s").error


def test_stubs_cover_the_native_module():
    import cup._native as native

    stub = pathlib.Path(cup.__file__).with_name("_native.pyi").read_text()
    for name in dir(native):
        if not name.startswith("__"):
            assert f" {name}" in stub, f"{name} missing from _native.pyi"
