//! Unit tests of the walker: decoding, patches and splices, and the CUP
//! tree built from fixture walks.

use super::*;
use crate::capture::Viewport;
use cup_protocol::{Action, Rect, Role, State};
use serde_json::json;

/// A walk as the walker encodes it: a document with a heading, a
/// checked checkbox, a password field, a link far below the viewport and
/// an iframe (whose document is a second walk).
fn main_walk() -> RawWalk {
    serde_json::from_value(json!({
        "v": 1, "url": "http://x/", "title": "T", "viewport": [800.0, 600.0, 2.0, 0.0, 0.0],
        "count": 6,
        "strings": ["", "RootWebArea", "T", "heading", "Title", "checkbox", "Gift", "textbox",
                    "Pass", "link", "Far", "http://x/far", "Iframe", "h1", "input", "a", "iframe",
                    "type", "checkbox", "password", "abc"],
        "depth": [0, 1, 1, 1, 1, 1],
        "role": [1, 3, 5, 7, 9, 12],
        "name": [2, 4, 6, 8, 10, 0],
        "flags": [1, 0, 1 | 2 | 128 | 512, 1 | 32, 1, 4_194_304],
        "id": [1, 1, 1, 1, 1, 1],
        "bounds": [0, 0, 1600, 1200,  20, 20, 400, 60,  20, 100, 26, 26,  20, 140, 300, 40,
                   20, 5000, 60, 30,  0, 200, 400, 300],
        "scale": 2.0,
        "tag": [0, 13, 14, 14, 15, 16],
        "desc": [], "value": [3, 20], "level": [1, 1],
        "extra": {"placeholder": [], "url": [0, 11, 4, 11], "valuemin": [], "valuemax": [],
                  "valuetext": [], "frames": [5, 10.0, 10.0],
                  "attrs": [2, 17, 18, 3, 17, 19]}
    }))
    .unwrap_or_else(|e| panic!("fixture: {e}"))
}

fn child_walk() -> RawWalk {
    serde_json::from_value(json!({
        "v": 1, "viewport": [200.0, 150.0, 2.0, 0.0, 0.0], "count": 2,
        "strings": ["", "RootWebArea", "button", "Inner", "button"],
        "depth": [0, 1], "role": [1, 2], "name": [0, 3], "flags": [1, 1], "id": [1, 1],
        "bounds": [0, 0, 400, 300, 10, 10, 100, 40], "scale": 2.0, "tag": [0, 4],
        "extra": {}
    }))
    .unwrap_or_else(|e| panic!("fixture: {e}"))
}

fn page() -> WalkPage {
    WalkPage {
        page: "P".into(),
        viewport: Some(Viewport {
            width: 800.0,
            height: 600.0,
            dpr: 2.0,
        }),
        frames: vec![
            WalkFrame {
                target: "P".into(),
                frame: "P".into(),
                owner: None,
                walk: main_walk(),
            },
            WalkFrame {
                target: "P".into(),
                frame: "F1".into(),
                owner: Some((0, 6)),
                walk: child_walk(),
            },
        ],
    }
}

#[test]
fn decodes_depths_ids_and_sparse_columns() {
    let w = main_walk().decode().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(w.nodes.len(), 6);
    assert_eq!(w.children[0], vec![1, 2, 3, 4, 5]);
    assert_eq!(w.nodes[3].id, 4);
    assert_eq!(w.nodes[1].level, 1);
    assert_eq!(w.nodes[3].value, "abc");
    assert_eq!(w.nodes[2].bounds, Some((10.0, 50.0, 13.0, 13.0)));
    assert_eq!(w.nodes[5].frame_offset, Some((10.0, 10.0)));
    assert_eq!(w.nodes[2].attrs, vec![("type".into(), "checkbox".into())]);
}

#[test]
fn inconsistent_walks_are_errors() {
    let mut w = main_walk();
    w.depth[2] = 5;
    assert!(matches!(w.decode(), Err(WalkError::Inconsistent(_))));
    let mut w = main_walk();
    w.name.pop();
    assert!(matches!(w.decode(), Err(WalkError::Inconsistent(_))));
    let mut w = main_walk();
    w.value = vec![99, 1];
    assert!(matches!(w.decode(), Err(WalkError::Inconsistent(_))));
    assert!(matches!(RawWalk::parse("[1"), Err(WalkError::Parse(_))));
}

#[test]
fn builds_the_cup_tree_with_frames_refs_and_screen_bounds() {
    let (root, cut, notes) = build(&page(), 99, 1000);
    assert_eq!((cut, notes.len()), (0, 0));
    let root = root.unwrap_or_else(|| panic!("no root"));
    assert_eq!(root.role, Role::Document);
    assert_eq!(root.bounds, Some(Rect::new(0, 0, 1600, 1200)));
    let kids = &root.children;
    assert_eq!(kids[0].role, Role::Heading);
    assert_eq!(kids[0].attributes.level.map(|l| l.get()), Some(1));
    assert_eq!(kids[0].id, "P/P/P:2");
    let check = &kids[1];
    assert_eq!(check.role, Role::Checkbox);
    assert!(check.states.contains(&State::Checked));
    assert!(check.states.contains(&State::Focused));
    assert!(check.actions.contains(&Action::Toggle));
    assert_eq!(check.bounds, Some(Rect::new(20, 100, 26, 26)));
    let pass = &kids[2];
    assert_eq!(pass.role, Role::TextBox);
    assert_eq!(
        pass.value.as_deref(),
        Some("•••"),
        "a password is never echoed"
    );
    assert!(pass.states.contains(&State::Editable));
    let link = &kids[3];
    assert!(link.states.contains(&State::Offscreen));
    assert_eq!(link.attributes.url.as_deref(), Some("http://x/far"));
    // The iframe's document: at the iframe's box plus its content offset.
    let frame = &kids[4];
    let doc = &frame.children[0];
    assert_eq!(doc.role, Role::Document);
    let inner = &doc.children[0];
    assert_eq!(inner.name, "Inner");
    assert_eq!(inner.id, "P/P/F1:2");
    // (0 + 10 + 5) css * 2, (100 + 10 + 5) css * 2
    assert_eq!(inner.bounds, Some(Rect::new(30, 230, 100, 40)));
}

#[test]
fn limits_cut_nodes_and_count_them() {
    // Nodes are counted as they are finished (children first), as the
    // Chromium source does: over the cap, the rest is cut and counted.
    let (root, cut, _) = build(&page(), 99, 7);
    assert_eq!(root, None);
    assert_eq!(cut, 8);
    let (root, cut, _) = build(&page(), 99, 8);
    assert_eq!(root.map(|r| r.subtree_len()), Some(8));
    assert_eq!(cut, 0);
    let (root, cut, _) = build(&page(), 0, 1000);
    assert_eq!(root.map(|r| r.subtree_len()), Some(1));
    assert_eq!(cut, 5);
}

#[test]
fn a_frame_that_does_not_decode_is_a_note() {
    let mut p = page();
    p.frames[1].walk.role.clear();
    let (root, _, notes) = build(&p, 99, 1000);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(root.is_some());
}

#[test]
fn a_patch_changes_states_and_values_of_its_generation_only() {
    let mut raw = main_walk();
    raw.gen = 4;
    let mut w = raw.decode().unwrap_or_else(|e| panic!("{e}"));
    let text = r#"{"v":1,"patch":4,"gen":5,"count":6,"rows":[2,513,"",3,33,"abcd"],"viewport":[800,600,2,0,10]}"#;
    let Ok(Answer::Patch(p)) = Answer::parse(text) else {
        panic!("not read as a patch")
    };
    w.apply(&p).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(w.gen, 5);
    assert_eq!(w.nodes[2].flags, 513, "unchecked, no longer focused");
    assert_eq!(w.nodes[3].value, "abcd");
    assert_eq!(w.scroll, (0.0, 10.0));
    // Made against another generation: refused, nothing changed.
    assert!(matches!(w.apply(&p), Err(WalkError::Inconsistent(_))));
    assert_eq!(w.nodes[3].value, "abcd");
    let bad = Patch {
        patch: 5,
        gen: 6,
        count: 6,
        rows: vec![json!(9), json!(1), json!("")],
        ..Patch::default()
    };
    assert!(matches!(w.apply(&bad), Err(WalkError::Inconsistent(_))));
    assert_eq!(w.gen, 5);
    // A whole walk still reads as one.
    let whole = serde_json::to_string(&main_walk()).unwrap_or_default();
    assert!(matches!(Answer::parse(&whole), Ok(Answer::Whole(_))));
}

#[test]
fn a_splice_puts_the_subtrees_walked_again_in_place_of_their_old_rows() {
    let mut raw = main_walk();
    raw.gen = 4;
    let mut w = raw.decode().unwrap_or_else(|e| panic!("{e}"));
    // The password field (row 3) walked again as a group holding a button;
    // the heading renamed; the checkbox unchecked; every box read again.
    let bounds: Vec<String> = (0..7).map(|i| format!("{i},{},10,10", 2 * i)).collect();
    // (as the walker writes it: "v" and "splice" first)
    let text = format!(
        r#"{{"v":1,"splice":4,"gen":5,"base":6,"count":7,"parts":[3,1,2,0],
        "walk":{{"v":1,"count":2,"strings":["","group","button","Send","div","button"],
          "depth":[0,1],"role":[1,2],"name":[0,3],"flags":[0,1],"id":[40,1],
          "bounds":[0,0,2,2,0,0,2,2],"scale":2.0,"tag":[4,5],"extra":{{}}}},
        "rows":[2,513,""],"names":[1,"New title","more"],"bounds":[{}],
        "viewport":[800,600,2,0,0]}}"#,
        bounds.join(",")
    );
    let Ok(Answer::Splice(s)) = Answer::parse(&text) else {
        panic!("not read as a splice")
    };
    let mut before = w.clone();
    w.splice(&s).unwrap_or_else(|e| panic!("{e}"));
    let roles: Vec<&str> = w.nodes.iter().map(|n| n.role.as_str()).collect();
    assert_eq!(
        roles,
        [
            "RootWebArea",
            "heading",
            "checkbox",
            "group",
            "button",
            "link",
            "Iframe"
        ]
    );
    let parents: Vec<Option<usize>> = w.nodes.iter().map(|n| n.parent).collect();
    assert_eq!(
        parents,
        [None, Some(0), Some(0), Some(0), Some(3), Some(0), Some(0)]
    );
    assert_eq!(w.children[0], [1, 2, 3, 5, 6]);
    assert_eq!(w.children[3], [4]);
    assert_eq!((w.nodes[3].id, w.nodes[4].id), (40, 41));
    assert_eq!(w.nodes[4].name, "Send");
    assert_eq!(
        w.nodes[5].url.as_deref(),
        Some("http://x/far"),
        "kept rows keep their facts"
    );
    assert_eq!(
        (w.nodes[1].name.as_str(), w.nodes[1].description.as_str()),
        ("New title", "more")
    );
    assert_eq!(w.nodes[2].flags, 513);
    assert_eq!(
        w.nodes[6].bounds,
        Some((3.0, 6.0, 5.0, 5.0)),
        "every box from the splice"
    );
    assert_eq!(w.gen, 5);
    // Made against another generation, or not fitting: refused.
    assert!(matches!(w.splice(&s), Err(WalkError::Inconsistent(_))));
    let mut short = (*s).clone();
    short.bounds.truncate(8);
    assert!(matches!(
        before.clone().splice(&short),
        Err(WalkError::Inconsistent(_))
    ));
    let mut outside = (*s).clone();
    outside.parts = vec![5, 3, 2, 0];
    assert!(matches!(
        before.splice(&outside),
        Err(WalkError::Inconsistent(_))
    ));
}

/// A click's patch (a checkbox unchecked, a value typed) brings the tree
/// built before it up to date by mapping those rows again: the same tree
/// as a whole build of the patched walk, over a chain of patches too. A
/// scroll is not a patch of rows: the tree is built whole.
#[test]
fn a_patched_walk_patches_the_tree_built_before() {
    let view = Viewport {
        width: 800.0,
        height: 600.0,
        dpr: 2.0,
    };
    let mut raw = main_walk();
    raw.gen = 4;
    let mut walk = raw.decode().unwrap_or_else(|e| panic!("{e}"));
    let frames = |w: &Walk| {
        vec![FrameWalk {
            target: "P".into(),
            frame: "P".into(),
            owner: None,
            walk: Some(std::sync::Arc::new(w.clone())),
        }]
    };
    let key = |w: &Walk| world::BuildKey {
        frames: vec![("P".into(), "P".into(), None, Some(w.rev))],
        view: (800.0, 600.0, 2.0),
        limits: (100, 1000),
    };
    let worlds = world::Worlds::default();
    let (root, cut) = build_walks("P", view, &frames(&walk), 100, 1000);
    worlds.keep_built("P", key(&walk), root, cut);
    let patch = |text: &str, w: &mut Walk| {
        let Ok(Answer::Patch(p)) = Answer::parse(text) else {
            panic!("not read as a patch: {text}")
        };
        w.apply(&p).unwrap_or_else(|e| panic!("{e}"));
    };
    patch(
        r#"{"v":1,"patch":4,"gen":5,"count":6,"rows":[2,513,""],"viewport":[800,600,2,0,0]}"#,
        &mut walk,
    );
    patch(
        r#"{"v":1,"patch":5,"gen":6,"count":6,"rows":[3,33,"abcd"],"viewport":[800,600,2,0,0]}"#,
        &mut walk,
    );
    let (patched, cut, generation) = worlds
        .patch_built("P", &key(&walk), &frames(&walk), view)
        .unwrap_or_else(|| panic!("patched"));
    let (whole, whole_cut) = build_walks("P", view, &frames(&walk), 100, 1000);
    assert_eq!(patched, whole);
    assert_eq!(cut, whole_cut);
    let unchecked = patched
        .as_ref()
        .and_then(|r| r.children.iter().find(|n| n.role == Role::Checkbox))
        .unwrap_or_else(|| panic!("{patched:?}"));
    assert!(!unchecked.states.contains(&State::Checked));
    // The kept tree is the patched one, under a new build number.
    assert_eq!(
        worlds.built("P", &key(&walk)),
        Some((whole.clone(), 0, generation))
    );
    // A scroll: no patch of rows.
    patch(
        r#"{"v":1,"patch":6,"gen":7,"count":6,"rows":[],"viewport":[800,600,2,0,40]}"#,
        &mut walk,
    );
    assert_eq!(
        worlds.patch_built("P", &key(&walk), &frames(&walk), view),
        None
    );
}
