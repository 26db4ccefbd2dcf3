//! AT-SPI state set → CUP states.

use cup_protocol::{Rect, Role, State};

use super::{kinds, MapContext};
use crate::facts::{AtspiRole, AtspiState, RawNode};

/// `true` when `bounds` overlaps none of the monitors (touching edges do not
/// overlap). Without monitors nothing is offscreen by position.
pub fn outside_monitors(bounds: &Rect, monitors: &[Rect]) -> bool {
    !monitors.is_empty() && monitors.iter().all(|m| bounds.intersect(m).is_empty())
}

/// Roles of an item in a container: never themselves multi-selectable.
fn is_item(role: Role) -> bool {
    matches!(
        role,
        Role::Cell
            | Role::ColumnHeader
            | Role::RowHeader
            | Role::Option
            | Role::ListItem
            | Role::TreeItem
            | Role::MenuItem
            | Role::MenuItemCheckbox
            | Role::MenuItemRadio
            | Role::Tab
    )
}

/// CUP states of a node, without duplicates, in this order:
///
/// 1. `disabled`: neither SENSITIVE nor ENABLED (GTK3 clears ENABLED on
///    operable mixed toggles, LibreOffice leaves SENSITIVE off its
///    cells), only for nodes a user
///    operates (an interactive role, FOCUSABLE, EDITABLE or with actions);
///    GTK 4 never sets ENABLED, so there only SENSITIVE counts, and before
///    GTK 4.10 not even that (it is set only on widgets once made
///    insensitive and sensitive again), so GTK 4.0–4.9 nodes are never
///    `disabled`;
/// 2. `focused`: FOCUSED;
/// 3. `checked`: CHECKED on checkable roles (checkbox, radio, switch, menu
///    item checkbox/radio; a switch also takes PRESSED);
/// 4. `pressed`: PRESSED or CHECKED on a `button` (a toggle button);
/// 5. `mixed`: INDETERMINATE on checkable roles and toggle buttons only
///    (GTK sets it on pulsing progress bars);
/// 6. `expanded`: EXPANDED; 7. `collapsed`: COLLAPSED, or EXPANDABLE and not
///    EXPANDED;
/// 8. `selected`, 9. `required`, 10. `modal`: the AT-SPI state of that name;
/// 11. `readonly`: READ_ONLY, or a text box that is not EDITABLE (not a
///     terminal), only on roles that allow `aria-readonly`;
/// 12. `editable`: EDITABLE and not READ_ONLY on text inputs, spin buttons
///     and documents;
/// 13. `busy`, 14. `multiselectable`: the AT-SPI state;
/// 15. `offscreen`: not SHOWING while VISIBLE (or while it has bounds; not
///     a GTK 2 menu item with bounds, GTK 2 saying SHOWING of none), or
///     bounds outside every monitor of `ctx` (GTK 4 never reports SHOWING:
///     there the bounds test applies, and a widget GTK 4 did not allocate —
///     empty or unplaced extents, e.g. a list row scrolled out of view — is
///     offscreen);
/// 16. `hidden`: neither VISIBLE nor SHOWING and no bounds (not rendered at
///     all; excludes `offscreen`).
///
/// An empty state set means the states could not be read: no state is
/// inferred from an absent flag then, only the bounds test applies.
pub fn map_states(raw: &RawNode, role: Role, bounds: Option<Rect>, ctx: &MapContext) -> Vec<State> {
    let s = raw.states;
    let has = |st: AtspiState| s.contains(st);
    let known = !s.is_empty();
    let mut out = Vec::new();
    let mut push = |st: State, cond: bool| {
        if cond && !out.contains(&st) {
            out.push(st);
        }
    };

    let operable = kinds::is_interactive(role)
        || has(AtspiState::Focusable)
        || has(AtspiState::Editable)
        || !raw.action_names.is_empty();
    let gtk4 = raw.gtk4_minor();
    let disabled = match gtk4 {
        // GTK 4 never sets ENABLED; before 4.10 an absent SENSITIVE only
        // means "never made insensitive" as often as "disabled".
        Some(minor) if minor < 10 => false,
        Some(_) => !has(AtspiState::Sensitive),
        // GTK3 drops ENABLED from inconsistent (mixed) toggles that are
        // perfectly operable, and LibreOffice sets ENABLED without
        // SENSITIVE on its sheets, cells and documents: disabled only when
        // neither is set (every toolkit clears both on a disabled widget).
        None => !has(AtspiState::Sensitive) && !has(AtspiState::Enabled),
    };
    push(State::Disabled, known && operable && disabled);
    push(State::Focused, has(AtspiState::Focused));
    let checked = has(AtspiState::Checked) || (role == Role::Switch && has(AtspiState::Pressed));
    // GTK's toggle renderer: a table cell that is a check box (its
    // `toggle` action says so).
    let check_cell = role == Role::Cell
        && raw
            .action_names
            .iter()
            .any(|a| a.eq_ignore_ascii_case("toggle"));
    push(
        State::Checked,
        (kinds::is_checkable(role) || check_cell) && checked,
    );
    push(
        State::Pressed,
        role == Role::Button && (has(AtspiState::Pressed) || has(AtspiState::Checked)),
    );
    let toggle_button = role == Role::Button && raw.role == AtspiRole::ToggleButton;
    // GTK3 keeps CHECKED on an inconsistent toggle whose value underneath
    // is on (clicking it flips that value while it stays inconsistent), so
    // both are reported: `{chk,mix}` and `{mix}` are different states.
    push(
        State::Mixed,
        (kinds::is_checkable(role) || toggle_button) && has(AtspiState::Indeterminate),
    );
    let expanded = has(AtspiState::Expanded);
    push(State::Expanded, expanded);
    push(
        State::Collapsed,
        !expanded && (has(AtspiState::Collapsed) || has(AtspiState::Expandable)),
    );
    push(State::Selected, has(AtspiState::Selected));
    push(State::Required, has(AtspiState::Required));
    push(State::Modal, has(AtspiState::Modal));
    let read_only = has(AtspiState::ReadOnly)
        || (known
            && matches!(role, Role::TextBox | Role::SearchBox)
            && raw.role != AtspiRole::Terminal
            && !has(AtspiState::Editable));
    push(State::ReadOnly, read_only && role.allows_readonly());
    push(
        State::Editable,
        kinds::reports_editable(role) && has(AtspiState::Editable) && !has(AtspiState::ReadOnly),
    );
    push(State::Busy, has(AtspiState::Busy));
    // Only a container of items can be multi-selectable (LibreOffice sets
    // the state on every cell of a sheet, too).
    push(
        State::MultiSelectable,
        has(AtspiState::Multiselectable) && !is_item(role),
    );

    let hidden =
        known && !has(AtspiState::Visible) && !has(AtspiState::Showing) && bounds.is_none();
    // GTK 4 never reports SHOWING: only the position tells. Neither does
    // GTK 2 of a menu's items, open or closed: one with a place is in an
    // open menu (a closed menu's items have none).
    let gtk2_menu_placed = bounds.is_some()
        && crate::facts::is_gtk2(&raw.toolkit, &raw.toolkit_version)
        && super::needs::is_menu_part(raw.role);
    let not_showing = known
        && gtk4.is_none()
        && !gtk2_menu_placed
        && !has(AtspiState::Showing)
        && (has(AtspiState::Visible) || bounds.is_some());
    let outside = bounds.is_some_and(|b| outside_monitors(&b, &ctx.monitors));
    // ... and a widget it did not allocate is its "not showing".
    let unallocated = gtk4.is_some() && raw.extents.is_some_and(|e| e.is_unallocated());
    push(
        State::Offscreen,
        !hidden && (not_showing || outside || unallocated),
    );
    push(State::Hidden, hidden);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::StateSet;

    fn set(states: &[AtspiState]) -> StateSet {
        let mut s = StateSet::empty();
        for st in states {
            s.insert(*st);
        }
        s
    }

    const SHOWN: [AtspiState; 4] = [
        AtspiState::Enabled,
        AtspiState::Sensitive,
        AtspiState::Visible,
        AtspiState::Showing,
    ];

    fn node(role: AtspiRole, extra: &[AtspiState]) -> RawNode {
        let mut raw = RawNode::new(role);
        raw.states = set(&SHOWN);
        for st in extra {
            raw.states.insert(*st);
        }
        raw
    }

    fn states(raw: &RawNode, role: Role) -> Vec<State> {
        map_states(raw, role, None, &MapContext::default())
    }

    #[test]
    fn plain_shown_node_has_no_states() {
        assert!(states(&node(AtspiRole::Button, &[]), Role::Button).is_empty());
    }

    #[test]
    fn disabled_only_for_operable_nodes() {
        let mut label = RawNode::new(AtspiRole::Label);
        label.states = set(&[AtspiState::Visible, AtspiState::Showing]);
        assert!(states(&label, Role::Text).is_empty());
        let mut button = label.clone();
        button.role = AtspiRole::Button;
        assert_eq!(states(&button, Role::Button), vec![State::Disabled]);
        let mut panel = label.clone();
        panel.role = AtspiRole::Panel;
        panel.states.insert(AtspiState::Focusable);
        assert_eq!(states(&panel, Role::Group), vec![State::Disabled]);
    }

    #[test]
    fn enabled_without_sensitive_is_not_disabled() {
        // LibreOffice Calc's cells and sheet: ENABLED, no SENSITIVE.
        let mut cell = RawNode::new(AtspiRole::TableCell);
        cell.states = set(&[
            AtspiState::Enabled,
            AtspiState::Focusable,
            AtspiState::Editable,
            AtspiState::Showing,
        ]);
        assert!(states(&cell, Role::Cell).is_empty());
        // GTK 3's mixed check box: SENSITIVE, no ENABLED.
        let mut mixed = cell.clone();
        mixed.role = AtspiRole::CheckBox;
        mixed.states = set(&[AtspiState::Sensitive, AtspiState::Showing]);
        assert!(!states(&mixed, Role::Checkbox).contains(&State::Disabled));
        // Neither: disabled.
        mixed.states = set(&[AtspiState::Showing, AtspiState::Focusable]);
        assert!(states(&mixed, Role::Checkbox).contains(&State::Disabled));
    }

    #[test]
    fn unread_states_infer_nothing() {
        let raw = RawNode::new(AtspiRole::Entry);
        assert!(states(&raw, Role::TextBox).is_empty());
    }

    #[test]
    fn toggle_button_checked_is_pressed_and_switch_pressed_is_checked() {
        let mut cell = node(AtspiRole::TableCell, &[AtspiState::Checked]);
        assert_eq!(states(&cell, Role::Cell), Vec::<State>::new());
        cell.action_names = vec!["toggle".into()];
        assert_eq!(states(&cell, Role::Cell), vec![State::Checked]);
        let raw = node(AtspiRole::ToggleButton, &[AtspiState::Checked]);
        assert_eq!(states(&raw, Role::Button), vec![State::Pressed]);
        let raw = node(AtspiRole::ToggleButton, &[AtspiState::Pressed]);
        assert_eq!(states(&raw, Role::Switch), vec![State::Checked]);
    }

    #[test]
    fn indeterminate_is_mixed_only_on_checkables() {
        let raw = node(AtspiRole::ProgressBar, &[AtspiState::Indeterminate]);
        assert!(states(&raw, Role::ProgressBar).is_empty());
        let raw = node(AtspiRole::CheckBox, &[AtspiState::Indeterminate]);
        assert_eq!(states(&raw, Role::Checkbox), vec![State::Mixed]);
    }

    #[test]
    fn expandable_without_expanded_is_collapsed() {
        let raw = node(AtspiRole::ComboBox, &[AtspiState::Expandable]);
        assert_eq!(states(&raw, Role::Combobox), vec![State::Collapsed]);
        let raw = node(
            AtspiRole::TreeItem,
            &[AtspiState::Expandable, AtspiState::Expanded],
        );
        assert_eq!(states(&raw, Role::TreeItem), vec![State::Expanded]);
    }

    #[test]
    fn readonly_and_editable() {
        let raw = node(AtspiRole::Entry, &[]);
        assert_eq!(states(&raw, Role::TextBox), vec![State::ReadOnly]);
        let raw = node(AtspiRole::Entry, &[AtspiState::Editable]);
        assert_eq!(states(&raw, Role::TextBox), vec![State::Editable]);
        let raw = node(
            AtspiRole::Entry,
            &[AtspiState::Editable, AtspiState::ReadOnly],
        );
        assert_eq!(states(&raw, Role::TextBox), vec![State::ReadOnly]);
        let raw = node(AtspiRole::Terminal, &[]);
        assert!(states(&raw, Role::TextBox).is_empty());
        // Gecko marks non-editable documents read-only: not reported.
        let raw = node(AtspiRole::DocumentWeb, &[AtspiState::ReadOnly]);
        assert!(states(&raw, Role::Document).is_empty());
        // Web engines mark everything inside an editable region EDITABLE.
        let raw = node(AtspiRole::Paragraph, &[AtspiState::Editable]);
        assert!(states(&raw, Role::Text).is_empty());
    }

    #[test]
    fn offscreen_and_hidden() {
        let mut raw = RawNode::new(AtspiRole::Button);
        raw.states = set(&[
            AtspiState::Enabled,
            AtspiState::Sensitive,
            AtspiState::Visible,
        ]);
        assert_eq!(states(&raw, Role::Button), vec![State::Offscreen]);
        raw.states.remove(AtspiState::Visible);
        assert_eq!(states(&raw, Role::Button), vec![State::Hidden]);
        let b = Some(Rect::new(10, 10, 5, 5));
        let ctx = MapContext::default();
        assert_eq!(
            map_states(&raw, Role::Button, b, &ctx),
            vec![State::Offscreen]
        );
    }

    #[test]
    fn an_open_gtk2_menus_items_are_on_screen() {
        // GIMP's open File menu: VISIBLE, never SHOWING, placed.
        let mut raw = RawNode::new(AtspiRole::MenuItem);
        raw.states = set(&[
            AtspiState::Enabled,
            AtspiState::Sensitive,
            AtspiState::Visible,
        ]);
        raw.toolkit = "GAIL".into();
        raw.toolkit_version = "2.24.33".into();
        let ctx = MapContext::default();
        let placed = Some(Rect::new(203, 130, 314, 25));
        assert!(map_states(&raw, Role::MenuItem, placed, &ctx).is_empty());
        // A closed one's items have no place.
        assert_eq!(
            map_states(&raw, Role::MenuItem, None, &ctx),
            vec![State::Offscreen]
        );
        // GTK 3 says SHOWING: without it, offscreen.
        raw.toolkit = "GTK".into();
        raw.toolkit_version = "3.24.38".into();
        assert_eq!(
            map_states(&raw, Role::MenuItem, placed, &ctx),
            vec![State::Offscreen]
        );
    }

    #[test]
    fn bounds_outside_every_monitor_are_offscreen() {
        let raw = node(AtspiRole::Button, &[]);
        let ctx = MapContext {
            monitors: vec![Rect::new(0, 0, 1920, 1080), Rect::new(1920, 0, 1280, 1024)],
        };
        let on_second = Some(Rect::new(2000, 500, 50, 20));
        assert!(map_states(&raw, Role::Button, on_second, &ctx).is_empty());
        let below_second = Some(Rect::new(2000, 1030, 50, 20));
        assert_eq!(
            map_states(&raw, Role::Button, below_second, &ctx),
            vec![State::Offscreen]
        );
        let left = Some(Rect::new(-100, 0, 100, 20));
        assert_eq!(
            map_states(&raw, Role::Button, left, &ctx),
            vec![State::Offscreen]
        );
        let no_monitors = MapContext::default();
        assert!(map_states(&raw, Role::Button, left, &no_monitors).is_empty());
    }

    #[test]
    fn order_follows_the_list() {
        let raw = node(
            AtspiRole::CheckBox,
            &[
                AtspiState::Multiselectable,
                AtspiState::Busy,
                AtspiState::Required,
                AtspiState::Checked,
                AtspiState::Focused,
            ],
        );
        assert_eq!(
            states(&raw, Role::Checkbox),
            vec![
                State::Focused,
                State::Checked,
                State::Required,
                State::Busy,
                State::MultiSelectable
            ]
        );
    }
}
