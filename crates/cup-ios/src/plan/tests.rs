//! Unit tests of the plans: touches, typing, increments, refusals, keys
//! and gestures, checked request by request.

use std::time::Duration;

use cup::{ActionParams, Direction, Gesture};
use cup_protocol::{parse_combo, Action};
use serde_json::{json, Value};

use super::verbs::{caret_point, slider_fraction};
use super::*;
use crate::facts::{ScreenFacts, WdaElement, WdaRect};

fn screen() -> ScreenFacts {
    ScreenFacts {
        width_points: 390.0,
        height_points: 844.0,
        scale: 3.0,
    }
}

fn el(ty: &str, x: f64, y: f64, w: f64, h: f64) -> WdaElement {
    WdaElement {
        element_type: ty.into(),
        rect: Some(WdaRect {
            x,
            y,
            width: w,
            height: h,
        }),
        ..WdaElement::default()
    }
}

fn body(step: &Step) -> &Value {
    match step {
        Step::Call(Call { body: Some(b), .. }) => b,
        other => panic!("not a call with a body: {other:?}"),
    }
}

fn plan(action: Action, el: &WdaElement, params: &ActionParams) -> Plan {
    element(action, el, &screen(), params).expect("a plan")
}

#[test]
fn a_click_is_a_touch_tap_at_the_centre_in_points() {
    let b = el("Button", 16.0, 100.0, 358.0, 44.0);
    let p = plan(Action::Click, &b, &ActionParams::default());
    assert_eq!(p.message, "Tapped (195, 122) pt");
    assert_eq!(p.steps.len(), 1);
    let Step::Call(call) = &p.steps[0] else {
        panic!("a call")
    };
    assert_eq!(call.describe(), "POST /session/{id}/actions");
    assert_eq!(
        body(&p.steps[0]),
        &json!({"actions": [{"type": "pointer", "id": "finger1",
            "parameters": {"pointerType": "touch"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "x": 195, "y": 122},
                {"type": "pointerDown", "button": 0},
                {"type": "pause", "duration": 100},
                {"type": "pointerUp", "button": 0}]}]})
    );
    // A cell half under the bottom edge is tapped in its visible part.
    let cell = el("Cell", 0.0, 820.0, 390.0, 48.0);
    let p = plan(Action::Click, &cell, &ActionParams::default());
    assert_eq!(p.message, "Tapped (195, 832) pt");
    let gone = el("Cell", 0.0, 900.0, 390.0, 48.0);
    let err =
        element(Action::Click, &gone, &screen(), &ActionParams::default()).expect_err("off screen");
    assert!(err.to_string().contains("scroll it into view"), "{err}");
}

#[test]
fn long_press_double_tap_and_scroll_swipes() {
    let b = el("Button", 0.0, 0.0, 100.0, 50.0);
    let p = plan(Action::LongPress, &b, &ActionParams::default());
    assert_eq!(
        body(&p.steps[0])["actions"][0]["actions"],
        json!([{"type": "pointerMove", "duration": 0, "x": 50, "y": 25},
            {"type": "pointerDown", "button": 0},
            {"type": "pause", "duration": 800},
            {"type": "pointerUp", "button": 0}])
    );
    let p = plan(Action::DoubleClick, &b, &ActionParams::default());
    let items = &body(&p.steps[0])["actions"][0]["actions"];
    assert_eq!(items.as_array().map(Vec::len), Some(8));
    let table = el("Table", 0.0, 100.0, 390.0, 600.0);
    let down = plan(Action::Scroll, &table, &ActionParams::default());
    assert_eq!(down.steps.len(), 1);
    assert_eq!(
        body(&down.steps[0])["actions"][0]["actions"],
        json!([{"type": "pointerMove", "duration": 0, "x": 195, "y": 550},
            {"type": "pointerDown", "button": 0},
            {"type": "pause", "duration": 100},
            {"type": "pointerMove", "duration": 500, "x": 195, "y": 250},
            {"type": "pause", "duration": 100},
            {"type": "pointerUp", "button": 0}])
    );
    let left = plan(
        Action::Scroll,
        &table,
        &ActionParams {
            direction: Some(Direction::Left),
            amount: Some(7),
            ..ActionParams::default()
        },
    );
    assert_eq!(left.steps.len(), 5, "3 swipes, 2 pauses");
    let items = &body(&left.steps[0])["actions"][0]["actions"];
    assert_eq!(
        (&items[0]["x"], &items[3]["x"]),
        (&json!(97.5), &json!(292.5))
    );
    assert_eq!(swipes(None), 1);
    assert_eq!(swipes(Some(1000)), 10);
}

#[test]
fn typing_and_replacing_text() {
    let mut f = el("TextField", 20.0, 200.0, 350.0, 40.0);
    f.value = Some("old@x.io".into());
    f.placeholder_value = Some("Email".into());
    let typed = plan(
        Action::Type,
        &f,
        &ActionParams {
            value: Some("naïve café 日本".into()),
            ..ActionParams::default()
        },
    );
    assert_eq!(typed.steps.len(), 3);
    // Right of the centre, clear of a clear button: the caret goes
    // after the text.
    assert_eq!(
        typed.message,
        "Tapped (282.5, 220) pt and typed 13 characters"
    );
    assert_eq!(typed.steps[0], Step::Call(tap(282.5, 220.0)));
    assert_eq!(typed.steps[1], Step::Wait(FOCUS_WAIT));
    assert_eq!(
        body(&typed.steps[2]),
        &json!({"value": ["n","a","ï","v","e"," ","c","a","f","é"," ","日","本"]})
    );
    let set = plan(
        Action::SetValue,
        &f,
        &ActionParams {
            value: Some("new".into()),
            ..ActionParams::default()
        },
    );
    assert_eq!(set.steps.len(), 4);
    // "old@x.io": 8 characters, each deleted by a backspace and a
    // forward delete, as WDA's own clear does.
    assert_eq!(
        body(&set.steps[2])["value"].as_array().map(Vec::len),
        Some(16)
    );
    assert_eq!(
        (
            &body(&set.steps[2])["value"][0],
            &body(&set.steps[2])["value"][1]
        ),
        (&json!("\u{8}"), &json!("\u{7f}"))
    );
    assert_eq!(body(&set.steps[3]), &json!({"value": ["n", "e", "w"]}));
    // An empty field (its value is the placeholder) needs no deleting.
    f.value = Some("Email".into());
    let set = plan(
        Action::SetValue,
        &f,
        &ActionParams {
            value: Some("a".into()),
            ..ActionParams::default()
        },
    );
    assert_eq!(set.steps.len(), 3);
    assert_eq!(
        caret_point(
            "TextView",
            &WdaRect {
                x: 0.0,
                y: 150.0,
                width: 393.0,
                height: 600.0
            }
        ),
        (294.75, 730.0)
    );
    assert_eq!(
        caret_point(
            "SearchField",
            &WdaRect {
                x: 0.0,
                y: 0.0,
                width: 100.0,
                height: 36.0
            }
        ),
        (60.0, 18.0)
    );
    assert_eq!(
        caret_point(
            "Button",
            &WdaRect {
                x: 0.0,
                y: 0.0,
                width: 100.0,
                height: 36.0
            }
        ),
        (50.0, 18.0)
    );
    let err = element(
        Action::SetValue,
        &el("Slider", 0.0, 0.0, 300.0, 30.0),
        &screen(),
        &ActionParams::default(),
    )
    .expect_err("not a text field");
    assert!(err.to_string().contains("increment or decrement"), "{err}");
}

#[test]
fn increments_drag_thumbs_and_tap_halves() {
    let mut s = el("Slider", 20.0, 300.0, 350.0, 30.0);
    s.value = Some("50%".into());
    let p = plan(Action::Increment, &s, &ActionParams::default());
    let items = &body(&p.steps[0])["actions"][0]["actions"];
    // Track 35..355 (15 pt in from each end), thumb at 195, +32.
    assert_eq!((&items[0]["x"], &items[0]["y"]), (&json!(195), &json!(315)));
    assert_eq!(&items[3]["x"], &json!(227));
    let p = plan(Action::Decrement, &s, &ActionParams::default());
    assert_eq!(
        &body(&p.steps[0])["actions"][0]["actions"][3]["x"],
        &json!(163)
    );
    let stepper = el("Stepper", 100.0, 100.0, 94.0, 32.0);
    let p = plan(Action::Increment, &stepper, &ActionParams::default());
    assert_eq!(p.message, "Incremented: tapped (170.5, 116) pt");
    assert_eq!(slider_fraction(&WdaElement::default()), 0.5);
}

#[test]
fn refusals_say_what_to_do_instead() {
    let b = el("Button", 0.0, 0.0, 10.0, 10.0);
    for (action, words) in [
        (Action::RightClick, "longpress"),
        (Action::Expand, "click"),
        (Action::Dismiss, "Cancel"),
    ] {
        let e = element(action, &b, &screen(), &ActionParams::default()).expect_err("refused");
        assert!(e.to_string().contains(words), "{e}");
    }
    let alert = el("Alert", 0.0, 0.0, 270.0, 150.0);
    let p = plan(Action::Dismiss, &alert, &ActionParams::default());
    assert_eq!(p.steps, [Step::Call(dismiss_alert())]);
    let mut nowhere = b.clone();
    nowhere.rect = None;
    assert!(element(Action::Click, &nowhere, &screen(), &ActionParams::default()).is_err());
}

#[test]
fn keys_are_buttons_or_typed_text() {
    let p = key_combo(&parse_combo("home").expect("combo")).expect("plan");
    assert_eq!(p.steps, [Step::Call(press_button("home"))]);
    let Step::Call(c) = &p.steps[0] else {
        panic!("call")
    };
    assert_eq!(c.describe(), "POST /session/{id}/wda/pressButton");
    assert_eq!(c.body, Some(json!({"name": "home"})));
    let p = key_combo(&parse_combo("volumeup").expect("combo")).expect("plan");
    assert_eq!(p.steps, [Step::Call(press_button("volumeup"))]);
    for (k, text) in [
        ("enter", "\n"),
        ("backspace", "\u{8}"),
        ("tab", "\t"),
        ("x", "x"),
    ] {
        let p = key_combo(&parse_combo(k).expect("combo")).expect("plan");
        assert_eq!(p.steps, [Step::Call(keys(text))], "{k}");
    }
    for k in ["ctrl+c", "escape", "f5", "cmd+a"] {
        let e = key_combo(&parse_combo(k).expect("combo")).expect_err(k);
        assert!(e.to_string().contains("home, volume_up"), "{e}");
    }
}

#[test]
fn gestures_in_pixels_become_touches_in_points() {
    let s = screen();
    let p = gesture(
        &Gesture::Click {
            at: cup::Point::new(585, 366),
            button: cup::Button::Left,
            count: 1,
            modifiers: Vec::new(),
        },
        &s,
    )
    .expect("tap");
    assert_eq!(p.steps, [Step::Call(tap(195.0, 122.0))]);
    let p = gesture(
        &Gesture::Type {
            text: "hi".into(),
            delay: Duration::ZERO,
        },
        &s,
    )
    .expect("type");
    assert_eq!(p.steps, [Step::Call(keys("hi"))]);
    let p = gesture(
        &Gesture::Scroll {
            at: None,
            direction: Direction::Down,
            amount: 3,
            modifiers: Vec::new(),
        },
        &s,
    )
    .expect("scroll");
    assert_eq!(p.steps.len(), 1);
    let right = gesture(
        &Gesture::Click {
            at: cup::Point::new(1, 1),
            button: cup::Button::Right,
            count: 1,
            modifiers: Vec::new(),
        },
        &s,
    );
    assert!(right.is_err());
    assert!(gesture(
        &Gesture::Move {
            to: cup::Point::new(1, 1)
        },
        &s
    )
    .is_err());
}
