//! The states of an element (disabled, checked, pressed, selected,
//! focused, offscreen, editable, modal, busy) and the actions it offers.

use cup_protocol::{Action, Role, State};

use super::truthy;
use crate::facts::{WdaElement, WdaRect};

/// Selected in any of the ways WDA says it: `isSelected`, the `Selected`
/// trait, or a button's value `1`.
fn is_selected(el: &WdaElement) -> bool {
    el.selected == Some(true)
        || el.has_trait("Selected")
        || (el.element_type == "Button" && el.value.as_deref().map(str::trim) == Some("1"))
}

/// The states of `el` (role `role`) on a screen of `screen` points.
pub fn states(el: &WdaElement, role: Role, screen: &WdaRect) -> Vec<State> {
    let mut out = Vec::new();
    let disabled = el.enabled == Some(false) || el.has_trait("NotEnabled");
    if disabled {
        out.push(State::Disabled);
    }
    let selected = is_selected(el);
    match role {
        Role::Switch | Role::Checkbox => {
            if truthy(el.value.as_deref()) || (role == Role::Checkbox && selected) {
                out.push(State::Checked);
            }
        }
        Role::Radio => {
            if selected {
                out.push(State::Checked);
            }
        }
        Role::Button if el.has_trait("ToggleButton") => {
            if selected || truthy(el.value.as_deref()) {
                out.push(State::Pressed);
            }
        }
        _ => {
            if selected {
                out.push(State::Selected);
            }
        }
    }
    if el.focused == Some(true) {
        out.push(State::Focused);
    }
    let outside = el
        .rect
        .is_some_and(|r| !r.is_empty() && r.intersect(screen).is_empty());
    if el.visible == Some(false) || outside {
        out.push(State::Offscreen);
    }
    if matches!(role, Role::TextBox | Role::SearchBox) && !disabled {
        out.push(State::Editable);
    }
    if matches!(el.element_type.as_str(), "Alert" | "Sheet") {
        out.push(State::Modal);
    }
    if el.element_type == "ActivityIndicator" && el.visible != Some(false) {
        out.push(State::Busy);
    }
    out.sort();
    out.dedup();
    out
}

/// The actions `el` (role `role`, states `states`) offers; none when it
/// is disabled.
pub fn actions(el: &WdaElement, role: Role, states: &[State]) -> Vec<Action> {
    if states.contains(&State::Disabled) {
        return Vec::new();
    }
    let mut out = Vec::new();
    match role {
        Role::Button
        | Role::Link
        | Role::Tab
        | Role::ListItem
        | Role::Cell
        | Role::MenuItem
        | Role::Radio
        | Role::Combobox
        | Role::TreeItem
        | Role::Row => out.push(Action::Click),
        Role::Checkbox | Role::Switch => out.extend([Action::Click, Action::Toggle]),
        Role::TextBox | Role::SearchBox => {
            out.extend([Action::Click, Action::Focus, Action::SetValue, Action::Type]);
        }
        Role::Slider | Role::SpinButton => out.extend([Action::Decrement, Action::Increment]),
        _ => {}
    }
    if el.has_trait("Button") || el.has_trait("Link") {
        out.push(Action::Click);
    }
    if el.has_trait("Adjustable") {
        out.extend([Action::Decrement, Action::Increment]);
    }
    // A long press opens context menus on buttons, links and rows; on
    // controls it does nothing more than a tap.
    if out.contains(&Action::Click)
        && !matches!(
            role,
            Role::Switch
                | Role::Checkbox
                | Role::TextBox
                | Role::SearchBox
                | Role::Radio
                | Role::Combobox
                | Role::Tab
        )
    {
        out.push(Action::LongPress);
    }
    if role == Role::Tab {
        out.push(Action::Select);
    }
    if matches!(
        el.element_type.as_str(),
        "ScrollView" | "Table" | "CollectionView" | "WebView" | "Outline"
    ) {
        out.push(Action::Scroll);
    }
    if matches!(el.element_type.as_str(), "Alert" | "Sheet") {
        out.push(Action::Dismiss);
    }
    out.sort();
    out.dedup();
    out
}
