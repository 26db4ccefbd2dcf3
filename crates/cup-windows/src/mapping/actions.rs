//! CUP actions an element offers: through its patterns first, else through
//! cup's input at its centre (an element with bounds that reads as
//! clickable, as Win32 controls under Wine's patternless UIA do).
//! `doubleclick` and `rightclick` work on any placed element (input at its
//! centre) but are not advertised: every node would carry them.

use cup_protocol::{Action, Role, State};

use crate::control::expand;
use crate::facts::Element;
use crate::mapping::states::text_role;

/// Roles a pointer click at the centre activates.
pub fn clickable(role: Role) -> bool {
    role.activated_by_click() || role == Role::ColumnHeader
}

/// The actions of `el` mapped to `role` with `states`, in `Action::ALL`
/// order, unique.
pub fn map_actions(el: &Element, role: Role, states: &[State]) -> Vec<Action> {
    let p = &el.patterns;
    let disabled = states.contains(&State::Disabled);
    let has = |s: State| states.contains(&s);
    let mut out: Vec<Action> = Vec::new();
    if disabled {
        return out;
    }
    let placed = el.bounds.is_some_and(|b| !b.is_empty()) && !has(State::Offscreen);
    let default_action = p
        .legacy
        .as_ref()
        .is_some_and(|l| !l.default_action.trim().is_empty());
    if p.invoke
        || p.toggle.is_some()
        || (p.selection_item.is_some() && clickable(role))
        || default_action
        || (placed && clickable(role))
    {
        out.push(Action::Click);
    }
    let expandable = p.expand_collapse.is_some_and(|s| s != expand::LEAF_NODE);
    if expandable {
        out.push(Action::Collapse);
    }
    let range_writable = p.range_value.as_ref().is_some_and(|r| !r.is_read_only);
    if range_writable {
        out.push(Action::Decrement);
    }
    if p.window.is_some() && matches!(role, Role::Window | Role::Dialog | Role::AlertDialog) {
        out.push(Action::Dismiss);
    }
    if expandable {
        out.push(Action::Expand);
    }
    if el.is_keyboard_focusable {
        out.push(Action::Focus);
    }
    if range_writable {
        out.push(Action::Increment);
    }
    if p.scroll
        .as_ref()
        .is_some_and(|s| s.horizontally_scrollable || s.vertically_scrollable)
    {
        out.push(Action::Scroll);
    }
    if p.selection_item.is_some() {
        out.push(Action::Select);
    }
    let value_writable = p.value.as_ref().is_some_and(|v| !v.is_read_only);
    if value_writable || range_writable || (has(State::Editable) && text_role(role)) {
        out.push(Action::SetValue);
    }
    if p.toggle.is_some() {
        out.push(Action::Toggle);
    }
    if has(State::Editable) && text_role(role) {
        out.push(Action::Type);
    }
    out
}
