//! What the capture should spend extra D-Bus calls on, per node: the
//! mapping only reads attributes and text where a rule uses them.

use cup_protocol::Role;

use super::kinds;
use super::role::native_role;
use crate::facts::{AtspiRole, AtspiState, Interface, InterfaceSet, StateSet};

/// `true` when `toolkit` (`Application.ToolkitName`) is a web engine:
/// Chromium (and Electron), Gecko (Firefox, Thunderbird), WebKit.
/// Whether `toolkit` (an app's `ToolkitName`) is Gecko: Firefox,
/// Thunderbird.
pub fn is_gecko(toolkit: &str) -> bool {
    toolkit.eq_ignore_ascii_case("gecko")
}

pub fn is_web_toolkit(toolkit: &str) -> bool {
    let t = toolkit.to_ascii_lowercase();
    ["chrom", "gecko", "webkit", "mozilla", "firefox", "electron"]
        .iter()
        .any(|w| t.contains(w))
}

/// Whether to call `GetAttributes`: always in web content (`xml-roles`,
/// `level`, `posinset`, `id`, … live there), and elsewhere for headings
/// (`level`), text inputs and combo boxes (`placeholder-text`), tree items
/// (`level`), links (`href`) and web documents. GTK 2 and 3 give a combo
/// box no attribute but `toolkit` (the entry of one that has an entry is
/// its child, read on its own). A web page's text run (`Static`, a DOM
/// text node: Chromium's `StaticText`) has none of those: no element of its
/// own to carry an ARIA attribute, an `id` or a `class` (a third of a
/// text-heavy page's reads before).
pub fn needs_attributes(role: AtspiRole, toolkit: &str, version: &str) -> bool {
    if role == AtspiRole::ComboBox && crate::facts::is_gtk_before_4(toolkit, version) {
        return false;
    }
    if role == AtspiRole::Static && is_web_toolkit(toolkit) {
        return false;
    }
    is_web_toolkit(toolkit)
        || matches!(
            role,
            AtspiRole::Heading
                | AtspiRole::Entry
                | AtspiRole::PasswordText
                | AtspiRole::Text
                | AtspiRole::ComboBox
                | AtspiRole::Autocomplete
                | AtspiRole::Editbar
                | AtspiRole::TreeItem
                | AtspiRole::Link
                | AtspiRole::DocumentWeb
                | AtspiRole::DocumentFrame
        )
}

/// Whether a node's bounds serve nothing, so the capture may skip reading
/// them: unnamed structural containers without actions (GTK's fillers and
/// panels, which the compact format hoists away; scroll panes and
/// viewports excepted, their bounds clip their children) and separators
/// without actions.
pub fn bounds_unused(role: AtspiRole, name: &str, interfaces: InterfaceSet) -> bool {
    if matches!(role, AtspiRole::ScrollPane | AtspiRole::Viewport) {
        return false;
    }
    let cup = native_role(role);
    // A separator that acts is a splitter a person drags (GTK's paned
    // handle): its bounds are where to drag.
    (cup == Role::Separator && !interfaces.contains(Interface::Action))
        || (cup == Role::Generic
            && name.trim().is_empty()
            && !interfaces.contains(Interface::Action))
}

/// Whether an item of a menu is in a closed menu: a menu, menu item or
/// separator the toolkit says is not SHOWING (LibreOffice answers its
/// closed menus' items with the extents of the menu bar's button, 0x0,
/// or none at all). Its place means nothing until its menu opens; the
/// compact text folds those items into one line either way. GTK 2 (GAIL,
/// its toolkit name) never says SHOWING of a menu's items, open or not
/// (GIMP's open File menu): there this says nothing.
pub fn in_closed_menu(role: AtspiRole, states: StateSet, toolkit: &str, version: &str) -> bool {
    !crate::facts::is_gtk2(toolkit, version)
        && is_menu_part(role)
        && !states.contains(AtspiState::Showing)
}

/// Whether `role` is that of a menu's part: a menu, one of its items, a
/// separator.
pub fn is_menu_part(role: AtspiRole) -> bool {
    matches!(
        role,
        AtspiRole::Menu
            | AtspiRole::MenuItem
            | AtspiRole::CheckMenuItem
            | AtspiRole::RadioMenuItem
            | AtspiRole::TearoffMenuItem
            | AtspiRole::Separator
    )
}

/// Whether to read the Action interface's names: always, except in web
/// content, where every node offers "press" and "showContextMenu" and
/// [`super::map_actions`] keeps a click only on interactive roles and
/// FOCUSABLE nodes (Chromium also needs one extra call per action there).
pub fn needs_actions(role: AtspiRole, states: StateSet, toolkit: &str) -> bool {
    !is_web_toolkit(toolkit)
        || kinds::is_interactive(native_role(role))
        || states.contains(AtspiState::Focusable)
}

/// Whether a GTK 4 node may be acted on (a control, focusable or
/// expandable): GTK 4 gives every widget the Action interface, so for the
/// rest (boxes, labels, images, panes) the capture treats it as absent
/// when deciding whether bounds matter. Whether `GetActions` is worth its
/// main-loop round trip is [`gtk4_names_actions`].
pub fn gtk4_may_have_actions(role: AtspiRole, states: StateSet) -> bool {
    kinds::is_interactive(native_role(role))
        || states.contains(AtspiState::Focusable)
        || states.contains(AtspiState::Expandable)
}

/// Whether a GTK 4 widget is one its container may leave unallocated
/// while it exists: the rows and cells of list, grid, column and tree views,
/// which only lay out what is in view. The capture waits for such a
/// widget's extents before asking its subtree (an unallocated one passes
/// its empty extents on); any other widget's subtree is asked at once,
/// without the round trip per level.
pub fn gtk4_may_be_unallocated(role: AtspiRole) -> bool {
    matches!(
        role,
        AtspiRole::ListItem | AtspiRole::TableRow | AtspiRole::TableCell | AtspiRole::TreeItem
    )
}

/// Whether a GTK 4 node's `GetActions` can name a CUP verb. GTK 4 gives
/// its own action names ("click", "activate", "toggle", "select",
/// "customize") only to buttons, entries (plain, password, search),
/// expanders, switches and colour swatches; every other widget answers with
/// its widget-class actions ("listitem.expand", "menu.popup",
/// "clipboard.copy", …), which stand for no CUP verb. Those widgets' verbs
/// come from their states and interfaces instead, so the call is skipped:
/// a list of 400 widgets costs 300 main-loop round trips otherwise.
pub fn gtk4_names_actions(role: AtspiRole) -> bool {
    matches!(
        role,
        AtspiRole::Button
            | AtspiRole::ToggleButton
            | AtspiRole::CheckBox
            | AtspiRole::RadioButton
            | AtspiRole::Link
            | AtspiRole::Entry
            | AtspiRole::PasswordText
            | AtspiRole::ComboBox
            | AtspiRole::MenuItem
            | AtspiRole::CheckMenuItem
            | AtspiRole::RadioMenuItem
            | AtspiRole::PushButtonMenu
    )
}

/// Whether to read the Text interface: for text inputs (the value) and for
/// roles that may be named by their content (labels, paragraphs, web
/// sections, cells, list items, …; the text is used only when the name is
/// empty, so the capture may skip the read for named nodes). Always `false`
/// without the Text interface.
pub fn needs_text(role: AtspiRole, interfaces: InterfaceSet) -> bool {
    if !interfaces.contains(Interface::Text) {
        return false;
    }
    let cup = native_role(role);
    kinds::is_text_input(cup) || kinds::names_from_text(cup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_of_plain_fillers_and_separators_are_not_read() {
        let none = InterfaceSet::empty();
        assert!(bounds_unused(AtspiRole::Filler, "", none));
        assert!(bounds_unused(AtspiRole::Separator, "", none));
        assert!(!bounds_unused(AtspiRole::Filler, "Toolbar area", none));
        assert!(!bounds_unused(AtspiRole::ScrollPane, "", none));
        assert!(!bounds_unused(AtspiRole::Viewport, "", none));
        assert!(!bounds_unused(AtspiRole::Button, "", none));
    }

    #[test]
    fn web_toolkits() {
        for t in ["Chromium", "Gecko", "WebKitGTK", "electron"] {
            assert!(is_web_toolkit(t), "{t}");
        }
        for t in ["GTK", "Qt", "", "gail"] {
            assert!(!is_web_toolkit(t), "{t}");
        }
    }

    #[test]
    fn attributes_for_web_and_a_few_roles() {
        assert!(needs_attributes(AtspiRole::Section, "Chromium", "120"));
        assert!(!needs_attributes(AtspiRole::Static, "Chromium", "120"));
        assert!(needs_attributes(AtspiRole::Link, "Chromium", "120"));
        assert!(needs_attributes(AtspiRole::Heading, "GTK", "3.24.38"));
        assert!(needs_attributes(AtspiRole::Entry, "Qt", "5.15.8"));
        assert!(needs_attributes(AtspiRole::DocumentWeb, "", ""));
        assert!(!needs_attributes(AtspiRole::Button, "GTK", "3.24.38"));
        assert!(!needs_attributes(AtspiRole::Panel, "Qt", "5.15.8"));
        assert!(!needs_attributes(AtspiRole::ComboBox, "GTK", "3.24.38"));
        assert!(needs_attributes(AtspiRole::ComboBox, "GTK", "4.8.3"));
        assert!(needs_attributes(AtspiRole::ComboBox, "Qt", "5.15.8"));
    }

    #[test]
    fn gtk4_actions_only_where_gtk_names_them() {
        for role in [
            AtspiRole::Button,
            AtspiRole::ToggleButton,
            AtspiRole::Entry,
            AtspiRole::PasswordText,
            AtspiRole::RadioButton,
        ] {
            assert!(gtk4_names_actions(role), "{role:?}");
        }
        // Tree expanders (panels), rows, GtkText, labels, tabs, scroll bars:
        // widget-class actions only.
        for role in [
            AtspiRole::Panel,
            AtspiRole::ListItem,
            AtspiRole::Text,
            AtspiRole::Label,
            AtspiRole::PageTab,
            AtspiRole::ScrollBar,
            AtspiRole::Frame,
        ] {
            assert!(!gtk4_names_actions(role), "{role:?}");
        }
    }

    #[test]
    fn text_for_inputs_and_content_named_roles() {
        let text = InterfaceSet::new(Interface::Text);
        assert!(needs_text(AtspiRole::Entry, text));
        assert!(needs_text(AtspiRole::PasswordText, text));
        assert!(needs_text(AtspiRole::Label, text));
        assert!(needs_text(AtspiRole::Section, text));
        assert!(needs_text(AtspiRole::TableCell, text));
        assert!(!needs_text(AtspiRole::Entry, InterfaceSet::empty()));
        assert!(!needs_text(AtspiRole::Frame, text));
        assert!(!needs_text(AtspiRole::SpinButton, text));
        assert!(!needs_text(AtspiRole::DocumentWeb, text));
    }
}
