//! The CUP node: one UI element, with its bounds, attributes and the
//! per-platform escape hatch. Field names and optionality follow
//! `cup.schema.json` exactly.

use std::num::NonZeroU32;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::vocab::{Action, Role, State};

/// A UI element. `id`, `role` and `name` are required; every other field is
/// omitted from JSON when empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Node {
    /// `e` followed by a number, assigned in pre-order during capture.
    #[serde(deserialize_with = "crate::checked::node_id")]
    pub id: String,
    /// Canonical role.
    pub role: Role,
    /// Accessible name (may be empty).
    pub name: String,
    /// Secondary accessible description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Current value, as a string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Bounding rectangle in absolute screen pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Rect>,
    /// Active states (unique).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::checked::unique"
    )]
    pub states: Vec<State>,
    /// Supported actions (unique).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::checked::unique"
    )]
    pub actions: Vec<Action>,
    /// Semantic attributes.
    #[serde(default, skip_serializing_if = "Attributes::is_empty")]
    pub attributes: Attributes,
    /// Child nodes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
    /// Raw native properties, keyed by platform.
    #[serde(default, skip_serializing_if = "PlatformData::is_empty")]
    pub platform: PlatformData,
}

impl Node {
    /// A copy of this node without its children (cheaper than a deep clone
    /// followed by clearing them).
    pub fn clone_without_children(&self) -> Node {
        Node {
            id: self.id.clone(),
            role: self.role,
            name: self.name.clone(),
            description: self.description.clone(),
            value: self.value.clone(),
            bounds: self.bounds,
            states: self.states.clone(),
            actions: self.actions.clone(),
            attributes: self.attributes.clone(),
            children: Vec::new(),
            platform: self.platform.clone(),
        }
    }

    /// A node with only the required fields set.
    pub fn new(id: impl Into<String>, role: Role, name: impl Into<String>) -> Self {
        Node {
            id: id.into(),
            role,
            name: name.into(),
            description: None,
            value: None,
            bounds: None,
            states: Vec::new(),
            actions: Vec::new(),
            attributes: Attributes::default(),
            children: Vec::new(),
            platform: PlatformData::default(),
        }
    }

    /// `true` when the node has the state.
    pub fn has_state(&self, state: State) -> bool {
        self.states.contains(&state)
    }

    /// `true` when the node was read from the pixels of its window (OCR),
    /// not from the accessibility tree: its `platform` entry holds an
    /// `ocr` key (with the recognition's confidence). Such a node has no
    /// native element behind it; a click on it is a pointer click at its
    /// centre.
    pub fn is_from_pixels(&self) -> bool {
        let p = &self.platform;
        [
            p.windows.as_ref().map(|x| &x.extra),
            p.macos.as_ref().map(|x| &x.extra),
            p.linux.as_ref().map(|x| &x.extra),
            p.web.as_ref().map(|x| &x.extra),
            p.android.as_ref().map(|x| &x.extra),
            p.ios.as_ref().map(|x| &x.extra),
        ]
        .into_iter()
        .flatten()
        .any(|extra| extra.contains_key(OCR_KEY))
    }

    /// Marks the node as read from pixels on `platform`, with Tesseract's
    /// `confidence` (0-100).
    pub fn mark_from_pixels(&mut self, platform: crate::envelope::PlatformId, confidence: f32) {
        use crate::envelope::PlatformId as P;
        let value =
            serde_json::json!({ "confidence": (f64::from(confidence) * 10.0).round() / 10.0 });
        let p = &mut self.platform;
        let extra = match platform {
            P::Windows => &mut p.windows.get_or_insert_with(Default::default).extra,
            P::Macos => &mut p.macos.get_or_insert_with(Default::default).extra,
            P::Linux => &mut p.linux.get_or_insert_with(Default::default).extra,
            P::Web => &mut p.web.get_or_insert_with(Default::default).extra,
            P::Android => &mut p.android.get_or_insert_with(Default::default).extra,
            P::Ios => &mut p.ios.get_or_insert_with(Default::default).extra,
        };
        extra.insert(OCR_KEY.to_owned(), value);
    }

    /// `true` when the node has an action other than `focus`.
    pub fn has_meaningful_action(&self) -> bool {
        self.actions.iter().any(|a| a.is_meaningful())
    }

    /// Number of nodes in this subtree, the node included.
    pub fn subtree_len(&self) -> usize {
        1 + self.children.iter().map(Node::subtree_len).sum::<usize>()
    }

    /// Pre-order iterator over this subtree.
    pub fn iter(&self) -> impl Iterator<Item = &Node> {
        let mut stack = vec![self];
        std::iter::from_fn(move || {
            let node = stack.pop()?;
            stack.extend(node.children.iter().rev());
            Some(node)
        })
    }
}

/// Rectangle in pixels. `w` and `h` are never negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    /// Left edge.
    pub x: i64,
    /// Top edge.
    pub y: i64,
    /// Width.
    pub w: u64,
    /// Height.
    pub h: u64,
}

impl Rect {
    /// A rectangle from position and size.
    pub const fn new(x: i64, y: i64, w: u64, h: u64) -> Self {
        Rect { x, y, w, h }
    }

    /// Right edge (exclusive).
    pub fn right(&self) -> i64 {
        self.x
            .saturating_add(i64::try_from(self.w).unwrap_or(i64::MAX))
    }

    /// Bottom edge (exclusive).
    pub fn bottom(&self) -> i64 {
        self.y
            .saturating_add(i64::try_from(self.h).unwrap_or(i64::MAX))
    }

    /// `true` when width or height is zero.
    pub fn is_empty(&self) -> bool {
        self.w == 0 || self.h == 0
    }

    /// The overlap of two rectangles; an empty overlap has zero size at the
    /// clamped position.
    pub fn intersect(&self, other: &Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        let r = self.right().min(other.right());
        let b = self.bottom().min(other.bottom());
        Rect {
            x,
            y,
            w: u64::try_from(r - x).unwrap_or(0),
            h: u64::try_from(b - y).unwrap_or(0),
        }
    }

    /// The centre point.
    pub fn center(&self) -> (i64, i64) {
        (
            self.x + i64::try_from(self.w / 2).unwrap_or(0),
            self.y + i64::try_from(self.h / 2).unwrap_or(0),
        )
    }
}

/// Orientation of scrollbars, sliders, separators, toolbars, tab lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Orientation {
    /// Left to right.
    Horizontal,
    /// Top to bottom.
    Vertical,
}

/// ARIA live-region politeness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Live {
    /// Announce when idle.
    Polite,
    /// Announce at once.
    Assertive,
    /// Not live.
    Off,
}

/// Autocomplete hint for comboboxes and text boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Autocomplete {
    /// Completion is shown inline.
    Inline,
    /// Completion is shown in a list.
    List,
    /// Both inline and list.
    Both,
    /// No completion.
    None,
}

/// Structured semantic attributes (all optional).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Attributes {
    /// Heading level or tree depth (≥ 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<NonZeroU32>,
    /// Minimum of a range widget.
    #[serde(default, skip_serializing_if = "not_finite")]
    pub value_min: Option<f64>,
    /// Maximum of a range widget.
    #[serde(default, skip_serializing_if = "not_finite")]
    pub value_max: Option<f64>,
    /// Current value of a range widget.
    #[serde(default, skip_serializing_if = "not_finite")]
    pub value_now: Option<f64>,
    /// Axis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orientation: Option<Orientation>,
    /// Zero-based row index in a table or grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_index: Option<i64>,
    /// Zero-based column index in a table or grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub col_index: Option<i64>,
    /// Rows in the containing table or grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_count: Option<i64>,
    /// Columns in the containing table or grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub col_count: Option<i64>,
    /// One-based position within a set (≥ 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pos_in_set: Option<NonZeroU32>,
    /// Size of the set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_size: Option<u32>,
    /// Placeholder text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    /// Target URL of a link or image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Live-region politeness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<Live>,
    /// Autocomplete hint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autocomplete: Option<Autocomplete>,
    /// Keyboard shortcut, e.g. `Ctrl+S`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_shortcut: Option<String>,
    /// Human-readable role label override.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roledescription: Option<String>,
}

/// A missing or non-finite number is left out of JSON (JSON has no NaN).
fn not_finite(v: &Option<f64>) -> bool {
    !v.is_some_and(f64::is_finite)
}

impl Attributes {
    /// `true` when no attribute is set.
    pub fn is_empty(&self) -> bool {
        *self == Attributes::default()
    }
}

/// The key of a node's `platform` entry that marks it as read from pixels
/// ([`Node::is_from_pixels`]).
pub const OCR_KEY: &str = "ocr";

/// The `platform` escape hatch: raw native properties keyed by platform.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlatformData {
    /// Windows UI Automation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub windows: Option<PlatformWindows>,
    /// macOS Accessibility.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub macos: Option<PlatformMacOs>,
    /// Linux AT-SPI2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linux: Option<PlatformLinux>,
    /// Web / DOM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web: Option<PlatformWeb>,
    /// Android.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub android: Option<PlatformAndroid>,
    /// iOS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ios: Option<PlatformIos>,
}

impl PlatformData {
    /// `true` when no platform entry is set.
    pub fn is_empty(&self) -> bool {
        self.windows.is_none()
            && self.macos.is_none()
            && self.linux.is_none()
            && self.web.is_none()
            && self.android.is_none()
            && self.ios.is_none()
    }
}

/// Raw Windows UIA properties (extra keys allowed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlatformWindows {
    /// UIA ControlType id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control_type: Option<i64>,
    /// UIA AutomationId.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub automation_id: Option<String>,
    /// Win32 class name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_name: Option<String>,
    /// Supported control patterns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patterns: Option<Vec<String>>,
    /// Window handle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hwnd: Option<i64>,
    /// Any other raw property.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Raw macOS AX properties (extra keys allowed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlatformMacOs {
    /// AXRole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ax_role: Option<String>,
    /// AXSubrole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ax_subrole: Option<String>,
    /// AXIdentifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ax_identifier: Option<String>,
    /// Supported AX actions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ax_actions: Option<Vec<String>>,
    /// Any other raw property.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Raw Linux AT-SPI2 properties (extra keys allowed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlatformLinux {
    /// AT-SPI role, e.g. `ROLE_PUSH_BUTTON`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub atspi_role: Option<String>,
    /// Implemented AT-SPI interfaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interfaces: Option<Vec<String>>,
    /// Any other raw property.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Raw web/DOM properties (extra keys allowed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlatformWeb {
    /// HTML tag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_name: Option<String>,
    /// Explicit ARIA role.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aria_role: Option<String>,
    /// CSS selector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// XPath.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xpath: Option<String>,
    /// `type` attribute of an input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_type: Option<String>,
    /// Any other raw property.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Raw Android properties (extra keys allowed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlatformAndroid {
    /// Java class name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_name: Option<String>,
    /// View resource id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<String>,
    /// Package name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package_name: Option<String>,
    /// Clickable flag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_clickable: Option<bool>,
    /// Scrollable flag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_scrollable: Option<bool>,
    /// Any other raw property.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Raw iOS properties (extra keys allowed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlatformIos {
    /// XCUIElementType.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element_type: Option<String>,
    /// Accessibility identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    /// Trait flags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traits: Option<Vec<String>>,
    /// Any other raw property.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intersect_clamps_to_empty() {
        let a = Rect::new(0, 0, 10, 10);
        let b = Rect::new(20, 20, 5, 5);
        assert!(a.intersect(&b).is_empty());
        assert_eq!(a.intersect(&Rect::new(5, 5, 10, 10)), Rect::new(5, 5, 5, 5));
    }

    #[test]
    fn optional_fields_are_omitted() {
        let node = Node::new("e0", Role::Button, "OK");
        let json = serde_json::to_string(&node).expect("serializes");
        assert_eq!(json, r#"{"id":"e0","role":"button","name":"OK"}"#);
    }

    #[test]
    fn unknown_node_field_is_rejected() {
        let err =
            serde_json::from_str::<Node>(r#"{"id":"e0","role":"button","name":"","_clipped":1}"#)
                .expect_err("must fail");
        assert!(err.to_string().contains("_clipped"), "{err}");
    }

    #[test]
    fn platform_extra_keys_round_trip() {
        let json = r#"{"id":"e0","role":"button","name":"","platform":{"linux":{"atspiRole":"push-button","toolkit":"GTK"}}}"#;
        let node: Node = serde_json::from_str(json).expect("parses");
        let linux = node.platform.linux.as_ref().expect("linux");
        assert_eq!(linux.extra["toolkit"], "GTK");
        assert_eq!(serde_json::to_string(&node).expect("serializes"), json);
    }
}
