// The Session on a page in headless Chromium (cup's web adapter), through
// both API generations.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Session } from "cup-rs";
import { startBrowser, idOf, PNG } from "./helpers.mjs";

let browser;
before(() => {
  browser = startBrowser();
});
after(() => browser?.stop());

test("type, click, and the page shows it; find, press, screenshot, batch", async () => {
  const s = await Session.create({ platform: "web", cdpUrl: browser.url });
  try {
    assert.equal(s.platformName, "web");
    const text = await s.snapshot();
    assert.match(text, /^# CUP 0\.1\.0 \| web \|/);
    assert.ok(text.includes('"Orders"'), text);
    const box = idOf(text, "tbx", "Search orders");
    const typed = await s.action(box, "type", { value: "A-1234" });
    assert.equal(typed.effect, "confirmed", JSON.stringify(typed));
    const [go] = await s.find({ role: "button", name: "Search" });
    const clicked = await s.execute(go.id, "click");
    assert.equal(clicked.effect, "confirmed", JSON.stringify(clicked));
    assert.ok((await s.snapshot()).includes("Found A-1234"));
    const { envelope } = await s.capture({ compact: false });
    assert.equal(envelope.platform, "web");
    const agree = idOf(await s.snapshot(), "chk", "I agree");
    const results = await s.batchExecute([
      { element_id: agree, action: "toggle" },
      { action: "wait", ms: 100 },
      { action: "press", keys: "tab" },
    ]);
    assert.ok(results.length === 3 && results.every((r) => r.success), JSON.stringify(results));
    assert.equal(results[0].effect, "confirmed");
    const png = Buffer.from(await s.screenshot(), "base64");
    assert.deepEqual(png.subarray(0, 8), PNG);
    const windows = await s.windows();
    assert.ok(windows.some((w) => w.title === "cup node test"), JSON.stringify(windows));
  } finally {
    await s.close();
  }
});
