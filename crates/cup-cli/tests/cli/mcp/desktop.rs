//! Over stdio on gtk3-widget-factory: the tool list, snapshot -> action ->
//! snapshot, the Gen-1 names and the driver tools.

use super::*;

#[test]
fn stdio_desktop_snapshot_action_snapshot_and_driver_tools() {
    let (_state, env, _pid) = desktop("mcp-stdio");
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);

    let listed = c.tools();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for t in [
        "snapshot",
        "snapshot_app",
        "snapshot_desktop",
        "overview",
        "action",
        "open_app",
        "find",
        "screenshot",
        "page",
        "batch",
        "wait",
        "get_window_state",
        "click",
        "double_click",
        "right_click",
        "mouse_down",
        "mouse_up",
        "drag",
        "move_cursor",
        "get_cursor_position",
        "get_screen_size",
        "hotkey",
        "press_key",
        "type_text",
        "set_value",
        "scroll",
        "list_apps",
        "list_windows",
        "launch_app",
        "zoom",
        "check_permissions",
    ] {
        assert!(names.contains(&t), "{t} missing from {names:?}");
    }

    // snapshot -> action -> snapshot.
    let snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
    assert!(snap.starts_with("# CUP 0.1.0 | linux |"), "{snap}");
    let id = id_of(&snap, &["chk \"checkbutton\"", "[clk,tog]"]);
    let before = line_of(&snap, &id).to_owned();
    let was_checked = before.contains("chk}") || before.contains("{chk") || before.contains(",chk");
    let acted = c.call(
        "action",
        json!({"action": "toggle", "element_id": id, "observe": true}),
    );
    let acted_text = ok_text(&acted, "action toggle");
    assert_eq!(acted["structured"]["effect"], json!("confirmed"), "{acted}");
    assert!(acted_text.contains("# observed: 1 changed"), "{acted_text}");
    let after = ok_text(&c.call("snapshot", json!({})), "snapshot after");
    let now = line_of(&after, &id);
    let is_checked = now.contains("{chk") || now.contains(",chk");
    assert_ne!(was_checked, is_checked, "before: {before}\nafter: {now}");
    // Toggled back, then only what changed: that line, by the same id.
    let back = c.call("action", json!({"action": "toggle", "element_id": id}));
    ok_text(&back, "toggle back");
    let changed = ok_text(
        &c.call("snapshot", json!({"since": "last"})),
        "snapshot since last",
    );
    assert!(changed.contains("# changes since s"), "{changed}");
    let line = line_of(&changed, &id);
    assert_eq!(
        line.contains("{chk") || line.contains(",chk"),
        was_checked,
        "{changed}"
    );
    assert!(changed.len() * 10 <= after.len(), "{changed}");
    let both = c.call("snapshot", json!({"since": "last", "query": "x"}));
    assert_eq!(both["is_error"], json!(true), "{both}");

    // Gen-1 names answer too.
    let gen1 = c.call(
        "execute_action",
        json!({"action": "toggle", "element_id": id}),
    );
    ok_text(&gen1, "execute_action");
    ok_text(&c.call("get_foreground", json!({})), "get_foreground");

    // The window state: compact tree plus a PNG image block of the window.
    let ws = c.call("get_window_state", json!({"query": "checkbutton"}));
    let ws_text = ok_text(&ws, "get_window_state");
    assert!(ws_text.contains("query \"checkbutton\""), "{ws_text}");
    let img = &ws["images"][0];
    assert_eq!(img["mime"], json!("image/png"));
    assert_eq!(img["png"], json!(true), "{img}");
    assert!(img["width"].as_u64().unwrap_or(0) > 100, "{img}");

    // Screenshot of a region: exactly that size.
    let shot = c.call("screenshot", json!({"x": 10, "y": 20, "w": 300, "h": 200}));
    ok_text(&shot, "screenshot");
    assert_eq!(shot["images"][0]["png"], json!(true));
    assert_eq!(shot["images"][0]["width"], json!(300));
    assert_eq!(shot["images"][0]["height"], json!(200));

    // A pixel click at the checkbox's centre, through zoom coordinates.
    let bounds: Vec<i64> = now
        .split_whitespace()
        .find(|t| t.contains(',') && t.chars().all(|ch| ch.is_ascii_digit() || ch == ','))
        .map(|t| t.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(bounds.len(), 2, "{now}");
    let zoom = c.call(
        "zoom",
        json!({"x": bounds[0], "y": bounds[1], "w": 100, "h": 20}),
    );
    let zoom_text = ok_text(&zoom, "zoom");
    assert_eq!(zoom["images"][0]["png"], json!(true));
    let origin: Vec<i64> = zoom_text
        .split(" at ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .map(|p| p.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(origin.len(), 2, "{zoom_text}");
    let click = c.call(
        "click",
        json!({"x": bounds[0] + 10 - origin[0], "y": bounds[1] + 10 - origin[1], "from_zoom": true}),
    );
    ok_text(&click, "click from_zoom");
    assert_eq!(click["structured"]["effect"], json!("confirmed"), "{click}");

    // Pointer and keys.
    let moved = c.call("move_cursor", json!({"x": 40, "y": 30}));
    ok_text(&moved, "move_cursor");
    let pos = c.call("get_cursor_position", json!({}));
    assert_eq!(pos["structured"], json!({"x": 40, "y": 30}), "{pos}");
    let size = c.call("get_screen_size", json!({}));
    assert_eq!(size["structured"]["width"], json!(1920), "{size}");
    let snap = ok_text(&c.call("snapshot", json!({"query": "entry"})), "snapshot");
    let entry = id_of(&snap, &["tbx", "val=\"entry\"", "[clk,sv,typ]"]);
    let typed = c.call(
        "type_text",
        json!({"element_id": entry, "text": "héllo ✓", "observe": true}),
    );
    let typed_text = ok_text(&typed, "type_text");
    assert!(typed_text.contains("héllo ✓"), "{typed_text}");
    ok_text(&c.call("hotkey", json!({"keys": ["ctrl", "a"]})), "hotkey");
    ok_text(
        &c.call("press_key", json!({"key": "backspace"})),
        "press_key",
    );
    let set = c.call(
        "set_value",
        json!({"element_id": entry, "value": "set by MCP"}),
    );
    assert!(ok_text(&set, "set_value").contains("reads back exactly"));
    let perms = c.call("check_permissions", json!({}));
    assert_eq!(perms["structured"]["ok"], json!(true), "{perms}");
    let windows = ok_text(&c.call("list_windows", json!({})), "list_windows");
    assert!(windows.contains("gtk3-widget-factory"), "{windows}");
    let apps = ok_text(
        &c.call("list_apps", json!({"running_only": true})),
        "list_apps",
    );
    assert!(
        apps.contains("Widget Factory") && apps.contains("running pid"),
        "{apps}"
    );
}
