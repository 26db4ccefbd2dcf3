//! D13: items without a place on screen (closed menus, content of a node
//! that is itself off screen without bounds) fold into one line.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use cup_protocol::compact::prune::for_each_item;
use cup_protocol::compact::{parse, render, Detail, Folded, Line, RenderOptions};
use cup_protocol::{Action, Envelope, Node};
use serde_json::{json, Value};

fn env(tree: Value) -> Envelope {
    serde_json::from_value(json!({
        "version": "0.1.0", "platform": "linux", "screen": {"w": 1000, "h": 800}, "tree": tree
    }))
    .expect("test envelope parses")
}

fn text_with(tree: &Value, detail: Detail) -> String {
    render(
        &env(tree.clone()),
        &RenderOptions {
            detail,
            max_chars: 0,
            ..RenderOptions::default()
        },
    )
}

/// The body (node and hint lines) of the compact text.
fn body(tree: &Value, detail: Detail) -> String {
    text_with(tree, detail)
        .split_once("\n\n")
        .expect("blank line after header")
        .1
        .to_owned()
}

fn b(x: i64, y: i64, w: u64, h: u64) -> Value {
    json!({"x": x, "y": y, "w": w, "h": h})
}

/// A closed menu item as LibreOffice shows it: offscreen, no bounds.
fn hidden_item(id: &str, name: &str) -> Value {
    json!({"id": id, "role": "menuitem", "name": name, "states": ["offscreen"], "actions": ["click"]})
}

/// A LibreOffice Writer-like window: a menu bar whose closed menus hold
/// offscreen items without bounds, one open menu, a toolbar.
fn writer() -> Value {
    json!([{"id": "e0", "role": "window", "name": "Untitled 1 - LibreOffice Writer", "bounds": b(0, 0, 1000, 800),
    "children": [
        {"id": "e1", "role": "menubar", "name": "Menu Bar", "bounds": b(0, 0, 1000, 20), "children": [
            {"id": "e2", "role": "menu", "name": "File", "bounds": b(0, 0, 40, 20), "actions": ["click"], "children": [
                hidden_item("e3", "New"),
                hidden_item("e4", "Open..."),
                {"id": "e5", "role": "menu", "name": "Recent Documents", "states": ["offscreen"], "actions": ["click"], "children": [
                    hidden_item("e6", "a.odt"),
                    hidden_item("e7", "b.odt")
                ]},
                {"id": "e8", "role": "separator", "name": "", "states": ["offscreen"]},
                {"id": "e9", "role": "generic", "name": "", "states": ["offscreen"], "children": [
                    hidden_item("e10", "Print..."),
                    hidden_item("e11", "Print Preview")
                ]},
                {"id": "e12", "role": "text", "name": "Not an item", "states": ["offscreen"]},
                hidden_item("e13", "Exit LibreOffice")
            ]},
            {"id": "e14", "role": "menu", "name": "Edit", "bounds": b(40, 0, 40, 20), "actions": ["click"], "children": [
                hidden_item("e15", "Undo")
            ]},
            {"id": "e16", "role": "menu", "name": "View", "bounds": b(80, 0, 40, 20), "states": ["expanded"], "actions": ["click"], "children": [
                {"id": "e17", "role": "menuitem", "name": "Normal", "bounds": b(80, 20, 120, 20), "actions": ["click"]},
                {"id": "e18", "role": "menuitem", "name": "Web", "bounds": b(80, 40, 120, 20), "actions": ["click"]},
                {"id": "e19", "role": "menu", "name": "Toolbars", "bounds": b(80, 60, 120, 20), "actions": ["click"], "children": [
                    hidden_item("e20", "Standard"),
                    hidden_item("e21", "Formatting")
                ]}
            ]},
            {"id": "e22", "role": "menu", "name": "Format", "bounds": b(120, 0, 50, 20), "actions": ["click", "expand"], "states": ["collapsed"], "children": [
                hidden_item("e23", "Text"),
                hidden_item("e24", "Spacing")
            ]}
        ]},
        {"id": "e25", "role": "toolbar", "name": "Standard", "bounds": b(0, 20, 1000, 30), "children": [
            {"id": "e26", "role": "button", "name": "Save", "bounds": b(0, 20, 30, 30), "actions": ["click"]}
        ]}
    ]}])
}

/// A web page: a scroll container with items outside its viewport (with
/// bounds, offscreen), a link far below the screen, a closed select whose
/// options keep their nodes without boxes.
fn web_page() -> Value {
    json!([{"id": "e0", "role": "document", "name": "Shop", "bounds": b(0, 0, 1000, 800), "children": [
        {"id": "e1", "role": "list", "name": "Feed", "bounds": b(0, 0, 1000, 200), "actions": ["scroll"], "children": [
            {"id": "e2", "role": "listitem", "name": "One", "bounds": b(0, 0, 1000, 100), "children": [
                {"id": "e3", "role": "link", "name": "Open one", "bounds": b(0, 0, 100, 20), "actions": ["click"]}]},
            {"id": "e4", "role": "listitem", "name": "Two", "bounds": b(0, 100, 1000, 100)},
            {"id": "e5", "role": "listitem", "name": "Three", "bounds": b(0, 200, 1000, 100), "states": ["offscreen"], "children": [
                {"id": "e6", "role": "link", "name": "Open three", "bounds": b(0, 200, 100, 20), "states": ["offscreen"], "actions": ["click"]}]},
            {"id": "e7", "role": "listitem", "name": "Four", "bounds": b(0, 300, 1000, 100), "states": ["offscreen"]}
        ]},
        {"id": "e8", "role": "combobox", "name": "Country", "bounds": b(0, 300, 200, 30), "value": "France",
         "states": ["collapsed"], "actions": ["click", "expand", "select"], "children": [
            {"id": "e9", "role": "option", "name": "France", "states": ["selected"], "actions": ["click", "select"]},
            {"id": "e10", "role": "option", "name": "Japan", "actions": ["click", "select"]}
        ]},
        {"id": "e11", "role": "link", "name": "Far below", "bounds": b(0, 3000, 100, 20), "states": ["offscreen"], "actions": ["click"]},
        {"id": "e12", "role": "button", "name": "Menu", "bounds": b(900, 0, 100, 30), "states": ["collapsed"], "actions": ["click", "expand"], "children": [
            {"id": "e13", "role": "menuitem", "name": "Off canvas", "bounds": b(-500, 0, 100, 30), "states": ["offscreen"], "actions": ["click"]}
        ]}
    ]}])
}

const WRITER_COMPACT: &str = "\
# CUP 0.1.0 | linux | 1000x800
# 11 nodes (27 before pruning)

[e0] win \"Untitled 1 - LibreOffice Writer\"
  [e1] mnub \"Menu Bar\"
    [e2] mnu \"File\" 0,0 40x20 [clk]
      # 6 items in closed menu e2: click to open
    [e14] mnu \"Edit\" 40,0 40x20 [clk]
      # 1 item in closed menu e14: click to open
    [e16] mnu \"View\" 80,0 40x20 {exp} [clk]
      [e17] mi \"Normal\" 80,20 120x20 [clk]
      [e18] mi \"Web\" 80,40 120x20 [clk]
      [e19] mnu \"Toolbars\" 80,60 120x20 [clk]
        # 2 items in closed menu e19: click to open
    [e22] mnu \"Format\" 120,0 50x20 {col} [clk,exp]
      # 2 items in closed menu e22: expand to open
  [e25] tlbr \"Standard\"
    [e26] btn \"Save\" 0,20 30x30 [clk]
";

#[test]
fn closed_menus_of_a_menu_bar_fold_to_one_line_each() {
    // Before D13 the same tree printed 24 nodes: every item of File, Edit,
    // Toolbars and Format with {off} and no bounds.
    assert_eq!(text_with(&writer(), Detail::Compact), WRITER_COMPACT);
}

#[test]
fn an_open_menu_shows_its_items() {
    let out = body(&writer(), Detail::Compact);
    for shown in [
        "[e16] mnu \"View\" 80,0 40x20 {exp} [clk]\n      [e17] mi \"Normal\" 80,20 120x20 [clk]",
        "[e18] mi \"Web\"",
        "[e19] mnu \"Toolbars\"",
    ] {
        assert!(out.contains(shown), "{shown} in {out}");
    }
    // Opening File (its items get a place on screen) shows them all.
    let mut tree = writer();
    let file = &mut tree[0]["children"][0]["children"][0];
    file["states"] = json!(["expanded"]);
    let mut y = 20;
    let mut place = |item: &mut Value| {
        item["states"] = json!([]);
        item["bounds"] = b(0, y, 150, 20);
        y += 20;
    };
    for item in file["children"].as_array_mut().unwrap() {
        if item["role"] == "generic" {
            item["children"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .for_each(&mut place);
        } else {
            place(item);
        }
    }
    let out = body(&tree, Detail::Compact);
    for shown in [
        "[e3] mi \"New\" 0,20 150x20 [clk]",
        "[e4] mi \"Open...\"",
        "[e10] mi \"Print...\"",
        "[e11] mi \"Print Preview\"",
        "[e13] mi \"Exit LibreOffice\"",
    ] {
        assert!(out.contains(shown), "{shown} in {out}");
    }
    // Recent Documents is on screen and closed: its items fold below it.
    assert!(
        out.contains("[e5] mnu \"Recent Documents\" 0,60 150x20 [clk]\n        # 2 items in closed menu e5: click to open\n"),
        "{out}"
    );
    assert!(!out.contains("closed menu e2 "), "{out}");
}

#[test]
fn the_count_is_the_items_of_d6() {
    let tree: Vec<Node> = serde_json::from_value(writer()).unwrap();
    let file = &tree[0].children[0].children[0];
    assert_eq!(file.name, "File");
    let mut items = Vec::new();
    for_each_item(Some(file), &file.children, &mut |child, _| {
        items.push(child.name.clone())
    });
    // The separator and the offscreen text are dropped, the wrapper's items
    // promoted; Recent Documents counts once, its own items are its own.
    assert_eq!(
        items,
        [
            "New",
            "Open...",
            "Recent Documents",
            "Print...",
            "Print Preview",
            "Exit LibreOffice"
        ]
    );
    assert!(WRITER_COMPACT.contains(&format!("# {} items in closed menu e2: ", items.len())));
}

#[test]
fn full_and_page_detail_do_not_change() {
    // The texts of these levels before D13, verbatim.
    let full = "\
# CUP 0.1.0 | linux | 1000x800
# 27 nodes (27 before pruning)

[e0] win \"Untitled 1 - LibreOffice Writer\"
  [e1] mnub \"Menu Bar\"
    [e2] mnu \"File\" 0,0 40x20 [clk]
      [e3] mi \"New\" {off} [clk]
      [e4] mi \"Open...\" {off} [clk]
      [e5] mnu \"Recent Documents\" {off} [clk]
        [e6] mi \"a.odt\" {off} [clk]
        [e7] mi \"b.odt\" {off} [clk]
      [e8] sep {off}
      [e9] gen {off}
        [e10] mi \"Print...\" {off} [clk]
        [e11] mi \"Print Preview\" {off} [clk]
      [e12] txt \"Not an item\" {off}
      [e13] mi \"Exit LibreOffice\" {off} [clk]
    [e14] mnu \"Edit\" 40,0 40x20 [clk]
      [e15] mi \"Undo\" {off} [clk]
    [e16] mnu \"View\" 80,0 40x20 {exp} [clk]
      [e17] mi \"Normal\" 80,20 120x20 [clk]
      [e18] mi \"Web\" 80,40 120x20 [clk]
      [e19] mnu \"Toolbars\" 80,60 120x20 [clk]
        [e20] mi \"Standard\" {off} [clk]
        [e21] mi \"Formatting\" {off} [clk]
    [e22] mnu \"Format\" 120,0 50x20 {col} [clk,exp]
      [e23] mi \"Text\" {off} [clk]
      [e24] mi \"Spacing\" {off} [clk]
  [e25] tlbr \"Standard\"
    [e26] btn \"Save\" 0,20 30x30 [clk]
";
    assert_eq!(text_with(&writer(), Detail::Full), full);
    let page = "\
# CUP 0.1.0 | linux | 1000x800
# 25 nodes (27 before pruning)

[e0] win \"Untitled 1 - LibreOffice Writer\"
  [e1] mnub \"Menu Bar\"
    [e2] mnu \"File\" 0,0 40x20 [clk]
      [e3] mi \"New\" {off} [clk]
      [e4] mi \"Open...\" {off} [clk]
      [e5] mnu \"Recent Documents\" {off} [clk]
        [e6] mi \"a.odt\" {off} [clk]
        [e7] mi \"b.odt\" {off} [clk]
      [e10] mi \"Print...\" {off} [clk]
      [e11] mi \"Print Preview\" {off} [clk]
      [e12] txt \"Not an item\"
      [e13] mi \"Exit LibreOffice\" {off} [clk]
    [e14] mnu \"Edit\" 40,0 40x20 [clk]
      [e15] mi \"Undo\" {off} [clk]
    [e16] mnu \"View\" 80,0 40x20 {exp} [clk]
      [e17] mi \"Normal\" 80,20 120x20 [clk]
      [e18] mi \"Web\" 80,40 120x20 [clk]
      [e19] mnu \"Toolbars\" 80,60 120x20 [clk]
        [e20] mi \"Standard\" {off} [clk]
        [e21] mi \"Formatting\" {off} [clk]
    [e22] mnu \"Format\" 120,0 50x20 {col} [clk,exp]
      [e23] mi \"Text\" {off} [clk]
      [e24] mi \"Spacing\" {off} [clk]
  [e25] tlbr \"Standard\"
    [e26] btn \"Save\" 0,20 30x30 [clk]
";
    assert_eq!(text_with(&writer(), Detail::Page), page);
}

#[test]
fn web_scroll_containers_and_closed_selects_do_not_change() {
    // Offscreen items with bounds are clipped (D5) as before; the options
    // of a closed <select> have no box but are not offscreen: shown.
    // The texts before D13, verbatim, but for D19: the offscreen item
    // "Three" holds a link, so the feed's hint counts it.
    let compact = "\
# CUP 0.1.0 | linux | 1000x800
# 9 nodes (14 before pruning)

[e0] doc \"Shop\"
  [e1] lst \"Feed\" 0,0 1000x200 [scr]
    [e2] li \"One\"
      [e3] lnk \"Open one\" 0,0 100x20 [clk]
    [e4] li \"Two\"
    # 1 more item — 1 below: page(element_id='e1', direction='down')
  [e8] cmb \"Country\" 0,300 200x30 {col} [clk,exp,sel] val=\"France\"
    [e9] opt \"France\" {sel} [clk,sel]
    [e10] opt \"Japan\" [clk,sel]
  [e12] btn \"Menu\" 900,0 100x30 {col} [clk,exp]
    # 1 more item — 1 left: page(element_id='e12', direction='left')
  # 1 more item — 1 below: page(element_id='e0', direction='down')
";
    assert_eq!(text_with(&web_page(), Detail::Compact), compact);
    let minimal = "\
# CUP 0.1.0 | linux | 1000x800
# 12 nodes (14 before pruning)

[e0] doc \"Shop\"
  [e1] lst \"Feed\" 0,0 1000x200 [scr]
    [e2] li \"One\"
      [e3] lnk \"Open one\" 0,0 100x20 [clk]
    [e5] li \"Three\" {off}
      [e6] lnk \"Open three\" 0,200 100x20 {off} [clk]
  [e8] cmb \"Country\" 0,300 200x30 {col} [clk,exp,sel] val=\"France\"
    [e9] opt \"France\" {sel} [clk,sel]
    [e10] opt \"Japan\" [clk,sel]
  [e11] lnk \"Far below\" 0,3000 100x20 {off} [clk]
  [e12] btn \"Menu\" 900,0 100x30 {col} [clk,exp]
    [e13] mi \"Off canvas\" -500,0 100x30 {off} [clk]
";
    assert_eq!(text_with(&web_page(), Detail::Minimal), minimal);
}

#[test]
fn minimal_detail_folds_its_own_items() {
    let out = body(&writer(), Detail::Minimal);
    // Minimal keeps the offscreen wrapper (it hoists nothing): File has
    // five items there, the wrapper one of them.
    assert!(
        out.starts_with("[e0] win \"Untitled 1 - LibreOffice Writer\"\n  [e1] mnub \"Menu Bar\"\n    [e2] mnu \"File\" 0,0 40x20 [clk]\n      \
         # 5 items in closed menu e2: click to open\n    [e14] mnu \"Edit\""),
        "{out}"
    );
    assert!(
        out.contains("# 2 items in closed menu e22: expand to open"),
        "{out}"
    );
    assert!(!out.contains("{off}"), "{out}");
}

/// A GTK 4-like list: rows scrolled out of view are offscreen without
/// bounds; one of them holds buttons.
fn gtk4_list() -> Value {
    json!([{"id": "e0", "role": "window", "name": "GTK Demo", "bounds": b(0, 0, 1000, 800), "children": [
        {"id": "e1", "role": "list", "name": "Demo list", "bounds": b(0, 0, 300, 400), "children": [
            {"id": "e2", "role": "option", "name": "Builder", "bounds": b(0, 0, 300, 30), "actions": ["select"]},
            {"id": "e3", "role": "option", "name": "Cursors", "states": ["offscreen"], "actions": ["select"]},
            {"id": "e4", "role": "option", "name": "Dialogs", "states": ["offscreen"], "actions": ["select"], "children": [
                {"id": "e5", "role": "button", "name": "Run", "states": ["offscreen"], "actions": ["click"]},
                {"id": "e6", "role": "button", "name": "Source", "states": ["offscreen"], "actions": ["click"]},
                {"id": "e7", "role": "button", "name": "Help", "states": ["offscreen", "focused"], "actions": ["click"]}
            ]}
        ]}
    ]}])
}

#[test]
fn a_lists_rows_without_a_place_fold_unless_they_hold_the_focus() {
    let out = body(&gtk4_list(), Detail::Compact);
    assert_eq!(
        out,
        "[e0] win \"GTK Demo\"\n  [e1] lst \"Demo list\"\n    [e2] opt \"Builder\" 0,0 300x30 [sel]\n    \
         [e4] opt \"Dialogs\" {off} [sel]\n      \
         [e7] btn \"Help\" {off,foc} [clk]\n      \
         # 2 offscreen items without bounds under e4 — detail='full' shows them\n    \
         # 1 offscreen item without bounds under e1 — detail='full' shows it\n"
    );
    // A row scrolled away, with no place on screen, is counted below its
    // list (Nautilus: 488 of 500 files); the row holding the focus stays,
    // its own placeless content folded below it.
    assert!(!out.contains("Cursors"), "{out}");
}

#[test]
fn focused_nodes_never_fold() {
    let tree = json!([{"id": "e0", "role": "menu", "name": "File", "bounds": b(0, 0, 40, 20), "actions": ["click"], "children": [
        {"id": "e1", "role": "menuitem", "name": "New", "states": ["offscreen"], "actions": ["click"]},
        {"id": "e2", "role": "menuitem", "name": "Open", "states": ["focused", "offscreen"], "actions": ["click"]}
    ]}]);
    assert_eq!(
        body(&tree, Detail::Compact),
        "[e0] mnu \"File\" 0,0 40x20 [clk]\n  [e2] mi \"Open\" {foc,off} [clk]\n  \
         # 1 item in closed menu e0: click to open\n"
    );
}

#[test]
fn a_closed_container_without_an_opening_action_folds_nothing() {
    // A menu that can neither expand nor be clicked: nothing says how to
    // open it, so its items stay.
    let tree = json!([{"id": "e0", "role": "menu", "name": "Ghost", "bounds": b(0, 0, 40, 20), "children": [
        {"id": "e1", "role": "menuitem", "name": "New", "states": ["offscreen"], "actions": ["click"]}
    ]}]);
    assert_eq!(
        body(&tree, Detail::Compact),
        "[e0] mnu \"Ghost\"\n  [e1] mi \"New\" {off} [clk]\n"
    );
}

#[test]
fn parse_reads_fold_lines_back() {
    let doc = parse(WRITER_COMPACT).unwrap();
    let folds: Vec<_> = doc
        .lines
        .iter()
        .filter_map(|l| match l {
            Line::Fold {
                depth,
                container,
                folded,
            } => Some((*depth, container.as_str(), *folded)),
            _ => None,
        })
        .collect();
    let closed = |items, open| Folded {
        items,
        open: Some(open),
    };
    assert_eq!(
        folds,
        [
            (3, "e2", closed(6, Action::Click)),
            (3, "e14", closed(1, Action::Click)),
            (4, "e19", closed(2, Action::Click)),
            (3, "e22", closed(2, Action::Expand)),
        ]
    );
    assert_eq!(doc.nodes().count(), 11);
    assert_eq!(doc.header.nodes_shown, Some(11));
    assert!(!doc.lines.iter().any(|l| matches!(l, Line::Comment { .. })));

    let text = text_with(&gtk4_list(), Detail::Compact);
    let doc = parse(&text).unwrap();
    assert!(doc.lines.contains(&Line::Fold {
        depth: 3,
        container: "e4".into(),
        folded: Folded {
            items: 2,
            open: None
        },
    }));
    // The singular forms, and lines that only look like fold lines.
    let one = "# CUP 0.1.0 | linux | 10x10\n\n[e0] btn\n  # 1 offscreen item without bounds under e0 — detail='full' shows it\n  \
               # 2 items in closed menu e1 — action(element_id='e2', action='click') to open\n  \
               # 2 items in closed thing e1: click to open\n  \
               # 3 items in closed menu e1 — action(element_id='e1', action='click') to open\n";
    let doc = parse(one).unwrap();
    assert_eq!(
        doc.lines[1],
        Line::Fold {
            depth: 1,
            container: "e0".into(),
            folded: Folded {
                items: 1,
                open: None
            }
        }
    );
    assert!(matches!(doc.lines[2], Line::Comment { .. }));
    assert!(matches!(doc.lines[3], Line::Comment { .. }));
    // The form written before 2026-11-29 is still read.
    assert_eq!(
        doc.lines[4],
        Line::Fold {
            depth: 1,
            container: "e1".into(),
            folded: Folded {
                items: 3,
                open: Some(Action::Click)
            }
        }
    );
}

#[test]
fn rendering_without_folding_is_the_text_before_d13() {
    use cup_protocol::compact::render_folding;
    let env: Envelope = serde_json::from_value(json!({
        "version": "0.1.0", "platform": "linux",
        "screen": {"w": 1920, "h": 1080},
        "tree": [{"id": "e0", "role": "window", "name": "W", "bounds": {"x": 0, "y": 0, "w": 800, "h": 600}, "children": [
            {"id": "e1", "role": "menu", "name": "File", "bounds": {"x": 0, "y": 0, "w": 40, "h": 20}, "actions": ["click"], "children": [
                {"id": "e2", "role": "menuitem", "name": "Open", "states": ["offscreen"], "actions": ["click"]},
                {"id": "e3", "role": "menuitem", "name": "Save", "states": ["offscreen"], "actions": ["click"]}
            ]}
        ]}]
    }))
    .unwrap_or_else(|e| panic!("envelope: {e}"));
    let opts = RenderOptions::default();
    let folded = render_folding(&env, &opts, true);
    assert_eq!(folded, render(&env, &opts));
    assert!(folded.contains("# 2 items in closed menu e1"), "{folded}");
    let unfolded = render_folding(&env, &opts, false);
    assert!(
        unfolded.contains("[e2] mi \"Open\" {off} [clk]"),
        "{unfolded}"
    );
    assert!(
        unfolded.contains("[e3] mi \"Save\" {off} [clk]"),
        "{unfolded}"
    );
    assert!(!unfolded.contains("closed menu"), "{unfolded}");
}

#[test]
fn a_tab_whose_page_is_not_shown_folds_it() {
    // GIMP's dock: each tab holds its page; the pages of the tabs not
    // shown have no place on screen.
    let tree = json!([{"id": "e0", "role": "window", "name": "GIMP", "bounds": b(0, 0, 1000, 800),
    "children": [
        {"id": "e1", "role": "tablist", "name": "", "children": [
            {"id": "e2", "role": "tab", "name": "", "bounds": b(10, 10, 18, 18), "actions": ["select"], "children": [
                {"id": "e3", "role": "button", "name": "Edit this brush", "bounds": b(10, 40, 30, 20), "actions": ["click"]},
                {"id": "e4", "role": "text", "name": "Clipboard Image"}
            ]},
            {"id": "e5", "role": "tab", "name": "", "bounds": b(30, 10, 18, 18), "actions": ["select"], "children": [
                {"id": "e6", "role": "textbox", "name": "", "states": ["offscreen", "editable"], "actions": ["type"]},
                {"id": "e7", "role": "button", "name": "Refresh patterns", "states": ["offscreen"], "actions": ["click"]},
                {"id": "e8", "role": "group", "name": "", "states": ["offscreen"], "actions": ["scroll"], "children": [
                    {"id": "e9", "role": "button", "name": "Pattern", "states": ["offscreen"], "actions": ["click"]}
                ]}
            ]},
            {"id": "e10", "role": "tab", "name": "Selected", "states": ["selected"], "bounds": b(50, 10, 18, 18), "actions": ["select"], "children": [
                {"id": "e11", "role": "button", "name": "Hidden", "states": ["offscreen"], "actions": ["click"]}
            ]}
        ]}
    ]}]);
    let out = body(&tree, Detail::Compact);
    assert!(
        out.contains(
            "[e5] tab 30,10 18x18 [sel]\n      # 3 items in closed tab e5: select to open\n"
        ),
        "{out}"
    );
    assert!(!out.contains("Refresh patterns"), "{out}");
    // The tab shown keeps its page; a selected tab is not closed.
    assert!(out.contains("[e3] btn \"Edit this brush\""), "{out}");
    assert!(
        !out.contains("closed tab e2") && !out.contains("closed tab e10"),
        "{out}"
    );
    // The fold line reads back.
    let doc = parse(&text_with(&tree, Detail::Compact)).expect("parses");
    assert!(doc.lines.contains(&Line::Fold {
        depth: 3,
        container: "e5".into(),
        folded: Folded {
            items: 3,
            open: Some(Action::Select)
        },
    }));
}

#[test]
fn a_button_holding_a_closed_popup_menu_folds_it() {
    // LibreOffice's sidebar: a "Menu" button holds its popup menu's items,
    // off screen without bounds until it is clicked.
    let item = |id: &str, name: &str| json!({"id": id, "role": "menuitem", "name": name, "states": ["offscreen"], "actions": ["click", "select"]});
    let tree = json!([{"id": "e0", "role": "window", "name": "Writer", "bounds": b(0, 0, 1000, 800),
    "children": [
        {"id": "e1", "role": "button", "name": "Menu", "bounds": b(900, 100, 36, 34), "actions": ["click", "toggle"], "children": [
            item("e2", "Dock"), item("e3", "Undock"), item("e4", "Close Sidebar"),
            {"id": "e5", "role": "menu", "name": "Customization", "states": ["offscreen"], "actions": ["click"], "children": [
                item("e6", "Properties")]}
        ]},
        {"id": "e7", "role": "button", "name": "Open", "bounds": b(900, 200, 36, 34), "actions": ["click"], "states": ["expanded"], "children": [
            item("e8", "Recent")]}
    ]}]);
    let out = body(&tree, Detail::Compact);
    assert!(
        out.contains("[e1] btn \"Menu\" 900,100 36x34 [clk,tog]\n    # 4 items in closed button e1: click to open\n"),
        "{out}"
    );
    assert!(!out.contains("Undock"), "{out}");
    // An expanded button's items stay.
    assert!(out.contains("[e8] mi \"Recent\""), "{out}");
}
