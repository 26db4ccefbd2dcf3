"""Which platform a session acts on."""

from __future__ import annotations

import sys
from typing import Optional

from cup._adapter import PlatformAdapter

__all__ = ["detect_platform", "get_adapter", "PlatformAdapter"]


def detect_platform() -> str:
    """This machine's platform: ``windows``, ``macos`` or ``linux``."""
    if sys.platform == "win32":
        return "windows"
    if sys.platform == "darwin":
        return "macos"
    if sys.platform.startswith("linux"):
        return "linux"
    raise RuntimeError(
        f"No adapter available for {sys.platform!r}; cup reads Windows, macOS and Linux desktops, or a browser with platform='web'"
    )


def get_adapter(platform: Optional[str] = None) -> PlatformAdapter:
    """A new adapter for ``platform`` (default: this machine's desktop).

    Raises ``RuntimeError`` ("No adapter available ...") for a platform this
    machine cannot read.
    """
    return PlatformAdapter(platform)

