"""Search a CUP tree: a free-form query (``"the play button"``), a role word
or synonym, a name and a state, ranked by relevance.

cup's own search (the one behind ``cup find`` and the MCP ``find`` tool):
tokens are NFKD-folded (``ß``, ``ﬁ`` match), the role vocabulary is the
schema's 59 roles, and an exact name ranks above a partial one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, List, Optional, Tuple

from cup import _native

__all__ = [
    "SearchResult",
    "search_tree",
    "resolve_roles",
    "tokenize",
    "parse_query",
    "score_name",
]


@dataclass
class SearchResult:
    """A match: the node (without children) and its score."""

    node: Dict[str, Any]
    score: float


def search_tree(
    tree: List[Dict[str, Any]],
    *,
    query: Optional[str] = None,
    role: Optional[str] = None,
    name: Optional[str] = None,
    state: Optional[str] = None,
    limit: int = 5,
) -> List[SearchResult]:
    """Matches in ``tree``, best first, at most ``limit``.

    Raises ``ValueError`` when nothing is asked or ``state`` is not a CUP
    state.
    """
    rows = json.loads(_native.search_tree(json.dumps(tree), query, role, name, state, limit))
    return [SearchResult(node=r["node"], score=r["score"]) for r in rows]


def resolve_roles(role_query: str) -> Optional[FrozenSet[str]]:
    """The CUP roles a role word or synonym stands for (``"search bar"``:
    textbox, combobox, search, ...), or ``None``."""
    roles = _native.resolve_roles(role_query)
    return None if roles is None else frozenset(roles)


def tokenize(text: str) -> List[str]:
    """Lowercase, accent-free word tokens (``"Résumé_v2"``: resume, v2)."""
    return _native.tokenize(text)


def parse_query(query: str) -> Tuple[Optional[str], List[str]]:
    """A free-form query as (role phrase, name tokens)."""
    return _native.parse_query(query)


def score_name(
    query_tokens: List[str],
    node_name: str,
    node_description: str = "",
    node_value: str = "",
    placeholder: str = "",
) -> float:
    """How well a node's name (and description, value, placeholder) match
    query tokens, 0 to 1 (1 when there are no tokens)."""
    return _native.score_name(
        list(query_tokens), node_name, node_description, node_value, placeholder
    )


# The reference SDK's private names, for programs (and its tests) that use
# them.
_tokenize = tokenize
_parse_query = parse_query
_score_name = score_name
