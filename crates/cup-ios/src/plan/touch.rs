//! W3C touch actions (`POST /session/{id}/actions`, one `touch` pointer)
//! at positions in points: taps, double taps, long presses, swipes (and
//! the swipes of a scroll) and drags along a path.

use cup::Direction;
use serde_json::{json, Value};

use super::{Call, LONG_PRESS_MS, SWIPE_MS, TAP_MS};
use crate::facts::WdaRect;
/// A coordinate as JSON: whole numbers as integers, others to 0.01.
fn num(v: f64) -> Value {
    let r = (v * 100.0).round() / 100.0;
    if r.fract() == 0.0 && r.abs() < 1e15 {
        json!(r as i64)
    } else {
        json!(r)
    }
}

pub(super) fn touch(items: Vec<Value>) -> Call {
    Call::session_post(
        "/actions",
        json!({"actions": [{
            "type": "pointer",
            "id": "finger1",
            "parameters": {"pointerType": "touch"},
            "actions": items,
        }]}),
    )
}

pub(super) fn move_to(x: f64, y: f64, ms: u64) -> Value {
    json!({"type": "pointerMove", "duration": ms, "x": num(x), "y": num(y)})
}

pub(super) fn down() -> Value {
    json!({"type": "pointerDown", "button": 0})
}

pub(super) fn up() -> Value {
    json!({"type": "pointerUp", "button": 0})
}

pub(super) fn pause(ms: u64) -> Value {
    json!({"type": "pause", "duration": ms})
}

/// A tap at (`x`, `y`) points.
pub fn tap(x: f64, y: f64) -> Call {
    touch(vec![move_to(x, y, 0), down(), pause(TAP_MS), up()])
}

/// Two taps at (`x`, `y`) points.
pub fn double_tap(x: f64, y: f64) -> Call {
    touch(vec![
        move_to(x, y, 0),
        down(),
        pause(50),
        up(),
        pause(100),
        down(),
        pause(50),
        up(),
    ])
}

/// A touch held at (`x`, `y`) points.
pub fn long_press(x: f64, y: f64) -> Call {
    touch(vec![move_to(x, y, 0), down(), pause(LONG_PRESS_MS), up()])
}

/// A finger put down at `from`, moved to `to` in `ms`, held 100 ms (no
/// fling) and lifted.
pub fn swipe(from: (f64, f64), to: (f64, f64), ms: u64) -> Call {
    touch(vec![
        move_to(from.0, from.1, 0),
        down(),
        pause(TAP_MS),
        move_to(to.0, to.1, ms),
        pause(TAP_MS),
        up(),
    ])
}

/// A finger put down at `path[0]`, moved through the rest over `ms`.
pub(super) fn drag_path(path: &[(f64, f64)], ms: u64) -> Option<Call> {
    let (first, rest) = path.split_first()?;
    let each = ms / u64::try_from(rest.len().max(1)).unwrap_or(1);
    let mut items = vec![move_to(first.0, first.1, 0), down(), pause(TAP_MS)];
    items.extend(rest.iter().map(|p| move_to(p.0, p.1, each)));
    items.push(up());
    Some(touch(items))
}

/// How many swipes a scroll of `amount` steps makes: one per 3 (the
/// default amount), at least one, at most 10.
pub fn swipes(amount: Option<u32>) -> u32 {
    amount.unwrap_or(3).div_ceil(3).clamp(1, 10)
}

/// A swipe inside `r` that brings content in from `direction`: for
/// `down` the finger moves from 75 % to 25 % of its height.
pub fn scroll_swipe(r: &WdaRect, direction: Direction) -> Call {
    let (cx, cy) = r.centre();
    let at = |f: f64, start: f64, len: f64| start + f * len;
    let (from, to) = match direction {
        Direction::Down => ((cx, at(0.75, r.y, r.height)), (cx, at(0.25, r.y, r.height))),
        Direction::Up => ((cx, at(0.25, r.y, r.height)), (cx, at(0.75, r.y, r.height))),
        Direction::Right => ((at(0.75, r.x, r.width), cy), (at(0.25, r.x, r.width), cy)),
        Direction::Left => ((at(0.25, r.x, r.width), cy), (at(0.75, r.x, r.width), cy)),
    };
    swipe(from, to, SWIPE_MS)
}
