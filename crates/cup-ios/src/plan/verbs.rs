//! Element actions: the plan of a CUP verb on one element of WDA's
//! source (taps at the centre of its part on the screen, typing after a
//! focusing tap, slider drags, stepper and picker taps, scroll swipes), and
//! the verbs iOS refuses with what to do instead.

use cup::{ActionParams, Direction};
use cup_protocol::Action;

use super::touch::{down, move_to, pause, touch, up};
use super::{
    dismiss_alert, double_tap, fmt_pt, keys, long_press, repeated, scroll_swipe, swipes, tap, Call,
    Plan, PlanError, Step, CLEAR_ONE, DRAG_MS, FOCUS_WAIT, LONG_PRESS_MS, SWIPE_GAP, TAP_MS,
};
use crate::facts::{ScreenFacts, WdaElement, WdaRect};
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
pub(super) fn caret_point(ty: &str, shown: &WdaRect) -> (f64, f64) {
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
pub(super) fn slider_fraction(el: &WdaElement) -> f64 {
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
