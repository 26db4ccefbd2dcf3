// platform "android": the Session talks to Debian's real adb server
// (started here on a private port and home, stopped by its pid). No phone
// is connected, so the first call gives cup's one-line error; driving a
// phone is tested in crates/cup-android and the CLI's tests, with a device
// of the tests' own.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import net from "node:net";
import { Session } from "cup-rs";

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const listening = (port) =>
  new Promise((resolve) => {
    const c = net.connect(port, "127.0.0.1");
    c.on("connect", () => { c.destroy(); resolve(true); });
    c.on("error", () => resolve(false));
  });

test("an android Session asks the adb server for its phone", async () => {
  const port = await freePort();
  const home = mkdtempSync(join(tmpdir(), "cup-node-adb-"));
  const server = spawn("adb", ["-P", String(port), "nodaemon", "server"], {
    env: { ...process.env, HOME: home },
    stdio: "ignore",
  });
  const spawned = new Promise((resolve, reject) => {
    server.on("spawn", resolve);
    server.on("error", (e) => reject(new Error(`adb is missing (apt install adb): ${e.message}`)));
  });
  try {
    await spawned;
    const until = Date.now() + 10_000;
    while (!(await listening(port))) {
      assert.ok(Date.now() < until, "the adb server did not listen");
      await new Promise((r) => setTimeout(r, 50));
    }
    process.env.ANDROID_ADB_SERVER_PORT = String(port);
    delete process.env.ANDROID_SERIAL;
    const s = await Session.create({ platform: "android" });
    assert.equal(s.platformName, "android");
    await assert.rejects(s.snapshot(), (e) => /^no Android device is connected; plug one in/.test(e.message) && !e.message.includes("\n"));
    const named = await Session.create({ platform: "android", serial: "R58M123" });
    await assert.rejects(named.snapshot(), /no device R58M123 is connected/);
  } finally {
    delete process.env.ANDROID_ADB_SERVER_PORT;
    server.kill("SIGKILL");
    rmSync(home, { recursive: true, force: true });
  }
});

test("an ios Session says when no WebDriverAgent answers", async () => {
  const port = await freePort();
  const s = await Session.create({ platform: "ios", wdaUrl: `http://127.0.0.1:${port}` });
  assert.equal(s.platformName, "ios");
  await assert.rejects(s.snapshot(), (e) => e.message.startsWith(`no WebDriverAgent answers at http://127.0.0.1:${port}`) && e.message.includes("forward port 8100"));
  await assert.rejects(async () => Session.create({ platform: "ios", wdaUrl: "https://phone.local" }), /WebDriverAgent serves plain http/);
});
