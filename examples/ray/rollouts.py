#!/usr/bin/env python3
"""Rollouts on a local Ray cluster: one `cup serve` desktop per actor.

Each `Desktop` actor starts `cup serve --app gtk3-widget-factory` (a private
sealed desktop: its own Xvfb with an X cookie, session bus and AT-SPI bus),
waits for its /readyz, loads the desktop's environment from the server's
--env-file into its own process and drives the app in process with the
Python package (`cup.Session()`, no MCP hop). An episode is a snapshot, a
check box or toggle button toggled (its effect must be "confirmed") and a
second snapshot that must show the new state.

Ray schedules the actors (fractional CPUs, so four fit on two cores) and
runs their episodes in parallel; the isolation comes from each `cup serve`:
every actor sees one window, started by its own server, and ends with the
widget states of its own episodes only.

    python examples/ray/rollouts.py --actors 4 --episodes 5 --cup target/debug/cup

Exits 1 if an episode failed, an isolation check failed or a server did not
exit 0; 2 on bad arguments or a missing program.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from typing import Any, Dict, List, NoReturn, Optional, Tuple

import ray

APP = "gtk3-widget-factory"
# The toggles an episode picks from: (role, name) as cup reports them.
TOGGLES = (("checkbox", "checkbutton"), ("button", "togglebutton"))
# A toggled widget shows one of these states when on.
ON_STATES = ("checked", "pressed")

Key = Tuple[str, str, int, int]  # role, name, x, y: stable across snapshots


def _pct(values: List[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    s = sorted(values)
    rank = max(1, -(-len(s) * q // 100))  # ceil
    return s[int(rank) - 1]


def _ppid(pid: int) -> Optional[int]:
    try:
        with open(f"/proc/{pid}/stat") as f:
            # pid (comm) state ppid ...: comm may hold spaces and parentheses.
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _start_time(pid: int) -> Optional[str]:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _descendants(root: int) -> List[int]:
    """Every live process below `root` (by parent pid)."""
    children: Dict[int, List[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            parent = _ppid(int(entry))
            if parent is not None:
                children.setdefault(parent, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


@ray.remote(num_cpus=0.5)
class Desktop:
    """One private desktop (`cup serve`) and a cup Session on it, in this
    actor's process."""

    def __init__(
        self,
        index: int,
        cup_bin: str = "cup",
        app: str = APP,
        max_lifetime: int = 900,
        ready_timeout: float = 90.0,
    ) -> None:
        t0 = time.perf_counter()
        self.index = index
        self.app = app
        self.dir = tempfile.mkdtemp(prefix=f"cup-ray-{index}-")
        self.env_file = os.path.join(self.dir, "env")
        self.stdout_path = os.path.join(self.dir, "stdout")
        self.stderr_path = os.path.join(self.dir, "stderr")
        self.toggled: Counter = Counter()
        self.session: Any = None
        cmd = [
            cup_bin, "serve", "--listen", "127.0.0.1:0", "--app", app,
            "--env-file", self.env_file, "--max-lifetime", str(max_lifetime),
        ]
        env = dict(os.environ)
        env.pop("CUP_MCP_TOKEN", None)  # a token of its own, printed
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            # Files, not pipes: nothing blocks when the server logs a lot.
            self.proc = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env
            )
        try:
            deadline = time.monotonic() + ready_timeout
            line = self._wait_line(deadline)
            # cup serve: serving http://127.0.0.1:PORT/mcp token HEX
            words = line.split()
            self.url = words[3]
            self.token = words[5] if len(words) > 5 and words[4] == "token" else None
            t_line = time.perf_counter()
            self._wait_ready(self.url.rsplit("/mcp", 1)[0] + "/readyz", deadline)
            t_ready = time.perf_counter()
            self.desktop_env = self._load_env()
            import cup  # the package reads the desktop from os.environ

            self.session = cup.Session()
            # The toggles of this desktop and their states at the start.
            self.session.snapshot()
            self.candidates = self._toggles()
            if not self.candidates:
                raise RuntimeError(f"no enabled check box or toggle button in {app}")
            self.initial = {k: on for k, (_, on) in self.candidates.items()}
            self.order = sorted(self.candidates)
        except BaseException:
            self._stop()
            shutil.rmtree(self.dir, ignore_errors=True)
            raise
        t_end = time.perf_counter()
        self.ready_ms = {
            "serving_line": (t_line - t0) * 1000,
            "readyz": (t_ready - t0) * 1000,
            "session": (t_end - t0) * 1000,
        }

    # -- start-up -------------------------------------------------------

    def _tail(self, lines: int = 15) -> str:
        try:
            with open(self.stderr_path, errors="replace") as f:
                text = f.read().splitlines()[-lines:]
        except OSError:
            text = []
        text = [re.sub(r"\x1b\[[0-9;]*m", "", t) for t in text]  # the log's colours
        return "\n".join("    " + t for t in text) or "    (no stderr)"

    def _fail(self, what: str) -> RuntimeError:
        state = self.proc.poll()
        exited = "still running" if state is None else f"exited {state}"
        return RuntimeError(
            f"actor {self.index}: {what} (cup serve {exited}); its stderr ends:\n{self._tail()}"
        )

    def _wait_line(self, deadline: float) -> str:
        while time.monotonic() < deadline:
            with open(self.stdout_path, errors="replace") as f:
                first = f.readline()
            if first.endswith("\n") and first.startswith("cup serve: serving "):
                return first.strip()
            if self.proc.poll() is not None:
                raise self._fail("cup serve ended before printing its URL")
            time.sleep(0.05)
        raise self._fail("no 'cup serve: serving' line before the deadline")

    def _wait_ready(self, url: str, deadline: float) -> None:
        last = "no answer"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise self._fail(f"cup serve ended while starting ({url}: {last})")
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        return
                    last = f"HTTP {r.status}"
            except urllib.error.HTTPError as e:  # 503 while starting
                last = f"HTTP {e.code}"
            except (urllib.error.URLError, OSError) as e:
                last = str(e)
            time.sleep(0.1)
        raise self._fail(f"{url} not 200 before the deadline (last: {last})")

    def _load_env(self) -> Dict[str, str]:
        """Applies the `export NAME=VALUE` / `unset NAME` lines of the env
        file to this process; returns what was exported."""
        exported = {}
        with open(self.env_file) as f:
            for line in f:
                words = shlex.split(line)
                if len(words) == 2 and words[0] == "export" and "=" in words[1]:
                    name, value = words[1].split("=", 1)
                    os.environ[name] = value
                    exported[name] = value
                elif len(words) == 2 and words[0] == "unset":
                    os.environ.pop(words[1], None)
                elif words:
                    raise RuntimeError(f"{self.env_file}: unexpected line {line.strip()!r}")
        return exported

    # -- episodes -------------------------------------------------------

    def _toggles(self) -> Dict[Key, Tuple[str, bool]]:
        """Enabled, two-state toggles of the latest snapshot: key -> (id, on)."""
        out: Dict[Key, Tuple[str, bool]] = {}
        for role, name in TOGGLES:
            for n in self.session.find(role=role, name=name, limit=50):
                states = n.get("states") or []
                if n.get("name") != name or "toggle" not in (n.get("actions") or []):
                    continue
                if "disabled" in states or "mixed" in states:
                    continue
                b = n.get("bounds") or {}
                key = (n["role"], name, int(b.get("x", -1)), int(b.get("y", -1)))
                out[key] = (n["id"], any(s in states for s in ON_STATES))
        return out

    def info(self) -> Dict[str, Any]:
        """Start-up figures and what this actor sees (for the isolation checks)."""
        overview = self.session.snapshot(scope="overview")
        windows = [l for l in overview.splitlines() if l.startswith("* ")]
        app_pids = []
        for w in windows:
            if "(pid:" in w:
                app_pids.append(int(w.split("(pid:", 1)[1].split(")", 1)[0]))
        return {
            "index": self.index,
            "actor_pid": os.getpid(),
            "serve_pid": self.proc.pid,
            "url": self.url,
            "ready_ms": self.ready_ms,
            "sandbox": self.desktop_env.get("CUP_SANDBOX_ID"),
            "display": self.desktop_env.get("DISPLAY"),
            "bus": self.desktop_env.get("AT_SPI_BUS_ADDRESS"),
            "windows": windows,
            "app_pids": app_pids,
            "app_parents": [_ppid(p) for p in app_pids],
            "toggles": len(self.candidates),
        }

    def episode(self, i: int) -> Dict[str, Any]:
        """Snapshot, toggle one widget (chosen from the actor and episode
        numbers), snapshot again; the effect must be confirmed and the state
        flipped."""
        t0 = time.perf_counter()
        text = self.session.snapshot()
        t1 = time.perf_counter()
        if f'win "{self.app}"' not in text:
            raise RuntimeError(f"actor {self.index} episode {i}: no {self.app} window in the snapshot")
        now = self._toggles()
        # Actor k toggles widget (k + i // 2) mod n: two episodes on one
        # widget, then the next, so actors end in different states.
        key = self.order[(self.index + i // 2) % len(self.order)]
        if key not in now:
            raise RuntimeError(f"actor {self.index} episode {i}: {key} is gone from the snapshot")
        eid, before = now[key]
        t2 = time.perf_counter()
        result = self.session.action(eid, "toggle")
        t3 = time.perf_counter()
        if result.effect != "confirmed":
            raise RuntimeError(
                f"actor {self.index} episode {i}: toggle {key[1]} {eid}: effect {result.effect!r}, "
                f"success {result.success}, {result.message or result.error}"
            )
        self.session.snapshot()
        after = self._toggles().get(key)
        t4 = time.perf_counter()
        if after is None or after[1] == before:
            raise RuntimeError(
                f"actor {self.index} episode {i}: {key[1]} at {key[2]},{key[3]} still "
                f"{'on' if before else 'off'} after a confirmed toggle"
            )
        self.toggled[key] += 1
        return {
            "actor": self.index,
            "episode": i,
            "widget": f"{key[1]}@{key[2]},{key[3]}",
            "effect": result.effect,
            "snapshot_ms": (t1 - t0) * 1000,
            "action_ms": (t3 - t2) * 1000,
            "episode_ms": (t4 - t0) * 1000,
        }

    def final_states(self) -> Dict[str, Any]:
        """The widgets' states now against the start and this actor's own
        toggles: on a desktop of its own they agree."""
        self.session.snapshot()
        now = self._toggles()
        wrong = []
        for key, was in self.initial.items():
            expected = was != (self.toggled[key] % 2 == 1)
            got = now.get(key, (None, None))[1]
            if got != expected:
                wrong.append(f"{key[1]}@{key[2]},{key[3]}: {got} (expected {expected})")
        flipped = sorted(f"{k[1]}@{k[2]},{k[3]}" for k in self.initial if self.toggled[k] % 2)
        return {"index": self.index, "wrong": wrong, "flipped": flipped}

    # -- the end --------------------------------------------------------

    def _stop(self, grace: float = 15.0) -> Optional[int]:
        if self.session is not None:
            try:
                self.session.close()
            except Exception:
                pass
            self.session = None
        code = self.proc.poll()
        if code is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                code = self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                code = None
        return code

    def close(self) -> Dict[str, Any]:
        """Ends the session, SIGTERMs cup serve and waits for its exit."""
        t0 = time.perf_counter()
        code = self._stop()
        stop_ms = (time.perf_counter() - t0) * 1000
        leftovers = [p for p in _descendants(os.getpid()) if p != self.proc.pid]
        env_gone = not os.path.exists(self.env_file)
        tail = self._tail() if code != 0 else ""
        shutil.rmtree(self.dir, ignore_errors=True)
        return {
            "index": self.index,
            "exit": code,
            "stop_ms": stop_ms,
            "env_file_removed": env_gone,
            "leftovers": leftovers,
            "tail": tail,
        }


# -- the driver -------------------------------------------------------------


def _resolve_cup(path: str) -> str:
    found = shutil.which(path) if os.sep not in path else (path if os.access(path, os.X_OK) else None)
    if not found:
        _usage_exit(f"rollouts: no cup binary at {path!r} (give --cup PATH or set CUP_BIN; "
                    "build it with cargo build -p cup-cli)")
    return os.path.abspath(found)


def _usage_exit(message: str) -> NoReturn:
    print(message, file=sys.stderr)
    sys.exit(2)


def _ray_processes() -> List[Tuple[int, str]]:
    """This driver's Ray processes (GCS, raylet, workers, ...): pid and start time."""
    out = []
    for pid in _descendants(os.getpid()):
        st = _start_time(pid)
        if st is not None:
            out.append((pid, st))
    return out


def _alive(procs: List[Tuple[int, str]]) -> List[int]:
    return [pid for pid, st in procs if _start_time(pid) == st]


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--actors", type=int, default=4, help="desktops, one per actor (default 4)")
    p.add_argument("--episodes", type=int, default=5, help="episodes per actor (default 5)")
    p.add_argument("--cup", default=os.environ.get("CUP_BIN", "cup"),
                   help="the cup binary (default $CUP_BIN, else cup on PATH)")
    p.add_argument("--cpus", type=float, default=2, help="CPUs of the local Ray node (default 2)")
    p.add_argument("--max-lifetime", type=int, default=900,
                   help="each cup serve exits after this many seconds, whatever happens (default 900)")
    p.add_argument("--ready-timeout", type=float, default=90,
                   help="seconds for a desktop to answer /readyz (default 90)")
    p.add_argument("--pids-file", help="write the Ray session's pids and start times here")
    a = p.parse_args(argv)
    if a.actors < 1 or a.episodes < 1:
        p.error("--actors and --episodes must be at least 1")
    cup_bin = _resolve_cup(a.cup)
    if not shutil.which(APP):
        _usage_exit(f"rollouts: {APP} is not installed (scripts/install-deps.sh installs gtk-3-examples)")

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    t_start = time.perf_counter()
    ray.init(
        num_cpus=a.cpus,
        include_dashboard=False,
        _node_ip_address="127.0.0.1",
        object_store_memory=100 * 1024 * 1024,
        log_to_driver=True,
    )
    t_init = time.perf_counter()
    failures: List[str] = []
    actors: List[Any] = []
    infos: Dict[int, Dict[str, Any]] = {}
    created_s: Dict[int, float] = {}
    results: List[Dict[str, Any]] = []
    closes: List[Dict[str, Any]] = []
    t_ready = t_eps = t_closed = t_init
    ray_procs: List[Tuple[int, str]] = []
    on_desktops: set = set()
    try:
        # An equal share of the node per actor, so all of them are placed.
        share = min(1.0, a.cpus / a.actors)
        actors = [
            Desktop.options(num_cpus=share).remote(  # type: ignore[attr-defined]
                k, cup_bin, APP, a.max_lifetime, a.ready_timeout
            )
            for k in range(a.actors)
        ]
        pending = {actors[k].info.remote(): k for k in range(a.actors)}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            k = pending.pop(done[0])
            try:
                infos[k] = ray.get(done[0])
                created_s[k] = time.perf_counter() - t_init
            except Exception as e:
                failures.append(f"actor {k} did not start: {_short(e)}")
        t_ready = time.perf_counter()

        live = sorted(infos)
        refs = {(k, i): actors[k].episode.remote(i) for k in live for i in range(a.episodes)}
        for (k, i), ref in refs.items():
            try:
                results.append(ray.get(ref))
            except Exception as e:
                failures.append(f"actor {k} episode {i}: {_short(e)}")
        t_eps = time.perf_counter()

        finals = []
        for k in live:
            try:
                finals.append(ray.get(actors[k].final_states.remote()))
            except Exception as e:
                failures.append(f"actor {k} final states: {_short(e)}")
        failures += _isolation(infos, finals)
    finally:
        ray_procs = _ray_processes()
        on_desktops.clear()
        for info in infos.values():
            on_desktops |= {info["serve_pid"], *_descendants(info["serve_pid"])}
        for k, actor in enumerate(actors):
            if k not in infos:  # never started: its __init__ stopped its server
                ray.kill(actor)
                continue
            try:
                closes.append(ray.get(actor.close.remote(), timeout=60))
            except Exception as e:
                failures.append(f"actor {k} close: {_short(e)}")
        t_closed = time.perf_counter()
        if a.pids_file:
            with open(a.pids_file, "w") as f:
                f.writelines(f"{pid} {st}\n" for pid, st in ray_procs)
        ray.shutdown()

    for c in closes:
        if c["exit"] != 0:
            failures.append(f"actor {c['index']}: cup serve exit {c['exit']}\n{c['tail']}")
        if not c["env_file_removed"]:
            failures.append(f"actor {c['index']}: the env file outlived cup serve")
        if c["leftovers"]:
            failures.append(f"actor {c['index']}: processes left after cup serve: {c['leftovers']}")
    # Ray's own processes (GCS, raylet, workers) end with ray.shutdown().
    deadline = time.monotonic() + 15
    while _alive(ray_procs) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = _alive(ray_procs)
    if left:
        failures.append(f"processes of this Ray session still running after ray.shutdown(): {left}")
    t_end = time.perf_counter()

    _report(a, infos, created_s, results, closes, {
        "ray.init": t_init - t_start,
        "actors ready": t_ready - t_init,
        "episodes": t_eps - t_ready,
        "close (SIGTERM, exit)": t_closed - t_eps,
        "ray.shutdown, processes gone": t_end - t_closed,
        "total": t_end - t_start,
    }, (sum(p not in on_desktops for p, _ in ray_procs), sum(p in on_desktops for p, _ in ray_procs)))
    expected = a.actors * a.episodes
    if failures:
        print(f"\nFAILED ({len(failures)}):")
        for failure in failures:
            print(f"  - {failure}")
        print(f"\nrollouts: {len(results)} of {expected} episodes finished; FAILED")
        return 1
    print(f"\nrollouts: {len(results)} of {expected} episodes finished; "
          f"{a.actors} desktops, isolation checks passed, every cup serve exited 0, "
          f"no Ray process left; OK")
    return 0


def _short(e: BaseException) -> str:
    """The cause of a Ray error without its traceback: from the last
    exception line (RuntimeError, CupError, ...) to the end."""
    lines = [l.rstrip() for l in str(e).strip().splitlines() if l.strip()]
    if not lines:
        return repr(e)
    starts = [n for n, l in enumerate(lines) if "Error:" in l and not l.startswith(" ")]
    return "\n".join(lines[starts[-1]:] if starts else lines[-1:]).strip()


def _isolation(infos: Dict[int, Dict[str, Any]], finals: List[Dict[str, Any]]) -> List[str]:
    """One window per desktop, started by that desktop's own server; distinct
    desktops; each ends in its own actor's states."""
    bad = []
    for k, info in sorted(infos.items()):
        titles = info["windows"]
        if len(titles) != 1 or APP not in titles[0]:
            bad.append(f"actor {k} sees {len(titles)} windows, want one {APP}: {titles}")
        if info["app_parents"] != [info["serve_pid"]]:
            bad.append(f"actor {k}: window pids {info['app_pids']} have parents "
                       f"{info['app_parents']}, not its cup serve {info['serve_pid']}")
    for field in ("sandbox", "bus", "serve_pid", "url"):
        values = [i[field] for i in infos.values()]
        if len(set(values)) != len(values):
            bad.append(f"actors share a {field}: {values}")
    pids = [p for i in infos.values() for p in i["app_pids"]]
    if len(set(pids)) != len(pids):
        bad.append(f"two actors see the same app process: {pids}")
    for f in finals:
        if f["wrong"]:
            bad.append(f"actor {f['index']}: widget states not its own: {f['wrong']}")
    flips = [tuple(f["flipped"]) for f in finals]
    if len(finals) > 1 and len(set(flips)) == 1:
        # Not a failure of cup: the check cannot tell desktops apart then.
        print("note: all actors flipped the same widgets; the final-state check is weak")
    return bad


def _report(a, infos, created_s, results, closes, phases, n_ray) -> None:
    print(f"\nRay {ray.__version__}, {a.actors} actors x {a.episodes} episodes, "
          f"{a.cpus:g} CPUs, {os.cpu_count()} cores on this machine, app {APP}")
    print("\nphase                           seconds")
    for name, s in phases.items():
        print(f"  {name:<30}{s:7.2f}")
    print(f"  (processes under the driver before the close: {n_ray[0]} of Ray, "
          f"{n_ray[1]} of the desktops; all gone at the end)")

    by_actor: Dict[int, List[Dict[str, Any]]] = {}
    for r in results:
        by_actor.setdefault(r["actor"], []).append(r)
    closed = {c["index"]: c for c in closes}
    print("\nactor  ready   serve ready  desktop   episodes  ep p50  ep p95  snap p50  act p50  "
          "effects        stop  exit")
    print("       (s)*    (ms)**                           (ms)    (ms)    (ms)      (ms)"
          "                   (ms)")
    for k in range(a.actors):
        info = infos.get(k)
        rs = by_actor.get(k, [])
        c = closed.get(k, {})
        eps = [r["episode_ms"] for r in rs]
        snaps = [r["snapshot_ms"] for r in rs]
        acts = [r["action_ms"] for r in rs]
        eff = ",".join(f"{e}:{n}" for e, n in Counter(r["effect"] for r in rs).items()) or "-"
        def f(xs: List[float], q: float) -> str:
            return f"{_pct(xs, q):6.0f}" if xs else "     -"

        def num(v: Optional[float], width: int, fmt: str) -> str:
            return format(v, fmt).rjust(width) if v is not None else "-".rjust(width)

        print(
            f"{k:>5}  {num(created_s.get(k), 5, '.1f')}  "
            f"{num((info or {}).get('ready_ms', {}).get('session'), 11, '.0f')}  "
            f"{str((info or {}).get('display', '-')):<8}  "
            f"{len(rs):>3}/{a.episodes:<4}  {f(eps, 50)}  {f(eps, 95)}  {f(snaps, 50)}    "
            f"{f(acts, 50)}   {eff:<13} {num(c.get('stop_ms'), 5, '.0f')}  {c.get('exit', '-')}"
        )
    print("  * from the end of ray.init to the actor's first answer (worker start + desktop)")
    print("  ** inside the actor: cup serve started -> /readyz 200 -> env loaded -> cup.Session()")

    eps = [r["episode_ms"] for r in results]
    snaps = [r["snapshot_ms"] for r in results]
    acts = [r["action_ms"] for r in results]
    ready = list(created_s.values())
    serve = [i["ready_ms"]["readyz"] for i in infos.values()]
    print("\nall actors")
    if ready:
        print(f"  actor ready p50 / max        {_pct(ready, 50):.1f} / {max(ready):.1f} s "
              f"(cup serve /readyz p50 {_pct(serve, 50):.0f} ms)")
    print(f"  episodes finished            {len(results)} of {a.actors * a.episodes}")
    if eps:
        print(f"  episode p50 / p95            {_pct(eps, 50):.0f} / {_pct(eps, 95):.0f} ms")
        print(f"  snapshot p50 / p95           {_pct(snaps, 50):.0f} / {_pct(snaps, 95):.0f} ms")
        print(f"  action p50 / p95             {_pct(acts, 50):.0f} / {_pct(acts, 95):.0f} ms")
        print(f"  effects                      {dict(Counter(r['effect'] for r in results))}")
        span = phases["episodes"]
        print(f"  episodes/s (all actors)      {len(results) / span:.1f}")
    print(f"  total wall time              {phases['total']:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
