//! Pixel-level gestures as touches: clicks as taps, drags along their
//! path, scrolls as swipes around their point, typing as keys; the rest a
//! touch screen cannot do.

use cup::Gesture;

use super::touch::drag_path;
use super::{
    double_tap, fmt_pt, keys, repeated, scroll_swipe, swipes, tap, Plan, PlanError, Step, SWIPE_GAP,
};
use crate::facts::{ScreenFacts, WdaRect};
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
