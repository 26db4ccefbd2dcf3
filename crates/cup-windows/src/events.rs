//! UI Automation events as evidence of an action's effect. While an action
//! runs, cup listens to property and structure changes in the target's
//! window (the OS layer registers the handlers); what arrives — a toggle
//! state, a value, a name, children added or removed, anywhere in the
//! window — and focus moves become [`Change`]s, merged with what the re-read of the
//! target, the focus and the windows found. An event is evidence even
//! when the change it reports is gone again before the re-read.

use cup::watch::states_text;
use cup::Change;

use crate::act::describe;
use crate::control::prop;
use crate::facts::Element;
use crate::mapping::{map_element, MapContext};

/// The properties whose changes are listened to.
pub const PROPERTIES: [i32; 7] = [
    prop::NAME,
    prop::VALUE_VALUE,
    prop::RANGE_VALUE,
    prop::TOGGLE_STATE,
    prop::EXPAND_COLLAPSE_STATE,
    prop::SELECTION_ITEM_IS_SELECTED,
    prop::IS_ENABLED,
];

/// Most events kept per action (a window that streams changes, such as a
/// progress bar, is not recorded without end).
pub const MAX_EVENTS: usize = 256;

/// What an event said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// `UIA_*PropertyId` of a property that changed.
    Property(i32),
    /// A `StructureChangeType`: 0 child added, 1 child removed, 2
    /// children invalidated, 3 bulk added, 4 bulk removed, 5 reordered.
    Structure(i32),
    /// The keyboard focus moved to the sender.
    Focus,
}

/// One event, with its sender's facts as cached when it was raised.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    /// What happened.
    pub kind: EventKind,
    /// The element that raised it (`None`: it could not be read).
    pub sender: Option<Element>,
}

/// The changes the events report. The target (runtime id `target_rid`)
/// is named `target`; other elements by their role and name.
pub fn event_changes(target: &str, target_rid: &[i32], events: &[Seen]) -> Vec<Change> {
    let ctx = MapContext::default();
    let mut out: Vec<Change> = Vec::new();
    for e in events {
        let Some(sender) = &e.sender else { continue };
        let who = if !target_rid.is_empty() && sender.runtime_id == target_rid {
            target.to_owned()
        } else {
            describe(sender)
        };
        let change = match e.kind {
            EventKind::Property(p) => {
                let m = map_element(sender, &ctx);
                match p {
                    prop::NAME => Change::new(&who, "name", None, Some(m.name)),
                    prop::VALUE_VALUE | prop::RANGE_VALUE => {
                        Change::new(&who, "value", None, m.value)
                    }
                    _ => Change::new(&who, "states", None, Some(states_text(&m.states))),
                }
            }
            EventKind::Structure(kind) => {
                let what = match kind {
                    0 | 3 => "added",
                    1 | 4 => "removed",
                    5 => "reordered",
                    _ => "changed",
                };
                Change::new(&who, "children", None, Some(what.to_owned()))
            }
            EventKind::Focus => Change::new("focus", "focus", None, Some(describe(sender))),
        };
        cup::keep_last(&mut out, change);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::ct;

    fn el(control_type: i32, name: &str, rid: &[i32]) -> Element {
        Element {
            control_type,
            name: name.into(),
            is_enabled: true,
            runtime_id: rid.to_vec(),
            ..Element::default()
        }
    }

    #[test]
    fn the_target_by_id_others_by_role_and_name() {
        let mut check = el(ct::CHECK_BOX, "Bold", &[42, 1]);
        check.patterns.toggle = Some(1);
        let label = el(ct::TEXT, "Saved", &[42, 2]);
        let list = el(ct::LIST, "Files", &[42, 3]);
        let events = vec![
            Seen {
                kind: EventKind::Property(prop::TOGGLE_STATE),
                sender: Some(check),
            },
            Seen {
                kind: EventKind::Property(prop::NAME),
                sender: Some(label),
            },
            Seen {
                kind: EventKind::Structure(0),
                sender: Some(list.clone()),
            },
            Seen {
                kind: EventKind::Structure(1),
                sender: Some(list),
            },
            Seen {
                kind: EventKind::Structure(0),
                sender: None,
            },
            Seen {
                kind: EventKind::Focus,
                sender: Some(el(ct::EDIT, "Search", &[42, 4])),
            },
        ];
        let c = event_changes("e7", &[42, 1], &events);
        let got: Vec<(&str, &str, Option<&str>)> = c
            .iter()
            .map(|c| (c.target.as_str(), c.field.as_str(), c.after.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("e7", "states", Some("checked")),
                ("text \"Saved\"", "name", Some("Saved")),
                // Added then removed: the last word counts.
                ("list \"Files\"", "children", Some("removed")),
                ("focus", "focus", Some("textbox \"Search\"")),
            ]
        );
    }

    #[test]
    fn no_target_id_means_every_sender_is_described() {
        let e = Seen {
            kind: EventKind::Property(prop::NAME),
            sender: Some(el(ct::BUTTON, "OK", &[])),
        };
        let c = event_changes("e1", &[], &[e]);
        assert_eq!(c[0].target, "button \"OK\"");
    }
}
