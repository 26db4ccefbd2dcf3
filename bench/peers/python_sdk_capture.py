#!/usr/bin/env python3
"""Times a Python package with the CUP SDK's API (`import cup`) in process.

Two packages have that API: the reference Python CUP SDK
(computeruseprotocol==0.1.0) and cup's own Python package (cup-rs, PyO3).
Run with the venv that bench/peers/setup.sh creates for either (the SDK's:
Debian's python with --system-site-packages, so `gi` and the Atspi typelib
are found; cup-rs's: a plain venv), on the desktop of the current
environment (DISPLAY, DBUS_SESSION_BUS_ADDRESS, ...), or with --platform web
on the browser of CUP_CDP_HOST/CUP_CDP_PORT:

    target/bench-peers/venv/bin/python bench/peers/python_sdk_capture.py \
        --scope foreground --runs 7

One `cup.Session()` is created (not timed), then 1 warm-up snapshot and N
timed `session.snapshot(scope=..., compact=True, detail="compact")` calls
(capture, pruning, compact text). With --envelope, the calls are
`session.snapshot(scope=..., compact=False)` instead: the CUP envelope dict
with the whole tree, unpruned. Prints one JSON object on stdout:

    {"times_ms": [...], "text": "<compact text (or envelope JSON) of the last run>",
     "nodes": <raw node count of the last run, or null>,
     "nodes_per_run": [...], "warmup_nodes": <count>,
     "init_ms": <import + Session() time>, "package": "<distribution version>",
     "call": "<the timed call>"}

With --cold (a fresh process, for the import + first-snapshot time): no
warm-up; `import cup`, `cup.Session()` and the first snapshot are timed
together with time.perf_counter, and

    {"times_ms": [<import + Session() + first snapshot>],
     "import_ms": ..., "session_ms": ..., "first_snapshot_ms": ...,
     "init_ms": <import + Session()>, "nodes_per_run": [...], ...}

is printed.

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


def node_count(session, scope, result):
    if isinstance(result, dict):
        if scope == "overview":
            return len(result.get("windows") or [])
        return count_nodes(result.get("tree"))
    text = result
    if scope == "overview":
        match = re.search(r"^# overview \| (\d+) windows?", text, re.MULTILINE)
        return int(match.group(1)) if match else None
    # The raw (unpruned) tree the reference SDK's session keeps for `find`.
    raw = getattr(session, "_last_raw_tree", None)
    if isinstance(raw, list):
        return count_nodes(raw)
    match = re.search(r"\((\d+) before pruning\)", text)
    return int(match.group(1)) if match else None


def package_version():
    """Which distribution provides `cup` here, with its version."""
    from importlib import metadata  # noqa: PLC0415

    for dist in ("cup-rs", "computeruseprotocol"):
        try:
            return f"{dist} {metadata.version(dist)}"
        except metadata.PackageNotFoundError:
            continue
    return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scope", default="foreground", choices=["foreground", "overview"])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--platform",
        default=None,
        help="web: the browser of CUP_CDP_HOST/CUP_CDP_PORT (the SDK's web adapter)",
    )
    parser.add_argument(
        "--envelope",
        action="store_true",
        help="time snapshot(compact=False): the envelope dict, whole tree, unpruned",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="fresh-process mode: time import + Session() + the first snapshot, then exit",
    )
    args = parser.parse_args()

    if args.envelope:
        call = f'snapshot(scope="{args.scope}", compact=False)'
    else:
        call = f'snapshot(scope="{args.scope}", compact=True, detail="compact")'

    started = time.perf_counter()
    import cup  # noqa: PLC0415  (import time counts into init_ms)

    imported = time.perf_counter()
    session = cup.Session(platform=args.platform) if args.platform else cup.Session()
    init_done = time.perf_counter()
    init_ms = (init_done - started) * 1e3

    def once():
        if args.envelope:
            return session.snapshot(scope=args.scope, compact=False)
        return session.snapshot(scope=args.scope, compact=True, detail="compact")

    def as_text(result):
        return json.dumps(result) if isinstance(result, dict) else result

    if args.cold:
        result = once()
        done = time.perf_counter()
        out = {
            "times_ms": [(done - started) * 1e3],
            "text": as_text(result),
            "nodes_per_run": [node_count(session, args.scope, result)],
            "init_ms": init_ms,
            "import_ms": (imported - started) * 1e3,
            "session_ms": (init_done - imported) * 1e3,
            "first_snapshot_ms": (done - init_done) * 1e3,
            "package": package_version(),
            "call": call,
        }
    else:
        warmup = once()
        warmup_nodes = node_count(session, args.scope, warmup)
        times, nodes_per_run, result = [], [], ""
        for _ in range(max(1, args.runs)):
            t = time.perf_counter()
            result = once()
            times.append((time.perf_counter() - t) * 1e3)
            nodes_per_run.append(node_count(session, args.scope, result))
        out = {
            "times_ms": times,
            "text": as_text(result),
            "nodes": nodes_per_run[-1] if nodes_per_run else None,
            "nodes_per_run": nodes_per_run,
            "warmup_nodes": warmup_nodes,
            "init_ms": init_ms,
            "package": package_version(),
            "call": call,
        }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
