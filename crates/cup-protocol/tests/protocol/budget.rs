//! The token budget (`max_tokens`): never more than the budget, lines
//! whole, kept by need, and the text still parses.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use cup_protocol::compact::{parse, render, Detail, RenderOptions, TokenBudget, TOKEN_CUT_MARK};
use cup_protocol::Envelope;
use serde_json::{json, Value};

/// A stand-in tokenizer for the protocol crate (which has none; `cup`
/// counts o200k): a token a word or punctuation run, as BPE roughly is.
fn words(text: &str) -> usize {
    text.split(|c: char| c.is_whitespace() || c == '"' || c == '[' || c == ']')
        .filter(|w| !w.is_empty())
        .count()
}

fn budget(max: usize) -> Option<TokenBudget> {
    Some(TokenBudget { max, count: words })
}

fn b(x: i64, y: i64, w: u64, h: u64) -> Value {
    json!({"x": x, "y": y, "w": w, "h": h})
}

/// A document of 200 paragraphs (the first 10 on screen), a nav of 30 links
/// (5 on screen), two headings below the fold and a focused field at the
/// very end.
fn long_page() -> Envelope {
    let mut main = Vec::new();
    for i in 0..200u64 {
        let y = i64::try_from(i * 80).unwrap();
        let mut p = json!({"id": format!("e{}", 1000 + i), "role": "text",
            "name": format!("Paragraph {i} says several words about the topic at hand"),
            "bounds": b(300, y, 600, 70)});
        if y >= 800 {
            p["states"] = json!(["offscreen"]);
        }
        main.push(p);
        if i == 120 || i == 160 {
            main.push(json!({"id": format!("e{}", 2000 + i), "role": "heading", "name": format!("Part {i}"),
                "bounds": b(300, y + 70, 600, 10), "states": ["offscreen"]}));
        }
    }
    main.push(json!({"id": "e3000", "role": "textbox", "name": "Comment",
        "bounds": b(300, 16_000, 600, 30), "states": ["offscreen", "focused", "editable"],
        "actions": ["click", "type"]}));
    let mut links = Vec::new();
    for i in 0..30u64 {
        let y = i64::try_from(i * 150).unwrap();
        let mut l = json!({"id": format!("e{}", 100 + i), "role": "link", "name": format!("Chapter {i}"),
            "bounds": b(0, y, 250, 30), "actions": ["click"]});
        if y >= 800 {
            l["states"] = json!(["offscreen"]);
        }
        links.push(
            json!({"id": format!("e{}", 200 + i), "role": "listitem", "name": "",
            "bounds": b(0, y, 250, 30), "children": [l]}),
        );
    }
    serde_json::from_value(json!({
        "version": "0.1.0", "platform": "linux", "screen": {"w": 1000, "h": 800},
        "tree": [{"id": "e0", "role": "document", "name": "Long page", "bounds": b(0, 0, 1000, 800),
            "children": [
                {"id": "e1", "role": "navigation", "name": "", "bounds": b(0, 0, 250, 800),
                 "children": [{"id": "e2", "role": "list", "name": "", "bounds": b(0, 0, 250, 4500),
                    "children": links}]},
                {"id": "e3", "role": "main", "name": "", "bounds": b(300, 0, 700, 16_100),
                 "children": main}
            ]}]
    }))
    .expect("test envelope parses")
}

fn text(env: &Envelope, tokens: Option<TokenBudget>) -> String {
    render(
        env,
        &RenderOptions {
            detail: Detail::Page,
            max_chars: 0,
            tokens,
            ..RenderOptions::default()
        },
    )
}

#[test]
fn a_text_within_the_budget_is_the_whole_text() {
    let env = long_page();
    let whole = text(&env, None);
    assert_eq!(text(&env, budget(words(&whole))), whole);
}

#[test]
fn the_budget_keeps_the_focus_the_screen_and_the_controls_first() {
    let env = long_page();
    let whole = text(&env, None);
    let max = 600;
    assert!(words(&whole) > 3 * max, "the page must be over the budget");
    let out = text(&env, budget(max));
    assert!(
        words(&out) <= max,
        "{} words over {max}:\n{out}",
        words(&out)
    );
    // Never a line cut in half: every body line is a whole line of the
    // whole text, or a budget line.
    for line in out.split_once("\n\n").unwrap().1.lines() {
        assert!(
            whole.lines().any(|w| w == line) || line.contains("left out to fit the budget"),
            "not a whole line: {line}"
        );
    }
    // The focused field, at the very end of the document, and its
    // ancestors.
    assert!(out.contains("[e3000] tbx \"Comment\""), "{out}");
    assert!(out.contains("[e3] main"), "{out}");
    // What is on screen: the first paragraphs and links.
    assert!(
        out.contains("[e1000] txt") && out.contains("[e1009] txt"),
        "{out}"
    );
    assert!(
        out.contains("[e100] lnk") && out.contains("[e105] lnk"),
        "{out}"
    );
    // Then what acts: every link of the nav, offscreen ones too, before
    // any offscreen paragraph.
    assert!(out.contains("[e129] lnk"), "{out}");
    // Then headings, before the rest.
    assert!(
        out.contains("[e2120] hdg") && out.contains("[e2160] hdg"),
        "{out}"
    );
    assert!(!out.contains("[e1199] txt"), "{out}");
    // The header says what was left out; a container says where to find
    // its items left out: offscreen text, which `page` does not list,
    // through find.
    assert!(out.contains("# max_tokens 600: "), "{out}");
    assert!(
        out.contains("more items left out to fit the budget — find(name=...) gets them"),
        "{out}"
    );
    // It parses back.
    parse(&out).expect("the budgeted text parses");
}

#[test]
fn a_container_says_where_page_finds_what_the_budget_left_out() {
    let env = long_page();
    // Room for what is on screen and a few links only.
    let out = text(&env, budget(330));
    assert!(words(&out) <= 330, "{out}");
    assert!(out.contains("[e105] lnk"), "{out}");
    assert!(!out.contains("[e129] lnk"), "{out}");
    // The list's first link left out is its n-th item: page starts there.
    let first_gone = (100..130)
        .find(|i| !out.contains(&format!("[e{i}] lnk")))
        .unwrap();
    let offset = first_gone - 100;
    assert!(
        out.contains(&format!(
            "left out to fit the budget — page(element_id='e2', offset={offset})"
        )),
        "{out}"
    );
}

#[test]
fn a_tight_budget_still_holds() {
    let env = long_page();
    for max in [100, 150, 250, 1000, 2000] {
        let out = text(&env, budget(max));
        assert!(words(&out) <= max, "{max}: {} words:\n{out}", words(&out));
        parse(&out).expect("the budgeted text parses");
    }
}

#[test]
fn a_window_line_over_the_budget_is_cut_with_a_notice() {
    let long_name = "word ".repeat(300);
    let env: Envelope = serde_json::from_value(json!({
        "version": "0.1.0", "platform": "linux", "screen": {"w": 1000, "h": 800},
        "tree": [{"id": "e0", "role": "window", "name": long_name, "bounds": b(0, 0, 1000, 800),
            "children": [{"id": "e1", "role": "button", "name": "OK", "bounds": b(0, 0, 10, 10),
                "actions": ["click"]}]}]
    }))
    .unwrap();
    let out = text(&env, budget(150));
    assert!(words(&out) <= 150, "{} words:\n{out}", words(&out));
    assert!(out.contains(TOKEN_CUT_MARK), "{out}");
}
