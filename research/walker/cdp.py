"""A small synchronous CDP client for the walker research: starts headless
Chromium, reads its DevTools port, talks to page targets through flat
sessions on the browser socket. Research code, not part of cup."""

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import websocket

CHROMIUM = "/usr/bin/chromium"


class CdpError(Exception):
    pass


class Browser:
    def __init__(self, extra_args=(), window=(1280, 800), force_a11y=True):
        self.profile = tempfile.mkdtemp(prefix="walker-profile-")
        args = [
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
            "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
            "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync",
            "--no-default-browser-check", "--disable-features=Translate,MediaRouter",
            f"--window-size={window[0]},{window[1]}",
        ]
        if force_a11y:
            # cup's own browser (cup-sandbox) passes it; see REPORT.md.
            args.append("--force-renderer-accessibility")
        args += list(extra_args)
        args.append("about:blank")
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 20
        while True:
            if os.path.exists(port_file):
                lines = open(port_file).read().split("\n")
                if len(lines) >= 2 and lines[1]:
                    break
            if time.time() > deadline:
                raise CdpError("Chromium did not write DevToolsActivePort")
            time.sleep(0.05)
        port, path = lines[0].strip(), lines[1].strip()
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}{path}", skip_utf8_validation=True,
                                              enable_multithread=True)
        self.next_id = 1
        self.pending = {}   # id -> response
        self.events = []

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    # -- raw messaging ------------------------------------------------------
    def send(self, method, params=None, session=None):
        i = self.next_id
        self.next_id += 1
        msg = {"id": i, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        return i

    def _read_one(self):
        raw = self.ws.recv()
        msg = json.loads(raw)
        if "id" in msg:
            self.pending[msg["id"]] = msg
        else:
            self.events.append(msg)
        return msg, len(raw)

    def wait(self, i):
        while i not in self.pending:
            self._read_one()
        msg = self.pending.pop(i)
        if "error" in msg:
            raise CdpError(f"{msg['error']}")
        return msg["result"]

    def wait_sized(self, i):
        """Like wait, also returning the answer's size in bytes."""
        size = 0
        while i not in self.pending:
            m, n = self._read_one()
            if m.get("id") == i:
                size = n
        msg = self.pending.pop(i)
        if "error" in msg:
            raise CdpError(f"{msg['error']}")
        return msg["result"], size

    def call(self, method, params=None, session=None):
        return self.wait(self.send(method, params, session))

    def call_many(self, calls, session=None):
        """Pipelines calls [(method, params)], returns results (or errors as
        CdpError instances) in order."""
        ids = [self.send(m, p, session) for m, p in calls]
        out = []
        for i in ids:
            try:
                out.append(self.wait(i))
            except CdpError as e:
                out.append(e)
        return out

    def wait_event(self, method, session=None, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for k, e in enumerate(self.events):
                if e.get("method") == method and (session is None or e.get("sessionId") == session):
                    del self.events[k]
                    return e
            self.ws.settimeout(max(0.01, deadline - time.time()))
            try:
                self._read_one()
            except websocket.WebSocketTimeoutException:
                pass
            finally:
                self.ws.settimeout(None)
        raise CdpError(f"no {method} within {timeout}s")

    # -- pages --------------------------------------------------------------
    def page_session(self):
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        s = self.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})
        return Page(self, s["sessionId"], page["targetId"])


class Page:
    def __init__(self, browser, session, target):
        self.b = browser
        self.s = session
        self.target = target
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method, params=None):
        return self.b.call(method, params, self.s)

    def send(self, method, params=None):
        return self.b.send(method, params, self.s)

    def call_many(self, calls):
        return self.b.call_many(calls, self.s)

    def navigate(self, url, timeout=30):
        self.b.events.clear()
        self.call("Page.navigate", {"url": url})
        self.b.wait_event("Page.loadEventFired", self.s, timeout)
        # Let layout, fonts and late frames settle.
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
                      await_promise=True)

    def evaluate(self, expr, await_promise=False, context=None, by_value=True):
        p = {"expression": expr, "returnByValue": by_value, "awaitPromise": await_promise}
        if context is not None:
            p["contextId"] = context
        r = self.call("Runtime.evaluate", p)
        if "exceptionDetails" in r:
            raise CdpError(json.dumps(r["exceptionDetails"])[:2000])
        return r["result"].get("value") if by_value else r["result"]

    def frames(self):
        """Frame ids, main first, depth first."""
        tree = self.call("Page.getFrameTree")["frameTree"]
        out = []

        def walk(t):
            out.append(t["frame"]["id"])
            for c in t.get("childFrames", []):
                walk(c)
        walk(tree)
        return out

    def isolated_world(self, frame_id, name="cup-walker"):
        r = self.call("Page.createIsolatedWorld",
                      {"frameId": frame_id, "worldName": name, "grantUniveralAccess": False})
        return r["executionContextId"]


class Server:
    """Serves a directory on a loopback port (like the bench's server)."""

    def __init__(self, root):
        handler = partial(_QuietHandler, directory=root)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, name):
        return f"http://127.0.0.1:{self.port}/{name}"

    def close(self):
        self.httpd.shutdown()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


def cpu_busy(window=1.0):
    """Fraction of all CPUs busy over `window` seconds (from /proc/stat)."""
    def read():
        f = open("/proc/stat").readline().split()[1:]
        v = list(map(int, f))
        idle = v[3] + v[4]
        return idle, sum(v)
    i0, t0 = read()
    time.sleep(window)
    i1, t1 = read()
    return 1.0 - (i1 - i0) / max(1, t1 - t0)


def wait_quiet(max_wait=120.0, threshold=0.25):
    """Waits (at most max_wait s) until the machine's other work uses less
    than `threshold` of its CPUs; returns the last busy fraction seen."""
    deadline = time.time() + max_wait
    while True:
        b = cpu_busy(1.0)
        if b < threshold or time.time() > deadline:
            return b


def chromium_pids(root_pid):
    """The browser process and all its descendants."""
    kids = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            ppid = int(open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        kids.setdefault(ppid, []).append(int(p))
    out, stack = [], [root_pid]
    while stack:
        p = stack.pop()
        out.append(p)
        stack.extend(kids.get(p, []))
    return out


def cpu_ns(pids):
    """CPU time (ns) all threads of these processes have run, from
    /proc/PID/task/TID/schedstat (ns precision)."""
    total = 0
    for p in pids:
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                try:
                    total += int(open(f"/proc/{p}/task/{t}/schedstat").read().split()[0])
                except (OSError, ValueError):
                    pass
        except OSError:
            pass
    return total
