/**
 * CUP's data types: the envelope, nodes, window lists and action results
 * as cup emits them (they hold to the CUP schema), and the option shapes
 * of the API.
 */

/** A platform of the CUP schema. */
export type PlatformId = "windows" | "macos" | "linux" | "web" | "android" | "ios";

/** Screen size in pixels; `scale` is left out when it is 1. */
export interface Screen {
  w: number;
  h: number;
  scale?: number;
}

/** A rectangle in screen pixels. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The app an envelope was captured from. */
export interface AppInfo {
  name?: string;
  pid?: number;
  bundleId?: string;
}

/** A CUP role (59), e.g. `button`, `textbox`, `window`. */
export type Role = string;
/** A CUP state (16), e.g. `focused`, `checked`, `disabled`. */
export type State = string;
/** A CUP action (15), e.g. `click`, `type`, `scroll`. */
export type Action = string;

/** Role-specific attributes (level, value range, placeholder, url, …). */
export interface Attributes {
  level?: number;
  placeholder?: string;
  orientation?: "horizontal" | "vertical";
  valueMin?: number;
  valueMax?: number;
  valueNow?: number;
  url?: string;
  autocomplete?: string;
  [key: string]: unknown;
}

/** Native facts of a Windows element. */
export interface PlatformWindows { [key: string]: unknown }
/** Native facts of a macOS element. */
export interface PlatformMacOS { [key: string]: unknown }
/** Native facts of a Linux element. */
export interface PlatformLinux { [key: string]: unknown }
/** Native facts of a web element. */
export interface PlatformWeb { [key: string]: unknown }
/** Native facts of an Android element. */
export interface PlatformAndroid { [key: string]: unknown }
/** Native facts of an iOS element. */
export interface PlatformIOS { [key: string]: unknown }

/** One element of a CUP tree. */
export interface CupNode {
  id: string;
  role: Role;
  name: string;
  description?: string;
  value?: string;
  bounds?: Rect;
  states?: State[];
  actions?: Action[];
  attributes?: Attributes;
  children?: CupNode[];
  platform?: {
    windows?: PlatformWindows;
    macos?: PlatformMacOS;
    linux?: PlatformLinux;
    web?: PlatformWeb;
    android?: PlatformAndroid;
    ios?: PlatformIOS;
  };
}

/** A top-level window as window lists and overviews show it. */
export interface WindowInfo {
  title: string;
  pid?: number | null;
  bundle_id?: string | null;
  foreground?: boolean;
  bounds?: Rect | null;
  url?: string;
  [key: string]: unknown;
}

/** A CUP envelope: the document a capture makes. */
export interface CupEnvelope {
  version: string;
  platform: PlatformId | string;
  timestamp?: number;
  screen: Screen;
  app?: AppInfo;
  scope?: Scope;
  tree: CupNode[];
  windows?: WindowInfo[];
  tools?: Array<{ name: string; description?: string; parameters?: Record<string, unknown> }>;
}

/** What a capture reads. */
export type Scope = "overview" | "foreground" | "desktop" | "full";

/**
 * How much of the tree the compact text keeps: `compact` (the seed calls it
 * `standard`), `minimal` (interactive nodes and their ancestors), `full`
 * (nothing pruned), `page` (compact, nothing clipped to the viewport).
 */
export type Detail = "compact" | "standard" | "minimal" | "full" | "page";

/** A window as a platform adapter hands it to captureTree. */
export interface WindowMetadata {
  handle: unknown;
  title: string;
  pid: number | null;
  bundle_id?: string | null;
  url?: string;
}

/** What a capture walked. */
export interface TreeStats {
  nodes: number;
  max_depth: number;
  roles: Record<string, number>;
}

/** One property change an action caused, as cup observed it. */
export interface Change {
  target: string;
  field: string;
  before?: string | null;
  after?: string | null;
  [key: string]: unknown;
}

/**
 * What an action did. `effect` says what cup observed afterwards:
 * `confirmed` (a change it saw, listed in `changes`), `no_change`,
 * `unverified` (the platform could not tell) — never a success without
 * evidence.
 */
export interface ActionResult {
  success: boolean;
  message: string;
  error?: string | null;
  effect?: "confirmed" | "no_change" | "unverified" | string;
  changes?: Change[];
  [key: string]: unknown;
}

/** A step of batch()/batchExecute(). */
export type BatchAction =
  | { action: "wait"; ms?: number }
  | { action: "press" | "press_keys"; keys: string }
  | { element_id: string; action: string; value?: string; direction?: string; [key: string]: unknown };

/** A search hit. */
export interface SearchResult {
  node: CupNode;
  score: number;
}

/** The options of Session.snapshot() (the seed's capture()). */
export interface SnapshotOptions {
  scope?: Scope;
  /** A window title (part of it), scope `full`. */
  app?: string;
  maxDepth?: number;
  compact?: boolean;
  detail?: Detail;
  /** Character cap of the compact text (default 40,000; 0: none). */
  maxChars?: number;
  /** Node cap of the capture. */
  maxNodes?: number;
  /** The capture's deadline in milliseconds. */
  timeoutMs?: number;
  /**
   * Only what changed since this snapshot: "last", or the id a
   * changes-only header names ("this is s5"). Elements keep their ids.
   */
  since?: string;
  /**
   * `false`: the compact lines leave their bounds (x,y wxh) off, for
   * agents that act by id only (fewer tokens). Default true.
   */
  bounds?: boolean;
  /**
   * Budget in o200k tokens (at least 100): the text never costs more.
   * Lines are kept by need (the focus, what is on screen, what acts,
   * landmarks and headings) and the rest is left out with a note saying
   * how many and where `page` or `find` gets them. `maxChars` then does
   * not apply.
   */
  maxTokens?: number;
  /**
   * When windows are read from their pixels (OCR): `"auto"` (windows that
   * give no accessibility tree; default), `"always"`, `"never"`. Lines
   * read so are `text` elements marked `(ocr)`; a click on one is a
   * pointer click at its centre.
   */
  ocr?: "auto" | "always" | "never";
}

/** A search of the latest snapshot. */
export interface FindOptions {
  query?: string;
  role?: string;
  name?: string;
  state?: string;
  limit?: number;
}

/** What `wait()` waits for: the page's load, an element, or a pause. */
export interface WaitOptions {
  /** `"load"`: until the page has loaded (no "still loading" note). */
  until?: "load";
  /** Until an element matches this search (as in find()). */
  query?: string;
  role?: string;
  name?: string;
  state?: string;
  /** How long to wait for `until` or the search (100-60,000; default 5,000). */
  timeoutMs?: number;
  /** With neither: a pause this long (50-10,000; default 500). */
  ms?: number;
}

/** What a wait saw: how long it took and, for a search, the match. */
export interface Waited {
  ms: number;
  element: CupNode | null;
}

/** A page request for a clipped container. */
export interface PageOptions {
  direction?: "up" | "down" | "left" | "right";
  offset?: number;
  limit?: number;
}
