//! What an action changed, from two whole captures: the one before it and
//! one read after it. Adapters whose platform sends no change events
//! (Android over adb, iOS over WebDriverAgent) observe effects this way:
//! elements are matched by their native reference, and each difference is
//! named by the id the agent's snapshot gave the element (or, for an
//! element the snapshot did not have, by its role and name).

use std::collections::HashMap;

use cup_protocol::{Node, State};

pub use crate::watch::describe;
use crate::watch::states_text;

use crate::action::{condense, windows_change, Change, Effect};
use crate::adapter::Capture;

/// Every node of `capture` by its native reference.
fn by_native(capture: &Capture) -> HashMap<&str, &Node> {
    let mut out = HashMap::new();
    let mut stack: Vec<&Node> = capture.tree.iter().collect();
    while let Some(node) = stack.pop() {
        if let Some(native) = capture.refs.get(&node.id) {
            out.insert(native.as_str(), node);
        }
        stack.extend(node.children.iter());
    }
    out
}

/// The element that has the focus in `capture`, named.
fn focused(capture: &Capture, name: &dyn Fn(&str, &Node) -> String) -> Option<String> {
    let mut stack: Vec<&Node> = capture.tree.iter().collect();
    while let Some(node) = stack.pop() {
        if node.states.contains(&State::Focused) {
            let native = capture.refs.get(&node.id).map_or("", String::as_str);
            return Some(name(native, node));
        }
        stack.extend(node.children.iter().rev());
    }
    None
}

/// The windows of a capture as [`windows_change`] compares them.
fn windows(capture: &Capture) -> Vec<(i64, String)> {
    capture
        .tree
        .iter()
        .enumerate()
        .map(|(i, root)| (i64::try_from(i).unwrap_or(i64::MAX), root.name.clone()))
        .collect()
}

/// What changed from `before` to `after`, and the effect that makes.
///
/// `snapshot_refs` maps the agent's snapshot ids to native references
/// (what [`crate::Adapter::act`] receives), so changed elements carry the
/// ids the agent knows; `target` is the acted-on element's id (its changes
/// come first and are never grouped). The effect is
/// [`Effect::Confirmed`] when anything changed, else
/// [`Effect::NoChange`].
pub fn observe(
    before: &Capture,
    after: &Capture,
    snapshot_refs: &HashMap<String, String>,
    target: Option<&str>,
) -> (Effect, Vec<Change>) {
    let ids: HashMap<&str, &str> = snapshot_refs
        .iter()
        .map(|(id, native)| (native.as_str(), id.as_str()))
        .collect();
    let name = |native: &str, node: &Node| {
        ids.get(native)
            .map_or_else(|| describe(node), |id| (*id).to_owned())
    };
    let (old, new) = (by_native(before), by_native(after));
    let mut changes = Vec::new();
    let mut walk: Vec<&Node> = before.tree.iter().collect();
    // Pre-order over the old tree keeps the changes in reading order.
    while let Some(b) = walk.pop() {
        walk.extend(b.children.iter().rev());
        let Some(native) = before.refs.get(&b.id) else {
            continue;
        };
        let who = name(native, b);
        let Some(a) = new.get(native.as_str()) else {
            changes.push(Change::new(who, "children", Some("present".into()), None));
            continue;
        };
        if b.states != a.states {
            changes.push(Change::new(
                who.clone(),
                "states",
                Some(states_text(&b.states)),
                Some(states_text(&a.states)),
            ));
        }
        if b.value != a.value {
            changes.push(Change::new(
                who.clone(),
                "value",
                b.value.clone(),
                a.value.clone(),
            ));
        }
        if b.name != a.name {
            changes.push(Change::new(
                who,
                "name",
                Some(b.name.clone()),
                Some(a.name.clone()),
            ));
        }
    }
    let mut walk: Vec<&Node> = after.tree.iter().collect();
    while let Some(a) = walk.pop() {
        walk.extend(a.children.iter().rev());
        let Some(native) = after.refs.get(&a.id) else {
            continue;
        };
        if !old.contains_key(native.as_str()) {
            changes.push(Change::new(
                describe(a),
                "children",
                None,
                Some("present".into()),
            ));
        }
    }
    let (focus_before, focus_after) = (focused(before, &name), focused(after, &name));
    if focus_before != focus_after {
        changes.push(Change::new("focus", "focus", focus_before, focus_after));
    }
    changes.extend(windows_change(&windows(before), &windows(after)));
    let effect = if changes.is_empty() {
        Effect::NoChange
    } else {
        Effect::Confirmed
    };
    (effect, condense(changes, target))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::Role;

    fn node(id: &str, role: Role, name: &str, children: Vec<Node>) -> Node {
        let mut n = Node::new(id, role, name);
        n.children = children;
        n
    }

    /// A capture whose native reference of each id is `n` + the id.
    fn capture(tree: Vec<Node>) -> Capture {
        let mut refs = HashMap::new();
        let mut stack: Vec<&Node> = tree.iter().collect();
        while let Some(n) = stack.pop() {
            refs.insert(n.id.clone(), format!("n{}", n.name));
            stack.extend(n.children.iter());
        }
        Capture {
            tree,
            refs,
            ..Capture::default()
        }
    }

    fn screen(check: bool, extra: bool) -> Capture {
        let mut boxed = node("e2", Role::Checkbox, "Wi-Fi", vec![]);
        if check {
            boxed.states = vec![State::Checked, State::Focused];
        }
        let mut children = vec![boxed, node("e3", Role::Button, "OK", vec![])];
        if extra {
            children.push(node("e4", Role::Text, "Connected", vec![]));
        }
        capture(vec![node("e1", Role::Window, "Settings", children)])
    }

    #[test]
    fn nothing_changed_is_no_change() {
        let (effect, changes) = observe(
            &screen(false, false),
            &screen(false, false),
            &HashMap::new(),
            None,
        );
        assert_eq!(effect, Effect::NoChange);
        assert!(changes.is_empty(), "{changes:?}");
    }

    #[test]
    fn states_focus_and_new_elements_are_named_by_snapshot_ids() {
        let refs: HashMap<String, String> = [("e7".to_owned(), "nWi-Fi".to_owned())].into();
        let (effect, changes) = observe(
            &screen(false, false),
            &screen(true, true),
            &refs,
            Some("e7"),
        );
        assert_eq!(effect, Effect::Confirmed);
        assert_eq!(
            changes,
            [
                Change::new(
                    "e7",
                    "states",
                    Some(String::new()),
                    Some("checked,focused".into())
                ),
                Change::new("focus", "focus", None, Some("e7".into())),
                Change::new(
                    "text \"Connected\"",
                    "children",
                    None,
                    Some("present".into())
                ),
            ]
        );
    }

    #[test]
    fn gone_elements_and_window_switches_are_reported() {
        let after = capture(vec![node("e1", Role::Window, "Network", vec![])]);
        let (effect, changes) = observe(&screen(false, false), &after, &HashMap::new(), None);
        assert_eq!(effect, Effect::Confirmed);
        let fields: Vec<(&str, &str)> = changes
            .iter()
            .map(|c| (c.target.as_str(), c.field.as_str()))
            .collect();
        assert!(
            fields.contains(&("window \"Settings\"", "children")),
            "{fields:?}"
        );
        assert!(
            fields.contains(&("checkbox \"Wi-Fi\"", "children")),
            "{fields:?}"
        );
        assert!(fields.iter().any(|(_, f)| *f == "windows"), "{fields:?}");
    }
}
