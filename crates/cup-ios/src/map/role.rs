//! The CUP role of an element: the table of XCUIElementTypes with the
//! context its parent gives, then the traits of plain views, then the
//! `mappings.json` iOS column.

use cup_protocol::mappings::Mappings;
use cup_protocol::{PlatformId, Role};

use super::{nonempty, Context};
use crate::facts::WdaElement;

/// `Other` elements by their traits (SwiftUI, React Native and web views
/// mark plain views this way).
fn role_from_traits(el: &WdaElement) -> Option<Role> {
    [
        ("Button", Role::Button),
        ("Link", Role::Link),
        ("SearchField", Role::SearchBox),
        ("Adjustable", Role::Slider),
        ("Header", Role::Heading),
        ("Image", Role::Img),
        ("TabBar", Role::TabList),
        ("KeyboardKey", Role::Button),
        ("StaticText", Role::Text),
    ]
    .into_iter()
    .find(|(t, _)| el.has_trait(t))
    .map(|(_, r)| r)
}

/// A collection view laid out as a list: every cell spans (nearly) its
/// width, as in iOS 14+ list layouts (Settings).
fn cells_fill_width(el: &WdaElement) -> bool {
    let Some(width) = el.rect.map(|r| r.width).filter(|w| *w > 0.0) else {
        return true;
    };
    el.children
        .iter()
        .filter(|c| c.element_type == "Cell")
        .filter_map(|c| c.rect)
        .all(|r| r.width >= 0.9 * width)
}

/// A type the table does not know, through the `mappings.json` iOS
/// column (`lowerCamel` of the type).
fn role_from_mappings(ty: &str) -> Option<Role> {
    let mut chars = ty.chars();
    let first = chars.next()?;
    let native: String = first.to_lowercase().chain(chars).collect();
    Mappings::get()
        .roles_for_native(PlatformId::Ios, &native)
        .into_iter()
        .next()
}

fn generic_or_group(el: &WdaElement) -> Role {
    match nonempty(el.label.as_deref()) {
        None => Role::Generic,
        // A labelled leaf that is an accessibility element of its own is
        // text VoiceOver reads; a labelled container is a group.
        Some(_) if el.children.is_empty() && el.accessible == Some(true) => Role::Text,
        Some(_) => Role::Group,
    }
}

/// The CUP role of `el` under a parent described by `ctx`.
pub fn role(el: &WdaElement, ctx: &Context<'_>) -> Role {
    match el.element_type.as_str() {
        "Application" => Role::Application,
        "Window" => Role::Window,
        "Alert" => Role::AlertDialog,
        "Sheet" | "Dialog" | "Popover" => Role::Dialog,
        "Button" => match ctx.parent_type {
            "TabBar" => Role::Tab,
            "SegmentedControl" => Role::Radio,
            _ => Role::Button,
        },
        "ToolbarButton" | "MenuButton" | "DisclosureTriangle" | "IncrementArrow"
        | "DecrementArrow" | "ColorWell" | "DockItem" | "StatusItem" | "Icon" | "Key" => {
            Role::Button
        }
        "RadioButton" => Role::Radio,
        "CheckBox" => Role::Checkbox,
        "PopUpButton" | "ComboBox" => Role::Combobox,
        "Switch" | "Toggle" => Role::Switch,
        "Link" => Role::Link,
        "Image" => Role::Img,
        "StaticText" => {
            if el.has_trait("Header") {
                Role::Heading
            } else {
                Role::Text
            }
        }
        "TextField" | "SecureTextField" | "TextView" => Role::TextBox,
        "SearchField" => Role::SearchBox,
        "Slider" | "RatingIndicator" | "Timeline" => Role::Slider,
        "Stepper" | "PickerWheel" => Role::SpinButton,
        "ProgressIndicator" | "ActivityIndicator" | "LevelIndicator" | "RelevanceIndicator"
        | "ValueIndicator" => Role::ProgressBar,
        "NavigationBar" | "Toolbar" | "TouchBar" => Role::Toolbar,
        "TabBar" | "TabGroup" => Role::TabList,
        "Tab" => Role::Tab,
        "Table" => Role::List,
        "CollectionView" => {
            if cells_fill_width(el) {
                Role::List
            } else {
                Role::Grid
            }
        }
        "Grid" => Role::Grid,
        "Cell" => match ctx.parent_role {
            Some(Role::List) => Role::ListItem,
            _ => Role::Cell,
        },
        "TableRow" => Role::Row,
        "Outline" | "Browser" => Role::Tree,
        "OutlineRow" => Role::TreeItem,
        "ScrollBar" => Role::ScrollBar,
        "WebView" => Role::Document,
        "Menu" => Role::Menu,
        "MenuItem" | "MenuBarItem" => Role::MenuItem,
        "MenuBar" => Role::MenuBar,
        "Splitter" => Role::Separator,
        "HelpTag" => Role::Tooltip,
        "Keyboard" | "StatusBar" | "Picker" | "DatePicker" | "SegmentedControl" | "RadioGroup"
        | "Group" | "Drawer" | "SplitGroup" | "Map" | "PageIndicator" | "TableColumn" => {
            Role::Group
        }
        "ScrollView" | "Other" | "Any" | "" | "LayoutArea" | "LayoutItem" | "Matte" | "Ruler"
        | "RulerMarker" | "Handle" => role_from_traits(el).unwrap_or_else(|| generic_or_group(el)),
        other => role_from_mappings(other)
            .or_else(|| role_from_traits(el))
            .unwrap_or_else(|| generic_or_group(el)),
    }
}
