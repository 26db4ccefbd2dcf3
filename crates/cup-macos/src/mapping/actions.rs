//! CUP actions an element offers, from its AX action names and its role.
//! `AXShowMenu` and `AXScrollToVisible` are on nearly every element and
//! say nothing; `rightclick` and `doubleclick` work on any placed element
//! (CGEvents at its centre) but are advertised only where they are the
//! usual way in (rows and cells: double click opens).

use cup_protocol::{Action, Role, State};

use crate::facts::AxElement;
use crate::mapping::states::{expandable_role, text_role};

/// Roles a pointer click at the centre activates when the element names
/// no action (web content, custom views).
pub fn clickable(role: Role) -> bool {
    role.activated_by_click()
}

/// Roles that read their actions (the rest are passive: the capture skips
/// `AXUIElementCopyActionNames` for them).
pub fn reads_actions(ax_role: &str) -> bool {
    !matches!(
        ax_role,
        "AXStaticText"
            | "AXImage"
            | "AXGroup"
            | "AXScrollArea"
            | "AXSplitGroup"
            | "AXLayoutArea"
            | "AXLayoutItem"
            | "AXUnknown"
            | "AXHeading"
            | "AXList"
            | "AXOutline"
            | "AXTable"
            | "AXColumn"
            | "AXToolbar"
            | "AXTabGroup"
            | "AXRadioGroup"
            | "AXWebArea"
            | "AXApplication"
            | "AXValueIndicator"
            | "AXMatte"
            | "AXRuler"
            | "AXHelpTag"
            | "AXProgressIndicator"
            | "AXBusyIndicator"
    )
}

/// The actions of `el` mapped to `role` with `states`, in `Action::ALL`
/// order, unique.
pub fn map_actions(el: &AxElement, role: Role, states: &[State]) -> Vec<Action> {
    let has = |s: State| states.contains(&s);
    if has(State::Disabled) {
        return Vec::new();
    }
    let ax = |name: &str| el.actions.iter().any(|a| a == name);
    let placed = el.frame.is_some_and(|f| !f.is_empty()) && !has(State::Offscreen);
    let mut out = Vec::new();
    if ax("AXPress") || ax("AXConfirm") || ax("AXPick") || (placed && clickable(role)) {
        out.push(Action::Click);
    }
    let expandable = expandable_role(&el.role) && (has(State::Expanded) || has(State::Collapsed));
    if expandable {
        out.push(Action::Collapse);
    }
    let settable = el.value_settable == Some(true);
    let ranged = matches!(role, Role::Slider | Role::SpinButton);
    if ax("AXDecrement") || (ranged && settable) {
        out.push(Action::Decrement);
    }
    // Menus list AXCancel on every item; it dismisses the menu, not them.
    if matches!(role, Role::Dialog | Role::AlertDialog)
        || (ax("AXCancel")
            && matches!(
                role,
                Role::Menu | Role::Combobox | Role::Window | Role::Tooltip
            ))
    {
        out.push(Action::Dismiss);
    }
    if placed && matches!(role, Role::Row | Role::Cell | Role::TreeItem) {
        out.push(Action::DoubleClick);
    }
    if expandable {
        out.push(Action::Expand);
    }
    if ax("AXRaise") || text_role(role) && has(State::Editable) {
        out.push(Action::Focus);
    }
    if ax("AXIncrement") || (ranged && settable) {
        out.push(Action::Increment);
    }
    if el.role == "AXScrollArea" {
        out.push(Action::Scroll);
    }
    if matches!(
        role,
        Role::Tab | Role::Option | Role::ListItem | Role::Row | Role::TreeItem | Role::Cell
    ) {
        out.push(Action::Select);
    }
    if (text_role(role) && has(State::Editable)) || (ranged && settable) {
        out.push(Action::SetValue);
    }
    if matches!(role, Role::Checkbox | Role::Switch | Role::MenuItemCheckbox)
        || (role == Role::Button && el.subrole.as_deref() == Some("AXToggle"))
    {
        out.push(Action::Toggle);
    }
    if text_role(role) && has(State::Editable) {
        out.push(Action::Type);
    }
    out.sort_by_key(|a| Action::ALL.iter().position(|b| b == a));
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::PointRect;

    fn el(role: &str, actions: &[&str]) -> AxElement {
        AxElement {
            role: role.into(),
            enabled: Some(true),
            actions: actions.iter().map(|a| (*a).to_owned()).collect(),
            frame: Some(PointRect {
                x: 10.0,
                y: 10.0,
                w: 50.0,
                h: 20.0,
            }),
            ..AxElement::default()
        }
    }

    #[test]
    fn ax_actions_and_roles() {
        let b = el("AXButton", &["AXPress", "AXShowMenu"]);
        assert_eq!(map_actions(&b, Role::Button, &[]), [Action::Click]);
        let mut s = el("AXSlider", &["AXIncrement", "AXDecrement"]);
        s.value_settable = Some(true);
        assert_eq!(
            map_actions(&s, Role::Slider, &[]),
            [Action::Decrement, Action::Increment, Action::SetValue]
        );
        let f = el("AXTextField", &["AXConfirm"]);
        assert_eq!(
            map_actions(&f, Role::TextBox, &[State::Editable]),
            [Action::Click, Action::Focus, Action::SetValue, Action::Type]
        );
        let c = el("AXCheckBox", &["AXPress"]);
        assert_eq!(
            map_actions(&c, Role::Checkbox, &[]),
            [Action::Click, Action::Toggle]
        );
        let p = el("AXPopUpButton", &["AXPress", "AXShowMenu"]);
        assert_eq!(
            map_actions(&p, Role::Combobox, &[State::Collapsed]),
            [Action::Click, Action::Collapse, Action::Expand]
        );
        let w = el("AXWindow", &["AXRaise"]);
        assert_eq!(map_actions(&w, Role::Window, &[]), [Action::Focus]);
        let item = el("AXMenuItem", &["AXPress", "AXCancel"]);
        assert_eq!(map_actions(&item, Role::MenuItem, &[]), [Action::Click]);
        let menu = el("AXMenu", &["AXCancel"]);
        assert_eq!(map_actions(&menu, Role::Menu, &[]), [Action::Dismiss]);
        let d = el("AXSheet", &[]);
        assert_eq!(map_actions(&d, Role::Dialog, &[]), [Action::Dismiss]);
        let row = el("AXRow", &[]);
        assert_eq!(
            map_actions(&row, Role::Row, &[]),
            [Action::Click, Action::DoubleClick, Action::Select]
        );
        assert!(map_actions(&b, Role::Button, &[State::Disabled]).is_empty());
        assert!(!reads_actions("AXStaticText") && reads_actions("AXButton"));
    }
}
