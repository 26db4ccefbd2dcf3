"""CUP envelopes and the compact text format.

``prune_tree``, ``serialize_compact`` and ``serialize_overview`` are cup's
own implementation (the Rust ``cup-protocol`` crate, the one behind the
``cup`` binary), so Python and the CLI print the same bytes. Where cup
differs from the reference SDK on purpose it follows cup's
``docs/compact-format.md``: hint lines name the ``page`` call of each
direction with its count, backslashes in values are escaped and control
characters become spaces, numbers print shortest (``0..100.5``), an empty
placeholder prints nothing, an untitled window is ``(untitled)``. Nodes must
be valid CUP (an unknown role is a ``ValueError``, not passed through), and
``prune_tree`` never adds the schema-invalid ``_clipped`` key.
"""

from __future__ import annotations

import json
import time
from typing import Any, Dict, List, Literal, Optional

from cup import _native

Detail = Literal["compact", "full", "minimal", "standard", "page"]
"""How much of the tree the compact text keeps (``standard`` = ``compact``;
``page``: the compact rules with nothing clipped to the viewport)."""

MAX_OUTPUT_CHARS = 40_000
"""Default character cap of the compact text (0 = no cap)."""

CUP_VERSION = "0.1.0"

__all__ = [
    "Detail",
    "MAX_OUTPUT_CHARS",
    "build_envelope",
    "prune_tree",
    "serialize_compact",
    "serialize_overview",
    "format_line",
    "validate_envelope",
]


def build_envelope(
    tree_data: List[Dict[str, Any]],
    *,
    platform: str,
    scope: Optional[str] = None,
    screen_w: int,
    screen_h: int,
    screen_scale: Optional[float] = None,
    app_name: Optional[str] = None,
    app_pid: Optional[int] = None,
    app_bundle_id: Optional[str] = None,
    tools: Optional[List[Dict[str, Any]]] = None,
) -> Dict[str, Any]:
    """Wraps nodes in a CUP envelope (version, platform, timestamp, screen).

    The nodes are taken as given; check the result with
    :func:`validate_envelope`. ``scale`` is left out when it is 1, and
    ``scope``, ``app`` and ``tools`` when empty.
    """
    screen: Dict[str, Any] = {"w": screen_w, "h": screen_h}
    if screen_scale is not None and screen_scale != 1.0:
        screen["scale"] = screen_scale
    envelope: Dict[str, Any] = {
        "version": CUP_VERSION,
        "platform": platform,
        "timestamp": int(time.time() * 1000),
        "screen": screen,
    }
    if scope:
        envelope["scope"] = scope
    app: Dict[str, Any] = {}
    if app_name:
        app["name"] = app_name
    if app_pid is not None:
        app["pid"] = app_pid
    if app_bundle_id:
        app["bundleId"] = app_bundle_id
    if app:
        envelope["app"] = app
    envelope["tree"] = tree_data
    if tools:
        envelope["tools"] = tools
    return envelope


def prune_tree(
    tree: List[Dict[str, Any]],
    *,
    detail: Detail = "compact",
    screen: Optional[Dict[str, int]] = None,
) -> List[Dict[str, Any]]:
    """The tree as the compact text shows it: a new list, the input untouched.

    With ``screen`` (``{"w", "h"}``), descendants entirely off the screen are
    dropped, as in :func:`serialize_compact`.
    """
    size = None if screen is None else (int(screen["w"]), int(screen["h"]))
    return json.loads(_native.prune_tree(json.dumps(tree), detail, size))


def serialize_compact(
    envelope: Dict[str, Any],
    *,
    window_list: Optional[List[Dict[str, Any]]] = None,
    detail: Detail = "compact",
    max_chars: int = MAX_OUTPUT_CHARS,
) -> str:
    """The compact text of an envelope; ``window_list`` goes into the header."""
    windows = None if window_list is None else json.dumps(window_list)
    return _native.serialize_compact(json.dumps(envelope), windows, detail, max_chars)


def serialize_overview(
    window_list: List[Dict[str, Any]],
    *,
    platform: str,
    screen_w: int,
    screen_h: int,
) -> str:
    """The overview text of a window list (no tree, no ids)."""
    return _native.serialize_overview(json.dumps(window_list), platform, screen_w, screen_h)


def format_line(node: Dict[str, Any]) -> str:
    """One node's compact line, without indentation or children."""
    return _native.format_line(json.dumps({k: v for k, v in node.items() if k != "children"}))


def validate_envelope(envelope: Dict[str, Any]) -> List[str]:
    """Every violation of the CUP JSON Schema, as ``path: message`` lines."""
    return _native.validate_envelope(json.dumps(envelope))


# The reference SDK's private name, for programs (and its tests) that use it.
_format_line = format_line
