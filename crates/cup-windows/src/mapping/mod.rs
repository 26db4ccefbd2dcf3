//! UIA → CUP translation of one element, as pure functions of its
//! [`Element`] facts (no COM), so every rule is tested with fixtures on
//! any OS.
//!
//! [`map_element`] runs the pieces in order: role ([`role`]), bounds,
//! states ([`states`]), actions ([`actions`]), text, attributes and the
//! `platform.windows` escape hatch.

pub mod actions;
pub mod role;
pub mod states;

#[cfg(test)]
mod tests;

use std::num::NonZeroU32;

use cup_protocol::node::{Orientation, PlatformData, PlatformWindows};
use cup_protocol::text::{cap, one_line, DESCRIPTION_MAX, NAME_MAX, VALUE_MAX};
use cup_protocol::{Attributes, Node, Rect, Role};
use serde_json::{Map, Value};

use crate::control::control_type_name;
use crate::facts::{Bounds, Element};

pub use actions::map_actions;
pub use role::{map_role, Context};
pub use states::map_states;

/// Screen bounds in whole physical pixels; `None` for UIA's empty
/// rectangle.
pub fn map_bounds(b: Option<Bounds>) -> Option<Rect> {
    let b = b.filter(|b| !b.is_empty())?;
    let x = b.left.floor();
    let y = b.top.floor();
    let w = (b.left + b.width).ceil() - x;
    let h = (b.top + b.height).ceil() - y;
    Some(Rect::new(x as i64, y as i64, w as u64, h as u64))
}

/// What the mapping needs to know beyond the element itself.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MapContext<'a> {
    /// Monitor rectangles; an element overlapping none is `offscreen`.
    pub monitors: &'a [Rect],
    /// Parent and grandparent control types.
    pub family: Context,
}

fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// The value of an element: its `ValuePattern` value (masked for
/// passwords), a range's number, or MSAA's value for a text role.
pub fn map_value(el: &Element, role: Role) -> Option<String> {
    let p = &el.patterns;
    if el.is_password {
        let has = p.value.as_ref().is_some_and(|v| !v.value.is_empty());
        return has.then(|| "•".repeat(8));
    }
    if role == Role::Link {
        return None;
    }
    if let Some(v) = &p.value {
        if !v.value.is_empty() {
            return Some(cap(&v.value, VALUE_MAX));
        }
    }
    if let Some(r) = &p.range_value {
        if !matches!(role, Role::ScrollBar) {
            return Some(number(r.value));
        }
    }
    let legacy = p.legacy.as_ref().map(|l| l.value.as_str()).unwrap_or("");
    if !legacy.is_empty() && (states::text_role(role) || role.shows_value()) {
        return Some(cap(legacy, VALUE_MAX));
    }
    None
}

fn attributes(el: &Element, role: Role) -> Attributes {
    let p = &el.patterns;
    let mut a = Attributes::default();
    let level = role::heading_level(el)
        .filter(|_| role == Role::Heading)
        .or_else(|| {
            u32::try_from(el.level)
                .ok()
                .filter(|l| *l > 0 && matches!(role, Role::TreeItem | Role::Row | Role::ListItem))
        });
    a.level = level.and_then(NonZeroU32::new);
    if let Some(r) = &p.range_value {
        a.value_min = Some(r.minimum).filter(|v| v.is_finite());
        a.value_max = Some(r.maximum).filter(|v| v.is_finite());
        a.value_now = Some(r.value).filter(|v| v.is_finite());
    }
    let oriented = role.has_orientation();
    if oriented {
        a.orientation = match el.orientation {
            1 => Some(Orientation::Horizontal),
            2 => Some(Orientation::Vertical),
            _ => None,
        };
    }
    if let Some(g) = &p.grid_item {
        a.row_index = Some(i64::from(g.row));
        a.col_index = Some(i64::from(g.column));
    }
    if let Some(g) = &p.grid {
        a.row_count = Some(i64::from(g.row_count));
        a.col_count = Some(i64::from(g.column_count));
    }
    if el.size_of_set > 0 {
        a.pos_in_set = u32::try_from(el.position_in_set)
            .ok()
            .and_then(NonZeroU32::new);
        a.set_size = u32::try_from(el.size_of_set).ok();
    }
    if role == Role::Link {
        a.url = p
            .value
            .as_ref()
            .map(|v| v.value.trim().to_owned())
            .filter(|u| !u.is_empty());
    }
    a
}

/// Pattern names for the escape hatch, in UIA's order of ids.
fn pattern_names(el: &Element) -> Vec<String> {
    let p = &el.patterns;
    let flags: [(&str, bool); 16] = [
        ("Invoke", p.invoke),
        ("Selection", p.selection.is_some()),
        ("Value", p.value.is_some()),
        ("RangeValue", p.range_value.is_some()),
        ("Scroll", p.scroll.is_some()),
        ("ExpandCollapse", p.expand_collapse.is_some()),
        ("Grid", p.grid.is_some()),
        ("GridItem", p.grid_item.is_some()),
        ("Window", p.window.is_some()),
        ("SelectionItem", p.selection_item.is_some()),
        ("Table", p.table),
        ("TableItem", p.table_item),
        ("Text", p.text),
        ("Toggle", p.toggle.is_some()),
        ("ScrollItem", p.scroll_item),
        ("LegacyIAccessible", p.legacy.is_some()),
    ];
    flags
        .iter()
        .filter(|(_, on)| *on)
        .map(|(n, _)| (*n).to_owned())
        .collect()
}

fn platform(el: &Element) -> PlatformWindows {
    let some = |s: &str| Some(s.to_owned()).filter(|s| !s.is_empty());
    let mut extra = Map::new();
    extra.insert(
        "controlTypeName".into(),
        Value::from(control_type_name(el.control_type)),
    );
    if !el.framework_id.is_empty() {
        extra.insert("frameworkId".into(), Value::from(el.framework_id.clone()));
    }
    if !el.aria_role.is_empty() {
        extra.insert("ariaRole".into(), Value::from(el.aria_role.clone()));
    }
    let patterns = pattern_names(el);
    PlatformWindows {
        control_type: Some(i64::from(el.control_type)),
        automation_id: some(&el.automation_id),
        class_name: some(&el.class_name),
        patterns: Some(patterns).filter(|p| !p.is_empty()),
        hwnd: Some(el.native_window_handle).filter(|h| *h != 0),
        extra,
    }
}

/// Translates one element into a CUP node without id or children.
pub fn map_element(el: &Element, ctx: &MapContext<'_>) -> Node {
    let role = map_role(el, ctx.family);
    let bounds = map_bounds(el.bounds);
    let states = map_states(el, role, bounds, ctx.monitors);
    let actions = map_actions(el, role, &states);
    let mut name = one_line(&el.name, NAME_MAX);
    if name.is_empty() && role == Role::Heading {
        name = one_line(
            el.patterns.legacy.as_ref().map_or("", |l| &l.value),
            NAME_MAX,
        );
    }
    let help = one_line(&el.help_text, DESCRIPTION_MAX);
    let description = Some(help).filter(|h| !h.is_empty() && *h != name);
    Node {
        id: String::new(),
        role,
        name,
        description,
        value: map_value(el, role),
        bounds,
        states,
        actions,
        attributes: attributes(el, role),
        children: Vec::new(),
        platform: PlatformData {
            windows: Some(platform(el)),
            ..PlatformData::default()
        },
    }
}
