#!/usr/bin/env python3
"""OSWorld's Linux accessibility-tree observation, timed on the current desktop.

Server half (osworld_server.py): OSWorld's `GET /accessibility` (main.py's
`get_accessibility_tree` / `_create_atspi_node`), re-implemented on pyatspi:
the whole AT-SPI desktop as XML. Agent half (osworld_agent.py): OSWorld's
own `linearize_accessibility_tree` (with `filter_nodes`) and
`trim_accessibility_tree` (10,000 cl100k tokens), imported from PyPI's
desktop-env 1.0.2 wheel. Run with the venv bench/peers/setup.sh makes
(Debian's python with --system-site-packages, for pyatspi):

    eval "$(cup sandbox start --state /tmp/osw.json)"
    cup sandbox run --state /tmp/osw.json -- gtk3-widget-factory
    target/bench-peers/osworld/venv/bin/python bench/peers/osworld/observe.py \\
        --app "Widget Factory" --runs 5 --dump /tmp/osworld-table.txt

--app TITLE: waits (up to --wait seconds, untimed) until an application
whose accessible name, or one of whose top-level windows' names, contains
TITLE (case-insensitive, dashes and underscores read as spaces: "Widget
Factory" finds gtk3-widget-factory, whose frame has no name) is on the bus.
The walk is then of the whole desktop, as OSWorld's is; with --only-app, of
just the matching application(s) (under the same desktop-frame root).

Prints one JSON object per run (after --warmup untimed runs):

  ms              the server half: walk + XML serialisation (the "AT" string),
                  without the LibreOffice version probe
  probe_ms        main.py's `libreoffice --version` probe, which it runs on
                  every /accessibility call (null with --no-probe)
  linearize_ms    the agent half: linearize_accessibility_tree + trim_accessibility_tree
  rows            rows of the linearised table (nodes filter_nodes kept)
  tokens_o200k    o200k_base tokens of the whole table (untrimmed)
  tokens_cl100k   cl100k_base tokens of the whole table (what OSWorld's trim counts)
  fits_10000      tokens_cl100k <= 10000 (OSWorld's trim leaves it whole)
  usable          rows with a non-empty name and a position and size
  usable_acting   the same, whose element a person can use: a control,
                  editable, or a selectable item (cup counts those)
  rows_kept, usable_kept   the same, counting only rows whole after the trim
  tokens_o200k_trimmed, tokens_cl100k_trimmed   tokens of the trimmed text
                  (what the prompt gets, "[...]\\n" included)
  xml_chars, xml_nodes, table_chars, apps, scope

--dump FILE writes the last run's trimmed table (the prompt text);
--dump-full FILE the untrimmed one; --dump-xml FILE the XML.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
MAX_TOKENS = 10000  # PromptAgent's a11y_tree_max_tokens default (OSWorld's run.py keeps it)


def default_wheel_dir() -> Path:
    peers = os.environ.get("CUP_BENCH_PEERS") or str(ROOT / "target" / "bench-peers")
    return Path(peers) / "osworld" / "desktop_env-1.0.2"


def row_spans(table: str, nodes) -> list:
    """(start, end) of each row in the table text. A row can span several
    lines (a node's text may hold newlines), so rows are found by their
    leading `tag<TAB>name<TAB>`, in order, each after a newline."""
    spans = []
    cursor = table.find("\n")  # end of the header
    starts = []
    for node in nodes:
        prefix = "\n%s\t%s\t" % (node.tag, node.get("name", ""))
        at = table.find(prefix, cursor)
        if at < 0:
            break
        starts.append(at + 1)
        cursor = at + len(prefix)
    for index, start in enumerate(starts):
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(table)
        spans.append((start, end))
    return spans


def is_usable(node, component_ns: str) -> bool:
    position = node.get("{%s}screencoord" % component_ns, "")
    size = node.get("{%s}size" % component_ns, "")
    return bool(node.get("name", "")) and bool(position) and bool(size)


# Roles of the controls a person operates (pyatspi's role names, as the
# table's tag column prints them).
CONTROLS = {
    "push-button", "toggle-button", "check-box", "radio-button", "menu",
    "menu-item", "check-menu-item", "radio-menu-item", "link", "combo-box",
    "spin-button", "slider", "page-tab", "scroll-bar", "tree-item",
    "autocomplete", "push-button-menu",
}
# Items a person selects, when they say they are selectable.
ITEMS = {"list-item", "table-cell", "tree-table-cell", "icon", "table-row"}


def can_be_used(node, state_ns: str) -> bool:
    """Whether a person can use the row's element: a control, anything
    editable, or an item that is selectable. Not labels, text, headings,
    panels: what cup's count leaves out too (a node with an action). Not
    by AT-SPI actions: Chromium names two on every node, static text and
    panels included."""

    def state(name: str) -> bool:
        return node.get("{%s}%s" % (state_ns, name), "") == "true"

    if node.tag in CONTROLS or state("editable"):
        return True
    return node.tag in ITEMS and state("selectable")


def wait_for_window(title: str, seconds: float):
    import pyatspi  # noqa: PLC0415

    from osworld_server import application_nodes  # noqa: PLC0415

    deadline = time.monotonic() + seconds
    while True:
        try:
            apps = application_nodes(pyatspi.Registry.getDesktop(0), title)
            if apps:
                return apps[0]
        except Exception:
            pass
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", required=True, help="substring of the app's window title")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=0, help="untimed runs first (default 0)")
    parser.add_argument("--only-app", action="store_true",
                        help="walk only the application(s) with a matching window, not the whole desktop")
    parser.add_argument("--no-probe", action="store_true",
                        help="skip the per-call `libreoffice --version` probe (probed once, untimed)")
    parser.add_argument("--wait", type=float, default=20.0, help="seconds to wait for the window")
    parser.add_argument("--dump", help="write the last run's trimmed table (the prompt text)")
    parser.add_argument("--dump-full", help="write the last run's untrimmed table")
    parser.add_argument("--dump-xml", help="write the last run's XML")
    parser.add_argument("--wheel-dir", type=Path, default=None,
                        help="unpacked desktop-env 1.0.2 wheel (default: target/bench-peers/osworld/desktop_env-1.0.2)")
    args = parser.parse_args()

    sys.path.insert(0, str(HERE))
    try:
        import osworld_server  # noqa: PLC0415
    except ImportError as error:
        print(f"observe: {error}: run with target/bench-peers/osworld/venv/bin/python "
              "(bench/peers/setup.sh makes it)", file=sys.stderr)
        return 2
    import osworld_agent  # noqa: PLC0415

    agent = osworld_agent.load(args.wheel_dir or default_wheel_dir())
    component_ns = osworld_server.NS["cp"]

    if wait_for_window(args.app, args.wait) is None:
        print(f"observe: no window whose title contains {args.app!r} on the AT-SPI bus "
              f"after {args.wait:g} s", file=sys.stderr)
        return 1

    import pyatspi  # noqa: PLC0415

    apps = None
    scope = "desktop"
    if args.only_app:
        scope = "app"
        apps = osworld_server.application_nodes(pyatspi.Registry.getDesktop(0), args.app)
    if args.no_probe:
        osworld_server._lo_version = osworld_server.libreoffice_version()

    last = None
    total = max(0, args.warmup) + max(1, args.runs)
    for run in range(total):
        probe_ms = None
        if not args.no_probe:
            t = time.perf_counter()
            osworld_server._lo_version = osworld_server.libreoffice_version()
            probe_ms = (time.perf_counter() - t) * 1e3
        t0 = time.perf_counter()
        try:
            xml = osworld_server.accessibility_tree(apps, probe_version=False)
        except Exception as error:  # the route would answer 500
            print(json.dumps({"run": run, "error": f"{type(error).__name__}: {error}"}), flush=True)
            continue
        t1 = time.perf_counter()
        table = agent.linearize_accessibility_tree(accessibility_tree=xml, platform="ubuntu")
        trimmed = agent.trim_accessibility_tree(table, MAX_TOKENS) if table else table
        t2 = time.perf_counter()
        if run < args.warmup:
            continue

        # Counting, untimed: the same filter linearize used, on a fresh parse.
        root = ET.fromstring(xml)
        nodes = agent.filter_nodes(root, "ubuntu")
        spans = row_spans(table, nodes)
        cut = len(table) if trimmed == table else len(trimmed) - len("[...]\n")
        kept = [n for n, (_, end) in zip(nodes, spans) if end <= cut]
        cl100k = len(agent.cl100k.encode(table, disallowed_special=()))
        result = {
            "run": run - args.warmup,
            "ms": round((t1 - t0) * 1e3, 3),
            "linearize_ms": round((t2 - t1) * 1e3, 3),
            "rows": len(nodes),
            "tokens_o200k": len(agent.o200k.encode(table, disallowed_special=())),
            "tokens_cl100k": cl100k,
            "fits_10000": cl100k <= MAX_TOKENS,
            "usable": sum(1 for n in nodes if is_usable(n, component_ns)),
            "usable_acting": sum(
                1
                for n in nodes
                if is_usable(n, component_ns)
                and can_be_used(n, osworld_server.NS["st"])
            ),
            "rows_kept": len(kept),
            "usable_kept": sum(1 for n in kept if is_usable(n, component_ns)),
            "tokens_o200k_trimmed": len(agent.o200k.encode(trimmed, disallowed_special=())),
            "tokens_cl100k_trimmed": len(agent.cl100k.encode(trimmed, disallowed_special=())),
            "probe_ms": None if probe_ms is None else round(probe_ms, 3),
            "xml_chars": len(xml),
            "xml_nodes": sum(1 for _ in root.iter()),
            "table_chars": len(table),
            "apps": len(root),
            "scope": scope,
        }
        if len(spans) != len(nodes):
            result["row_spans_found"] = len(spans)
        print(json.dumps(result), flush=True)
        last = (xml, table, trimmed)

    if last is not None:
        xml, table, trimmed = last
        for path, text in ((args.dump, trimmed), (args.dump_full, table), (args.dump_xml, xml)):
            if path:
                Path(path).write_text(text, encoding="utf-8")
    return 0 if last is not None else 1


if __name__ == "__main__":
    sys.exit(main())
