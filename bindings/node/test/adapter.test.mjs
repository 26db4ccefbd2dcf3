// A platform written in JavaScript (Session.create({ adapter })): an
// adapter of the test's own serving a real tree, recorded from
// gtk3-widget-factory on the sandbox desktop with cup (test/fixtures/
// gtk3-widget-factory.json: `Session.snapshot({ compact: false })`). cup
// numbers the ids, builds the envelope, prunes, writes the compact text,
// searches, pages and batches; actions come back to the adapter with its
// own references.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Session, serializeCompact, validateEnvelope } from "cup-rs";

const recorded = JSON.parse(readFileSync(new URL("./fixtures/gtk3-widget-factory.json", import.meta.url), "utf8"));

/** The tree with the adapter's own ids (`gtk-…`), so cup's numbering shows. */
function relabel(nodes) {
  return nodes.map((n) => ({ ...n, id: `gtk-${n.id.slice(1)}`, children: n.children ? relabel(n.children) : undefined }));
}

class RecordedAdapter {
  platformName = "linux";
  calls = [];
  async initialize() {}
  async getScreenInfo() {
    return [recorded.screen.w, recorded.screen.h, recorded.screen.scale ?? 1];
  }
  async getWindowList() {
    return recorded.windows.map((w) => ({ ...w }));
  }
  async getForegroundWindow() {
    const w = recorded.windows.find((x) => x.foreground) ?? recorded.windows[0];
    return { handle: "fg", title: w.title, pid: w.pid ?? null };
  }
  async getAllWindows() {
    return [await this.getForegroundWindow()];
  }
  async getDesktopWindow() {
    return null;
  }
  async captureTree(windows, options) {
    this.calls.push(["captureTree", windows.map((w) => w.title), options?.maxDepth]);
    const tree = relabel(recorded.tree);
    const refs = new Map();
    const walk = (ns) => ns.forEach((n) => (refs.set(n.id, { ref: n.id }), walk(n.children ?? [])));
    walk(tree);
    return [tree, { nodes: refs.size, max_depth: 0, roles: {} }, refs];
  }
  async action(nativeRef, action, params) {
    this.calls.push(["action", nativeRef.ref, action, params]);
    return { success: true, message: `${action} on ${nativeRef.ref}` };
  }
  async press(combo) {
    this.calls.push(["press", combo]);
    return { success: true, message: `pressed ${combo}` };
  }
}

test("cup's envelope, ids, compact text, search and paging over a JavaScript adapter", async () => {
  const adapter = new RecordedAdapter();
  const s = await Session.create({ adapter });
  try {
    assert.equal(s.platformName, "linux");
    const env = await s.snapshot({ compact: false });
    assert.deepEqual(env.tree, recorded.tree, "cup's ids, pre-order, the adapter's tree otherwise as given");
    assert.deepEqual(validateEnvelope(env), []);
    assert.equal(env.scope, "foreground");
    const text = await s.snapshot();
    assert.equal(text, serializeCompact({ ...env, windows: undefined }, { windowList: recorded.windows }), "the same compact text as cup's renderer");
    assert.match(text, /^# CUP 0\.1\.0 \| linux \| 1920x1080\n/);
    assert.deepEqual(adapter.calls.at(-1), ["captureTree", [recorded.windows.find((w) => w.foreground).title], 999]);

    const [hit] = await s.find({ role: "checkbox", name: "checkbutton" });
    assert.equal(hit.role, "checkbox");
    const r = await s.action(hit.id, "toggle");
    assert.equal(r.success, true);
    assert.equal(r.effect, "unverified", "cup cannot watch a JavaScript platform: it says so");
    assert.deepEqual(adapter.calls.at(-1), ["action", `gtk-${hit.id.slice(1)}`, "toggle", {}]);

    const started = Date.now();
    const results = await s.batchExecute([
      { element_id: hit.id, action: "click" },
      { action: "wait", ms: 120 },
      { action: "press_keys", keys: "ctrl+a" },
    ]);
    assert.equal(results.length, 3);
    assert.ok(results.every((x) => x.success), JSON.stringify(results));
    assert.ok(Date.now() - started >= 120);
    assert.deepEqual(adapter.calls.at(-1), ["press", "ctrl+a"]);
    const stopped = await s.batch([{ element_id: "e999999", action: "click" }, { action: "press", keys: "a" }]);
    assert.equal(stopped.length, 1);
    assert.match(stopped[0].error, /e999999/);

    // A container with items: a page of them from cup's pager.
    const withItems = [];
    const walk = (ns) => ns.forEach((n) => ((n.children?.length ?? 0) >= 3 && withItems.push(n), walk(n.children ?? [])));
    walk(env.tree);
    assert.ok(withItems.length > 0);
    const page = await s.page(withItems[0].id, { offset: 1, limit: 2 });
    assert.match(page, new RegExp(`^# page ${withItems[0].id} \\| items 2-3 of \\d+`));

    const shallow = await s.snapshot({ compact: false, maxDepth: 1 });
    assert.ok(shallow.tree.every((n) => (n.children ?? []).every((c) => !c.children?.length)));
  } finally {
    await s.close();
  }
});

test("what a JavaScript adapter cannot do is an Error that says what to add", async () => {
  const adapter = new RecordedAdapter();
  delete adapter.press;
  adapter.press = undefined;
  const s = await Session.create({ adapter });
  try {
    await s.snapshot();
    await assert.rejects(s.press("ctrl+s"), /this session's adapter cannot press keys; give it the method/);
    await assert.rejects(s.action("e1", "fly"), /Unknown action 'fly'/);
    await assert.rejects(s.action("e999999", "click"), /e999999/);
    await assert.rejects(s.screenshot(), /takes no screenshots/);
  } finally {
    await s.close();
  }
  await assert.rejects(Session.create({ adapter: { platformName: "linux" } }), /the adapter has no getScreenInfo\(\)/);
  await assert.rejects(Session.create({ adapter: { ...new RecordedAdapter(), platformName: "amiga", getScreenInfo() {}, getForegroundWindow() {}, getAllWindows() {}, getWindowList() {}, getDesktopWindow() {}, captureTree() {} } }), /platformName "amiga"/);
});
