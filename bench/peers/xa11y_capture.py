#!/usr/bin/env python3
"""Times xa11y (0.15.4, PyPI) reading the whole foreground window, in process.

Run with the venv that bench/peers/setup.sh creates
(target/bench-peers/xa11y-venv) on the desktop of the current environment
(DISPLAY, DBUS_SESSION_BUS_ADDRESS with the AT-SPI bus, ...):

    target/bench-peers/xa11y-venv/bin/python bench/peers/xa11y_capture.py \
        --read tree --runs 9

How xa11y reads (Linux, AT-SPI over zbus): an `Element` is a snapshot made
when it is built: role (GetRoleName, GetRole), interfaces, name,
description, value, states, extents and actions are all read then, with
the children of one parent built in parallel (rayon). Navigation is lazy:
`children()` asks for the children and builds them. So every way of reading
a window reads every node's full data; they differ in what they give back
and in how the reads are scheduled:

  tree  `window.tree()`: the one-call dump. The walk is in Rust (a
        `children()` per node, depth first); it returns a nested dict of
        role, name, value and children (states and bounds are read but
        dropped).
  walk  `window.children()` recursively from Python, reading role, name,
        value, description, the 12 state flags, bounds and actions of every
        node into a nested dict: the same content as a CUP node.
  flat  `app.locator("*").elements()`: one native search over the app's
        whole tree (a walk of GetChildren, then every element built in
        parallel), returning a flat list with the same per-node data (no
        parent links). It covers the app, i.e. the foreground window when
        the app has one window (the script says how many it has).

Every timed run includes finding the window: `xa11y.App.foreground()` (the
app owning the window whose AT-SPI state is ACTIVE), then the entry of
`app.windows()` reporting `active` (the first window if none does).

One xa11y import (not timed), 1 warm-up read, then N timed reads. Prints
one JSON object on stdout:

    {"times_ms": [...], "nodes_per_run": [...], "warmup_nodes": n,
     "init_ms": <import time>, "text": "<the last read as JSON>",
     "rendered": <nodes that are VISIBLE or SHOWING with every ancestor>,
     "windows": <windows of the app>, "package": "xa11y 0.15.4",
     "call": "...", "notes": [...]}

With --cold (a fresh process): no warm-up; `import xa11y` and the first
read are timed together with time.perf_counter (times_ms has that one
figure; import_ms and first_snapshot_ms its parts).

`rendered` is the count cup compares with: cup leaves out a node that is
neither VISIBLE nor SHOWING, with its subtree (xa11y's `visible` is exactly
VISIBLE or SHOWING); for `flat` there are no parent links, so it is the
number of visible elements.
"""

import argparse
import json
import sys
import time

STATES = (
    "enabled",
    "visible",
    "focused",
    "active",
    "selected",
    "editable",
    "focusable",
    "modal",
    "required",
    "busy",
)

CALLS = {
    "tree": "App.foreground() + active window + window.tree() (one call, Rust walk)",
    "walk": "App.foreground() + active window + children() walk in Python, "
    "role/name/value/description/states/bounds/actions per node",
    "flat": 'App.foreground() + app.locator("*").elements() (one native search, '
    "flat list) + role/name/value/description/states/bounds/actions per element",
}


def node_data(e):
    """The data of one element, as a CUP node carries it."""
    states = [s for s in STATES if getattr(e, s)]
    checked = e.checked
    if checked is not None:
        states.append(f"checked={checked}")
    expanded = e.expanded
    if expanded is not None:
        states.append("expanded" if expanded else "collapsed")
    b = e.bounds
    return {
        "role": e.role,
        "name": e.name,
        "value": e.value,
        "description": e.description,
        "states": states,
        "bounds": None if b is None else [b.x, b.y, b.width, b.height],
        "actions": e.actions,
    }


def walk(e):
    node = node_data(e)
    node["children"] = [walk(c) for c in e.children()]
    return node


def count_tree(node, keep=lambda child: True):
    """Nodes of the tree, children entered only where `keep` says so."""
    total = 0
    stack = [node]
    while stack:
        n = stack.pop()
        total += 1
        stack.extend(c for c in n["children"] if keep(c))
    return total


def count_rendered(node):
    """Nodes that are visible with every ancestor (the window always counts)."""
    return count_tree(node, lambda c: "visible" in c["states"])


def foreground(xa11y, notes):
    """The foreground app and its active window."""
    try:
        app = xa11y.App.foreground(timeout=5.0)
    except xa11y.XA11yError as e:
        raise SystemExit(f"xa11y found no foreground app: {e}")
    windows = app.windows()
    if not windows:
        raise SystemExit(f"the foreground app {app.name!r} has no window")
    active = [w for w in windows if w.active]
    if not active:
        notes.add("no window reports active: the app's first window was read")
    return app, (active or windows)[0], len(windows)


def read(xa11y, how, notes):
    """One whole read; returns (result, nodes, rendered, windows)."""
    app, window, windows = foreground(xa11y, notes)
    if how == "tree":
        tree = window.tree()
        return tree, count_tree(tree), None, windows
    if how == "walk":
        tree = walk(window)
        return tree, count_tree(tree), count_rendered(tree), windows
    elements = [node_data(e) for e in app.locator("*").elements()]
    rendered = sum(1 for n in elements if "visible" in n["states"])
    return elements, len(elements), rendered, windows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--read", default="tree", choices=sorted(CALLS))
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument(
        "--cold",
        action="store_true",
        help="fresh-process mode: time import + the first read, then exit",
    )
    args = parser.parse_args()
    notes = set()

    started = time.perf_counter()
    import xa11y  # noqa: PLC0415  (import time counts into init_ms)

    imported = time.perf_counter()
    init_ms = (imported - started) * 1e3
    from importlib.metadata import version  # noqa: PLC0415

    package = f"xa11y {version('xa11y')}"

    if args.cold:
        result, nodes, rendered, windows = read(xa11y, args.read, notes)
        done = time.perf_counter()
        out = {
            "times_ms": [(done - started) * 1e3],
            "nodes_per_run": [nodes],
            "init_ms": init_ms,
            "import_ms": init_ms,
            "session_ms": 0.0,
            "first_snapshot_ms": (done - imported) * 1e3,
        }
    else:
        result, warmup_nodes, rendered, windows = read(xa11y, args.read, notes)
        times, nodes_per_run = [], []
        for _ in range(max(1, args.runs)):
            t = time.perf_counter()
            result, nodes, rendered, windows = read(xa11y, args.read, notes)
            times.append((time.perf_counter() - t) * 1e3)
            nodes_per_run.append(nodes)
        out = {
            "times_ms": times,
            "nodes": nodes_per_run[-1],
            "nodes_per_run": nodes_per_run,
            "warmup_nodes": warmup_nodes,
            "init_ms": init_ms,
        }
    if args.read == "flat" and windows != 1:
        notes.add(f"the app has {windows} windows: the flat read covers all of them")
    out.update(
        {
            "text": json.dumps(result),
            "rendered": rendered,
            "windows": windows,
            "package": package,
            "call": CALLS[args.read],
            "notes": sorted(notes),
        }
    )
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
