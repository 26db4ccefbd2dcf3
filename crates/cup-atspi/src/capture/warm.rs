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
//! Chromium and Electron are lazy the same way: with the bus's
//! `org.a11y.Status.IsEnabled` set they put their windows on the bus, and
//! turn their renderers' accessibility on when a client first reads them,
//! so a first capture finds a browser window with no document in it. Such
//! an app is read again the same way until its document is there.
//!
//! So a capture that finds a Gecko document on screen without bounds, or
//! whose controls all came without actions, or a browser's content frame
//! on screen with no document in it yet (the signs that its facts were
//! never sent), is read again, with growing pauses, until those signs are
//! gone and two captures in a row agree (at most [`SETTLE_MAX`]: a content
//! process busy loading can take seconds to answer). Once per app process
//! (per unique bus name) and cup process: a later cup process finds the
//! facts there. An app that did not answer in time is read again by the
//! next capture, and this one is partial and says so.

use std::collections::HashSet;
use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use cup::Capture;
use cup_protocol::Node;
use tokio::time::Instant;

use crate::facts::{AtspiRole, RawTree};

/// The first pause between captures; it doubles each time, up to
/// [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(40);
/// The longest pause between captures.
const MAX_PAUSE: Duration = Duration::from_millis(640);
/// Longest the settling reads take.
pub(super) const SETTLE_MAX: Duration = Duration::from_secs(5);
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

/// Whether a Gecko content frame (`ROLE_INTERNAL_FRAME`, the `<browser>`
/// a tab's page lives in) is on screen with nothing in it: its document
/// has not been sent yet. Once loaded, a browser always holds a document
/// (`about:blank` at least); a frame of a tab in the background is not
/// showing. `children` are those the walk found, `child_count` what the
/// toolkit reported (-1: not read, when the walk listed the children
/// instead).
pub(super) fn frame_empty(showing: bool, children: usize, child_count: i32) -> bool {
    showing && children == 0 && child_count <= 0
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

    /// Forgets `buses`: the next capture that finds their web content
    /// unsent reads it again.
    pub(super) fn forget(&self, buses: &[String]) {
        if let Ok(mut seen) = self.0.lock() {
            for b in buses {
                seen.remove(b);
            }
        }
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

/// One read: the capture, its raw trees when recorded, and the Gecko apps
/// whose web content is still unsent ([`not_sent`]).
pub(super) type Read = (Capture, Option<Vec<RawTree>>, HashSet<String>);

/// Captures again (`again`) after growing pauses until none of the `cold`
/// apps' web content is unsent any more and two captures in a row have the
/// same [`Signature`], or [`SETTLE_MAX`] passed. Returns the last capture
/// and the `cold` apps whose web content was still unsent then.
pub(super) async fn settle<F, Fut>(
    cold: &[String],
    first: (Capture, Option<Vec<RawTree>>),
    mut again: F,
) -> (Capture, Option<Vec<RawTree>>, Vec<String>)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Read>,
{
    let started = Instant::now();
    let until = started + SETTLE_MAX;
    // The first capture only gives the signature to compare with: at least
    // one read follows it.
    let mut signature = Signature::of(&first.0);
    let mut pause = FIRST_PAUSE;
    let mut reads = 0;
    let (capture, raws, unsent) = loop {
        tokio::time::sleep_until((Instant::now() + pause).min(until)).await;
        let (next, next_raws, still) = again().await;
        reads += 1;
        let now = Signature::of(&next);
        let same = now == signature;
        let unsent: Vec<String> = cold
            .iter()
            .filter(|b| still.contains(*b))
            .cloned()
            .collect();
        tracing::debug!(?cold, reads, ?signature, ?now, ?unsent, "gecko: read again");
        if (same && unsent.is_empty()) || Instant::now() >= until {
            break (next, next_raws, unsent);
        }
        signature = now;
        pause = (pause * 2).min(MAX_PAUSE);
    };
    tracing::debug!(
        ?cold,
        reads,
        ?unsent,
        ms = started.elapsed().as_secs_f64() * 1e3,
        "gecko: web content settled"
    );
    (capture, raws, unsent)
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
    fn a_content_frame_on_screen_without_its_document_is_not_sent() {
        // Firefox ESR's first read of a page whose title had already
        // arrived: the shown tab's frame, no document yet.
        assert!(frame_empty(true, 0, 0));
        // Its children listed (no count read), none there.
        assert!(frame_empty(true, 0, -1));
        // The document arrived; a background tab's frame; children the
        // walk did not reach (the capture is partial then and says so).
        assert!(!frame_empty(true, 1, 1));
        assert!(!frame_empty(true, 1, -1));
        assert!(!frame_empty(false, 0, 0));
        assert!(!frame_empty(true, 0, 1));
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

    /// A read whose web content arrives with read `from` (0-based).
    fn read(n: usize, from: usize) -> Read {
        let sent = n >= from;
        let unsent = if sent {
            HashSet::new()
        } else {
            HashSet::from([":1.5".to_owned()])
        };
        (capture(sent), None, unsent)
    }

    #[tokio::test(start_paused = true)]
    async fn settling_waits_for_a_slow_content_process() {
        // Reads 0-2 find nothing new (the content process is busy loading
        // the page): agreeing reads do not end the wait while the document
        // is unsent. Read 3 brings the facts, read 4 agrees.
        let reads = AtomicUsize::new(0);
        let (got, _, unsent) = settle(&[":1.5".into()], (capture(false), None), || {
            let n = reads.fetch_add(1, Ordering::Relaxed);
            async move { read(n, 3) }
        })
        .await;
        assert!(unsent.is_empty());
        assert_eq!(Signature::of(&got), Signature::of(&capture(true)));
        assert_eq!(reads.load(Ordering::Relaxed), 5);
    }

    #[tokio::test(start_paused = true)]
    async fn settling_ends_when_the_facts_are_there_and_stable() {
        let reads = AtomicUsize::new(0);
        let (_, _, unsent) = settle(&[":1.5".into()], (capture(false), None), || {
            let n = reads.fetch_add(1, Ordering::Relaxed);
            async move { read(n, 0) }
        })
        .await;
        assert!(unsent.is_empty());
        // filled (changed) → same: two reads.
        assert_eq!(reads.load(Ordering::Relaxed), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn settling_gives_up_after_the_limit_and_names_the_app() {
        let reads = AtomicUsize::new(0);
        let started = Instant::now();
        let (_, _, unsent) = settle(&[":1.5".into()], (capture(false), None), || {
            let n = reads.fetch_add(1, Ordering::Relaxed);
            async move { read(n, usize::MAX) }
        })
        .await;
        assert!(started.elapsed() <= SETTLE_MAX + MAX_PAUSE);
        assert!(reads.load(Ordering::Relaxed) >= 5);
        assert_eq!(unsent, vec![":1.5".to_owned()]);
        // Flapping content (never two agreeing reads) ends at the limit too.
        let reads = AtomicUsize::new(0);
        let started = Instant::now();
        settle(&[":1.5".into()], (capture(false), None), || {
            let n = reads.fetch_add(1, Ordering::Relaxed);
            async move { (capture(n.is_multiple_of(2)), None, HashSet::new()) }
        })
        .await;
        assert!(started.elapsed() <= SETTLE_MAX + MAX_PAUSE);
    }

    #[test]
    fn an_app_forgotten_is_warmed_again() {
        let w = Warmed::default();
        let buses = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
        assert_eq!(w.first_time(buses(&[":1.5"])).len(), 1);
        w.forget(&[":1.5".to_owned()]);
        assert_eq!(w.first_time(buses(&[":1.5"])).len(), 1);
    }
}
