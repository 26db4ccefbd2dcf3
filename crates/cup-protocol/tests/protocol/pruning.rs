//! Each compact pruning rule, viewport clipping, detail levels and the cap.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use cup_protocol::compact::{render, Detail, RenderOptions};
use cup_protocol::Envelope;
use serde_json::{json, Value};

fn env(tree: Value) -> Envelope {
    serde_json::from_value(json!({
        "version": "0.1.0", "platform": "linux", "screen": {"w": 1000, "h": 800}, "tree": tree
    }))
    .expect("test envelope parses")
}

/// The body (node and hint lines) of the compact text.
fn body(tree: Value) -> String {
    body_with(tree, Detail::Compact)
}

fn body_with(tree: Value, detail: Detail) -> String {
    let text = render(
        &env(tree),
        &RenderOptions {
            detail,
            ..RenderOptions::default()
        },
    );
    text.split_once("\n\n")
        .expect("blank line after header")
        .1
        .to_owned()
}

#[test]
fn chrome_roles_are_dropped_with_their_subtree() {
    for role in ["scrollbar", "separator", "titlebar", "tooltip", "status"] {
        let out = body(
            json!([{"id": "e0", "role": "window", "name": "W", "children": [
                {"id": "e1", "role": role, "name": "x", "children": [{"id": "e2", "role": "button", "name": "In"}]},
                {"id": "e3", "role": "button", "name": "Kept"}
            ]}]),
        );
        assert_eq!(out, "[e0] win \"W\"\n  [e3] btn \"Kept\"\n", "{role}");
    }
}

#[test]
fn zero_size_nodes_are_dropped() {
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "button", "name": "Zero", "bounds": {"x": 1, "y": 1, "w": 0, "h": 10}},
            {"id": "e2", "role": "button", "name": "Flat", "bounds": {"x": 1, "y": 1, "w": 10, "h": 0}},
            {"id": "e3", "role": "button", "name": "Ok", "bounds": {"x": 1, "y": 1, "w": 10, "h": 10}}
        ]}]),
    );
    assert_eq!(out, "[e0] win \"W\"\n  [e3] btn \"Ok\"\n");
}

#[test]
fn unnamed_wrappers_are_hoisted_unless_they_act() {
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "generic", "name": "", "children": [{"id": "e2", "role": "button", "name": "A"}]},
            {"id": "e3", "role": "region", "name": "", "children": [{"id": "e4", "role": "button", "name": "B"}]},
            {"id": "e5", "role": "group", "name": "", "children": [{"id": "e6", "role": "button", "name": "C"}]},
            {"id": "e7", "role": "group", "name": "", "actions": ["click"], "children": [{"id": "e8", "role": "button", "name": "D"}]},
            {"id": "e9", "role": "group", "name": "Named", "children": [{"id": "e10", "role": "button", "name": "E"}]},
            {"id": "e11", "role": "generic", "name": "", "actions": ["scroll"], "bounds": {"x": 0, "y": 0, "w": 100, "h": 100},
             "children": [{"id": "e12", "role": "button", "name": "F"}]}
        ]}]),
    );
    assert_eq!(
        out,
        concat!(
            "[e0] win \"W\"\n  [e2] btn \"A\"\n  [e4] btn \"B\"\n  [e6] btn \"C\"\n",
            "  [e7] grp [clk]\n    [e8] btn \"D\"\n  [e9] grp \"Named\"\n    [e10] btn \"E\"\n",
            "  [e11] gen 0,0 100x100 [scr]\n    [e12] btn \"F\"\n"
        )
    );
}

#[test]
fn empty_unnamed_containers_are_left_out() {
    // D20: nothing below, no name, no action, value or state.
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "toolbar", "name": "Menu Bar"},
            {"id": "e2", "role": "toolbar", "name": ""},
            {"id": "e3", "role": "alert", "name": ""},
            {"id": "e11", "role": "listitem", "name": ""},
            {"id": "e4", "role": "toolbar", "name": "", "children": [{"id": "e5", "role": "img", "name": ""}]},
            {"id": "e6", "role": "group", "name": "", "actions": ["scroll"], "bounds": {"x": 0, "y": 0, "w": 10, "h": 10}},
            {"id": "e7", "role": "alert", "name": "", "states": ["busy"]},
            {"id": "e12", "role": "grid", "name": ""},
            {"id": "e8", "role": "toolbar", "name": "", "children": [{"id": "e9", "role": "button", "name": "Go"}]},
            {"id": "e10", "role": "button", "name": "Kept"}
        ]}]),
    );
    assert_eq!(
        out,
        concat!(
            "[e0] win \"W\"\n  [e1] tlbr \"Menu Bar\"\n  [e6] grp 0,0 10x10 [scr]\n",
            "  [e7] alrt {bsy}\n  [e12] grd\n  [e8] tlbr\n    [e9] btn \"Go\"\n  [e10] btn \"Kept\"\n"
        )
    );
    // The JSON keeps them: `full` shows every node.
    let full = body_with(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e2", "role": "toolbar", "name": ""}
        ]}]),
        Detail::Full,
    );
    assert!(full.contains("[e2] tlbr"), "{full}");
}

#[test]
fn focus_only_wrappers_are_hoisted() {
    let out = body(
        json!([{"id": "e0", "role": "group", "name": "", "actions": ["focus"],
        "children": [{"id": "e1", "role": "button", "name": "A"}]}]),
    );
    assert_eq!(out, "[e1] btn \"A\"\n");
}

#[test]
fn unnamed_images_and_empty_or_redundant_text_are_dropped() {
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "img", "name": ""},
            {"id": "e2", "role": "img", "name": "Logo"},
            {"id": "e3", "role": "text", "name": ""},
            {"id": "e4", "role": "button", "name": "Save", "children": [{"id": "e5", "role": "text", "name": "Save"}]},
            {"id": "e6", "role": "button", "name": "", "children": [{"id": "e7", "role": "text", "name": "Label"}]},
            {"id": "e8", "role": "listitem", "name": "Two", "children": [
                {"id": "e9", "role": "text", "name": "a"}, {"id": "e10", "role": "text", "name": "b"}]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] win \"W\"\n  [e2] img \"Logo\"\n  [e4] btn \"Save\"\n  [e6] btn\n    [e7] txt \"Label\"\n  \
         [e8] li \"Two\"\n    [e9] txt \"a\"\n    [e10] txt \"b\"\n"
    );
}

#[test]
fn a_sole_text_that_says_more_than_its_parent_stays() {
    // D14: LibreOffice's document is named for its window; its only
    // paragraph is what the user typed.
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "document", "name": "Untitled 1 - LibreOffice Document", "children": [
                {"id": "e2", "role": "text", "name": "Zoë ✓ 東京"}]},
            {"id": "e3", "role": "listitem", "name": "Save all", "children": [
                {"id": "e4", "role": "text", "name": "save ALL "}]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] win \"W\"\n  [e1] doc \"Untitled 1 - LibreOffice Document\"\n    [e2] txt \"Zoë ✓ 東京\"\n  \
         [e3] li \"Save all\"\n"
    );
}

#[test]
fn a_sole_text_stays_where_its_parent_is_named_by_its_content() {
    // D14 gives way to D17: Thunderbird's message cell is named by every
    // line below it, the subject's text alone in a wrapper among them.
    // Dropping that text (its parent's name holds it) left the cell's
    // name, made of its children's words, over lines repeating most of
    // them; the text stays, and the cell's line leaves the name off.
    let cell = |id: u32, subject: &str| {
        json!({"id": format!("e{id}"), "role": "cell",
        "name": format!("Ada 11/23/23 Message menu {subject} Message not starred"),
        "children": [
            {"id": format!("e{}", id + 1), "role": "generic", "name": "Ada"},
            {"id": format!("e{}", id + 2), "role": "text", "name": "11/23/23"},
            {"id": format!("e{}", id + 3), "role": "button", "name": "Message menu",
             "bounds": {"x": 10, "y": 10, "w": 16, "h": 16}, "actions": ["click"]},
            {"id": format!("e{}", id + 4), "role": "generic", "name": "", "children": [
                {"id": format!("e{}", id + 5), "role": "text", "name": subject}]},
            {"id": format!("e{}", id + 6), "role": "button", "name": "Message not starred",
             "bounds": {"x": 30, "y": 10, "w": 16, "h": 16}, "actions": ["click"]}
        ]})
    };
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "row", "name": "Ada, Message number 7", "children": [cell(2, "Message number 7")]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] win \"W\"\n  [e1] row \"Ada, Message number 7\"\n    [e2] cel\n      [e3] gen \"Ada\"\n      \
         [e4] txt \"11/23/23\"\n      [e5] btn \"Message menu\" 10,10 16x16 [clk]\n      \
         [e7] txt \"Message number 7\"\n      [e8] btn \"Message not starred\" 30,10 16x16 [clk]\n"
    );
    // A parent whose name only holds the text (not all its lines) still
    // drops it: a list item "Save all now" over a text "Save all".
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "listitem", "name": "Save all now", "children": [
                {"id": "e2", "role": "text", "name": "Save all"}]}
        ]}]),
    );
    assert_eq!(out, "[e0] win \"W\"\n  [e1] li \"Save all now\"\n");
}

#[test]
fn a_sole_child_that_repeats_its_parent_whole_is_dropped() {
    // D14: GTK 4's grid cell holds its label's cell (Nautilus). A child
    // that acts, or says something else, stays.
    let out = body(
        json!([{"id": "e0", "role": "table", "name": "", "children": [
            {"id": "e1", "role": "cell", "name": "a.txt", "bounds": {"x": 0, "y": 0, "w": 10, "h": 10}, "actions": ["select"], "children": [
                {"id": "e2", "role": "cell", "name": "a.txt"}]},
            {"id": "e3", "role": "cell", "name": "b.txt", "bounds": {"x": 0, "y": 10, "w": 10, "h": 10}, "actions": ["select"], "children": [
                {"id": "e4", "role": "cell", "name": "b.txt", "actions": ["click"]}]},
            {"id": "e5", "role": "cell", "name": "c.txt", "bounds": {"x": 0, "y": 20, "w": 10, "h": 10}, "actions": ["select"], "children": [
                {"id": "e6", "role": "cell", "name": "c.txt (2)"}]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] tbl\n  [e1] cel \"a.txt\" 0,0 10x10 [sel]\n  [e3] cel \"b.txt\" 0,10 10x10 [sel]\n    \
         [e4] cel \"b.txt\" [clk]\n  [e5] cel \"c.txt\" 0,20 10x10 [sel]\n    [e6] cel \"c.txt (2)\"\n"
    );
}

#[test]
fn a_repeated_cell_over_an_icon_and_its_label_shows_once() {
    // D14, as Nautilus 43 gives a file of its grid: the cell, the cell
    // again, wrappers, an unnamed icon and the label. One line is left;
    // a label beside an unnamed icon is still the only thing said.
    let out = body(
        json!([{"id": "e0", "role": "table", "name": "", "children": [
            {"id": "e1", "role": "cell", "name": "a.txt", "bounds": {"x": 0, "y": 0, "w": 10, "h": 10}, "actions": ["select"], "children": [
                {"id": "e2", "role": "cell", "name": "a.txt", "children": [
                    {"id": "e3", "role": "group", "name": "", "children": [
                        {"id": "e4", "role": "group", "name": "", "children": [{"id": "e5", "role": "img", "name": ""}]},
                        {"id": "e6", "role": "group", "name": "", "children": [{"id": "e7", "role": "text", "name": "a.txt"}]}
                    ]}
                ]}
            ]},
            {"id": "e8", "role": "option", "name": "Home", "bounds": {"x": 0, "y": 20, "w": 10, "h": 10}, "actions": ["select"], "children": [
                {"id": "e9", "role": "img", "name": ""},
                {"id": "e10", "role": "text", "name": "Home"}
            ]},
            {"id": "e11", "role": "option", "name": "Work", "bounds": {"x": 0, "y": 30, "w": 10, "h": 10}, "actions": ["select"], "children": [
                {"id": "e12", "role": "img", "name": "Shared"},
                {"id": "e13", "role": "text", "name": "Work"}
            ]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] tbl\n  [e1] cel \"a.txt\" 0,0 10x10 [sel]\n  [e8] opt \"Home\" 0,20 10x10 [sel]\n  \
         [e11] opt \"Work\" 0,30 10x10 [sel]\n    [e12] img \"Shared\"\n    [e13] txt \"Work\"\n"
    );
}

#[test]
fn a_wrapper_around_itself_leaves_the_one_that_acts() {
    // D14, GTK 4's menu button around its toggle button. A wrapper with
    // a state of its own, or an action, stays.
    let out = body(
        json!([{"id": "e0", "role": "toolbar", "name": "", "children": [
            {"id": "e1", "role": "button", "name": "Main Menu", "children": [
                {"id": "e2", "role": "button", "name": "Main Menu", "bounds": {"x": 0, "y": 0, "w": 10, "h": 10}, "actions": ["click"]}]},
            {"id": "e3", "role": "button", "name": "Edit", "states": ["disabled"], "children": [
                {"id": "e4", "role": "button", "name": "Edit", "bounds": {"x": 0, "y": 10, "w": 10, "h": 10}, "actions": ["click"]}]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] tlbr\n  [e2] btn \"Main Menu\" 0,0 10x10 [clk]\n  [e3] btn \"Edit\" {dis}\n    \
         [e4] btn \"Edit\" 0,10 10x10 [clk]\n"
    );
}

#[test]
fn offscreen_nodes_stay_only_when_actionable() {
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "text", "name": "Gone", "states": ["offscreen"]},
            {"id": "e2", "role": "button", "name": "Reach", "states": ["offscreen"], "actions": ["click"]},
            {"id": "e3", "role": "button", "name": "FocusOnly", "states": ["offscreen"], "actions": ["focus"]}
        ]}]),
    );
    assert_eq!(out, "[e0] win \"W\"\n  [e2] btn \"Reach\" {off} [clk]\n");
}

/// D19 keeps an offscreen wrapper for what it holds only when that has a
/// place: Firefox's hidden menu bar (no bounds, its menus none either) goes
/// with its menus, as rule 9 drops it.
#[test]
fn an_offscreen_wrapper_stays_only_for_acting_content_with_a_place() {
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "bounds": {"x": 0, "y": 0, "w": 800, "h": 600}, "children": [
            {"id": "e1", "role": "menubar", "name": "Application", "states": ["offscreen"], "children": [
                {"id": "e2", "role": "menu", "name": "File", "states": ["offscreen", "collapsed"], "actions": ["expand", "select"]},
                {"id": "e3", "role": "menu", "name": "Edit", "states": ["offscreen", "collapsed"], "actions": ["expand", "select"]}
            ]},
            {"id": "e4", "role": "listitem", "name": "", "states": ["offscreen"], "bounds": {"x": 0, "y": 900, "w": 200, "h": 20}, "children": [
                {"id": "e5", "role": "link", "name": "Far", "states": ["offscreen"], "bounds": {"x": 0, "y": 900, "w": 40, "h": 20}, "actions": ["click"]}
            ]}
        ]}]),
    );
    assert!(
        !out.contains("File") && !out.contains("Application"),
        "{out}"
    );
    // The list item below the fold is kept, clipped: counted for `page`.
    assert!(out.contains("1 more item — 1 below"), "{out}");
    // Items of a closed container keep their place on its fold line (D13),
    // wrappers and all: GIMP's collapsed "Dynamics Options".
    let wrapped = |id: &str, inner: &str| {
        json!({"id": id, "role": "generic", "name": "", "states": ["offscreen"], "children": [
            {"id": inner, "role": "checkbox", "name": inner, "states": ["offscreen"], "actions": ["toggle"]}
        ]})
    };
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "bounds": {"x": 0, "y": 0, "w": 800, "h": 600}, "children": [
            {"id": "e1", "role": "button", "name": "Dynamics Options", "states": ["collapsed"],
             "bounds": {"x": 10, "y": 10, "w": 180, "h": 18}, "actions": ["click", "expand"],
             "children": [wrapped("e2", "e3"), wrapped("e4", "e5")]}
        ]}]),
    );
    assert!(
        out.contains("# 2 items in closed button e1: expand to open"),
        "{out}"
    );
}

#[test]
fn single_child_structural_containers_collapse() {
    for role in [
        "region",
        "document",
        "main",
        "complementary",
        "navigation",
        "search",
        "banner",
        "contentinfo",
        "form",
    ] {
        let out = body(
            json!([{"id": "e0", "role": "window", "name": "W", "children": [
                {"id": "e1", "role": role, "name": "", "states": ["focused"], "children": [{"id": "e2", "role": "button", "name": "Only"}]}
            ]}]),
        );
        // An unnamed region is hoisted before it can collapse; either way the
        // button takes its place.
        assert_eq!(out, "[e0] win \"W\"\n  [e2] btn \"Only\"\n", "{role}");
    }
    // Named, or with two children, or with an action: kept.
    let out = body(
        json!([{"id": "e0", "role": "document", "name": "Doc", "children": [{"id": "e1", "role": "button", "name": "A"}]}]),
    );
    assert_eq!(out, "[e0] doc \"Doc\"\n  [e1] btn \"A\"\n");
    let out = body(
        json!([{"id": "e0", "role": "form", "name": "", "children": [
        {"id": "e1", "role": "button", "name": "A"}, {"id": "e2", "role": "button", "name": "B"}]}]),
    );
    assert_eq!(out, "[e0] frm\n  [e1] btn \"A\"\n  [e2] btn \"B\"\n");
}

#[test]
fn focus_is_never_shown_and_bounds_only_with_meaningful_actions() {
    let out = body(json!([
        {"id": "e0", "role": "button", "name": "F", "bounds": {"x": 1, "y": 2, "w": 3, "h": 4}, "actions": ["focus"]},
        {"id": "e1", "role": "button", "name": "C", "bounds": {"x": -5, "y": 2, "w": 3, "h": 4}, "actions": ["focus", "click"]}
    ]));
    assert_eq!(out, "[e0] btn \"F\"\n[e1] btn \"C\" -5,2 3x4 [clk]\n");
}

#[test]
fn values_show_only_for_input_roles() {
    let out = body(json!([
        {"id": "e0", "role": "textbox", "name": "T", "value": "typed"},
        {"id": "e1", "role": "progressbar", "name": "P", "value": "50"},
        {"id": "e2", "role": "slider", "name": "S", "value": ""},
        {"id": "e3", "role": "combobox", "name": "C", "value": "x".repeat(130)}
    ]));
    let want = format!(
        "[e0] tbx \"T\" val=\"typed\"\n[e1] pbar \"P\"\n[e2] sld \"S\"\n[e3] cmb \"C\" val=\"{}...\"\n",
        "x".repeat(120)
    );
    assert_eq!(out, want);
}

#[test]
fn scroll_container_clips_children_outside_its_viewport() {
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "list", "name": "L", "actions": ["scroll"], "bounds": {"x": 0, "y": 100, "w": 200, "h": 100}, "children": [
                {"id": "e2", "role": "listitem", "name": "above", "bounds": {"x": 0, "y": 40, "w": 200, "h": 60}},
                {"id": "e3", "role": "listitem", "name": "partly", "bounds": {"x": 0, "y": 90, "w": 200, "h": 20}},
                {"id": "e4", "role": "listitem", "name": "inside", "bounds": {"x": 0, "y": 120, "w": 200, "h": 20}},
                {"id": "e5", "role": "listitem", "name": "touching", "bounds": {"x": 0, "y": 200, "w": 200, "h": 20}},
                {"id": "e6", "role": "listitem", "name": "no bounds"},
                {"id": "e7", "role": "listitem", "name": "left", "bounds": {"x": -50, "y": 120, "w": 50, "h": 20}}
            ]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] win \"W\"\n  [e1] lst \"L\" 0,100 200x100 [scr]\n    [e3] li \"partly\"\n    [e4] li \"inside\"\n    \
         [e6] li \"no bounds\"\n    # 3 more items — 1 above: page(element_id='e1', direction='up'); \
         1 below: page(element_id='e1', direction='down'); 1 left: page(element_id='e1', direction='left')\n"
    );
}

#[test]
fn nested_viewports_intersect_and_the_screen_clips_root_children() {
    // The inner grid is larger than its scrolling parent: the parent's
    // viewport wins. Roots are never clipped, their children are.
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "bounds": {"x": 0, "y": 0, "w": 3000, "h": 3000}, "children": [
            {"id": "e1", "role": "list", "name": "Outer", "actions": ["scroll"], "bounds": {"x": 0, "y": 0, "w": 500, "h": 300}, "children": [
                {"id": "e2", "role": "grid", "name": "Inner", "actions": ["scroll"], "bounds": {"x": 0, "y": 0, "w": 500, "h": 2000}, "children": [
                    {"id": "e3", "role": "row", "name": "r1", "bounds": {"x": 0, "y": 0, "w": 500, "h": 100}},
                    {"id": "e4", "role": "row", "name": "r2", "bounds": {"x": 0, "y": 500, "w": 500, "h": 100}}
                ]}
            ]},
            {"id": "e5", "role": "button", "name": "Offscreen", "actions": ["click"], "bounds": {"x": 1200, "y": 10, "w": 10, "h": 10}}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] win \"W\"\n  [e1] lst \"Outer\" 0,0 500x300 [scr]\n    [e2] grd \"Inner\" 0,0 500x2000 [scr]\n      \
         [e3] row \"r1\"\n      # 1 more item — 1 below: page(element_id='e2', direction='down')\n  \
         # 1 more item — 1 right: page(element_id='e0', direction='right')\n"
    );
}

#[test]
fn non_scrollable_containers_do_not_clip_inside_the_screen() {
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "list", "name": "Static", "bounds": {"x": 0, "y": 0, "w": 100, "h": 100}, "children": [
                {"id": "e2", "role": "listitem", "name": "far", "bounds": {"x": 0, "y": 500, "w": 100, "h": 20}}
            ]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] win \"W\"\n  [e1] lst \"Static\"\n    [e2] li \"far\"\n"
    );
}

#[test]
fn a_container_with_hidden_items_does_not_collapse() {
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e1", "role": "document", "name": "", "actions": [], "children": [
                {"id": "e2", "role": "button", "name": "In", "bounds": {"x": 0, "y": 0, "w": 10, "h": 10}},
                {"id": "e3", "role": "button", "name": "Out", "bounds": {"x": 0, "y": 900, "w": 10, "h": 10}}
            ]}
        ]}]),
    );
    assert_eq!(out, "[e0] win \"W\"\n  [e1] doc\n    [e2] btn \"In\"\n    # 1 more item — 1 below: page(element_id='e1', direction='down')\n");
}

#[test]
fn full_detail_keeps_everything_and_minimal_keeps_actionable_paths() {
    let tree = json!([{"id": "e0", "role": "window", "name": "W", "children": [
        {"id": "e1", "role": "generic", "name": "", "children": [{"id": "e2", "role": "button", "name": "B", "actions": ["click"]}]},
        {"id": "e3", "role": "text", "name": "info"},
        {"id": "e4", "role": "scrollbar", "name": "", "actions": ["scroll"]},
        {"id": "e5", "role": "textbox", "name": "F", "actions": ["focus"]}
    ]}]);
    assert_eq!(
        body_with(tree.clone(), Detail::Full),
        "[e0] win \"W\"\n  [e1] gen\n    [e2] btn \"B\" [clk]\n  [e3] txt \"info\"\n  [e4] sb [scr]\n  [e5] tbx \"F\"\n"
    );
    assert_eq!(
        body_with(tree, Detail::Minimal),
        "[e0] win \"W\"\n  [e1] gen\n    [e2] btn \"B\" [clk]\n  [e4] sb [scr]\n"
    );
}

#[test]
fn header_counts_shown_and_raw_nodes() {
    let text = render(
        &env(
            json!([{"id": "e0", "role": "generic", "name": "", "children": [{"id": "e1", "role": "button", "name": "A"}]}]),
        ),
        &RenderOptions {
            notes: vec!["partial: deadline".into()],
            ..RenderOptions::default()
        },
    );
    assert_eq!(text, "# CUP 0.1.0 | linux | 1000x800\n# 1 nodes (2 before pruning)\n# partial: deadline\n\n[e1] btn \"A\"\n");
}

#[test]
fn a_long_list_is_cut_to_the_budget_and_what_follows_it_stays() {
    // 2000 buttons in a list, then a toolbar after it in the tree.
    let children: Vec<Value> =
        (1..=2000).map(|i| json!({"id": format!("e{i}"), "role": "button", "name": format!("Button number {i}")})).collect();
    let e = env(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e9000", "role": "list", "name": "Items", "children": children},
            {"id": "e9001", "role": "toolbar", "name": "Tools", "children": [
                {"id": "e9002", "role": "button", "name": "Save"}
            ]}
        ]}]),
    );
    let text = render(
        &e,
        &RenderOptions {
            max_chars: 5000,
            ..RenderOptions::default()
        },
    );
    assert!(text.chars().count() <= 5000, "{}", text.chars().count());
    assert!(!text.contains("# OUTPUT TRUNCATED"), "{text}");
    // The toolbar after the list is whole.
    assert!(text.contains("[e9002] btn \"Save\""), "{text}");
    let kept = text
        .lines()
        .filter(|l| l.trim_start().starts_with("[e") && l.contains("Button number"))
        .count();
    assert!(kept >= 10, "{text}");
    assert!(
        text.contains(&format!(
            "# {} more items left out to fit the budget — page(element_id='e9000', offset={kept})",
            2000 - kept
        )),
        "{text}"
    );
    // The first items are the ones kept, in order.
    assert!(text.contains("[e1] btn \"Button number 1\""), "{text}");
    // The text parses back.
    cup_protocol::compact::parse(&text).expect("parses");
    let uncapped = render(
        &e,
        &RenderOptions {
            max_chars: 0,
            ..RenderOptions::default()
        },
    );
    assert!(uncapped.chars().count() > 40_000);
    let default = render(&e, &RenderOptions::default());
    assert!(default.chars().count() <= 40_000);
}

#[test]
fn output_with_no_long_list_is_capped_with_a_notice_inside_the_limit() {
    // 200 groups of 10 buttons: no list long enough to cut.
    let groups: Vec<Value> = (0..200)
        .map(|g| {
            let buttons: Vec<Value> = (0..10)
                .map(|i| json!({"id": format!("e{}", 1 + g * 11 + 1 + i), "role": "button", "name": format!("Button number {g}-{i}")}))
                .collect();
            json!({"id": format!("e{}", 1 + g * 11), "role": "group", "name": format!("Group {g}"), "children": buttons})
        })
        .collect();
    let e = env(
        json!([{"id": "e0", "role": "window", "name": "W", "children": [
            {"id": "e99999", "role": "toolbar", "name": "T", "children": groups.into_iter().take(9).collect::<Vec<_>>()}
        ]}]),
    );
    let text = render(
        &e,
        &RenderOptions {
            max_chars: 1500,
            ..RenderOptions::default()
        },
    );
    assert!(text.chars().count() <= 1500, "{}", text.chars().count());
    assert!(text.contains("# OUTPUT TRUNCATED — showing "), "{text}");
    let kept = text
        .lines()
        .filter(|l| l.trim_start().starts_with('['))
        .count();
    assert!(text.contains(&format!("showing {kept} of ")), "{text}");
    // Each kept line is whole.
    assert!(text
        .lines()
        .filter(|l| l.trim_start().starts_with('['))
        .all(|l| l.ends_with('"')));
}

#[test]
fn multibyte_text_is_cut_by_characters() {
    let name = "日本".repeat(50);
    let out = body(json!([{"id": "e0", "role": "button", "name": name}]));
    assert_eq!(out, format!("[e0] btn \"{}...\"\n", "日本".repeat(40)));
}

#[test]
fn page_detail_keeps_what_the_viewport_hides_and_nothing_else() {
    let tree = json!([{"id": "e0", "role": "document", "name": "Doc", "bounds": {"x": 0, "y": 0, "w": 1000, "h": 800},
    "children": [
        {"id": "e1", "role": "generic", "name": "", "children": [
            {"id": "e2", "role": "heading", "name": "Top", "bounds": {"x": 0, "y": 10, "w": 200, "h": 20}}]},
        {"id": "e3", "role": "list", "name": "Scroller", "actions": ["scroll"],
         "bounds": {"x": 0, "y": 100, "w": 300, "h": 100}, "children": [
            {"id": "e4", "role": "listitem", "name": "Seen", "bounds": {"x": 0, "y": 110, "w": 300, "h": 20}},
            {"id": "e5", "role": "listitem", "name": "Below the list", "bounds": {"x": 0, "y": 400, "w": 300, "h": 20}}]},
        {"id": "e6", "role": "link", "name": "Far below", "actions": ["click"], "states": ["offscreen"],
         "bounds": {"x": 0, "y": 5000, "w": 100, "h": 20}},
        {"id": "e7", "role": "heading", "name": "Offscreen heading", "states": ["offscreen"],
         "bounds": {"x": 0, "y": 6000, "w": 100, "h": 20}},
        {"id": "e8", "role": "separator", "name": "", "bounds": {"x": 0, "y": 300, "w": 100, "h": 2}},
        {"id": "e9", "role": "button", "name": "Zero", "bounds": {"x": 0, "y": 300, "w": 0, "h": 0}}
    ]}]);
    let compact = body_with(tree.clone(), Detail::Compact);
    assert!(
        !compact.contains("Below the list") && !compact.contains("Far below"),
        "{compact}"
    );
    assert!(compact.contains("more item"), "{compact}");
    let page = body_with(tree, Detail::Page);
    // Clipped and offscreen items are back, without hints; the other rules
    // (hoisting, chrome, zero size) still apply.
    for kept in [
        "[e2] hdg \"Top\"",
        "[e4] li \"Seen\"",
        "[e5] li \"Below the list\"",
        "[e6] lnk \"Far below\"",
        "[e7] hdg \"Offscreen heading\"",
    ] {
        assert!(page.contains(kept), "{kept} in {page}");
    }
    for gone in ["[e1]", "[e8]", "[e9]", "more item"] {
        assert!(!page.contains(gone), "{gone} in {page}");
    }
    assert_eq!("page".parse::<Detail>().ok(), Some(Detail::Page));
}

#[test]
fn a_label_beside_the_control_it_names_is_dropped() {
    // D14: Chromium's `<p><label>Full name <input></label></p>` reads as
    // the field alone (the paragraph, named as its field, then gives its
    // place to it: D17); a label "Width:" beside its spin button goes; a
    // text beside a control of another name, or beside a node that does
    // not act, stays.
    let field = json!({"id": "e3", "role": "textbox", "name": "Full name",
        "bounds": {"x": 0, "y": 0, "w": 100, "h": 20}, "actions": ["click", "type"]});
    let spin = json!({"id": "e6", "role": "spinbutton", "name": "Width",
        "bounds": {"x": 0, "y": 30, "w": 60, "h": 20}, "actions": ["increment"]});
    let out = body(
        json!([{"id": "e0", "role": "form", "name": "", "children": [
            {"id": "e1", "role": "text", "name": "Full name", "children": [
                {"id": "e2", "role": "text", "name": "Full name"}, field]},
            {"id": "e4", "role": "group", "name": "Size", "children": [
                {"id": "e5", "role": "text", "name": "Width:"}, spin,
                {"id": "e7", "role": "text", "name": "Height:"},
                {"id": "e8", "role": "heading", "name": "Height"}]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] frm\n  [e3] tbx \"Full name\" 0,0 100x20 [clk,typ]\n  [e4] grp \"Size\"\n    \
         [e6] spn \"Width\" 0,30 60x20 [inc]\n    [e7] txt \"Height:\"\n    [e8] hdg \"Height\"\n"
    );
}

#[test]
fn a_group_named_as_its_one_control_gives_its_place_to_it() {
    // LibreOffice's sidebar: a panel named "Close Sidebar Deck" holds the
    // button of that name. D17 leaves the group's name off; its bare line
    // then goes, as an unnamed wrapper's does. A group that says more
    // (a state, or a name of its own) stays.
    let button = |id: &str, name: &str, y: i64| {
        json!({"id": id, "role": "button", "name": name,
            "bounds": {"x": 0, "y": y, "w": 16, "h": 16}, "actions": ["click"]})
    };
    let out = body(
        json!([{"id": "e0", "role": "toolbar", "name": "Deck", "children": [
            {"id": "e1", "role": "group", "name": "Close Sidebar Deck", "children": [
                button("e2", "Close Sidebar Deck", 0)]},
            {"id": "e3", "role": "group", "name": "Close", "states": ["selected"], "children": [
                button("e4", "Close", 20)]},
            {"id": "e5", "role": "group", "name": "Tools", "children": [
                button("e6", "Undo", 40)]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] tlbr \"Deck\"\n  [e2] btn \"Close Sidebar Deck\" 0,0 16x16 [clk]\n  \
         [e3] grp {sel}\n    [e4] btn \"Close\" 0,20 16x16 [clk]\n  [e5] grp \"Tools\"\n    \
         [e6] btn \"Undo\" 0,40 16x16 [clk]\n"
    );
}

#[test]
fn an_unnamed_window_inside_another_gives_its_place_to_its_lines() {
    // Qt's container widgets in VLC: bare `win` lines over the player's
    // buttons. The top window stays, named or not; a nested window that
    // is named or acts stays too.
    let play = json!({"id": "e3", "role": "button", "name": "Play",
        "bounds": {"x": 0, "y": 0, "w": 32, "h": 32}, "actions": ["click"]});
    let out = body(
        json!([{"id": "e0", "role": "window", "name": "", "children": [
            {"id": "e1", "role": "window", "name": "", "children": [
                {"id": "e2", "role": "window", "name": "", "children": [play]}]},
            {"id": "e4", "role": "window", "name": "Playlist", "children": [
                {"id": "e5", "role": "text", "name": "Empty"}]}
        ]}]),
    );
    assert_eq!(
        out,
        "[e0] win\n  [e3] btn \"Play\" 0,0 32x32 [clk]\n  [e4] win \"Playlist\"\n    [e5] txt \"Empty\"\n"
    );
}
