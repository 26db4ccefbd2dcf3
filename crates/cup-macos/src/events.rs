//! AX notifications as evidence of an action's effect. While an action
//! runs, an `AXObserver` on the target's app (the OS layer) records the
//! notifications it posts — a value, a title, focus, selection, elements
//! and windows created or destroyed, menus opened and closed — with the
//! element each came from, read when it arrived. They become [`Change`]s,
//! merged with what re-reading the target, the focus and the windows
//! found: a notification is evidence even when the change it reports is
//! gone again before the re-read.

use cup::watch::states_text;
use cup::Change;

use crate::act::describe;
use crate::facts::AxElement;
use crate::mapping::{map_element, Context, MapContext};
use crate::screen::Layout;

/// The notifications observed, registered on the app element (they come
/// from every element of the app).
pub const NOTIFICATIONS: [&str; 14] = [
    "AXValueChanged",
    "AXTitleChanged",
    "AXFocusedUIElementChanged",
    "AXSelectedChildrenChanged",
    "AXSelectedRowsChanged",
    "AXSelectedTextChanged",
    "AXCreated",
    "AXUIElementDestroyed",
    "AXWindowCreated",
    "AXSheetCreated",
    "AXMenuOpened",
    "AXMenuClosed",
    "AXRowExpanded",
    "AXRowCollapsed",
];

/// Most notifications kept per action (an app that streams changes, such
/// as a progress bar, is not recorded without end); the element of each is
/// read, so this also bounds the reads.
pub const MAX_EVENTS: usize = 128;

/// One notification, with the element it came from as read when it
/// arrived.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    /// `AXValueChanged`, ...
    pub notification: String,
    /// The element (`None`: it could not be read, or it is gone).
    pub element: Option<AxElement>,
    /// It is the action's target (`CFEqual`).
    pub is_target: bool,
}

/// The changes the notifications report. The target is named `target`,
/// other elements by their role and name.
pub fn event_changes(target: &str, events: &[Seen], layout: &Layout) -> Vec<Change> {
    let ctx = MapContext {
        layout,
        family: Context::default(),
    };
    let mut out: Vec<Change> = Vec::new();
    for e in events {
        let who = match (&e.element, e.is_target) {
            (_, true) => target.to_owned(),
            (Some(el), false) => describe(el, layout),
            (None, false) => "an element that is gone".to_owned(),
        };
        let mapped = e.element.as_ref().map(|el| map_element(el, &ctx));
        let change = match e.notification.as_str() {
            "AXValueChanged" => Change::new(&who, "value", None, mapped.and_then(|m| m.value)),
            "AXTitleChanged" => Change::new(&who, "name", None, mapped.map(|m| m.name)),
            "AXFocusedUIElementChanged" => Change::new("focus", "focus", None, Some(who)),
            "AXSelectedChildrenChanged" | "AXSelectedRowsChanged" => {
                Change::new(&who, "selection", None, Some("changed".into()))
            }
            "AXSelectedTextChanged" => {
                Change::new(&who, "text selection", None, Some("changed".into()))
            }
            "AXCreated" | "AXWindowCreated" | "AXSheetCreated" => {
                Change::new(&who, "children", None, Some("added".into()))
            }
            "AXUIElementDestroyed" => Change::new(&who, "children", None, Some("removed".into())),
            "AXMenuOpened" => Change::new(&who, "menu", None, Some("opened".into())),
            "AXMenuClosed" => Change::new(&who, "menu", None, Some("closed".into())),
            "AXRowExpanded" | "AXRowCollapsed" => {
                Change::new(&who, "states", None, mapped.map(|m| states_text(&m.states)))
            }
            _ => continue,
        };
        cup::keep_last(&mut out, change);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::AxValue;

    fn el(role: &str, title: &str) -> AxElement {
        AxElement {
            role: role.into(),
            title: Some(title.into()).filter(|t: &String| !t.is_empty()),
            enabled: Some(true),
            ..AxElement::default()
        }
    }

    fn seen(n: &str, element: Option<AxElement>, is_target: bool) -> Seen {
        Seen {
            notification: n.into(),
            element,
            is_target,
        }
    }

    #[test]
    fn the_target_by_id_others_by_role_and_name() {
        let layout = crate::screen::one_display(1440.0, 900.0, 2.0);
        let mut field = el("AXTextField", "To");
        field.value = Some(AxValue::Text("a".into()));
        let mut typed = field.clone();
        typed.value = Some(AxValue::Text("ab".into()));
        let events = vec![
            seen("AXValueChanged", Some(field), true),
            seen("AXValueChanged", Some(typed), true),
            seen(
                "AXFocusedUIElementChanged",
                Some(el("AXButton", "Send")),
                false,
            ),
            seen("AXWindowCreated", Some(el("AXWindow", "Untitled")), false),
            seen("AXUIElementDestroyed", None, false),
            seen("AXMenuOpened", Some(el("AXMenu", "")), false),
            seen("AXLayoutChanged", Some(el("AXGroup", "")), false),
        ];
        let c = event_changes("e4", &events, &layout);
        let rows: Vec<(&str, &str, Option<&str>)> = c
            .iter()
            .map(|c| (c.target.as_str(), c.field.as_str(), c.after.as_deref()))
            .collect();
        assert_eq!(
            rows,
            [
                ("e4", "value", Some("ab")),
                ("focus", "focus", Some("button \"Send\"")),
                ("window \"Untitled\"", "children", Some("added")),
                ("an element that is gone", "children", Some("removed")),
                ("menu", "menu", Some("opened")),
            ]
        );
    }
}
