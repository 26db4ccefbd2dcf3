#!/usr/bin/env python3
"""Times Chromium's getFullAXTree (+ the layout snapshot, as cup reads a page
today) against walker.js run in an isolated world, and compares the two node
for node (joined on backendDOMNodeId).

    venv/bin/python measure.py                 # every page, 7 timed runs
    venv/bin/python measure.py --runs 9 bench-huge.html
    venv/bin/python measure.py --no-compare --runs 15 bench-large.html bench-huge.html
    venv/bin/python measure.py --diffs out.txt  # every difference into a file

How walker nodes get their backendDOMNodeId: the walker keeps its node
handles in its isolated world (globalThis.__cupWalker.nodes, index = output
index). The script takes that array by reference (Runtime.evaluate in the
world's context), lists its elements' object ids with one
Runtime.getProperties, and asks DOM.describeNode for each, all pipelined.
This is exact (no reliance on traversal order; shadow roots, slots and the
whitespace text nodes DOM.getDocument leaves out are all covered) and is not
part of the timed walk.
"""

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections import Counter, defaultdict

from cdp import Browser, Server, CdpError, cpu_busy, wait_quiet, chromium_pids, cpu_ns

HERE = os.path.dirname(os.path.abspath(__file__))
PAGES = os.path.join(HERE, "pages")
WALKER = open(os.path.join(HERE, "walker.js")).read().strip()
if WALKER.endswith(";"):
    WALKER = WALKER[:-1]

STYLES = ["overflow-x", "overflow-y"]  # cup's Layout::STYLES

# Walker flag bits (keep in sync with walker.js).
FLAGS = {
    "focusable": 1, "focused": 2, "disabled": 4, "readonly": 8, "required": 16,
    "editable": 32, "richtext": 64, "checked": 128, "mixed": 256, "checkable": 512,
    "selected": 1024, "selectable": 2048, "expanded": 4096, "collapsed": 8192,
    "pressed": 16384, "pressed_mixed": 32768, "toggle": 65536, "busy": 131072,
    "modal": 262144, "multiselectable": 524288, "multiline": 1048576,
    "invalid": 2097152, "frame": 4194304, "pseudo": 8388608, "nobox": 16777216,
}
COMPARED_STATES = ["checked", "mixed", "selected", "expanded", "collapsed", "disabled", "readonly",
                   "required", "focused", "pressed", "busy", "modal", "multiselectable", "editable",
                   "focusable"]

# ---------------------------------------------------------------------------
# cup's role mapping (crates/cup-web/src/mapping/role.rs), ported to compare
# the roles cup would show.
SKIP = {"InlineTextBox", "LineBreak", "ListMarker", "none", "presentation", "Ignored", "IgnoredRole",
        "IframePresentational"}
GENERIC = set("GenericContainer generic Div Span paragraph Paragraph Pre Mark mark Abbr Ruby RubyAnnotation Time time "
              "Subscript subscript Superscript superscript LabelText Legend Video Audio Iframe code Code emphasis strong "
              "deletion insertion comment caption Caption Figcaption EmbeddedObject PluginObject Unknown".split())
GROUP = set("blockquote Blockquote DescriptionListDetail Details details figure Figure article definition note "
            "radiogroup rowgroup group Fieldset graphics-object Pane Date DateTime InputTime".split())
IMG = set("Canvas image img SvgRoot graphics-document graphics-symbol math MathMLMath doc-cover".split())
FIXED = {"RootWebArea": "document", "WebArea": "document", "StaticText": "text", "DescriptionList": "list",
         "listbox": "list", "feed": "list", "directory": "list", "MenuListPopup": "menu",
         "DescriptionListTerm": "listitem", "term": "listitem", "MenuListOption": "option",
         "ListBoxOption": "option", "DisclosureTriangle": "button", "Summary": "button",
         "ToggleButton": "button", "PopUpButton": "combobox", "ComboBoxGrouping": "combobox",
         "ComboBoxMenuButton": "combobox", "ComboBoxSelect": "combobox", "TextFieldWithComboBox": "combobox",
         "meter": "progressbar", "Meter": "progressbar", "ProgressIndicator": "progressbar", "Output": "status",
         "output": "status", "gridcell": "cell", "GridCell": "cell", "treegrid": "grid", "LayoutTable": "table",
         "LayoutTableRow": "row", "LayoutTableCell": "cell", "ColorWell": "generic"}
CUP_ROLES = set("alert alertdialog application banner button cell checkbox columnheader combobox complementary "
                "contentinfo dialog document form generic grid group heading img link list listitem log main "
                "marquee math menu menubar menuitem menuitemcheckbox menuitemradio navigation none option "
                "progressbar radio region row rowheader scrollbar search searchbox separator slider spinbutton "
                "status switch tab table tablist tabpanel text textbox timer toolbar tooltip tree treeitem "
                "window titlebar".split())


def cup_role(role, named):
    if role in SKIP:
        return None
    if role in ("Section", "section", "SectionWithoutName", "region"):
        return "region" if named else "generic"
    if role in GENERIC:
        return "generic"
    if role in GROUP:
        return "group"
    if role in IMG:
        return "img"
    if role in FIXED:
        return FIXED[role]
    low = role.lower()
    return low if low in CUP_ROLES else "generic"


# ---------------------------------------------------------------------------
def norm_ws(s):
    return " ".join((s or "").replace("\u00a0", " ").split())


def chromium_states(props):
    out = set()
    c = props.get("checked")
    if c == "true":
        out.add("checked")
    elif c == "mixed":
        out.add("mixed")
    p = props.get("pressed")
    if p == "true":
        out.add("pressed")
    elif p == "mixed":
        out.add("mixed")
    if props.get("selected") is True:
        out.add("selected")
    e = props.get("expanded")
    if e is True:
        out.add("expanded")
    elif e is False:
        out.add("collapsed")
    for k in ("disabled", "readonly", "required", "focused", "modal", "multiselectable", "focusable"):
        if props.get(k) is True:
            out.add(k)
    if props.get("busy"):
        out.add("busy")
    if "editable" in props:
        out.add("editable")
    return out


def walker_states(f):
    out = set()
    for k in ("checked", "mixed", "selected", "expanded", "collapsed", "disabled", "readonly", "required",
              "focused", "pressed", "busy", "modal", "multiselectable", "editable", "focusable"):
        if f & FLAGS[k]:
            out.add(k)
    if f & FLAGS["pressed_mixed"]:
        out.add("mixed")
    return out


def values_equal(a, b):
    if a in (None, "") and b in (None, ""):
        return True
    try:
        fa, fb = float(a), float(b)
        return math.isclose(fa, fb, rel_tol=1e-6, abs_tol=1e-6)
    except (TypeError, ValueError):
        return str(a) == str(b)


# ---------------------------------------------------------------------------
def decode(w):
    """The walker's compact encoding back to plain columns (what a reader
    in cup would do): parent from depths, ids from deltas, sparse columns
    filled, bounds back to CSS px."""
    if w.get("encoding") != "compact":
        return w
    n = w["count"]
    parent, stack = [], []
    for i, d in enumerate(w["depth"]):
        del stack[d:]
        parent.append(stack[-1] if stack else -1)
        stack.append(i)
    ids, acc = [], 0
    for x in w["id"]:
        acc += x
        ids.append(acc)
    def sparse(pairs):
        col = [0] * n
        for i, v in zip(pairs[::2], pairs[1::2]):
            col[i] = v
        return col
    sc = w["scale"]
    b = w["bounds"]
    bounds = []
    for k in range(0, len(b), 4):
        if b[k + 2] < 0:
            bounds += [0, 0, -1, -1]
        else:
            bounds += [b[k] / sc, b[k + 1] / sc, b[k + 2] / sc, b[k + 3] / sc]
    out = dict(w)
    out.update(parent=parent, id=ids, desc=sparse(w["desc"]), value=sparse(w["value"]),
               level=sparse(w["level"]), bounds=bounds, encoding="plain")
    return out


def resolve(base, href):
    """What a URL parser (cup: the url crate) makes of a raw href."""
    from urllib.parse import urljoin, urlsplit, urlunsplit
    h = href.strip()
    if h.startswith("#"):
        return base.split("#")[0] + h
    u = urlsplit(urljoin(base, h))
    if u.scheme in ("http", "https") and u.path == "":
        u = u._replace(path="/")
    return urlunsplit(u)


class Runner:
    def __init__(self, browser, page):
        self.b = browser
        self.pg = page
        self.worlds = {}
        self.installed = set()

    def world(self, frame):
        if frame not in self.worlds:
            self.worlds[frame] = self.pg.isolated_world(frame)
        return self.worlds[frame]

    def walk(self, frame, options=None, install=False, by_value=True):
        """Runs the walker in the frame's isolated world; returns (result,
        client ms, answer bytes)."""
        ctx = self.world(frame)
        opts = json.dumps(options or {})
        if install:
            if ctx not in self.installed:
                self.pg.evaluate(f"globalThis.__cupWalk = {WALKER}; 0", context=ctx)
                self.installed.add(ctx)
            t = time.perf_counter()
            i = self.pg.send("Runtime.evaluate", {"expression": f"__cupWalk({opts})", "contextId": ctx,
                                                  "returnByValue": by_value})
        else:
            t = time.perf_counter()
            i = self.pg.send("Runtime.callFunctionOn", {
                "functionDeclaration": WALKER, "executionContextId": ctx,
                "arguments": [{"value": options or {}}], "returnByValue": by_value})
        r, size = self.b.wait_sized(i)
        ms = (time.perf_counter() - t) * 1e3
        if "exceptionDetails" in r:
            raise CdpError(json.dumps(r["exceptionDetails"])[:3000])
        v = r["result"].get("value")
        if isinstance(v, str):
            v = json.loads(v)
        return v, ms, size

    def ax(self, frame=None):
        t = time.perf_counter()
        i = self.pg.send("Accessibility.getFullAXTree", {"frameId": frame} if frame else {})
        r, size = self.b.wait_sized(i)
        return r, (time.perf_counter() - t) * 1e3, size

    def cup_today(self):
        """getFullAXTree and captureSnapshot asked together, as capture.rs
        does (ax first); time until both have arrived."""
        t = time.perf_counter()
        i1 = self.pg.send("Accessibility.getFullAXTree", {})
        i2 = self.pg.send("DOMSnapshot.captureSnapshot", {"computedStyles": STYLES})
        r1, s1 = self.b.wait_sized(i1)
        t_ax = (time.perf_counter() - t) * 1e3
        r2, s2 = self.b.wait_sized(i2)
        return (time.perf_counter() - t) * 1e3, t_ax, s1 + s2

    def snapshot(self):
        t = time.perf_counter()
        i = self.pg.send("DOMSnapshot.captureSnapshot", {"computedStyles": STYLES})
        r, size = self.b.wait_sized(i)
        return (time.perf_counter() - t) * 1e3, size

    def backend_ids(self, frame, count):
        """backendNodeId of each walker output index (None for pseudo
        nodes)."""
        ctx = self.world(frame)
        arr = self.pg.call("Runtime.evaluate", {"expression": "globalThis.__cupWalker.nodes", "contextId": ctx,
                                                "returnByValue": False})["result"]
        props = self.pg.call("Runtime.getProperties", {"objectId": arr["objectId"], "ownProperties": True})
        objs = [None] * count
        for p in props["result"]:
            if p["name"].isdigit() and p.get("value", {}).get("objectId"):
                objs[int(p["name"])] = p["value"]["objectId"]
        calls = [("DOM.describeNode", {"objectId": o}) for o in objs if o]
        answers = self.pg.call_many(calls)
        out, k = [], 0
        for o in objs:
            if o:
                a = answers[k]
                k += 1
                out.append(None if isinstance(a, Exception) else a["node"]["backendNodeId"])
            else:
                out.append(None)
        self.pg.call("Runtime.releaseObjectGroup", {"objectGroup": ""}) if False else None
        return out


def dom_info(pg):
    """backendNodeId -> (tag, attrs, in user-agent shadow) from DOM.getDocument."""
    doc = pg.call("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
    out = {}

    def walk(n, ua):
        attrs = n.get("attributes", [])
        out[n["backendNodeId"]] = (n["nodeName"].lower(), dict(zip(attrs[::2], attrs[1::2])), ua)
        for c in n.get("children", []):
            walk(c, ua)
        for c in n.get("shadowRoots", []):
            walk(c, ua or c.get("shadowRootType") == "user-agent")
        if "contentDocument" in n:
            walk(n["contentDocument"], False)
        for c in n.get("pseudoElements", []):
            walk(c, ua)
            PSEUDO_HOST[c["backendNodeId"]] = n["backendNodeId"]
    walk(doc, False)
    return out


def layout_bounds(pg):
    """backendNodeId -> (x, y, w, h) of its first layout box (document
    coordinates, CSS px), from DOMSnapshot.captureSnapshot; a text node's
    boxes are united."""
    snap = pg.call("DOMSnapshot.captureSnapshot", {"computedStyles": []})
    out = {}
    for d in snap["documents"]:
        backend = d["nodes"]["backendNodeId"]
        types = d["nodes"].get("nodeType", [])
        lay = d["layout"]
        for k, ni in enumerate(lay["nodeIndex"]):
            b = backend[ni]
            x, y, w, h = lay["bounds"][k]
            if b in out:
                if types and types[ni] == 3:  # text: union of its fragments
                    x0, y0, w0, h0 = out[b]
                    nx, ny = min(x0, x), min(y0, y)
                    out[b] = (nx, ny, max(x0 + w0, x + w) - nx, max(y0 + h0, y + h) - ny)
                continue
            out[b] = (x, y, w, h)
    return out


PSEUDO_HOST = {}  # backendNodeId of a ::before/::after/::marker -> its element's


# ---------------------------------------------------------------------------
def guess(field, cn, wn, tag, attrs):
    """A first guess at why a field differs (refined as classes are
    learned; see REPORT.md)."""
    c, w = cn, wn
    if field == "name" or field == "desc":
        if norm_ws(c) == norm_ws(w):
            return "whitespace only"
        if w and "\u0000" in w:
            return "CSS counter value unknown to the walker"
        if c and w and norm_ws(c).replace(" ", "") == norm_ws(w).replace(" ", ""):
            return "spaces between inline/block parts"
        if c and not w:
            return "walker found no name source"
        if w and not c:
            return "walker named a node Chromium leaves unnamed"
        return "different name source or content"
    if field == "role":
        return f"role rule for <{tag}>"
    if field == "value":
        return "value rule"
    return ""


def compare(frame_label, ax_nodes, walk, backends, dom, diffs, totals, boxes=None):
    """Joins Chromium's exposed nodes and the walker's on backendDOMNodeId
    and counts agreement per field."""
    S = walk["strings"]
    n = walk["count"]
    walk = decode(walk)
    extra_url = {i: S[k] for i, k in zip(walk["extra"]["url"][::2], walk["extra"]["url"][1::2])}
    for i, k in zip(walk["extra"]["href"][::2], walk["extra"]["href"][1::2]):
        extra_url[i] = resolve(walk["base"], S[k])

    exposed = {}
    no_backend = []
    by_id = {a["nodeId"]: a for a in ax_nodes}
    for a in ax_nodes:
        if a.get("ignored"):
            continue
        role = a["role"]["value"]
        if role == "InlineTextBox":
            continue
        b = a.get("backendDOMNodeId")
        if b is None or b in PSEUDO_HOST and role != "ListMarker":
            no_backend.append(a)
            continue
        exposed.setdefault(b, a)

    walker_by_backend = {}
    pseudo = []
    for i in range(n):
        b = backends[i]
        if b is None:
            pseudo.append(i)
        else:
            walker_by_backend.setdefault(b, i)

    t = totals
    c = Counter()
    joined = [b for b in exposed if b in walker_by_backend]
    only_chromium = [b for b in exposed if b not in walker_by_backend]
    only_walker = [b for b in walker_by_backend if b not in exposed]
    c["chromium"] += len(exposed) - sum(1 for b in only_chromium if dom.get(b, (0, 0, False))[2]
                                        or exposed[b]["role"]["value"] == "ListMarker")
    c["walker"] += len(walker_by_backend)
    c["joined"] += len(joined)

    def node_desc(b):
        d = dom.get(b)
        if not d:
            return "<#text or ?>"
        tag, attrs, ua = d
        s = "<" + tag
        for k, v in list(attrs.items())[:4]:
            s += f' {k}="{v[:40]}"'
        s += ">" + (" [ua-shadow]" if ua else "")
        return s

    # Nodes only one side has.
    for b in only_chromium:
        a = exposed[b]
        d = dom.get(b)
        role = a["role"]["value"]
        if d and d[2]:
            c["ua_shadow"] += 1
            continue
        if role == "ListMarker":
            c["list_markers"] += 1
            continue
        elif role == "ListMarker":
            cls = "list marker (::marker)"
        elif d and d[0] in ("::before", "::after", "::marker"):
            cls = "pseudo element node"
        else:
            cls = f"walker did not expose {role}"
        c["only_chromium"] += 1
        c["only_chromium:" + cls] += 1
        diffs.append((frame_label, "missing", cls, f"{role} {a.get('name', {}).get('value', '')!r} {node_desc(b)} #{b}"))
    for b in only_walker:
        i = walker_by_backend[b]
        role = S[walk["role"][i]]
        ax = None
        # Is it in Chromium's tree as an ignored node?
        ign = next((x for x in ax_nodes if x.get("backendDOMNodeId") == b), None) if len(only_walker) < 400 else None
        cls = "Chromium ignores it" if ign is not None else "not in Chromium's tree"
        c["only_walker"] += 1
        c["only_walker:" + cls] += 1
        reasons = ",".join(r["name"] for r in (ign or {}).get("ignoredReasons", []))
        diffs.append((frame_label, "extra", cls, f"{role} {S[walk['name'][i]]!r} {node_desc(b)} #{b} {reasons}"))

    # Field by field.
    for b in joined:
        a = exposed[b]
        i = walker_by_backend[b]
        props = {p["name"]: p["value"].get("value") for p in a.get("properties", [])}
        crole = a["role"]["value"]
        wrole = S[walk["role"][i]]
        cname = a.get("name", {}).get("value", "") or ""
        wname = S[walk["name"][i]]
        cdesc = a.get("description", {}).get("value", "") or ""
        wdesc = S[walk["desc"][i]]
        cval = a.get("value", {}).get("value")
        wval = S[walk["value"][i]]
        cst = chromium_states(props)
        wst = walker_states(walk["flags"][i])
        d = dom.get(b, ("#text", {}, False))
        tag, attrs = d[0], d[1]
        label = f"{node_desc(b)} #{b}"

        def check(field, ok, cv, wv, note=""):
            c[field + ":n"] += 1
            if ok:
                c[field + ":ok"] += 1
            else:
                diffs.append((frame_label, field, note or guess(field, cv, wv, tag, attrs),
                              f"{crole} chromium={cv!r} walker={wv!r} {label}"))

        check("role", crole == wrole, crole, wrole)
        check("cup_role", cup_role(crole, bool(cname.strip())) == cup_role(wrole, bool(wname.strip())),
              cup_role(crole, bool(cname.strip())), cup_role(wrole, bool(wname.strip())))
        check("name", cname == wname, cname, wname)
        c["name_ws:n"] += 1
        if norm_ws(cname) == norm_ws(wname):
            c["name_ws:ok"] += 1
        c["name_cup:n"] += 1   # what cup keeps: mapping.rs trims names
        if cname.strip() == wname.strip():
            c["name_cup:ok"] += 1
        check("desc", cdesc == wdesc, cdesc, wdesc)
        check("value", values_equal(cval, wval), cval, wval)
        for s in COMPARED_STATES:
            if s in cst or s in wst:
                check("state:" + s, (s in cst) == (s in wst), s in cst, s in wst)
        c["states:n"] += 1
        if cst == wst:
            c["states:ok"] += 1
        clevel = props.get("level")
        wlevel = walk["level"][i]
        if crole == "heading" or wrole == "heading":
            check("level", (clevel or 0) == wlevel, clevel, wlevel)
        if boxes is not None and b in boxes and crole != "RootWebArea":
            cb = boxes[b]
            wb = list(walk["bounds"][4 * i: 4 * i + 4])
            # The snapshot is in document coordinates, the walker in the
            # viewport's: add the frame's scroll offset.
            wb[0] += walk["viewport"][3]
            wb[1] += walk["viewport"][4]
            kind = "text" if crole == "StaticText" else "element"
            ok = wb[2] >= 0 and all(abs(p - q) <= 1.01 for p, q in zip(cb, wb))
            c[f"bounds_{kind}:n"] += 1
            if ok:
                c[f"bounds_{kind}:ok"] += 1
            elif len([x for x in diffs if x[1].startswith("bounds")]) < 60:
                diffs.append((frame_label, f"bounds_{kind}", "box differs from the layout snapshot",
                              f"{crole} snapshot={tuple(round(v, 1) for v in cb)} walker={tuple(wb)} {label}"))
        if "url" in props:
            wurl = extra_url.get(i, "")
            check("url", props["url"] == wurl, props["url"], wurl)

    # Nodes without a DOM node: compare (role, name) per parent.
    def parent_backend_ax(a):
        p = by_id.get(a.get("parentId"))
        while p is not None and (p.get("backendDOMNodeId") is None or p.get("backendDOMNodeId") in PSEUDO_HOST
                                 or p.get("ignored")):
            p = by_id.get(p.get("parentId"))
        return p.get("backendDOMNodeId") if p else None
    cmb = defaultdict(Counter)
    for a in no_backend:
        cmb[parent_backend_ax(a)][(a["role"]["value"], a.get("name", {}).get("value", ""))] += 1
    wmb = defaultdict(Counter)
    for i in pseudo:
        p = walk["parent"][i]
        while p >= 0 and backends[p] is None:
            p = walk["parent"][p]
        wmb[backends[p] if p >= 0 else None][(S[walk["role"][i]], S[walk["name"][i]])] += 1
    for pb in set(cmb) | set(wmb):
        cc, ww = cmb[pb], wmb[pb]
        common = sum((cc & ww).values())
        c["anon:chromium"] += sum(cc.values())
        c["anon:walker"] += sum(ww.values())
        c["anon:matched"] += common
        for k, v in (cc - ww).items():
            cls = "list marker text (li with a non-listitem role)" if k[1] in ("• ", "◦ ", "▪ ") else "generated content"
            diffs.append((frame_label, "anon-missing", cls, f"{k} x{v} under {node_desc(pb)} #{pb}"))
        for k, v in (ww - cc).items():
            diffs.append((frame_label, "anon-extra", "generated content", f"{k} x{v} under {node_desc(pb)} #{pb}"))
    for k, v in c.items():
        t[k] += v


def pct(ok, n):
    return f"{100.0 * ok / n:5.1f}%" if n else "  -  "


def stats(xs):
    return (min(xs), statistics.median(xs)) if xs else (float("nan"), float("nan"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pages", nargs="*")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--no-compare", action="store_true")
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--diffs", default=None, help="write every difference to this file")
    ap.add_argument("--show", type=int, default=40, help="differences printed per page")
    ap.add_argument("--no-force-a11y", action="store_true",
                    help="start Chromium without --force-renderer-accessibility")
    ap.add_argument("--json", default=None, help="write figures as JSON here")
    ap.add_argument("--wait-idle", type=float, default=0,
                    help="before timing a page, wait up to this many seconds for the machine to be quiet")
    ap.add_argument("--opts", default="{}", help="walker options (JSON) for the comparison walk")
    args = ap.parse_args()
    walk_opts = json.loads(args.opts)
    pages = [p if p.endswith(".html") or "/" in p else p + ".html" for p in args.pages] or sorted(
        p for p in os.listdir(PAGES) if p.endswith(".html") and p != "child.html")
    for p in pages:
        if not os.path.exists(os.path.join(PAGES, p)):
            sys.exit(f"measure.py: no page {p} in {PAGES} (gen_pages.py writes the bench pages)")

    browser = Browser(force_a11y=not args.no_force_a11y)
    server = Server(PAGES)
    figures = {}
    all_diffs = []
    try:
        pg = browser.page_session()
        pg.call("DOM.enable")
        for name in pages:
            pg.navigate(server.url(name))
            time.sleep(0.2)
            frames = pg.frames()
            run = Runner(browser, pg)
            fig = {"frames": len(frames)}
            # Warm up both paths (compile the walker, build the AX tree).
            run.ax()
            w0, _, _ = run.walk(frames[0])
            fig["nodes_walker"] = w0["count"]
            if not args.no_timing:
                busy = wait_quiet(args.wait_idle) if args.wait_idle else cpu_busy(0.5)
                pids = chromium_pids(browser.proc.pid)
                main_f = frames[0]
                S_OPTS = {"stringify": True}
                variants = {
                    "getFullAXTree": lambda: run.ax(),
                    "captureSnapshot (cup's styles)": lambda: run.snapshot(),
                    "getFullAXTree + captureSnapshot (cup today)": lambda: run.cup_today(),
                    "walker, every frame (JSON string)": lambda: [run.walk(f, S_OPTS) for f in frames],
                    "walker, main frame (JSON string)": lambda: run.walk(main_f, S_OPTS),
                    "walker, main frame (object by value)": lambda: run.walk(main_f, {}),
                    "walker, main frame (installed, JSON string)": lambda: run.walk(main_f, S_OPTS, install=True),
                    "walker, main frame (text rects: all)": lambda: run.walk(main_f, {"stringify": True, "textRects": True}),
                    "walker, main frame (no bounds)": lambda: run.walk(main_f, {"stringify": True, "bounds": False}),
                }
                wall = {k: [] for k in variants}
                cpu = {k: [] for k in variants}
                in_page = []
                for k in range(args.runs):
                    for name_v, fn in variants.items():
                        c0 = cpu_ns(pids)
                        t0 = time.perf_counter()
                        r = fn()
                        wall[name_v].append((time.perf_counter() - t0) * 1e3)
                        cpu[name_v].append((cpu_ns(pids) - c0) / 1e6)
                        if name_v == "walker, main frame (JSON string)":
                            in_page.append(r[0]["ms"]["total"])
                            fig.setdefault("bytes", {})["walker (JSON string)"] = r[2]
                        elif name_v == "getFullAXTree":
                            fig.setdefault("bytes", {})["getFullAXTree"] = r[2]
                            fig["nodes_ax"] = len(r[0]["nodes"])
                        elif name_v == "walker, main frame (object by value)":
                            fig.setdefault("bytes", {})["walker (object)"] = r[2]
                        elif name_v == "captureSnapshot (cup's styles)":
                            fig.setdefault("bytes", {})["captureSnapshot"] = r[1]
                        del r
                fig["timing"] = {k: {"wall_min": min(wall[k]), "wall_median": statistics.median(wall[k]),
                                     "cpu_median": statistics.median(cpu[k])} for k in variants}
                fig["timing"]["walker in-page (main frame)"] = {"wall_min": min(in_page),
                                                                "wall_median": statistics.median(in_page),
                                                                "cpu_median": float("nan")}
                fig["machine_busy_before"] = busy
                print(f"\n== {name}: {len(frames)} frame(s), walker nodes {w0['count']}, "
                      f"AX nodes {fig.get('nodes_ax')}; other load before: {busy:.0%} of the CPUs")
                print(f"   {'':46s} {'wall min':>9s} {'median':>9s} {'Chromium CPU median':>20s}")
                for k, v in fig["timing"].items():
                    print(f"   {k:46s} {v['wall_min']:8.1f}  {v['wall_median']:8.1f}  {v['cpu_median']:12.1f} ms")
                print("   bytes: " + ", ".join(f"{k} {v:,}" for k, v in fig["bytes"].items()))
            else:
                print(f"\n== {name}: {len(frames)} frame(s), walker nodes {w0['count']}")
            if not args.no_compare:
                dom = dom_info(pg)
                totals = Counter()
                diffs = []
                boxes = layout_bounds(pg)
                for f in frames:
                    w, _, _ = run.walk(f, walk_opts)
                    backends = run.backend_ids(f, w["count"])
                    ax = pg.call("Accessibility.getFullAXTree", {"frameId": f})["nodes"]
                    compare(f"{name}#{frames.index(f)}", ax, w, backends, dom, diffs, totals,
                            boxes if f == frames[0] else None)
                fig["agreement"] = dict(totals)
                t = totals
                print(f"   nodes: chromium exposed {t['chromium']} (with a DOM node), walker {t['walker']}, "
                      f"joined {t['joined']} ({pct(t['joined'], t['chromium'])} of Chromium's)")
                print(f"   only chromium {t['only_chromium']}, only walker {t['only_walker']}, "
                      f"user-agent shadow nodes (not comparable) {t['ua_shadow']}, list markers (cup drops them) {t['list_markers']}; "
                      f"generated/no-DOM nodes: chromium {t['anon:chromium']}, walker {t['anon:walker']}, "
                      f"matched {t['anon:matched']}")
                fields = ["role", "cup_role", "name", "name_cup", "name_ws", "desc", "value", "states", "level", "url",
                          "bounds_element", "bounds_text"]
                print("   agreement: " + ", ".join(f"{f} {pct(t[f + ':ok'], t[f + ':n'])}" for f in fields
                                                   if t[f + ':n']))
                st = [k[6:-2] for k in t if k.startswith("state:") and k.endswith(":n")]
                print("   states: " + ", ".join(f"{s} {t['state:' + s + ':ok']}/{t['state:' + s + ':n']}"
                                                for s in sorted(st)))
                classes = Counter((d[1], d[2]) for d in diffs)
                print("   difference classes: " + "; ".join(f"[{k[0]}] {k[1]} x{v}" for k, v in classes.most_common(12)))
                shown = 0
                for d in diffs:
                    if shown < args.show:
                        print(f"     [{d[1]}] {d[2]}: {d[3][:220]}")
                    shown += 1
                if shown > args.show:
                    print(f"     ... {shown - args.show} more differences")
                all_diffs.extend(diffs)
            figures[name] = fig
    finally:
        browser.close()
        server.close()
    if args.diffs:
        with open(args.diffs, "w") as f:
            for d in all_diffs:
                f.write(f"{d[0]}\t[{d[1]}] {d[2]}: {d[3]}\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1, default=str)


if __name__ == "__main__":
    main()
