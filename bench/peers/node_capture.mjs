#!/usr/bin/env node
// Times a Node package with the CUP TypeScript API (`Session.create`,
// `session.snapshot()`) in process, for `node-capture` (bench/cup-bench).
//
// Two packages have that API: cup's own (cup-rs, bindings/node: a napi-rs
// addon under a TypeScript layer) and the reference TypeScript CUP SDK
// (computeruseprotocol 0.1.0, built from its source). The package is loaded
// from a file, as `import { Session } from "<package>"` resolves it:
//
//   node bench/peers/node_capture.mjs --module bindings/node/index.mjs \
//       --platform web --cdp-url http://127.0.0.1:9222 --runs 9
//
// --platform desktop: `Session.create()` on the desktop of the environment
// (DISPLAY, DBUS_SESSION_BUS_ADDRESS, AT_SPI_BUS_ADDRESS, ...).
// --platform web: `Session.create({ platform: "web", cdpUrl })`; the
// reference takes no address and reads CUP_CDP_HOST / CUP_CDP_PORT, which
// the bench sets for both.
//
// Warm mode: the session is created (not timed), then 1 warm-up and N timed
// `await session.snapshot()` calls (foreground scope, compact text, the
// defaults of both packages), each with its wall time (performance.now) and
// the process's CPU time (process.cpuUsage: every thread, user + system).
// Prints one JSON object on its last stdout line:
//
//   {"times_ms": [...], "cpu_ms": [...], "text": "<last compact text>",
//    "nodes_per_run": [...], "warmup_nodes": n, "init_ms": <import + create>,
//    "main_thread_cpu_ms": m, "io_thread_cpu_ms": m (cup-rs's cup-io thread,
//    else null; the mean per timed capture, /proc/self/task/*/schedstat),
//    "package": "cup-rs 0.1.0", "node": "v20...", ...}
//
// --cold: a fresh process for the import + first capture: nothing before
// `import()` but this script's own start; then `Session.create` and the
// first `snapshot()`. It prints the parts (node_start_ms: the time from the
// process's start, performance.timeOrigin, to this script's first line;
// import_ms, session_ms, first_snapshot_ms) and first_text_epoch_ms, the
// Unix time in ms when the first text was there, from which the bench
// computes spawn -> first text on its own clock.
//
// Node counts: the compact header's "(N before pruning)", the envelope's
// node count before pruning, for both packages.

const nodeStartMs = performance.now();

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

function usage(msg) {
  process.stderr.write(`node_capture.mjs: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { runs: 9, cold: false, platform: "desktop", cdpUrl: null, module: null, timeoutMs: 120_000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--module") o.module = value();
    else if (a === "--platform") o.platform = value();
    else if (a === "--cdp-url") o.cdpUrl = value();
    else if (a === "--runs") o.runs = Number.parseInt(value(), 10);
    else if (a === "--timeout-ms") o.timeoutMs = Number.parseInt(value(), 10);
    else if (a === "--cold") o.cold = true;
    else usage(`unknown argument ${a}`);
  }
  if (!o.module) usage("--module FILE is required");
  if (!["desktop", "web"].includes(o.platform)) usage(`--platform ${o.platform}: desktop or web`);
  if (!(o.runs >= 1)) usage("--runs needs a whole number >= 1");
  return o;
}

/** name and version from the package.json nearest above the module file. */
function packageOf(file) {
  let dir = dirname(resolve(file));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (pkg.name) return `${pkg.name} ${pkg.version}`;
    } catch {
      // not here
    }
    dir = dirname(dir);
  }
  return "unknown";
}

/** The envelope's node count before pruning, from the compact header. */
function nodesOf(text) {
  const m = /\((\d+) before pruning\)/.exec(text);
  return m ? Number(m[1]) : null;
}

/** `promise`, or an error naming `what` after `ms`. */
function deadline(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * CPU time so far (ms) of this process's threads by name, from
 * /proc/self/task/<tid>/schedstat (nanoseconds on the CPU): cup-rs works on
 * a thread of its own (cup-io), JavaScript on the main thread (named after
 * the program, node). Empty off Linux.
 */
function threadCpu() {
  const out = new Map();
  let tids = [];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim();
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      const key = tid === String(process.pid) ? "main" : comm;
      out.set(key, (out.get(key) ?? 0) + ns / 1e6);
    } catch {
      // the thread ended
    }
  }
  return out;
}

function cpuMs(since) {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e3;
}

function fail(stage, e) {
  const msg = (e && e.message ? e.message : String(e)).split("\n")[0];
  process.stderr.write(`node_capture.mjs: ${stage} failed: ${msg}\n`);
  process.exit(1);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  let mod;
  try {
    mod = await import(pathToFileURL(resolve(o.module)).href);
  } catch (e) {
    fail(`import ${o.module}`, e);
  }
  const imported = performance.now();
  const Session = mod.Session ?? mod.default?.Session;
  if (typeof Session?.create !== "function") fail("import", new Error(`${o.module} exports no Session.create`));
  const createOptions = o.platform === "web" ? { platform: "web", ...(o.cdpUrl ? { cdpUrl: o.cdpUrl } : {}) } : undefined;
  let session;
  try {
    session = await deadline(Session.create(createOptions), o.timeoutMs, "Session.create");
  } catch (e) {
    fail(`Session.create(${createOptions ? JSON.stringify(createOptions) : ""})`, e);
  }
  const created = performance.now();
  const snap = async (what) => {
    try {
      const text = await deadline(session.snapshot(), o.timeoutMs, what);
      if (typeof text !== "string") throw new Error(`snapshot() returned ${typeof text}, not compact text`);
      return text;
    } catch (e) {
      fail(what, e);
    }
  };
  const pkg = packageOf(o.module);
  let out;
  if (o.cold) {
    const text = await snap("the first snapshot()");
    const done = performance.now();
    out = {
      times_ms: [done - t0],
      text,
      nodes_per_run: [nodesOf(text)],
      init_ms: created - t0,
      node_start_ms: nodeStartMs,
      import_ms: imported - t0,
      session_ms: created - imported,
      first_snapshot_ms: done - created,
      first_text_epoch_ms: performance.timeOrigin + done,
    };
  } else {
    const warm = await snap("the warm-up snapshot()");
    const times_ms = [];
    const cpu_ms = [];
    const nodes_per_run = [];
    // CPU of the main thread and of cup-rs's I/O thread over all the
    // timed runs (read once before and once after: reading /proc in
    // between would count on the main thread).
    const before = threadCpu();
    let text = "";
    for (let i = 1; i <= o.runs; i++) {
      const c = process.cpuUsage();
      const t = performance.now();
      text = await snap(`snapshot() ${i}`);
      times_ms.push(performance.now() - t);
      cpu_ms.push(cpuMs(c));
      nodes_per_run.push(nodesOf(text));
    }
    const after = threadCpu();
    const perRun = (name) => (after.has(name) ? (after.get(name) - (before.get(name) ?? 0)) / o.runs : null);
    out = {
      times_ms,
      cpu_ms,
      text,
      nodes_per_run,
      warmup_nodes: nodesOf(warm),
      init_ms: created - t0,
      main_thread_cpu_ms: perRun("main"),
      io_thread_cpu_ms: perRun("cup-io"),
    };
  }
  out.package = pkg;
  out.node = process.version;
  out.call = o.platform === "web" ? "Session.create({ platform: \"web\" }); snapshot()" : "Session.create(); snapshot()";
  process.stdout.write(`${JSON.stringify(out)}\n`);
  try {
    if (typeof session.close === "function") await session.close();
  } catch {
    // closing is not measured
  }
  process.exit(0);
}

main().catch((e) => fail("the script", e));
