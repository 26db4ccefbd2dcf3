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

use std::time::Duration;

use cup::{ActionParams, Direction, Gesture};
use cup_protocol::keys::{Combo, Key, NamedKey};
use cup_protocol::Action;
use serde_json::{json, Value};

use crate::facts::{ScreenFacts, WdaElement, WdaRect};

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

// ---- requests -----------------------------------------------------------

/// The JSON source, without the string frames WDA repeats.
pub fn source() -> Call {
    Call::get("/source?format=json&excluded_attributes=frame,nativeFrame")
}

/// The screen: `screenSize` (points, newer WDA), `statusBarSize`, `scale`.
pub fn screen() -> Call {
    Call::get("/wda/screen")
}

/// The app's window size in points (for WDA without `screenSize`).
pub fn window_size() -> Call {
    Call::get("/window/size")
}

/// The app in front: `bundleId`, `name`, `pid`.
pub fn active_app() -> Call {
    Call::get("/wda/activeAppInfo")
}

/// A PNG of the screen, base64 in `value`.
pub fn screenshot() -> Call {
    Call::get("/screenshot")
}

/// WDA's status (reachable, build, device).
pub fn status() -> Call {
    Call::get("/status")
}

/// A new session (no app: WDA then follows the app in front).
pub fn new_session() -> Call {
    Call {
        method: Method::Post,
        path: "/session".to_owned(),
        session: false,
        body: Some(json!({"capabilities": {"alwaysMatch": {}}})),
    }
}

/// Launches (or brings to the front) the app `bundle_id`.
pub fn launch(bundle_id: &str) -> Call {
    Call::session_post("/wda/apps/launch", json!({"bundleId": bundle_id}))
}

/// Presses the device button `name` (`home`, `volumeup`, `volumedown`).
pub fn press_button(name: &str) -> Call {
    Call::session_post("/wda/pressButton", json!({"name": name}))
}

/// Types `text` into what has the focus, one array item per character.
pub fn keys(text: &str) -> Call {
    let chars: Vec<String> = text.chars().map(String::from).collect();
    Call::session_post("/wda/keys", json!({"value": chars}))
}

/// Dismisses the alert or action sheet in front.
pub fn dismiss_alert() -> Call {
    Call::session_post("/alert/dismiss", json!({}))
}

/// A coordinate as JSON: whole numbers as integers, others to 0.01.
fn num(v: f64) -> Value {
    let r = (v * 100.0).round() / 100.0;
    if r.fract() == 0.0 && r.abs() < 1e15 {
        json!(r as i64)
    } else {
        json!(r)
    }
}

fn touch(items: Vec<Value>) -> Call {
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

fn move_to(x: f64, y: f64, ms: u64) -> Value {
    json!({"type": "pointerMove", "duration": ms, "x": num(x), "y": num(y)})
}

fn down() -> Value {
    json!({"type": "pointerDown", "button": 0})
}

fn up() -> Value {
    json!({"type": "pointerUp", "button": 0})
}

fn pause(ms: u64) -> Value {
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
fn drag_path(path: &[(f64, f64)], ms: u64) -> Option<Call> {
    let (first, rest) = path.split_first()?;
    let each = ms / u64::try_from(rest.len().max(1)).unwrap_or(1);
    let mut items = vec![move_to(first.0, first.1, 0), down(), pause(TAP_MS)];
    items.extend(rest.iter().map(|p| move_to(p.0, p.1, each)));
    items.push(up());
    Some(touch(items))
}

// ---- element actions ----------------------------------------------------

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

fn is_text_input(ty: &str) -> bool {
    matches!(
        ty,
        "TextField" | "SecureTextField" | "SearchField" | "TextView"
    )
}

/// Where a tap focuses a text input with the caret after its text: right
/// of the centre, a quarter of the width (at least 40 pt) in from the
/// right edge, clear of a clear button; in a text view also near the
/// bottom, below its last line. Other elements: the centre.
fn caret_point(ty: &str, shown: &WdaRect) -> (f64, f64) {
    let (cx, cy) = shown.centre();
    if !is_text_input(ty) {
        return (cx, cy);
    }
    let x = (shown.right() - (shown.width / 4.0).max(40.0)).max(cx);
    let y = if ty == "TextView" {
        (shown.bottom() - (shown.height / 4.0).min(20.0)).max(cy)
    } else {
        cy
    };
    (x, y)
}

/// What a text input holds now, as WDA's source shows it (nothing when
/// its value is only its placeholder).
fn current_text(el: &WdaElement) -> String {
    let v = el.value.clone().unwrap_or_default();
    let placeholder = el.placeholder_value.as_deref().unwrap_or("");
    if !placeholder.is_empty() && v.trim() == placeholder.trim() {
        String::new()
    } else {
        v
    }
}

/// Where a slider's thumb is, 0–1 along its track, from its value (`50%`,
/// or a number between its minimum and maximum); the middle when unknown.
fn slider_fraction(el: &WdaElement) -> f64 {
    let v = el.value.as_deref().unwrap_or("").trim();
    let f = if let Some(p) = v.strip_suffix('%') {
        p.trim().parse::<f64>().ok().map(|p| p / 100.0)
    } else {
        let n = v.parse::<f64>().ok();
        match (n, el.min_value, el.max_value) {
            (Some(n), Some(lo), Some(hi)) if hi > lo => Some((n - lo) / (hi - lo)),
            (Some(n), None, None) if (0.0..=1.0).contains(&n) => Some(n),
            _ => None,
        }
    };
    f.filter(|f| f.is_finite()).unwrap_or(0.5).clamp(0.0, 1.0)
}

/// A slider's thumb dragged a tenth of its track up (`increase`) or
/// down.
fn nudge_slider(r: &WdaRect, fraction: f64, increase: bool) -> Call {
    let horizontal = r.width >= r.height;
    let (start, length, across) = if horizontal {
        (r.x, r.width, r.y + r.height / 2.0)
    } else {
        (r.y, r.height, r.x + r.width / 2.0)
    };
    // The thumb's centre runs from a thumb radius in from each end.
    let pad = (length / 4.0).min(15.0);
    let track = (length - 2.0 * pad).max(0.0);
    // Vertical sliders grow upwards.
    let along = if horizontal { fraction } else { 1.0 - fraction };
    let from = start + pad + along * track;
    let step = 0.1 * track * if increase == horizontal { 1.0 } else { -1.0 };
    let to = (from + step).clamp(start + pad, start + pad + track);
    let (a, b) = if horizontal {
        ((from, across), (to, across))
    } else {
        ((across, from), (across, to))
    };
    touch(vec![
        move_to(a.0, a.1, 0),
        down(),
        pause(TAP_MS),
        move_to(b.0, b.1, DRAG_MS),
        up(),
    ])
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

/// The plan of `action` on `el` on `screen`.
///
/// # Errors
///
/// The verb has no iOS equivalent here, the element is not on the screen,
/// or a parameter is missing.
pub fn element(
    action: Action,
    el: &WdaElement,
    screen: &ScreenFacts,
    params: &ActionParams,
) -> Result<Plan, PlanError> {
    let ty = el.element_type.as_str();
    if let Some(plan) = refused(action, ty)? {
        return Ok(plan);
    }
    let rect = el.rect.ok_or_else(|| {
        PlanError::Invalid(format!(
            "the {ty} has no frame in WebDriverAgent's source; take a new snapshot"
        ))
    })?;
    let shown = rect.intersect(&screen.rect());
    if shown.is_empty() {
        return Err(PlanError::Invalid(format!(
            "the {ty} is off the screen; scroll it into view first (scroll its list), then take a new snapshot"
        )));
    }
    let centre = shown.centre();
    let (cx, cy) = centre;
    let one = |call: Call, message: String| Plan {
        steps: vec![Step::Call(call)],
        message,
    };
    Ok(match action {
        Action::Click | Action::Select | Action::Toggle => {
            one(tap(cx, cy), format!("Tapped {}", fmt_pt(centre)))
        }
        Action::Focus => {
            let at = caret_point(ty, &shown);
            one(tap(at.0, at.1), format!("Tapped {}", fmt_pt(at)))
        }
        Action::DoubleClick => one(
            double_tap(cx, cy),
            format!("Double-tapped {}", fmt_pt(centre)),
        ),
        Action::LongPress => one(
            long_press(cx, cy),
            format!("Long-pressed {} for {LONG_PRESS_MS} ms", fmt_pt(centre)),
        ),
        Action::Type | Action::SetValue => {
            let text = params.value.clone().unwrap_or_default();
            if action == Action::Type && text.is_empty() {
                return Err(PlanError::Invalid(
                    "type needs a value: the text to type".to_owned(),
                ));
            }
            if action == Action::SetValue && !is_text_input(ty) {
                return Err(PlanError::Unsupported(format!(
                    "setvalue works on text fields only over WebDriverAgent; on this {ty} use {}",
                    if el.has_trait("Adjustable") || ty == "Slider" {
                        "increment or decrement"
                    } else {
                        "click"
                    }
                )));
            }
            let at = caret_point(ty, &shown);
            let mut steps = vec![Step::Call(tap(at.0, at.1)), Step::Wait(FOCUS_WAIT)];
            let old = if action == Action::SetValue {
                current_text(el).chars().count()
            } else {
                0
            };
            if old > 0 {
                steps.push(Step::Call(keys(&CLEAR_ONE.repeat(old))));
            }
            if !text.is_empty() {
                steps.push(Step::Call(keys(&text)));
            }
            let n = text.chars().count();
            Plan {
                steps,
                message: if action == Action::SetValue {
                    format!(
                        "Tapped {}, deleted {old} and typed {n} characters",
                        fmt_pt(at)
                    )
                } else {
                    format!("Tapped {} and typed {n} characters", fmt_pt(at))
                },
            }
        }
        Action::Scroll => {
            let direction = params.direction.unwrap_or(Direction::Down);
            let n = swipes(params.amount);
            Plan {
                steps: repeated(&scroll_swipe(&shown, direction), n, SWIPE_GAP),
                message: format!(
                    "Swiped {n} time{} to scroll {}",
                    if n == 1 { "" } else { "s" },
                    direction.name()
                ),
            }
        }
        Action::Increment | Action::Decrement => {
            let up = action == Action::Increment;
            let word = if up { "Incremented" } else { "Decremented" };
            match ty {
                "Stepper" | "PageIndicator" => {
                    let x = shown.x + shown.width * if up { 0.75 } else { 0.25 };
                    one(tap(x, cy), format!("{word}: tapped {}", fmt_pt((x, cy))))
                }
                "PickerWheel" => {
                    let y = cy + shown.height / 6.0 * if up { 1.0 } else { -1.0 };
                    one(
                        tap(cx, y),
                        format!(
                            "{word}: tapped the {} row",
                            if up { "next" } else { "previous" }
                        ),
                    )
                }
                _ => one(
                    nudge_slider(&shown, slider_fraction(el), up),
                    format!("{word}: dragged the thumb a tenth of its track"),
                ),
            }
        }
        // Handled by `refused`.
        Action::Dismiss | Action::RightClick | Action::Expand | Action::Collapse => {
            return Err(PlanError::Unsupported(format!(
                "{} is not available on iOS",
                action.name()
            )))
        }
    })
}

/// The verbs decided by the type alone: dismiss, and the ones iOS lacks.
fn refused(action: Action, ty: &str) -> Result<Option<Plan>, PlanError> {
    match action {
        Action::Dismiss if matches!(ty, "Alert" | "Sheet") => Ok(Some(Plan {
            steps: vec![Step::Call(dismiss_alert())],
            message: "Dismissed the alert".to_owned(),
        })),
        Action::Dismiss => Err(PlanError::Unsupported(format!(
            "only alerts and action sheets can be dismissed on iOS, not a {ty}; click its Cancel or Close button"
        ))),
        Action::RightClick => Err(PlanError::Unsupported(
            "iOS has no right click; use longpress for an element's context menu".to_owned(),
        )),
        Action::Expand | Action::Collapse => Err(PlanError::Unsupported(format!(
            "iOS elements cannot {} themselves; click the element (a disclosure row or button) instead",
            action.name()
        ))),
        _ => Ok(None),
    }
}

// ---- keys ---------------------------------------------------------------

const KEYS_ACCEPTED: &str =
    "home, volume_up, volume_down, enter, backspace, tab, space or one character, without modifiers";

/// The plan of pressing `combo`: device buttons and typed keys.
///
/// # Errors
///
/// Modifiers, or a key iOS has no way to press over WDA.
pub fn key_combo(combo: &Combo) -> Result<Plan, PlanError> {
    let refuse = || {
        PlanError::Unsupported(format!(
            "iOS cannot press {combo} over WebDriverAgent; it takes {KEYS_ACCEPTED}"
        ))
    };
    if !combo.modifiers.is_empty() || combo.keys.is_empty() {
        return Err(refuse());
    }
    let mut steps = Vec::new();
    let mut typed = String::new();
    let flush = |typed: &mut String, steps: &mut Vec<Step>| {
        if !typed.is_empty() {
            steps.push(Step::Call(keys(typed)));
            typed.clear();
        }
    };
    for key in &combo.keys {
        let button = match key {
            Key::Named(NamedKey::Home) => Some("home"),
            Key::Named(NamedKey::VolumeUp) => Some("volumeup"),
            Key::Named(NamedKey::VolumeDown) => Some("volumedown"),
            _ => None,
        };
        if let Some(b) = button {
            flush(&mut typed, &mut steps);
            steps.push(Step::Call(press_button(b)));
            continue;
        }
        typed.push(match key {
            Key::Named(NamedKey::Enter | NamedKey::KpEnter) => '\n',
            Key::Named(NamedKey::Backspace) => '\u{8}',
            Key::Named(NamedKey::Tab) => '\t',
            Key::Named(NamedKey::Space) => ' ',
            Key::Char(c) => *c,
            Key::Named(_) => return Err(refuse()),
        });
    }
    flush(&mut typed, &mut steps);
    Ok(Plan {
        steps,
        message: format!("Pressed {combo}"),
    })
}

// ---- gestures -----------------------------------------------------------

/// The plan of a pixel-level gesture (`screen`'s scale turns pixels into
/// points).
///
/// # Errors
///
/// Hover, separate presses and releases, right clicks, modifiers and
/// triple taps have no touch equivalent.
pub fn gesture(g: &Gesture, screen: &ScreenFacts) -> Result<Plan, PlanError> {
    let s = if screen.scale > 0.0 {
        screen.scale
    } else {
        1.0
    };
    let pt = |p: &cup::Point| (p.x as f64 / s, p.y as f64 / s);
    let touch_only = || {
        PlanError::Unsupported(
            "a touch screen has no hover, separate press or release, other buttons or modifiers; use click, drag, scroll or type".to_owned(),
        )
    };
    match g {
        Gesture::Click {
            at,
            button: cup::Button::Left,
            count,
            modifiers,
        } if modifiers.is_empty() && (1..=2).contains(count) => {
            let p = pt(at);
            Ok(Plan {
                steps: vec![Step::Call(if *count == 2 {
                    double_tap(p.0, p.1)
                } else {
                    tap(p.0, p.1)
                })],
                message: format!("Tapped {}", fmt_pt(p)),
            })
        }
        Gesture::Drag {
            path,
            button: cup::Button::Left,
            duration,
            modifiers,
            ..
        } if modifiers.is_empty() => {
            let points: Vec<(f64, f64)> = path.iter().map(pt).collect();
            let ms = u64::try_from(duration.as_millis())
                .unwrap_or(u64::MAX)
                .max(100);
            let call = drag_path(&points, ms)
                .filter(|_| points.len() >= 2)
                .ok_or_else(|| PlanError::Invalid("a drag needs at least two points".to_owned()))?;
            Ok(Plan {
                steps: vec![Step::Call(call)],
                message: format!("Dragged through {} points", points.len()),
            })
        }
        Gesture::Scroll {
            at,
            direction,
            amount,
            modifiers,
        } if modifiers.is_empty() => {
            let screen_rect = screen.rect();
            let centre = at.as_ref().map_or(screen_rect.centre(), pt);
            // A band half the screen long around the point, on the screen.
            let (w, h) = (screen.width_points / 2.0, screen.height_points / 2.0);
            let band = WdaRect {
                x: centre.0 - w / 2.0,
                y: centre.1 - h / 2.0,
                width: w,
                height: h,
            }
            .intersect(&screen_rect);
            if band.is_empty() {
                return Err(PlanError::Invalid(
                    "the scroll point is off the screen".to_owned(),
                ));
            }
            let n = swipes(Some(*amount));
            Ok(Plan {
                steps: repeated(&scroll_swipe(&band, *direction), n, SWIPE_GAP),
                message: format!(
                    "Swiped {n} time{} to scroll {}",
                    if n == 1 { "" } else { "s" },
                    direction.name()
                ),
            })
        }
        Gesture::Type { text, .. } => Ok(Plan {
            steps: vec![Step::Call(keys(text))],
            message: format!("Typed {} characters", text.chars().count()),
        }),
        _ => Err(touch_only()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::parse_combo;

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
        let err = element(Action::Click, &gone, &screen(), &ActionParams::default())
            .expect_err("off screen");
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
}
