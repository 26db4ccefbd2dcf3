//! AT-SPI role → CUP role: a context-free table over every `atspi::Role`,
//! then refinements that look at the rest of the node (interfaces, states,
//! actions, the `xml-roles` attribute of web engines, the name).

use cup_protocol::Role;

use super::actions::raw_action_verbs;
use super::text;
use crate::facts::{AtspiRole, AtspiState, Interface, RawNode};

/// The libatspi enum name of a role without its `ATSPI_` prefix, e.g.
/// `ROLE_PUSH_BUTTON`: the spelling of `mappings.json` and of the schema's
/// `platform.linux.atspiRole`.
pub fn atspi_role_name(role: AtspiRole) -> String {
    role_const(role).to_owned()
}

fn role_const(role: AtspiRole) -> &'static str {
    use AtspiRole as A;
    match role {
        A::Invalid => "ROLE_INVALID",
        A::AcceleratorLabel => "ROLE_ACCELERATOR_LABEL",
        A::Alert => "ROLE_ALERT",
        A::Animation => "ROLE_ANIMATION",
        A::Arrow => "ROLE_ARROW",
        A::Calendar => "ROLE_CALENDAR",
        A::Canvas => "ROLE_CANVAS",
        A::CheckBox => "ROLE_CHECK_BOX",
        A::CheckMenuItem => "ROLE_CHECK_MENU_ITEM",
        A::ColorChooser => "ROLE_COLOR_CHOOSER",
        A::ColumnHeader => "ROLE_COLUMN_HEADER",
        A::ComboBox => "ROLE_COMBO_BOX",
        A::DateEditor => "ROLE_DATE_EDITOR",
        A::DesktopIcon => "ROLE_DESKTOP_ICON",
        A::DesktopFrame => "ROLE_DESKTOP_FRAME",
        A::Dial => "ROLE_DIAL",
        A::Dialog => "ROLE_DIALOG",
        A::DirectoryPane => "ROLE_DIRECTORY_PANE",
        A::DrawingArea => "ROLE_DRAWING_AREA",
        A::FileChooser => "ROLE_FILE_CHOOSER",
        A::Filler => "ROLE_FILLER",
        A::FocusTraversable => "ROLE_FOCUS_TRAVERSABLE",
        A::FontChooser => "ROLE_FONT_CHOOSER",
        A::Frame => "ROLE_FRAME",
        A::GlassPane => "ROLE_GLASS_PANE",
        A::HTMLContainer => "ROLE_HTML_CONTAINER",
        A::Icon => "ROLE_ICON",
        A::Image => "ROLE_IMAGE",
        A::InternalFrame => "ROLE_INTERNAL_FRAME",
        A::Label => "ROLE_LABEL",
        A::LayeredPane => "ROLE_LAYERED_PANE",
        A::List => "ROLE_LIST",
        A::ListItem => "ROLE_LIST_ITEM",
        A::Menu => "ROLE_MENU",
        A::MenuBar => "ROLE_MENU_BAR",
        A::MenuItem => "ROLE_MENU_ITEM",
        A::OptionPane => "ROLE_OPTION_PANE",
        A::PageTab => "ROLE_PAGE_TAB",
        A::PageTabList => "ROLE_PAGE_TAB_LIST",
        A::Panel => "ROLE_PANEL",
        A::PasswordText => "ROLE_PASSWORD_TEXT",
        A::PopupMenu => "ROLE_POPUP_MENU",
        A::ProgressBar => "ROLE_PROGRESS_BAR",
        A::Button => "ROLE_PUSH_BUTTON",
        A::RadioButton => "ROLE_RADIO_BUTTON",
        A::RadioMenuItem => "ROLE_RADIO_MENU_ITEM",
        A::RootPane => "ROLE_ROOT_PANE",
        A::RowHeader => "ROLE_ROW_HEADER",
        A::ScrollBar => "ROLE_SCROLL_BAR",
        A::ScrollPane => "ROLE_SCROLL_PANE",
        A::Separator => "ROLE_SEPARATOR",
        A::Slider => "ROLE_SLIDER",
        A::SpinButton => "ROLE_SPIN_BUTTON",
        A::SplitPane => "ROLE_SPLIT_PANE",
        A::StatusBar => "ROLE_STATUS_BAR",
        A::Table => "ROLE_TABLE",
        A::TableCell => "ROLE_TABLE_CELL",
        A::TableColumnHeader => "ROLE_TABLE_COLUMN_HEADER",
        A::TableRowHeader => "ROLE_TABLE_ROW_HEADER",
        A::TearoffMenuItem => "ROLE_TEAROFF_MENU_ITEM",
        A::Terminal => "ROLE_TERMINAL",
        A::Text => "ROLE_TEXT",
        A::ToggleButton => "ROLE_TOGGLE_BUTTON",
        A::ToolBar => "ROLE_TOOL_BAR",
        A::ToolTip => "ROLE_TOOL_TIP",
        A::Tree => "ROLE_TREE",
        A::TreeTable => "ROLE_TREE_TABLE",
        A::Unknown => "ROLE_UNKNOWN",
        A::Viewport => "ROLE_VIEWPORT",
        A::Window => "ROLE_WINDOW",
        A::Extended => "ROLE_EXTENDED",
        A::Header => "ROLE_HEADER",
        A::Footer => "ROLE_FOOTER",
        A::Paragraph => "ROLE_PARAGRAPH",
        A::Ruler => "ROLE_RULER",
        A::Application => "ROLE_APPLICATION",
        A::Autocomplete => "ROLE_AUTOCOMPLETE",
        A::Editbar => "ROLE_EDITBAR",
        A::Embedded => "ROLE_EMBEDDED",
        A::Entry => "ROLE_ENTRY",
        A::CHART => "ROLE_CHART",
        A::Caption => "ROLE_CAPTION",
        A::DocumentFrame => "ROLE_DOCUMENT_FRAME",
        A::Heading => "ROLE_HEADING",
        A::Page => "ROLE_PAGE",
        A::Section => "ROLE_SECTION",
        A::RedundantObject => "ROLE_REDUNDANT_OBJECT",
        A::Form => "ROLE_FORM",
        A::Link => "ROLE_LINK",
        A::InputMethodWindow => "ROLE_INPUT_METHOD_WINDOW",
        A::TableRow => "ROLE_TABLE_ROW",
        A::TreeItem => "ROLE_TREE_ITEM",
        A::DocumentSpreadsheet => "ROLE_DOCUMENT_SPREADSHEET",
        A::DocumentPresentation => "ROLE_DOCUMENT_PRESENTATION",
        A::DocumentText => "ROLE_DOCUMENT_TEXT",
        A::DocumentWeb => "ROLE_DOCUMENT_WEB",
        A::DocumentEmail => "ROLE_DOCUMENT_EMAIL",
        A::Comment => "ROLE_COMMENT",
        A::ListBox => "ROLE_LIST_BOX",
        A::Grouping => "ROLE_GROUPING",
        A::ImageMap => "ROLE_IMAGE_MAP",
        A::Notification => "ROLE_NOTIFICATION",
        A::InfoBar => "ROLE_INFO_BAR",
        A::LevelBar => "ROLE_LEVEL_BAR",
        A::TitleBar => "ROLE_TITLE_BAR",
        A::BlockQuote => "ROLE_BLOCK_QUOTE",
        A::Audio => "ROLE_AUDIO",
        A::Video => "ROLE_VIDEO",
        A::Definition => "ROLE_DEFINITION",
        A::Article => "ROLE_ARTICLE",
        A::Landmark => "ROLE_LANDMARK",
        A::Log => "ROLE_LOG",
        A::Marquee => "ROLE_MARQUEE",
        A::Math => "ROLE_MATH",
        A::Rating => "ROLE_RATING",
        A::Timer => "ROLE_TIMER",
        A::Static => "ROLE_STATIC",
        A::MathFraction => "ROLE_MATH_FRACTION",
        A::MathRoot => "ROLE_MATH_ROOT",
        A::Subscript => "ROLE_SUBSCRIPT",
        A::Superscript => "ROLE_SUPERSCRIPT",
        A::DescriptionList => "ROLE_DESCRIPTION_LIST",
        A::DescriptionTerm => "ROLE_DESCRIPTION_TERM",
        A::DescriptionValue => "ROLE_DESCRIPTION_VALUE",
        A::Footnote => "ROLE_FOOTNOTE",
        A::ContentDeletion => "ROLE_CONTENT_DELETION",
        A::ContentInsertion => "ROLE_CONTENT_INSERTION",
        A::Mark => "ROLE_MARK",
        A::Suggestion => "ROLE_SUGGESTION",
        A::PushButtonMenu => "ROLE_PUSH_BUTTON_MENU",
    }
}

/// The CUP role of an AT-SPI role alone, before any refinement. Exhaustive
/// over `atspi::Role`, so a new variant is a compile error here.
pub fn native_role(role: AtspiRole) -> Role {
    use AtspiRole as A;
    match role {
        // Wrappers without semantics: hoisted by pruning when unnamed.
        A::Invalid
        | A::Unknown
        | A::Extended
        | A::RedundantObject
        | A::Filler
        | A::FocusTraversable
        | A::HTMLContainer
        | A::Ruler
        | A::Embedded
        | A::Section
        | A::BlockQuote
        | A::Math
        | A::MathFraction
        | A::MathRoot
        | A::Subscript
        | A::Superscript
        | A::ContentDeletion
        | A::ContentInsertion
        | A::Mark
        | A::Suggestion
        | A::Footnote
        | A::RootPane
        | A::LayeredPane
        | A::GlassPane
        | A::Viewport => Role::Generic,
        // Containers that group controls (a labelled frame is a fieldset).
        A::Panel
        | A::Grouping
        | A::ScrollPane
        | A::SplitPane
        | A::OptionPane
        | A::InternalFrame
        | A::DirectoryPane
        | A::DateEditor
        | A::Audio
        | A::Video => Role::Group,
        A::Frame | A::Window | A::InputMethodWindow | A::DesktopFrame => Role::Window,
        A::Dialog | A::FileChooser | A::ColorChooser | A::FontChooser => Role::Dialog,
        A::Alert | A::Notification => Role::Alert,
        A::Application => Role::Application,
        A::Label
        | A::Static
        | A::Paragraph
        | A::Caption
        | A::Definition
        | A::DescriptionTerm
        | A::DescriptionValue
        | A::AcceleratorLabel => Role::Text,
        A::Text | A::Entry | A::PasswordText | A::Editbar | A::Terminal => Role::TextBox,
        A::Image
        | A::Icon
        | A::Animation
        | A::Canvas
        | A::CHART
        | A::ImageMap
        | A::DrawingArea
        | A::Arrow
        | A::DesktopIcon => Role::Img,
        A::Heading => Role::Heading,
        A::Link => Role::Link,
        A::DocumentFrame
        | A::DocumentWeb
        | A::DocumentText
        | A::DocumentEmail
        | A::DocumentSpreadsheet
        | A::DocumentPresentation => Role::Document,
        A::Article | A::Landmark | A::Comment | A::Page => Role::Region,
        A::Form => Role::Form,
        A::Header => Role::Banner,
        A::Footer => Role::ContentInfo,
        A::Table => Role::Table,
        A::TreeTable | A::Calendar => Role::Grid,
        A::TableCell => Role::Cell,
        A::TableRow => Role::Row,
        A::ColumnHeader | A::TableColumnHeader => Role::ColumnHeader,
        A::RowHeader | A::TableRowHeader => Role::RowHeader,
        A::List | A::ListBox | A::DescriptionList => Role::List,
        A::ListItem => Role::ListItem,
        A::Tree => Role::Tree,
        A::TreeItem => Role::TreeItem,
        A::PageTabList => Role::TabList,
        A::PageTab => Role::Tab,
        A::Menu | A::PopupMenu => Role::Menu,
        A::MenuBar => Role::MenuBar,
        A::MenuItem | A::TearoffMenuItem => Role::MenuItem,
        A::CheckMenuItem => Role::MenuItemCheckbox,
        A::RadioMenuItem => Role::MenuItemRadio,
        A::Button | A::PushButtonMenu | A::ToggleButton => Role::Button,
        A::CheckBox => Role::Checkbox,
        A::RadioButton => Role::Radio,
        A::ComboBox | A::Autocomplete => Role::Combobox,
        A::SpinButton => Role::SpinButton,
        A::Slider | A::Dial | A::Rating => Role::Slider,
        A::ScrollBar => Role::ScrollBar,
        A::ProgressBar | A::LevelBar => Role::ProgressBar,
        A::Separator => Role::Separator,
        A::ToolBar => Role::Toolbar,
        A::ToolTip => Role::Tooltip,
        A::StatusBar | A::InfoBar => Role::Status,
        A::TitleBar => Role::TitleBar,
        A::Log => Role::Log,
        A::Marquee => Role::Marquee,
        A::Timer => Role::Timer,
    }
}

/// The CUP role for one ARIA role token of `xml-roles` (web engines), or
/// `None` when the token has no CUP counterpart worth overriding with
/// (`none`/`presentation`, DPUB roles, unknown words).
pub fn aria_role(token: &str) -> Option<Role> {
    let role = match token {
        "heading" => Role::Heading,
        "dialog" => Role::Dialog,
        "alert" => Role::Alert,
        "alertdialog" => Role::AlertDialog,
        "searchbox" => Role::SearchBox,
        "navigation" => Role::Navigation,
        "main" => Role::Main,
        "search" => Role::Search,
        "banner" => Role::Banner,
        "contentinfo" => Role::ContentInfo,
        "complementary" => Role::Complementary,
        "region" => Role::Region,
        "form" => Role::Form,
        "switch" => Role::Switch,
        "tabpanel" => Role::TabPanel,
        "log" => Role::Log,
        "status" => Role::Status,
        "timer" => Role::Timer,
        "marquee" => Role::Marquee,
        "button" => Role::Button,
        "link" => Role::Link,
        "checkbox" => Role::Checkbox,
        "radio" => Role::Radio,
        "tab" => Role::Tab,
        "tablist" => Role::TabList,
        "menu" => Role::Menu,
        "menubar" => Role::MenuBar,
        "menuitem" => Role::MenuItem,
        "menuitemcheckbox" => Role::MenuItemCheckbox,
        "menuitemradio" => Role::MenuItemRadio,
        "option" => Role::Option,
        "listitem" => Role::ListItem,
        "list" | "listbox" | "feed" | "directory" => Role::List,
        "textbox" => Role::TextBox,
        "combobox" => Role::Combobox,
        "slider" => Role::Slider,
        "spinbutton" => Role::SpinButton,
        "progressbar" | "meter" => Role::ProgressBar,
        "scrollbar" => Role::ScrollBar,
        "tree" => Role::Tree,
        "treeitem" => Role::TreeItem,
        "grid" | "treegrid" => Role::Grid,
        "row" => Role::Row,
        "cell" | "gridcell" => Role::Cell,
        "columnheader" => Role::ColumnHeader,
        "rowheader" => Role::RowHeader,
        "table" => Role::Table,
        "toolbar" => Role::Toolbar,
        "tooltip" => Role::Tooltip,
        "img" | "image" | "graphics-symbol" => Role::Img,
        "separator" => Role::Separator,
        "group" | "figure" | "radiogroup" | "rowgroup" | "graphics-object" => Role::Group,
        "document" | "graphics-document" => Role::Document,
        "application" => Role::Application,
        "math" | "generic" => Role::Generic,
        "note" | "article" | "comment" => Role::Region,
        "term" | "definition" | "paragraph" | "caption" => Role::Text,
        _ => return None,
    };
    Some(role)
}

/// The role the `xml-roles` attribute asks for: the first token (the
/// attribute may list fallbacks, `"switch checkbox"`) that [`aria_role`]
/// knows.
pub fn xml_role(raw: &RawNode) -> Option<Role> {
    let roles = raw.attributes.get("xml-roles")?;
    roles
        .split_whitespace()
        .find_map(|t| aria_role(&t.to_ascii_lowercase()))
}

/// The CUP role of a node: [`native_role`], then the refinements of
/// [`resolve`].
#[cfg(test)]
pub fn map_role(raw: &RawNode) -> Role {
    resolve(raw).0
}

fn has_click(raw: &RawNode) -> bool {
    raw.action_names
        .iter()
        .any(|n| raw_action_verbs(n).contains(&cup_protocol::Action::Click))
}

/// GTK's switch is a toggle button whose only action is `toggle` (a GTK
/// toggle button's is `click`).
fn is_gtk_switch(raw: &RawNode) -> bool {
    raw.toolkit.to_ascii_lowercase().contains("gtk")
        && raw.action_names.len() == 1
        && raw.action_names[0].eq_ignore_ascii_case("toggle")
}

/// Role and name together, because each refines the other:
/// 1. [`native_role`];
/// 2. `ROLE_TEXT` without EditableText and not EDITABLE is static `text`;
///    a GTK switch (toggle button whose only action is `toggle`) is
///    `switch`; a list item that can be selected (SELECTABLE, or its parent
///    implements Selection) is an `option`; a `generic` that is EDITABLE and
///    FOCUSABLE (a contenteditable root) is a `textbox`;
/// 3. the first known token of `xml-roles` overrides;
/// 4. the name ([`text::map_name`]);
/// 5. a named `generic` with a click action is a `button`, else one named
///    from its own text content is `text`;
/// 6. `text` with an empty name is `generic` (pruning drops unnamed text
///    with its subtree but hoists generic, so links inside survive).
pub fn resolve(raw: &RawNode) -> (Role, String) {
    let mut role = native_role(raw.role);
    match raw.role {
        AtspiRole::Text
            if !raw.interfaces.contains(Interface::EditableText)
                && !raw.states.contains(AtspiState::Editable) =>
        {
            role = Role::Text;
        }
        AtspiRole::ToggleButton if is_gtk_switch(raw) => role = Role::Switch,
        AtspiRole::ListItem
            if raw.states.contains(AtspiState::Selectable) || raw.parent_selectable =>
        {
            role = Role::Option;
        }
        _ => {}
    }
    if role == Role::Generic
        && raw.states.contains(AtspiState::Editable)
        && raw.states.contains(AtspiState::Focusable)
    {
        role = Role::TextBox;
    }
    if let Some(aria) = xml_role(raw) {
        role = aria;
    }
    let (mut name, from_text) = text::map_name(raw, role);
    if name.is_empty() {
        name = text::name_from_description(raw, role);
    }
    if role == Role::Generic && !name.is_empty() {
        if has_click(raw) {
            role = Role::Button;
        } else if from_text {
            role = Role::Text;
        }
    }
    if role == Role::Text && name.is_empty() {
        role = Role::Generic;
    }
    (role, name)
}

#[cfg(test)]
mod tests {
    use super::super::kinds;
    use super::*;
    use std::collections::HashSet;

    fn all_roles() -> Vec<AtspiRole> {
        (0..=130u32)
            .filter_map(|n| AtspiRole::try_from(n).ok())
            .collect()
    }

    #[test]
    fn every_atspi_role_has_a_distinct_constant_name() {
        let roles = all_roles();
        assert_eq!(roles.len(), 130);
        let names: HashSet<_> = roles.iter().map(|r| atspi_role_name(*r)).collect();
        assert_eq!(names.len(), roles.len());
        for r in roles {
            let name = atspi_role_name(r);
            assert!(name.starts_with("ROLE_"), "{name}");
            assert!(
                name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'),
                "{name}"
            );
            // The constant spells the same words as atspi's display name
            // (except the renamed push button).
            let words = r.name().to_ascii_uppercase().replace(' ', "_");
            if r != AtspiRole::Button {
                assert_eq!(name, format!("ROLE_{words}"));
            }
        }
        assert_eq!(atspi_role_name(AtspiRole::Button), "ROLE_PUSH_BUTTON");
    }

    #[test]
    fn xml_roles_take_the_first_known_token() {
        let mut raw = RawNode::new(AtspiRole::ToggleButton);
        raw.attributes
            .insert("xml-roles".into(), "doc-tip switch checkbox".into());
        assert_eq!(map_role(&raw), Role::Switch);
        raw.attributes
            .insert("xml-roles".into(), "presentation".into());
        assert_eq!(map_role(&raw), Role::Button);
    }

    #[test]
    fn aria_words_outside_cup_are_folded() {
        for (aria, cup) in [
            ("feed", Role::List),
            ("directory", Role::List),
            ("figure", Role::Group),
            ("math", Role::Generic),
            ("note", Role::Region),
            ("article", Role::Region),
            ("gridcell", Role::Cell),
            ("treegrid", Role::Grid),
            ("listbox", Role::List),
            ("radiogroup", Role::Group),
            ("rowgroup", Role::Group),
            ("meter", Role::ProgressBar),
            ("term", Role::Text),
            ("definition", Role::Text),
        ] {
            assert_eq!(aria_role(aria), Some(cup), "{aria}");
        }
        for ignored in ["none", "presentation", "doc-chapter", "window", "titlebar"] {
            assert_eq!(aria_role(ignored), None, "{ignored}");
        }
    }

    #[test]
    fn static_text_role_is_text_and_editable_one_is_textbox() {
        let mut raw = RawNode::new(AtspiRole::Text);
        raw.name = "Hello".into();
        assert_eq!(map_role(&raw), Role::Text);
        raw.interfaces.insert(Interface::EditableText);
        assert_eq!(map_role(&raw), Role::TextBox);
    }

    #[test]
    fn named_generic_with_click_is_a_button() {
        let mut raw = RawNode::new(AtspiRole::Section);
        raw.action_names = vec!["click".into()];
        assert_eq!(map_role(&raw), Role::Generic);
        raw.name = "Save".into();
        assert_eq!(map_role(&raw), Role::Button);
    }

    #[test]
    fn unnamed_text_is_generic() {
        let raw = RawNode::new(AtspiRole::Paragraph);
        assert_eq!(map_role(&raw), Role::Generic);
        let mut raw = RawNode::new(AtspiRole::Paragraph);
        raw.text = Some("Some words \u{fffc}".into());
        assert_eq!(resolve(&raw), (Role::Text, "Some words".to_owned()));
    }

    #[test]
    fn selectable_list_items_are_options() {
        let mut raw = RawNode::new(AtspiRole::ListItem);
        assert_eq!(map_role(&raw), Role::ListItem);
        raw.parent_selectable = true;
        assert_eq!(map_role(&raw), Role::Option);
    }

    #[test]
    fn gtk_switch_is_recognised_by_its_single_toggle_action() {
        let mut raw = RawNode::new(AtspiRole::ToggleButton);
        raw.toolkit = "GTK".into();
        raw.action_names = vec!["toggle".into()];
        assert_eq!(map_role(&raw), Role::Switch);
        raw.action_names = vec!["click".into()];
        assert_eq!(map_role(&raw), Role::Button);
        raw.toolkit = "Qt".into();
        raw.action_names = vec!["Toggle".into()];
        assert_eq!(map_role(&raw), Role::Button);
    }

    #[test]
    fn contenteditable_root_is_a_textbox() {
        let mut raw = RawNode::new(AtspiRole::Section);
        raw.states.insert(AtspiState::Editable);
        assert_eq!(map_role(&raw), Role::Generic);
        raw.states.insert(AtspiState::Focusable);
        assert_eq!(map_role(&raw), Role::TextBox);
    }

    #[test]
    fn kinds_cover_the_native_table() {
        // Every native role lands in the CUP enum; spot-check a few families.
        for r in all_roles() {
            let role = native_role(r);
            assert!(Role::ALL.contains(&role));
        }
        assert_eq!(native_role(AtspiRole::Frame), Role::Window);
        assert!(kinds::is_text_input(native_role(AtspiRole::PasswordText)));
    }
}
