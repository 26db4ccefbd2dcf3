//! WDA facts → CUP nodes, as pure functions of [`WdaElement`]s.
//!
//! - Roles: a table of every XCUIElementType (the spec's `mappings.json`
//!   iOS column where it names a type, with the context its `?` cells ask
//!   for: a button in a tab bar is a tab, a cell of a table is a list item,
//!   a collection view whose cells span its width is a list, else a grid),
//!   then the element's traits for `Other` (`Button`, `Link`, `Header`,
//!   ...), then the `mappings.json` column for types the table does not
//!   know. Two deliberate departures from that column: `table` is a
//!   `list` (a UITableView is one column of rows), and a `picker` is a
//!   `group` of wheels, each a `spinbutton` (not a `combobox`).
//! - Names: the label, then WDA's `name` unless it looks like an
//!   identifier ([`identifier_like`]), then a static text's value, then a
//!   text input's placeholder.
//! - Bounds: points × scale, rounded: device pixels, like Android.
//! - Pruning: an `Other` with no name, value, state or action is replaced
//!   by its only child, or left out when it has none; an unnamed window
//!   with nothing in it is left out. The rest is kept, one node per
//!   element, in the source's order.

use std::collections::HashMap;
use std::time::Instant;

use cup_protocol::mappings::Mappings;
use cup_protocol::node::{Orientation, PlatformData, PlatformIos};
use cup_protocol::text::{cap, one_line, NAME_MAX, VALUE_MAX};
use cup_protocol::{Action, Attributes, Node, PlatformId, Rect, Role, State};
use serde_json::{Map, Value};

use crate::facts::{NativeDump, ScreenFacts, WdaElement, WdaRect, TYPE_PREFIX};
use crate::refs::ElementRef;

/// What a secure text field's value shows when it holds something.
pub const MASK: &str = "••••••••";

/// What the mapping of an element knows of its parent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Context<'a> {
    /// The parent's type (empty at the root).
    pub parent_type: &'a str,
    /// The parent's CUP role.
    pub parent_role: Option<Role>,
}

/// Whether `s` looks like a developer's identifier rather than words for
/// people: no spaces, ASCII, and a `_`, `.`, `:` or `/`, a lowercase start
/// with a capital after its second letter (`loginButton`, not `iPhone`),
/// three or more camel-case words (`TabBarItemTitle`, not `AirDrop`), or
/// hyphens without capitals (`btn-login`, not `Wi-Fi`).
pub fn identifier_like(s: &str) -> bool {
    let s = s.trim();
    if s.is_empty() || s.chars().any(|c| c.is_whitespace() || !c.is_ascii()) {
        return false;
    }
    let lower_start = s.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    let capital_inside = s.chars().skip(2).any(|c| c.is_ascii_uppercase());
    let humps = s
        .as_bytes()
        .windows(2)
        .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        .count();
    let no_capitals = !s.chars().any(|c| c.is_ascii_uppercase());
    s.contains(['_', '.', ':', '/'])
        || (lower_start && capital_inside)
        || humps >= 2
        || (s.contains('-') && no_capitals)
}

fn nonempty(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

fn is_text_input(ty: &str) -> bool {
    matches!(
        ty,
        "TextField" | "SecureTextField" | "SearchField" | "TextView"
    )
}

fn truthy(v: Option<&str>) -> bool {
    v.is_some_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "on" | "yes"
        )
    })
}

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

/// The name of `el`: its label, else WDA's `name` unless it looks like an
/// identifier, else a static text's value, else a text input's
/// placeholder.
pub fn name(el: &WdaElement) -> String {
    let ty = el.element_type.as_str();
    let found = nonempty(el.label.as_deref())
        .or_else(|| nonempty(el.name.as_deref()).filter(|n| !identifier_like(n)))
        .or_else(|| {
            (ty == "StaticText")
                .then(|| nonempty(el.value.as_deref()))
                .flatten()
        })
        .or_else(|| {
            is_text_input(ty)
                .then(|| nonempty(el.placeholder_value.as_deref()))
                .flatten()
        })
        .unwrap_or("");
    one_line(found, NAME_MAX)
}

/// Whether WDA's value of a text input is its placeholder (WDA reports
/// the placeholder as the value of an empty field).
fn shows_placeholder(el: &WdaElement) -> bool {
    nonempty(el.value.as_deref()).is_some()
        && el.value.as_deref().map(str::trim) == nonempty(el.placeholder_value.as_deref())
}

/// The value of `el` (named `name`): a text input's text (masked for
/// secure fields, absent when it only shows its placeholder), a slider's
/// or progress indicator's value, other elements' value when it says more
/// than their name. Switches, check boxes and selected buttons say theirs
/// in states.
pub fn value(el: &WdaElement, name: &str) -> Option<String> {
    let raw = el.value.as_deref().filter(|v| !v.trim().is_empty())?;
    match el.element_type.as_str() {
        "SecureTextField" => (!shows_placeholder(el)).then(|| MASK.to_owned()),
        "TextField" | "TextView" | "SearchField" => {
            (!shows_placeholder(el)).then(|| cap(raw, VALUE_MAX))
        }
        "Switch" | "Toggle" | "CheckBox" | "RadioButton" | "StaticText" => None,
        "Button" if raw.trim() == "1" => None,
        _ => {
            let v = one_line(raw, VALUE_MAX);
            (v != name).then_some(v)
        }
    }
}

/// Selected in any of the ways WDA says it: `isSelected`, the `Selected`
/// trait, or a button's value `1`.
fn is_selected(el: &WdaElement) -> bool {
    el.selected == Some(true)
        || el.has_trait("Selected")
        || (el.element_type == "Button" && el.value.as_deref().map(str::trim) == Some("1"))
}

/// The states of `el` (role `role`) on a screen of `screen` points.
pub fn states(el: &WdaElement, role: Role, screen: &WdaRect) -> Vec<State> {
    let mut out = Vec::new();
    let disabled = el.enabled == Some(false) || el.has_trait("NotEnabled");
    if disabled {
        out.push(State::Disabled);
    }
    let selected = is_selected(el);
    match role {
        Role::Switch | Role::Checkbox => {
            if truthy(el.value.as_deref()) || (role == Role::Checkbox && selected) {
                out.push(State::Checked);
            }
        }
        Role::Radio => {
            if selected {
                out.push(State::Checked);
            }
        }
        Role::Button if el.has_trait("ToggleButton") => {
            if selected || truthy(el.value.as_deref()) {
                out.push(State::Pressed);
            }
        }
        _ => {
            if selected {
                out.push(State::Selected);
            }
        }
    }
    if el.focused == Some(true) {
        out.push(State::Focused);
    }
    let outside = el
        .rect
        .is_some_and(|r| !r.is_empty() && r.intersect(screen).is_empty());
    if el.visible == Some(false) || outside {
        out.push(State::Offscreen);
    }
    if matches!(role, Role::TextBox | Role::SearchBox) && !disabled {
        out.push(State::Editable);
    }
    if matches!(el.element_type.as_str(), "Alert" | "Sheet") {
        out.push(State::Modal);
    }
    if el.element_type == "ActivityIndicator" && el.visible != Some(false) {
        out.push(State::Busy);
    }
    out.sort();
    out.dedup();
    out
}

/// The actions `el` (role `role`, states `states`) offers; none when it
/// is disabled.
pub fn actions(el: &WdaElement, role: Role, states: &[State]) -> Vec<Action> {
    if states.contains(&State::Disabled) {
        return Vec::new();
    }
    let mut out = Vec::new();
    match role {
        Role::Button
        | Role::Link
        | Role::Tab
        | Role::ListItem
        | Role::Cell
        | Role::MenuItem
        | Role::Radio
        | Role::Combobox
        | Role::TreeItem
        | Role::Row => out.push(Action::Click),
        Role::Checkbox | Role::Switch => out.extend([Action::Click, Action::Toggle]),
        Role::TextBox | Role::SearchBox => {
            out.extend([Action::Click, Action::Focus, Action::SetValue, Action::Type]);
        }
        Role::Slider | Role::SpinButton => out.extend([Action::Decrement, Action::Increment]),
        _ => {}
    }
    if el.has_trait("Button") || el.has_trait("Link") {
        out.push(Action::Click);
    }
    if el.has_trait("Adjustable") {
        out.extend([Action::Decrement, Action::Increment]);
    }
    // A long press opens context menus on buttons, links and rows; on
    // controls it does nothing more than a tap.
    if out.contains(&Action::Click)
        && !matches!(
            role,
            Role::Switch
                | Role::Checkbox
                | Role::TextBox
                | Role::SearchBox
                | Role::Radio
                | Role::Combobox
                | Role::Tab
        )
    {
        out.push(Action::LongPress);
    }
    if role == Role::Tab {
        out.push(Action::Select);
    }
    if matches!(
        el.element_type.as_str(),
        "ScrollView" | "Table" | "CollectionView" | "WebView" | "Outline"
    ) {
        out.push(Action::Scroll);
    }
    if matches!(el.element_type.as_str(), "Alert" | "Sheet") {
        out.push(Action::Dismiss);
    }
    out.sort();
    out.dedup();
    out
}

/// A rectangle in points as device pixels (edges rounded); `None` when it
/// is not finite.
pub fn to_pixels(r: &WdaRect, scale: f64) -> Option<Rect> {
    let x0 = (r.x * scale).round();
    let y0 = (r.y * scale).round();
    let x1 = (r.right() * scale).round();
    let y1 = (r.bottom() * scale).round();
    if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
        return None;
    }
    Some(Rect::new(
        x0 as i64,
        y0 as i64,
        (x1 - x0).max(0.0) as u64,
        (y1 - y0).max(0.0) as u64,
    ))
}

/// A range value's number: `0.5`, or `50%` as the share of `min..max`
/// (of 0..100 when they are unknown).
fn value_now(el: &WdaElement) -> Option<f64> {
    let v = el.value.as_deref()?.trim();
    if let Some(pct) = v.strip_suffix('%') {
        let p = pct.trim().parse::<f64>().ok()?;
        return Some(match (el.min_value, el.max_value) {
            (Some(lo), Some(hi)) if hi > lo => lo + p / 100.0 * (hi - lo),
            _ => p,
        });
    }
    v.parse::<f64>().ok().filter(|n| n.is_finite())
}

fn attributes(el: &WdaElement, role: Role) -> Attributes {
    let mut a = Attributes::default();
    if is_text_input(&el.element_type) {
        a.placeholder = nonempty(el.placeholder_value.as_deref()).map(|p| one_line(p, NAME_MAX));
    }
    if matches!(role, Role::Slider | Role::SpinButton | Role::ProgressBar) {
        let pct = el.value.as_deref().is_some_and(|v| v.trim().ends_with('%'));
        let known = el.min_value.is_some() && el.max_value.is_some();
        a.value_min = el.min_value.or((pct && !known).then_some(0.0));
        a.value_max = el.max_value.or((pct && !known).then_some(100.0));
        a.value_now = value_now(el);
    }
    if role.has_orientation() {
        a.orientation = el.rect.filter(|r| !r.is_empty()).map(|r| {
            if r.width >= r.height {
                Orientation::Horizontal
            } else {
                Orientation::Vertical
            }
        });
    }
    a
}

fn platform(el: &WdaElement) -> PlatformIos {
    let identifier = nonempty(el.raw_identifier.as_deref())
        .or_else(|| {
            nonempty(el.name.as_deref())
                .filter(|n| identifier_like(n) && Some(*n) != nonempty(el.label.as_deref()))
        })
        .map(str::to_owned);
    let mut extra = Map::new();
    if !el.custom_actions.is_empty() {
        extra.insert(
            "customActions".into(),
            Value::from(el.custom_actions.clone()),
        );
    }
    PlatformIos {
        element_type: Some(format!("{TYPE_PREFIX}{}", el.element_type)),
        identifier,
        traits: Some(el.traits.clone()).filter(|t| !t.is_empty()),
        extra,
    }
}

/// Translates one element into a CUP node without id or children.
pub fn map_element(el: &WdaElement, ctx: &Context<'_>, screen: &ScreenFacts) -> Node {
    let role = role(el, ctx);
    let name = name(el);
    let states = states(el, role, &screen.rect());
    let actions = actions(el, role, &states);
    Node {
        id: String::new(),
        role,
        value: value(el, &name),
        name,
        description: None,
        bounds: el.rect.and_then(|r| to_pixels(&r, screen.scale)),
        states,
        actions,
        attributes: attributes(el, role),
        children: Vec::new(),
        platform: PlatformData {
            ios: Some(platform(el)),
            ..PlatformData::default()
        },
    }
}

/// Limits of one mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// At most this many nodes.
    pub max_nodes: usize,
    /// Nodes deeper than this are left out (root = 0).
    pub max_depth: usize,
    /// Elements not reached by then are left out.
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: usize::MAX,
            max_depth: usize::MAX,
            deadline: None,
        }
    }
}

/// A mapped element before pruning and ids.
struct Proto {
    node: Node,
    path: Vec<usize>,
    element_type: String,
    children: Vec<Proto>,
}

impl Proto {
    fn count(&self) -> usize {
        1 + self.children.iter().map(Proto::count).sum::<usize>()
    }

    /// An `Other` that says nothing of its own.
    fn pointless(&self) -> bool {
        let n = &self.node;
        self.element_type == "Other"
            && n.role == Role::Generic
            && n.name.is_empty()
            && n.value.is_none()
            && n.actions.is_empty()
            && n.states.iter().all(|s| *s == State::Offscreen)
    }
}

struct Builder<'a> {
    screen: &'a ScreenFacts,
    deadline: Option<Instant>,
    late: usize,
}

impl Builder<'_> {
    fn build(&mut self, el: &WdaElement, path: Vec<usize>, ctx: &Context<'_>) -> Option<Proto> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.late += 1;
            return None;
        }
        let node = map_element(el, ctx, self.screen);
        let inner = Context {
            parent_type: &el.element_type,
            parent_role: Some(node.role),
        };
        let mut children = Vec::new();
        for (i, c) in el.children.iter().enumerate() {
            let mut p = path.clone();
            p.push(i);
            children.extend(self.build(c, p, &inner));
        }
        Some(Proto {
            node,
            path,
            element_type: el.element_type.clone(),
            children,
        })
    }
}

/// Pruning (module doc): the proto itself, its only child, or nothing.
fn prune(mut p: Proto) -> Option<Proto> {
    p.children = std::mem::take(&mut p.children)
        .into_iter()
        .filter_map(prune)
        .collect();
    if p.pointless() && p.children.len() <= 1 {
        return p.children.pop();
    }
    if p.element_type == "Window" && p.node.name.is_empty() && p.children.is_empty() {
        return None;
    }
    Some(p)
}

struct Emitter {
    limits: Limits,
    next: usize,
    refs: HashMap<String, String>,
    cut_nodes: usize,
    cut_subtrees: usize,
}

impl Emitter {
    fn emit(&mut self, p: Proto, depth: usize) -> Option<Node> {
        if self.next >= self.limits.max_nodes {
            self.cut_nodes += p.count();
            self.cut_subtrees += 1;
            return None;
        }
        let Proto {
            mut node,
            path,
            element_type,
            children,
        } = p;
        node.id = format!("e{}", self.next);
        self.next += 1;
        self.refs.insert(
            node.id.clone(),
            ElementRef { path, element_type }.to_string(),
        );
        if depth < self.limits.max_depth {
            for c in children {
                node.children.extend(self.emit(c, depth + 1));
            }
        }
        Some(node)
    }
}

/// A dump's tree as CUP: one root (the application), ids `e0`, `e1`, ...
/// in pre-order, each id's [`ElementRef`] in `refs`, and what the limits
/// left out in `partial`.
pub fn capture(dump: &NativeDump, limits: &Limits) -> cup::Capture {
    let mut builder = Builder {
        screen: &dump.screen,
        deadline: limits.deadline,
        late: 0,
    };
    let root = builder.build(&dump.tree, Vec::new(), &Context::default());
    let root = root.map(|mut r| {
        r.children = std::mem::take(&mut r.children)
            .into_iter()
            .filter_map(prune)
            .collect();
        r
    });
    let mut emitter = Emitter {
        limits: *limits,
        next: 0,
        refs: HashMap::new(),
        cut_nodes: 0,
        cut_subtrees: 0,
    };
    let tree: Vec<Node> = root.and_then(|r| emitter.emit(r, 0)).into_iter().collect();
    let mut reasons = Vec::new();
    if emitter.cut_subtrees > 0 {
        reasons.push(format!(
            "node cap of {} reached ({} elements left out)",
            limits.max_nodes, emitter.cut_nodes
        ));
    }
    if builder.late > 0 {
        reasons.push(format!(
            "the capture deadline passed while mapping ({} subtrees left out)",
            builder.late
        ));
    }
    cup::Capture {
        tree,
        refs: emitter.refs,
        partial: (!reasons.is_empty()).then(|| cup::Partial {
            reason: reasons.join("; "),
            missing: emitter.cut_subtrees + builder.late,
        }),
        notes: Vec::new(),
        tools: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(ty: &str) -> WdaElement {
        WdaElement {
            element_type: ty.into(),
            rect: Some(WdaRect {
                x: 10.0,
                y: 100.0,
                width: 100.0,
                height: 44.0,
            }),
            enabled: Some(true),
            visible: Some(true),
            ..WdaElement::default()
        }
    }

    fn screen() -> ScreenFacts {
        ScreenFacts {
            width_points: 390.0,
            height_points: 844.0,
            scale: 3.0,
        }
    }

    #[test]
    fn identifiers_are_told_from_words() {
        for id in [
            "loginButton",
            "com.apple.settings.general",
            "LOGIN_BUTTON",
            "btn-login",
            "nav:back",
            "TabBarItemTitle",
            "BottomBrowserToolbar",
        ] {
            assert!(identifier_like(id), "{id}");
        }
        for words in [
            "Settings", "Wi-Fi", "iPhone", "iCloud", "AirDrop", "FaceTime", "OK", "Sign In",
            "café", "settings", "Toolbar",
        ] {
            assert!(!identifier_like(words), "{words}");
        }
    }

    #[test]
    fn names_fall_back_from_label_to_name_value_placeholder() {
        let mut b = el("Button");
        b.name = Some("loginButton".into());
        assert_eq!(name(&b), "");
        b.name = Some("Sign In".into());
        assert_eq!(name(&b), "Sign In");
        b.label = Some("  Log\n in ".into());
        assert_eq!(name(&b), "Log in");
        let mut t = el("StaticText");
        t.value = Some("Hello".into());
        assert_eq!(name(&t), "Hello");
        let mut f = el("TextField");
        f.name = Some("emailField".into());
        f.placeholder_value = Some("Email".into());
        f.value = Some("Email".into());
        assert_eq!(name(&f), "Email");
        let n = map_element(&f, &Context::default(), &screen());
        assert_eq!(n.value, None, "the placeholder is no value");
        assert_eq!(n.attributes.placeholder.as_deref(), Some("Email"));
        assert_eq!(
            n.platform.ios.and_then(|i| i.identifier).as_deref(),
            Some("emailField")
        );
        f.value = Some("me@example.com".into());
        assert_eq!(value(&f, "Email").as_deref(), Some("me@example.com"));
        let mut p = el("SecureTextField");
        p.value = Some("•••••".into());
        assert_eq!(value(&p, "").as_deref(), Some(MASK));
        p.value = None;
        assert_eq!(value(&p, ""), None);
    }

    #[test]
    fn roles_follow_the_parent() {
        let b = el("Button");
        let in_tabs = Context {
            parent_type: "TabBar",
            parent_role: Some(Role::TabList),
        };
        assert_eq!(role(&b, &in_tabs), Role::Tab);
        assert_eq!(role(&b, &Context::default()), Role::Button);
        let cell = el("Cell");
        let in_list = Context {
            parent_type: "Table",
            parent_role: Some(Role::List),
        };
        assert_eq!(role(&cell, &in_list), Role::ListItem);
        assert_eq!(role(&cell, &Context::default()), Role::Cell);
        let mut other = el("Other");
        assert_eq!(role(&other, &Context::default()), Role::Generic);
        other.traits = vec!["Button".into()];
        assert_eq!(role(&other, &Context::default()), Role::Button);
        let mut grid = el("CollectionView");
        grid.children = vec![el("Cell"), el("Cell")];
        assert_eq!(role(&grid, &Context::default()), Role::List);
        grid.rect = Some(WdaRect {
            x: 0.0,
            y: 0.0,
            width: 390.0,
            height: 600.0,
        });
        assert_eq!(role(&grid, &Context::default()), Role::Grid);
        // A type only mappings.json knows is looked up there.
        assert_eq!(
            role(&el("XCUIElementTypeFuture"), &Context::default()),
            Role::Generic
        );
    }

    /// The table agrees with every cell of the spec's iOS column that
    /// names an XCUIElementType, but the two documented departures.
    #[test]
    fn the_table_agrees_with_mappings_json() {
        let departures = [("picker", Role::Combobox), ("table", Role::Grid)];
        let mut checked = 0;
        for (cup_role, row) in &Mappings::get().roles {
            let Some(Some(cell)) = row.get(&PlatformId::Ios) else {
                continue;
            };
            for alt in &cell.alternatives {
                if alt.contains('+') || departures.contains(&(alt.as_str(), *cup_role)) {
                    continue;
                }
                let mut chars = alt.chars();
                let Some(first) = chars.next() else { continue };
                let ty: String = first.to_uppercase().chain(chars).collect();
                let mut e = el(&ty);
                if ty == "Header" {
                    e = el("StaticText");
                    e.traits = vec!["Header".into()];
                }
                if ty == "List" {
                    continue; // no XCUIElementTypeList
                }
                let got = role(&e, &Context::default());
                let allowed = Mappings::get().roles_for_native(PlatformId::Ios, alt);
                assert!(
                    allowed.contains(&got),
                    "{ty}: {got} not in {allowed:?} ({cup_role})"
                );
                checked += 1;
            }
        }
        assert!(checked >= 15, "{checked}");
    }

    #[test]
    fn states_and_actions() {
        let s = screen();
        let mut sw = el("Switch");
        sw.value = Some("1".into());
        let n = map_element(&sw, &Context::default(), &s);
        assert_eq!(
            (n.role, n.states.as_slice()),
            (Role::Switch, &[State::Checked][..])
        );
        assert_eq!(n.actions, [Action::Click, Action::Toggle]);
        assert_eq!(n.value, None);
        sw.enabled = Some(false);
        let n = map_element(&sw, &Context::default(), &s);
        assert_eq!(n.states, [State::Checked, State::Disabled]);
        assert!(n.actions.is_empty());
        let mut tab = el("Button");
        tab.value = Some("1".into());
        let ctx = Context {
            parent_type: "TabBar",
            parent_role: Some(Role::TabList),
        };
        let n = map_element(&tab, &ctx, &s);
        assert_eq!(n.states, [State::Selected]);
        assert_eq!(n.actions, [Action::Click, Action::Select]);
        let mut toggle = el("Button");
        toggle.traits = vec!["Button".into(), "ToggleButton".into(), "Selected".into()];
        assert_eq!(
            map_element(&toggle, &Context::default(), &s).states,
            [State::Pressed]
        );
        let mut far = el("Cell");
        far.rect = Some(WdaRect {
            x: 0.0,
            y: 900.0,
            width: 390.0,
            height: 44.0,
        });
        assert_eq!(
            map_element(&far, &Context::default(), &s).states,
            [State::Offscreen]
        );
        let mut hidden = el("StaticText");
        hidden.visible = Some(false);
        assert_eq!(
            map_element(&hidden, &Context::default(), &s).states,
            [State::Offscreen]
        );
        let mut slider = el("Slider");
        slider.value = Some("50%".into());
        slider.min_value = Some(0.0);
        slider.max_value = Some(1.0);
        let n = map_element(&slider, &Context::default(), &s);
        assert_eq!(n.value.as_deref(), Some("50%"));
        assert_eq!(
            (
                n.attributes.value_min,
                n.attributes.value_max,
                n.attributes.value_now
            ),
            (Some(0.0), Some(1.0), Some(0.5))
        );
        assert_eq!(n.attributes.orientation, Some(Orientation::Horizontal));
        assert_eq!(n.actions, [Action::Decrement, Action::Increment]);
        let table = map_element(&el("Table"), &Context::default(), &s);
        assert_eq!(
            (table.role, table.actions.as_slice()),
            (Role::List, &[Action::Scroll][..])
        );
        let alert = map_element(&el("Alert"), &Context::default(), &s);
        assert_eq!(alert.states, [State::Modal]);
        assert_eq!(alert.actions, [Action::Dismiss]);
    }

    #[test]
    fn pixels_are_points_times_scale() {
        let r = WdaRect {
            x: 16.0,
            y: 47.33,
            width: 358.0,
            height: 44.0,
        };
        assert_eq!(to_pixels(&r, 3.0), Some(Rect::new(48, 142, 1074, 132)));
        assert_eq!(to_pixels(&r, 2.0), Some(Rect::new(32, 95, 716, 88)));
        let broken = WdaRect {
            x: f64::INFINITY,
            ..r
        };
        assert_eq!(to_pixels(&broken, 3.0), None);
    }

    fn tree() -> NativeDump {
        let mut text = el("StaticText");
        text.label = Some("Hello".into());
        let mut wrapper = el("Other");
        wrapper.children = vec![text];
        let mut outer = el("Other");
        outer.children = vec![wrapper, el("Other")];
        let mut b = el("Button");
        b.label = Some("OK".into());
        let mut window = el("Window");
        window.children = vec![outer, b];
        let mut app = el("Application");
        app.label = Some("Demo".into());
        app.children = vec![window, el("Window")];
        NativeDump {
            platform: "ios".into(),
            source: "test".into(),
            screen: screen(),
            bundle_id: None,
            tree: app,
        }
    }

    #[test]
    fn pointless_wrappers_collapse_and_ids_are_pre_order() {
        let c = capture(&tree(), &Limits::default());
        let app = &c.tree[0];
        assert_eq!((app.id.as_str(), app.role), ("e0", Role::Application));
        assert_eq!(app.children.len(), 1, "the empty window is left out");
        let window = &app.children[0];
        let kids: Vec<(&str, Role, &str)> = window
            .children
            .iter()
            .map(|n| (n.id.as_str(), n.role, n.name.as_str()))
            .collect();
        assert_eq!(
            kids,
            [("e2", Role::Text, "Hello"), ("e3", Role::Button, "OK")]
        );
        assert_eq!(c.refs["e0"], "wda:/Application");
        assert_eq!(c.refs["e2"], "wda:0.0.0.0/StaticText");
        assert_eq!(c.refs["e3"], "wda:0.1/Button");
        assert!(c.partial.is_none());
    }

    #[test]
    fn limits_make_a_partial_capture() {
        let c = capture(
            &tree(),
            &Limits {
                max_nodes: 3,
                ..Limits::default()
            },
        );
        assert_eq!(c.refs.len(), 3);
        let p = c.partial.expect("partial");
        assert!(p.reason.contains("node cap of 3"), "{}", p.reason);
        assert_eq!(p.missing, 1);
        let c = capture(
            &tree(),
            &Limits {
                max_depth: 1,
                ..Limits::default()
            },
        );
        assert_eq!(c.refs.len(), 2);
        assert!(c.partial.is_none());
        let c = capture(
            &tree(),
            &Limits {
                deadline: Some(Instant::now()),
                ..Limits::default()
            },
        );
        assert!(c.tree.is_empty());
        assert!(c.partial.is_some_and(|p| p.reason.contains("deadline")));
    }
}
