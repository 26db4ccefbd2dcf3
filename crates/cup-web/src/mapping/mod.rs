//! Pure translation of one Chromium accessibility node (CDP `AXNode`),
//! joined with what the layout snapshot knows of its DOM node, into a CUP
//! node: role, name, value, states, actions, attributes and
//! `platform.web`. No I/O: tested with fixtures on any OS.

pub mod role;

use std::num::NonZeroU32;

use cup_protocol::{
    node::{Autocomplete, Live, PlatformWeb},
    Action, Node, Orientation, Rect, Role, State,
};
use serde_json::{Map, Value};

pub use role::Kind;

/// Longest value kept (long documents and text areas are cut).
const MAX_VALUE: usize = 500;

/// A CDP accessibility node, as `Accessibility.getFullAXTree` gives it.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct AxNode {
    /// `nodeId`.
    pub id: String,
    /// Not exposed to assistive technology.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ignored: bool,
    /// `role.value`.
    pub role: String,
    /// `name.value`.
    pub name: String,
    /// `description.value`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `value.value` (as text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `properties`: name and value (a handful per node; a list is cheaper
    /// than a map for thousands of nodes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub props: Vec<(String, Value)>,
    /// `childIds`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub child_ids: Vec<String>,
    /// `backendDOMNodeId`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_id: Option<i64>,
}

fn ax_text(v: Option<&Value>) -> Option<String> {
    let v = v?.get("value")?;
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

impl AxNode {
    /// Reads one element of `getFullAXTree`'s `nodes`.
    pub fn from_cdp(v: &Value) -> Option<AxNode> {
        let id = match v.get("nodeId")? {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let props = v
            .get("properties")
            .and_then(Value::as_array)
            .map(|ps| {
                ps.iter()
                    .filter_map(|p| {
                        let name = p.get("name")?.as_str()?.to_owned();
                        let value = p.get("value")?.get("value").cloned().unwrap_or(Value::Null);
                        Some((name, value))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(AxNode {
            id,
            ignored: v.get("ignored").and_then(Value::as_bool).unwrap_or(false),
            role: ax_text(v.get("role")).unwrap_or_default(),
            name: ax_text(v.get("name")).unwrap_or_default(),
            description: ax_text(v.get("description")).filter(|d| !d.is_empty()),
            value: ax_text(v.get("value")),
            props,
            child_ids: v
                .get("childIds")
                .and_then(Value::as_array)
                .map(|c| {
                    c.iter()
                        .map(|i| match i {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            backend_id: v.get("backendDOMNodeId").and_then(Value::as_i64),
        })
    }

    /// The value of property `name`.
    pub fn prop(&self, name: &str) -> Option<&Value> {
        self.props.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    fn flag(&self, name: &str) -> bool {
        match self.prop(name) {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => s == "true",
            _ => false,
        }
    }

    fn text_prop(&self, name: &str) -> Option<String> {
        match self.prop(name)? {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    fn number(&self, name: &str) -> Option<f64> {
        match self.prop(name)? {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.parse().ok(),
            _ => None,
        }
    }
}

/// What the layout snapshot knows of a DOM node.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DomInfo<'a> {
    /// Lowercase tag name (`input`, `div`).
    pub tag: &'a str,
    /// Attributes.
    pub attrs: &'a [(String, String)],
    /// Border box in screen pixels (viewport-relative), when laid out.
    pub bounds: Option<Rect>,
    /// The element scrolls (content larger than its box, overflow set).
    pub scrollable: bool,
}

impl DomInfo<'_> {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Roles whose value is shown.
fn keeps_value(role: Role) -> bool {
    matches!(
        role,
        Role::TextBox
            | Role::SearchBox
            | Role::Combobox
            | Role::SpinButton
            | Role::Slider
            | Role::ProgressBar
            | Role::ScrollBar
    )
}

fn cut(s: &str) -> String {
    if s.chars().count() <= MAX_VALUE {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(MAX_VALUE).collect();
    out.push('…');
    out
}

/// Maps `ax` (with its DOM node's `dom`, if any) to a CUP node (id left
/// empty; the capture numbers the tree). `None`: the node is skipped and
/// its children take its place.
pub fn map(ax: &AxNode, dom: Option<&DomInfo<'_>>) -> Option<Node> {
    if ax.ignored {
        return None;
    }
    let named = !ax.name.trim().is_empty();
    let mut role = match role::map(&ax.role, named) {
        Kind::Skip => return None,
        Kind::Node(r) => r,
    };
    let tag = dom.map(|d| d.tag).unwrap_or_default();
    let input_type = dom
        .filter(|_| tag == "input")
        .map(|d| d.attr("type").unwrap_or("text").to_ascii_lowercase());
    // A toggle button is a button with a pressed state.
    if role == Role::Generic && matches!(tag, "button") {
        role = Role::Button;
    }
    let mut node = Node::new("", role, ax.name.trim());
    node.description = ax.description.clone();
    node.bounds = dom.and_then(|d| d.bounds);

    // States.
    let disabled = ax.flag("disabled");
    let readonly = ax.flag("readonly");
    let editable = ax.prop("editable").is_some();
    let mut states = Vec::new();
    if ax.flag("busy") {
        states.push(State::Busy);
    }
    match ax.prop("checked").and_then(Value::as_str) {
        Some("true") => states.push(State::Checked),
        Some("mixed") => states.push(State::Mixed),
        _ => {}
    }
    match ax.prop("expanded") {
        Some(Value::Bool(true)) => states.push(State::Expanded),
        Some(Value::Bool(false)) => states.push(State::Collapsed),
        _ => {}
    }
    if disabled {
        states.push(State::Disabled);
    }
    let text_role = matches!(
        role,
        Role::TextBox | Role::SearchBox | Role::Combobox | Role::Document | Role::Generic
    );
    if editable && !readonly && text_role && role != Role::Document {
        states.push(State::Editable);
    }
    if ax.flag("focused") {
        states.push(State::Focused);
    }
    if ax.flag("modal") {
        states.push(State::Modal);
    }
    if ax.flag("multiselectable") {
        states.push(State::MultiSelectable);
    }
    match ax.prop("pressed").and_then(Value::as_str) {
        Some("true") => states.push(State::Pressed),
        Some("mixed") if !states.contains(&State::Mixed) => states.push(State::Mixed),
        _ => {}
    }
    if readonly && role.allows_readonly() {
        states.push(State::ReadOnly);
    }
    if ax.flag("required") {
        states.push(State::Required);
    }
    if ax.flag("selected") {
        states.push(State::Selected);
    }
    states.sort_by_key(|s| s.name());
    node.states = states;

    // Value.
    if keeps_value(role) || (role == Role::Generic && editable) {
        node.value = ax.value.as_deref().map(cut);
    }
    if input_type.as_deref() == Some("password") {
        // Never echo a password; say whether there is one.
        node.value = ax
            .value
            .as_ref()
            .map(|v| "•".repeat(v.chars().count().min(16)));
    }

    // Actions.
    node.actions = actions(ax, role, &node.states, dom, editable && !readonly);

    // Attributes.
    let a = &mut node.attributes;
    if role == Role::Heading {
        a.level = ax
            .number("level")
            .and_then(|l| u32::try_from(l as i64).ok())
            .and_then(NonZeroU32::new);
    }
    if matches!(
        role,
        Role::Slider | Role::SpinButton | Role::ProgressBar | Role::ScrollBar
    ) {
        a.value_min = ax.number("valuemin");
        a.value_max = ax.number("valuemax");
        a.value_now = ax.value.as_deref().and_then(|v| v.parse().ok());
    }
    a.orientation = match ax.text_prop("orientation").as_deref() {
        Some("horizontal") => Some(Orientation::Horizontal),
        Some("vertical") => Some(Orientation::Vertical),
        _ => None,
    };
    if let Some(p) = dom
        .and_then(|d| d.attr("placeholder"))
        .filter(|p| !p.is_empty())
    {
        a.placeholder = Some(cut(p));
    }
    if role == Role::Link {
        a.url = ax
            .text_prop("url")
            .or_else(|| dom.and_then(|d| d.attr("href")).map(str::to_owned))
            .map(|u| u.chars().take(500).collect());
    }
    a.autocomplete = match ax.text_prop("autocomplete").as_deref() {
        Some("inline") => Some(Autocomplete::Inline),
        Some("list") => Some(Autocomplete::List),
        Some("both") => Some(Autocomplete::Both),
        _ => None,
    };
    a.live = match ax.text_prop("live").as_deref() {
        Some("polite") => Some(Live::Polite),
        Some("assertive") => Some(Live::Assertive),
        _ => None,
    };
    a.key_shortcut = ax.text_prop("keyshortcuts");
    a.roledescription = ax.text_prop("roledescription");
    a.pos_in_set = ax
        .number("posinset")
        .and_then(|v| u32::try_from(v as i64).ok())
        .and_then(NonZeroU32::new);
    a.set_size = ax
        .number("setsize")
        .and_then(|v| u32::try_from(v as i64).ok());
    a.row_index = ax.number("rowindex").map(|v| v as i64);
    a.col_index = ax.number("colindex").map(|v| v as i64);
    a.row_count = ax.number("rowcount").map(|v| v as i64);
    a.col_count = ax.number("colcount").map(|v| v as i64);

    // platform.web.
    let mut extra = Map::new();
    extra.insert("cdpRole".into(), Value::String(ax.role.clone()));
    if let Some(b) = ax.backend_id {
        extra.insert("backendDOMNodeId".into(), Value::from(b));
    }
    node.platform.web = Some(PlatformWeb {
        tag_name: dom.map(|d| d.tag.to_owned()).filter(|t| !t.is_empty()),
        aria_role: dom.and_then(|d| d.attr("role")).map(str::to_owned),
        input_type,
        extra,
        ..PlatformWeb::default()
    });
    Some(node)
}

fn actions(
    ax: &AxNode,
    role: Role,
    states: &[State],
    dom: Option<&DomInfo<'_>>,
    writable: bool,
) -> Vec<Action> {
    use Action as A;
    // A disabled control keeps its actions (as on the desktop): acting on
    // it reports `no_change`, and `disabled` says why.
    let mut out = Vec::new();
    match role {
        Role::Button | Role::Link | Role::MenuItem | Role::Tab | Role::Option | Role::TreeItem => {
            out.push(A::Click);
        }
        Role::Checkbox | Role::Switch | Role::MenuItemCheckbox => {
            out.extend([A::Click, A::Toggle]);
        }
        Role::Radio | Role::MenuItemRadio => out.extend([A::Click, A::Select]),
        Role::Combobox => out.push(A::Click),
        _ => {}
    }
    if matches!(role, Role::Option | Role::Tab | Role::TreeItem) {
        out.push(A::Select);
    }
    if states.contains(&State::Collapsed) {
        out.push(A::Expand);
    }
    if states.contains(&State::Expanded) {
        out.push(A::Collapse);
    }
    if writable
        && matches!(
            role,
            Role::TextBox | Role::SearchBox | Role::Combobox | Role::SpinButton | Role::Generic
        )
    {
        out.push(A::Type);
        if role != Role::Generic {
            out.push(A::SetValue);
        }
    }
    if role == Role::Combobox
        && !out.contains(&A::SetValue)
        && dom.is_some_and(|d| d.tag == "select")
    {
        out.push(A::Select);
    }
    if matches!(role, Role::Slider | Role::SpinButton) {
        out.extend([A::Increment, A::Decrement]);
        if role == Role::Slider {
            out.push(A::SetValue);
        }
    }
    if matches!(role, Role::Dialog | Role::AlertDialog) {
        out.push(A::Dismiss);
    }
    if dom.is_some_and(|d| d.scrollable) {
        out.push(A::Scroll);
    }
    if out.is_empty() && ax.flag("focusable") && role != Role::Document {
        out.push(A::Focus);
    }
    // Clickable DOM nodes without a widget role (onclick handlers).
    if out.is_empty() && dom.is_some_and(|d| d.attr("onclick").is_some()) {
        out.push(A::Click);
    }
    let mut seen = Vec::new();
    out.retain(|a| {
        let new = !seen.contains(a);
        seen.push(*a);
        new
    });
    out
}

#[cfg(test)]
mod tests;
