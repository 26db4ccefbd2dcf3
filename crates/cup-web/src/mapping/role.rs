//! Chromium accessibility roles (ARIA names and Chromium's internal
//! CamelCase ones) → the 59 CUP roles. Never outside the schema: a role we
//! do not know is `generic`.

use cup_protocol::Role;

/// What becomes of a node of this role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A CUP node of this role.
    Node(Role),
    /// Left out; its children take its place (text boxes of a static text,
    /// line breaks, list bullets, presentational wrappers).
    Skip,
}

/// Maps a CDP `role.value`; `named` says whether the node has a name (an
/// unnamed `Section` is a plain container, a named one a region).
pub fn map(role: &str, named: bool) -> Kind {
    use Role as R;
    let node = Kind::Node;
    match role {
        "InlineTextBox"
        | "LineBreak"
        | "ListMarker"
        | "none"
        | "presentation"
        | "Ignored"
        | "IgnoredRole"
        | "IframePresentational" => Kind::Skip,
        "RootWebArea" | "WebArea" => node(R::Document),
        "StaticText" => node(R::Text),
        "Section" | "section" | "SectionWithoutName" => {
            node(if named { R::Region } else { R::Generic })
        }
        "region" => node(if named { R::Region } else { R::Generic }),
        "GenericContainer" | "generic" | "Div" | "Span" | "paragraph" | "Paragraph" | "Pre"
        | "Mark" | "mark" | "Abbr" | "Ruby" | "RubyAnnotation" | "Time" | "time" | "Subscript"
        | "subscript" | "Superscript" | "superscript" | "LabelText" | "Legend" | "Video"
        | "Audio" | "Iframe" | "code" | "Code" | "emphasis" | "strong" | "deletion"
        | "insertion" | "comment" | "caption" | "Caption" | "Figcaption" | "EmbeddedObject"
        | "PluginObject" | "Unknown" => node(R::Generic),
        "blockquote"
        | "Blockquote"
        | "DescriptionListDetail"
        | "Details"
        | "details"
        | "figure"
        | "Figure"
        | "article"
        | "definition"
        | "note"
        | "radiogroup"
        | "rowgroup"
        | "group"
        | "Fieldset"
        | "graphics-object"
        | "Pane"
        | "Date"
        | "DateTime"
        | "InputTime" => node(R::Group),
        "Canvas" | "image" | "img" | "SvgRoot" | "graphics-document" | "graphics-symbol"
        | "math" | "MathMLMath" | "doc-cover" => node(R::Img),
        "DescriptionList" | "listbox" | "feed" | "directory" | "MenuListPopup" => {
            node(if role == "MenuListPopup" {
                R::Menu
            } else {
                R::List
            })
        }
        "DescriptionListTerm" | "term" => node(R::ListItem),
        "MenuListOption" | "ListBoxOption" => node(R::Option),
        "DisclosureTriangle" | "Summary" | "ToggleButton" | "PopUpButton" => {
            node(if role == "PopUpButton" {
                R::Combobox
            } else {
                R::Button
            })
        }
        "ComboBoxGrouping" | "ComboBoxMenuButton" | "ComboBoxSelect" | "TextFieldWithComboBox" => {
            node(R::Combobox)
        }
        "meter" | "Meter" | "ProgressIndicator" => node(R::ProgressBar),
        "Output" | "output" => node(R::Status),
        "gridcell" | "GridCell" => node(R::Cell),
        "treegrid" => node(R::Grid),
        "heading" | "Heading" => node(R::Heading),
        "SearchBox" => node(R::SearchBox),
        "TextField" => node(R::TextBox),
        "Form" => node(R::Form),
        "CheckBox" => node(R::Checkbox),
        "RadioButton" => node(R::Radio),
        "Slider" => node(R::Slider),
        "SpinButton" => node(R::SpinButton),
        "Link" => node(R::Link),
        "Button" => node(R::Button),
        "List" => node(R::List),
        "ListItem" => node(R::ListItem),
        "Table" | "LayoutTable" => node(R::Table),
        "Row" | "LayoutTableRow" => node(R::Row),
        "Cell" | "LayoutTableCell" => node(R::Cell),
        "ColumnHeader" => node(R::ColumnHeader),
        "RowHeader" => node(R::RowHeader),
        "Dialog" => node(R::Dialog),
        "AlertDialog" => node(R::AlertDialog),
        "Switch" => node(R::Switch),
        "Tab" => node(R::Tab),
        "TabList" => node(R::TabList),
        "TabPanel" => node(R::TabPanel),
        "Toolbar" => node(R::Toolbar),
        "Tooltip" => node(R::Tooltip),
        "Tree" => node(R::Tree),
        "TreeItem" => node(R::TreeItem),
        "Menu" => node(R::Menu),
        "MenuBar" => node(R::MenuBar),
        "MenuItem" => node(R::MenuItem),
        "MenuItemCheckBox" => node(R::MenuItemCheckbox),
        "MenuItemRadio" => node(R::MenuItemRadio),
        "Splitter" => node(R::Separator),
        "ScrollBar" => node(R::ScrollBar),
        other => {
            // ARIA names (and Chromium's camelCase spellings of them).
            let lower = other.to_ascii_lowercase();
            node(Role::from_name(&lower).unwrap_or(R::Generic))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chromium_and_aria_names() {
        let n = |r: &str| map(r, false);
        assert_eq!(n("RootWebArea"), Kind::Node(Role::Document));
        assert_eq!(n("StaticText"), Kind::Node(Role::Text));
        assert_eq!(n("InlineTextBox"), Kind::Skip);
        assert_eq!(n("LineBreak"), Kind::Skip);
        assert_eq!(n("button"), Kind::Node(Role::Button));
        assert_eq!(n("textbox"), Kind::Node(Role::TextBox));
        assert_eq!(n("menuItemCheckBox"), Kind::Node(Role::MenuItemCheckbox));
        assert_eq!(n("tabList"), Kind::Node(Role::TabList));
        assert_eq!(n("MenuListPopup"), Kind::Node(Role::Menu));
        assert_eq!(n("MenuListOption"), Kind::Node(Role::Option));
        assert_eq!(n("listbox"), Kind::Node(Role::List));
        assert_eq!(n("Canvas"), Kind::Node(Role::Img));
        assert_eq!(n("blockquote"), Kind::Node(Role::Group));
        assert_eq!(n("paragraph"), Kind::Node(Role::Generic));
        assert_eq!(n("article"), Kind::Node(Role::Group));
        assert_eq!(n("treegrid"), Kind::Node(Role::Grid));
        assert_eq!(n("Section"), Kind::Node(Role::Generic));
        assert_eq!(map("Section", true), Kind::Node(Role::Region));
        assert_eq!(n("meter"), Kind::Node(Role::ProgressBar));
        assert_eq!(n("some-future-role"), Kind::Node(Role::Generic));
    }
}
