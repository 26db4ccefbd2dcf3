//! CUP states of an element from its AX attributes. `AXExpanded` is
//! trusted only where it means something (Chromium answers it on every
//! element); outline rows say it with `AXDisclosing`.

use cup_protocol::{Role, State};

use crate::facts::AxElement;

/// Roles whose `AXExpanded` is a real disclosure state.
pub fn expandable_role(ax_role: &str) -> bool {
    matches!(
        ax_role,
        "AXComboBox" | "AXPopUpButton" | "AXMenuButton" | "AXDisclosureTriangle" | "AXRow"
    )
}

/// Text-entry roles.
pub fn text_role(role: Role) -> bool {
    matches!(role, Role::TextBox | Role::SearchBox | Role::Combobox)
}

/// The states of `el` mapped to `role`; `offscreen` from the displays.
pub fn map_states(el: &AxElement, role: Role, offscreen: bool) -> Vec<State> {
    let mut out = Vec::new();
    let value = el.value.as_ref().and_then(|v| v.number());
    if el.busy == Some(true) {
        out.push(State::Busy);
    }
    match role {
        Role::Checkbox | Role::Switch | Role::Radio => match value {
            Some(1.0) => out.push(State::Checked),
            Some(2.0) => out.push(State::Mixed),
            _ => {}
        },
        Role::MenuItemCheckbox => out.push(State::Checked),
        Role::Button if el.subrole.as_deref() == Some("AXToggle") && value == Some(1.0) => {
            out.push(State::Pressed);
        }
        _ => {}
    }
    let expanded = if el.role == "AXRow" {
        el.disclosing.or(el.expanded)
    } else if el.role == "AXDisclosureTriangle" {
        el.expanded.or(value.map(|v| v == 1.0))
    } else if expandable_role(&el.role) {
        el.expanded
    } else {
        None
    };
    // A row that cannot disclose anything (a leaf) has no such state.
    let leaf = el.role == "AXRow" && el.disclosing.is_none();
    match expanded {
        Some(true) => out.push(State::Expanded),
        Some(false) if !leaf => out.push(State::Collapsed),
        _ => {}
    }
    if el.enabled == Some(false) {
        out.push(State::Disabled);
    }
    let settable = el.value_settable != Some(false);
    let enabled = el.enabled != Some(false);
    if text_role(role) && (role != Role::Combobox || el.role == "AXComboBox") {
        if settable && enabled {
            out.push(State::Editable);
        } else if !settable {
            out.push(State::ReadOnly);
        }
    }
    if el.focused == Some(true) {
        out.push(State::Focused);
    }
    if el.modal == Some(true) && matches!(role, Role::Dialog | Role::AlertDialog | Role::Window) {
        out.push(State::Modal);
    }
    if offscreen {
        out.push(State::Offscreen);
    }
    if el.required == Some(true) {
        out.push(State::Required);
    }
    // A tab is selected when its radio value is 1.
    if el.selected == Some(true) || (role == Role::Tab && value == Some(1.0)) {
        out.push(State::Selected);
    }
    out.sort_by_key(|s| s.name());
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::AxValue;

    fn el(role: &str) -> AxElement {
        AxElement {
            role: role.into(),
            enabled: Some(true),
            ..AxElement::default()
        }
    }

    #[test]
    fn check_marks_and_toggles() {
        let mut c = el("AXCheckBox");
        c.value = Some(AxValue::Number(1.0));
        assert_eq!(map_states(&c, Role::Checkbox, false), [State::Checked]);
        c.value = Some(AxValue::Number(2.0));
        assert_eq!(map_states(&c, Role::Checkbox, false), [State::Mixed]);
        let mut t = el("AXButton");
        t.subrole = Some("AXToggle".into());
        t.value = Some(AxValue::Number(1.0));
        assert_eq!(map_states(&t, Role::Button, false), [State::Pressed]);
        let mut tab = el("AXRadioButton");
        tab.value = Some(AxValue::Number(1.0));
        assert_eq!(map_states(&tab, Role::Tab, false), [State::Selected]);
    }

    #[test]
    fn expanded_only_where_it_means_something() {
        // Chromium's AXExpanded=false on a plain group says nothing.
        let mut g = el("AXGroup");
        g.expanded = Some(false);
        assert!(map_states(&g, Role::Generic, false).is_empty());
        let mut p = el("AXPopUpButton");
        p.expanded = Some(false);
        assert_eq!(map_states(&p, Role::Combobox, false), [State::Collapsed]);
        let mut row = el("AXRow");
        row.disclosing = Some(true);
        assert_eq!(map_states(&row, Role::TreeItem, false), [State::Expanded]);
        let leaf = el("AXRow");
        assert!(map_states(&leaf, Role::TreeItem, false).is_empty());
    }

    #[test]
    fn text_fields_editable_or_read_only() {
        let mut f = el("AXTextField");
        f.focused = Some(true);
        f.required = Some(true);
        assert_eq!(
            map_states(&f, Role::TextBox, false),
            [State::Editable, State::Focused, State::Required]
        );
        f.value_settable = Some(false);
        assert_eq!(
            map_states(&f, Role::TextBox, true),
            [
                State::Focused,
                State::Offscreen,
                State::ReadOnly,
                State::Required
            ]
        );
        // A pop-up button is a combobox that takes no text.
        assert!(map_states(&el("AXPopUpButton"), Role::Combobox, false).is_empty());
        let mut off = el("AXButton");
        off.enabled = Some(false);
        assert_eq!(map_states(&off, Role::Button, false), [State::Disabled]);
    }
}
