"""The Session: snapshots with element ids, and actions on them."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Union, overload

from cup._adapter import PlatformAdapter
from cup.actions.executor import ActionExecutor, ActionResult, check_params
from cup.format import Detail

Scope = Literal["overview", "foreground", "desktop", "full"]
"""What a snapshot covers: the window list, the foreground window, the
desktop, or every window."""

__all__ = ["Session", "Scope"]


class Session:
    """A CUP session: snapshots with element ids, and actions on them.

    Ids (``e14``) belong to the latest snapshot; take a new one after the UI
    changed. One Session may be used from several threads (calls run one
    after the other); captures and actions release the GIL.

    ``platform``: None or ``"desktop"`` (this machine), the OS name, or
    ``"web"`` (a Chromium over CDP at ``cdp_url``, or ``cdp_host`` /
    ``cdp_port``; default ``$CUP_CDP_URL``, ``$CUP_CDP_HOST``,
    ``$CUP_CDP_PORT``, else 127.0.0.1:9222), ``"android"`` (a phone over
    adb: ``serial``, else ``$ANDROID_SERIAL``, else the only device) or
    ``"ios"`` (WebDriverAgent at ``wda_url``, else ``$CUP_WDA_URL``, else
    http://127.0.0.1:8100).

    Bad arguments raise ``ValueError``; what the platform could not do
    raises :class:`cup.CupError` (a ``RuntimeError``), with cup's one-line
    message saying what to do next.
    """

    def __init__(
        self,
        *,
        platform: Optional[str] = None,
        cdp_url: Optional[str] = None,
        cdp_host: Optional[str] = None,
        cdp_port: Optional[int] = None,
        serial: Optional[str] = None,
        wda_url: Optional[str] = None,
    ) -> None:
        self._adapter = PlatformAdapter(
            platform,
            cdp_url=cdp_url,
            cdp_host=cdp_host,
            cdp_port=cdp_port,
            serial=serial,
            wda_url=wda_url,
        )
        self._native = self._adapter._native
        self._executor = ActionExecutor(self._adapter)

    @property
    def platform_name(self) -> str:
        """``linux``, ``windows``, ``macos`` or ``web``."""
        return self._native.platform_name

    def close(self) -> None:
        """Ends the session (its I/O thread and connections); later calls
        raise :class:`cup.CupError`. ``with cup.Session() as s:`` closes it
        at the end of the block; otherwise it happens at garbage collection."""
        self._native.close()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @overload
    def snapshot(
        self,
        *,
        scope: Scope = ...,
        app: Optional[str] = ...,
        max_depth: int = ...,
        compact: Literal[True] = ...,
        detail: Detail = ...,
        max_chars: Optional[int] = ...,
        max_nodes: Optional[int] = ...,
        timeout_ms: Optional[int] = ...,
        since: Optional[str] = ...,
        bounds: bool = ...,
        max_tokens: Optional[int] = ...,
        ocr: str = ...,
    ) -> str: ...

    @overload
    def snapshot(
        self,
        *,
        scope: Scope = ...,
        app: Optional[str] = ...,
        max_depth: int = ...,
        compact: Literal[False],
        detail: Detail = ...,
        max_chars: Optional[int] = ...,
        max_nodes: Optional[int] = ...,
        timeout_ms: Optional[int] = ...,
        since: Optional[str] = ...,
        bounds: bool = ...,
        max_tokens: Optional[int] = ...,
        ocr: str = ...,
    ) -> Dict[str, Any]: ...

    def snapshot(
        self,
        *,
        scope: Scope = "foreground",
        app: Optional[str] = None,
        max_depth: int = 999,
        compact: bool = True,
        detail: Detail = "compact",
        max_chars: Optional[int] = None,
        max_nodes: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        since: Optional[str] = None,
        bounds: bool = True,
        max_tokens: Optional[int] = None,
        ocr: str = "auto",
    ) -> Union[str, Dict[str, Any]]:
        """Captures the UI and keeps its ids for :meth:`action`.

        Returns the compact text, or the CUP envelope (a dict) when
        ``compact`` is False. ``app`` filters windows by title with
        ``scope="full"``. ``max_chars`` caps the text (default 40,000; 0:
        none); ``max_nodes`` and ``timeout_ms`` bound the capture (a capture
        cut short says so in its header). ``since`` ("last", or the id a
        changes-only header names) returns only what changed since that
        snapshot; its elements keep their ids. ``bounds=False`` leaves the
        bounds off the lines (for agents that act by id only).
        ``max_tokens`` (at least 100) is a budget in o200k tokens the text
        never exceeds: lines are kept by need (the focus, what is on screen,
        what acts, landmarks and headings) and the rest is left out with a
        note saying how many and where ``page`` or ``find`` gets them;
        ``max_chars`` then does not apply. ``ocr`` ("auto": windows that
        give no accessibility tree; "always"; "never") says when windows are
        read from their pixels: each line a ``text`` element marked
        ``(ocr)``, clicked by the pointer at its centre.
        """
        out = self._native.snapshot(
            scope, app, max_depth, compact, detail, max_chars, max_nodes, timeout_ms, since,
            bounds, max_tokens, ocr,
        )
        return out if compact else json.loads(out)

    @property
    def _last_raw_tree(self) -> Optional[List[Dict[str, Any]]]:
        """The latest snapshot's whole tree (unpruned), or None."""
        env = self._native.last_envelope()
        return None if env is None else json.loads(env)["tree"]

    def action(self, element_id: str, action: str, **params: Any) -> ActionResult:
        """Performs a CUP action on an element of the latest snapshot.

        ``value`` for type/setvalue, ``direction`` (and ``amount``) for
        scroll; ``action="press"`` with ``keys`` presses a combo. The result
        says what cup observed (``effect``, ``changes``).
        """
        if action == "press":
            keys = params.pop("keys", None)
            if params:
                raise ValueError(
                    f"action 'press': unknown parameter(s) {', '.join(sorted(params))}; it takes keys"
                )
            if not keys:
                raise ValueError("Action 'press' requires a 'keys' parameter, e.g. keys='ctrl+s'")
            return self.press(keys)
        check_params(action, params)
        return ActionResult.from_json(
            self._native.action(
                element_id,
                action,
                params.get("value"),
                params.get("direction"),
                params.get("amount"),
            )
        )

    def press(self, combo: str) -> ActionResult:
        """Presses a key combo (``"ctrl+s"``, ``"enter"``, ``"alt+f4"``) on
        the focused window."""
        return ActionResult.from_json(self._native.press(combo))

    def open_app(self, name: str) -> ActionResult:
        """Opens an installed app by (fuzzy) name and waits for its window;
        ``success`` is False when no window appeared in time."""
        return ActionResult.from_json(self._native.open_app(name))

    def find(
        self,
        *,
        query: Optional[str] = None,
        role: Optional[str] = None,
        name: Optional[str] = None,
        state: Optional[str] = None,
        limit: int = 5,
    ) -> List[Dict[str, Any]]:
        """Searches the latest snapshot (taking a foreground one first if
        there is none): node dicts without children, best first."""
        return json.loads(self._native.find(query, role, name, state, limit))

    def wait(
        self,
        *,
        until: Optional[str] = None,
        query: Optional[str] = None,
        role: Optional[str] = None,
        name: Optional[str] = None,
        state: Optional[str] = None,
        timeout_ms: int = 5000,
        ms: Optional[int] = None,
    ) -> Dict[str, Any]:
        """Waits for the page's load (``until="load"``) or for an element
        (a search, as in :meth:`find`), taking snapshots meanwhile (the ids
        are the last one's), for ``timeout_ms`` at most; with neither,
        pauses ``ms`` (default 500). Returns ``{"ms": waited, "element":
        the match or None}``; a timeout raises :class:`CupError` saying
        what it last saw."""
        return json.loads(
            self._native.wait(until, query, role, name, state, timeout_ms, ms)
        )

    def batch(self, actions: Sequence[Mapping[str, Any]]) -> List[ActionResult]:
        """Runs steps in order, stopping at the first failure (included).

        A step is ``{"element_id": "e14", "action": "click"}``, ``{"action":
        "type", "element_id": "e5", "value": "hi"}``, ``{"action": "press",
        "keys": "ctrl+s"}`` or ``{"action": "wait", "ms": 500}`` (50–5000).
        """
        if isinstance(actions, (str, bytes)) or not all(isinstance(a, Mapping) for a in actions):
            raise ValueError(
                'batch takes a list of dicts, e.g. [{"element_id": "e3", "action": "click"}]'
            )
        steps = json.dumps([dict(a) for a in actions])
        return [ActionResult.from_dict(r) for r in json.loads(self._native.batch(steps))]

    def screenshot(self, *, region: Optional[Mapping[str, int]] = None) -> bytes:
        """PNG bytes of the screen, or of ``region`` (``{"x", "y", "w", "h"}``
        in screen pixels). Native: no extra package needed."""
        if region is None:
            return self._native.screenshot(None)
        missing = [k for k in ("x", "y", "w", "h") if k not in region]
        if missing:
            raise ValueError(
                f"region needs x, y, w and h (missing {', '.join(missing)}), e.g. "
                '{"x": 0, "y": 0, "w": 100, "h": 100}'
            )
        return self._native.screenshot(
            (int(region["x"]), int(region["y"]), int(region["w"]), int(region["h"]))
        )

    def page(
        self,
        element_id: str,
        *,
        direction: Optional[str] = None,
        offset: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> str:
        """More items of a container whose snapshot line says ``more items``:
        the next page in ``direction``, or from ``offset``."""
        return self._native.page(element_id, direction, offset, limit)

    # -- Gen-1 names (the SDK before its 2026-02 rename) -------------------

    def capture(self, **kwargs: Any) -> Union[str, Dict[str, Any]]:
        """Gen-1 name of :meth:`snapshot` (``detail="standard"`` works)."""
        return self.snapshot(**kwargs)

    def execute(self, element_id: str, action: str, **params: Any) -> ActionResult:
        """Gen-1 name of :meth:`action`."""
        return self.action(element_id, action, **params)

    def press_keys(self, combo: str) -> ActionResult:
        """Gen-1 name of :meth:`press`."""
        return self.press(combo)

    def launch_app(self, name: str) -> ActionResult:
        """Gen-1 name of :meth:`open_app`."""
        return self.open_app(name)

    def find_elements(self, **kwargs: Any) -> List[Dict[str, Any]]:
        """Gen-1 name of :meth:`find`."""
        return self.find(**kwargs)

    def batch_execute(self, actions: Sequence[Mapping[str, Any]]) -> List[ActionResult]:
        """Gen-1 name of :meth:`batch` (``press_keys`` steps work)."""
        return self.batch(actions)

    def __repr__(self) -> str:
        return f"Session(platform={self.platform_name!r})"
