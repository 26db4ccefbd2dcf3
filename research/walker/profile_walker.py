"""CPU profile of the walker in the page (V8 sampling profiler via CDP):
self time per function, for finding the walker's hot spots.
Usage: profile_walker.py PAGE [options-json]"""
import sys, json, collections
from cdp import Browser, Server
from measure import Runner
b = Browser(); srv = Server("pages"); pg = b.page_session()
pg.navigate(srv.url(sys.argv[1]))
opts = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
run = Runner(b, pg)
f = pg.frames()[0]
for _ in range(3): run.walk(f, opts)
pg.call("Profiler.enable")
pg.call("Profiler.setSamplingInterval", {"interval": 50})
pg.call("Profiler.start")
ms = []
for _ in range(10):
    w, t, _ = run.walk(f, opts); ms.append(w["ms"]["total"])
prof = pg.call("Profiler.stop")["profile"]
print("in-page ms:", sorted(ms))
nodes = {n["id"]: n for n in prof["nodes"]}
counts = collections.Counter(prof["samples"])
self_by = collections.Counter()
total = 0
for nid, c in counts.items():
    n = nodes[nid]; cf = n["callFrame"]
    key = f'{cf["functionName"] or "(anon)"}:{cf["lineNumber"]+1}' if cf["url"] == "" or True else cf["functionName"]
    self_by[key] += c; total += c
for k, v in self_by.most_common(35):
    print(f"{100*v/total:5.1f}%  {k}")
b.close(); srv.close()
