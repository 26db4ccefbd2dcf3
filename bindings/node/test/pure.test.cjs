// The pure helpers and the package's shape, from CommonJS: no desktop.

const { test } = require("node:test");
const assert = require("node:assert/strict");
const cup = require("cup-rs");

const tree = [
  {
    id: "e0",
    role: "window",
    name: "Orders",
    bounds: { x: 0, y: 0, w: 800, h: 600 },
    children: [
      { id: "e1", role: "button", name: "Submit order", actions: ["click"], bounds: { x: 10, y: 10, w: 80, h: 20 } },
      { id: "e2", role: "textbox", name: "Search", states: ["focused"], actions: ["type", "setvalue"], bounds: { x: 10, y: 40, w: 200, h: 20 } },
      { id: "e3", role: "generic", name: "" },
    ],
  },
];

test("the API of both generations is there, in CommonJS and ESM alike", async () => {
  for (const name of [
    "Session", "snapshot", "snapshotRaw", "overview", "getTree", "getForegroundTree", "getCompact",
    "getForegroundCompact", "getOverview", "getAdapter", "detectPlatform", "buildEnvelope", "serializeCompact",
    "serializeOverview", "serializePage", "pruneTree", "formatLine", "findNodeById", "searchTree", "resolveRoles",
    "tokenize", "parseCombo", "ActionExecutor", "VALID_ACTIONS", "ROLE_CODES", "STATE_CODES", "ACTION_CODES",
    "ROLE_SYNONYMS", "ALL_ROLES", "validateEnvelope", "version",
  ]) {
    assert.ok(name in cup, name);
  }
  for (const m of ["capture", "execute", "pressKeys", "launchApp", "findElements", "batchExecute", "screenshot",
    "snapshot", "action", "press", "openApp", "find", "page", "batch", "close"]) {
    assert.equal(typeof cup.Session.prototype[m], "function", m);
  }
  const esm = await import("cup-rs");
  assert.equal(esm.Session, cup.Session, "one module instance for import and require");
  assert.equal(esm.default.searchTree, cup.searchTree);
});

test("code tables, synonyms and actions come from cup's vocabulary", () => {
  assert.equal(Object.keys(cup.ROLE_CODES).length, 59);
  assert.equal(Object.keys(cup.STATE_CODES).length, 16);
  assert.equal(Object.keys(cup.ACTION_CODES).length, 15);
  assert.equal(cup.ROLE_CODES.button, "btn");
  assert.ok(cup.ALL_ROLES instanceof Set && cup.ALL_ROLES.size === 59);
  for (const r of cup.ALL_ROLES) assert.ok(cup.ROLE_SYNONYMS.has(r), r);
  assert.ok(cup.VALID_ACTIONS instanceof Set && cup.VALID_ACTIONS.has("press") && cup.VALID_ACTIONS.size === 16);
  assert.ok(cup.resolveRoles("search bar").has("searchbox"));
  assert.equal(cup.resolveRoles("zzz"), null);
  assert.deepEqual(cup.tokenize("Hello, Wörld!"), ["hello", "world"]);
  assert.deepEqual(cup.parseCombo("Ctrl+Shift+A"), [["ctrl", "shift"], ["a"]]);
  assert.throws(() => cup.parseCombo("ctrl+nosuchkey"), /nosuchkey/);
});

test("envelope, pruning, compact text, search, paging", () => {
  const env = cup.buildEnvelope(tree, { platform: "web", scope: "foreground", screenW: 800, screenH: 600, screenScale: 1 });
  assert.equal(env.screen.scale, undefined);
  assert.ok(Math.abs(env.timestamp - Date.now()) < 5000);
  assert.deepEqual(cup.validateEnvelope(env), []);
  const text = cup.serializeCompact(env, { windowList: [{ title: "Orders", foreground: true }] });
  assert.match(text, /^# CUP 0\.1\.0 \| web \| 800x600\n/);
  assert.ok(text.includes('[e1] btn "Submit order"'), text);
  assert.ok(!text.includes("[e3]"), "the unnamed generic is pruned");
  const pruned = cup.pruneTree(tree);
  assert.equal(JSON.stringify(pruned).includes('"e3"'), false);
  assert.equal(JSON.stringify(pruned).includes("_clipped"), false);
  assert.equal(cup.formatLine(tree[0].children[0]), '[e1] btn "Submit order" 10,10 80x20 [clk]');
  assert.equal(cup.findNodeById(tree, "e2").name, "Search");
  assert.equal(cup.findNodeById(tree, "e9"), null);
  const hits = cup.searchTree(tree, { query: "submit button" });
  assert.equal(hits[0].node.id, "e1");
  assert.ok(hits[0].score > 0 && hits[0].node.children === undefined);
  const overview = cup.serializeOverview([{ title: "Orders", foreground: true, pid: 7 }], { platform: "linux", screenW: 800, screenH: 600 });
  assert.match(overview, /Orders/);
  const list = { id: "e5", role: "list", name: "Items", children: [] };
  const items = Array.from({ length: 3 }, (_, i) => ({ id: `e${6 + i}`, role: "listitem", name: `Item ${i}` }));
  const page = cup.serializePage(list, items.slice(1), 1, 3);
  assert.match(page, /^# page e5 \| items 2-3 of 3 \| lst "Items"/);
  assert.match(page, /# 1 before/);
});

test("bad input is an Error with cup's one-line message", () => {
  assert.throws(() => cup.serializeCompact({ version: "0.1.0", platform: "web", screen: { w: 1, h: 1 }, tree: [{ id: "e0", role: "wizard", name: "" }] }), /not valid CUP/);
  assert.throws(() => cup.searchTree(tree, { state: "shiny" }), /state "shiny" is not a CUP state/);
  assert.throws(() => cup.pruneTree(tree, { detail: "everything" }), /detail "everything"/);
  const e = (() => { try { cup.parseCombo("ctrl+nosuchkey"); } catch (x) { return x; } })();
  assert.ok(e instanceof Error && !e.message.includes("\n"));
});

test("ActionExecutor turns problems into failed results", async () => {
  const calls = [];
  const exe = new cup.ActionExecutor({
    async action(id, a, p) { calls.push([id, a, p]); return { success: true, message: "ok" }; },
    async press(k) { calls.push(["press", k]); return { success: true, message: "pressed" }; },
    async openApp() { throw new Error("no app"); },
  });
  assert.equal((await exe.action("e1", "fly")).success, false);
  assert.match((await exe.action("e1", "fly")).error, /Unknown action 'fly'\. Valid: click,/);
  assert.equal((await exe.action("e1", "press", {})).error, "Action 'press' requires a 'keys' parameter");
  assert.equal((await exe.action("e1", "click")).success, true);
  assert.equal((await exe.press("ctrl+s")).message, "pressed");
  assert.equal((await exe.openApp("x")).error, "no app");
  assert.deepEqual(calls, [["e1", "click", {}], ["press", "ctrl+s"]]);
});
