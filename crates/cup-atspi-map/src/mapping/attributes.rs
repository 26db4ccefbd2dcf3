//! Object attributes, Value and orientation states → CUP `attributes`.

use std::num::NonZeroU32;

use cup_protocol::node::{Autocomplete, Live};
use cup_protocol::{Attributes, Orientation, Role};

use super::kinds;
use super::text::{cap, one_line};
use crate::facts::{AtspiState, RawNode};

/// Longest URL kept.
pub const URL_MAX: usize = 500;
/// Longest placeholder, shortcut or role description kept.
pub const SHORT_TEXT_MAX: usize = 200;

fn attr<'a>(raw: &'a RawNode, key: &str) -> Option<&'a str> {
    raw.attributes
        .get(key)
        .map(|v| v.trim())
        .filter(|v| !v.is_empty())
}

fn int(raw: &RawNode, key: &str) -> Option<i64> {
    attr(raw, key)?.parse().ok()
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn short_text(raw: &RawNode, key: &str) -> Option<String> {
    attr(raw, key)
        .map(|v| one_line(v, SHORT_TEXT_MAX))
        .filter(|v| !v.is_empty())
}

/// The CUP attributes of a node:
///
/// - `level` (≥ 1) from the `level` attribute of headings and tree items;
/// - `valueMin`/`valueMax`/`valueNow` from the Value of range roles
///   (non-finite numbers left out);
/// - `orientation` from HORIZONTAL/VERTICAL (exactly one) on scroll bars,
///   sliders, separators, toolbars, tab lists and menu bars;
/// - `placeholder` from `placeholder-text` on text inputs;
/// - `url` from `href` on links (capped at [`URL_MAX`]);
/// - `posInSet` (≥ 1) / `setSize` (≥ 0) from `posinset` / `setsize`;
/// - `rowIndex` / `colIndex` from the 1-based ARIA `rowindex` / `colindex`,
///   made 0-based; `rowCount` / `colCount` from `rowcount` / `colcount`
///   (≥ 0; ARIA's -1 = unknown is left out);
/// - `keyShortcut` from `keyshortcuts`, `roledescription` from
///   `roledescription`;
/// - `live` from `live` and `autocomplete` from `autocomplete` when the
///   value is one the schema allows.
///
/// Unparsable values are ignored.
pub fn map_attributes(raw: &RawNode, role: Role) -> Attributes {
    let mut a = Attributes::default();
    if matches!(role, Role::Heading | Role::TreeItem) {
        a.level = attr(raw, "level")
            .and_then(|v| v.parse::<u32>().ok())
            .and_then(NonZeroU32::new);
    }
    if kinds::is_range(role) {
        if let Some(v) = &raw.value {
            a.value_min = finite(v.minimum);
            a.value_max = finite(v.maximum);
            a.value_now = finite(v.current);
        }
    }
    if role.has_orientation() {
        a.orientation = match (
            raw.states.contains(AtspiState::Horizontal),
            raw.states.contains(AtspiState::Vertical),
        ) {
            (true, false) => Some(Orientation::Horizontal),
            (false, true) => Some(Orientation::Vertical),
            _ => None,
        };
    }
    if kinds::is_text_input(role) {
        a.placeholder = short_text(raw, "placeholder-text");
    }
    if role == Role::Link {
        a.url = attr(raw, "href").map(|u| cap(u, URL_MAX));
    }
    a.pos_in_set = int(raw, "posinset")
        .and_then(|v| u32::try_from(v).ok())
        .and_then(NonZeroU32::new);
    a.set_size = int(raw, "setsize").and_then(|v| u32::try_from(v).ok());
    a.row_index = int(raw, "rowindex").filter(|v| *v >= 1).map(|v| v - 1);
    a.col_index = int(raw, "colindex").filter(|v| *v >= 1).map(|v| v - 1);
    a.row_count = int(raw, "rowcount").filter(|v| *v >= 0);
    a.col_count = int(raw, "colcount").filter(|v| *v >= 0);
    a.key_shortcut = short_text(raw, "keyshortcuts");
    a.roledescription = short_text(raw, "roledescription");
    a.live = match attr(raw, "live") {
        Some("polite") => Some(Live::Polite),
        Some("assertive") => Some(Live::Assertive),
        Some("off") => Some(Live::Off),
        _ => None,
    };
    a.autocomplete = match attr(raw, "autocomplete") {
        Some("inline") => Some(Autocomplete::Inline),
        Some("list") => Some(Autocomplete::List),
        Some("both") => Some(Autocomplete::Both),
        Some("none") => Some(Autocomplete::None),
        _ => None,
    };
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{AtspiRole, RawValue};

    fn with_attrs(role: AtspiRole, attrs: &[(&str, &str)]) -> RawNode {
        let mut raw = RawNode::new(role);
        for (k, v) in attrs {
            raw.attributes.insert((*k).to_owned(), (*v).to_owned());
        }
        raw
    }

    #[test]
    fn level_only_for_headings_and_tree_items() {
        let raw = with_attrs(AtspiRole::Heading, &[("level", "2")]);
        assert_eq!(
            map_attributes(&raw, Role::Heading).level,
            NonZeroU32::new(2)
        );
        assert_eq!(
            map_attributes(&raw, Role::TreeItem).level,
            NonZeroU32::new(2)
        );
        assert_eq!(map_attributes(&raw, Role::ListItem).level, None);
        let raw = with_attrs(AtspiRole::Heading, &[("level", "0")]);
        assert_eq!(map_attributes(&raw, Role::Heading).level, None);
        let raw = with_attrs(AtspiRole::Heading, &[("level", "two")]);
        assert_eq!(map_attributes(&raw, Role::Heading).level, None);
    }

    #[test]
    fn range_values_skip_non_finite() {
        let mut raw = RawNode::new(AtspiRole::Slider);
        raw.value = Some(RawValue {
            current: 5.0,
            minimum: f64::NEG_INFINITY,
            maximum: 10.0,
            ..RawValue::default()
        });
        let a = map_attributes(&raw, Role::Slider);
        assert_eq!(
            (a.value_min, a.value_max, a.value_now),
            (None, Some(10.0), Some(5.0))
        );
        assert!(map_attributes(&raw, Role::Button).is_empty());
    }

    #[test]
    fn orientation_needs_exactly_one_axis() {
        let mut raw = RawNode::new(AtspiRole::ScrollBar);
        raw.states.insert(AtspiState::Vertical);
        assert_eq!(
            map_attributes(&raw, Role::ScrollBar).orientation,
            Some(Orientation::Vertical)
        );
        raw.states.insert(AtspiState::Horizontal);
        assert_eq!(map_attributes(&raw, Role::ScrollBar).orientation, None);
        let mut raw = RawNode::new(AtspiRole::Label);
        raw.states.insert(AtspiState::Horizontal);
        assert_eq!(map_attributes(&raw, Role::Text).orientation, None);
    }

    #[test]
    fn web_attributes() {
        let raw = with_attrs(
            AtspiRole::Link,
            &[
                ("href", "https://example.com/"),
                ("posinset", "3"),
                ("setsize", "10"),
                ("rowindex", "1"),
                ("colindex", "4"),
                ("rowcount", "-1"),
                ("colcount", "7"),
                ("keyshortcuts", "Control+S"),
                ("roledescription", "slide"),
                ("live", "polite"),
                ("autocomplete", "list"),
            ],
        );
        let a = map_attributes(&raw, Role::Link);
        assert_eq!(a.url.as_deref(), Some("https://example.com/"));
        assert_eq!(a.pos_in_set, NonZeroU32::new(3));
        assert_eq!(a.set_size, Some(10));
        assert_eq!(a.row_index, Some(0));
        assert_eq!(a.col_index, Some(3));
        assert_eq!(a.row_count, None);
        assert_eq!(a.col_count, Some(7));
        assert_eq!(a.key_shortcut.as_deref(), Some("Control+S"));
        assert_eq!(a.roledescription.as_deref(), Some("slide"));
        assert_eq!(a.live, Some(Live::Polite));
        assert_eq!(a.autocomplete, Some(Autocomplete::List));
    }

    #[test]
    fn bad_values_are_ignored() {
        let raw = with_attrs(
            AtspiRole::ListItem,
            &[
                ("posinset", "0"),
                ("setsize", "-1"),
                ("rowindex", "0"),
                ("live", "rude"),
                ("autocomplete", "yes"),
                ("placeholder-text", "Name"),
                ("href", "x"),
            ],
        );
        assert!(map_attributes(&raw, Role::ListItem).is_empty());
        let long = "u".repeat(900);
        let raw = with_attrs(AtspiRole::Link, &[("href", &long)]);
        assert_eq!(
            map_attributes(&raw, Role::Link).url.map(|u| u.len()),
            Some(URL_MAX)
        );
    }
}
