//! Role families that several mapping rules share, so that states, actions,
//! value and attributes agree on what "a text input" or "a range" is.

use cup_protocol::Role;

/// Roles whose value is typed text (`value` = the Text content).
pub fn is_text_input(role: Role) -> bool {
    matches!(role, Role::TextBox | Role::SearchBox | Role::Combobox)
}

/// Roles whose value is a number of the Value interface.
pub fn is_range(role: Role) -> bool {
    matches!(
        role,
        Role::Slider | Role::SpinButton | Role::ProgressBar | Role::ScrollBar
    )
}

/// Roles a user operates directly; only these (or nodes that are focusable,
/// editable or have actions) are reported `disabled` when insensitive, so
/// plain containers and labels never show `{dis}`.
pub fn is_interactive(role: Role) -> bool {
    matches!(
        role,
        Role::Button
            | Role::Checkbox
            | Role::Radio
            | Role::Switch
            | Role::Link
            | Role::TextBox
            | Role::SearchBox
            | Role::Combobox
            | Role::Slider
            | Role::SpinButton
            | Role::ScrollBar
            | Role::MenuItem
            | Role::MenuItemCheckbox
            | Role::MenuItemRadio
            | Role::Tab
            | Role::Option
            | Role::TreeItem
    )
}

/// Roles with a checked/unchecked state (and `mixed`); the toggle button is
/// handled apart (it is a `button` with `pressed`).
pub fn is_checkable(role: Role) -> bool {
    matches!(
        role,
        Role::Checkbox | Role::Radio | Role::Switch | Role::MenuItemCheckbox | Role::MenuItemRadio
    )
}

/// Roles that report `editable` (when EDITABLE and not READ_ONLY): text
/// inputs, spin buttons and documents. Web engines set EDITABLE on every
/// node inside an editable region, which would be noise elsewhere.
pub fn reports_editable(role: Role) -> bool {
    is_text_input(role) || matches!(role, Role::SpinButton | Role::Document)
}

/// Roles whose accessible name may come from their own text content when
/// the toolkit leaves the name empty (web engines expose inline text only
/// through the Text interface of its container): the name-from-content
/// roles except rows (a row's text is its cells'), plus text, generic
/// containers, list items and live regions.
pub fn names_from_text(role: Role) -> bool {
    (names_from_content(role) && role != Role::Row)
        || matches!(
            role,
            Role::Text
                | Role::Generic
                | Role::ListItem
                | Role::Status
                | Role::Alert
                | Role::Log
                | Role::Marquee
                | Role::Timer
        )
}

/// Roles whose accessible name comes from their content when no name is
/// given: ARIA's "name from content" roles (accname 1.2). A toolkit may
/// leave such an item unnamed and put the label in a child (GTK 4's list
/// rows hold a named expander or label); [`super::text::name_from_content`] names
/// it from its descendants.
pub fn names_from_content(role: Role) -> bool {
    matches!(
        role,
        Role::Button
            | Role::Cell
            | Role::Checkbox
            | Role::ColumnHeader
            | Role::Heading
            | Role::Link
            | Role::MenuItem
            | Role::MenuItemCheckbox
            | Role::MenuItemRadio
            | Role::Option
            | Role::Radio
            | Role::Row
            | Role::RowHeader
            | Role::Switch
            | Role::Tab
            | Role::Tooltip
            | Role::TreeItem
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_inputs_are_not_named_from_their_text() {
        for role in Role::ALL {
            assert!(!(is_text_input(*role) && names_from_text(*role)), "{role}");
        }
    }

    #[test]
    fn range_roles_show_or_hold_a_value() {
        assert!(is_range(Role::ProgressBar));
        assert!(!is_range(Role::TextBox));
        assert!(reports_editable(Role::Document));
        assert!(!reports_editable(Role::Generic));
    }
}
