/**
 * Session: captures and actions on this machine's desktop or a browser,
 * through cup's own Session (the Rust one the CLI, MCP server and Python
 * package use). Every call runs on the session's own thread; JavaScript's
 * event loop never waits for a capture or an action.
 */

import { native, type NativeSession, type NativeWhere } from "./native";
import type { PlatformAdapter } from "./adapter";
import type {
  ActionResult,
  BatchAction,
  CupEnvelope,
  CupNode,
  Detail,
  FindOptions,
  PageOptions,
  Rect,
  SnapshotOptions,
  Waited,
  WaitOptions,
  WindowInfo,
} from "./types";

/** Where a Session works; a string is the platform alone (the seed's form). */
export interface SessionOptions {
  /**
   * `desktop` (default: this machine), this machine's OS name (`linux`,
   * `windows`, `macos`), `web` (a Chromium over the DevTools protocol),
   * `android` (a phone over adb) or `ios` (an iPhone's WebDriverAgent).
   */
  platform?: string;
  /** The browser's DevTools address for `web` (`http://host:port` or its `ws://` URL). */
  cdpUrl?: string;
  /** DevTools host (default `$CUP_CDP_HOST`, else 127.0.0.1). */
  cdpHost?: string;
  /** DevTools port (default `$CUP_CDP_PORT`, else 9222). */
  cdpPort?: number;
  /** Android: the device's adb serial (default `$ANDROID_SERIAL`, else the only device connected). */
  serial?: string;
  /** iOS: WebDriverAgent's URL (default `$CUP_WDA_URL`, else `http://127.0.0.1:8100`). */
  wdaUrl?: string;
  /**
   * A platform written in JavaScript (the PlatformAdapter interface, plus
   * optional `action(nativeRef, action, params)`, `press(combo)`,
   * `openApp(name)` and `screenshot(region)` to act): cup numbers its ids,
   * builds the envelope, prunes, writes the compact text, searches and
   * pages as for its own platforms.
   */
  adapter?: JsAdapter;
}

/** A PlatformAdapter, with what it can do besides capturing. */
export type JsAdapter = PlatformAdapter & {
  action?(nativeRef: unknown, action: string, params: Record<string, unknown>): Promise<Partial<ActionResult>>;
  press?(combo: string): Promise<Partial<ActionResult>>;
  openApp?(name: string): Promise<Partial<ActionResult>>;
  screenshot?(region?: Rect | null): Promise<Buffer | Uint8Array>;
};

/** How screenshot() returns the PNG. */
export interface ScreenshotOptions {
  /** `base64` (default, the seed's contract) or `buffer` (the reference's: PNG bytes). */
  encoding?: "base64" | "buffer";
}

function checkDetail(detail: Detail | undefined): string | undefined {
  return detail === "standard" ? "compact" : detail;
}

function checkRegion(region: Rect | undefined | null): number[] | null {
  if (region == null) return null;
  const r = region as Partial<Rect>;
  const nums = [r.x, r.y, r.w, r.h];
  if (!nums.every((n) => typeof n === "number" && Number.isFinite(n))) {
    throw new TypeError("region must be { x, y, w, h } with numbers (screen pixels)");
  }
  return nums as number[];
}

/** A session on this machine's desktop or on a browser. */
export class Session implements AsyncDisposable {
  readonly #native: NativeSession;
  readonly #js: JsAdapter | null;
  /** The JavaScript adapter's references of its own ids, latest capture. */
  #refs: Map<string, unknown> = new Map();

  private constructor(n: NativeSession, js: JsAdapter | null = null) {
    this.#native = n;
    this.#js = js;
  }

  /**
   * A session. `platform` (or `{ platform, cdpUrl, cdpHost, cdpPort }`):
   * see SessionOptions. Nothing is connected before the first call; an
   * unknown platform is refused here.
   */
  static async create(options?: string | SessionOptions | null): Promise<Session> {
    if (typeof options === "object" && options?.adapter) {
      const a = options.adapter;
      for (const m of ["getScreenInfo", "getForegroundWindow", "getAllWindows", "getWindowList", "getDesktopWindow", "captureTree"] as const) {
        if (typeof a[m] !== "function") throw new TypeError(`the adapter has no ${m}(); it must implement PlatformAdapter`);
      }
      const s = new Session(native.NativeSession.fed(String(a.platformName)), a);
      await a.initialize?.();
      return s;
    }
    const { adapter: _none, ...rest } = typeof options === "string" ? { platform: options } : { ...(options ?? {}) };
    const at: NativeWhere = rest;
    for (const [k, v] of Object.entries(at)) {
      if (v === undefined) delete (at as Record<string, unknown>)[k];
    }
    return new Session(native.NativeSession.open(at));
  }

  /** `linux`, `windows`, `macos` or `web`. */
  get platformName(): string {
    return this.#native.platformName;
  }

  /** Whether close() was called. */
  get closed(): boolean {
    return this.#native.closed;
  }

  /** Ends the session; a call in progress and every later call reject. */
  async close(): Promise<void> {
    await this.#native.close();
  }

  /** `await using session = await Session.create()` closes it at the block's end. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Captures the UI and keeps the snapshot (its ids are what action() and
   * find() use): compact text by default, the envelope with `compact: false`.
   */
  snapshot(options: SnapshotOptions & { compact: false }): Promise<CupEnvelope>;
  snapshot(options?: SnapshotOptions & { compact?: true }): Promise<string>;
  snapshot(options?: SnapshotOptions): Promise<string | CupEnvelope>;
  async snapshot(options: SnapshotOptions = {}): Promise<string | CupEnvelope> {
    const o = {
      scope: options.scope,
      app: options.app,
      maxDepth: options.maxDepth,
      detail: checkDetail(options.detail),
      maxChars: options.maxChars,
      maxNodes: options.maxNodes,
      timeoutMs: options.timeoutMs,
      since: options.since,
      bounds: options.bounds,
      maxTokens: options.maxTokens,
      ocr: options.ocr,
      envelope: options.compact === false,
    };
    const snap = this.#js ? await this.#native.snapshotFed(await this.#feed(options), o) : await this.#native.snapshot(o);
    return options.compact === false ? (JSON.parse(snap.envelope ?? "null") as CupEnvelope) : snap.text;
  }

  /** Asks the JavaScript adapter for what a snapshot of `options` needs (JSON for cup). */
  async #feed(options: SnapshotOptions): Promise<string> {
    const a = this.#js as JsAdapter;
    const scope = options.scope ?? "foreground";
    const screen = await a.getScreenInfo();
    const windows = await a.getWindowList();
    const capture = { maxDepth: options.maxDepth ?? 999 };
    let tree: CupNode[] = [];
    let desktop: WindowInfo | null = null;
    let refs = new Map<string, unknown>();
    if (scope === "foreground") {
      const fg = await a.getForegroundWindow();
      [tree, , refs] = await a.captureTree([fg], capture);
      if (!windows.some((w) => w.foreground)) {
        const same = windows.find((w) => w.title === fg.title);
        if (same) same.foreground = true;
        else windows.unshift({ title: fg.title, pid: fg.pid, foreground: true });
      }
    } else if (scope === "full") {
      let all = await a.getAllWindows();
      if (options.app) {
        const want = options.app.toLowerCase();
        all = all.filter((w) => (w.title || "").toLowerCase().includes(want));
      }
      [tree, , refs] = await a.captureTree(all, capture);
    } else if (scope === "desktop") {
      const d = await a.getDesktopWindow();
      if (d) {
        desktop = { title: d.title, pid: d.pid };
        [tree, , refs] = await a.captureTree([d], capture);
      }
    }
    this.#refs = refs;
    return JSON.stringify({ screen, windows, desktop, tree });
  }

  /** An action of the JavaScript adapter's, its result as cup reports results. */
  async #jsAct(what: string, run: (() => Promise<Partial<ActionResult>>) | undefined): Promise<ActionResult> {
    if (!run) {
      throw new Error(`this session's adapter cannot ${what}; give it the method (see JsAdapter)`);
    }
    const r = await run();
    return {
      ...r,
      success: r.success === true,
      message: r.message ?? "",
      // cup cannot watch a JavaScript platform: the adapter's word, else unverified.
      effect: r.effect ?? (r.success === true ? "unverified" : "no_change"),
    };
  }

  /** The seed's capture(): `{ compact }` text, or `{ envelope }` with `compact: false`. */
  capture(options: SnapshotOptions & { compact: false }): Promise<{ envelope: CupEnvelope }>;
  capture(options?: SnapshotOptions & { compact?: true }): Promise<{ compact: string }>;
  capture(options?: SnapshotOptions): Promise<{ compact: string } | { envelope: CupEnvelope }>;
  async capture(options: SnapshotOptions = {}): Promise<{ compact: string } | { envelope: CupEnvelope }> {
    if (options.compact === false) return { envelope: await this.snapshot({ ...options, compact: false }) };
    return { compact: await this.snapshot({ ...options, compact: true }) };
  }

  /** The latest snapshot's envelope, or null before the first. */
  async lastEnvelope(): Promise<CupEnvelope | null> {
    const e = await this.#native.lastEnvelope();
    return e === null ? null : (JSON.parse(e) as CupEnvelope);
  }

  /**
   * Performs a CUP action on an element of the latest snapshot and reports
   * the effect cup observed (`effect`, `changes`). Params: `value` (type,
   * setvalue), `direction` and `amount` (scroll), `keys` (press).
   */
  async action(elementId: string, actionName: string, params: Record<string, unknown> = {}): Promise<ActionResult> {
    if (actionName === "press") {
      const keys = params.keys;
      if (typeof keys !== "string") throw new TypeError("action 'press' requires 'keys', e.g. { keys: \"ctrl+s\" }");
      return this.press(keys);
    }
    const str = (k: string): string | null => {
      const v = params[k];
      if (v == null) return null;
      if (typeof v !== "string" && typeof v !== "number") {
        throw new TypeError(`action '${actionName}': '${k}' must be a string, got ${typeof v}`);
      }
      return String(v);
    };
    const amount = params.amount;
    if (amount != null && (typeof amount !== "number" || !Number.isInteger(amount) || amount < 0)) {
      throw new TypeError(`action '${actionName}': 'amount' must be a whole number of steps`);
    }
    if (this.#js) {
      const js = this.#js;
      native.checkAction(String(actionName), str("value"), str("direction"));
      const ref = this.#refs.get(await this.#native.refOf(String(elementId)));
      return this.#jsAct(`act on elements (${actionName})`, js.action && (() => js.action!(ref, actionName, params)));
    }
    const r = await this.#native.action(
      String(elementId),
      String(actionName),
      str("value"),
      str("direction"),
      (amount as number | undefined) ?? null,
    );
    return JSON.parse(r) as ActionResult;
  }

  /** The seed's execute(): action(). */
  async execute(elementId: string, action: string, params: Record<string, unknown> = {}): Promise<ActionResult> {
    return this.action(elementId, action, params);
  }

  /** Presses a key combo (`ctrl+s`, `alt+f4`, `enter`) in the focused window. */
  async press(combo: string): Promise<ActionResult> {
    if (typeof combo !== "string") throw new TypeError("press needs a key combo string, e.g. \"ctrl+s\"");
    if (this.#js) {
      const js = this.#js;
      native.parseCombo(combo);
      return this.#jsAct("press keys", js.press && (() => js.press!(combo)));
    }
    return JSON.parse(await this.#native.press(combo)) as ActionResult;
  }

  /** The seed's pressKeys(): press(). */
  async pressKeys(combo: string): Promise<ActionResult> {
    return this.press(combo);
  }

  /** Opens an app by (fuzzy) name; a success only once its window is seen. */
  async openApp(name: string): Promise<ActionResult> {
    if (typeof name !== "string") throw new TypeError("openApp needs the app's name, e.g. \"calculator\"");
    if (this.#js) {
      const js = this.#js;
      if (name.trim() === "") throw new TypeError("App name must not be empty; give the name of an installed app");
      return this.#jsAct("open apps", js.openApp && (() => js.openApp!(name)));
    }
    return JSON.parse(await this.#native.openApp(name)) as ActionResult;
  }

  /** The seed's launchApp(): openApp(). */
  async launchApp(name: string): Promise<ActionResult> {
    return this.openApp(name);
  }

  /**
   * Searches the latest snapshot (a foreground one is taken first when
   * there is none): matching nodes without children, best first (5 by
   * default).
   */
  async find(options: FindOptions = {}): Promise<CupNode[]> {
    if (this.#js && !(await this.#native.hasSnapshot())) await this.snapshot();
    const r = await this.#native.find(
      options.query ?? null,
      options.role ?? null,
      options.name ?? null,
      options.state ?? null,
      options.limit ?? 5,
    );
    return JSON.parse(r) as CupNode[];
  }

  /**
   * Waits for the page's load (`until: "load"`) or for an element (a
   * search, as in find()), taking snapshots meanwhile (the ids are the
   * last one's), for `timeoutMs` at most; with neither, pauses `ms`.
   * Rejects on a timeout, saying what it last saw.
   */
  async wait(options: WaitOptions = {}): Promise<Waited> {
    if (this.#js) {
      // A JavaScript adapter is fed a snapshot at a time: the same loop here.
      const started = Date.now();
      const timeout = options.timeoutMs ?? 5000;
      const search = options.query ?? options.role ?? options.name ?? options.state;
      if (options.until === undefined && search === undefined) {
        const ms = options.ms ?? 500;
        await new Promise((r) => setTimeout(r, ms));
        return { ms, element: null };
      }
      for (let step = 50; ; step = Math.min(step * 2, 400)) {
        await this.snapshot();
        if (search === undefined) return { ms: Date.now() - started, element: null };
        const [found] = await this.find({ ...options, limit: 1 });
        if (found) return { ms: Date.now() - started, element: found };
        if (Date.now() - started >= timeout) {
          throw new Error(`wait: nothing matched after ${timeout} ms; wait again or snapshot to see what is there`);
        }
        await new Promise((r) => setTimeout(r, step));
      }
    }
    const r = await this.#native.wait(
      options.until ?? null,
      options.query ?? null,
      options.role ?? null,
      options.name ?? null,
      options.state ?? null,
      options.timeoutMs ?? null,
      options.ms ?? null,
    );
    return JSON.parse(r) as Waited;
  }

  /** The seed's findElements(): find() with 10 results by default. */
  async findElements(options: FindOptions = {}): Promise<CupNode[]> {
    return this.find({ ...options, limit: options.limit ?? 10 });
  }

  /** More items of a container the compact text clipped (its hint names the call). */
  async page(elementId: string, options: PageOptions = {}): Promise<string> {
    return this.#native.page(elementId, options.direction ?? null, options.offset ?? null, options.limit ?? null);
  }

  /**
   * Runs steps in order, stopping at the first failure: element actions
   * (`{ element_id, action, value?, direction? }`), `{ action: "press",
   * keys }` (or the seed's `press_keys`), `{ action: "wait", ms }` (50–5000).
   */
  async batch(actions: BatchAction[]): Promise<ActionResult[]> {
    if (!Array.isArray(actions)) throw new TypeError("batch needs an array of steps");
    if (this.#js) return this.#jsBatch(actions);
    return JSON.parse(await this.#native.batch(JSON.stringify(actions))) as ActionResult[];
  }

  /** batch() on a JavaScript adapter's session: the same steps and rules as cup's. */
  async #jsBatch(actions: BatchAction[]): Promise<ActionResult[]> {
    const results: ActionResult[] = [];
    for (const step of actions as Array<Record<string, unknown>>) {
      let r: ActionResult;
      try {
        if (step.action === "wait") {
          const ms = Math.max(50, Math.min(Number(step.ms ?? 500), 5000));
          await new Promise((done) => setTimeout(done, ms));
          r = { success: true, message: `Waited ${ms}ms`, effect: "unverified" };
        } else if (step.action === "press" || step.action === "press_keys") {
          r = await this.press(String(step.keys ?? ""));
        } else if (typeof step.element_id !== "string") {
          r = { success: false, message: "", error: `Element action '${String(step.action)}' requires 'element_id' parameter` };
        } else {
          const { element_id, action, ...params } = step;
          r = await this.action(element_id, String(action), params);
        }
      } catch (e) {
        r = { success: false, message: "", error: e instanceof Error ? e.message : String(e) };
      }
      results.push(r);
      if (!r.success) break;
    }
    return results;
  }

  /** The seed's batchExecute(): batch(). */
  async batchExecute(actions: BatchAction[]): Promise<ActionResult[]> {
    return this.batch(actions);
  }

  /**
   * A PNG of the screen, or of `region` (screen pixels): base64 text by
   * default (the seed's contract), the bytes with `{ encoding: "buffer" }`
   * (the reference's).
   */
  screenshot(region?: Rect | null, options?: { encoding?: "base64" }): Promise<string>;
  screenshot(region: Rect | null | undefined, options: { encoding: "buffer" }): Promise<Buffer>;
  async screenshot(region?: Rect | null, options: ScreenshotOptions = {}): Promise<string | Buffer> {
    const r = checkRegion(region);
    let png: Buffer;
    if (this.#js) {
      if (!this.#js.screenshot) throw new Error("this session's adapter takes no screenshots; give it screenshot(region)");
      png = Buffer.from(await this.#js.screenshot(region ?? null));
    } else {
      png = await this.#native.screenshot(r);
    }
    return options.encoding === "buffer" ? png : png.toString("base64");
  }

  /** Screen width, height (pixels) and scale. */
  async screenInfo(): Promise<[number, number, number]> {
    if (this.#js) return this.#js.getScreenInfo();
    const [w, h, s] = await this.#native.screenInfo();
    return [w ?? 0, h ?? 0, s ?? 1];
  }

  /** The top-level windows: title, pid, foreground, bounds (web: the tabs, with url). */
  async windows(): Promise<WindowInfo[]> {
    if (this.#js) return this.#js.getWindowList();
    return JSON.parse(await this.#native.windows()) as WindowInfo[];
  }
}
