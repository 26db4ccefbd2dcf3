//! What the action observes on its target, before and after: states, name,
//! value, text. Reading is a handful of concurrent calls; the diff is pure.

use crate::peers::Peer;
use cup::Change;

use crate::atspi_calls::{self as calls, ObjRef};
use crate::facts::{AtspiRole, AtspiState, Interface, InterfaceSet, StateSet};
use crate::mapping;

/// Observable facts of one element.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    /// AT-SPI states (empty when the element is gone).
    pub states: StateSet,
    /// Accessible name.
    pub name: String,
    /// `Value.CurrentValue`.
    pub value: Option<f64>,
    /// Text content (inputs).
    pub text: Option<String>,
    /// The element answered.
    pub alive: bool,
}

/// What to read of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    value: bool,
    text: bool,
}

impl Plan {
    /// Reads the value of range widgets and the text of text inputs.
    pub fn for_element(role: AtspiRole, interfaces: InterfaceSet) -> Plan {
        let cup = mapping::native_role(role);
        Plan {
            value: interfaces.contains(Interface::Value),
            text: interfaces.contains(Interface::Text)
                && (mapping::kinds::is_text_input(cup)
                    || interfaces.contains(Interface::EditableText)),
        }
    }
}

/// Reads the facts of `obj` (concurrently).
pub async fn read(conn: &Peer, obj: &ObjRef, plan: Plan) -> Facts {
    let (states, name, value, text) = tokio::join!(
        calls::states(conn, obj),
        calls::property::<String>(conn, obj, "org.a11y.atspi.Accessible", "Name"),
        async {
            if plan.value {
                calls::property::<f64>(conn, obj, "org.a11y.atspi.Value", "CurrentValue")
                    .await
                    .ok()
            } else {
                None
            }
        },
        async {
            if plan.text {
                calls::text(conn, obj, 100_000).await.ok()
            } else {
                None
            }
        },
    );
    Facts {
        alive: states.is_ok(),
        states: states.unwrap_or_default(),
        name: name.unwrap_or_default(),
        value,
        text,
    }
}

/// A descendant of a scrolling element whose position on screen shows a
/// scroll (AT-SPI announces none): down the first children, the first one
/// placed elsewhere than the element itself (a viewport fills its pane;
/// its content moves), at most three levels down.
pub async fn scroll_anchor(conn: &Peer, obj: &ObjRef) -> Option<ObjRef> {
    let own = calls::extents(conn, obj, calls::COORD_SCREEN).await.ok();
    let mut at = obj.clone();
    for _ in 0..3 {
        // The first child alone: a sheet that manages its descendants
        // would create all of its cells for `GetChildren`.
        let first = calls::child_at_index(conn, &at, 0).await.ok()??;
        let placed = calls::extents(conn, &first, calls::COORD_SCREEN).await.ok();
        if placed.is_some_and(|e| !e.is_unplaced()) && placed != own {
            return Some(first);
        }
        at = first;
    }
    None
}

/// Where `anchor` is on screen now (`x,y`), if it answers.
pub async fn anchor_position(conn: &Peer, anchor: &ObjRef) -> Option<(i32, i32)> {
    calls::extents(conn, anchor, calls::COORD_SCREEN)
        .await
        .ok()
        .filter(|e| !e.is_unplaced())
        .map(|e| (e.x, e.y))
}

/// The change a scroll made, from its anchor's positions before and
/// after: the content moved by the difference.
pub fn scrolled(target: &str, before: (i32, i32), after: (i32, i32)) -> Option<Change> {
    (before != after).then(|| {
        Change::new(
            target,
            "scroll",
            Some(format!("content at {},{}", before.0, before.1)),
            Some(format!("content at {},{}", after.0, after.1)),
        )
    })
}

/// The states that an action can change (not the ones that flicker with
/// focus or layout).
const WATCHED: &[AtspiState] = &[
    AtspiState::Checked,
    AtspiState::Pressed,
    AtspiState::Indeterminate,
    AtspiState::Expanded,
    AtspiState::Selected,
    AtspiState::Focused,
    AtspiState::Sensitive,
    AtspiState::Showing,
    AtspiState::Visible,
    AtspiState::Active,
];

fn state_word(s: AtspiState) -> String {
    format!("{s:?}").to_ascii_lowercase()
}

/// Names of the watched states in `states`.
pub fn watched_states(states: StateSet) -> Vec<String> {
    WATCHED
        .iter()
        .filter(|s| states.contains(**s))
        .map(|s| state_word(*s))
        .collect()
}

/// The differences between two readings of element `target`.
pub fn diff(target: &str, before: &Facts, after: &Facts) -> Vec<Change> {
    let mut out = Vec::new();
    let change = |field: &str, b, a| Change::new(target, field, b, a);
    if before.alive && !after.alive {
        out.push(change("element", Some("present".into()), None));
        return out;
    }
    let (b, a) = (watched_states(before.states), watched_states(after.states));
    if b != a {
        let added: Vec<&String> = a.iter().filter(|s| !b.contains(s)).collect();
        let removed: Vec<&String> = b.iter().filter(|s| !a.contains(s)).collect();
        let describe =
            |v: &[&String], sign: char| v.iter().map(|s| format!("{sign}{s}")).collect::<Vec<_>>();
        let mut delta = describe(&added, '+');
        delta.extend(describe(&removed, '-'));
        out.push(change("states", None, Some(delta.join(","))));
    }
    if before.name != after.name {
        out.push(change(
            "name",
            Some(before.name.clone()),
            Some(after.name.clone()),
        ));
    }
    if before.value != after.value {
        let f = |v: Option<f64>| v.and_then(mapping::text::format_number);
        out.push(change("value", f(before.value), f(after.value)));
    }
    if before.text != after.text {
        out.push(change("text", before.text.clone(), after.text.clone()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(states: &[AtspiState]) -> Facts {
        let mut s = StateSet::empty();
        for st in states {
            s.insert(*st);
        }
        Facts {
            states: s,
            name: "checkbutton".into(),
            alive: true,
            ..Facts::default()
        }
    }

    #[test]
    fn a_scroll_is_the_content_moving() {
        assert!(scrolled("e3", (8, 106), (8, 106)).is_none());
        let c = scrolled("e3", (8, 106), (8, -94));
        assert_eq!(
            c.map(|c| (c.field, c.after)),
            Some(("scroll".to_owned(), Some("content at 8,-94".to_owned())))
        );
    }

    #[test]
    fn checked_appears() {
        let before = facts(&[AtspiState::Showing, AtspiState::Focusable]);
        let after = facts(&[
            AtspiState::Showing,
            AtspiState::Focusable,
            AtspiState::Checked,
        ]);
        let d = diff("e7", &before, &after);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].field, "states");
        assert_eq!(d[0].after.as_deref(), Some("+checked"));
    }

    #[test]
    fn unwatched_flicker_is_no_change() {
        let before = facts(&[AtspiState::Showing, AtspiState::Focusable]);
        let after = facts(&[
            AtspiState::Showing,
            AtspiState::Focusable,
            AtspiState::Armed,
        ]);
        assert!(diff("e7", &before, &after).is_empty());
    }

    #[test]
    fn value_text_name_and_disappearance() {
        let mut before = facts(&[]);
        before.value = Some(50.0);
        before.text = Some("a".into());
        let mut after = before.clone();
        after.value = Some(51.0);
        after.text = Some("ab".into());
        after.name = "other".into();
        let fields: Vec<String> = diff("e1", &before, &after)
            .into_iter()
            .map(|c| c.field)
            .collect();
        assert_eq!(fields, vec!["name", "value", "text"]);
        let gone = Facts::default();
        assert_eq!(diff("e1", &before, &gone)[0].field, "element");
    }
}
