//! The tool list: names, descriptions and input schemas, written to be
//! read by a model on every turn, so each thing is said once. Shared
//! conventions (coordinates, modifiers, `observe`) are said in the server's
//! instructions and once in the descriptions.

use serde_json::{json, Map, Value};

/// Which tools a server offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// The CUP tools (snapshot, action, find, ...).
    Cup,
    /// The driver tools (window state, pixel input, keys, apps, ...).
    Driver,
    /// Both.
    All,
}

impl Profile {
    /// Parses `cup`, `driver` or `all`.
    pub fn parse(s: &str) -> Result<Profile, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cup" => Ok(Profile::Cup),
            "driver" => Ok(Profile::Driver),
            "all" => Ok(Profile::All),
            other => Err(format!(
                "unknown tool profile {other:?}; use cup, driver or all"
            )),
        }
    }

    /// Whether a tool of `group` is offered.
    pub fn offers(self, group: Group) -> bool {
        matches!(
            (self, group),
            (Profile::All, _) | (Profile::Cup, Group::Cup) | (Profile::Driver, Group::Driver)
        )
    }
}

/// The group a tool belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// CUP tools.
    Cup,
    /// Driver tools.
    Driver,
}

/// One tool.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    /// Name.
    pub name: &'static str,
    /// What it does, for the model.
    pub description: &'static str,
    /// JSON Schema of its arguments.
    pub schema: Map<String, Value>,
    /// Group.
    pub group: Group,
    /// Reads only (changes nothing in the UI).
    pub read_only: bool,
}

/// Gen-1 names accepted on call, with the tool they stand for.
pub const ALIASES: &[(&str, &str)] = &[
    ("get_foreground", "snapshot"),
    ("get_tree", "snapshot_app"),
    ("get_desktop", "snapshot_desktop"),
    ("get_overview", "overview"),
    ("execute_action", "action"),
    ("find_element", "find"),
    ("find_elements", "find"),
    ("capture", "snapshot"),
    ("press_keys", "hotkey"),
    ("batch_execute", "batch"),
];

/// The tool `name` stands for (itself, or the tool of a Gen-1 alias).
pub fn canonical(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, tool)| tool)
}

fn schema(props: Value, required: &[&str]) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    m.insert("properties".into(), props);
    if !required.is_empty() {
        m.insert("required".into(), json!(required));
    }
    m
}

fn int(desc: &str) -> Value {
    json!({"type": "integer", "description": desc})
}

fn string(desc: &str) -> Value {
    json!({"type": "string", "description": desc})
}

fn strings(desc: &str) -> Value {
    json!({"type": "array", "items": {"type": "string"}, "description": desc})
}

fn number(desc: &str) -> Value {
    json!({"type": "number", "description": desc})
}

fn marks() -> Value {
    boolean("set-of-marks: draw a box and the id of each actionable element of the latest snapshot on the image (a snapshot is taken if none)")
}

fn boolean(desc: &str) -> Value {
    json!({"type": "boolean", "description": desc})
}

fn one_of(choices: &[&str], desc: &str) -> Value {
    json!({"type": "string", "enum": choices, "description": desc})
}

/// Properties shared by pointer tools: a point or an element.
fn target_props(extra: &[(&str, Value)]) -> Value {
    let mut p = json!({
        "element_id": string("element from the last snapshot (or give x,y)"),
        "x": int("screen px"),
        "y": int("screen px"),
        "from_zoom": boolean("x,y are pixels of the last zoom image"),
        "modifier": strings("keys held"),
        "observe": observe(),
    });
    if let Some(m) = p.as_object_mut() {
        for (k, v) in extra {
            m.insert((*k).to_owned(), v.clone());
        }
    }
    p
}

fn observe() -> Value {
    boolean("also return the snapshot lines that changed")
}

fn since() -> Value {
    string("only what changed since this snapshot: \"last\", or the id a changes-only header names (\"this is s5\"); elements keep their ids, what went is listed")
}

fn bounds() -> Value {
    boolean("false: no x,y wxh on the lines (act by id only; fewer tokens); default true")
}

fn max_tokens() -> Value {
    int("budget in o200k tokens (at least 100): keeps the focus, what is on screen, what acts, landmarks and headings first; says what it left out")
}

fn ocr() -> Value {
    one_of(
        &["auto", "always", "never"],
        "read windows from their pixels: auto (windows that give no accessibility tree; default), always, never; lines read so are (ocr), clicked by the pointer; type on such a window uses the keyboard and reads the text back",
    )
}

fn detail() -> Value {
    one_of(
        &["compact", "standard", "full", "minimal", "page"],
        "pruning (default compact; page: the whole page, nothing clipped to the viewport)",
    )
}

/// Every tool, built once: a call looks its tool up here, and building
/// the schemas again for each call cost a small page's snapshot as much
/// CPU as the snapshot itself.
pub fn all() -> &'static [ToolSpec] {
    static ALL: std::sync::LazyLock<Vec<ToolSpec>> = std::sync::LazyLock::new(|| {
        let mut tools = cup_tools();
        tools.extend(driver_tools());
        tools
    });
    &ALL
}

/// The tool named `name` (its own name, not an alias).
pub fn spec(name: &str) -> Option<&'static ToolSpec> {
    all().iter().find(|t| t.name == name)
}

/// The tools `profile` offers.
pub fn offered(profile: Profile) -> Vec<ToolSpec> {
    all()
        .iter()
        .filter(|t| profile.offers(t.group))
        .cloned()
        .collect()
}

fn cup_tools() -> Vec<ToolSpec> {
    let tool = |name, description, schema, read_only| ToolSpec {
        name,
        description,
        schema,
        group: Group::Cup,
        read_only,
    };
    vec![
        tool(
            "snapshot",
            "Capture the UI as compact CUP text, one element per line: [id] role \"name\" x,y wxh {states} [actions] val=\"...\". Ids are valid until the next snapshot. Take one before acting and again after the UI changed; with since=\"last\", only what changed comes back (elements keep their ids).",
            schema(
                json!({
                    "scope": one_of(&["foreground", "full", "desktop", "overview"], "default foreground (the active window)"),
                    "app": string("with scope full: windows whose title contains this"),
                    "max_depth": int("deepest level (root = 0)"),
                    "detail": detail(),
                    "query": string("keep only elements matching this (e.g. \"save button\") and their ancestors"),
                    "since": since(),
                    "bounds": bounds(),
                    "max_tokens": max_tokens(),
                    "ocr": ocr(),
                }),
                &[],
            ),
            true,
        ),
        tool(
            "snapshot_app",
            "Snapshot every window whose title contains `app`.",
            schema(
                json!({"app": string("part of the window title"), "max_depth": int("deepest level"), "detail": detail(), "query": string("as in snapshot"), "since": since(), "bounds": bounds(), "max_tokens": max_tokens(), "ocr": ocr()}),
                &["app"],
            ),
            true,
        ),
        tool(
            "snapshot_desktop",
            "Snapshot the desktop surface (icons); the window list when there is none.",
            schema(
                json!({"detail": detail(), "since": since(), "bounds": bounds(), "max_tokens": max_tokens()}),
                &[],
            ),
            true,
        ),
        tool(
            "overview",
            "List the open windows (no tree; fast).",
            schema(json!({}), &[]),
            true,
        ),
        tool(
            "action",
            "Act on an element of the last snapshot and report the effect cup observed (confirmed / no_change / unverified, with the changes). Verbs: click, toggle, type, setvalue, select, expand, collapse, scroll, increment, decrement, focus, dismiss, rightclick, doubleclick, longpress; or press with keys.",
            schema(
                json!({
                    "action": string("the verb"),
                    "element_id": string("e.g. e12"),
                    "value": string("text for type/setvalue, option for select"),
                    "direction": one_of(&["up", "down", "left", "right"], "for scroll"),
                    "amount": int("scroll notches (default 3)"),
                    "keys": string("for press, e.g. ctrl+s"),
                    "observe": observe(),
                }),
                &["action"],
            ),
            false,
        ),
        tool(
            "open_app",
            "Launch an installed app by (fuzzy) name and wait for its window; on the web, open a URL in a new tab.",
            schema(
                json!({"name": string("e.g. \"calculator\""), "args": strings("arguments: files, URLs, flags"), "observe": boolean("snapshot the new window")}),
                &["name"],
            ),
            false,
        ),
        tool(
            "find",
            "Search the last snapshot (no new capture) by a free-form query, role, name or state; best matches first.",
            schema(
                json!({
                    "query": string("e.g. \"the play button\""),
                    "role": string("role or synonym, e.g. \"search bar\""),
                    "name": string("name words"),
                    "state": string("e.g. focused, checked, disabled"),
                    "limit": int("most matches (default 5)"),
                }),
                &[],
            ),
            true,
        ),
        tool(
            "screenshot",
            "A PNG of the screen, or of a region.",
            schema(
                json!({"x": int("region left"), "y": int("region top"), "w": int("region width"), "h": int("region height"), "marks": marks()}),
                &[],
            ),
            true,
        ),
        tool(
            "page",
            "Two uses. With element_id: more items of a scroll container whose snapshot hint says items are hidden. With action: browser scripting on the page (execute_javascript, get_text, query_dom).",
            schema(
                json!({
                    "element_id": string("the container"),
                    "direction": one_of(&["up", "down", "left", "right"], "next items that way"),
                    "offset": int("first item (0-based)"),
                    "limit": int("items per page"),
                    "action": one_of(&["execute_javascript", "get_text", "query_dom"], "browser scripting"),
                    "javascript": string("for execute_javascript; its JSON value is returned"),
                    "css_selector": string("for query_dom"),
                    "attributes": strings("for query_dom"),
                    "page": string("title or URL part of the tab (default foreground)"),
                }),
                &[],
            ),
            false,
        ),
        tool(
            "batch",
            "Run steps in order, stopping at the first failure: [{\"action\":\"click\",\"element_id\":\"e3\"}, {\"action\":\"type\",\"element_id\":\"e7\",\"value\":\"hi\"}, {\"action\":\"press\",\"keys\":\"enter\"}, {\"action\":\"wait\",\"ms\":300}, {\"action\":\"snapshot\"}].",
            schema(
                json!({"steps": {"type": "array", "items": {"type": "object"}}, "observe": observe()}),
                &["steps"],
            ),
            false,
        ),
        tool(
            "wait",
            "Wait `ms`; or, with query, until an element matching it appears; or, with until=\"load\", until the page has loaded (re-snapshots, up to timeout_ms).",
            schema(
                json!({"ms": int("50-10000"), "query": string("as in find"), "until": one_of(&["load"], "the page's document has loaded"), "timeout_ms": int("default 5000")}),
                &[],
            ),
            true,
        ),
    ]
}

fn driver_tools() -> Vec<ToolSpec> {
    let tool = |name, description, schema, read_only| ToolSpec {
        name,
        description,
        schema,
        group: Group::Driver,
        read_only,
    };
    let button = || {
        one_of(
            &["left", "middle", "right", "back", "forward"],
            "default left",
        )
    };
    let point = |x: &str, y: &str| json!({x: int("screen px"), y: int("screen px")});
    // mouse_down and mouse_up take the same arguments.
    let button_at = {
        let mut p = point("x", "y");
        p["button"] = button();
        p["from_zoom"] = boolean("x,y are zoom pixels");
        p["observe"] = observe();
        p
    };
    vec![
        tool(
            "get_window_state",
            "One window as compact CUP text plus its screenshot (image). Coordinates in every tool are screen pixels, as in the snapshot's bounds (web: the page viewport's). Modifiers: ctrl, shift, alt, super (cmd/meta/win/option/control accepted).",
            schema(
                json!({
                    "window": string("part of the title (default foreground)"),
                    "pid": int("a window of this process"),
                    "query": string("keep matching elements and their ancestors"),
                    "include_screenshot": boolean("default per capture_mode (get_config)"),
                    "marks": marks(),
                    "screenshot_out_file": string("write the PNG here instead of returning it"),
                    "max_depth": int("deepest level"),
                    "detail": detail(),
                }),
                &[],
            ),
            true,
        ),
        tool(
            "click",
            "Click an element or a point; reports the observed effect.",
            schema(
                target_props(&[("button", button()), ("count", int("1-3"))]),
                &[],
            ),
            false,
        ),
        tool(
            "double_click",
            "Double-click an element or a point.",
            schema(target_props(&[]), &[]),
            false,
        ),
        tool(
            "right_click",
            "Right-click an element or a point.",
            schema(target_props(&[]), &[]),
            false,
        ),
        tool(
            "mouse_down",
            "Press and hold a button (at x,y, else where the pointer is).",
            schema(button_at.clone(), &[]),
            false,
        ),
        tool(
            "mouse_up",
            "Release a held button (at x,y, else where the pointer is).",
            schema(button_at.clone(), &[]),
            false,
        ),
        tool(
            "drag",
            "Press at from, move, release at to (or along path).",
            schema(
                json!({
                    "from_x": int("screen px"), "from_y": int("screen px"),
                    "to_x": int("screen px"), "to_y": int("screen px"),
                    "path": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}, "description": "[[x,y],...] instead of from/to"},
                    "button": button(),
                    "duration_ms": int("default 300"),
                    "steps": int("motion events"),
                    "modifier": strings("keys held"),
                    "from_zoom": boolean("zoom pixels"),
                    "observe": observe(),
                }),
                &[],
            ),
            false,
        ),
        tool(
            "move_cursor",
            "Move the real pointer.",
            schema(
                {
                    let mut p = point("x", "y");
                    p["from_zoom"] = boolean("zoom pixels");
                    p["observe"] = observe();
                    p
                },
                &["x", "y"],
            ),
            false,
        ),
        tool(
            "get_cursor_position",
            "Where the pointer is.",
            schema(json!({}), &[]),
            true,
        ),
        tool(
            "get_screen_size",
            "Screen size, scale and monitors.",
            schema(json!({}), &[]),
            true,
        ),
        tool(
            "hotkey",
            "Press a key chord, e.g. \"ctrl+shift+p\" or [\"alt\",\"f4\"]; a lone modifier and window-manager chords work.",
            schema(
                json!({"keys": {"type": ["string", "array"], "items": {"type": "string"}}, "observe": observe()}),
                &["keys"],
            ),
            false,
        ),
        tool(
            "press_key",
            "Press one key: a character or a name (enter, tab, escape, backspace, delete, arrows, home, end, page_up, f1-f24, kp_*, media keys, ...).",
            schema(
                json!({"key": string("e.g. enter"), "modifier": strings("keys held"), "observe": observe()}),
                &["key"],
            ),
            false,
        ),
        tool(
            "type_text",
            "Type text at the caret (into element_id after focusing it), exactly, code point for code point (accents, CJK, emoji, combining marks, RTL; never normalized); newlines and tabs are typed as Enter and Tab. The exact text arrives whatever the Caps Lock state (lifted while typing, then restored): unlike a physical keyboard, Caps Lock does not flip the case.",
            schema(
                json!({"text": string("any Unicode"), "element_id": string("focus this first"), "delay_ms": int("between characters"), "observe": observe()}),
                &["text"],
            ),
            false,
        ),
        tool(
            "set_value",
            "Set an element's value directly (text fields, sliders, spin buttons), read back.",
            schema(
                json!({"element_id": string("e.g. e5"), "value": string("the value"), "observe": observe()}),
                &["element_id", "value"],
            ),
            false,
        ),
        tool(
            "scroll",
            "Scroll an element, or the wheel at a point.",
            schema(
                target_props(&[
                    ("direction", one_of(&["up", "down", "left", "right"], "")),
                    ("amount", int("default 3")),
                    ("by", one_of(&["line", "page"], "a page is 10 notches")),
                ]),
                &["direction"],
            ),
            false,
        ),
        tool(
            "list_apps",
            "Installed apps and the running ones (with their windows).",
            schema(json!({"running_only": boolean("only running apps")}), &[]),
            true,
        ),
        tool(
            "list_windows",
            "Open windows: title, pid, bounds, which is in front.",
            schema(json!({}), &[]),
            true,
        ),
        tool(
            "launch_app",
            "Launch an app by name (with urls and args) and wait for its window; on the web, open urls.",
            schema(
                json!({"name": string("fuzzy app name"), "urls": strings("to open"), "args": strings("more arguments")}),
                &[],
            ),
            false,
        ),
        tool(
            "zoom",
            "A region at native resolution with 20% padding (image). Pointer tools take from_zoom:true to use its pixels.",
            schema(
                json!({"x": int("left"), "y": int("top"), "w": int("width"), "h": int("height")}),
                &["x", "y", "w", "h"],
            ),
            true,
        ),
        tool(
            "set_recording",
            "Record every acting tool call into output_dir as turn-NNNNN/: action.json (tool, arguments, element, result, effect), snapshot.txt and screenshot.png after it. enabled:false stops.",
            schema(
                json!({"enabled": boolean("true records, false stops"), "output_dir": string("created if missing; turns are added after those in it")}),
                &["enabled"],
            ),
            false,
        ),
        tool(
            "get_recording_state",
            "Whether calls are recorded, where, and the next turn number.",
            schema(json!({}), &[]),
            true,
        ),
        tool(
            "replay_trajectory",
            "Call a recording's tools again in order; elements are found again by role and name; each turn's effect is compared with the recorded one.",
            schema(
                json!({"dir": string("a set_recording directory"), "delay_ms": int("between turns, default 500"), "stop_on_error": boolean("default true")}),
                &["dir"],
            ),
            false,
        ),
        tool(
            "get_config",
            "The persistent settings: file, values (defaults where unset).",
            schema(json!({}), &[]),
            true,
        ),
        tool(
            "set_config",
            "Change one persistent setting: capture_mode (som|ax|vision: what get_window_state returns), snapshot.detail, snapshot.deadline_ms, snapshot.max_nodes, snapshot.max_chars, agent_cursor.enabled (true|false|auto), agent_cursor.motion.KNOB (see set_agent_cursor_motion).",
            schema(
                json!({"key": string("e.g. capture_mode"), "value": {"description": "its new value"}}),
                &["key", "value"],
            ),
            false,
        ),
        tool(
            "get_agent_cursor_state",
            "The agent cursor: whether it is drawn and why, its motion knobs (durations in ms) and style. Reads only.",
            schema(json!({}), &[]),
            true,
        ),
        tool(
            "set_agent_cursor_enabled",
            "Turn the agent cursor on or off (saved). While on, this server's pointer actions (click, drag, scroll, move) first glide a drawn arrow to the target, ripple on clicks and frame the element; drawn only: the real pointer and the action are unchanged. Unless set, it is on only where a person watches the display (not Xvfb, a headless browser or CI), and off for one-shot `cup call` unless --agent-cursor is given. false removes it at once.",
            schema(json!({"enabled": boolean("true draws it, false removes it")}), &["enabled"]),
            false,
        ),
        tool(
            "set_agent_cursor_motion",
            "Tune the cursor's flight (saved; only the knobs given change): a cubic Bezier whose control points sit start_handle/end_handle of the way along the line, pushed sideways by arc_size of its length (arc_flow shifts the bulge toward the end (+) or start (-)); spring damps the arrow's rotation settling on arrival.",
            schema(
                json!({
                    "start_handle": number("0-1, default 0.3"),
                    "end_handle": number("0-1, default 0.3"),
                    "arc_size": number("0-1 of the path length, default 0.25 (0 straight)"),
                    "arc_flow": number("-1 to 1, default 0"),
                    "spring": number("0.3-1 (1 no overshoot), default 0.72"),
                    "glide_duration_ms": number("per flight, 0-10000, default 750"),
                    "dwell_after_click_ms": number("rest after a click, 0-10000, default 400"),
                    "idle_hide_ms": number("hide after this long without pointer actions, default 3000"),
                }),
                &[],
            ),
            false,
        ),
        tool(
            "set_agent_cursor_style",
            "Change how the cursor looks (saved; omitted fields keep their value): gradient_colors of the arrow tip to tail, bloom_color of its halo and the focus rectangle, or image_path, a PNG or SVG drawn instead of the arrow. [] or \"\" reverts a field to the default.",
            schema(
                json!({
                    "gradient_colors": strings("CSS hex colours #RRGGBB or #RGB, tip to tail"),
                    "bloom_color": string("CSS hex colour"),
                    "image_path": string("absolute or ~/ path of a PNG or SVG"),
                }),
                &[],
            ),
            false,
        ),
        tool(
            "highlight",
            "Flash a rectangle on screen around an element or a region, so a person sees which element an id means; returns when it is gone.",
            schema(
                json!({
                    "element_id": string("element from the last snapshot (or give x,y,w,h)"),
                    "x": int("screen px"),
                    "y": int("screen px"),
                    "w": int("width"),
                    "h": int("height"),
                    "duration_ms": int("1-10000, default 1500"),
                    "color": string("CSS hex colour (default the cursor's bloom colour)"),
                }),
                &[],
            ),
            true,
        ),
        tool(
            "check_permissions",
            "Check what cup needs (display, accessibility bus and flag, input, screen capture; macOS: the Accessibility and Screen Recording grants; web: the browser), each with how to fix it. On macOS it also raises the system's permission prompts for missing grants unless prompt is false; elsewhere prompt changes nothing.",
            schema(
                json!({"prompt": boolean("Raise the system permission prompts for missing grants (macOS). Default true.")}),
                &[],
            ),
            true,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_aliases_point_at_tools() {
        let tools = all();
        let mut names: Vec<&str> = tools.iter().map(|t| t.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "duplicate tool names");
        for (alias, tool) in ALIASES {
            assert!(names.contains(tool), "{alias} -> {tool}");
            assert!(!names.contains(alias), "{alias} is a tool name too");
        }
    }

    #[test]
    fn profiles_split_the_tools() {
        let cup = offered(Profile::Cup).len();
        let driver = offered(Profile::Driver).len();
        assert_eq!(cup + driver, offered(Profile::All).len());
        assert!(cup >= 11 && driver >= 20, "{cup} {driver}");
    }
}
