//! CUP states from UIA properties and pattern states, and from MSAA state
//! bits where an element offers no patterns (Win32 controls under Wine,
//! old apps through the MSAA proxy).

use cup_protocol::{Rect, Role, State};

use crate::control::{expand, msaa_state, toggle};
use crate::facts::Element;
use crate::mapping::role::aria_property;

/// Roles whose toggle state reads as `checked`/`mixed` (a button's reads
/// as `pressed`).
fn checkable(role: Role) -> bool {
    matches!(
        role,
        Role::Checkbox
            | Role::Radio
            | Role::Switch
            | Role::MenuItemCheckbox
            | Role::MenuItemRadio
            | Role::TreeItem
            | Role::ListItem
            | Role::Option
            | Role::Cell
    )
}

/// Roles that take text (`editable`/`readonly` come from their value).
pub fn text_role(role: Role) -> bool {
    matches!(
        role,
        Role::TextBox | Role::SearchBox | Role::Combobox | Role::Document | Role::SpinButton
    )
}

/// `true` when `bounds` overlaps none of `monitors` (none known: `false`).
pub fn outside(bounds: Option<Rect>, monitors: &[Rect]) -> bool {
    let Some(b) = bounds else { return false };
    if monitors.is_empty() {
        return false;
    }
    let right = |r: &Rect| r.x.saturating_add(i64::try_from(r.w).unwrap_or(i64::MAX));
    let bottom = |r: &Rect| r.y.saturating_add(i64::try_from(r.h).unwrap_or(i64::MAX));
    !monitors
        .iter()
        .any(|m| b.x < right(m) && right(&b) > m.x && b.y < bottom(m) && bottom(&b) > m.y)
}

/// The states of `el` mapped to `role`, in vocabulary order, unique.
pub fn map_states(el: &Element, role: Role, bounds: Option<Rect>, monitors: &[Rect]) -> Vec<State> {
    let p = &el.patterns;
    let legacy = p.legacy.as_ref().map_or(0, |l| l.state);
    let bit = |b: u32| legacy & b != 0;
    let mut s: Vec<State> = Vec::new();

    let busy = aria_property(&el.aria_properties, "busy") == Some("true") || bit(msaa_state::BUSY);
    if busy {
        s.push(State::Busy);
    }
    // Checked / mixed / pressed: TogglePattern, a radio's SelectionItem,
    // else MSAA's bits.
    let toggle_state = p.toggle.or_else(|| {
        if bit(msaa_state::MIXED) {
            Some(toggle::INDETERMINATE)
        } else if bit(msaa_state::CHECKED) {
            Some(toggle::ON)
        } else if p.legacy.is_some()
            && checkable(role)
            && matches!(role, Role::Checkbox | Role::Radio)
        {
            Some(toggle::OFF)
        } else {
            None
        }
    });
    let radio_selected =
        matches!(role, Role::Radio | Role::MenuItemRadio) && p.selection_item == Some(true);
    if checkable(role) && (toggle_state == Some(toggle::ON) || radio_selected) {
        s.push(State::Checked);
    }
    let collapsed_state = p.expand_collapse.or_else(|| {
        if bit(msaa_state::EXPANDED) {
            Some(expand::EXPANDED)
        } else if bit(msaa_state::COLLAPSED) {
            Some(expand::COLLAPSED)
        } else {
            None
        }
    });
    if collapsed_state == Some(expand::COLLAPSED) {
        s.push(State::Collapsed);
    }
    if !el.is_enabled || bit(msaa_state::UNAVAILABLE) {
        s.push(State::Disabled);
    }
    let read_only = match (&p.value, &p.range_value) {
        (Some(v), _) => Some(v.is_read_only),
        (None, Some(r)) => Some(r.is_read_only),
        (None, None) if p.legacy.is_some() && text_role(role) => Some(bit(msaa_state::READONLY)),
        _ => None,
    };
    let editable = text_role(role) && role != Role::SpinButton && read_only == Some(false)
        || (role == Role::TextBox && read_only.is_none());
    if editable {
        s.push(State::Editable);
    }
    if matches!(
        collapsed_state,
        Some(expand::EXPANDED | expand::PARTIALLY_EXPANDED)
    ) {
        s.push(State::Expanded);
    }
    if el.has_keyboard_focus || bit(msaa_state::FOCUSED) {
        s.push(State::Focused);
    }
    if checkable(role) && toggle_state == Some(toggle::INDETERMINATE) {
        s.push(State::Mixed);
    }
    let modal = p.window.as_ref().is_some_and(|w| w.is_modal)
        || aria_property(&el.aria_properties, "modal") == Some("true");
    if modal {
        s.push(State::Modal);
    }
    if p.selection.as_ref().is_some_and(|x| x.can_select_multiple)
        || bit(msaa_state::MULTISELECTABLE)
    {
        s.push(State::MultiSelectable);
    }
    let offscreen = el.is_offscreen || bit(msaa_state::OFFSCREEN) || outside(bounds, monitors);
    if offscreen {
        s.push(State::Offscreen);
    }
    if role == Role::Button && (toggle_state == Some(toggle::ON) || bit(msaa_state::PRESSED)) {
        s.push(State::Pressed);
    }
    if read_only == Some(true) && role.allows_readonly() {
        s.push(State::ReadOnly);
    }
    if el.is_required_for_form || aria_property(&el.aria_properties, "required") == Some("true") {
        s.push(State::Required);
    }
    let selected = !matches!(role, Role::Radio | Role::MenuItemRadio)
        && (p.selection_item == Some(true)
            || (p.selection_item.is_none() && bit(msaa_state::SELECTED)));
    if selected {
        s.push(State::Selected);
    }
    s
}
