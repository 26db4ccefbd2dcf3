//! What the capture reads from the Accessibility API, before any
//! translation: plain serde data. The OS layer fills it; everything else
//! (mapping, walk limits, coordinates, action plans) reads only this, so it
//! is tested on any OS, and `cup snapshot --native-dump FILE` writes
//! exactly this as JSON.
//!
//! Attribute names are AX's own (`AXRole`, `AXSubrole`, ...); an attribute
//! the element did not answer keeps its default (`None`, empty). Geometry
//! is in points of the global display space (origin at the top left of the
//! main display, y down), as AX and Core Graphics give it.

use serde::{Deserialize, Serialize};

/// A rectangle in points of the global display space.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PointRect {
    /// Left edge (negative on a display left of the main one).
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl PointRect {
    /// Has an area (AX gives collapsed elements a zero size).
    pub fn is_empty(&self) -> bool {
        !(self.w > 0.0 && self.h > 0.0 && self.x.is_finite() && self.y.is_finite())
    }

    /// The centre.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// Whether `(x, y)` lies inside (left and top edges included).
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.w && y < self.y + self.h
    }

    /// Whether the two overlap.
    pub fn overlaps(&self, o: &PointRect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// An `AXValue`: text, a number (checkbox state, slider value), a flag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AxValue {
    /// `CFBoolean`.
    Bool(bool),
    /// `CFNumber`.
    Number(f64),
    /// `CFString` (or an attributed string's text).
    Text(String),
}

impl AxValue {
    /// The value as a number (`1` for true).
    pub fn number(&self) -> Option<f64> {
        match self {
            AxValue::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
            AxValue::Number(n) => Some(*n),
            AxValue::Text(t) => t.trim().parse().ok(),
        }
    }

    /// The value as text.
    pub fn text(&self) -> String {
        match self {
            AxValue::Bool(b) => b.to_string(),
            AxValue::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{}", *n as i64),
            AxValue::Number(n) => n.to_string(),
            AxValue::Text(t) => t.clone(),
        }
    }
}

/// The AX attributes of one element, read with one
/// `AXUIElementCopyMultipleAttributeValues` (plus the action names, read
/// only for roles that can act).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AxElement {
    /// `AXRole` (`AXButton`).
    pub role: String,
    /// `AXSubrole` (`AXCloseButton`, `AXSearchField`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subrole: Option<String>,
    /// `AXRoleDescription` (localized: "button").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role_description: Option<String>,
    /// `AXTitle`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `AXDescription`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `AXValue`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<AxValue>,
    /// `AXValue` can be set (`AXUIElementIsAttributeSettable`; read for
    /// text fields, sliders and steppers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_settable: Option<bool>,
    /// `AXHelp`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// `AXPlaceholderValue`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    /// `AXIdentifier`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    /// `AXEnabled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// `AXFocused`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub focused: Option<bool>,
    /// `AXSelected`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<bool>,
    /// `AXExpanded` (Chromium answers it on every element: trusted only
    /// for roles where it means something).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expanded: Option<bool>,
    /// `AXDisclosing` (outline rows: their children are shown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disclosing: Option<bool>,
    /// `AXRequired`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// `AXModal` (windows, sheets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modal: Option<bool>,
    /// `AXElementBusy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub busy: Option<bool>,
    /// `AXOrientation` (`AXHorizontalOrientation`, `AXVerticalOrientation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orientation: Option<String>,
    /// `AXMinValue`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_value: Option<f64>,
    /// `AXMaxValue`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_value: Option<f64>,
    /// `AXDisclosureLevel` (0 at the top of an outline).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disclosure_level: Option<i64>,
    /// `AXURL` (links, web areas).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// `AXMenuItemMarkChar` (a check mark on a menu item).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark_char: Option<String>,
    /// `AXMenuItemCmdChar` and its modifiers, as a key shortcut (`cmd+s`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shortcut: Option<String>,
    /// `AXPosition` and `AXSize`, in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<PointRect>,
    /// `AXUIElementCopyActionNames` (empty when not read: passive roles).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
    /// How many children `AXChildren` listed (before any cut).
    pub children_count: usize,
}

/// One element and what was read below it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NativeNode {
    /// Its attributes.
    pub element: AxElement,
    /// Its children that were read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<NativeNode>,
    /// Why children are missing (deadline, node cap, an app that stopped
    /// answering), when they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<String>,
}

impl NativeNode {
    /// This node and every node below it.
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(NativeNode::count).sum::<usize>()
    }
}

/// A window from `CGWindowListCopyWindowInfo` (front to back), with its
/// owner.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WindowFacts {
    /// `kCGWindowNumber`.
    pub number: u32,
    /// `kCGWindowOwnerPID`.
    pub pid: i32,
    /// `kCGWindowOwnerName` (the app's name).
    pub owner: String,
    /// The app's bundle identifier (`com.apple.finder`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bundle_id: Option<String>,
    /// `kCGWindowName` (needs Screen Recording; else the AX title).
    pub title: String,
    /// `kCGWindowBounds`, in points.
    pub bounds: PointRect,
    /// `kCGWindowLayer` (0: normal app windows).
    pub layer: i32,
    /// `kCGWindowIsOnscreen`.
    pub on_screen: bool,
    /// `kCGWindowAlpha`.
    pub alpha: f64,
}

/// One display from Core Graphics and AppKit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DisplayFacts {
    /// `CGDirectDisplayID`.
    pub id: u32,
    /// `CGDisplayBounds`, in points.
    pub bounds: PointRect,
    /// Pixels per point (`NSScreen.backingScaleFactor`: 2 on Retina).
    pub scale: f64,
    /// `CGMainDisplayID` (the origin of the global space).
    pub main: bool,
}

/// The displays.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScreenFacts {
    /// Every active display.
    pub displays: Vec<DisplayFacts>,
}

/// One window's tree.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowTree {
    /// The window.
    pub window: WindowFacts,
    /// Its `AXWindow` element and what was read below it (`None`: the app
    /// did not answer).
    pub root: Option<NativeNode>,
}

/// Everything one capture read: the file `cup snapshot --native-dump`
/// writes on macOS, and the fixtures of the mapping tests.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NativeDump {
    /// Always `macos`.
    pub platform: String,
    /// Where the file came from (recorded on a machine, or built from
    /// documented attribute values).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// The displays.
    pub screen: ScreenFacts,
    /// The captured windows, front to back.
    pub trees: Vec<WindowTree>,
}
