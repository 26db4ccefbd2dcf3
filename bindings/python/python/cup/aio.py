"""asyncio flavour: ``cup.aio.Session`` has the methods of
:class:`cup.Session` as coroutines. Each call runs in a worker thread with
the GIL released while cup works, so the event loop keeps running; calls
on one session run one after the other."""

from __future__ import annotations

import asyncio
import functools
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, TypeVar, Union

from cup._session import Scope
from cup._session import Session as _SyncSession
from cup.actions.executor import ActionResult
from cup.format import Detail

__all__ = ["Session"]

T = TypeVar("T")


class Session:
    """An asyncio CUP session; arguments as :class:`cup.Session`."""

    def __init__(
        self,
        *,
        platform: Optional[str] = None,
        cdp_url: Optional[str] = None,
        cdp_host: Optional[str] = None,
        cdp_port: Optional[int] = None,
    ) -> None:
        self.sync = _SyncSession(
            platform=platform, cdp_url=cdp_url, cdp_host=cdp_host, cdp_port=cdp_port
        )

    @property
    def platform_name(self) -> str:
        """``linux``, ``windows``, ``macos`` or ``web``."""
        return self.sync.platform_name

    async def close(self) -> None:
        """See :meth:`cup.Session.close`."""
        await self._run(self.sync.close)

    async def __aenter__(self) -> "Session":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(fn, *args, **kwargs))

    async def snapshot(
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
        """See :meth:`cup.Session.snapshot`."""
        return await self._run(
            self.sync.snapshot,
            scope=scope,
            app=app,
            max_depth=max_depth,
            compact=compact,
            detail=detail,
            max_chars=max_chars,
            max_nodes=max_nodes,
            timeout_ms=timeout_ms,
            since=since,
            bounds=bounds,
            max_tokens=max_tokens,
            ocr=ocr,
        )

    async def action(self, element_id: str, action: str, **params: Any) -> ActionResult:
        """See :meth:`cup.Session.action`."""
        return await self._run(self.sync.action, element_id, action, **params)

    async def press(self, combo: str) -> ActionResult:
        """See :meth:`cup.Session.press`."""
        return await self._run(self.sync.press, combo)

    async def open_app(self, name: str) -> ActionResult:
        """See :meth:`cup.Session.open_app`."""
        return await self._run(self.sync.open_app, name)

    async def wait(
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
        """See :meth:`cup.Session.wait`."""
        return await self._run(
            self.sync.wait,
            until=until,
            query=query,
            role=role,
            name=name,
            state=state,
            timeout_ms=timeout_ms,
            ms=ms,
        )

    async def find(
        self,
        *,
        query: Optional[str] = None,
        role: Optional[str] = None,
        name: Optional[str] = None,
        state: Optional[str] = None,
        limit: int = 5,
    ) -> List[Dict[str, Any]]:
        """See :meth:`cup.Session.find`."""
        return await self._run(
            self.sync.find, query=query, role=role, name=name, state=state, limit=limit
        )

    async def batch(self, actions: Sequence[Mapping[str, Any]]) -> List[ActionResult]:
        """See :meth:`cup.Session.batch`."""
        return await self._run(self.sync.batch, actions)

    async def screenshot(self, *, region: Optional[Mapping[str, int]] = None) -> bytes:
        """See :meth:`cup.Session.screenshot`."""
        return await self._run(self.sync.screenshot, region=region)

    async def page(
        self,
        element_id: str,
        *,
        direction: Optional[str] = None,
        offset: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> str:
        """See :meth:`cup.Session.page`."""
        return await self._run(
            self.sync.page, element_id, direction=direction, offset=offset, limit=limit
        )

    def __repr__(self) -> str:
        return f"cup.aio.Session(platform={self.platform_name!r})"
