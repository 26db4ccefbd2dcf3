//! What the capture reads from AT-SPI for one accessible, before any
//! translation: plain data, so the mapping to CUP is tested without a bus.

use std::collections::HashMap;

pub use atspi_common::{Interface, InterfaceSet, Role as AtspiRole, State as AtspiState, StateSet};

/// A rectangle as AT-SPI reports it (`GetExtents`): position may be negative,
/// size may be `-1` for "unknown".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Extents {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

impl Extents {
    /// GTK reports `(i32::MIN, i32::MIN)` for widgets that are not placed on
    /// screen (unmapped popovers and menus): a position that means "none".
    pub fn is_unplaced(&self) -> bool {
        self.x == i32::MIN || self.y == i32::MIN
    }

    /// Not placed, or an empty rectangle: what GTK 4 answers for a widget
    /// it has not allocated (a list row scrolled out of its view), GTK 4
    /// having no SHOWING state.
    pub fn is_unallocated(&self) -> bool {
        self.is_unplaced() || (self.w == 0 && self.h == 0)
    }
}

/// Range of a `Value` interface.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct RawValue {
    /// `CurrentValue`.
    pub current: f64,
    /// `MinimumValue`.
    pub minimum: f64,
    /// `MaximumValue`.
    pub maximum: f64,
    /// `MinimumIncrement`.
    pub increment: f64,
    /// `Text` property (AT-SPI ≥ 2.46), when the toolkit sets one.
    pub text: Option<String>,
}

/// One AT-SPI accessible as read from the bus.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RawNode {
    /// AT-SPI role.
    pub role: AtspiRole,
    /// `Name` property.
    pub name: String,
    /// `Description` property.
    pub description: String,
    /// `GetState`.
    pub states: StateSet,
    /// `GetInterfaces`.
    pub interfaces: InterfaceSet,
    /// Screen-coordinate extents (`Component.GetExtents(SCREEN)`), if the
    /// node implements `Component`. Already converted to screen coordinates
    /// for toolkits that report window-relative ones (GTK4).
    pub extents: Option<Extents>,
    /// Raw action names of the `Action` interface (`GetActions`), in order.
    pub action_names: Vec<String>,
    /// `Value` interface.
    pub value: Option<RawValue>,
    /// `Text` interface content (capped), for text-bearing roles.
    pub text: Option<String>,
    /// `GetAttributes` (object attributes such as `xml-roles`, `level`,
    /// `placeholder-text`, `toolkit`), when read.
    pub attributes: HashMap<String, String>,
    /// `Selection` interface present on the parent (its children can be
    /// selected).
    pub parent_selectable: bool,
    /// D-Bus unique name of the application owning the object.
    pub bus_name: String,
    /// Object path.
    pub path: String,
    /// Toolkit name of the application (`Application.ToolkitName`).
    pub toolkit: String,
    /// Toolkit version (`Application.Version`), e.g. `4.8.3`.
    pub toolkit_version: String,
}

/// `true` for GTK 4 (`ToolkitName` "GTK", `Version` "4.x"), whose
/// extents are window-relative and whose backend has no SHOWING state.
pub fn is_gtk4(toolkit: &str, version: &str) -> bool {
    toolkit.eq_ignore_ascii_case("gtk") && version.starts_with("4.")
}

/// `true` for GTK 2: its bridge names the toolkit "GAIL" (GIMP 2.10),
/// or "GTK" with a 2.x version.
pub fn is_gtk2(toolkit: &str, version: &str) -> bool {
    toolkit.eq_ignore_ascii_case("gail")
        || (toolkit.eq_ignore_ascii_case("gtk") && version.starts_with("2."))
}

/// `true` for GTK 2 and 3 (atk-bridge), which answer every call on their
/// main loop and make an X round trip for each `GetExtents`. GTK 2's
/// bridge names its toolkit "GAIL" ([`is_gtk2`]).
pub fn is_gtk_before_4(toolkit: &str, version: &str) -> bool {
    is_gtk2(toolkit, version) || (toolkit.eq_ignore_ascii_case("gtk") && version.starts_with("3."))
}

impl RawNode {
    /// GTK 4 (its AT-SPI backend never reports SHOWING, and before 4.10
    /// reports SENSITIVE only on widgets that were once made insensitive).
    pub fn gtk4_minor(&self) -> Option<u32> {
        if !self.toolkit.eq_ignore_ascii_case("gtk") {
            return None;
        }
        let mut parts = self.toolkit_version.split('.');
        (parts.next()? == "4").then(|| parts.next().and_then(|m| m.parse().ok()).unwrap_or(0))
    }

    /// A node of this role with every other field empty.
    pub fn new(role: AtspiRole) -> Self {
        RawNode {
            role,
            name: String::new(),
            description: String::new(),
            states: StateSet::empty(),
            interfaces: InterfaceSet::empty(),
            extents: None,
            action_names: Vec::new(),
            value: None,
            text: None,
            attributes: HashMap::new(),
            parent_selectable: false,
            bus_name: String::new(),
            path: String::new(),
            toolkit: String::new(),
            toolkit_version: String::new(),
        }
    }
}

/// A captured accessible with its children, as `cup snapshot --native-dump`
/// writes them: the mapping's exact input, by CUP id.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RawTree {
    /// The CUP id the node got.
    pub id: String,
    /// What was read.
    pub raw: RawNode,
    /// Children, in order.
    pub children: Vec<RawTree>,
}
