/**
 * Loads cup's addon: `$CUP_NODE_ADDON` when set, else the one built next
 * to the package (`cup.<platform>-<arch>[-<libc>].node`), else the
 * platform package npm installed (`cup-rs-<platform>-<arch>[-<libc>]`).
 */

import * as path from "node:path";
import * as fs from "node:fs";
import { packageRoot, triple } from "./locate";

/** Where the native session works. */
export interface NativeWhere {
  platform?: string;
  cdpUrl?: string;
  cdpHost?: string;
  cdpPort?: number;
  serial?: string;
  wdaUrl?: string;
}

/** The native snapshot options (camelCase as the addon takes them). */
export interface NativeSnapshotOptions {
  scope?: string;
  app?: string;
  maxDepth?: number;
  detail?: string;
  maxChars?: number;
  maxNodes?: number;
  timeoutMs?: number;
  /** Only what changed since this snapshot ("last" or an id). */
  since?: string;
  /** `false`: the lines leave their bounds off. */
  bounds?: boolean;
  /** Budget in o200k tokens (at least 100). */
  maxTokens?: number;
  /** auto, always or never. */
  ocr?: string;
  /** Also return the envelope (JSON). */
  envelope?: boolean;
}

/** The addon's session class. */
export interface NativeSession {
  readonly platformName: string;
  readonly closed: boolean;
  close(): Promise<void>;
  snapshot(options?: NativeSnapshotOptions): Promise<{ text: string; envelope?: string | null }>;
  lastEnvelope(): Promise<string | null>;
  hasSnapshot(): Promise<boolean>;
  snapshotFed(feed: string, options?: NativeSnapshotOptions): Promise<{ text: string; envelope?: string | null }>;
  refOf(id: string): Promise<string>;
  action(
    elementId: string,
    action: string,
    value?: string | null,
    direction?: string | null,
    amount?: number | null,
  ): Promise<string>;
  press(keys: string): Promise<string>;
  openApp(name: string): Promise<string>;
  wait(
    until?: string | null,
    query?: string | null,
    role?: string | null,
    name?: string | null,
    state?: string | null,
    timeoutMs?: number | null,
    ms?: number | null,
  ): Promise<string>;
  find(
    query?: string | null,
    role?: string | null,
    name?: string | null,
    state?: string | null,
    limit?: number | null,
  ): Promise<string>;
  batch(steps: string): Promise<string>;
  screenshot(region?: number[] | null): Promise<Buffer>;
  page(
    elementId: string,
    direction?: string | null,
    offset?: number | null,
    limit?: number | null,
  ): Promise<string>;
  screenInfo(): Promise<number[]>;
  windows(): Promise<string>;
}

/** The addon. */
export interface Native {
  version(): string;
  NativeSession: { open(at?: NativeWhere | null): NativeSession; fed(platform: string): NativeSession };
  pruneTree(tree: string, detail?: string | null, screenW?: number | null, screenH?: number | null): string;
  serializeCompact(envelope: string, windowList?: string | null, detail?: string | null, maxChars?: number | null): string;
  serializeOverview(windows: string, platform: string, screenW: number, screenH: number): string;
  serializePage(container: string, items: string, offset: number, total: number): string;
  formatLine(node: string): string;
  searchTree(
    tree: string,
    query?: string | null,
    role?: string | null,
    name?: string | null,
    state?: string | null,
    limit?: number | null,
  ): string;
  tokenize(text: string): string[];
  resolveRoles(phrase: string): string[] | null;
  parseQuery(query: string): [string | null, string[]];
  scoreName(tokens: string[], name: string, description?: string | null, value?: string | null, placeholder?: string | null): number;
  parseCombo(combo: string): [string[], string[]];
  checkAction(action: string, value?: string | null, direction?: string | null): void;
  validateEnvelope(envelope: string): string[];
  vocabulary(): string;
}

function load(): Native {
  const t = triple();
  const tried: string[] = [];
  const candidates: string[] = [];
  if (process.env.CUP_NODE_ADDON) candidates.push(process.env.CUP_NODE_ADDON);
  candidates.push(path.join(packageRoot, `cup.${t}.node`));
  for (const file of candidates) {
    tried.push(file);
    if (fs.existsSync(file)) return require(file) as Native;
  }
  const pkg = `cup-rs-${t}`;
  tried.push(pkg);
  try {
    return require(pkg) as Native;
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    throw new Error(
      `cup-rs has no native addon for ${t} (looked for ${tried.join(", ")}: ${why}); ` +
        `install the package again so npm fetches ${pkg}, or build it with bindings/node/build.sh`,
    );
  }
}

/** The loaded addon. */
export const native: Native = load();

// Node 18 before 18.18 has no Symbol.asyncDispose: the well-known symbol
// Node itself uses later, so `await using` works where the compiler
// lowers it.
(Symbol as { asyncDispose?: symbol }).asyncDispose ??= Symbol.for("nodejs.asyncDispose");
