//! Over stdio on a headless Chromium page.

use super::*;

#[test]
fn stdio_web_page_snapshot_action_snapshot_and_screenshot() {
    let (_browser, env, _dir) = headless_page(
        "cup-mcp-web",
        r#"<!doctype html><title>Shop</title><h1>Checkout</h1>
<label><input type=checkbox> Gift wrap</label>
<button onclick="document.title='Sent!'">Send</button>"#,
    );
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);

    let mut snap = String::new();
    for _ in 0..50 {
        snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
        if snap.contains("Checkout") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(snap.starts_with("# CUP 0.1.0 | web |"), "{snap}");
    let send = id_of(&snap, &["btn \"Send\""]);
    let acted = c.call("click", json!({"element_id": send, "observe": true}));
    let acted_text = ok_text(&acted, "click Send");
    assert_eq!(acted["structured"]["effect"], json!("confirmed"), "{acted}");
    assert!(acted_text.contains("Sent!"), "{acted_text}");
    let after = ok_text(&c.call("snapshot", json!({})), "snapshot after");
    assert!(after.contains("doc \"Sent!\""), "{after}");
    // Without bounds (acting by id): the same lines, no x,y wxh.
    let by_id = ok_text(
        &c.call("snapshot", json!({"bounds": false})),
        "snapshot without bounds",
    );
    let has_bounds = |line: &str| {
        line.split_whitespace()
            .any(|t| t.contains(',') && t.chars().all(|ch| ch.is_ascii_digit() || ch == ','))
    };
    assert!(line_of(&by_id, &send).contains("btn \"Send\""), "{by_id}");
    assert!(!has_bounds(line_of(&by_id, &send)), "{by_id}");
    assert!(has_bounds(line_of(&after, &send)), "{after}");
    assert_eq!(by_id.lines().count(), after.lines().count(), "{by_id}");

    // A pixel click on the checkbox, seen on the element under the point.
    let gift = id_of(&after, &["chk \"Gift wrap\""]);
    let line = line_of(&after, &gift);
    let xy: Vec<i64> = line
        .split_whitespace()
        .find(|t| t.contains(',') && t.chars().all(|ch| ch.is_ascii_digit() || ch == ','))
        .map(|t| t.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(xy.len(), 2, "{line}");
    let click = c.call("click", json!({"x": xy[0] + 5, "y": xy[1] + 5}));
    let click_text = ok_text(&click, "pixel click");
    assert!(click_text.contains("+checked"), "{click_text}");

    let shot = c.call("screenshot", json!({}));
    ok_text(&shot, "screenshot");
    assert_eq!(shot["images"][0]["png"], json!(true), "{shot}");
    let js = c.call(
        "page",
        json!({"action": "execute_javascript", "javascript": "document.title"}),
    );
    assert_eq!(ok_text(&js, "page js").trim(), "Sent!");
}
