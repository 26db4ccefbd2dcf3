//! Actions: what an agent asks for, and what it gets back — including the
//! effect the adapter actually observed. No "success" without evidence:
//! `effect` is `confirmed` only when a change was seen.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What the adapter saw after an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// A change was observed on the target or around it.
    Confirmed,
    /// Nothing observable changed within the settle time.
    NoChange,
    /// The effect could not be observed (e.g. the target is gone or the
    /// change is not exposed).
    Unverified,
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Effect::Confirmed => "confirmed",
            Effect::NoChange => "no_change",
            Effect::Unverified => "unverified",
        })
    }
}

/// One observed difference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// What changed: an element id of the snapshot (`e12`); `focus` (its
    /// `after` is the element that has it now), `page` (web) or `pointer`;
    /// or, for an element outside the snapshot, what it is, read after the
    /// action: its role and quoted name (`textbox "Search"`, the name cut
    /// at 40 characters; the role alone when it has none), `an element
    /// that is gone` when it no longer exists, `an element outside the
    /// snapshot` when it could not be read in time.
    pub target: String,
    /// `states`, `value`, `name`, `text`, `focus`, `windows`, `children`.
    pub field: String,
    /// Before the action (absent when unknown or new).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// After the action (absent when gone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

impl Change {
    /// A change of `field` of `target`.
    pub fn new(
        target: impl Into<String>,
        field: impl Into<String>,
        before: Option<String>,
        after: Option<String>,
    ) -> Change {
        Change {
            target: target.into(),
            field: field.into(),
            before,
            after,
        }
    }
}

/// `read` (what re-reading found changed) and, after them, the changes
/// events reported of fields the re-read did not see change (an event is
/// evidence even when what it reports is gone again before the re-read).
pub fn merge(mut read: Vec<Change>, events: Vec<Change>) -> Vec<Change> {
    for c in events {
        if !read
            .iter()
            .any(|r| r.target == c.target && r.field == c.field)
        {
            read.push(c);
        }
    }
    read
}

/// Adds `c` to `out`, or, when `out` has a change of the same target and
/// field already, sets that one's `after` to `c`'s: the last event of an
/// element's field says how it ended.
pub fn keep_last(out: &mut Vec<Change>, c: Change) {
    match out
        .iter_mut()
        .find(|o| o.target == c.target && o.field == c.field)
    {
        Some(o) => o.after = c.after,
        None => out.push(c),
    }
}

/// The `windows` change between two lists of top-level windows (a native
/// id and a title each): present when one opened, closed or changed its
/// title; before and after list the titles.
pub fn windows_change(before: &[(i64, String)], after: &[(i64, String)]) -> Option<Change> {
    let gone =
        |a: &[(i64, String)], b: &[(i64, String)]| a.iter().any(|w| !b.iter().any(|o| o.0 == w.0));
    let retitled = before
        .iter()
        .any(|b| after.iter().any(|a| a.0 == b.0 && a.1 != b.1));
    if !(gone(after, before) || gone(before, after) || retitled) {
        return None;
    }
    let titles = |w: &[(i64, String)]| -> String {
        w.iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    Some(Change::new(
        "windows",
        "windows",
        Some(titles(before)),
        Some(titles(after)),
    ))
}

/// Changes of other elements listed one by one up to this many alike;
/// past it they are grouped.
const GROUP_OVER: usize = 3;

/// Ids named in a group's target before "+N more".
const GROUP_NAMES: usize = 3;

/// Shortens a change list for a reader: changes of `target` (the acted-on
/// element), of focus and of windows stay as they are, first; changes of
/// other elements that are alike (same field, before and after) are
/// grouped into one when there are more than three, e.g. a page switch
/// that hides 80 elements gives one `e14 e15 e16 +77 more states:
/// -showing`.
pub fn condense(changes: Vec<Change>, target: Option<&str>) -> Vec<Change> {
    let primary = |c: &Change| {
        Some(c.target.as_str()) == target || c.target == "focus" || c.field == "windows"
    };
    let (mut out, others): (Vec<Change>, Vec<Change>) = changes.into_iter().partition(primary);
    let mut groups: Vec<Vec<Change>> = Vec::new();
    for c in others {
        match groups.iter_mut().find(|g| {
            g.first()
                .is_some_and(|f| f.field == c.field && f.before == c.before && f.after == c.after)
        }) {
            Some(g) => g.push(c),
            None => groups.push(vec![c]),
        }
    }
    for group in groups {
        if group.len() <= GROUP_OVER {
            out.extend(group);
            continue;
        }
        let names: Vec<&str> = group
            .iter()
            .take(GROUP_NAMES)
            .map(|c| c.target.as_str())
            .collect();
        let Some(first) = group.first() else {
            continue;
        };
        out.push(Change {
            target: format!("{} +{} more", names.join(" "), group.len() - names.len()),
            field: first.field.clone(),
            before: first.before.clone(),
            after: first.after.clone(),
        });
    }
    out
}

/// The result of an action, press, open_app or batch step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionResult {
    /// The action was delivered (and not refused by the toolkit); whether
    /// it changed anything is `effect`.
    pub success: bool,
    /// What happened, e.g. `Toggled (checked)`.
    pub message: String,
    /// Why it failed, with what to do next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What was observed.
    pub effect: Effect,
    /// The observed differences.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
}

impl ActionResult {
    /// A result from what was observed: `no_change` is not a success.
    /// The action was delivered; `effect` says what was seen.
    pub fn observed(message: impl Into<String>, effect: Effect, changes: Vec<Change>) -> Self {
        ActionResult {
            success: true,
            message: message.into(),
            error: None,
            effect,
            changes,
        }
    }

    /// The result of an app launch: a success only once its window is
    /// seen (a launch whose window never appeared is not reported as done).
    pub fn launched(launched: &crate::Launched) -> Self {
        ActionResult {
            success: launched.window.is_some(),
            message: format!("{} launched (pid {})", launched.name, launched.pid),
            error: launched
                .window
                .is_none()
                .then(|| "no window appeared in time; take a snapshot to check".to_owned()),
            effect: if launched.window.is_some() {
                Effect::Confirmed
            } else {
                Effect::NoChange
            },
            changes: Vec::new(),
        }
    }

    /// A failure before anything was done.
    pub fn failed(error: impl Into<String>) -> Self {
        ActionResult {
            success: false,
            message: String::new(),
            error: Some(error.into()),
            effect: Effect::Unverified,
            changes: Vec::new(),
        }
    }
}

pub use cup_protocol::Direction;

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(target: &str, field: &str, after: &str) -> Change {
        Change {
            target: target.into(),
            field: field.into(),
            before: None,
            after: Some(after.into()),
        }
    }

    #[test]
    fn alike_changes_of_others_are_grouped_after_the_target() {
        let mut changes = vec![
            ch("e2", "states", "-showing"),
            ch("e9", "states", "+checked"),
        ];
        for i in 10..20 {
            changes.push(ch(&format!("e{i}"), "states", "-showing"));
        }
        changes.push(ch("e30", "text", "changed"));
        changes.push(ch("focus", "focus", "e31"));
        let out = condense(changes, Some("e9"));
        let rows: Vec<(String, String, String)> = out
            .into_iter()
            .map(|c| (c.target, c.field, c.after.unwrap_or_default()))
            .collect();
        assert_eq!(
            rows,
            vec![
                ("e9".into(), "states".into(), "+checked".into()),
                ("focus".into(), "focus".into(), "e31".into()),
                (
                    "e2 e10 e11 +8 more".into(),
                    "states".into(),
                    "-showing".into()
                ),
                ("e30".into(), "text".into(), "changed".into()),
            ]
        );
    }

    #[test]
    fn few_alike_changes_stay_apart() {
        let changes = vec![
            ch("e1", "states", "-showing"),
            ch("e2", "states", "-showing"),
            ch("e3", "states", "-showing"),
        ];
        assert_eq!(condense(changes.clone(), None), changes);
    }

    #[test]
    fn windows_change_on_open_close_or_title() {
        let w = |v: &[(i64, &str)]| -> Vec<(i64, String)> {
            v.iter().map(|(i, t)| (*i, (*t).to_owned())).collect()
        };
        let one = w(&[(1, "Notes")]);
        assert_eq!(windows_change(&one, &one), None);
        let two = w(&[(1, "Notes"), (2, "Save")]);
        let c = windows_change(&one, &two).expect("opened");
        assert_eq!(c.after.as_deref(), Some("Notes | Save"));
        assert!(windows_change(&two, &one).is_some());
        assert!(windows_change(&one, &w(&[(1, "Notes — Edited")])).is_some());
    }

    #[test]
    fn events_add_only_what_the_re_read_missed() {
        let read = vec![ch("e1", "value", "b")];
        let events = vec![ch("e1", "value", "a"), ch("e2", "children", "added")];
        let m = merge(read, events);
        assert_eq!(
            m,
            vec![ch("e1", "value", "b"), ch("e2", "children", "added")]
        );
    }
}

/// Parameters of an element action.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActionParams {
    /// Text for `type` and `setvalue`.
    pub value: Option<String>,
    /// Direction for `scroll`.
    pub direction: Option<Direction>,
    /// Wheel steps for `scroll` (default 3).
    pub amount: Option<u32>,
}

/// The element an action targets, as the latest snapshot knows it.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// Its id in the snapshot.
    pub id: &'a str,
    /// The adapter's native reference.
    pub native: &'a str,
    /// The node (role, name, states, actions, bounds).
    pub node: &'a cup_protocol::Node,
    /// The window root the node belongs to.
    pub window: &'a cup_protocol::Node,
}
