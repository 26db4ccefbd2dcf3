//! What to ask WebDriverAgent for: every CUP action, key and gesture as a
//! list of WDA requests (method, path, JSON body) and waits, with no I/O.
//!
//! Touches are W3C actions (`POST /session/{id}/actions`, one `touch`
//! pointer) at positions in points, the space of WDA's `rect`s:
//!
//! - click, select, toggle, focus: a tap (down, 100 ms, up) at the centre
//!   of the element's part on the screen (focus on a text input: where
//!   type taps); doubleclick: two taps; longpress: down, 800 ms, up;
//! - type: a tap to focus it, 300 ms for the keyboard, then
//!   `POST /session/{id}/wda/keys {"value": [characters]}` (WDA types any
//!   Unicode text as it is). The tap lands right of the centre, clear of a
//!   clear button (a quarter of the width, at least 40 pt, in from the
//!   right edge; a text view's also near its bottom), so the caret goes
//!   after the text, not into its middle;
//! - setvalue: the same, with a backspace and a forward delete
//!   (`\u{8}\u{7f}`) per character the field holds before the text: the
//!   sequence WDA's own clear types (`XCUIElement+FBTyping.m`), which
//!   empties the field wherever the caret landed. WDA's
//!   `/element/{uuid}/clear` would need an element id the JSON source does
//!   not give;
//! - scroll: a swipe inside the element from 75 % to 25 % of its height
//!   (or width), one per 3 steps of `amount` (default one);
//! - increment, decrement: a slider's thumb dragged by a tenth of its
//!   track (its position from the value); a stepper's or page indicator's
//!   right or left quarter tapped; a picker wheel's next or previous row
//!   tapped;
//! - dismiss: `POST /session/{id}/alert/dismiss` on an alert or sheet.
//!
//! Keys: `home`, `volume_up`, `volume_down` are device buttons
//! (`POST /session/{id}/wda/pressButton`); `enter`, `backspace`, `tab`,
//! `space` and single characters are typed through `/wda/keys`.
//!
//! This module holds what a plan is and the constants of its timing;
//! the plans are made in its submodules: `requests` (WDA's plain routes),
//! `touch` (W3C touch actions: taps, presses, swipes, drags), `verbs`
//! (element actions), `combo` (keys) and `gestures` (pixel-level gestures).

mod combo;
mod gestures;
mod requests;
mod touch;
mod verbs;

#[cfg(test)]
mod tests;

use std::time::Duration;

use serde_json::Value;

pub use combo::key_combo;
pub use gestures::gesture;
pub use requests::{
    active_app, dismiss_alert, keys, launch, new_session, press_button, screen, screenshot, source,
    status, window_size,
};
pub use touch::{double_tap, long_press, scroll_swipe, swipe, swipes, tap};
pub use verbs::element;

/// What deletes one character wherever the caret is: a backspace (the
/// character before it) and a forward delete (the one after), as WDA's
/// clear types them (`XCUIElement+FBTyping.m`, `backspaceDeleteSequence`).
pub const CLEAR_ONE: &str = "\u{8}\u{7f}";

/// How long a tap holds.
pub const TAP_MS: u64 = 100;
/// How long a long press holds.
pub const LONG_PRESS_MS: u64 = 800;
/// How long a scroll swipe moves.
pub const SWIPE_MS: u64 = 500;
/// How long a slider drag moves.
pub const DRAG_MS: u64 = 300;
/// How long the keyboard gets to come up after a tap that focuses.
pub const FOCUS_WAIT: Duration = Duration::from_millis(300);
/// The pause between two swipes of one scroll.
pub const SWIPE_GAP: Duration = Duration::from_millis(300);

/// An HTTP method WDA's routes use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET.
    Get,
    /// POST.
    Post,
    /// DELETE.
    Delete,
}

impl Method {
    /// Its name on the request line.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Delete => "DELETE",
        }
    }
}

/// One WDA request.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// Its method.
    pub method: Method,
    /// Its path (with query), after `/session/{id}` when `session`.
    pub path: String,
    /// Whether it is a route of the session (`/session/{id}` + `path`).
    pub session: bool,
    /// Its JSON body (POST).
    pub body: Option<Value>,
}

impl Call {
    /// `GET path` (no session).
    pub fn get(path: &str) -> Call {
        Call {
            method: Method::Get,
            path: path.to_owned(),
            session: false,
            body: None,
        }
    }

    /// `POST /session/{id}` + `path` with `body`.
    pub fn session_post(path: &str, body: Value) -> Call {
        Call {
            method: Method::Post,
            path: path.to_owned(),
            session: true,
            body: Some(body),
        }
    }

    /// The request line's method and path, the session as `{id}`
    /// (`POST /session/{id}/actions`).
    pub fn describe(&self) -> String {
        let prefix = if self.session { "/session/{id}" } else { "" };
        format!("{} {prefix}{}", self.method.name(), self.path)
    }
}

/// One step of a plan.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A request.
    Call(Call),
    /// A pause.
    Wait(Duration),
}

/// The steps of one action and what to say once they are done.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// In order.
    pub steps: Vec<Step>,
    /// What was done, e.g. `Tapped (195, 423) pt`.
    pub message: String,
}

/// Why an action cannot be planned; each message says what to do instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// iOS (over WDA) cannot do this.
    #[error("{0}")]
    Unsupported(String),
    /// The request or the element does not allow it now.
    #[error("{0}")]
    Invalid(String),
}

/// A point in points, as messages show it: `(195, 423.5) pt`.
fn fmt_pt(p: (f64, f64)) -> String {
    let show = |v: f64| {
        let r = (v * 10.0).round() / 10.0;
        if r.fract() == 0.0 {
            format!("{}", r as i64)
        } else {
            format!("{r}")
        }
    };
    format!("({}, {}) pt", show(p.0), show(p.1))
}

/// `call` made `n` times, `gap` apart.
fn repeated(call: &Call, n: u32, gap: Duration) -> Vec<Step> {
    let mut steps = Vec::new();
    for i in 0..n {
        if i > 0 {
            steps.push(Step::Wait(gap));
        }
        steps.push(Step::Call(call.clone()));
    }
    steps
}
