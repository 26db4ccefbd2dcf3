#!/usr/bin/env python3
"""Which tier runs each test target of the workspace.

The fast tier (scripts/test-fast.sh) runs every crate's unit tests
(`--lib --bins`), the doc tests and the integration tests listed under
FAST: no desktop, no browser, no Wine, no adb. The live tier
(scripts/test-live.sh) runs those listed under LIVE. `check` fails when
an integration test target of the workspace is in neither list (or in
both), so a new test file cannot fall out of the README's test command.

    scripts/tiers.py fast|live   print the cargo arguments of a tier
    scripts/tiers.py check       every test target has one tier
"""

import json
import subprocess
import sys

# (package, test target): fixture, scripted and pure tests.
FAST = [
    ("cup-protocol", "protocol"),  # compact text, schema, reference vectors
    ("cup", "session"),  # the Session over a scripted adapter
]

# (package, test target, what it needs): real components.
LIVE = [
    ("cup-linux", "desktop", "private X11/Wayland desktops, AT-SPI, the apps"),
    ("cup-web", "web", "headless Chromium"),
    ("cup-cli", "cli", "the cup binary, desktops, compositors, an MCP client"),
    ("cup-sandbox", "sandbox", "Xvfb, D-Bus, FUSE, network namespaces"),
    ("cup-windows", "wine", "cup.exe under Wine"),
    ("cup-android", "transport", "Debian's adb server"),
    ("cup-ios", "ocr", "Tesseract (a WebDriverAgent of the test's own)"),
    ("cup-ocr", "ocr", "Tesseract, Xvfb, a Tk window"),
]


def targets():
    out = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1", "--locked"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found = set()
    for package in json.loads(out)["packages"]:
        for target in package["targets"]:
            if "test" in target["kind"]:
                found.add((package["name"], target["name"]))
    return found


def args(tier):
    pairs = FAST if tier == "fast" else [(p, t) for p, t, _ in LIVE]
    out = []
    for package, target in pairs:
        out += ["-p", package, "--test", target]
    return out


def check():
    fast = set(FAST)
    live = {(p, t) for p, t, _ in LIVE}
    errors = []
    for both in sorted(fast & live):
        errors.append(f"{both[0]} --test {both[1]} is in both tiers")
    for missing in sorted(targets() - fast - live):
        errors.append(
            f"{missing[0]} --test {missing[1]} is in no tier: add it to FAST or LIVE in scripts/tiers.py"
        )
    for gone in sorted((fast | live) - targets()):
        errors.append(f"{gone[0]} --test {gone[1]} is listed in scripts/tiers.py but no longer exists")
    for e in errors:
        print(f"scripts/tiers.py: {e}", file=sys.stderr)
    return 1 if errors else 0


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("fast", "live", "check"):
        print("usage: scripts/tiers.py fast|live|check", file=sys.stderr)
        return 2
    if sys.argv[1] == "check":
        return check()
    print(" ".join(args(sys.argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
