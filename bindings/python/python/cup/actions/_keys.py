"""Key combos (kept at the reference SDK's import path)."""

from __future__ import annotations

from typing import List, Tuple

from cup import _native

__all__ = ["parse_combo"]


def parse_combo(combo: str) -> Tuple[List[str], List[str]]:
    """``"ctrl+shift+p"`` as (``["ctrl", "shift"]``, ``["p"]``).

    Aliases are folded (``cmd``/``win``/``super`` → ``meta``, ``return`` →
    ``enter``, ``esc`` → ``escape``, ``control`` → ``ctrl``, ``option`` →
    ``alt``); ``ctrl++`` and ``ctrl+plus`` are the plus key. An empty combo,
    a trailing ``+`` or an unknown key name is a ``ValueError``.
    """
    return _native.parse_combo(combo)
