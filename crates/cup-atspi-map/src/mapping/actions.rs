//! AT-SPI actions and interfaces → CUP action verbs. Only CUP verbs come
//! out; raw names stay in `platform.linux.actions`.

use std::collections::BTreeSet;

use cup_protocol::{Action, Role};

use super::kinds;
use crate::facts::{AtspiRole, AtspiState, Interface, RawNode};

/// The CUP verbs one raw AT-SPI action name stands for (case, spaces,
/// dashes and underscores ignored): `click`/`press`/`activate`/`jump`/
/// `open`/`doDefault` → click; `toggle`/`check`/`uncheck`/`cycle` → toggle;
/// `expand or contract`/`expand`/`collapse` → expand + collapse;
/// `menu`/`showMenu`/`popup`/`contextMenu` → rightclick;
/// `increase`/`increment` → increment; `decrease`/`decrement` → decrement;
/// `setFocus`/`focus` → focus; `close`/`dismiss`/`cancel` → dismiss;
/// `select`/`switch` (Gecko's page tabs) → select; `scroll…` → scroll; `doubleClick` → doubleclick.
/// Anything else (`edit`, `peek`, Chromium's `clickAncestor`, whose click
/// belongs to an ancestor) stands for nothing.
pub fn raw_action_verbs(name: &str) -> &'static [Action] {
    let key: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match key.as_str() {
        "click" | "press" | "activate" | "jump" | "open" | "dodefault" | "default" => {
            &[Action::Click]
        }
        // Gecko: "cycle" for a tri-state check box.
        "toggle" | "check" | "uncheck" | "cycle" => &[Action::Toggle],
        "expandorcontract" | "expandorcollapse" | "expandcollapse" | "expand" | "collapse" => {
            &[Action::Expand, Action::Collapse]
        }
        "menu" | "showmenu" | "popup" | "popupmenu" | "contextmenu" | "showcontextmenu" => {
            &[Action::RightClick]
        }
        "increase" | "increment" => &[Action::Increment],
        "decrease" | "decrement" => &[Action::Decrement],
        "setfocus" | "focus" | "grabfocus" => &[Action::Focus],
        "close" | "dismiss" | "cancel" => &[Action::Dismiss],
        // Gecko: a page tab's "switch".
        "select" | "switch" => &[Action::Select],
        "doubleclick" => &[Action::DoubleClick],
        k if k.starts_with("scroll") => &[Action::Scroll],
        _ => &[],
    }
}

/// The CUP verbs a raw action stands for on a node of `role`: as
/// [`raw_action_verbs`], except that Qt's `ShowMenu` on a menu item or
/// menu (a menu bar's "Media", a submenu's entry) opens its drop-down,
/// which is what a click on it does: `click`, not `rightclick`. (On any
/// other widget Qt's `ShowMenu` is its context menu.)
pub fn role_action_verbs(name: &str, role: Role) -> &'static [Action] {
    let verbs = raw_action_verbs(name);
    let opens_submenu = matches!(role, Role::MenuItem | Role::Menu)
        && name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .eq("showmenu".chars());
    if opens_submenu {
        &[Action::Click]
    } else {
        verbs
    }
}

/// Index of the first raw action that stands for `verb` on a node of
/// `role` (for the action layer's `DoAction`), if any.
pub fn raw_action_index(action_names: &[String], verb: Action, role: Role) -> Option<usize> {
    action_names
        .iter()
        .position(|n| role_action_verbs(n, role).contains(&verb))
}

/// Roles that a parent's Selection does not make selectable: menus (GTK
/// menus implement Selection, yet their items are activated, not selected)
/// and decorations.
fn selectable_in_parent(role: Role) -> bool {
    !matches!(
        role,
        Role::Menu
            | Role::MenuBar
            | Role::MenuItem
            | Role::MenuItemCheckbox
            | Role::MenuItemRadio
            | Role::Separator
            | Role::ScrollBar
    )
}

/// CUP actions of a node, without duplicates, in `Action::ALL` order:
///
/// - the verbs of its raw actions ([`raw_action_verbs`]);
/// - checkbox, switch, menu item checkbox and toggle button with click or
///   toggle → both `click` and `toggle`; radio and menu item radio with
///   click, toggle or select → `click` and `select`;
/// - text inputs and documents that are EDITABLE and not READ_ONLY (when
///   the states are unread: that implement EditableText) → `type` +
///   `setvalue`; a terminal → `type` (keyboard input);
/// - slider, spin button and scroll bar with a Value, not READ_ONLY →
///   `increment` + `decrement` + `setvalue` (a progress bar is read-only);
/// - EXPANDABLE → `expand` + `collapse`;
/// - SELECTABLE, or a parent implementing Selection (not for menu items)
///   → `select`;
/// - scroll panes and documents → `scroll`;
/// - in web content (Chromium, Gecko, WebKit): raw click verbs only on
///   interactive roles or FOCUSABLE nodes, no `rightclick` from the
///   context-menu action every node has, and `select` only with SELECTABLE;
/// - nothing else but FOCUSABLE → `focus`.
///
/// Disabled nodes keep their actions: the agent learns the control exists
/// and the state says it is disabled.
pub fn map_actions(raw: &RawNode, role: Role) -> Vec<Action> {
    let has = |st: AtspiState| raw.states.contains(st);
    let web = super::is_web_toolkit(&raw.toolkit);
    let mut out: BTreeSet<Action> = raw
        .action_names
        .iter()
        .flat_map(|n| role_action_verbs(n, role).iter().copied())
        .collect();
    if web {
        // Chromium offers "press" and "showContextMenu" on every node, text
        // and containers included: a click counts only on controls and
        // focusable nodes, and the context menu is never news.
        out.remove(&Action::RightClick);
        if !(kinds::is_interactive(role) || has(AtspiState::Focusable)) {
            out.remove(&Action::Click);
        }
    }

    let toggle_button = role == Role::Button && raw.role == AtspiRole::ToggleButton;
    let toggles =
        matches!(role, Role::Checkbox | Role::Switch | Role::MenuItemCheckbox) || toggle_button;
    if toggles && (out.contains(&Action::Click) || out.contains(&Action::Toggle)) {
        out.extend([Action::Click, Action::Toggle]);
    }
    if matches!(role, Role::Radio | Role::MenuItemRadio)
        && [Action::Click, Action::Toggle, Action::Select]
            .iter()
            .any(|a| out.contains(a))
    {
        out.remove(&Action::Toggle);
        out.extend([Action::Click, Action::Select]);
    }

    let read_only = has(AtspiState::ReadOnly);
    let editable = if raw.states.is_empty() {
        raw.interfaces.contains(Interface::EditableText)
    } else {
        has(AtspiState::Editable)
    };
    if (kinds::is_text_input(role) || role == Role::Document) && editable && !read_only {
        out.extend([Action::Type, Action::SetValue]);
    }
    if raw.role == AtspiRole::Terminal && !read_only {
        out.insert(Action::Type);
    }
    let has_value = raw.value.is_some() || raw.interfaces.contains(Interface::Value);
    if matches!(role, Role::Slider | Role::SpinButton | Role::ScrollBar) && has_value && !read_only
    {
        out.extend([Action::Increment, Action::Decrement, Action::SetValue]);
    }
    if has(AtspiState::Expandable) {
        out.extend([Action::Expand, Action::Collapse]);
    }
    // Chromium implements Selection on nearly every container; there only
    // the SELECTABLE state counts.
    let selectable_by_parent = raw.parent_selectable && selectable_in_parent(role) && !web;
    if has(AtspiState::Selectable) || selectable_by_parent {
        out.insert(Action::Select);
    }
    // A drop-down chooses an option by its name (select with a value).
    if role == Role::Combobox {
        out.insert(Action::Select);
    }
    // A separator is never chosen nor clicked (LibreOffice marks its
    // menus' separators SELECTABLE and gives its toolbars' separators,
    // 0x0 and disabled, a "press" action); a splitter keeps its value.
    if role == Role::Separator {
        out.remove(&Action::Select);
        out.remove(&Action::Click);
    }
    if raw.role == AtspiRole::ScrollPane || role == Role::Document {
        out.insert(Action::Scroll);
    }
    if out.is_empty() && has(AtspiState::Focusable) {
        out.insert(Action::Focus);
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::RawValue;

    fn with_actions(role: AtspiRole, names: &[&str]) -> RawNode {
        let mut raw = RawNode::new(role);
        raw.action_names = names.iter().map(|n| (*n).to_owned()).collect();
        raw
    }

    #[test]
    fn a_separator_is_not_selected() {
        let mut sep = with_actions(AtspiRole::Separator, &["press"]);
        sep.states = crate::facts::StateSet::new(AtspiState::Selectable | AtspiState::Showing);
        assert!(map_actions(&sep, Role::Separator).is_empty());
    }

    #[test]
    fn web_content_keeps_click_for_controls_only() {
        let mut text = with_actions(AtspiRole::Paragraph, &["press", "showContextMenu"]);
        text.toolkit = "Chromium".into();
        text.parent_selectable = true;
        assert!(map_actions(&text, Role::Text).is_empty());
        let mut button = with_actions(AtspiRole::Button, &["press", "showContextMenu"]);
        button.toolkit = "Chromium".into();
        assert_eq!(map_actions(&button, Role::Button), vec![Action::Click]);
        let mut gtk = with_actions(AtspiRole::Label, &["click"]);
        gtk.toolkit = "GTK".into();
        assert_eq!(map_actions(&gtk, Role::Text), vec![Action::Click]);
    }

    #[test]
    fn raw_names_normalise() {
        assert_eq!(raw_action_verbs("Press"), &[Action::Click]);
        assert_eq!(raw_action_verbs("SetFocus"), &[Action::Focus]);
        assert_eq!(raw_action_verbs("ShowMenu"), &[Action::RightClick]);
        assert_eq!(raw_action_verbs("show menu"), &[Action::RightClick]);
        assert_eq!(raw_action_verbs("Increase"), &[Action::Increment]);
        assert_eq!(raw_action_verbs("Decrease"), &[Action::Decrement]);
        assert_eq!(
            raw_action_verbs("expand or contract"),
            &[Action::Expand, Action::Collapse]
        );
        assert_eq!(raw_action_verbs("double-click"), &[Action::DoubleClick]);
        assert_eq!(raw_action_verbs("ScrollLeft"), &[Action::Scroll]);
        assert_eq!(raw_action_verbs("uncheck"), &[Action::Toggle]);
        // Gecko's names.
        assert_eq!(raw_action_verbs("cycle"), &[Action::Toggle]);
        assert_eq!(raw_action_verbs("switch"), &[Action::Select]);
        assert_eq!(raw_action_verbs("jump"), &[Action::Click]);
        assert!(raw_action_verbs("click ancestor").is_empty());
        assert!(raw_action_verbs("edit").is_empty());
        assert!(raw_action_verbs("clickAncestor").is_empty());
        assert!(raw_action_verbs("").is_empty());
    }

    #[test]
    fn raw_index_finds_the_first_match() {
        let names = vec!["SetFocus".to_owned(), "Press".to_owned()];
        assert_eq!(
            raw_action_index(&names, Action::Click, Role::Button),
            Some(1)
        );
        assert_eq!(raw_action_index(&names, Action::Toggle, Role::Button), None);
    }

    #[test]
    fn output_is_canonical_and_unique() {
        let raw = with_actions(
            AtspiRole::Button,
            &["press", "click", "activate", "SetFocus"],
        );
        assert_eq!(
            map_actions(&raw, Role::Button),
            vec![Action::Click, Action::Focus]
        );
    }

    #[test]
    fn checkables_toggle_and_radios_select() {
        let raw = with_actions(AtspiRole::CheckBox, &["click"]);
        assert_eq!(
            map_actions(&raw, Role::Checkbox),
            vec![Action::Click, Action::Toggle]
        );
        let raw = with_actions(AtspiRole::CheckBox, &["Toggle"]);
        assert_eq!(
            map_actions(&raw, Role::Checkbox),
            vec![Action::Click, Action::Toggle]
        );
        let raw = with_actions(AtspiRole::RadioButton, &["Toggle"]);
        assert_eq!(
            map_actions(&raw, Role::Radio),
            vec![Action::Click, Action::Select]
        );
        let raw = with_actions(AtspiRole::Button, &["click"]);
        assert_eq!(map_actions(&raw, Role::Button), vec![Action::Click]);
    }

    #[test]
    fn editable_text_types() {
        let mut raw = RawNode::new(AtspiRole::Entry);
        raw.interfaces.insert(Interface::EditableText);
        // States unread: the interface decides.
        assert_eq!(
            map_actions(&raw, Role::TextBox),
            vec![Action::SetValue, Action::Type]
        );
        // States read, not EDITABLE (a GTK read-only entry keeps the
        // interface): no typing.
        raw.states.insert(AtspiState::Focusable);
        assert_eq!(map_actions(&raw, Role::TextBox), vec![Action::Focus]);
        raw.states.insert(AtspiState::Editable);
        assert_eq!(
            map_actions(&raw, Role::TextBox),
            vec![Action::SetValue, Action::Type]
        );
        raw.states.insert(AtspiState::ReadOnly);
        assert_eq!(map_actions(&raw, Role::TextBox), vec![Action::Focus]);
    }

    #[test]
    fn ranges_step_unless_read_only() {
        let mut raw = RawNode::new(AtspiRole::Slider);
        raw.value = Some(RawValue::default());
        assert_eq!(
            map_actions(&raw, Role::Slider),
            vec![Action::Decrement, Action::Increment, Action::SetValue]
        );
        raw.states.insert(AtspiState::ReadOnly);
        assert!(map_actions(&raw, Role::Slider).is_empty());
        let mut bar = RawNode::new(AtspiRole::ProgressBar);
        bar.value = Some(RawValue::default());
        assert!(map_actions(&bar, Role::ProgressBar).is_empty());
    }

    #[test]
    fn menu_items_are_not_selectable_through_the_menu() {
        let mut raw = with_actions(AtspiRole::MenuItem, &["click"]);
        raw.parent_selectable = true;
        assert_eq!(map_actions(&raw, Role::MenuItem), vec![Action::Click]);
        let mut tab = RawNode::new(AtspiRole::PageTab);
        tab.parent_selectable = true;
        assert_eq!(map_actions(&tab, Role::Tab), vec![Action::Select]);
    }

    #[test]
    fn scroll_containers_and_focus_fallback() {
        let raw = RawNode::new(AtspiRole::ScrollPane);
        assert_eq!(map_actions(&raw, Role::Group), vec![Action::Scroll]);
        let raw = RawNode::new(AtspiRole::DocumentWeb);
        assert_eq!(map_actions(&raw, Role::Document), vec![Action::Scroll]);
        let raw = RawNode::new(AtspiRole::Viewport);
        assert!(map_actions(&raw, Role::Generic).is_empty());
        let mut raw = RawNode::new(AtspiRole::Panel);
        raw.states.insert(AtspiState::Focusable);
        assert_eq!(map_actions(&raw, Role::Group), vec![Action::Focus]);
    }

    #[test]
    fn terminal_takes_keyboard_input() {
        let mut raw = RawNode::new(AtspiRole::Terminal);
        raw.states.insert(AtspiState::Focusable);
        assert_eq!(map_actions(&raw, Role::TextBox), vec![Action::Type]);
    }
}
