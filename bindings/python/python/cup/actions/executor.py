"""Action results and the executor of the reference API.

:class:`ActionResult` has the reference's ``success``, ``message`` and
``error``, plus what cup observed: ``effect`` (``confirmed``, ``no_change``
or ``unverified``) and ``changes`` (what changed: ``{"target", "field",
"before", "after"}``). ``success`` means the action was delivered and not
refused; whether it changed anything is ``effect``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

from cup import _native

__all__ = ["ActionResult", "ActionExecutor", "VALID_ACTIONS"]

VALID_ACTIONS = frozenset(
    {
        "click",
        "collapse",
        "decrement",
        "dismiss",
        "doubleclick",
        "expand",
        "focus",
        "increment",
        "longpress",
        "press",
        "rightclick",
        "scroll",
        "select",
        "setvalue",
        "toggle",
        "type",
    }
)
"""The 15 CUP element actions and ``press``."""

#: Parameters an element action takes.
ACTION_PARAMS = ("value", "direction", "amount")


@dataclass
class ActionResult:
    """What an action did."""

    success: bool
    message: str
    error: Optional[str] = None
    effect: Optional[str] = None
    changes: List[Dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_json(cls, text: str) -> "ActionResult":
        """From cup's JSON result."""
        return cls.from_dict(json.loads(text))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ActionResult":
        """From a result dict (cup's JSON, or a batch step's)."""
        return cls(
            success=bool(d.get("success")),
            message=d.get("message") or "",
            error=d.get("error"),
            effect=d.get("effect"),
            changes=list(d.get("changes") or []),
        )

    def to_dict(self) -> Dict[str, Any]:
        """As a plain dict (``error`` None on success)."""
        return {
            "success": self.success,
            "message": self.message,
            "error": self.error,
            "effect": self.effect,
            "changes": self.changes,
        }


def check_params(action: str, params: Mapping[str, Any]) -> None:
    """Refuses parameters an element action does not take (a typo would
    otherwise be ignored)."""
    unknown = sorted(set(params) - set(ACTION_PARAMS))
    if unknown:
        raise ValueError(
            f"action '{action}': unknown parameter(s) {', '.join(unknown)}; "
            f"it takes {', '.join(ACTION_PARAMS)}"
        )


class ActionExecutor:
    """Runs actions on the elements of the latest capture of ``adapter``
    (an adapter from :func:`cup.get_adapter`); every problem comes back as
    a failed :class:`ActionResult`, never an exception (that is what
    :class:`cup.Session` raises)."""

    def __init__(self, adapter: Any) -> None:
        self._adapter = adapter
        self._refs: Dict[str, Any] = {}
        self._refs_set = False

    def set_refs(self, refs: Dict[str, Any]) -> None:
        """Limits actions to these ids (replaces the previous ones). Without
        it, the ids are those of the adapter's latest snapshot."""
        self._refs = dict(refs)
        self._refs_set = True

    def _session(self) -> Any:
        native = getattr(self._adapter, "_native", None)
        if native is None:
            raise RuntimeError(
                f"{type(self._adapter).__name__} is not a cup adapter; make one with cup.get_adapter()"
            )
        return native

    def action(
        self, element_id: str, action: str, params: Optional[Mapping[str, Any]] = None
    ) -> ActionResult:
        """Performs ``action`` on ``element_id``; ``press`` takes ``keys``."""
        params = dict(params or {})
        try:
            if action == "press":
                keys = params.get("keys")
                if not keys:
                    raise ValueError("Action 'press' requires a 'keys' parameter, e.g. keys='ctrl+s'")
                return self.press(keys)
            check_params(action, params)
            _native.check_action(action, params.get("value"), params.get("direction"))
            known_here = self._refs_set or getattr(self._adapter, "_native", None) is None
            if known_here and element_id not in self._refs:
                raise ValueError(
                    f"element '{element_id}' not found in the current snapshot; take a new snapshot and use its ids"
                )
            return ActionResult.from_json(
                self._session().action(
                    element_id,
                    action,
                    params.get("value"),
                    params.get("direction"),
                    params.get("amount"),
                )
            )
        except (ValueError, RuntimeError) as e:
            return ActionResult(success=False, message="", error=str(e))

    def press(self, combo: str) -> ActionResult:
        """Presses a key combo on the focused window."""
        try:
            return ActionResult.from_json(self._session().press(combo))
        except (ValueError, RuntimeError) as e:
            return ActionResult(success=False, message="", error=str(e))

    def open_app(self, name: str) -> ActionResult:
        """Opens an app by name and waits for its window."""
        try:
            return ActionResult.from_json(self._session().open_app(name))
        except (ValueError, RuntimeError) as e:
            return ActionResult(success=False, message="", error=str(e))
