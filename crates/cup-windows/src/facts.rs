//! What the capture reads from UI Automation, before any translation: plain
//! serde data. The OS layer fills it; everything else (mapping, limits,
//! coordinates) reads only this, so it is tested on any OS, and
//! `cup snapshot --native-dump FILE` writes exactly this as JSON.
//!
//! Numbers are UIA's own: control type ids (`UIA_ButtonControlTypeId` =
//! 50000, ...), pattern states (`ToggleState_On` = 1, ...), MSAA roles and
//! state bits of `LegacyIAccessible`. A property the provider did not answer
//! keeps its default (empty string, `false`, `None`).

use serde::{Deserialize, Serialize};

/// A rectangle in physical virtual-screen pixels (UIA's
/// `BoundingRectangle`: left, top, width, height as doubles).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    /// Left edge (may be negative: a monitor left of the primary one).
    pub left: f64,
    /// Top edge.
    pub top: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Bounds {
    /// UIA reports an element without a place (collapsed, virtualized) as
    /// an empty rectangle.
    pub fn is_empty(&self) -> bool {
        !(self.width > 0.0 && self.height > 0.0 && self.left.is_finite() && self.top.is_finite())
    }

    /// The centre, rounded to whole pixels.
    pub fn centre(&self) -> (i64, i64) {
        (
            (self.left + self.width / 2.0).floor() as i64,
            (self.top + self.height / 2.0).floor() as i64,
        )
    }
}

/// `LegacyIAccessible` (MSAA) facts: the only pattern Wine's Win32 controls
/// offer, and what many old apps answer best.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Legacy {
    /// MSAA role (`ROLE_SYSTEM_PUSHBUTTON` = 0x2b, ...).
    pub role: u32,
    /// MSAA state bits (`STATE_SYSTEM_UNAVAILABLE` = 0x1, ...).
    pub state: u32,
    /// `DefaultAction` ("Press", "Open", ...).
    pub default_action: String,
    /// `Value`.
    pub value: String,
}

/// `ValuePattern`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ValueFacts {
    /// `Value`.
    pub value: String,
    /// `IsReadOnly`.
    pub is_read_only: bool,
}

/// `RangeValuePattern`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RangeFacts {
    /// `Value`.
    pub value: f64,
    /// `Minimum`.
    pub minimum: f64,
    /// `Maximum`.
    pub maximum: f64,
    /// `SmallChange`.
    pub small_change: f64,
    /// `LargeChange`.
    pub large_change: f64,
    /// `IsReadOnly`.
    pub is_read_only: bool,
}

/// `SelectionPattern`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SelectionFacts {
    /// `CanSelectMultiple`.
    pub can_select_multiple: bool,
    /// `IsSelectionRequired`.
    pub is_selection_required: bool,
}

/// `ScrollPattern` (percentages are -1 when the axis does not scroll).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScrollFacts {
    /// `HorizontallyScrollable`.
    pub horizontally_scrollable: bool,
    /// `VerticallyScrollable`.
    pub vertically_scrollable: bool,
    /// `HorizontalScrollPercent`.
    pub horizontal_percent: f64,
    /// `VerticalScrollPercent`.
    pub vertical_percent: f64,
    /// `HorizontalViewSize` (percent of the content in view).
    pub horizontal_view_size: f64,
    /// `VerticalViewSize`.
    pub vertical_view_size: f64,
}

/// `GridPattern` (and `TablePattern`, which adds headers).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GridFacts {
    /// `RowCount`.
    pub row_count: i32,
    /// `ColumnCount`.
    pub column_count: i32,
}

/// `GridItemPattern` (and `TableItemPattern`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GridItemFacts {
    /// `Row` (0-based).
    pub row: i32,
    /// `Column` (0-based).
    pub column: i32,
    /// `RowSpan`.
    pub row_span: i32,
    /// `ColumnSpan`.
    pub column_span: i32,
}

/// `WindowPattern`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WindowPatternFacts {
    /// `IsModal`.
    pub is_modal: bool,
    /// `IsTopmost`.
    pub is_topmost: bool,
    /// `CanMinimize`.
    pub can_minimize: bool,
    /// `CanMaximize`.
    pub can_maximize: bool,
    /// `WindowVisualState` (0 normal, 1 maximized, 2 minimized).
    pub visual_state: i32,
}

/// Which control patterns the element offers, with their cached state.
/// `None`/`false`: not offered (or the provider did not say).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Patterns {
    /// `InvokePattern`.
    pub invoke: bool,
    /// `TogglePattern` with its `ToggleState` (0 off, 1 on, 2 indeterminate).
    pub toggle: Option<i32>,
    /// `ExpandCollapsePattern` with its state (0 collapsed, 1 expanded,
    /// 2 partially expanded, 3 leaf node).
    pub expand_collapse: Option<i32>,
    /// `ValuePattern`.
    pub value: Option<ValueFacts>,
    /// `RangeValuePattern`.
    pub range_value: Option<RangeFacts>,
    /// `SelectionPattern`.
    pub selection: Option<SelectionFacts>,
    /// `SelectionItemPattern` with `IsSelected`.
    pub selection_item: Option<bool>,
    /// `ScrollPattern`.
    pub scroll: Option<ScrollFacts>,
    /// `ScrollItemPattern`.
    pub scroll_item: bool,
    /// `GridPattern`.
    pub grid: Option<GridFacts>,
    /// `GridItemPattern`.
    pub grid_item: Option<GridItemFacts>,
    /// `TablePattern`.
    pub table: bool,
    /// `TableItemPattern`.
    pub table_item: bool,
    /// `WindowPattern`.
    pub window: Option<WindowPatternFacts>,
    /// `TextPattern`.
    pub text: bool,
    /// `LegacyIAccessiblePattern`, with its facts.
    pub legacy: Option<Legacy>,
}

/// The facts of one element.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Element {
    /// `ControlType` (`UIA_ButtonControlTypeId` = 50000 ... 50040).
    pub control_type: i32,
    /// `LocalizedControlType` ("button", "Schaltfläche").
    pub localized_control_type: String,
    /// `Name`.
    pub name: String,
    /// `AutomationId`.
    pub automation_id: String,
    /// `ClassName`.
    pub class_name: String,
    /// `FrameworkId` ("Win32", "WPF", "WinForm", "XAML", "DirectUI",
    /// "Chrome").
    pub framework_id: String,
    /// `BoundingRectangle`; `None` when empty.
    pub bounds: Option<Bounds>,
    /// `IsEnabled`.
    pub is_enabled: bool,
    /// `IsOffscreen`.
    pub is_offscreen: bool,
    /// `HasKeyboardFocus`.
    pub has_keyboard_focus: bool,
    /// `IsKeyboardFocusable`.
    pub is_keyboard_focusable: bool,
    /// `IsPassword`.
    pub is_password: bool,
    /// `IsRequiredForForm`.
    pub is_required_for_form: bool,
    /// `IsDialog` (Windows 10 1809+).
    pub is_dialog: bool,
    /// `HelpText`.
    pub help_text: String,
    /// `Orientation` (0 none, 1 horizontal, 2 vertical).
    pub orientation: i32,
    /// `AriaRole` (web content: "heading", "navigation", ...).
    pub aria_role: String,
    /// `AriaProperties` ("level=2;checked=true").
    pub aria_properties: String,
    /// `HeadingLevel` (`HeadingLevel1` = 80051 ... 80059; 80050 none).
    pub heading_level: i32,
    /// `PositionInSet` (1-based; 0 unknown).
    pub position_in_set: i32,
    /// `SizeOfSet`.
    pub size_of_set: i32,
    /// `Level` (tree depth, 1-based; 0 unknown).
    pub level: i32,
    /// `NativeWindowHandle` (0 when the element is not a window).
    pub native_window_handle: i64,
    /// The window's `GWL_STYLE` when the element is a window (says which
    /// kind of Win32 button it is: push, check box, radio, group box).
    pub window_style: u32,
    /// `ProcessId`.
    pub process_id: u32,
    /// `RuntimeId` (how cup finds the element again for an action).
    pub runtime_id: Vec<i32>,
    /// Patterns and their state.
    pub patterns: Patterns,
}

/// An element with its children, as the cached walk found them.
impl Element {
    /// These facts as an event's sender has them: what
    /// [`crate::control::prop::EVENT_SKIPPED`] leaves out read as UIA
    /// answers a property not in the request (empty, zero).
    pub fn as_event_sender(&self) -> Element {
        let mut e = self.clone();
        e.bounds = None;
        e.process_id = 0;
        e.localized_control_type.clear();
        e.help_text.clear();
        e.native_window_handle = 0;
        e.position_in_set = 0;
        e.size_of_set = 0;
        let p = &mut e.patterns;
        if let Some(r) = &mut p.range_value {
            (r.minimum, r.maximum, r.large_change, r.small_change) = (0.0, 0.0, 0.0, 0.0);
        }
        if let Some(s) = &mut p.scroll {
            s.horizontal_percent = 0.0;
            s.horizontal_view_size = 0.0;
            s.vertical_percent = 0.0;
            s.vertical_view_size = 0.0;
        }
        if let Some(g) = &mut p.grid {
            *g = GridFacts::default();
        }
        if let Some(g) = &mut p.grid_item {
            *g = GridItemFacts::default();
        }
        if let Some(w) = &mut p.window {
            w.can_maximize = false;
            w.can_minimize = false;
        }
        if let Some(l) = &mut p.legacy {
            l.default_action.clear();
        }
        e
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NativeNode {
    /// The element's facts.
    #[serde(flatten)]
    pub element: Element,
    /// Children in UIA's order (the control view).
    pub children: Vec<NativeNode>,
    /// Set when the children could not be read (the reason, e.g.
    /// `UIA_E_ELEMENTNOTAVAILABLE`): the subtree is cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<String>,
}

impl NativeNode {
    /// Nodes in this subtree (this one included).
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(NativeNode::count).sum::<usize>()
    }
}

/// A monitor (`EnumDisplayMonitors`, `GetMonitorInfoW`, `GetDpiForMonitor`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MonitorFacts {
    /// Device name (`\\.\DISPLAY1`).
    pub name: String,
    /// Physical pixels in the virtual screen: left, top, right, bottom.
    pub rect: [i32; 4],
    /// The work area (without the taskbar), same form.
    pub work: [i32; 4],
    /// Effective DPI (96 = 100 %).
    pub dpi: u32,
    /// `MONITORINFOF_PRIMARY`.
    pub primary: bool,
}

/// A top-level window, as `EnumWindows` and its Win32 reads saw it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WindowFacts {
    /// `HWND` as a number.
    pub hwnd: i64,
    /// `GetWindowTextW`.
    pub title: String,
    /// `GetClassNameW`.
    pub class_name: String,
    /// `GetWindowThreadProcessId`.
    pub pid: u32,
    /// The process's executable file name (`notepad.exe`).
    pub process_name: String,
    /// `GetWindowRect` (DWM's extended frame bounds when available): left,
    /// top, right, bottom in physical pixels.
    pub rect: [i32; 4],
    /// `IsWindowVisible`.
    pub visible: bool,
    /// `IsIconic` (minimized).
    pub minimized: bool,
    /// `DWMWA_CLOAKED` is non-zero (another virtual desktop, a suspended
    /// UWP app).
    pub cloaked: bool,
    /// `GWL_STYLE`.
    pub style: u32,
    /// `GWL_EXSTYLE`.
    pub ex_style: u32,
    /// `GetWindow(GW_OWNER)` (0 when none).
    pub owner: i64,
    /// The process runs at a higher integrity level than cup (UIPI blocks
    /// cup's input to it).
    pub elevated: bool,
}

/// The screen: monitors and the virtual desktop that spans them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScreenFacts {
    /// `SM_XVIRTUALSCREEN`, `SM_YVIRTUALSCREEN`, `SM_CXVIRTUALSCREEN`,
    /// `SM_CYVIRTUALSCREEN`: left, top, width, height.
    pub virtual_screen: [i32; 4],
    /// Every monitor.
    pub monitors: Vec<MonitorFacts>,
}

/// One window's tree, or why it could not be read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WindowTree {
    /// The window.
    pub window: WindowFacts,
    /// Its element tree (`None`: unreadable, see `error`).
    pub root: Option<NativeNode>,
    /// Why the tree is missing or cut (deadline, node cap, HRESULT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What `cup snapshot --native-dump FILE` writes on Windows: every native
/// fact one capture read. Tests load these files as fixtures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NativeDump {
    /// Always `"windows"`.
    pub platform: String,
    /// Where the facts came from ("recorded live under Wine 10.0",
    /// "built from documented UIA property values: ...").
    pub source: String,
    /// The screen.
    pub screen: ScreenFacts,
    /// `GetForegroundWindow` (0 when none).
    pub foreground: i64,
    /// The captured windows and their trees, in capture order.
    pub trees: Vec<WindowTree>,
}
