/**
 * PlatformAdapter: the interface of the CUP TypeScript API for a
 * platform's screen, windows and tree, and getAdapter(): cup's adapter
 * for this machine (or a browser) behind that interface.
 */

import { native, type NativeSession } from "./native";
import type { CupNode, TreeStats, WindowInfo, WindowMetadata } from "./types";

/** What a platform gives CUP (the seed's interface). */
export interface PlatformAdapter {
  readonly platformName: string;
  initialize(): Promise<void>;
  /** Screen width, height (pixels) and scale. */
  getScreenInfo(): Promise<[number, number, number]>;
  getForegroundWindow(): Promise<WindowMetadata>;
  getAllWindows(): Promise<WindowMetadata[]>;
  getWindowList(): Promise<WindowInfo[]>;
  getDesktopWindow(): Promise<WindowMetadata | null>;
  /** The trees of `windows`, stats, and each id's native reference. */
  captureTree(windows: WindowMetadata[], options?: { maxDepth?: number }): Promise<[CupNode[], TreeStats, Map<string, unknown>]>;
}

/** The platform of this machine: `windows`, `macos` or `linux` (an Error elsewhere). */
export function detectPlatform(): string {
  switch (process.platform) {
    case "win32":
      return "windows";
    case "darwin":
      return "macos";
    case "linux":
      return "linux";
    default:
      throw new Error(`Unsupported platform: ${process.platform}; cup runs on linux, windows and macos (or web)`);
  }
}

function stats(tree: CupNode[]): TreeStats {
  const s: TreeStats = { nodes: 0, max_depth: 0, roles: {} };
  const walk = (nodes: CupNode[], depth: number): void => {
    for (const n of nodes) {
      s.nodes += 1;
      s.max_depth = Math.max(s.max_depth, depth);
      s.roles[n.role] = (s.roles[n.role] ?? 0) + 1;
      walk(n.children ?? [], depth + 1);
    }
  };
  walk(tree, 0);
  return s;
}

/** cup's adapter for a platform behind the PlatformAdapter interface. */
class CupAdapter implements PlatformAdapter {
  readonly #session: NativeSession;

  constructor(platform?: string | null) {
    this.#session = native.NativeSession.open(platform ? { platform } : {});
  }

  get platformName(): string {
    return this.#session.platformName;
  }

  async initialize(): Promise<void> {
    // Connections are made on first use.
  }

  async getScreenInfo(): Promise<[number, number, number]> {
    const [w, h, s] = await this.#session.screenInfo();
    return [w ?? 0, h ?? 0, s ?? 1];
  }

  async getWindowList(): Promise<WindowInfo[]> {
    return JSON.parse(await this.#session.windows()) as WindowInfo[];
  }

  async getAllWindows(): Promise<WindowMetadata[]> {
    return (await this.getWindowList()).map((w) => ({
      handle: w.title,
      title: w.title,
      pid: w.pid ?? null,
      bundle_id: w.bundle_id ?? null,
      ...(typeof w.url === "string" ? { url: w.url } : {}),
    }));
  }

  async getForegroundWindow(): Promise<WindowMetadata> {
    const list = await this.getWindowList();
    const fg = list.find((w) => w.foreground);
    if (!fg) throw new Error("no foreground window; open or focus a window first");
    return { handle: fg.title, title: fg.title, pid: fg.pid ?? null, bundle_id: fg.bundle_id ?? null };
  }

  async getDesktopWindow(): Promise<WindowMetadata | null> {
    const snap = await this.#session.snapshot({ scope: "desktop", maxDepth: 1, envelope: true });
    const env = JSON.parse(snap.envelope ?? "null") as { scope?: string; tree: CupNode[] };
    const root = env.tree[0];
    return env.scope === "desktop" && root ? { handle: "desktop", title: root.name || "Desktop", pid: null } : null;
  }

  /**
   * The windows' trees as cup captures them (scope full, each window
   * matched by its title); the references map each id to itself (cup's
   * Session acts by id).
   */
  async captureTree(windows: WindowMetadata[], options?: { maxDepth?: number }): Promise<[CupNode[], TreeStats, Map<string, unknown>]> {
    const tree: CupNode[] = [];
    for (const w of windows) {
      const snap = await this.#session.snapshot({ scope: "full", app: w.title, maxDepth: options?.maxDepth ?? 999, envelope: true });
      tree.push(...(JSON.parse(snap.envelope ?? "null") as { tree: CupNode[] }).tree);
    }
    const refs = new Map<string, unknown>();
    const walk = (nodes: CupNode[]): void => {
      for (const n of nodes) {
        refs.set(n.id, n.id);
        walk(n.children ?? []);
      }
    };
    walk(tree);
    return [tree, stats(tree), refs];
  }
}

/** cup's adapter for `platformName` (default: this machine's). */
export async function getAdapter(platformName?: string | null): Promise<PlatformAdapter> {
  const adapter = new CupAdapter(platformName ?? detectPlatform());
  await adapter.initialize();
  return adapter;
}
