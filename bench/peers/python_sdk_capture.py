#!/usr/bin/env python3
"""Times the reference Python CUP SDK (computeruseprotocol==0.1.0) in process.

Run with the venv that bench/peers/setup.sh creates (Debian's python with
--system-site-packages, so `gi` and the Atspi typelib are found), on the
desktop of the current environment (DISPLAY, DBUS_SESSION_BUS_ADDRESS, ...),
or with --platform web on the browser of CUP_CDP_HOST/CUP_CDP_PORT:

    target/bench-peers/venv/bin/python bench/peers/python_sdk_capture.py \
        --scope foreground --runs 7

One `cup.Session()` is created (not timed), then 1 warm-up snapshot and N
timed `session.snapshot(scope=..., compact=True, detail="compact")` calls.
Prints one JSON object on stdout:

    {"times_ms": [...], "text": "<compact text of the last run>",
     "nodes": <raw node count of the last run, or null>,
     "nodes_per_run": [...], "init_ms": <Session() time>}

`nodes` is the number of nodes in the envelope before pruning (what the
compact header calls "before pruning"); for the overview scope it is the
number of windows listed.
"""

import argparse
import json
import re
import sys
import time


def count_nodes(tree):
    total = 0
    stack = list(tree or [])
    while stack:
        node = stack.pop()
        total += 1
        stack.extend(node.get("children") or [])
    return total


def node_count(session, scope, text):
    if scope == "overview":
        match = re.search(r"^# overview \| (\d+) windows?", text, re.MULTILINE)
        return int(match.group(1)) if match else None
    # The raw (unpruned) tree the session keeps for `find`.
    raw = getattr(session, "_last_raw_tree", None)
    if raw is not None:
        return count_nodes(raw)
    match = re.search(r"\((\d+) before pruning\)", text)
    return int(match.group(1)) if match else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scope", default="foreground", choices=["foreground", "overview"])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--platform",
        default=None,
        help="web: the browser of CUP_CDP_HOST/CUP_CDP_PORT (the SDK's web adapter)",
    )
    args = parser.parse_args()

    started = time.perf_counter()
    import cup  # noqa: PLC0415  (import time counts into init_ms)

    session = cup.Session(platform=args.platform) if args.platform else cup.Session()
    init_ms = (time.perf_counter() - started) * 1e3

    def once():
        return session.snapshot(scope=args.scope, compact=True, detail="compact")

    once()  # warm-up
    times, nodes_per_run, text = [], [], ""
    for _ in range(max(1, args.runs)):
        t = time.perf_counter()
        text = once()
        times.append((time.perf_counter() - t) * 1e3)
        nodes_per_run.append(node_count(session, args.scope, text))

    json.dump(
        {
            "times_ms": times,
            "text": text,
            "nodes": nodes_per_run[-1] if nodes_per_run else None,
            "nodes_per_run": nodes_per_run,
            "init_ms": init_ms,
        },
        sys.stdout,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
