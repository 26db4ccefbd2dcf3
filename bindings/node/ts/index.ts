/**
 * cup-rs: the Computer Use Protocol for Node, over cup's Rust engine.
 *
 *   import { Session } from "cup-rs";
 *   const session = await Session.create();
 *   console.log(await session.snapshot());          // compact text
 *   const r = await session.action("e14", "click"); // effect: confirmed, changes: …
 *
 * Both generations of the CUP TypeScript API: the seed's (`capture`,
 * `execute`, `pressKeys`, `launchApp`, `findElements`, `batchExecute`,
 * `getTree`, …) and the reference SDK's (`snapshot`, `action`, `press`,
 * `openApp`, `find`, `page`, `batch`, …).
 */

import { Session } from "./session";
import type { CupEnvelope, Scope } from "./types";

let defaultSession: Promise<Session> | null = null;

function session(): Promise<Session> {
  defaultSession ??= Session.create();
  return defaultSession;
}

/** The screen as compact text (a default Session's snapshot). */
export async function snapshot(scope: Scope = "foreground", options?: { maxDepth?: number }): Promise<string> {
  return (await session()).snapshot({ scope, maxDepth: options?.maxDepth ?? 999, compact: true });
}

/** The screen as a CUP envelope (a default Session's snapshot). */
export async function snapshotRaw(scope: Scope = "foreground", options?: { maxDepth?: number }): Promise<CupEnvelope> {
  return (await session()).snapshot({ scope, maxDepth: options?.maxDepth ?? 999, compact: false });
}

/** The open windows, no tree walked. */
export async function overview(): Promise<string> {
  return (await session()).snapshot({ scope: "overview", compact: true });
}

/** Every window's tree as a CUP envelope (the seed's getTree). */
export async function getTree(): Promise<CupEnvelope> {
  return snapshotRaw("full");
}

/** The foreground window's tree as a CUP envelope. */
export async function getForegroundTree(): Promise<CupEnvelope> {
  return snapshotRaw("foreground");
}

/** Every window's tree as compact text. */
export async function getCompact(): Promise<string> {
  return snapshot("full");
}

/** The foreground window's tree as compact text. */
export async function getForegroundCompact(): Promise<string> {
  return snapshot("foreground");
}

/** The window list as compact text. */
export async function getOverview(): Promise<string> {
  return overview();
}

/** cup's version. */
export { version } from "./version";
export { Session, type SessionOptions, type ScreenshotOptions } from "./session";
export { getAdapter, detectPlatform, type PlatformAdapter } from "./adapter";
export {
  buildEnvelope,
  serializeCompact,
  serializeOverview,
  serializePage,
  pruneTree,
  formatLine,
  findNodeById,
  validateEnvelope,
  ROLE_CODES,
  STATE_CODES,
  ACTION_CODES,
  CUP_VERSION,
  MAX_OUTPUT_CHARS,
  type BuildEnvelopeOptions,
} from "./format";
export { searchTree, resolveRoles, tokenize, ROLE_SYNONYMS, ALL_ROLES, type SearchOptions } from "./search";
export { ActionExecutor, VALID_ACTIONS, parseCombo } from "./actions";
export type {
  ActionResult,
  BatchAction,
  Change,
  CupEnvelope,
  CupNode,
  Detail,
  FindOptions,
  PageOptions,
  Scope,
  Rect,
  Screen,
  SnapshotOptions,
  Waited,
  WaitOptions,
  AppInfo,
  Attributes,
  WindowInfo,
  WindowMetadata,
  TreeStats,
  SearchResult,
  PlatformId,
  Role,
  State,
  Action,
  PlatformWindows,
  PlatformMacOS,
  PlatformLinux,
  PlatformWeb,
  PlatformAndroid,
  PlatformIOS,
} from "./types";
