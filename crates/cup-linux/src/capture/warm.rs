//! Gecko's lazy facts. Firefox and Thunderbird keep the accessibility
//! facts of web content in their content processes and send them to the
//! parent process (the one on the accessibility bus) by kind — "cache
//! domains": names computed from content, bounds, actions, text, values,
//! relations — each only once some client first asks for it. Until then
//! the parent answers with what it has: empty names, `-1` extents, no
//! actions. A capture asks for every kind, so the first capture of such
//! an app asks and the next one reads the answers; from then on they stay
//! (for every document of that process, until it exits).
//!
//! So a capture that finds a Gecko document on screen without bounds, or
//! whose controls all came without actions (the signs that its facts were
//! never sent), is read again, with growing
//! pauses, until two captures in a row agree (at most [`SETTLE_MAX`]).
//! Once per app process (per unique bus name) and cup process: a later
//! cup process finds the facts there.

use std::collections::HashSet;
use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use cup::Capture;
use cup_protocol::Node;
use tokio::time::Instant;

use crate::raw::{AtspiRole, RawTree};

/// The first pause between captures; it doubles each time.
const FIRST_PAUSE: Duration = Duration::from_millis(40);
/// Longest the settling reads take.
pub(super) const SETTLE_MAX: Duration = Duration::from_secs(3);
/// Buses remembered (apps come and go; forgetting one costs a re-read).
const MAX_REMEMBERED: usize = 1024;

/// What a capture read of one Gecko document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DocFacts {
    /// The document is on screen (its tab is the one shown).
    pub(super) showing: bool,
    /// It has bounds.
    pub(super) placed: bool,
    /// Controls in it ([`is_control`]).
    pub(super) controls: usize,
    /// Those of them that named an action.
    pub(super) controls_with_actions: usize,
}

/// The roles of web controls that always have an action in Gecko.
pub(super) fn is_control(role: AtspiRole) -> bool {
    matches!(
        role,
        AtspiRole::Button
            | AtspiRole::CheckBox
            | AtspiRole::RadioButton
            | AtspiRole::Link
            | AtspiRole::Entry
            | AtspiRole::ComboBox
    )
}

/// Whether Gecko has not sent a document's facts yet: a document on
/// screen without bounds, or whose controls all came without actions.
pub(super) fn not_sent(doc: &DocFacts) -> bool {
    doc.showing && (!doc.placed || (doc.controls > 0 && doc.controls_with_actions == 0))
}

/// The Gecko apps (unique bus names) already read once.
#[derive(Debug, Default)]
pub(super) struct Warmed(Mutex<HashSet<String>>);

impl Warmed {
    /// Which of `buses` are read for the first time (and remembers them).
    pub(super) fn first_time(&self, buses: HashSet<String>) -> Vec<String> {
        let Ok(mut seen) = self.0.lock() else {
            return Vec::new();
        };
        let mut cold: Vec<String> = buses.into_iter().filter(|b| !seen.contains(b)).collect();
        cold.sort();
        if seen.len() + cold.len() > MAX_REMEMBERED {
            seen.clear();
        }
        seen.extend(cold.iter().cloned());
        cold
    }
}

/// What a capture shows of its nodes: how many have a name, bounds,
/// actions and a value. Settled when it stops changing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Signature {
    nodes: usize,
    named: usize,
    bounded: usize,
    actions: usize,
    valued: usize,
}

impl Signature {
    pub(super) fn of(capture: &Capture) -> Signature {
        let mut s = Signature::default();
        for node in capture.tree.iter().flat_map(Node::iter) {
            s.nodes += 1;
            s.named += usize::from(!node.name.is_empty());
            s.bounded += usize::from(node.bounds.is_some());
            s.actions += node.actions.len();
            s.valued += usize::from(node.value.is_some());
        }
        s
    }
}

/// Captures again (`again`) after growing pauses until two captures in a
/// row have the same [`Signature`] (and at least one capture after
/// `first`), or [`SETTLE_MAX`] passed; returns the last.
pub(super) async fn settle<F, Fut>(
    cold: &[String],
    first: (Capture, Option<Vec<RawTree>>),
    mut again: F,
) -> (Capture, Option<Vec<RawTree>>)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = (Capture, Option<Vec<RawTree>>)>,
{
    let started = Instant::now();
    let until = started + SETTLE_MAX;
    let mut last = first;
    let mut signature = Signature::of(&last.0);
    let mut pause = FIRST_PAUSE;
    let mut reads = 0;
    loop {
        tokio::time::sleep_until((Instant::now() + pause).min(until)).await;
        let next = again().await;
        reads += 1;
        let now = Signature::of(&next.0);
        let same = now == signature;
        tracing::debug!(?cold, reads, ?signature, ?now, "gecko: read again");
        signature = now;
        last = next;
        // The first read after the cold one may still be too early (the
        // content process had not answered): a second agreeing read is
        // needed when the first changed nothing.
        if (same && reads >= 2) || Instant::now() >= until {
            break;
        }
        pause *= 2;
    }
    tracing::debug!(
        ?cold,
        reads,
        ms = started.elapsed().as_secs_f64() * 1e3,
        "gecko: web content settled"
    );
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::{Action, Rect, Role};
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn capture(named: bool) -> Capture {
        let mut root = Node::new("e0", Role::Window, "Firefox");
        let mut button = Node::new("e1", Role::Button, if named { "Go" } else { "" });
        if named {
            button.bounds = Some(Rect::new(1, 2, 30, 20));
            button.actions = vec![Action::Click];
        }
        root.children.push(button);
        Capture {
            tree: vec![root],
            ..Capture::default()
        }
    }

    #[test]
    fn a_document_not_sent_yet_is_told_apart() {
        let sent = DocFacts {
            showing: true,
            placed: true,
            controls: 4,
            controls_with_actions: 4,
        };
        assert!(!not_sent(&sent));
        // Bounds not sent (Firefox ESR 153's first read).
        assert!(not_sent(&DocFacts {
            placed: false,
            ..sent
        }));
        // Bounds there, actions not.
        assert!(not_sent(&DocFacts {
            controls_with_actions: 0,
            ..sent
        }));
        // A page without controls, or a tab in the background.
        assert!(!not_sent(&DocFacts {
            controls: 0,
            controls_with_actions: 0,
            ..sent
        }));
        assert!(!not_sent(&DocFacts {
            showing: false,
            placed: false,
            ..sent
        }));
        assert!(is_control(AtspiRole::Link) && !is_control(AtspiRole::Paragraph));
    }

    #[test]
    fn each_app_is_warmed_once() {
        let w = Warmed::default();
        let buses = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
        assert_eq!(w.first_time(buses(&[":1.5"])), vec![":1.5".to_owned()]);
        assert!(w.first_time(buses(&[":1.5"])).is_empty());
        assert_eq!(
            w.first_time(buses(&[":1.5", ":1.9"])),
            vec![":1.9".to_owned()]
        );
    }

    #[test]
    fn the_signature_counts_what_gecko_fills_in() {
        assert_ne!(
            Signature::of(&capture(false)),
            Signature::of(&capture(true))
        );
        assert_eq!(Signature::of(&capture(true)), Signature::of(&capture(true)));
    }

    #[tokio::test(start_paused = true)]
    async fn settling_reads_until_two_captures_agree() {
        // The facts arrive with the second read after the cold one.
        let reads = AtomicUsize::new(0);
        let (got, _) = settle(&[":1.5".into()], (capture(false), None), || {
            let n = reads.fetch_add(1, Ordering::Relaxed);
            async move { (capture(n >= 1), None) }
        })
        .await;
        assert_eq!(Signature::of(&got), Signature::of(&capture(true)));
        // cold → same (too early) → filled → same: three reads.
        assert_eq!(reads.load(Ordering::Relaxed), 3);
    }

    #[tokio::test(start_paused = true)]
    async fn settling_gives_up_after_the_limit() {
        let reads = AtomicUsize::new(0);
        let flip = || {
            let n = reads.fetch_add(1, Ordering::Relaxed);
            async move { (capture(n.is_multiple_of(2)), None) }
        };
        let started = Instant::now();
        settle(&[":1.5".into()], (capture(false), None), flip).await;
        assert!(started.elapsed() <= SETTLE_MAX + FIRST_PAUSE);
        assert!(reads.load(Ordering::Relaxed) >= 2);
    }
}
