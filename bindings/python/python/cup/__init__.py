"""cup: the Computer Use Protocol at native speed.

The reference CUP SDK's API (``computeruseprotocol``, also ``import cup``)
over cup's Rust core: snapshots of the desktop or a browser page as a
compact accessibility tree, and actions that report the effect they
observed::

    import cup

    session = cup.Session()                       # this desktop; platform="web" for Chromium
    print(session.snapshot())                     # foreground window, compact text
    result = session.action("e14", "click")       # result.effect: confirmed / no_change / unverified
    print(session.find(query="save button"))

    text = cup.snapshot()                         # the same on a default session
    env = cup.snapshot_raw()                      # the CUP envelope as a dict
    print(cup.overview())                         # the window list

``cup.aio.Session`` is the asyncio flavour. The ``cup`` command (CLI and
MCP server, ``cup mcp``) comes with the package.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, Optional

from cup import _native
from cup._native import CupError
from cup._router import detect_platform, get_adapter
from cup._session import Scope, Session
from cup.actions import ActionExecutor, ActionResult
from cup.actions._keys import parse_combo
from cup.format import (
    Detail,
    build_envelope,
    prune_tree,
    serialize_compact,
    serialize_overview,
)
from cup.search import search_tree

__version__: str = _native.__version__

__all__ = [
    "snapshot",
    "snapshot_raw",
    "overview",
    "Session",
    "Scope",
    "Detail",
    "ActionResult",
    "ActionExecutor",
    "CupError",
    # Building blocks
    "get_adapter",
    "detect_platform",
    "build_envelope",
    "serialize_compact",
    "serialize_overview",
    "prune_tree",
    "parse_combo",
    "search_tree",
    # Gen-1 names
    "get_tree",
    "get_foreground_tree",
    "get_compact",
    "get_foreground_compact",
    "get_overview",
]

_default_session: Optional[Session] = None
_default_lock = threading.Lock()


def _get_default_session() -> Session:
    global _default_session
    with _default_lock:
        if _default_session is None:
            _default_session = Session()
        return _default_session


def snapshot(scope: Scope = "foreground", *, max_depth: int = 999) -> str:
    """The compact text of ``scope`` (foreground, full, desktop, overview)
    on a default session."""
    return _get_default_session().snapshot(scope=scope, max_depth=max_depth, compact=True)


def snapshot_raw(scope: Scope = "foreground", *, max_depth: int = 999) -> Dict[str, Any]:
    """The CUP envelope (a dict) of ``scope`` on a default session."""
    return _get_default_session().snapshot(scope=scope, max_depth=max_depth, compact=False)


def overview() -> str:
    """The window list (no tree walk)."""
    return _get_default_session().snapshot(scope="overview", compact=True)


# -- Gen-1 names ------------------------------------------------------------


def get_tree(*, max_depth: int = 999) -> Dict[str, Any]:
    """Gen-1: every window as an envelope (``snapshot_raw("full")``)."""
    return snapshot_raw("full", max_depth=max_depth)


def get_foreground_tree(*, max_depth: int = 999) -> Dict[str, Any]:
    """Gen-1: the foreground window as an envelope."""
    return snapshot_raw("foreground", max_depth=max_depth)


def get_compact(*, max_depth: int = 999) -> str:
    """Gen-1: every window as compact text."""
    return snapshot("full", max_depth=max_depth)


def get_foreground_compact(*, max_depth: int = 999) -> str:
    """Gen-1: the foreground window as compact text."""
    return snapshot("foreground", max_depth=max_depth)


def get_overview() -> str:
    """Gen-1: the window list."""
    return overview()
