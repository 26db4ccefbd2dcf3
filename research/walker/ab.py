#!/usr/bin/env python3
"""A/B timing of walker versions on one page, interleaved run by run:
in-page time (min/median) and Chromium CPU (median).
Usage: ab.py PAGE RUNS walkerA.js walkerB.js ..."""
import json
import statistics
import sys

from cdp import Browser, Server, chromium_pids, cpu_ns

page, runs, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
b = Browser()
srv = Server("pages")
try:
    pg = b.page_session()
    pg.navigate(srv.url(page))
    ctx = pg.isolated_world(pg.frames()[0])
    srcs = {f: open(f).read().strip().rstrip(';') for f in files}
    pids = chromium_pids(b.proc.pid)
    res = {f: [] for f in files}
    cpu = {f: [] for f in files}
    for k in range(runs + 1):
        for f in files:
            c0 = cpu_ns(pids)
            r = pg.call("Runtime.callFunctionOn", {"functionDeclaration": srcs[f], "executionContextId": ctx,
                                                  "arguments": [{"value": {"stringify": True}}],
                                                  "returnByValue": True})
            if "exceptionDetails" in r:
                sys.exit(f"{f}: {r['exceptionDetails']}")
            if k:  # first round: warm-up
                cpu[f].append((cpu_ns(pids) - c0) / 1e6)
                res[f].append(json.loads(r["result"]["value"])["ms"]["total"])
    for f in files:
        x = sorted(res[f])
        print(f"{f:40s} in-page min {x[0]:7.1f} median {statistics.median(x):7.1f}   "
              f"Chromium CPU median {statistics.median(cpu[f]):7.1f} ms")
finally:
    b.close()
    srv.close()
