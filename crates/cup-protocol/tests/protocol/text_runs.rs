//! D16: on the web, the text runs of one block are one line; `page`
//! detail shows whole names and says `offscreen` only on what acts.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use cup_protocol::compact::{parse, render, Detail, Line, RenderOptions};
use cup_protocol::Envelope;
use serde_json::{json, Value};

fn env(platform: &str, tree: Value) -> Envelope {
    serde_json::from_value(json!({
        "version": "0.1.0", "platform": platform, "screen": {"w": 1000, "h": 800}, "tree": tree
    }))
    .expect("test envelope parses")
}

fn body(platform: &str, tree: &Value, detail: Detail) -> String {
    let text = render(
        &env(platform, tree.clone()),
        &RenderOptions {
            detail,
            max_chars: 0,
            ..RenderOptions::default()
        },
    );
    text.split_once("\n\n")
        .expect("blank line after header")
        .1
        .to_owned()
}

fn t(id: &str, name: &str) -> Value {
    json!({"id": id, "role": "text", "name": name})
}

fn wrap(id: &str, children: Vec<Value>) -> Value {
    json!({"id": id, "role": "generic", "name": "", "children": children})
}

/// A Sphinx-like page: a paragraph of runs around `<code>` and a link,
/// a `<div>` of two paragraphs, a table cell named by its content.
fn page() -> Value {
    let link = json!({"id": "e9", "role": "link", "name": "see here",
        "bounds": {"x": 10, "y": 10, "w": 50, "h": 12}, "actions": ["click"]});
    let paragraph = wrap(
        "e1",
        vec![
            t("e2", "Operations always return"),
            wrap("e3", vec![t("e4", "0")]),
            t("e5", "or"),
            wrap("e6", vec![t("e7", "False")]),
            t("e8", "for false,"),
            link,
            t("e10", "and more."),
        ],
    );
    let div = wrap(
        "e11",
        vec![
            wrap("e12", vec![t("e13", "First paragraph.")]),
            wrap("e14", vec![t("e15", "Second paragraph.")]),
        ],
    );
    let cell_paragraph = wrap(
        "e17",
        vec![
            wrap("e18", vec![t("e19", "x")]),
            t("e20", "or"),
            wrap("e21", vec![t("e22", "y")]),
        ],
    );
    let cell = json!({"id": "e16", "role": "cell", "name": "x or y", "children": [cell_paragraph]});
    json!([{"id": "e0", "role": "document", "name": "Built-in Types",
        "children": [paragraph, div, cell]}])
}

#[test]
fn runs_of_one_paragraph_are_one_line_with_the_first_id() {
    let text = body("web", &page(), Detail::Compact);
    assert_eq!(
        text,
        "[e0] doc \"Built-in Types\"\n\
         \x20 [e2] txt \"Operations always return 0 or False for false,\"\n\
         \x20 [e9] lnk \"see here\" 10,10 50x12 [clk]\n\
         \x20 [e10] txt \"and more.\"\n\
         \x20 [e13] txt \"First paragraph.\"\n\
         \x20 [e15] txt \"Second paragraph.\"\n\
         \x20 [e16] cel \"x or y\"\n"
    );
    // The parser reads every line back, the joined one included.
    let doc = parse(&render(&env("web", page()), &RenderOptions::default())).unwrap();
    let names: Vec<_> = doc
        .lines
        .iter()
        .filter_map(|l| match l {
            Line::Node { fields, .. } => fields.name.clone(),
            _ => None,
        })
        .collect();
    assert!(names.contains(&"Operations always return 0 or False for false,".to_owned()));
}

#[test]
fn other_platforms_keep_a_line_per_text() {
    let text = body("linux", &page(), Detail::Compact);
    assert!(
        text.contains("[e2] txt \"Operations always return\"\n"),
        "{text}"
    );
    assert!(text.contains("[e5] txt \"or\"\n"), "{text}");
}

#[test]
fn full_detail_joins_nothing() {
    let text = body("web", &page(), Detail::Full);
    assert!(text.contains("[e5] txt \"or\"\n"), "{text}");
    assert!(text.contains("[e19] txt \"x\"\n"), "{text}");
}

#[test]
fn runs_with_other_states_stay_apart() {
    let tree = json!([{"id": "e0", "role": "document", "name": "", "children": [
        wrap("e1", vec![
            t("e2", "plain"),
            json!({"id": "e3", "role": "text", "name": "picked", "states": ["selected"]}),
        ]),
    ]}]);
    let text = body("web", &tree, Detail::Compact);
    assert!(text.contains("[e2] txt \"plain\"\n"), "{text}");
    assert!(text.contains("[e3] txt \"picked\" {sel}\n"), "{text}");
}

#[test]
fn page_detail_shows_whole_names_and_offscreen_only_where_it_acts() {
    let long = "word ".repeat(40);
    let tree = json!([{"id": "e0", "role": "document", "name": "Doc", "children": [
        {"id": "e1", "role": "text", "name": long.trim(), "states": ["offscreen"]},
        {"id": "e2", "role": "link", "name": "Far away", "states": ["offscreen"], "bounds": {"x": 0, "y": 3000, "w": 40, "h": 10}, "actions": ["click"]},
    ]}]);
    let page = body("web", &tree, Detail::Page);
    assert!(
        page.contains(&format!("[e1] txt \"{}\"\n", long.trim())),
        "{page}"
    );
    // The bounds say the link is below the screen: no `{off}`.
    assert!(
        page.contains("[e2] lnk \"Far away\" 0,3000 40x10 [clk]\n"),
        "{page}"
    );
    // The default detail keeps the spec's cut (and drops the offscreen text).
    let compact = body("web", &tree, Detail::Compact);
    assert!(!compact.contains("[e1]"), "{compact}");
    let doc = parse(&render(
        &env("web", tree),
        &RenderOptions {
            detail: Detail::Page,
            max_chars: 0,
            ..RenderOptions::default()
        },
    ))
    .unwrap();
    assert_eq!(doc.nodes().count(), 3);
}

#[test]
fn a_run_inside_an_inline_wrapper_is_not_lost() {
    // `<td><p>if <em>x</em> is false, then <em>y</em></p><a>more</a></td>`:
    // each `<em>` holds one text the cell's name contains; it stays in the
    // joined line (the cell has another item, so no text is its only one).
    let link = json!({"id": "e9", "role": "link", "name": "more",
        "bounds": {"x": 0, "y": 0, "w": 30, "h": 10}, "actions": ["click"]});
    let p = wrap(
        "e2",
        vec![
            t("e3", "if"),
            wrap("e4", vec![t("e5", "x")]),
            t("e6", "is false, then"),
            wrap("e7", vec![t("e8", "y")]),
        ],
    );
    let tree = json!([{"id": "e1", "role": "cell", "name": "if x is false, then y more",
        "children": [p, link]}]);
    let text = body("web", &tree, Detail::Compact);
    assert!(
        text.contains("[e3] txt \"if x is false, then y\"\n"),
        "{text}"
    );
}

#[test]
fn a_name_said_by_the_lines_below_is_left_off() {
    // rustdoc's <summary>: the button is named by all of its content.
    let source = json!({"id": "e2", "role": "link", "name": "source",
        "bounds": {"x": 900, "y": 0, "w": 40, "h": 10}, "actions": ["click"]});
    let push = json!({"id": "e5", "role": "link", "name": "push",
        "bounds": {"x": 60, "y": 0, "w": 30, "h": 10}, "actions": ["click"]});
    let heading = json!({"id": "e3", "role": "heading", "name": "pub fn push(&mut self)",
        "attributes": {"level": 4},
        "children": [t("e4", "pub fn"), push, t("e6", "(&mut self)")]});
    let tree = json!([{"id": "e0", "role": "document", "name": "Vec", "children": [
        {"id": "e1", "role": "button", "name": "source pub fn push(&mut self) Collapse",
         "bounds": {"x": 0, "y": 0, "w": 950, "h": 24}, "states": ["expanded"],
         "actions": ["click", "collapse"],
         "children": [source, heading, t("e7", "Collapse")]},
        {"id": "e8", "role": "button", "name": "Menu",
         "bounds": {"x": 0, "y": 30, "w": 40, "h": 20}, "actions": ["click"],
         "children": [t("e9", "Menu"), t("e10", "(3)")]},
    ]}]);
    let text = body("web", &tree, Detail::Compact);
    assert_eq!(
        text,
        "[e0] doc \"Vec\"\n\
         \x20 [e1] btn 0,0 950x24 {exp} [clk,col]\n\
         \x20   [e2] lnk \"source\" 900,0 40x10 [clk]\n\
         \x20   [e3] hdg (L4)\n\
         \x20     [e4] txt \"pub fn\"\n\
         \x20     [e5] lnk \"push\" 60,0 30x10 [clk]\n\
         \x20     [e6] txt \"(&mut self)\"\n\
         \x20   [e7] txt \"Collapse\"\n\
         \x20 [e8] btn \"Menu\" 0,30 40x20 [clk]\n\
         \x20   [e9] txt \"Menu (3)\"\n"
    );
    // The JSON keeps every name; the full detail shows them all.
    let full = body("web", &tree, Detail::Full);
    assert!(
        full.contains("[e1] btn \"source pub fn push(&mut self) Collapse\""),
        "{full}"
    );
}

#[test]
fn without_bounds_the_lines_are_the_same_but_for_x_y_w_h() {
    let tree = page();
    let opts = |bounds| RenderOptions {
        max_chars: 0,
        bounds,
        ..RenderOptions::default()
    };
    let with = render(&env("web", tree.clone()), &opts(true));
    let without = render(&env("web", tree), &opts(false));
    assert!(
        with.contains("[e9] lnk \"see here\" 10,10 50x12 [clk]\n"),
        "{with}"
    );
    assert!(
        without.contains("[e9] lnk \"see here\" [clk]\n"),
        "{without}"
    );
    assert_eq!(with.lines().count(), without.lines().count());
    let doc = parse(&without).unwrap();
    assert!(doc.nodes().all(|(_, f)| f.bounds.is_none()));
}

#[test]
fn a_cell_named_by_its_only_control_leaves_the_name_to_it() {
    // Django's changelist: a cell named by the checkbox it holds, a row
    // header by its link; a cell that acts keeps its name (D14's case).
    let chk = json!({"id": "e2", "role": "checkbox", "name": "Select ORD-1001",
        "bounds": {"x": 0, "y": 0, "w": 10, "h": 10}, "actions": ["click", "toggle"]});
    let link = json!({"id": "e4", "role": "link", "name": "ORD-1001",
        "bounds": {"x": 20, "y": 0, "w": 40, "h": 10}, "actions": ["click"]});
    let inner = json!({"id": "e6", "role": "cell", "name": "Ada",
        "bounds": {"x": 70, "y": 0, "w": 40, "h": 10}, "actions": ["click"]});
    let tree = json!([{"id": "e0", "role": "row", "name": "", "children": [
        {"id": "e1", "role": "cell", "name": "Select ORD-1001", "children": [chk]},
        {"id": "e3", "role": "rowheader", "name": "ORD-1001", "children": [link]},
        {"id": "e5", "role": "cell", "name": "Ada",
         "bounds": {"x": 70, "y": 0, "w": 40, "h": 10}, "actions": ["select"], "children": [inner]},
    ]}]);
    let text = body("linux", &tree, Detail::Compact);
    assert!(
        text.contains("  [e1] cel\n    [e2] chk \"Select ORD-1001\""),
        "{text}"
    );
    assert!(
        text.contains("  [e3] rowh\n    [e4] lnk \"ORD-1001\""),
        "{text}"
    );
    assert!(
        text.contains("  [e5] cel \"Ada\" 70,0 40x10 [sel]\n"),
        "{text}"
    );
    // D18, on the web: the cell and the row header give their place to
    // the one line they hold; the cell that acts stays.
    let web = body("web", &tree, Detail::Compact);
    assert_eq!(
        web,
        "[e0] row\n\
         \x20 [e2] chk \"Select ORD-1001\" 0,0 10x10 [clk,tog]\n\
         \x20 [e4] lnk \"ORD-1001\" 20,0 40x10 [clk]\n\
         \x20 [e5] cel \"Ada\" 70,0 40x10 [sel]\n\
         \x20   [e6] cel \"Ada\" 70,0 40x10 [clk]\n"
    );
}

#[test]
fn a_label_named_by_its_text_and_its_fields_value_leaves_the_name_to_them() {
    // Firefox names a `<label>Full name <input></label>` by its text and
    // the field's value; the field's line says both, and the label's line
    // would say nothing: the field takes its place. A label whose name
    // says more than its lines keeps it.
    let field = |id: &str, name: &str, value: &str| {
        json!({"id": id, "role": "textbox", "name": name, "value": value,
            "bounds": {"x": 0, "y": 0, "w": 100, "h": 20}, "actions": ["click", "type"]})
    };
    let tree = json!([{"id": "e0", "role": "form", "name": "", "children": [
        {"id": "e1", "role": "text", "name": "Full name Ada Lovelace",
         "children": [field("e2", "Full name", "Ada Lovelace")]},
        {"id": "e3", "role": "text", "name": "Notes for the courier",
         "children": [field("e4", "Notes", "Leave at the door")]},
    ]}]);
    let text = body("linux", &tree, Detail::Compact);
    assert!(
        text.contains(
            "[e0] frm\n  [e2] tbx \"Full name\" 0,0 100x20 [clk,typ] val=\"Ada Lovelace\"\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("  [e3] txt \"Notes for the courier\"\n    [e4] tbx \"Notes\""),
        "{text}"
    );
}
