/**
 * Actions: the canonical names, key combos, and ActionExecutor (actions on
 * the elements of a Session's latest snapshot).
 */

import { native } from "./native";
import { ACTION_CODES } from "./format";
import type { ActionResult } from "./types";

/** The element actions (CUP's 15) and `press` (a key combo). */
export const VALID_ACTIONS: ReadonlySet<string> = new Set([...Object.keys(ACTION_CODES), "press"]);

/**
 * A key combo as `[modifiers, keys]` with canonical names
 * (`"Ctrl+Shift+A"` → `[["ctrl", "shift"], ["a"]]`). cup's combos can
 * name the `+` key (`ctrl++`). A combo cup cannot send is an Error.
 */
export function parseCombo(combo: string): [string[], string[]] {
  return native.parseCombo(combo);
}

/** What ActionExecutor acts through: a Session. */
interface Acts {
  action(elementId: string, action: string, params?: Record<string, unknown>): Promise<ActionResult>;
  press(combo: string): Promise<ActionResult>;
  openApp(name: string): Promise<ActionResult>;
}

/**
 * Runs actions by name on a Session's latest snapshot: an unknown action
 * or missing parameter is a failed result (not an exception), as the
 * reference's executor does.
 */
export class ActionExecutor {
  private readonly session: Acts;

  constructor(session: Acts) {
    this.session = session;
  }

  /** Performs `actionName` on `elementId` (`press` takes `params.keys`). */
  async action(elementId: string, actionName: string, params?: Record<string, unknown> | null): Promise<ActionResult> {
    if (!VALID_ACTIONS.has(actionName)) {
      return {
        success: false,
        message: "",
        error: `Unknown action '${actionName}'. Valid: ${[...VALID_ACTIONS].sort().join(", ")}`,
      };
    }
    try {
      if (actionName === "press") {
        const keys = params?.keys;
        if (typeof keys !== "string" || keys === "") {
          return { success: false, message: "", error: "Action 'press' requires a 'keys' parameter" };
        }
        return await this.session.press(keys);
      }
      return await this.session.action(elementId, actionName, params ?? {});
    } catch (e) {
      return { success: false, message: "", error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Presses a key combo. */
  async press(combo: string): Promise<ActionResult> {
    return this.action("", "press", { keys: combo });
  }

  /** Opens an app by name. */
  async openApp(name: string): Promise<ActionResult> {
    try {
      return await this.session.openApp(name);
    } catch (e) {
      return { success: false, message: "", error: e instanceof Error ? e.message : String(e) };
    }
  }
}
