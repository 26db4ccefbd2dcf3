//! What an action's watch compares, and the changes it reports, the same
//! on every platform. An adapter reads an [`Observed`] before an action and
//! again while it watches for the effect (its own native facts of the
//! target, the app windows, the focused element); [`changes`] turns two
//! readings into [`Change`]s by mapping the target to its CUP node, so a
//! change speaks the snapshot's language (roles, states, values, names).
//!
//! ```
//! use cup::watch::{changes, Observed};
//! use cup_protocol::{Node, Role, State};
//!
//! /// A made-up platform's facts of an element: checked or not.
//! #[derive(Debug, Clone, PartialEq)]
//! struct Facts(bool);
//!
//! fn map(f: &Facts) -> Node {
//!     let mut n = Node::new("", Role::Checkbox, "Wi-Fi");
//!     if f.0 {
//!         n.states.push(State::Checked);
//!     }
//!     n
//! }
//!
//! let before = Observed { target: Some(Facts(false)), ..Observed::default() };
//! let after = Observed { target: Some(Facts(true)), ..Observed::default() };
//! let seen = changes("e5", &before, &after, map);
//! assert_eq!(seen.len(), 1);
//! assert_eq!((seen[0].field.as_str(), seen[0].after.as_deref()), ("states", Some("checked")));
//! ```

use cup_protocol::{Node, Role, State};

use crate::action::{windows_change, Change};

/// What an action is judged by, read before it and while its effect is
/// watched for. `T` is the adapter's native facts of an element.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed<T> {
    /// The target's facts (`None`: gone, or no element is acted on).
    pub target: Option<T>,
    /// The top-level app windows (front to back where the platform says
    /// so): a native id and the title of each.
    pub windows: Vec<(i64, String)>,
    /// The focused element, as [`describe`] names it (`textbox "Search"`).
    pub focus: Option<String>,
}

impl<T> Default for Observed<T> {
    fn default() -> Self {
        Observed {
            target: None,
            windows: Vec::new(),
            focus: None,
        }
    }
}

/// Characters of a name [`describe`] shows.
const NAME_SHOWN: usize = 40;

/// States as a change shows them: their names, comma-separated
/// (`checked,focused`).
pub fn states_text(states: &[State]) -> String {
    states
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(",")
}

/// How a change names an element outside the snapshot (the focused one, or
/// one an event came from): its role and its quoted name cut at 40
/// characters (`textbox "Search"`), the role alone when it has no name.
pub fn describe(node: &Node) -> String {
    let name: String = node.name.chars().take(NAME_SHOWN).collect();
    if name.is_empty() {
        node.role.name().to_owned()
    } else {
        format!("{} \"{name}\"", node.role.name())
    }
}

/// The changes from `before` to `after`, the target named `target` (its
/// snapshot id, or `focus` when no element is acted on), its facts mapped
/// to CUP by `map`:
/// - of the target: `states`, `value`, and `name` (not of a window: a
///   title follows the document), or `children` (`present` → none) when
///   it is gone;
/// - `focus` (the element that has it, [`describe`]d) when it moved;
/// - `windows` when one opened, closed or changed its title
///   ([`windows_change`]).
pub fn changes<T>(
    target: &str,
    before: &Observed<T>,
    after: &Observed<T>,
    map: impl Fn(&T) -> Node,
) -> Vec<Change> {
    let mut out = Vec::new();
    let change = |field: &str, b, a| Change::new(target, field, b, a);
    match (&before.target, &after.target) {
        (Some(b), Some(a)) => {
            let (mb, ma) = (map(b), map(a));
            if mb.states != ma.states {
                out.push(change(
                    "states",
                    Some(states_text(&mb.states)),
                    Some(states_text(&ma.states)),
                ));
            }
            if mb.value != ma.value {
                out.push(change("value", mb.value, ma.value));
            }
            if mb.name != ma.name && ma.role != Role::Window {
                out.push(change("name", Some(mb.name), Some(ma.name)));
            }
        }
        (Some(_), None) => out.push(change("children", Some("present".into()), None)),
        _ => {}
    }
    if before.focus != after.focus {
        out.push(Change::new(
            "focus",
            "focus",
            before.focus.clone(),
            after.focus.clone(),
        ));
    }
    out.extend(windows_change(&before.windows, &after.windows));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up platform's facts: role, name, value, states.
    #[derive(Debug, Clone, PartialEq)]
    struct Facts {
        role: Role,
        name: &'static str,
        value: Option<&'static str>,
        states: Vec<State>,
    }

    fn map(f: &Facts) -> Node {
        let mut n = Node::new("", f.role, f.name);
        n.value = f.value.map(str::to_owned);
        n.states = f.states.clone();
        n
    }

    fn facts(role: Role, name: &'static str) -> Facts {
        Facts {
            role,
            name,
            value: None,
            states: Vec::new(),
        }
    }

    fn seen(
        target: Option<Facts>,
        windows: &[(i64, &str)],
        focus: Option<&str>,
    ) -> Observed<Facts> {
        Observed {
            target,
            windows: windows.iter().map(|(n, t)| (*n, (*t).to_owned())).collect(),
            focus: focus.map(str::to_owned),
        }
    }

    fn fields(c: &[Change]) -> Vec<(&str, &str)> {
        c.iter()
            .map(|c| (c.target.as_str(), c.field.as_str()))
            .collect()
    }

    #[test]
    fn states_values_names_focus_and_windows_are_compared() {
        let b = facts(Role::Checkbox, "Wi-Fi");
        let mut a = b.clone();
        a.states = vec![State::Checked, State::Focused];
        a.value = Some("on");
        a.name = "Wi-Fi (on)";
        let before = seen(Some(b), &[(1, "Settings")], None);
        let after = seen(
            Some(a),
            &[(1, "Settings"), (2, "Network")],
            Some("checkbox \"Wi-Fi\""),
        );
        let c = changes("e5", &before, &after, map);
        assert_eq!(
            fields(&c),
            [
                ("e5", "states"),
                ("e5", "value"),
                ("e5", "name"),
                ("focus", "focus"),
                ("windows", "windows")
            ]
        );
        assert_eq!(c[0].before.as_deref(), Some(""));
        assert_eq!(c[0].after.as_deref(), Some("checked,focused"));
        assert_eq!(
            (c[1].before.as_deref(), c[1].after.as_deref()),
            (None, Some("on"))
        );
        assert_eq!(c[2].after.as_deref(), Some("Wi-Fi (on)"));
        assert_eq!(c[3].before, None);
        assert_eq!(c[3].after.as_deref(), Some("checkbox \"Wi-Fi\""));
        assert!(changes("e5", &before, &before, map).is_empty());
    }

    #[test]
    fn a_window_retitled_is_not_a_name_change_and_a_gone_target_is() {
        let before = seen(Some(facts(Role::Window, "Notes")), &[], None);
        let after = seen(Some(facts(Role::Window, "Notes — Edited")), &[], None);
        assert!(changes("e1", &before, &after, map).is_empty());
        let gone = seen(None, &[], None);
        let c = changes("e1", &before, &gone, map);
        assert_eq!(fields(&c), [("e1", "children")]);
        assert_eq!(
            (c[0].before.as_deref(), c[0].after.as_deref()),
            (Some("present"), None)
        );
        assert!(
            changes("e1", &gone, &before, map).is_empty(),
            "appeared: not told"
        );
        assert_eq!(Observed::<Facts>::default(), seen(None, &[], None));
    }

    #[test]
    fn elements_are_described_by_role_and_a_name_of_40_characters() {
        assert_eq!(
            describe(&Node::new("", Role::TextBox, "Search")),
            "textbox \"Search\""
        );
        assert_eq!(describe(&Node::new("", Role::Button, "")), "button");
        let long = "ä".repeat(50);
        assert_eq!(
            describe(&Node::new("", Role::Link, long.as_str())),
            format!("link \"{}\"", "ä".repeat(40))
        );
        assert_eq!(states_text(&[]), "");
        assert_eq!(
            states_text(&[State::Expanded, State::Selected]),
            "expanded,selected"
        );
    }
}
