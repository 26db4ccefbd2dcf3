// A program using the API, type-checked with `tsc --strict --noEmit`.
import {
  Session,
  getTree,
  getForegroundCompact,
  searchTree,
  serializeCompact,
  buildEnvelope,
  parseCombo,
  type ActionResult,
  type CupEnvelope,
  type CupNode,
  type PlatformAdapter,
} from "cup-rs";

export async function agent(): Promise<void> {
  await using session = await Session.create({ platform: "web", cdpPort: 9222 });
  const text: string = await session.snapshot();
  const env: CupEnvelope = await session.snapshot({ compact: false, scope: "full", app: "Orders" });
  const seed: { compact: string } = await session.capture({ detail: "standard" });
  const seedEnv: { envelope: CupEnvelope } = await session.capture({ compact: false });
  const r: ActionResult = await session.execute("e3", "type", { value: "hi" });
  if (r.effect === "confirmed") console.log(r.changes?.map((c) => c.field));
  const hits: CupNode[] = await session.findElements({ role: "button", name: "Submit" });
  const b64: string = await session.screenshot();
  const bytes: Buffer = await session.screenshot({ x: 0, y: 0, w: 10, h: 10 }, { encoding: "buffer" });
  const results: ActionResult[] = await session.batchExecute([
    { element_id: "e1", action: "click" },
    { action: "wait", ms: 200 },
    { action: "press_keys", keys: "enter" },
  ]);
  const page: string = await session.page("e7", { direction: "down" });
  const tree: CupEnvelope = await getTree();
  const fg: string = await getForegroundCompact();
  const [mods, keys]: [string[], string[]] = parseCombo("ctrl+s");
  const env2 = buildEnvelope(env.tree, { platform: "web", screenW: 1, screenH: 1 });
  const again: string = serializeCompact(env2);
  const best = searchTree(tree.tree, { query: "search box" })[0]?.score ?? 0;
  console.log(text, seed, seedEnv, hits, b64, bytes, results, page, fg, mods, keys, again, best);
}

export const adapter: PlatformAdapter = {
  platformName: "android",
  async initialize() {},
  async getScreenInfo() {
    return [1080, 2400, 2.75];
  },
  async getForegroundWindow() {
    return { handle: 1, title: "Settings", pid: 42 };
  },
  async getAllWindows() {
    return [];
  },
  async getWindowList() {
    return [{ title: "Settings", foreground: true }];
  },
  async getDesktopWindow() {
    return null;
  },
  async captureTree() {
    return [[], { nodes: 0, max_depth: 0, roles: {} }, new Map()];
  },
};
