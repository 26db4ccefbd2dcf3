/**
 * Envelopes and the compact text format. Pruning, compact text, overview
 * and page text are cup's own implementation (the Rust `cup-protocol`
 * crate behind the `cup` binary and the Python package), so Node, Python
 * and the CLI print the same bytes. Where cup differs from the reference
 * SDK on purpose it follows cup's `docs/compact-format.md` (hint lines name
 * the `page` call of each direction; `pruneTree` adds no schema-invalid
 * `_clipped` key; nodes must be valid CUP: an unknown role is an Error).
 */

import { native } from "./native";
import type { CupEnvelope, CupNode, Detail, Scope, WindowInfo } from "./types";

/** The CUP version cup writes. */
export const CUP_VERSION = "0.1.0";
/** Default character cap of the compact text (0 = no cap). */
export const MAX_OUTPUT_CHARS = 40_000;

const vocabulary = JSON.parse(native.vocabulary()) as {
  roles: Array<[string, string]>;
  states: Array<[string, string]>;
  actions: Array<[string, string]>;
  synonyms: Array<[string, string[]]>;
};

/** Role → its compact code (`button` → `btn`), all 59 roles. */
export const ROLE_CODES: Record<string, string> = Object.fromEntries(vocabulary.roles);
/** State → its compact code (`focused` → `foc`), all 16 states. */
export const STATE_CODES: Record<string, string> = Object.fromEntries(vocabulary.states);
/** Action → its compact code (`click` → `clk`), all 15 actions. */
export const ACTION_CODES: Record<string, string> = Object.fromEntries(vocabulary.actions);
/** @internal The search's role synonyms. */
export const SYNONYMS: Array<[string, string[]]> = vocabulary.synonyms;

function detailWord(detail: Detail | undefined): string {
  return detail === "standard" || detail === undefined ? "compact" : detail;
}

/** The options of buildEnvelope(). */
export interface BuildEnvelopeOptions {
  platform: string;
  scope?: Scope | null;
  screenW: number;
  screenH: number;
  screenScale?: number | null;
  appName?: string | null;
  appPid?: number | null;
  appBundleId?: string | null;
  tools?: Array<{ name: string; description?: string; parameters?: Record<string, unknown> }> | null;
}

/**
 * Wraps nodes in a CUP envelope (version, platform, timestamp in ms,
 * screen). The nodes are taken as given (check with validateEnvelope());
 * `scale` is left out when it is 1, `scope`, `app` and `tools` when empty.
 */
export function buildEnvelope(tree: CupNode[], options: BuildEnvelopeOptions): CupEnvelope {
  const screen: CupEnvelope["screen"] = { w: options.screenW, h: options.screenH };
  if (options.screenScale != null && options.screenScale !== 1) screen.scale = options.screenScale;
  const envelope: CupEnvelope = {
    version: CUP_VERSION,
    platform: options.platform,
    timestamp: Date.now(),
    screen,
    tree,
  };
  if (options.scope) envelope.scope = options.scope;
  const app: NonNullable<CupEnvelope["app"]> = {};
  if (options.appName) app.name = options.appName;
  if (options.appPid != null) app.pid = options.appPid;
  if (options.appBundleId) app.bundleId = options.appBundleId;
  if (Object.keys(app).length > 0) envelope.app = app;
  // The key order of the schema's example: tree before tools.
  const { tree: t, ...head } = envelope;
  const ordered: CupEnvelope = { ...head, tree: t };
  if (options.tools && options.tools.length > 0) ordered.tools = options.tools;
  return ordered;
}

/**
 * The tree as the compact text shows it: a new array, the input
 * untouched. With `screen`, descendants entirely off the screen go.
 */
export function pruneTree(
  tree: CupNode[],
  options?: { detail?: Detail; screen?: { w: number; h: number } | null },
): CupNode[] {
  const s = options?.screen;
  return JSON.parse(
    native.pruneTree(JSON.stringify(tree), detailWord(options?.detail), s ? s.w : null, s ? s.h : null),
  ) as CupNode[];
}

/** The compact text of an envelope; `windowList` goes into its header. */
export function serializeCompact(
  envelope: CupEnvelope,
  options?: { windowList?: WindowInfo[] | null; detail?: Detail; maxChars?: number },
): string {
  return native.serializeCompact(
    JSON.stringify(envelope),
    options?.windowList ? JSON.stringify(options.windowList) : null,
    detailWord(options?.detail),
    options?.maxChars ?? MAX_OUTPUT_CHARS,
  );
}

/** The overview text of a window list. */
export function serializeOverview(
  windows: WindowInfo[],
  options: { platform: string; screenW: number; screenH: number },
): string {
  return native.serializeOverview(JSON.stringify(windows), options.platform, options.screenW, options.screenH);
}

/** One node's compact line (without indentation). */
export function formatLine(node: CupNode): string {
  return native.formatLine(JSON.stringify(node));
}

/** The node with `id` in a tree (depth first), or null. */
export function findNodeById(tree: CupNode[], id: string): CupNode | null {
  const stack = [...tree].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as CupNode;
    if (node.id === id) return node;
    const kids = node.children ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as CupNode);
  }
  return null;
}

/**
 * The text of one page of a container's items: `pageItems` are items
 * `offset`… of `total`, with hint lines for the items before and after.
 */
export function serializePage(container: CupNode, pageItems: CupNode[], offset: number, total: number): string {
  return native.serializePage(JSON.stringify(container), JSON.stringify(pageItems), offset, total);
}

/** Every violation of the CUP schema in an envelope, `path: message`; empty when valid. */
export function validateEnvelope(envelope: CupEnvelope): string[] {
  return native.validateEnvelope(JSON.stringify(envelope));
}
