// The Session on a real desktop (a private sandbox: Xvfb, D-Bus, AT-SPI,
// gtk3-widget-factory), through both API generations, from ESM.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Session, getAdapter, getForegroundCompact, getOverview, getForegroundTree, validateEnvelope } from "cup-rs";
import { startDesktop, idOf, lineOf, PNG, longestStall } from "./helpers.mjs";

let desktop;
before(() => {
  desktop = startDesktop();
});
after(() => desktop?.stop());

test("snapshot → action (effect confirmed) → snapshot shows it (the reference's names)", async () => {
  const s = await Session.create();
  try {
    assert.equal(s.platformName, "linux");
    const text = await s.snapshot();
    assert.match(text, /^# CUP 0\.1\.0 \| linux \| 1920x1080\n/);
    const check = idOf(text, 'chk "checkbutton"', "[clk,tog]");
    const before = lineOf(text, check).includes("{chk");
    const r = await s.action(check, "toggle");
    assert.equal(r.success, true, JSON.stringify(r));
    assert.equal(r.effect, "confirmed", JSON.stringify(r));
    assert.ok(r.changes.some((c) => c.field === "states"), JSON.stringify(r.changes));
    const after = await s.snapshot();
    assert.notEqual(lineOf(after, idOf(after, 'chk "checkbutton"')).includes("{chk"), before);
    const env = await s.snapshot({ compact: false });
    assert.equal(env.version, "0.1.0");
    assert.equal(env.scope, "foreground");
    assert.deepEqual(validateEnvelope(env), []);
    // Put it back so reruns start the same.
    const back = await s.action(idOf(after, 'chk "checkbutton"'), "toggle");
    assert.equal(back.effect, "confirmed");
    // Only what changed since the last snapshot: the check button, by its id.
    const changed = await s.snapshot({ since: "last" });
    assert.match(changed, /# changes since s/);
    assert.equal(lineOf(changed, idOf(after, 'chk "checkbutton"')).includes("{chk"), before);
    assert.ok(changed.length * 10 <= after.length, changed);
    // Without bounds: the same lines, none with x,y wxh.
    const byId = await s.snapshot({ bounds: false });
    const whole = await s.snapshot();
    assert.equal(byId.split("\n").length, whole.split("\n").length, byId);
    assert.doesNotMatch(byId, /\] \w+ ("[^"]*" )?-?\d+,-?\d+ \d+x\d+/);
    assert.match(whole, /\] \w+ ("[^"]*" )?-?\d+,-?\d+ \d+x\d+/);
    // Within a token budget: fewer lines, each a whole line of the whole
    // text (Rust's tests count the tokens exactly), and the header says so.
    const budgeted = await s.snapshot({ maxTokens: 300 });
    assert.match(budgeted, /# max_tokens 300: /);
    const body = budgeted.split("\n\n")[1].split("\n").filter((l) => l && !l.trimStart().startsWith("#"));
    const wholeLines = new Set(whole.split("\n"));
    assert.ok(body.length > 0 && body.every((l) => wholeLines.has(l)), budgeted);
    assert.ok(budgeted.length < whole.length, budgeted);
    // Waiting: for an element (found in a fresh snapshot, its id valid),
    // for the load (a desktop has no loading note), and a timeout.
    const waited = await s.wait({ query: "checkbutton" });
    assert.equal(waited.element.name, "checkbutton");
    assert.ok((await s.snapshot()).includes(`[${waited.element.id}] chk "checkbutton"`));
    assert.equal((await s.wait({ until: "load" })).element, null);
    await assert.rejects(s.wait({ name: "zqxwv", timeoutMs: 300 }), /nothing matched/);
    await assert.rejects(s.wait({ until: "idle" }), /use "load"/);
  } finally {
    // What `await using` calls (Node 24 has the syntax; TypeScript lowers it).
    await s[Symbol.asyncDispose]();
    assert.equal(s.closed, true);
  }
});

test("capture → execute → findElements, pressKeys, screenshot, batchExecute (the seed's names)", async () => {
  const s = await Session.create("linux");
  try {
      const { compact } = await s.capture({ detail: "standard" });
      assert.match(compact, /^# CUP 0\.1\.0 \| linux/);
      const { envelope } = await s.capture({ compact: false });
      assert.ok(envelope.tree.length > 0);
      const hits = await s.findElements({ query: "checkbutton" });
      assert.ok(hits.length > 0 && hits.length <= 10);
      assert.equal(hits[0].role, "checkbox");
      assert.equal(hits[0].children, undefined);
      const one = await s.find({ role: "checkbox", name: "checkbutton", limit: 1 });
      assert.equal(one[0].id, hits[0].id);
      // (the first hit may be the factory's disabled check box)
    const enabled = idOf((await s.capture()).compact, 'chk "checkbutton"');
    const r = await s.execute(enabled, "toggle");
      assert.equal(r.effect, "confirmed", JSON.stringify(r));
      const pressed = await s.pressKeys("shift");
      assert.equal(pressed.success, true);
      const b64 = await s.screenshot();
      assert.equal(typeof b64, "string");
      const png = Buffer.from(b64, "base64");
      assert.deepEqual(png.subarray(0, 8), PNG);
      const region = await s.screenshot({ x: 0, y: 0, w: 64, h: 32 }, { encoding: "buffer" });
      assert.ok(Buffer.isBuffer(region));
      assert.deepEqual(region.subarray(0, 8), PNG);
      assert.equal(region.readUInt32BE(16), 64);
      assert.equal(region.readUInt32BE(20), 32);
      const text = (await s.capture()).compact;
      const check = idOf(text, 'chk "checkbutton"');
      const started = Date.now();
      const results = await s.batchExecute([
        { element_id: check, action: "toggle" },
        { action: "wait", ms: 300 },
        { action: "press_keys", keys: "shift" },
      ]);
      assert.equal(results.length, 3, JSON.stringify(results));
      assert.ok(results.every((x) => x.success), JSON.stringify(results));
      assert.equal(results[0].effect, "confirmed");
      assert.ok(Date.now() - started >= 300);
      const stop = await s.batch([{ element_id: "e99999", action: "click" }, { action: "press", keys: "shift" }]);
      assert.equal(stop.length, 1);
      assert.equal(stop[0].success, false);
  } finally {
    await s.close();
  }
});

test("convenience functions and the adapter object", async () => {
  const fg = await getForegroundCompact();
  assert.match(fg, /^# CUP 0\.1\.0 \| linux/);
  assert.match(await getOverview(), /# overview \| \d+ window/);
  assert.ok((await getForegroundTree()).tree.length > 0);
  const a = await getAdapter();
  assert.equal(a.platformName, "linux");
  const [w, h, scale] = await a.getScreenInfo();
  assert.deepEqual([w, h, scale], [1920, 1080, 1]);
  const fgWin = await a.getForegroundWindow();
  const [tree, stats, refs] = await a.captureTree([fgWin]);
  assert.ok(tree.length === 1 && stats.nodes > 10 && refs.size === stats.nodes);
});

test("concurrent calls from several async tasks keep the event loop free", async () => {
  const s = await Session.create();
  try {
      await s.snapshot();
      const stall = await longestStall(async () => {
        const all = await Promise.all([
          s.snapshot(),
          s.snapshot({ scope: "overview" }),
          s.find({ query: "checkbutton" }),
          s.screenshot(),
          s.snapshot({ compact: false }),
          s.windows(),
        ]);
        assert.equal(all.length, 6);
        assert.ok(all.every((x) => x));
      });
      assert.ok(stall < 50, `the event loop stalled ${stall.toFixed(1)} ms`);
  } finally {
    await s.close();
  }
});

test("bad arguments are refused with cup's message; a closed session rejects", async () => {
  const s = await Session.create();
  await assert.rejects(s.snapshot({ scope: "everything" }), /scope "everything": use one of overview, foreground, desktop, full/);
  await assert.rejects(s.action("e1", "fly"), (e) => e instanceof Error && /Unknown action 'fly'/.test(e.message) && e.code === "InvalidArg");
  await assert.rejects(s.action("e1", "type"), /requires 'value'|needs a value|value/);
  await assert.rejects(s.action("e1", "scroll", { direction: "sideways" }), /up, down, left or right/);
  await assert.rejects(s.press("ctrl+nosuchkey"), /nosuchkey/);
  await assert.rejects(s.openApp("  "), /App name must not be empty/);
  await assert.rejects(s.screenshot({ x: 0, y: 0, w: -1, h: 5 }), /width and height positive/);
  await assert.rejects(s.find({ state: "shiny" }), /state "shiny" is not a CUP state/);
  await assert.rejects(Session.create("plan9"), /plan9/);
  await s.close();
  assert.equal(s.closed, true);
  await assert.rejects(s.snapshot(), /this Session is closed; make a new one with Session\.create\(\)/);
});
