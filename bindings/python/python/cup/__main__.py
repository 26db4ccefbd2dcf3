"""``python -m cup ARGS``: runs the ``cup`` command installed with this
package (``python -m cup mcp`` is its MCP server)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from typing import List, Optional


def executable() -> str:
    """The ``cup`` binary of this package's installation."""
    name = "cup.exe" if sys.platform == "win32" else "cup"
    for scripts in (sysconfig.get_path("scripts"), sysconfig.get_path("scripts", f"{os.name}_user")):
        if scripts:
            path = os.path.join(scripts, name)
            if os.path.isfile(path):
                return path
    found = shutil.which(name)
    if found:
        return found
    raise SystemExit(
        "cup: the cup executable is not installed beside this Python; reinstall the package (pip install --force-reinstall cup-rs)"
    )


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    exe = executable()
    if sys.platform == "win32":
        return subprocess.call([exe, *args])
    os.execv(exe, [exe, *args])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
