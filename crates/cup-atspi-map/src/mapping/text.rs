//! Strings of a node: name, description and value, cleaned and capped.

use cup_protocol::{Node, Role};

use super::kinds;
use crate::facts::{AtspiRole, RawNode};

pub use cup_protocol::text::{
    cap, one_line, DESCRIPTION_MAX, EMBEDDED_OBJECT, NAME_MAX, VALUE_MAX,
};

/// The name and whether it came from the Text content: the `Name`
/// property trimmed and capped at [`NAME_MAX`], empty when a GTK app's
/// name is only a toolkit type name ([`is_toolkit_type_name`]); when it is
/// empty and the role may be named by its content
/// ([`kinds::names_from_text`]), the node's own text (web engines keep
/// inline text only in the Text interface of its container).
pub fn map_name(raw: &RawNode, role: Role) -> (String, bool) {
    let trimmed = raw.name.trim();
    let type_name = raw.toolkit.eq_ignore_ascii_case("gtk")
        && (is_toolkit_type_name(trimmed)
            || (raw.gtk4_minor().is_some() && is_app_type_name(trimmed)));
    let name = if type_name {
        String::new()
    } else {
        cap(without_mnemonic_echo(trimmed), NAME_MAX)
    };
    if !name.is_empty() || !kinds::names_from_text(role) {
        return (name, false);
    }
    match raw.text.as_deref().map(|t| one_line(t, NAME_MAX)) {
        Some(t) if !t.is_empty() => (t, true),
        _ => (name, false),
    }
}

/// The name an unnamed control takes from its description: the first
/// non-empty line, trimmed and capped at [`NAME_MAX`]. Toolkits put a
/// control's tooltip there when it has no name (VLC's player buttons:
/// "Play\nIf the playlist is empty, open a medium"; GIMP's "Portrait";
/// LibreOffice's "Close Document"), and an agent can act only on what it
/// can name. Only for controls ([`kinds::is_interactive`]); empty when the
/// description is.
pub fn name_from_description(raw: &RawNode, role: Role) -> String {
    if !kinds::is_interactive(role) {
        return String::new();
    }
    raw.description
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| cap(l, NAME_MAX))
        .unwrap_or_default()
}

/// `true` when `name` is only a GTK or libadwaita type name: `Gtk` or
/// `Adw`, an uppercase letter, then only ASCII letters and digits
/// (`GtkMenuButton`, `GtkBuiltinIcon`, `GtkStackPage`, `AdwTabBar`). GTK 4
/// (4.8 at least) puts the widget's type name in the accessible name when
/// the app set none: it names nothing for an agent, so it is no name.
pub fn is_toolkit_type_name(name: &str) -> bool {
    name.strip_prefix("Gtk")
        .or_else(|| name.strip_prefix("Adw"))
        .is_some_and(|rest| {
            rest.starts_with(|c: char| c.is_ascii_uppercase())
                && rest.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// A name that is a label's mnemonic form followed by its text ("_Rename
/// Rename": GTK 4.8's name of a button whose label has a mnemonic, as in
/// Nautilus's rename popover), reduced to the text; any other name as it
/// is.
pub fn without_mnemonic_echo(name: &str) -> &str {
    if !name.contains('_') {
        return name;
    }
    for (i, c) in name.char_indices() {
        if c != ' ' {
            continue;
        }
        let (mnemonic, text) = (&name[..i], &name[i + 1..]);
        if mnemonic.contains('_') && !text.is_empty() && mnemonic.replace('_', "") == text {
            return text;
        }
    }
    name
}

/// `true` when `name` looks like an app's own widget type name, which
/// GTK 4 also puts in the accessible name of a widget the app left
/// unnamed (Nautilus 43: "NautilusToolbar", "NautilusGridCell",
/// "NautilusLocationEntry"): one word of ASCII letters and digits, at
/// least 13 characters, starting with a capital and with another capital
/// inside. (Real names this long and this shaped are rare; shorter ones
/// such as "LibreOffice" or "JavaScript" stay names.)
pub fn is_app_type_name(name: &str) -> bool {
    name.len() >= 13
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
        && name.bytes().skip(1).any(|b| b.is_ascii_uppercase())
        && name.bytes().any(|b| b.is_ascii_lowercase())
}

/// The name of an unnamed node computed from its (already mapped)
/// descendants, as accname's "name from content" does: each child
/// contributes its own name, or else its descendants', in tree order,
/// joined by spaces and capped at [`NAME_MAX`]. Empty when no descendant
/// is named. Only for roles that [`kinds::names_from_content`] accepts.
///
/// Content that holds more than one named control is a page, not a label
/// (GTK's page tab holds its whole page: GIMP's dock tabs would be named
/// "Crop Current layer only Delete cropped pixels Allow growing…"): the
/// name is then empty rather than a concatenation of controls.
pub fn name_from_content(children: &[Node]) -> String {
    fn collect<'a>(
        children: &'a [Node],
        parts: &mut Vec<&'a str>,
        len: &mut usize,
        controls: &mut usize,
    ) {
        for child in children {
            if *len > NAME_MAX {
                return;
            }
            let name = child.name.trim();
            if name.is_empty() {
                collect(&child.children, parts, len, controls);
            } else {
                if kinds::is_interactive(child.role) {
                    *controls += 1;
                }
                *len += name.chars().count() + 1;
                parts.push(name);
            }
        }
    }
    let mut parts = Vec::new();
    let mut controls = 0;
    collect(children, &mut parts, &mut 0, &mut controls);
    if controls > 1 {
        return String::new();
    }
    one_line(&parts.join(" "), NAME_MAX)
}

/// The value of a combo box that has none of its own (Gecko's `<select>`
/// implements no Text): the name of its selected option, searched in its
/// popup's items. `None` when no item is selected.
pub fn value_from_selection(combo: &Node) -> Option<String> {
    fn selected(children: &[Node]) -> Option<&Node> {
        children.iter().find_map(|c| {
            let item = matches!(
                c.role,
                Role::MenuItem | Role::Option | Role::ListItem | Role::MenuItemRadio
            );
            if item && c.states.contains(&cup_protocol::State::Selected) && !c.name.is_empty() {
                Some(c)
            } else {
                selected(&c.children)
            }
        })
    }
    if combo.role != Role::Combobox || combo.value.is_some() {
        return None;
    }
    selected(&combo.children).map(|n| cap(n.name.trim(), VALUE_MAX))
}

/// The description when non-empty and different from the name.
pub fn map_description(raw: &RawNode, name: &str) -> Option<String> {
    let d = cap(raw.description.trim(), DESCRIPTION_MAX);
    (!d.is_empty() && d != name).then_some(d)
}

/// A number printed shortest (`50`, `0.5`), `None` when not finite.
pub fn format_number(v: f64) -> Option<String> {
    if !v.is_finite() {
        return None;
    }
    // `-0` reads oddly; Display prints integral floats without `.0`.
    Some(if v == 0.0 {
        "0".to_owned()
    } else {
        format!("{v}")
    })
}

/// The value: the Text content (embedded-object characters dropped, capped
/// at [`VALUE_MAX`]) for text inputs; for range roles the Value text, else
/// the current number, else the Text content.
pub fn map_value(raw: &RawNode, role: Role) -> Option<String> {
    let text = || {
        raw.text
            .as_deref()
            .map(|t| cap(&t.replace(EMBEDDED_OBJECT, ""), VALUE_MAX))
            .filter(|t| !t.is_empty())
    };
    if raw.role == AtspiRole::Terminal {
        // A terminal pads every line of its screen with spaces: its text
        // without them (the prompt, the commands and their output).
        let t = raw.text.as_deref().unwrap_or_default();
        let lines: Vec<&str> = t.lines().map(str::trim_end).collect();
        let end = lines
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(0, |i| i + 1);
        let trimmed = lines[..end].join("\n");
        return Some(cap(&trimmed, VALUE_MAX)).filter(|t| !t.is_empty());
    }
    if kinds::is_text_input(role) {
        return text();
    }
    if kinds::is_range(role) {
        let from_value = raw.value.as_ref().and_then(|v| {
            v.text
                .as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(|t| cap(t, VALUE_MAX))
                .or_else(|| format_number(v.current))
        });
        return from_value.or_else(text);
    }
    if role == Role::Cell && !raw.name.trim().is_empty() {
        // A named cell's content is its value (a spreadsheet's cell is
        // named by its address, "B2", and holds "21"); a cell named by its
        // own text says nothing more in a value.
        return text().filter(|t| t.trim() != raw.name.trim());
    }
    None
}

#[cfg(test)]
mod mnemonic_tests {
    use super::without_mnemonic_echo;

    #[test]
    fn a_mnemonic_echo_is_reduced_to_its_text() {
        assert_eq!(without_mnemonic_echo("_Rename Rename"), "Rename");
        assert_eq!(without_mnemonic_echo("_Save As Save As"), "Save As");
        assert_eq!(without_mnemonic_echo("Save _As Save As"), "Save As");
        for kept in [
            "Rename",
            "my_file.txt",
            "_Rename",
            "_Rename Remove",
            "a_b a_b",
        ] {
            assert_eq!(without_mnemonic_echo(kept), kept);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::RawValue;

    #[test]
    fn a_select_shows_its_selected_option() {
        use cup_protocol::State;
        let mut combo = Node::new("e1", Role::Combobox, "");
        let mut menu = Node::new("e2", Role::Menu, "");
        let mut one = Node::new("e3", Role::MenuItem, "One");
        one.states = vec![State::Offscreen];
        let mut two = Node::new("e4", Role::MenuItem, "Two");
        two.states = vec![State::Selected];
        menu.children = vec![one, two];
        combo.children = vec![menu];
        assert_eq!(value_from_selection(&combo).as_deref(), Some("Two"));
        combo.value = Some("typed".into());
        assert_eq!(value_from_selection(&combo), None);
        combo.value = None;
        combo.children[0].children[1].states.clear();
        assert_eq!(value_from_selection(&combo), None);
    }

    #[test]
    fn numbers_print_shortest() {
        assert_eq!(format_number(50.0).as_deref(), Some("50"));
        assert_eq!(format_number(0.5).as_deref(), Some("0.5"));
        assert_eq!(format_number(-0.0).as_deref(), Some("0"));
        assert_eq!(format_number(-3.25).as_deref(), Some("-3.25"));
        assert_eq!(
            format_number(1e21).as_deref(),
            Some("1000000000000000000000")
        );
        assert_eq!(format_number(f64::NAN), None);
        assert_eq!(format_number(f64::INFINITY), None);
    }

    fn node(role: Role, name: &str, children: Vec<Node>) -> Node {
        let mut n = Node::new("e0".to_owned(), role, name.to_owned());
        n.children = children;
        n
    }

    #[test]
    fn name_from_content_takes_named_descendants_in_order() {
        // GTK 4 list row: option > expander group "Fishbowl" > (button "Expand", text).
        let row = [node(
            Role::Group,
            "Fishbowl",
            vec![
                node(Role::Button, "Expand", vec![]),
                node(Role::Text, "Fishbowl", vec![]),
            ],
        )];
        assert_eq!(name_from_content(&row), "Fishbowl");
        // Unnamed wrappers are looked through; names join with spaces.
        let cells = [
            node(
                Role::Generic,
                "",
                vec![node(Role::Text, " Alice\n", vec![])],
            ),
            node(Role::Img, "", vec![]),
            node(Role::Text, "42", vec![]),
        ];
        assert_eq!(name_from_content(&cells), "Alice 42");
        assert_eq!(name_from_content(&[node(Role::Img, "", vec![])]), "");
        assert_eq!(name_from_content(&[]), "");
        let long: Vec<Node> = (0..100)
            .map(|i| node(Role::Text, &format!("word{i}"), vec![]))
            .collect();
        assert_eq!(name_from_content(&long).chars().count(), NAME_MAX);
    }

    #[test]
    fn app_type_names_are_long_camel_case_words() {
        for n in [
            "NautilusToolbar",
            "NautilusGridCell",
            "NautilusLocationEntry",
        ] {
            assert!(is_app_type_name(n), "{n}");
        }
        for n in [
            "LibreOffice",
            "JavaScript",
            "Open Folder",
            "NAUTILUSTOOLBAR",
            "nautilusToolbar",
            "Nautilus",
        ] {
            assert!(!is_app_type_name(n), "{n}");
        }
    }

    #[test]
    fn a_terminal_value_drops_its_padding() {
        let mut raw = RawNode::new(AtspiRole::Terminal);
        raw.text = Some("$ echo 42   \n42      \n$      \n        \n     ".to_owned());
        assert_eq!(
            map_value(&raw, Role::TextBox).as_deref(),
            Some("$ echo 42\n42\n$")
        );
        raw.text = Some("      \n   ".to_owned());
        assert_eq!(map_value(&raw, Role::TextBox), None);
    }

    #[test]
    fn content_of_several_controls_names_nothing() {
        // GIMP 2.10's dock tab: the page tab holds the Crop tool's options.
        let page = [node(
            Role::Generic,
            "",
            vec![
                node(Role::Text, "Crop", vec![]),
                node(Role::Checkbox, "Current layer only", vec![]),
                node(Role::Checkbox, "Delete cropped pixels", vec![]),
            ],
        )];
        assert_eq!(name_from_content(&page), "");
        // One control among text still names (a row with a check box).
        let row = [
            node(Role::Text, "Alice", vec![]),
            node(Role::Checkbox, "Done", vec![]),
        ];
        assert_eq!(name_from_content(&row), "Alice Done");
    }

    #[test]
    fn cap_counts_characters() {
        assert_eq!(cap("ééé", 2), "éé");
        assert_eq!(cap("ab", 5), "ab");
        let long = "x".repeat(300);
        assert_eq!(cap(&long, NAME_MAX).chars().count(), 200);
    }

    #[test]
    fn name_is_trimmed_and_capped() {
        let mut raw = RawNode::new(AtspiRole::Button);
        raw.name = format!("  {}  ", "a".repeat(250));
        let (name, from_text) = map_name(&raw, Role::Button);
        assert_eq!(name.len(), 200);
        assert!(!from_text);
    }

    #[test]
    fn toolkit_type_names_are_recognised() {
        for t in [
            "GtkMenuButton",
            "GtkBuiltinIcon",
            "GtkStackPage",
            "AdwTabBar",
            "GtkBox",
            "GtkGLArea",
            "AdwHeaderBar2",
        ] {
            assert!(is_toolkit_type_name(t), "{t}");
        }
        for t in [
            "Gtkfoo",
            "Gtk Demo",
            "Gtk",
            "Adw",
            "Gtk4Thing",
            "GtkMenu-Button",
            "GtkMenu Button",
            "GTKMenuButton",
            "gtkMenuButton",
            "Adwaita",
            "MyGtkButton",
            "GtkÉtiquette",
            "",
        ] {
            assert!(!is_toolkit_type_name(t), "{t}");
        }
    }

    #[test]
    fn gtk_type_names_are_no_name_in_gtk_apps_only() {
        let mut raw = RawNode::new(AtspiRole::Button);
        raw.toolkit = "GTK".into();
        raw.toolkit_version = "4.8.3".into();
        for name in ["GtkMenuButton", " AdwTabBar "] {
            raw.name = name.into();
            assert_eq!(
                map_name(&raw, Role::Button),
                (String::new(), false),
                "{name}"
            );
        }
        for name in ["Gtkfoo", "Gtk Demo", "Save"] {
            raw.name = name.into();
            assert_eq!(map_name(&raw, Role::Button), (name.to_owned(), false));
        }
        // Another toolkit may name a node so on purpose.
        raw.toolkit = "Qt".into();
        raw.name = "GtkMenuButton".into();
        assert_eq!(
            map_name(&raw, Role::Button),
            ("GtkMenuButton".to_owned(), false)
        );
        // A content-named role falls back to its text, as for any empty name.
        let mut label = RawNode::new(AtspiRole::Label);
        label.toolkit = "GTK".into();
        label.name = "GtkLabel".into();
        label.text = Some("Hello".into());
        assert_eq!(map_name(&label, Role::Text), ("Hello".to_owned(), true));
    }

    #[test]
    fn empty_name_comes_from_text_only_for_content_roles() {
        let mut raw = RawNode::new(AtspiRole::Label);
        raw.text = Some(" Hello\n  \u{fffc} world ".into());
        assert_eq!(map_name(&raw, Role::Text), ("Hello world".to_owned(), true));
        assert_eq!(map_name(&raw, Role::TextBox), (String::new(), false));
        raw.text = Some("\u{fffc}".into());
        assert_eq!(map_name(&raw, Role::Text), (String::new(), false));
    }

    #[test]
    fn description_differs_from_name() {
        let mut raw = RawNode::new(AtspiRole::Button);
        raw.description = " Save ".into();
        assert_eq!(map_description(&raw, "Save"), None);
        assert_eq!(map_description(&raw, "OK").as_deref(), Some("Save"));
        raw.description = String::new();
        assert_eq!(map_description(&raw, "OK"), None);
    }

    #[test]
    fn values_by_role() {
        let mut raw = RawNode::new(AtspiRole::Entry);
        raw.text = Some("line 1\nline 2".into());
        assert_eq!(
            map_value(&raw, Role::TextBox).as_deref(),
            Some("line 1\nline 2")
        );
        raw.text = Some("x".repeat(5000));
        assert_eq!(
            map_value(&raw, Role::TextBox).map(|v| v.len()),
            Some(VALUE_MAX)
        );
        assert_eq!(map_value(&raw, Role::Button), None);

        let mut raw = RawNode::new(AtspiRole::Slider);
        raw.value = Some(RawValue {
            current: 0.5,
            maximum: 1.0,
            ..RawValue::default()
        });
        assert_eq!(map_value(&raw, Role::Slider).as_deref(), Some("0.5"));
        raw.value = Some(RawValue {
            current: 3.0,
            text: Some("3 stars".into()),
            ..RawValue::default()
        });
        assert_eq!(map_value(&raw, Role::Slider).as_deref(), Some("3 stars"));
        raw.value = Some(RawValue {
            current: f64::NAN,
            ..RawValue::default()
        });
        raw.text = Some("12".into());
        assert_eq!(map_value(&raw, Role::SpinButton).as_deref(), Some("12"));
    }
}
