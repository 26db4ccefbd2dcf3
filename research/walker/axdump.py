"""Prints Chromium's accessibility tree of a page (all frames), with each
node's DOM tag/attributes, for studying what the walker must reproduce.
Usage: axdump.py PAGE [--ignored]"""
import sys, json
from cdp import Browser, Server

def dom_index(pg):
    doc = pg.call("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
    out = {}
    def walk(n, shadow=None):
        attrs = n.get("attributes", [])
        out[n["backendNodeId"]] = (n["nodeName"].lower(), dict(zip(attrs[::2], attrs[1::2])), shadow, n.get("nodeValue", ""))
        for c in n.get("children", []): walk(c, shadow)
        for c in n.get("shadowRoots", []): walk(c, c.get("shadowRootType"))
        if "contentDocument" in n: walk(n["contentDocument"])
        for c in n.get("pseudoElements", []): walk(c, "pseudo")
    walk(doc)
    return out

def dump(nodes, dom, show_ignored, out):
    by = {n["nodeId"]: n for n in nodes}
    kids = set(c for n in nodes for c in n.get("childIds", []))
    roots = [n for n in nodes if n["nodeId"] not in kids]
    def p(n, d):
        role = n["role"]["value"]
        if role == "InlineTextBox": return
        ig = n.get("ignored")
        if not ig or show_ignored:
            b = n.get("backendDOMNodeId")
            tag = dom.get(b, ("?", {}, None, ""))
            props = {x["name"]: x["value"].get("value") for x in n.get("properties", [])}
            nm = n.get("name", {}).get("value")
            desc = n.get("description", {}).get("value")
            val = n.get("value", {}).get("value")
            s = "  " * d + ("(ign) " if ig else "") + role
            if nm: s += f" {nm!r}"
            if desc: s += f" desc={desc!r}"
            if val not in (None, ""): s += f" val={val!r}"
            if props: s += " " + json.dumps(props, ensure_ascii=False)
            if ig: s += " " + ",".join(r["name"] for r in n.get("ignoredReasons", []))
            s += f"   <{tag[0]} {json.dumps(tag[1], ensure_ascii=False) if tag[1] else ''}{' shadow=' + tag[2] if tag[2] else ''}> #{b}"
            out.append(s)
        for c in n.get("childIds", []):
            if c in by: p(by[c], d + (0 if ig and not show_ignored else 1))
    for r in roots: p(r, 0)

if __name__ == "__main__":
    b = Browser(); srv = Server("pages"); pg = b.page_session()
    pg.navigate(srv.url(sys.argv[1]))
    show = "--ignored" in sys.argv
    dom = dom_index(pg)
    out = []
    for f in pg.frames():
        out.append(f"=== frame {f}")
        dump(pg.call("Accessibility.getFullAXTree", {"frameId": f})["nodes"], dom, show, out)
    print("\n".join(out))
    b.close(); srv.close()
