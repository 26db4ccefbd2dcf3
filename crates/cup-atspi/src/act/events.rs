//! AT-SPI events seen while an action runs: a log fed by one subscription
//! per adapter (state, property, text, children, window and focus events of
//! every app), read by sequence number, and turned into changes around the
//! target.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use atspi::zbus;
use cup::Change;
use futures::StreamExt;
use tokio::sync::Notify;
use zbus::zvariant::OwnedValue;
use zbus::{Connection, MatchRule, MessageStream};

/// Events kept (older ones are dropped).
const CAPACITY: usize = 4096;

/// The event interfaces cup listens to.
const INTERFACES: [&str; 3] = [
    "org.a11y.atspi.Event.Object",
    "org.a11y.atspi.Event.Window",
    "org.a11y.atspi.Event.Focus",
];

/// One AT-SPI event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Sender (the app's unique bus name).
    pub bus: String,
    /// Object path of the source.
    pub path: String,
    /// Signal member: `StateChanged`, `PropertyChange`, `TextChanged`,
    /// `ChildrenChanged`, `Create`, `Destroy`, `Activate`, `Focus`, ...
    pub member: String,
    /// Event detail, e.g. `checked`, `accessible-name`, `insert`, `add`.
    pub kind: String,
    /// First detail number (1 = state set, 0 = cleared; children index).
    pub detail1: i32,
    /// The text a `TextChanged` event inserted or deleted (its `any_data`).
    pub text: Option<String>,
}

#[derive(Debug, Default)]
struct Inner {
    next: u64,
    events: VecDeque<(u64, Event)>,
}

/// The log of events; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    inner: Arc<Mutex<Inner>>,
    notify: Arc<Notify>,
    /// The accessibility bus the events come from (`None` in a log not
    /// [`EventLog::start`]ed).
    bus: Option<Connection>,
}

impl EventLog {
    /// Subscribes on `conn` (the accessibility bus) and starts feeding the
    /// log in the background.
    pub async fn start(conn: &Connection) -> Result<EventLog, zbus::Error> {
        let mut streams = Vec::new();
        for iface in INTERFACES {
            let rule = MatchRule::builder()
                .msg_type(zbus::message::Type::Signal)
                .interface(iface)?
                .build();
            streams.push(MessageStream::for_match_rule(rule, conn, Some(CAPACITY)).await?);
        }
        let log = EventLog {
            bus: Some(conn.clone()),
            ..EventLog::default()
        };
        let feed = log.clone();
        tokio::spawn(async move {
            let mut all = futures::stream::select_all(streams);
            while let Some(Ok(msg)) = all.next().await {
                if let Some(event) = parse(&msg) {
                    feed.push(event);
                }
            }
        });
        Ok(log)
    }

    fn push(&self, event: Event) {
        if let Ok(mut inner) = self.inner.lock() {
            let seq = inner.next;
            inner.next += 1;
            inner.events.push_back((seq, event));
            while inner.events.len() > CAPACITY {
                inner.events.pop_front();
            }
        }
        self.notify.notify_waiters();
    }

    /// The accessibility bus the events come from, to read their sources
    /// over.
    pub fn bus(&self) -> Option<&Connection> {
        self.bus.as_ref()
    }

    /// The sequence number of the next event.
    pub fn mark(&self) -> u64 {
        self.inner.lock().map(|i| i.next).unwrap_or(0)
    }

    /// Events since `mark`.
    pub fn since(&self, mark: u64) -> Vec<Event> {
        self.inner
            .lock()
            .map(|i| {
                i.events
                    .iter()
                    .filter(|(seq, _)| *seq >= mark)
                    .map(|(_, e)| e.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Waits until an event arrives or `until`.
    pub async fn wait(&self, until: tokio::time::Instant) {
        let _ = tokio::time::timeout_at(until, self.notify.notified()).await;
    }
}

fn parse(msg: &zbus::Message) -> Option<Event> {
    let header = msg.header();
    let bus = header.sender()?.to_string();
    let path = header.path()?.to_string();
    let member = header.member()?.to_string();
    type Body = (String, i32, i32, OwnedValue, HashMap<String, OwnedValue>);
    let (kind, detail1, text) = match msg.body().deserialize::<Body>() {
        Ok((kind, d1, _, data, _)) => {
            let text = (member == "TextChanged")
                .then(|| String::try_from(data).ok())
                .flatten();
            (kind, d1, text)
        }
        Err(_) => (String::new(), 0, None),
    };
    Some(Event {
        bus,
        path,
        member,
        kind,
        detail1,
        text,
    })
}

/// How many of the characters `typed` (not counting newlines and tabs)
/// the `TextChanged` insert events in `events` show arriving, in order
/// (in every app: typed keys go to whichever widget has the focus).
///
/// An insert counts only where all it carries is the next typed
/// characters (one key's character or a run of them) or the whole text so
/// far (widgets that insert their full text again). Inserts of anything
/// else — a status
/// bar's word count, a counter, an autocorrection — are not typed text and
/// count for nothing, so they never make text look arrived that is still
/// on its way. Text split over several objects (a paragraph per line) is
/// followed across them.
pub fn typed_so_far(events: &[Event], typed: &str) -> usize {
    let want: Vec<char> = typed.chars().filter(|c| !c.is_control()).collect();
    let mut k = 0;
    for e in events {
        if e.member != "TextChanged" || !e.kind.starts_with("insert") {
            continue;
        }
        let Some(text) = e.text.as_deref() else {
            continue;
        };
        let got: Vec<char> = crate::atspi_calls::without_offset_padding(text.to_owned())
            .chars()
            .filter(|c| !c.is_control())
            .collect();
        if got.is_empty() {
            continue;
        }
        if got.len() > k && want.starts_with(&got) {
            // The whole text so far, inserted again.
            k = got.len();
            continue;
        }
        if want[k..].starts_with(&got) {
            // The next key's character, or a run of them.
            k += got.len();
        }
    }
    k
}

/// States that are set for the moment a press lasts (Qt's click
/// animation, GTK's activation): `+pressed` alone is no effect yet.
pub const TRANSIENT_STATES: &[&str] = &["pressed", "armed"];

/// States whose change is evidence of an action's effect.
const EVIDENT_STATES: &[&str] = &[
    "checked",
    "pressed",
    "indeterminate",
    "expanded",
    "selected",
    "focused",
    "sensitive",
    "enabled",
    "showing",
    "visible",
    "active",
];

/// The changes that `events` show in the app `bus` (or in every app); `name_of` turns a
/// native reference (`bus:path`) into an element id when the snapshot has
/// it, else leaves it as it is (for [`super::outsiders::name`] to name
/// after the action). Repeated events of one kind on one element are
/// folded into one change.
pub fn changes(
    events: &[Event],
    bus: Option<&str>,
    name_of: &dyn Fn(&str) -> String,
) -> Vec<Change> {
    let mut out: Vec<Change> = Vec::new();
    let mut add = |target: String, field: &str, after: String| {
        if let Some(c) = out
            .iter_mut()
            .find(|c| c.target == target && c.field == field)
        {
            if field == "states" {
                // Fold state deltas: the last word about each state wins,
                // and a state that went and came back (`+pressed` then
                // `-pressed`: a click's press animation) is no change.
                let state = after.trim_start_matches(['+', '-']);
                let words: Vec<&str> = c
                    .after
                    .as_deref()
                    .unwrap_or_default()
                    .split(',')
                    .filter(|w| !w.is_empty())
                    .collect();
                let earlier = words
                    .iter()
                    .find(|w| w.trim_start_matches(['+', '-']) == state)
                    .copied();
                let mut kept: Vec<String> = words
                    .iter()
                    .filter(|w| w.trim_start_matches(['+', '-']) != state)
                    .map(|w| (*w).to_owned())
                    .collect();
                let undone = earlier.is_some_and(|w| w.starts_with('+') != after.starts_with('+'));
                if !undone {
                    kept.push(after);
                }
                c.after = Some(kept.join(","));
            } else if c.after.as_deref() != Some(after.as_str()) {
                c.after = Some(after);
            }
            return;
        }
        out.push(Change {
            target,
            field: field.to_owned(),
            before: None,
            after: Some(after),
        });
    };
    for e in events.iter().filter(|e| bus.is_none_or(|b| e.bus == b)) {
        let who = name_of(&format!("{}:{}", e.bus, e.path));
        match (e.member.as_str(), e.kind.as_str()) {
            ("StateChanged", state) if EVIDENT_STATES.contains(&state) => {
                let sign = if e.detail1 != 0 { '+' } else { '-' };
                if state == "focused" && e.detail1 != 0 {
                    add("focus".into(), "focus", who.clone());
                }
                add(who, "states", format!("{sign}{state}"));
            }
            ("PropertyChange", "accessible-name") => add(who, "name", "changed".into()),
            ("PropertyChange", "accessible-value") => add(who, "value", "changed".into()),
            ("TextChanged", _) => add(who, "text", "changed".into()),
            ("TextSelectionChanged", _) => add(who, "selection", "changed".into()),
            ("ChildrenChanged", kind) if kind.starts_with("add") => {
                add(who, "children", "added".into());
            }
            ("ChildrenChanged", kind) if kind.starts_with("remove") => {
                add(who, "children", "removed".into());
            }
            ("Create", _) => add(who, "windows", "opened".into()),
            ("Destroy", _) => add(who, "windows", "closed".into()),
            ("Focus", _) => add("focus".into(), "focus", who),
            _ => {}
        }
    }
    // States that all came back leave nothing to report.
    out.retain(|c| !(c.field == "states" && c.after.as_deref().is_some_and(str::is_empty)));
    out
}

/// How many of `events` from the app on `bus` say that something changed
/// without saying what: Qt 5 announces some state and property changes
/// with no state or property name (a wizard's page switch, for one).
/// Evidence that the app did something, not of what.
pub fn unreadable(events: &[Event], bus: &str) -> usize {
    events
        .iter()
        .filter(|e| {
            e.bus == bus
                && e.kind.is_empty()
                && matches!(e.member.as_str(), "StateChanged" | "PropertyChange")
        })
        .count()
}

/// Whether `changes` are only the focus moving (to the element acted on:
/// a side effect of most actions, not what they were for).
pub fn only_focus(changes: &[Change]) -> bool {
    !changes.is_empty()
        && changes.iter().all(|c| {
            c.field == "focus"
                || (c.field == "states"
                    && c.after.as_deref().is_some_and(|a| {
                        a.split(',')
                            .all(|w| w.trim_start_matches(['+', '-']) == "focused")
                    }))
        })
}

/// Whether `changes` are only a transient press of `target` (see
/// [`TRANSIENT_STATES`]) still held: the click's effect is yet to come.
pub fn only_transient(changes: &[Change], target: &str) -> bool {
    !changes.is_empty()
        && changes.iter().all(|c| {
            c.field == "states"
                && c.target == target
                && c.after.as_deref().is_some_and(|a| {
                    a.split(',').all(|w| {
                        w.strip_prefix('+')
                            .is_some_and(|s| TRANSIENT_STATES.contains(&s))
                    })
                })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(path: &str, member: &str, kind: &str, d1: i32) -> Event {
        Event {
            bus: ":1.5".into(),
            path: path.into(),
            member: member.into(),
            kind: kind.into(),
            detail1: d1,
            text: None,
        }
    }

    #[test]
    fn events_become_folded_changes_by_id() {
        let events = vec![
            ev("/a/1", "StateChanged", "checked", 1),
            ev("/a/2", "StateChanged", "checked", 0),
            ev("/a/3", "TextChanged", "insert", 0),
            ev("/a/3", "TextChanged", "insert", 1),
            ev("/a/9", "StateChanged", "armed", 1),
            ev("/a/4", "Create", "", 0),
            Event {
                bus: ":1.9".into(),
                ..ev("/other", "StateChanged", "checked", 1)
            },
        ];
        let name_of = |r: &str| match r {
            ":1.5:/a/1" => "e3".to_owned(),
            ":1.5:/a/2" => "e4".to_owned(),
            other => other.to_owned(),
        };
        let c = changes(&events, Some(":1.5"), &name_of);
        let summary: Vec<(String, String, String)> = c
            .into_iter()
            .map(|c| (c.target, c.field, c.after.unwrap_or_default()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("e3".into(), "states".into(), "+checked".into()),
                ("e4".into(), "states".into(), "-checked".into()),
                (":1.5:/a/3".into(), "text".into(), "changed".into()),
                (":1.5:/a/4".into(), "windows".into(), "opened".into()),
            ]
        );
    }

    #[test]
    fn a_press_that_came_back_is_no_change() {
        let name_of = |r: &str| r.to_owned();
        let held = vec![ev("/b", "StateChanged", "pressed", 1)];
        let c = changes(&held, None, &name_of);
        assert!(only_transient(&c, ":1.5:/b"), "{c:?}");
        assert!(!only_transient(&c, ":1.5:/other"));
        let released = vec![
            ev("/b", "StateChanged", "pressed", 1),
            ev("/b", "StateChanged", "pressed", 0),
        ];
        assert!(changes(&released, None, &name_of).is_empty());
        let with_effect = vec![
            ev("/b", "StateChanged", "pressed", 1),
            ev("/b", "StateChanged", "pressed", 0),
            ev("/display", "PropertyChange", "accessible-name", 0),
        ];
        let c = changes(&with_effect, None, &name_of);
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].field, "name");
        assert!(!only_transient(&c, ":1.5:/b"));
        // A checked state that stays is a change; one that came back is not.
        let toggled = vec![
            ev("/c", "StateChanged", "checked", 1),
            ev("/c", "StateChanged", "focused", 1),
        ];
        let c = changes(&toggled, None, &name_of);
        assert!(
            c.iter()
                .any(|c| c.after.as_deref() == Some("+checked,+focused")),
            "{c:?}"
        );
        assert!(!only_transient(&c, ":1.5:/c"));
    }

    #[test]
    fn focus_alone_is_told_apart() {
        let name_of = |r: &str| r.to_owned();
        let focus = vec![
            ev("/c", "StateChanged", "focused", 1),
            ev("/d", "StateChanged", "focused", 0),
            ev("/c", "Focus", "", 0),
        ];
        assert!(only_focus(&changes(&focus, None, &name_of)));
        let mut more = focus;
        more.push(ev("/c", "StateChanged", "checked", 1));
        assert!(!only_focus(&changes(&more, None, &name_of)));
        assert!(!only_focus(&[]));
    }

    #[test]
    fn nameless_events_are_counted_per_app() {
        let mut other = ev("/x", "StateChanged", "", 0);
        other.bus = ":1.9".into();
        let events = vec![
            ev("/a", "StateChanged", "", 0),
            ev("/b", "PropertyChange", "", 0),
            ev("/c", "StateChanged", "checked", 1),
            other,
        ];
        assert_eq!(unreadable(&events, ":1.5"), 2);
        assert_eq!(unreadable(&events, ":1.9"), 1);
    }

    fn insert(path: &str, text: &str) -> Event {
        let mut e = ev(path, "TextChanged", "insert", 0);
        e.text = Some(text.into());
        e
    }

    #[test]
    fn typed_text_is_followed_in_order_and_nothing_else_counts() {
        let typed = "Zoë ✓ 東京 👍🏽";
        // One key at a time, a delete in between.
        let mut d = ev("/t", "TextChanged", "delete", 0);
        d.text = Some("old".into());
        let keys = [insert("/t", "Z"), d, insert("/t", "o"), insert("/t", "ë ✓")];
        assert_eq!(typed_so_far(&keys, typed), 5);
        // A status bar's word count between the keys counts for nothing
        // (LibreOffice's "2 words, 9 characters"): the rest is still on its
        // way.
        let mut events = vec![insert("/t", "Zoë ✓ 東京")];
        events.push(insert("/status", "2 words, 9 characters"));
        events.push(insert("/status", " 3 words, 10 characters"));
        assert_eq!(typed_so_far(&events, typed), 8);
        // Gecko pads an astral character with U+FEFF.
        events.push(insert("/t", " 👍\u{feff}"));
        events.push(insert("/t", "🏽"));
        assert_eq!(typed_so_far(&events, typed), 11);
        // A widget that inserts its whole text again on every key.
        let whole = [insert("/q", "Z"), insert("/q", "Zo"), insert("/q", "Zoë")];
        assert_eq!(typed_so_far(&whole, typed), 3);
        // Lines in paragraphs of their own, Return's newline left out.
        let lines = [
            insert("/p1", "ab"),
            insert("/p1", "\n"),
            insert("/p2", "cd"),
        ];
        assert_eq!(typed_so_far(&lines, "ab\ncd"), 4);
        // Other events and empty inserts are no text.
        assert_eq!(
            typed_so_far(&[ev("/t", "StateChanged", "focused", 1)], typed),
            0
        );
        assert_eq!(typed_so_far(&[insert("/t", "")], typed), 0);
    }
}
