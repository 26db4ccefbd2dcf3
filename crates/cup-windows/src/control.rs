//! UI Automation's numbers: control type and property ids, pattern states, heading
//! levels, and the MSAA roles and state bits of `LegacyIAccessible`.

/// `UIA_*ControlTypeId`.
#[allow(missing_docs)]
pub mod ct {
    pub const BUTTON: i32 = 50000;
    pub const CALENDAR: i32 = 50001;
    pub const CHECK_BOX: i32 = 50002;
    pub const COMBO_BOX: i32 = 50003;
    pub const EDIT: i32 = 50004;
    pub const HYPERLINK: i32 = 50005;
    pub const IMAGE: i32 = 50006;
    pub const LIST_ITEM: i32 = 50007;
    pub const LIST: i32 = 50008;
    pub const MENU: i32 = 50009;
    pub const MENU_BAR: i32 = 50010;
    pub const MENU_ITEM: i32 = 50011;
    pub const PROGRESS_BAR: i32 = 50012;
    pub const RADIO_BUTTON: i32 = 50013;
    pub const SCROLL_BAR: i32 = 50014;
    pub const SLIDER: i32 = 50015;
    pub const SPINNER: i32 = 50016;
    pub const STATUS_BAR: i32 = 50017;
    pub const TAB: i32 = 50018;
    pub const TAB_ITEM: i32 = 50019;
    pub const TEXT: i32 = 50020;
    pub const TOOL_BAR: i32 = 50021;
    pub const TOOL_TIP: i32 = 50022;
    pub const TREE: i32 = 50023;
    pub const TREE_ITEM: i32 = 50024;
    pub const CUSTOM: i32 = 50025;
    pub const GROUP: i32 = 50026;
    pub const THUMB: i32 = 50027;
    pub const DATA_GRID: i32 = 50028;
    pub const DATA_ITEM: i32 = 50029;
    pub const DOCUMENT: i32 = 50030;
    pub const SPLIT_BUTTON: i32 = 50031;
    pub const WINDOW: i32 = 50032;
    pub const PANE: i32 = 50033;
    pub const HEADER: i32 = 50034;
    pub const HEADER_ITEM: i32 = 50035;
    pub const TABLE: i32 = 50036;
    pub const TITLE_BAR: i32 = 50037;
    pub const SEPARATOR: i32 = 50038;
    pub const SEMANTIC_ZOOM: i32 = 50039;
    pub const APP_BAR: i32 = 50040;
}

/// The programmatic name of a control type id (`Button`), as Inspect and
/// the `platform` escape hatch show it.
pub fn control_type_name(id: i32) -> &'static str {
    const NAMES: [&str; 41] = [
        "Button",
        "Calendar",
        "CheckBox",
        "ComboBox",
        "Edit",
        "Hyperlink",
        "Image",
        "ListItem",
        "List",
        "Menu",
        "MenuBar",
        "MenuItem",
        "ProgressBar",
        "RadioButton",
        "ScrollBar",
        "Slider",
        "Spinner",
        "StatusBar",
        "Tab",
        "TabItem",
        "Text",
        "ToolBar",
        "ToolTip",
        "Tree",
        "TreeItem",
        "Custom",
        "Group",
        "Thumb",
        "DataGrid",
        "DataItem",
        "Document",
        "SplitButton",
        "Window",
        "Pane",
        "Header",
        "HeaderItem",
        "Table",
        "TitleBar",
        "Separator",
        "SemanticZoom",
        "AppBar",
    ];
    usize::try_from(id - ct::BUTTON)
        .ok()
        .and_then(|i| NAMES.get(i).copied())
        .unwrap_or("Unknown")
}

/// `ToggleState`.
#[allow(missing_docs)]
pub mod toggle {
    pub const OFF: i32 = 0;
    pub const ON: i32 = 1;
    pub const INDETERMINATE: i32 = 2;
}

/// `ExpandCollapseState`.
#[allow(missing_docs)]
pub mod expand {
    pub const COLLAPSED: i32 = 0;
    pub const EXPANDED: i32 = 1;
    pub const PARTIALLY_EXPANDED: i32 = 2;
    pub const LEAF_NODE: i32 = 3;
}

/// `HeadingLevel_None`; `HeadingLevel1` ... `HeadingLevel9` follow it.
pub const HEADING_LEVEL_NONE: i32 = 80050;

/// MSAA `ROLE_SYSTEM_*` (the `LegacyIAccessible.Role` values).
#[allow(missing_docs)]
pub mod msaa_role {
    pub const TITLEBAR: u32 = 0x01;
    pub const MENUBAR: u32 = 0x02;
    pub const SCROLLBAR: u32 = 0x03;
    pub const ALERT: u32 = 0x08;
    pub const WINDOW: u32 = 0x09;
    pub const CLIENT: u32 = 0x0a;
    pub const MENUPOPUP: u32 = 0x0b;
    pub const MENUITEM: u32 = 0x0c;
    pub const TOOLTIP: u32 = 0x0d;
    pub const APPLICATION: u32 = 0x0e;
    pub const DOCUMENT: u32 = 0x0f;
    pub const PANE: u32 = 0x10;
    pub const DIALOG: u32 = 0x12;
    pub const GROUPING: u32 = 0x14;
    pub const SEPARATOR: u32 = 0x15;
    pub const TOOLBAR: u32 = 0x16;
    pub const STATUSBAR: u32 = 0x17;
    pub const TABLE: u32 = 0x18;
    pub const COLUMNHEADER: u32 = 0x19;
    pub const ROWHEADER: u32 = 0x1a;
    pub const ROW: u32 = 0x1c;
    pub const CELL: u32 = 0x1d;
    pub const LINK: u32 = 0x1e;
    pub const LIST: u32 = 0x21;
    pub const LISTITEM: u32 = 0x22;
    pub const OUTLINE: u32 = 0x23;
    pub const OUTLINEITEM: u32 = 0x24;
    pub const PAGETAB: u32 = 0x25;
    pub const PROPERTYPAGE: u32 = 0x26;
    pub const GRAPHIC: u32 = 0x28;
    pub const STATICTEXT: u32 = 0x29;
    pub const TEXT: u32 = 0x2a;
    pub const PUSHBUTTON: u32 = 0x2b;
    pub const CHECKBUTTON: u32 = 0x2c;
    pub const RADIOBUTTON: u32 = 0x2d;
    pub const COMBOBOX: u32 = 0x2e;
    pub const DROPLIST: u32 = 0x2f;
    pub const PROGRESSBAR: u32 = 0x30;
    pub const SLIDER: u32 = 0x33;
    pub const SPINBUTTON: u32 = 0x34;
    pub const BUTTONDROPDOWN: u32 = 0x38;
    pub const BUTTONMENU: u32 = 0x39;
    pub const PAGETABLIST: u32 = 0x3c;
    pub const SPLITBUTTON: u32 = 0x3e;
}

/// MSAA `STATE_SYSTEM_*` bits (the `LegacyIAccessible.State` value).
#[allow(missing_docs)]
pub mod msaa_state {
    pub const UNAVAILABLE: u32 = 0x1;
    pub const SELECTED: u32 = 0x2;
    pub const FOCUSED: u32 = 0x4;
    pub const PRESSED: u32 = 0x8;
    pub const CHECKED: u32 = 0x10;
    pub const MIXED: u32 = 0x20;
    pub const READONLY: u32 = 0x40;
    pub const EXPANDED: u32 = 0x200;
    pub const COLLAPSED: u32 = 0x400;
    pub const BUSY: u32 = 0x800;
    pub const INVISIBLE: u32 = 0x8000;
    pub const OFFSCREEN: u32 = 0x10000;
    pub const FOCUSABLE: u32 = 0x100000;
    pub const SELECTABLE: u32 = 0x200000;
    pub const MULTISELECTABLE: u32 = 0x1000000;
    pub const PROTECTED: u32 = 0x20000000;
    pub const HASPOPUP: u32 = 0x40000000;
}

/// UIA property ids the capture caches (`UIA_*PropertyId`).
#[allow(missing_docs)]
pub mod prop {
    pub const RUNTIME_ID: i32 = 30000;
    pub const BOUNDING_RECTANGLE: i32 = 30001;
    pub const PROCESS_ID: i32 = 30002;
    pub const CONTROL_TYPE: i32 = 30003;
    pub const LOCALIZED_CONTROL_TYPE: i32 = 30004;
    pub const NAME: i32 = 30005;
    pub const HAS_KEYBOARD_FOCUS: i32 = 30008;
    pub const IS_KEYBOARD_FOCUSABLE: i32 = 30009;
    pub const IS_ENABLED: i32 = 30010;
    pub const AUTOMATION_ID: i32 = 30011;
    pub const CLASS_NAME: i32 = 30012;
    pub const HELP_TEXT: i32 = 30013;
    pub const IS_PASSWORD: i32 = 30019;
    pub const NATIVE_WINDOW_HANDLE: i32 = 30020;
    pub const IS_OFFSCREEN: i32 = 30022;
    pub const ORIENTATION: i32 = 30023;
    pub const FRAMEWORK_ID: i32 = 30024;
    pub const IS_REQUIRED_FOR_FORM: i32 = 30025;
    pub const IS_EXPAND_COLLAPSE_AVAILABLE: i32 = 30028;
    pub const IS_GRID_ITEM_AVAILABLE: i32 = 30029;
    pub const IS_GRID_AVAILABLE: i32 = 30030;
    pub const IS_INVOKE_AVAILABLE: i32 = 30031;
    pub const IS_RANGE_VALUE_AVAILABLE: i32 = 30033;
    pub const IS_SCROLL_AVAILABLE: i32 = 30034;
    pub const IS_SCROLL_ITEM_AVAILABLE: i32 = 30035;
    pub const IS_SELECTION_ITEM_AVAILABLE: i32 = 30036;
    pub const IS_SELECTION_AVAILABLE: i32 = 30037;
    pub const IS_TABLE_AVAILABLE: i32 = 30038;
    pub const IS_TABLE_ITEM_AVAILABLE: i32 = 30039;
    pub const IS_TEXT_AVAILABLE: i32 = 30040;
    pub const IS_TOGGLE_AVAILABLE: i32 = 30041;
    pub const IS_VALUE_AVAILABLE: i32 = 30043;
    pub const IS_WINDOW_AVAILABLE: i32 = 30044;
    pub const VALUE_VALUE: i32 = 30045;
    pub const VALUE_IS_READ_ONLY: i32 = 30046;
    pub const RANGE_VALUE: i32 = 30047;
    pub const RANGE_IS_READ_ONLY: i32 = 30048;
    pub const RANGE_MINIMUM: i32 = 30049;
    pub const RANGE_MAXIMUM: i32 = 30050;
    pub const RANGE_LARGE_CHANGE: i32 = 30051;
    pub const RANGE_SMALL_CHANGE: i32 = 30052;
    pub const SCROLL_H_PERCENT: i32 = 30053;
    pub const SCROLL_H_VIEW: i32 = 30054;
    pub const SCROLL_V_PERCENT: i32 = 30055;
    pub const SCROLL_V_VIEW: i32 = 30056;
    pub const SCROLL_H_SCROLLABLE: i32 = 30057;
    pub const SCROLL_V_SCROLLABLE: i32 = 30058;
    pub const SELECTION_CAN_MULTIPLE: i32 = 30060;
    pub const SELECTION_REQUIRED: i32 = 30061;
    pub const GRID_ROW_COUNT: i32 = 30062;
    pub const GRID_COLUMN_COUNT: i32 = 30063;
    pub const GRID_ITEM_ROW: i32 = 30064;
    pub const GRID_ITEM_COLUMN: i32 = 30065;
    pub const GRID_ITEM_ROW_SPAN: i32 = 30066;
    pub const GRID_ITEM_COLUMN_SPAN: i32 = 30067;
    pub const EXPAND_COLLAPSE_STATE: i32 = 30070;
    pub const WINDOW_CAN_MAXIMIZE: i32 = 30073;
    pub const WINDOW_CAN_MINIMIZE: i32 = 30074;
    pub const WINDOW_VISUAL_STATE: i32 = 30075;
    pub const WINDOW_IS_MODAL: i32 = 30077;
    pub const WINDOW_IS_TOPMOST: i32 = 30078;
    pub const SELECTION_ITEM_IS_SELECTED: i32 = 30079;
    pub const TOGGLE_STATE: i32 = 30086;
    pub const IS_LEGACY_AVAILABLE: i32 = 30090;
    pub const LEGACY_VALUE: i32 = 30093;
    pub const LEGACY_ROLE: i32 = 30095;
    pub const LEGACY_STATE: i32 = 30096;
    pub const LEGACY_DEFAULT_ACTION: i32 = 30100;
    pub const ARIA_ROLE: i32 = 30101;
    pub const ARIA_PROPERTIES: i32 = 30102;
    pub const POSITION_IN_SET: i32 = 30152;
    pub const SIZE_OF_SET: i32 = 30153;
    pub const LEVEL: i32 = 30154;
    pub const HEADING_LEVEL: i32 = 30173;
    pub const IS_DIALOG: i32 = 30174;

    /// The ids an event handler's cache request leaves out of [`ALL`]:
    /// UIA fills that request for every event before calling the handler
    /// (a cross-process read each), and a sender's facts are used only
    /// for its role, name, value and states, which none of these feed
    /// (checked against every fixture element by
    /// `mapping::tests::an_event_senders_smaller_request_maps_the_same`).
    pub const EVENT_SKIPPED: &[i32] = &[
        BOUNDING_RECTANGLE,
        PROCESS_ID,
        LOCALIZED_CONTROL_TYPE,
        HELP_TEXT,
        NATIVE_WINDOW_HANDLE,
        RANGE_MINIMUM,
        RANGE_MAXIMUM,
        RANGE_LARGE_CHANGE,
        RANGE_SMALL_CHANGE,
        SCROLL_H_PERCENT,
        SCROLL_H_VIEW,
        SCROLL_V_PERCENT,
        SCROLL_V_VIEW,
        GRID_ROW_COUNT,
        GRID_COLUMN_COUNT,
        GRID_ITEM_ROW,
        GRID_ITEM_COLUMN,
        GRID_ITEM_ROW_SPAN,
        GRID_ITEM_COLUMN_SPAN,
        WINDOW_CAN_MAXIMIZE,
        WINDOW_CAN_MINIMIZE,
        LEGACY_DEFAULT_ACTION,
        POSITION_IN_SET,
        SIZE_OF_SET,
    ];

    /// Every id the cache request asks for.
    pub const ALL: &[i32] = &[
        RUNTIME_ID,
        BOUNDING_RECTANGLE,
        PROCESS_ID,
        CONTROL_TYPE,
        LOCALIZED_CONTROL_TYPE,
        NAME,
        HAS_KEYBOARD_FOCUS,
        IS_KEYBOARD_FOCUSABLE,
        IS_ENABLED,
        AUTOMATION_ID,
        CLASS_NAME,
        HELP_TEXT,
        IS_PASSWORD,
        NATIVE_WINDOW_HANDLE,
        IS_OFFSCREEN,
        ORIENTATION,
        FRAMEWORK_ID,
        IS_REQUIRED_FOR_FORM,
        IS_EXPAND_COLLAPSE_AVAILABLE,
        IS_GRID_ITEM_AVAILABLE,
        IS_GRID_AVAILABLE,
        IS_INVOKE_AVAILABLE,
        IS_RANGE_VALUE_AVAILABLE,
        IS_SCROLL_AVAILABLE,
        IS_SCROLL_ITEM_AVAILABLE,
        IS_SELECTION_ITEM_AVAILABLE,
        IS_SELECTION_AVAILABLE,
        IS_TABLE_AVAILABLE,
        IS_TABLE_ITEM_AVAILABLE,
        IS_TEXT_AVAILABLE,
        IS_TOGGLE_AVAILABLE,
        IS_VALUE_AVAILABLE,
        IS_WINDOW_AVAILABLE,
        VALUE_VALUE,
        VALUE_IS_READ_ONLY,
        RANGE_VALUE,
        RANGE_IS_READ_ONLY,
        RANGE_MINIMUM,
        RANGE_MAXIMUM,
        RANGE_LARGE_CHANGE,
        RANGE_SMALL_CHANGE,
        SCROLL_H_PERCENT,
        SCROLL_H_VIEW,
        SCROLL_V_PERCENT,
        SCROLL_V_VIEW,
        SCROLL_H_SCROLLABLE,
        SCROLL_V_SCROLLABLE,
        SELECTION_CAN_MULTIPLE,
        SELECTION_REQUIRED,
        GRID_ROW_COUNT,
        GRID_COLUMN_COUNT,
        GRID_ITEM_ROW,
        GRID_ITEM_COLUMN,
        GRID_ITEM_ROW_SPAN,
        GRID_ITEM_COLUMN_SPAN,
        EXPAND_COLLAPSE_STATE,
        WINDOW_CAN_MAXIMIZE,
        WINDOW_CAN_MINIMIZE,
        WINDOW_VISUAL_STATE,
        WINDOW_IS_MODAL,
        WINDOW_IS_TOPMOST,
        SELECTION_ITEM_IS_SELECTED,
        TOGGLE_STATE,
        IS_LEGACY_AVAILABLE,
        LEGACY_VALUE,
        LEGACY_ROLE,
        LEGACY_STATE,
        LEGACY_DEFAULT_ACTION,
        ARIA_ROLE,
        ARIA_PROPERTIES,
        POSITION_IN_SET,
        SIZE_OF_SET,
        LEVEL,
        HEADING_LEVEL,
        IS_DIALOG,
    ];
}
