//! Elements an action touched that the snapshot does not have, named by
//! what they are: `textbox "Search"` (their CUP role and name) instead of
//! an AT-SPI path. They are read after the action, all at once and under
//! one short deadline, so naming them costs an action a few milliseconds.

use std::collections::HashMap;
use std::time::Duration;

use cup::Change;
use cup_protocol::Role;
use tokio::time::Instant;

use crate::atspi_calls::{self as calls, Caller, ObjRef};
use crate::facts::{AtspiRole, AtspiState, InterfaceSet, RawNode};
use crate::mapping;

/// How long the reads may take in all.
pub const BUDGET: Duration = Duration::from_millis(200);

/// Most elements read per action; any more are named [`Seen::Unread`].
pub const MOST: usize = 24;

/// Characters of a name shown (longer names are cut with `…`).
pub const NAME_SHOWN: usize = 40;

/// What was read of an element outside the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// Its CUP role and accessible name.
    Is(Role, String),
    /// It no longer exists (or its application is gone).
    Gone,
    /// It did not answer within [`BUDGET`], or was past [`MOST`].
    Unread,
}

/// How a change names the element: `textbox "Search"`, `button` (no
/// name), `an element that is gone`, `an element outside the snapshot`.
pub fn describe(seen: &Seen) -> String {
    match seen {
        Seen::Is(role, name) => {
            let name = mapping::text::one_line(name, NAME_SHOWN + 1);
            if name.is_empty() {
                role.name().to_owned()
            } else if name.chars().count() > NAME_SHOWN {
                let cut = mapping::text::cap(&name, NAME_SHOWN - 1);
                format!("{} {:?}", role.name(), format!("{}…", cut.trim_end()))
            } else {
                format!("{} {name:?}", role.name())
            }
        }
        Seen::Gone => "an element that is gone".to_owned(),
        Seen::Unread => "an element outside the snapshot".to_owned(),
    }
}

/// `true` for an AT-SPI reference (`:1.3:/org/a11y/atspi/accessible/91`):
/// events come from unique bus names, which start with `:`; snapshot ids
/// and the words `focus`, `pointer` never do.
pub fn is_native(s: &str) -> bool {
    s.starts_with(':') && s.contains(":/")
}

/// The AT-SPI references `changes` name (as targets, or as the element
/// focus moved to), each once, in order.
pub fn native_refs(changes: &[Change]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let focus_holders = changes
        .iter()
        .filter(|c| c.field == "focus")
        .filter_map(|c| c.after.as_deref());
    for r in changes
        .iter()
        .map(|c| c.target.as_str())
        .chain(focus_holders)
    {
        if is_native(r) && !out.iter().any(|o| o == r) {
            out.push(r.to_owned());
        }
    }
    out
}

/// `changes` with every AT-SPI reference replaced by its name in `names`
/// (or [`Seen::Unread`]'s), then changes that became identical (two
/// unread elements that both lost `showing`) said once.
pub fn rename(changes: Vec<Change>, names: &HashMap<String, String>) -> Vec<Change> {
    let name = |s: String| -> String {
        if is_native(&s) {
            names
                .get(&s)
                .cloned()
                .unwrap_or_else(|| describe(&Seen::Unread))
        } else {
            s
        }
    };
    let mut out: Vec<Change> = Vec::with_capacity(changes.len());
    for mut c in changes {
        c.target = name(c.target);
        if c.field == "focus" {
            c.before = c.before.map(name);
            c.after = c.after.map(name);
        }
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Reads what `obj` is: its role, name, states and interfaces at once,
/// mapped as the capture maps them.
pub async fn read(conn: &impl Caller, obj: &ObjRef) -> Seen {
    let (role, name, states, interfaces) = tokio::join!(
        calls::role(conn, obj),
        calls::property::<String>(conn, obj, "org.a11y.atspi.Accessible", "Name"),
        calls::states(conn, obj),
        calls::interfaces(conn, obj),
    );
    let role = match role {
        Ok(r) => r,
        Err(e) if calls::is_timeout(&e) => return Seen::Unread,
        Err(_) => return Seen::Gone,
    };
    let states = states.unwrap_or_default();
    if role == AtspiRole::Invalid || states.contains(AtspiState::Defunct) {
        return Seen::Gone;
    }
    let mut raw = RawNode::new(role);
    raw.name = name.unwrap_or_default();
    raw.states = states;
    raw.interfaces = interfaces.unwrap_or_else(|_| InterfaceSet::empty());
    let (role, name) = mapping::role::resolve(&raw);
    Seen::Is(role, name)
}

/// `changes` with the elements outside the snapshot named (see
/// [`rename`]); `peer_of` gives the connection for an application's bus
/// name. At most [`MOST`] elements are read, under [`BUDGET`] in all.
pub async fn name<P: Caller>(changes: Vec<Change>, peer_of: impl Fn(&str) -> P) -> Vec<Change> {
    let refs = native_refs(&changes);
    if refs.is_empty() {
        return changes;
    }
    let deadline = Instant::now() + BUDGET;
    let peer_of = &peer_of;
    let seen = futures::future::join_all(refs.iter().take(MOST).map(|r| async move {
        let Some(obj) = ObjRef::from_key(r) else {
            return Seen::Unread;
        };
        let peer = peer_of(&obj.bus);
        tokio::time::timeout_at(deadline, read(&peer, &obj))
            .await
            .unwrap_or(Seen::Unread)
    }))
    .await;
    let names: HashMap<String, String> = refs
        .iter()
        .zip(seen.iter())
        .map(|(r, s)| (r.clone(), describe(s)))
        .collect();
    rename(changes, &names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(target: &str, field: &str, after: &str) -> Change {
        Change {
            target: target.into(),
            field: field.into(),
            before: None,
            after: Some(after.into()),
        }
    }

    #[test]
    fn elements_read_are_named_by_role_and_short_name() {
        assert_eq!(
            describe(&Seen::Is(Role::TextBox, "Search".into())),
            "textbox \"Search\""
        );
        assert_eq!(describe(&Seen::Is(Role::Button, "  ".into())), "button");
        assert_eq!(
            describe(&Seen::Is(Role::Text, "say \"hi\"\nnow".into())),
            "text \"say \\\"hi\\\" now\""
        );
        let long = "a".repeat(39) + " and then a great deal more";
        assert_eq!(
            describe(&Seen::Is(Role::Heading, long)),
            format!("heading \"{}…\"", "a".repeat(39))
        );
        let exact = "b".repeat(NAME_SHOWN);
        assert_eq!(
            describe(&Seen::Is(Role::Heading, exact.clone())),
            format!("heading \"{exact}\"")
        );
        assert_eq!(describe(&Seen::Gone), "an element that is gone");
        assert_eq!(describe(&Seen::Unread), "an element outside the snapshot");
    }

    #[test]
    fn only_native_references_are_renamed_and_duplicates_fold() {
        let a = ":1.3:/org/a11y/atspi/accessible/91";
        let b = ":1.3:/org/a11y/atspi/accessible/92";
        let c = ":1.3:/org/a11y/atspi/accessible/93";
        let changes = vec![
            change("e12", "states", "+checked"),
            change(a, "selection", "changed"),
            change("focus", "focus", a),
            change(b, "states", "-showing"),
            change(c, "states", "-showing"),
            change("pointer", "position", "3,4"),
        ];
        assert_eq!(native_refs(&changes), vec![a, b, c]);
        assert!(!is_native("e12") && !is_native("focus") && !is_native("1.3:/x"));
        let names: HashMap<String, String> = [
            (a.to_owned(), "textbox \"Search\"".to_owned()),
            (b.to_owned(), describe(&Seen::Gone)),
            (c.to_owned(), describe(&Seen::Gone)),
        ]
        .into();
        let summary: Vec<(String, String, String)> = rename(changes, &names)
            .into_iter()
            .map(|c| (c.target, c.field, c.after.unwrap_or_default()))
            .collect();
        let s = |t: &str, f: &str, a: &str| (t.to_owned(), f.to_owned(), a.to_owned());
        assert_eq!(
            summary,
            vec![
                s("e12", "states", "+checked"),
                s("textbox \"Search\"", "selection", "changed"),
                s("focus", "focus", "textbox \"Search\""),
                s("an element that is gone", "states", "-showing"),
                s("pointer", "position", "3,4"),
            ]
        );
    }

    #[test]
    fn a_reference_without_a_name_is_named_generically() {
        let a = ":1.9:/org/a11y/atspi/accessible/1";
        let out = rename(vec![change(a, "text", "changed")], &HashMap::new());
        assert_eq!(out[0].target, "an element outside the snapshot");
    }
}
