// Fixtures of the package's live tests: the `cup` executable built beside
// the package, a private sandbox desktop running gtk3-widget-factory and a
// page in headless Chromium, all started by `cup` itself (its `sandbox` and
// `browser` commands) and stopped by their state files (by PID). A missing
// component fails the test with what to install; nothing is skipped.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const { cupExecutable } = require("../dist/locate.js");

/** Runs `cup ARGS`; throws with its stderr when it fails. */
export function cup(...args) {
  const done = spawnSync(cupExecutable(), args, { encoding: "utf8", timeout: 120_000 });
  if (done.status !== 0) {
    throw new Error(`cup ${args.join(" ")} failed (${done.status}): ${(done.stderr || "").trim()}`);
  }
  return done.stdout;
}

/** The variables of `export NAME=VALUE` lines. */
export function exports(text) {
  const out = {};
  for (const line of text.split("\n")) {
    const m = /^export ([A-Z_]+)=(.*)$/.exec(line);
    if (m) out[m[1]] = m[2].replace(/^'(.*)'$/, "$1").replace(/^"(.*)"$/, "$1");
  }
  return out;
}

/** A sandbox desktop with gtk3-widget-factory; its environment set in this process. */
export function startDesktop() {
  const dir = mkdtempSync(join(tmpdir(), "cup-node-sandbox-"));
  const state = join(dir, "state.json");
  const env = exports(cup("sandbox", "start", "--state", state));
  try {
    cup("sandbox", "run", "--state", state, "--", "gtk3-widget-factory");
  } catch (e) {
    spawnSync(cupExecutable(), ["sandbox", "stop", "--state", state]);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  Object.assign(process.env, env);
  return {
    env,
    stop() {
      spawnSync(cupExecutable(), ["sandbox", "stop", "--state", state]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const PAGE = `<!doctype html>
<html><head><title>cup node test</title></head>
<body>
  <h1>Orders</h1>
  <label for="q">Search orders</label>
  <input id="q" type="text" placeholder="order number">
  <button id="go" onclick="document.getElementById('out').textContent = 'Found ' + document.getElementById('q').value">Search</button>
  <label><input id="agree" type="checkbox"> I agree</label>
  <p id="out">Nothing yet</p>
  <ul>
    <li>First order</li>
    <li>Second order</li>
  </ul>
</body></html>
`;

/** A page in headless Chromium; its DevTools URL. */
export function startBrowser() {
  const dir = mkdtempSync(join(tmpdir(), "cup-node-browser-"));
  const page = join(dir, "page.html");
  writeFileSync(page, PAGE);
  const state = join(dir, "state.json");
  const env = exports(cup("browser", "start", "--headless", "--state", state, pathToFileURL(page).href));
  const url = env.CUP_CDP_URL || (env.CUP_CDP_PORT ? `http://127.0.0.1:${env.CUP_CDP_PORT}` : "");
  if (!url) throw new Error(`cup browser start printed no DevTools address: ${JSON.stringify(env)}`);
  return {
    url,
    stop() {
      spawnSync(cupExecutable(), ["browser", "stop", "--state", state]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The id of the first enabled element whose line contains every part. */
export function idOf(text, ...parts) {
  for (const line of text.split("\n")) {
    const states = / \{([a-z,]+)\}/.exec(line);
    if (states && states[1].split(",").includes("dis")) continue;
    if (parts.every((p) => line.includes(p))) {
      const m = /\[(e\d+)\]/.exec(line);
      if (m) return m[1];
    }
  }
  throw new Error(`no line with ${JSON.stringify(parts)} in:\n${text.slice(0, 3000)}`);
}

/** The line of element `id`. */
export function lineOf(text, id) {
  const line = text.split("\n").find((l) => l.trim().startsWith(`[${id}]`));
  if (!line) throw new Error(`no line ${id}`);
  return line;
}

export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Whether the event loop stalled: the longest gap between 10 ms ticks while `work` runs. */
export async function longestStall(work) {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return worst;
}

