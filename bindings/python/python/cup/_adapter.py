"""The platform adapter object of the reference API (``get_adapter``): the
screen and the window list of a platform, over the same native session a
:class:`cup.Session` uses."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

from cup import _native

__all__ = ["PlatformAdapter"]


class PlatformAdapter:
    """This machine's desktop (``platform`` None, ``"desktop"`` or the OS
    name) or a browser (``"web"``, CDP at ``cdp_url`` / ``cdp_host`` /
    ``cdp_port``, else ``$CUP_CDP_URL`` / ``$CUP_CDP_HOST`` /
    ``$CUP_CDP_PORT``). Nothing connects before the first read."""

    def __init__(
        self,
        platform: Optional[str] = None,
        *,
        cdp_url: Optional[str] = None,
        cdp_host: Optional[str] = None,
        cdp_port: Optional[int] = None,
        serial: Optional[str] = None,
        wda_url: Optional[str] = None,
    ) -> None:
        self._native = _native.Session(
            platform, cdp_url, cdp_host, cdp_port, serial, wda_url
        )

    @property
    def platform_name(self) -> str:
        """``linux``, ``windows``, ``macos``, ``web``, ``android`` or ``ios``."""
        return self._native.platform_name

    def initialize(self) -> None:
        """Nothing to do: connections are made on first use."""

    def get_screen_info(self) -> Tuple[int, int, float]:
        """Screen width, height (pixels) and scale factor."""
        return self._native.screen_info()

    def get_window_list(self) -> List[Dict[str, Any]]:
        """Every top-level window: title, pid, foreground, bounds (web: url)."""
        return json.loads(self._native.windows())

    def get_all_windows(self) -> List[Dict[str, Any]]:
        """Same as :meth:`get_window_list`."""
        return self.get_window_list()

    def get_foreground_window(self) -> Dict[str, Any]:
        """The foreground window; ``RuntimeError`` when there is none."""
        for w in self.get_window_list():
            if w.get("foreground"):
                return w
        raise _native.CupError("no foreground window; open or focus a window first")

    def __repr__(self) -> str:
        return f"PlatformAdapter(platform={self.platform_name!r})"
