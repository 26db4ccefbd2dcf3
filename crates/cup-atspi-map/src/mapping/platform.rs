//! The `platform.linux` escape hatch: raw AT-SPI facts of a node.

use cup_protocol::node::PlatformLinux;
use serde_json::{Map, Value};

use super::role::atspi_role_name;
use crate::facts::{Interface, InterfaceSet, RawNode};

/// The short D-Bus interface name (`org.a11y.atspi.Text` → `Text`).
pub fn interface_name(interface: Interface) -> &'static str {
    match interface {
        Interface::Accessible => "Accessible",
        Interface::Action => "Action",
        Interface::Application => "Application",
        Interface::Cache => "Cache",
        Interface::Collection => "Collection",
        Interface::Component => "Component",
        Interface::Document => "Document",
        Interface::DeviceEventController => "DeviceEventController",
        Interface::DeviceEventListener => "DeviceEventListener",
        Interface::EditableText => "EditableText",
        Interface::Hyperlink => "Hyperlink",
        Interface::Hypertext => "Hypertext",
        Interface::Image => "Image",
        Interface::Registry => "Registry",
        Interface::Selection => "Selection",
        Interface::Socket => "Socket",
        Interface::Table => "Table",
        Interface::TableCell => "TableCell",
        Interface::Text => "Text",
        Interface::Value => "Value",
    }
}

/// Short names of the interfaces, sorted.
pub fn interface_names(interfaces: InterfaceSet) -> Vec<String> {
    let mut names: Vec<String> = interfaces
        .iter()
        .map(|i| interface_name(i).to_owned())
        .collect();
    names.sort();
    names
}

/// `platform.linux`: `atspiRole` (`ROLE_PUSH_BUTTON` form), `interfaces`
/// (sorted short names, left out when none were read) and the extra keys
/// `toolkit`, `busName`, `path` (when known), `actions` (raw action names,
/// when any), `id` and `class` (object attributes, when present).
pub fn map_platform(raw: &RawNode) -> PlatformLinux {
    let mut extra = Map::new();
    let mut put = |key: &str, value: &str| {
        if !value.is_empty() {
            extra.insert(key.to_owned(), Value::String(value.to_owned()));
        }
    };
    put("toolkit", &raw.toolkit);
    put("busName", &raw.bus_name);
    put("path", &raw.path);
    for key in ["id", "class"] {
        if let Some(v) = raw.attributes.get(key) {
            put(key, v);
        }
    }
    if !raw.action_names.is_empty() {
        extra.insert(
            "actions".to_owned(),
            Value::Array(
                raw.action_names
                    .iter()
                    .map(|n| Value::String(n.clone()))
                    .collect(),
            ),
        );
    }
    let interfaces = interface_names(raw.interfaces);
    PlatformLinux {
        atspi_role: Some(atspi_role_name(raw.role)),
        interfaces: (!interfaces.is_empty()).then_some(interfaces),
        extra,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::AtspiRole;

    #[test]
    fn interface_names_are_sorted_short_names() {
        let mut set = InterfaceSet::empty();
        for i in [
            Interface::Value,
            Interface::Accessible,
            Interface::Text,
            Interface::EditableText,
            Interface::Action,
        ] {
            set.insert(i);
        }
        assert_eq!(
            interface_names(set),
            ["Accessible", "Action", "EditableText", "Text", "Value"]
        );
        assert_eq!(interface_names(InterfaceSet::all()).len(), 20);
    }

    #[test]
    fn extras_are_kept_only_when_known() {
        let mut raw = RawNode::new(AtspiRole::Button);
        let p = map_platform(&raw);
        assert_eq!(p.atspi_role.as_deref(), Some("ROLE_PUSH_BUTTON"));
        assert_eq!(p.interfaces, None);
        assert!(p.extra.is_empty());
        raw.toolkit = "Qt".into();
        raw.bus_name = ":1.42".into();
        raw.path = "/org/a11y/atspi/accessible/7".into();
        raw.action_names = vec!["Press".into(), "SetFocus".into()];
        raw.attributes.insert("id".into(), "ok-button".into());
        raw.attributes.insert("class".into(), "btn primary".into());
        let p = map_platform(&raw);
        assert_eq!(
            serde_json::to_value(&p).expect("serializes"),
            serde_json::json!({
                "atspiRole": "ROLE_PUSH_BUTTON",
                "toolkit": "Qt",
                "busName": ":1.42",
                "path": "/org/a11y/atspi/accessible/7",
                "id": "ok-button",
                "class": "btn primary",
                "actions": ["Press", "SetFocus"],
            })
        );
    }
}
