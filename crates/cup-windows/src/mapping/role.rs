//! The CUP role of an element: its control type, refined by patterns,
//! class, heading level and the ARIA role web content carries, and by the
//! MSAA role where UIA has only a generic type (Wine's Win32 proxies).

use cup_protocol::Role;

use crate::control::{ct, msaa_role, HEADING_LEVEL_NONE};
use crate::facts::Element;

/// What the role of an element depends on besides itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Context {
    /// Control type of the parent (0 at a root).
    pub parent_type: i32,
    /// Control type of the grandparent (0 when none).
    pub grandparent_type: i32,
}

/// The role a control type stands for, before refinement.
pub fn base_role(control_type: i32) -> Role {
    match control_type {
        ct::BUTTON | ct::SPLIT_BUTTON => Role::Button,
        ct::CALENDAR | ct::DATA_GRID => Role::Grid,
        ct::CHECK_BOX => Role::Checkbox,
        ct::COMBO_BOX => Role::Combobox,
        ct::EDIT => Role::TextBox,
        ct::HYPERLINK => Role::Link,
        ct::IMAGE => Role::Img,
        ct::LIST_ITEM => Role::ListItem,
        ct::LIST => Role::List,
        ct::MENU => Role::Menu,
        ct::MENU_BAR => Role::MenuBar,
        ct::MENU_ITEM => Role::MenuItem,
        ct::PROGRESS_BAR => Role::ProgressBar,
        ct::RADIO_BUTTON => Role::Radio,
        ct::SCROLL_BAR => Role::ScrollBar,
        ct::SLIDER => Role::Slider,
        ct::SPINNER => Role::SpinButton,
        ct::STATUS_BAR => Role::Status,
        ct::TAB => Role::TabList,
        ct::TAB_ITEM => Role::Tab,
        ct::TEXT => Role::Text,
        ct::TOOL_BAR | ct::APP_BAR => Role::Toolbar,
        ct::TOOL_TIP => Role::Tooltip,
        ct::TREE => Role::Tree,
        ct::TREE_ITEM => Role::TreeItem,
        ct::GROUP => Role::Group,
        ct::DATA_ITEM => Role::Row,
        ct::DOCUMENT => Role::Document,
        ct::WINDOW => Role::Window,
        ct::HEADER => Role::Row,
        ct::HEADER_ITEM => Role::ColumnHeader,
        ct::TABLE => Role::Table,
        ct::TITLE_BAR => Role::TitleBar,
        ct::SEPARATOR => Role::Separator,
        // Pane, Custom, Thumb, SemanticZoom and unknown ids.
        _ => Role::Generic,
    }
}

/// The role an MSAA role stands for, when UIA gave no specific type.
pub fn msaa_role(role: u32) -> Option<Role> {
    use msaa_role as r;
    Some(match role {
        r::TITLEBAR => Role::TitleBar,
        r::MENUBAR => Role::MenuBar,
        r::SCROLLBAR => Role::ScrollBar,
        r::ALERT => Role::Alert,
        r::WINDOW => Role::Window,
        r::MENUPOPUP => Role::Menu,
        r::MENUITEM => Role::MenuItem,
        r::TOOLTIP => Role::Tooltip,
        r::APPLICATION => Role::Application,
        r::DOCUMENT => Role::Document,
        r::DIALOG => Role::Dialog,
        r::GROUPING => Role::Group,
        r::SEPARATOR => Role::Separator,
        r::TOOLBAR => Role::Toolbar,
        r::STATUSBAR => Role::Status,
        r::TABLE => Role::Table,
        r::COLUMNHEADER => Role::ColumnHeader,
        r::ROWHEADER => Role::RowHeader,
        r::ROW => Role::Row,
        r::CELL => Role::Cell,
        r::LINK => Role::Link,
        r::LIST => Role::List,
        r::LISTITEM => Role::ListItem,
        r::OUTLINE => Role::Tree,
        r::OUTLINEITEM => Role::TreeItem,
        r::PAGETAB => Role::Tab,
        r::PROPERTYPAGE => Role::TabPanel,
        r::GRAPHIC => Role::Img,
        r::STATICTEXT => Role::Text,
        r::TEXT => Role::TextBox,
        r::PUSHBUTTON | r::BUTTONDROPDOWN | r::BUTTONMENU | r::SPLITBUTTON => Role::Button,
        r::CHECKBUTTON => Role::Checkbox,
        r::RADIOBUTTON => Role::Radio,
        r::COMBOBOX | r::DROPLIST => Role::Combobox,
        r::PROGRESSBAR => Role::ProgressBar,
        r::SLIDER => Role::Slider,
        r::SPINBUTTON => Role::SpinButton,
        r::PAGETABLIST => Role::TabList,
        _ => return None,
    })
}

/// The role of a standard Win32 control by its window class, for a
/// window element UIA types only as a pane (Wine's UIA, whose MSAA proxy
/// calls them all "client").
pub fn win32_class_role(class: &str) -> Option<Role> {
    let c = class.to_ascii_lowercase();
    Some(match c.as_str() {
        "button" => Role::Button,
        "static" => Role::Text,
        "edit" => Role::TextBox,
        "combobox" | "comboboxex32" => Role::Combobox,
        "listbox" | "combolbox" | "syslistview32" => Role::List,
        "systreeview32" => Role::Tree,
        "systabcontrol32" => Role::TabList,
        "msctls_statusbar32" => Role::Status,
        "sysheader32" => Role::Row,
        "msctls_trackbar32" => Role::Slider,
        "msctls_progress32" => Role::ProgressBar,
        "msctls_updown32" => Role::SpinButton,
        "toolbarwindow32" => Role::Toolbar,
        "scrollbar" => Role::ScrollBar,
        "syslink" => Role::Link,
        "#32770" => Role::Dialog,
        "#32768" => Role::Menu,
        _ if c.starts_with("richedit") => Role::TextBox,
        _ => return None,
    })
}

/// The kind of a Win32 `Button` window by its `BS_*` style.
pub fn button_kind(style: u32) -> Role {
    match style & 0xF {
        0x2 | 0x3 | 0x5 | 0x6 => Role::Checkbox,
        0x4 | 0x9 => Role::Radio,
        0x7 => Role::Group,
        _ => Role::Button,
    }
}

/// The heading level (1-9) of `HeadingLevel`, or of `level=N` in the ARIA
/// properties of a heading.
pub fn heading_level(el: &Element) -> Option<u32> {
    let from_uia = u32::try_from(el.heading_level - HEADING_LEVEL_NONE)
        .ok()
        .filter(|l| (1..=9).contains(l));
    from_uia.or_else(|| {
        if el.aria_role.eq_ignore_ascii_case("heading") {
            aria_property(&el.aria_properties, "level").and_then(|v| v.parse().ok())
        } else {
            None
        }
    })
}

/// One `name=value` of UIA's `AriaProperties` (`;`-separated, `\`
/// escapes).
pub fn aria_property<'a>(props: &'a str, name: &str) -> Option<&'a str> {
    props.split(';').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        k.trim().eq_ignore_ascii_case(name).then_some(v.trim())
    })
}

/// ARIA roles that must not replace a more specific control type.
fn weak_aria(role: Role) -> bool {
    matches!(role, Role::None | Role::Generic | Role::Group | Role::Text)
}

/// The role of `el`.
pub fn map_role(el: &Element, ctx: Context) -> Role {
    let mut role = base_role(el.control_type);
    let generic_type = matches!(el.control_type, ct::PANE | ct::CUSTOM | 0)
        || !(ct::BUTTON..=ct::APP_BAR).contains(&el.control_type);
    if generic_type {
        if let Some(r) = el
            .patterns
            .legacy
            .as_ref()
            .and_then(|l| msaa_role(l.role))
            .filter(|r| !matches!(r, Role::Window) || el.control_type == 0)
        {
            role = r;
        }
    }
    // A window element UIA could type only as a pane or "client": its
    // Win32 class says what it is. A dialog inside a dialog is a page.
    let client_only = el
        .patterns
        .legacy
        .as_ref()
        .is_none_or(|l| l.role == msaa_role::CLIENT);
    if el.control_type == ct::PANE && client_only && el.framework_id.is_empty()
        || el.framework_id == "Win32" && el.control_type == ct::PANE
    {
        if let Some(r) = win32_class_role(&el.class_name) {
            role = match r {
                Role::Dialog if ctx.parent_type != 0 => Role::Group,
                Role::Button => button_kind(el.window_style),
                r => r,
            };
        }
    }
    match el.control_type {
        ct::BUTTON if el.class_name == "ToggleSwitch" => role = Role::Switch,
        ct::CHECK_BOX if el.class_name == "ToggleSwitch" => role = Role::Switch,
        ct::MENU_ITEM if el.patterns.toggle.is_some() => role = Role::MenuItemCheckbox,
        ct::MENU_ITEM if el.patterns.selection_item.is_some() => role = Role::MenuItemRadio,
        ct::WINDOW if el.is_dialog || el.patterns.window.as_ref().is_some_and(|w| w.is_modal) => {
            role = Role::Dialog
        }
        ct::PANE if !el.name.trim().is_empty() && role == Role::Generic => role = Role::Region,
        ct::DATA_ITEM if el.patterns.grid_item.is_some() || el.patterns.table_item => {
            role = Role::Cell
        }
        ct::HEADER_ITEM if el.orientation == 2 => role = Role::RowHeader,
        ct::TEXT | ct::GROUP | ct::CUSTOM if heading_level(el).is_some() => role = Role::Heading,
        ct::LIST_ITEM
            if ctx.parent_type == ct::LIST && ctx.grandparent_type == ct::COMBO_BOX
                || ctx.parent_type == ct::COMBO_BOX =>
        {
            role = Role::Option
        }
        ct::EDIT if el.aria_role.eq_ignore_ascii_case("searchbox") => role = Role::SearchBox,
        _ => {}
    }
    // Web content (Chromium, Edge, Firefox) names its ARIA role.
    if let Some(aria) = Role::from_name(el.aria_role.trim()) {
        let overrides = !weak_aria(aria)
            && match role {
                Role::Generic | Role::Group | Role::Text | Role::Region => true,
                Role::Window => matches!(aria, Role::Dialog | Role::AlertDialog),
                Role::Checkbox => aria == Role::Switch,
                Role::ListItem => matches!(aria, Role::Option | Role::TreeItem | Role::Tab),
                Role::Button => matches!(aria, Role::Switch | Role::Tab | Role::MenuItem),
                Role::Row => matches!(aria, Role::Row),
                _ => false,
            };
        if overrides {
            role = aria;
        }
    }
    role
}
