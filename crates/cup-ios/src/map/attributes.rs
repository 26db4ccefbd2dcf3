//! The rest of a node: its bounds in device pixels, its CUP attributes
//! (placeholder, range, orientation) and its iOS platform data (type,
//! identifier, traits, custom actions).

use cup_protocol::node::{Orientation, PlatformIos};
use cup_protocol::text::{one_line, NAME_MAX};
use cup_protocol::{Attributes, Rect, Role};
use serde_json::{Map, Value};

use super::{identifier_like, is_text_input, nonempty};
use crate::facts::{WdaElement, WdaRect, TYPE_PREFIX};

/// A rectangle in points as device pixels (edges rounded); `None` when it
/// is not finite.
pub fn to_pixels(r: &WdaRect, scale: f64) -> Option<Rect> {
    let x0 = (r.x * scale).round();
    let y0 = (r.y * scale).round();
    let x1 = (r.right() * scale).round();
    let y1 = (r.bottom() * scale).round();
    if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
        return None;
    }
    Some(Rect::new(
        x0 as i64,
        y0 as i64,
        (x1 - x0).max(0.0) as u64,
        (y1 - y0).max(0.0) as u64,
    ))
}

/// A range value's number: `0.5`, or `50%` as the share of `min..max`
/// (of 0..100 when they are unknown).
fn value_now(el: &WdaElement) -> Option<f64> {
    let v = el.value.as_deref()?.trim();
    if let Some(pct) = v.strip_suffix('%') {
        let p = pct.trim().parse::<f64>().ok()?;
        return Some(match (el.min_value, el.max_value) {
            (Some(lo), Some(hi)) if hi > lo => lo + p / 100.0 * (hi - lo),
            _ => p,
        });
    }
    v.parse::<f64>().ok().filter(|n| n.is_finite())
}

pub(super) fn attributes(el: &WdaElement, role: Role) -> Attributes {
    let mut a = Attributes::default();
    if is_text_input(&el.element_type) {
        a.placeholder = nonempty(el.placeholder_value.as_deref()).map(|p| one_line(p, NAME_MAX));
    }
    if matches!(role, Role::Slider | Role::SpinButton | Role::ProgressBar) {
        let pct = el.value.as_deref().is_some_and(|v| v.trim().ends_with('%'));
        let known = el.min_value.is_some() && el.max_value.is_some();
        a.value_min = el.min_value.or((pct && !known).then_some(0.0));
        a.value_max = el.max_value.or((pct && !known).then_some(100.0));
        a.value_now = value_now(el);
    }
    if role.has_orientation() {
        a.orientation = el.rect.filter(|r| !r.is_empty()).map(|r| {
            if r.width >= r.height {
                Orientation::Horizontal
            } else {
                Orientation::Vertical
            }
        });
    }
    a
}

pub(super) fn platform(el: &WdaElement) -> PlatformIos {
    let identifier = nonempty(el.raw_identifier.as_deref())
        .or_else(|| {
            nonempty(el.name.as_deref())
                .filter(|n| identifier_like(n) && Some(*n) != nonempty(el.label.as_deref()))
        })
        .map(str::to_owned);
    let mut extra = Map::new();
    if !el.custom_actions.is_empty() {
        extra.insert(
            "customActions".into(),
            Value::from(el.custom_actions.clone()),
        );
    }
    PlatformIos {
        element_type: Some(format!("{TYPE_PREFIX}{}", el.element_type)),
        identifier,
        traits: Some(el.traits.clone()).filter(|t| !t.is_empty()),
        extra,
    }
}
