//! AX → CUP translation of one element, as pure functions of its
//! [`AxElement`] facts (no Objective-C), so every rule is tested with
//! fixtures on any OS.
//!
//! [`map_element`] runs the pieces in order: role ([`role`]), bounds (points
//! to pixels through the display layout), states ([`states`]), actions
//! ([`actions`]), name/value/description, attributes and the
//! `platform.macos` escape hatch.

pub mod actions;
pub mod role;
pub mod states;

use std::num::NonZeroU32;

use cup_protocol::node::{Orientation, PlatformData, PlatformMacOs};
use cup_protocol::text::{cap, one_line, DESCRIPTION_MAX, NAME_MAX, VALUE_MAX};
use cup_protocol::{Attributes, Node, Role};
use serde_json::{Map, Value};

use crate::facts::{AxElement, AxValue};
use crate::screen::Layout;

pub use actions::map_actions;
pub use role::{map_role, Context};
pub use states::map_states;

/// What the mapping needs to know beyond the element itself.
#[derive(Debug, Clone, Copy)]
pub struct MapContext<'a> {
    /// The displays (points → pixels, offscreen).
    pub layout: &'a Layout,
    /// The parent's role and subrole.
    pub family: Context<'a>,
}

fn text(s: Option<&str>) -> &str {
    s.map(str::trim).unwrap_or("")
}

/// Roles whose `AXValue` is their text (and so their name).
fn value_is_text(el: &AxElement, role: Role) -> bool {
    el.role == "AXStaticText" || matches!(role, Role::Heading | Role::Cell | Role::Option)
}

/// The value of an element: its text (masked for secure fields), a
/// range's number, a pop-up's chosen item.
pub fn map_value(el: &AxElement, role: Role) -> Option<String> {
    let v = el.value.as_ref()?;
    if el.role == "AXSecureTextField" || el.subrole.as_deref() == Some("AXSecureTextField") {
        let has = !v.text().is_empty();
        return has.then(|| "•".repeat(8));
    }
    match role {
        Role::TextBox | Role::SearchBox | Role::Combobox => {
            let t = v.text();
            (!t.is_empty()).then(|| cap(&t, VALUE_MAX))
        }
        Role::Slider | Role::SpinButton | Role::ProgressBar | Role::ScrollBar => {
            v.number().map(|n| AxValue::Number(n).text())
        }
        _ => None,
    }
}

fn attributes(el: &AxElement, role: Role) -> Attributes {
    let mut a = Attributes::default();
    let level = match role {
        // Web headings carry their level as their value.
        Role::Heading => match &el.value {
            Some(AxValue::Number(n)) if *n >= 1.0 => Some(*n as i64),
            _ => el.disclosure_level.map(|l| l + 1),
        },
        Role::TreeItem | Role::Row => el.disclosure_level.map(|l| l + 1),
        _ => None,
    };
    a.level = level
        .and_then(|l| u32::try_from(l).ok())
        .and_then(NonZeroU32::new);
    if matches!(
        role,
        Role::Slider | Role::SpinButton | Role::ProgressBar | Role::ScrollBar
    ) {
        a.value_min = el.min_value.filter(|v| v.is_finite());
        a.value_max = el.max_value.filter(|v| v.is_finite());
        a.value_now = el
            .value
            .as_ref()
            .and_then(AxValue::number)
            .filter(|v| v.is_finite());
    }
    if role.has_orientation() {
        a.orientation = match el.orientation.as_deref() {
            Some("AXHorizontalOrientation") => Some(Orientation::Horizontal),
            Some("AXVerticalOrientation") => Some(Orientation::Vertical),
            _ => None,
        };
    }
    let placeholder = text(el.placeholder.as_deref());
    if !placeholder.is_empty() {
        a.placeholder = Some(one_line(placeholder, NAME_MAX));
    }
    if role == Role::Link {
        a.url = el
            .url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .map(str::to_owned);
    }
    if matches!(role, Role::MenuItem | Role::MenuItemCheckbox) {
        a.key_shortcut = el.shortcut.clone().filter(|s| !s.is_empty());
    }
    a
}

fn platform(el: &AxElement) -> PlatformMacOs {
    let mut extra = Map::new();
    if let Some(d) = el.role_description.as_deref().filter(|d| !d.is_empty()) {
        extra.insert("axRoleDescription".into(), Value::from(d));
    }
    PlatformMacOs {
        ax_role: Some(el.role.clone()).filter(|r| !r.is_empty()),
        ax_subrole: el.subrole.clone().filter(|s| !s.is_empty()),
        ax_identifier: el.identifier.clone().filter(|s| !s.is_empty()),
        ax_actions: Some(el.actions.clone()).filter(|a| !a.is_empty()),
        extra,
    }
}

/// Translates one element into a CUP node without id or children.
pub fn map_element(el: &AxElement, ctx: &MapContext<'_>) -> Node {
    let role = map_role(el, ctx.family);
    let bounds = el.frame.and_then(|f| ctx.layout.rect_to_pixels(&f));
    let offscreen = el.frame.is_some_and(|f| ctx.layout.offscreen(&f));
    let states = map_states(el, role, offscreen);
    let actions = map_actions(el, role, &states);
    let title = text(el.title.as_deref());
    let desc = text(el.description.as_deref());
    let value_text = el.value.as_ref().map(AxValue::text).unwrap_or_default();
    let (name, description) = if !title.is_empty() {
        (title, Some(desc).filter(|d| !d.is_empty() && *d != title))
    } else if !desc.is_empty() {
        (desc, None)
    } else if value_is_text(el, role) && matches!(el.value, Some(AxValue::Text(_))) {
        (value_text.trim(), None)
    } else {
        ("", None)
    };
    let name = one_line(name, NAME_MAX);
    let help = text(el.help.as_deref());
    let description = description
        .map(|d| one_line(d, DESCRIPTION_MAX))
        .or_else(|| Some(one_line(help, DESCRIPTION_MAX)))
        .filter(|d| !d.is_empty() && *d != name);
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
            macos: Some(platform(el)),
            ..PlatformData::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::PointRect;
    use cup_protocol::{Action, Rect, State};

    fn layout() -> Layout {
        crate::screen::one_display(1440.0, 900.0, 2.0)
    }

    #[test]
    fn a_search_field_in_full() {
        let l = layout();
        let el = AxElement {
            role: "AXTextField".into(),
            subrole: Some("AXSearchField".into()),
            description: Some("Search".into()),
            value: Some(AxValue::Text("cats".into())),
            value_settable: Some(true),
            placeholder: Some("Search files".into()),
            enabled: Some(true),
            focused: Some(true),
            frame: Some(PointRect {
                x: 100.0,
                y: 50.0,
                w: 200.0,
                h: 22.0,
            }),
            actions: vec!["AXConfirm".into()],
            identifier: Some("search".into()),
            ..AxElement::default()
        };
        let ctx = MapContext {
            layout: &l,
            family: Context::default(),
        };
        let n = map_element(&el, &ctx);
        assert_eq!(n.role, Role::SearchBox);
        assert_eq!(n.name, "Search");
        assert_eq!(n.value.as_deref(), Some("cats"));
        assert_eq!(n.bounds, Some(Rect::new(200, 100, 400, 44)));
        assert_eq!(n.states, [State::Editable, State::Focused]);
        assert!(n.actions.contains(&Action::Type));
        assert_eq!(n.attributes.placeholder.as_deref(), Some("Search files"));
        let mac = n.platform.macos.expect("platform.macos");
        assert_eq!(mac.ax_subrole.as_deref(), Some("AXSearchField"));
    }

    #[test]
    fn names_values_and_secrets() {
        let l = layout();
        let ctx = MapContext {
            layout: &l,
            family: Context::default(),
        };
        let label = AxElement {
            role: "AXStaticText".into(),
            value: Some(AxValue::Text("Hello".into())),
            ..AxElement::default()
        };
        let n = map_element(&label, &ctx);
        assert_eq!(
            (n.role, n.name.as_str(), n.value),
            (Role::Text, "Hello", None)
        );
        let pw = AxElement {
            role: "AXTextField".into(),
            subrole: Some("AXSecureTextField".into()),
            value: Some(AxValue::Text("hunter2".into())),
            ..AxElement::default()
        };
        assert_eq!(map_element(&pw, &ctx).value.as_deref(), Some("••••••••"));
        let h = AxElement {
            role: "AXHeading".into(),
            title: Some("Intro".into()),
            value: Some(AxValue::Number(2.0)),
            ..AxElement::default()
        };
        let n = map_element(&h, &ctx);
        assert_eq!(n.attributes.level.map(NonZeroU32::get), Some(2));
        // A level is not a name.
        let untitled = AxElement {
            title: None,
            ..h.clone()
        };
        assert_eq!(map_element(&untitled, &ctx).name, "");
        let s = AxElement {
            role: "AXSlider".into(),
            title: Some("Volume".into()),
            value: Some(AxValue::Number(0.5)),
            min_value: Some(0.0),
            max_value: Some(1.0),
            orientation: Some("AXHorizontalOrientation".into()),
            ..AxElement::default()
        };
        let n = map_element(&s, &ctx);
        assert_eq!(n.value.as_deref(), Some("0.5"));
        assert_eq!(n.attributes.value_max, Some(1.0));
        assert_eq!(n.attributes.orientation, Some(Orientation::Horizontal));
        let far = AxElement {
            role: "AXButton".into(),
            title: Some("Far".into()),
            frame: Some(PointRect {
                x: 5000.0,
                y: 10.0,
                w: 10.0,
                h: 10.0,
            }),
            ..AxElement::default()
        };
        assert!(map_element(&far, &ctx).states.contains(&State::Offscreen));
    }
}
