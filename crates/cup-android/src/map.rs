//! A dump's facts → CUP: one window per root of the dump, roles from the
//! class ([`crate::role`]) refined by the node's flags where the class
//! says nothing (Compose reports plain `android.view.View`s), names,
//! values, states and actions, bounds in device pixels.

use std::collections::HashMap;

use cup::{Capture, CaptureLimits, Partial};
use cup_protocol::node::{PlatformAndroid, PlatformData};
use cup_protocol::{Action, Node, Rect, Role, State};

use crate::facts::{AndroidNode, Bounds, Dump, Focus};

/// A window of the dump, as the adapter lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowSummary {
    /// Index of its root in the dump.
    pub index: usize,
    /// Its package.
    pub package: String,
    /// Its title: the dialog's title, the package, or the activity.
    pub title: String,
    /// Its rectangle in device pixels.
    pub bounds: Option<Rect>,
    /// Whether it is the foreground app's window.
    pub foreground: bool,
}

/// A rectangle of device pixels; `None` for an empty one (the dump's
/// `[0,0][0,0]` for a node it could not place).
pub fn rect(b: Option<Bounds>) -> Option<Rect> {
    let b = b?;
    let (w, h) = (b.width(), b.height());
    (w > 0 && h > 0).then(|| {
        Rect::new(
            b.left,
            b.top,
            u64::try_from(w).unwrap_or(0),
            u64::try_from(h).unwrap_or(0),
        )
    })
}

/// A node with `resource-id` ending in `:id/{name}` in `n`'s subtree.
fn find_id<'a>(n: &'a AndroidNode, name: &str) -> Option<&'a AndroidNode> {
    let wanted = format!(":id/{name}");
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if x.resource_id.ends_with(&wanted) {
            return Some(x);
        }
        stack.extend(x.children.iter());
    }
    None
}

/// Whether a window root is an alert dialog (the framework's
/// `AlertController` layout: a positive button and a title or message).
fn is_alert(root: &AndroidNode) -> bool {
    find_id(root, "button1").is_some()
        && (find_id(root, "alertTitle").is_some() || find_id(root, "message").is_some())
}

/// The windows of `dump`; the foreground one is the focused app's (from
/// `dumpsys window`), else an alert, else the first.
pub fn windows(dump: &Dump, focus: Option<&Focus>) -> Vec<WindowSummary> {
    let mut out: Vec<WindowSummary> = dump
        .roots
        .iter()
        .enumerate()
        .map(|(index, root)| {
            let alert = is_alert(root);
            let title = if alert {
                find_id(root, "alertTitle")
                    .or_else(|| find_id(root, "message"))
                    .map(|t| t.text.clone())
                    .unwrap_or_default()
            } else {
                String::new()
            };
            let title = if title.is_empty() {
                root.package.clone()
            } else {
                title
            };
            WindowSummary {
                index,
                package: root.package.clone(),
                title,
                bounds: rect(root.bounds),
                foreground: false,
            }
        })
        .collect();
    let front = focus
        .and_then(|f| {
            // A dialog of the focused app is in front of its activity.
            let of_app = |w: &&WindowSummary| w.package == f.package;
            out.iter()
                .filter(of_app)
                .find(|w| dump.roots.get(w.index).is_some_and(is_alert))
                .or_else(|| out.iter().find(of_app))
                .map(|w| w.index)
        })
        .or_else(|| {
            dump.roots
                .iter()
                .position(is_alert)
                .or_else(|| (!dump.roots.is_empty()).then_some(0))
        });
    if let Some(i) = front {
        if let Some(w) = out.get_mut(i) {
            w.foreground = true;
        }
    }
    out
}

/// What the walk knows of a node's surroundings.
#[derive(Debug, Clone, Copy, Default)]
struct Within {
    /// Inside a WebView (Chrome's clickable `View`s are links).
    web: bool,
    /// Inside a clickable ancestor (its texts name the ancestor).
    clickable: bool,
}

/// The texts of `n`'s subtree that name a control without a name of its
/// own (its label and summary), at most two, joined by `, `.
fn inner_text(n: &AndroidNode) -> String {
    let mut found: Vec<&str> = Vec::new();
    let mut stack: Vec<&AndroidNode> = n.children.iter().rev().collect();
    while let Some(x) = stack.pop() {
        if found.len() == 2 {
            break;
        }
        if x.is("clickable") || x.is("checkable") {
            continue;
        }
        let own = if x.content_desc.is_empty() {
            x.text.as_str()
        } else {
            x.content_desc.as_str()
        };
        if !own.trim().is_empty() && !found.contains(&own) {
            found.push(own.trim());
        }
        stack.extend(x.children.iter().rev());
    }
    found.join(", ")
}

/// The role of `n`: its class, refined by its flags where the class is a
/// plain `View` or a layout.
fn role_of(n: &AndroidNode, within: Within) -> Role {
    let role = crate::role::of_class(&n.class);
    let pressable = n.is("clickable") || n.is("long-clickable");
    match role {
        Role::Generic | Role::Group => {
            if n.is("checkable") {
                Role::Checkbox
            } else if n.is("heading") {
                Role::Heading
            } else if within.web && pressable {
                Role::Link
            } else if pressable && !has_pressable_descendant(n) {
                Role::Button
            } else if role == Role::Generic && !n.text.is_empty() {
                Role::Text
            } else {
                role
            }
        }
        Role::Img if pressable => Role::Button,
        Role::Text if n.is("checkable") => Role::Checkbox,
        Role::Text if n.is("heading") => Role::Heading,
        // A clickable text that is not inside a clickable row is a
        // control of its own: a launcher's app icon, a "Forgot
        // password?" link (a text that is only long-clickable is text
        // to copy).
        Role::Text if n.is("clickable") && !within.clickable => Role::Button,
        other => other,
    }
}

fn has_pressable_descendant(n: &AndroidNode) -> bool {
    n.children.iter().any(|c| {
        c.is("clickable")
            || c.is("long-clickable")
            || c.is("checkable")
            || has_pressable_descendant(c)
    })
}

/// A number in a slider's or progress bar's text (`50.0`, `50%`).
fn number(text: &str) -> Option<f64> {
    text.trim().trim_end_matches('%').trim().parse().ok()
}

/// One node, without its children.
fn element(n: &AndroidNode, id: String, within: Within) -> Node {
    let role = role_of(n, within);
    let entry = matches!(role, Role::TextBox | Role::SearchBox);
    let password = n.is("password");
    let mut name = if !n.content_desc.trim().is_empty() {
        n.content_desc.trim().to_owned()
    } else if entry || matches!(role, Role::Combobox | Role::SpinButton) {
        n.hint.trim().to_owned()
    } else if matches!(role, Role::Slider | Role::ProgressBar) {
        // Their text is their value.
        String::new()
    } else {
        n.text.trim().to_owned()
    };
    let named_by_content = matches!(
        role,
        Role::Button
            | Role::Checkbox
            | Role::Switch
            | Role::Radio
            | Role::Tab
            | Role::Link
            | Role::ListItem
    );
    if name.is_empty() && named_by_content {
        name = inner_text(n);
    }
    let mut node = Node::new(id, role, name);
    node.bounds = rect(n.bounds);
    let value = match role {
        // A field's text is its value, unless it is the hint shown in
        // an empty field (older Androids report the hint as text), or a
        // password (the dump has dots or, in Appium's, the characters).
        Role::TextBox | Role::SearchBox if !password && n.text != n.hint => {
            Some(n.text.clone()).filter(|t| !t.is_empty())
        }
        Role::Slider | Role::ProgressBar => {
            node.attributes.value_now = number(&n.text);
            Some(n.text.clone()).filter(|t| !t.is_empty())
        }
        Role::Combobox => Some(inner_text(n)).filter(|t| !t.is_empty()),
        Role::SpinButton => find_id(n, "numberpicker_input")
            .map(|i| i.text.clone())
            .or_else(|| Some(n.text.clone()))
            .filter(|t| !t.is_empty()),
        _ => None,
    };
    node.value = value;
    if entry && !n.hint.is_empty() && n.hint != node.name {
        node.attributes.placeholder = Some(n.hint.clone());
    }
    let mut states = Vec::new();
    if n.is_not("enabled") {
        states.push(State::Disabled);
    }
    if n.is("checked") {
        states.push(State::Checked);
    }
    if n.is("focused") {
        states.push(State::Focused);
    }
    if n.is("selected") {
        states.push(State::Selected);
    }
    if n.is_not("visible-to-user") || n.is_not("displayed") {
        states.push(State::Offscreen);
    }
    if entry && !n.is_not("enabled") {
        states.push(State::Editable);
    }
    node.states = states;
    let mut actions = Vec::new();
    let clickable = n.is("clickable");
    if clickable && !entry {
        actions.push(Action::Click);
    }
    if n.is("long-clickable") {
        actions.push(Action::LongPress);
    }
    if n.is("checkable") || matches!(role, Role::Checkbox | Role::Switch | Role::Radio) {
        actions.push(Action::Toggle);
    }
    if entry {
        actions.extend([Action::Focus, Action::Type, Action::SetValue]);
    }
    if matches!(role, Role::Slider | Role::SpinButton) {
        actions.extend([Action::Increment, Action::Decrement]);
    }
    if role == Role::Combobox {
        actions.push(Action::Expand);
    }
    if n.is("scrollable") {
        actions.push(Action::Scroll);
    }
    actions.dedup();
    node.actions = actions;
    node.platform = PlatformData {
        android: Some(PlatformAndroid {
            class_name: Some(n.class.clone()).filter(|c| !c.is_empty()),
            resource_id: Some(n.resource_id.clone()).filter(|r| !r.is_empty()),
            package_name: None,
            is_clickable: clickable.then_some(true),
            is_scrollable: n.is("scrollable").then_some(true),
            extra: serde_json::Map::new(),
        }),
        ..PlatformData::default()
    };
    node
}

/// The native reference of a node: its window, its path of child
/// indices, its class's simple name and its resource id
/// (`w0/2/1 TextView android:id/title`). Elements of two captures are the
/// same element when their references are equal.
fn reference(window: usize, path: &str, n: &AndroidNode) -> String {
    let simple = n.class.rsplit(['.', '$']).next().unwrap_or_default();
    format!("w{window}{path} {simple} {}", n.resource_id)
        .trim_end()
        .to_owned()
}

/// The walk's running state.
struct Walk<'a> {
    limits: &'a CaptureLimits,
    refs: HashMap<String, String>,
    count: usize,
    missing: usize,
    depth_cut: bool,
}

impl Walk<'_> {
    fn next_id(&mut self) -> String {
        let id = format!("e{}", self.count);
        self.count += 1;
        id
    }

    /// `n`'s children under `parent` (depth = the parent's).
    fn children(
        &mut self,
        parent: &mut Node,
        n: &AndroidNode,
        window: usize,
        path: &str,
        depth: usize,
        within: Within,
    ) {
        for (i, child) in n.children.iter().enumerate() {
            if self.count >= self.limits.max_nodes {
                self.missing += child.count();
                continue;
            }
            if depth + 1 > self.limits.max_depth {
                self.missing += child.count();
                self.depth_cut = true;
                continue;
            }
            let child_path = format!("{path}/{i}");
            let id = self.next_id();
            self.refs
                .insert(id.clone(), reference(window, &child_path, child));
            let mut node = element(child, id, within);
            let inner = Within {
                web: within.web || node.role == Role::Document,
                clickable: within.clickable || child.is("clickable"),
            };
            self.children(&mut node, child, window, &child_path, depth + 1, inner);
            parent.children.push(node);
        }
    }
}

/// The CUP tree of the dump's windows `which` (indices of
/// [`windows`]), ids in pre-order across them, within `limits` (the node
/// and depth caps; a capture past them is partial and says so).
pub fn map(dump: &Dump, which: &[WindowSummary], limits: &CaptureLimits) -> Capture {
    let mut walk = Walk {
        limits,
        refs: HashMap::new(),
        count: 0,
        missing: 0,
        depth_cut: false,
    };
    let mut tree = Vec::new();
    for w in which {
        let Some(root) = dump.roots.get(w.index) else {
            continue;
        };
        if walk.count >= limits.max_nodes {
            walk.missing += root.count();
            continue;
        }
        let id = walk.next_id();
        walk.refs.insert(id.clone(), reference(w.index, "", root));
        let role = if is_alert(root) {
            Role::AlertDialog
        } else {
            Role::Window
        };
        let mut node = Node::new(id, role, w.title.clone());
        node.bounds = w.bounds.or_else(|| rect(root.bounds));
        if role == Role::AlertDialog {
            node.states.push(State::Modal);
        }
        if root.is_not("visible-to-user") || root.is_not("displayed") {
            node.states.push(State::Offscreen);
        }
        if w.foreground {
            node.states.push(State::Focused);
        }
        node.platform = PlatformData {
            android: Some(PlatformAndroid {
                class_name: Some(root.class.clone()).filter(|c| !c.is_empty()),
                package_name: Some(root.package.clone()).filter(|p| !p.is_empty()),
                ..PlatformAndroid::default()
            }),
            ..PlatformData::default()
        };
        walk.children(&mut node, root, w.index, "", 0, Within::default());
        tree.push(node);
    }
    let partial = (walk.missing > 0).then(|| Partial {
        reason: if walk.depth_cut && walk.count < limits.max_nodes {
            format!("depth limit of {} reached", limits.max_depth)
        } else {
            format!("node limit of {} reached", limits.max_nodes)
        },
        missing: walk.missing,
    });
    Capture {
        tree,
        refs: walk.refs,
        partial,
        ..Capture::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::parse;

    const LOGIN: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" visible-to-user="true" bounds="[0,0][1080,2400]">
<node index="0" text="" resource-id="com.example.shop:id/email" class="com.google.android.material.textfield.TextInputEditText" package="com.example.shop" content-desc="" hint="Email" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="true" password="false" selected="false" visible-to-user="true" bounds="[64,400][1016,540]" />
<node index="1" text="••••••" resource-id="com.example.shop:id/password" class="android.widget.EditText" package="com.example.shop" content-desc="" hint="Password" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="true" password="true" selected="false" visible-to-user="true" bounds="[64,580][1016,720]" />
<node index="2" text="" resource-id="" class="android.view.View" package="com.example.shop" content-desc="" checkable="true" checked="true" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" visible-to-user="true" bounds="[64,760][600,860]">
<node index="0" text="Remember me" resource-id="" class="android.widget.TextView" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" visible-to-user="true" bounds="[160,780][600,840]" />
</node>
<node index="3" text="Sign in" resource-id="com.example.shop:id/go" class="com.google.android.material.button.MaterialButton" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="true" enabled="false" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" visible-to-user="true" bounds="[64,900][1016,1040]" />
</node>
</hierarchy>"#;

    #[test]
    fn a_login_form_maps_fields_password_compose_checkbox_and_disabled_button() {
        let dump = parse(LOGIN).expect("dump");
        let focus = Focus {
            package: "com.example.shop".into(),
            activity: ".Login".into(),
        };
        let ws = windows(&dump, Some(&focus));
        assert_eq!(ws.len(), 1);
        assert!(ws[0].foreground);
        let cap = map(&dump, &ws, &CaptureLimits::default());
        let root = &cap.tree[0];
        assert_eq!(
            (root.role, root.name.as_str()),
            (Role::Window, "com.example.shop")
        );
        let email = &root.children[0];
        assert_eq!((email.role, email.name.as_str()), (Role::TextBox, "Email"));
        assert_eq!(email.value, None);
        assert_eq!(email.states, [State::Focused, State::Editable]);
        assert_eq!(
            email.actions,
            [
                Action::LongPress,
                Action::Focus,
                Action::Type,
                Action::SetValue
            ]
        );
        assert_eq!(email.bounds, Some(Rect::new(64, 400, 952, 140)));
        let password = &root.children[1];
        assert_eq!(
            (password.name.as_str(), password.value.as_deref()),
            ("Password", None)
        );
        let remember = &root.children[2];
        assert_eq!(
            (remember.role, remember.name.as_str()),
            (Role::Checkbox, "Remember me")
        );
        assert_eq!(remember.states, [State::Checked]);
        assert_eq!(remember.actions, [Action::Click, Action::Toggle]);
        let sign_in = &root.children[3];
        assert_eq!(
            (sign_in.role, sign_in.name.as_str()),
            (Role::Button, "Sign in")
        );
        assert_eq!(sign_in.states, [State::Disabled]);
        assert_eq!(cap.refs["e5"], "w0/3 MaterialButton com.example.shop:id/go");
        assert_eq!(cap.partial, None);
    }

    #[test]
    fn the_node_cap_makes_a_partial_capture_that_says_so() {
        let dump = parse(LOGIN).expect("dump");
        let ws = windows(&dump, None);
        let limits = CaptureLimits {
            max_nodes: 3,
            ..CaptureLimits::default()
        };
        let cap = map(&dump, &ws, &limits);
        let partial = cap.partial.expect("partial");
        assert_eq!(partial.missing, 3);
        assert!(
            partial.reason.contains("node limit of 3"),
            "{}",
            partial.reason
        );
        let depth = CaptureLimits {
            max_depth: 0,
            ..CaptureLimits::default()
        };
        let cap = map(&dump, &ws, &depth);
        assert_eq!(cap.tree[0].children.len(), 0);
        assert!(cap
            .partial
            .expect("partial")
            .reason
            .contains("depth limit of 0"));
    }
}
