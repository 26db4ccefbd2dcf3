//! An action's effect: what it is judged by, read before it
//! ([`Observed`]), and the watch started before it ([`Armed`]) — UIA
//! events on its window, and the target, the focus and the top-level
//! windows read again until a change is seen or [`SETTLE`] has passed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cup::{ActionResult, Effect};

use super::{WindowsAdapter, ACT_DEADLINE, SETTLE};
use crate::act::{changes, Observed};
use crate::events::event_changes;
use crate::os::uia::Uia;
use crate::os::{act as os_act, events as os_events, win32};
use crate::pool::PoolError;
use crate::refs::ElementRef;

/// An action's watch, started before the action ([`WindowsAdapter::arm`]).
pub(super) struct Armed {
    target: String,
    done: std::sync::mpsc::Sender<()>,
    watch: tokio::task::JoinHandle<Result<Vec<cup::Change>, PoolError>>,
}

impl Armed {
    /// The action was performed: watches for its effect (up to
    /// [`SETTLE`]) and makes the result, `confirmed` only when one was
    /// seen.
    pub(super) async fn finish(self, message: String) -> ActionResult {
        self.finish_call(message, false).await
    }

    /// [`Armed::finish`] for an action whose call may still be running
    /// (`running`: past [`crate::act::PATTERN_GRACE`]): no change seen is
    /// then `unverified`, not `no_change`.
    pub(super) async fn finish_call(self, message: String, running: bool) -> ActionResult {
        let _ = self.done.send(());
        match self.watch.await {
            Ok(Ok(seen)) => {
                let effect = crate::act::effect_of(!seen.is_empty(), running);
                let changes = if seen.is_empty() {
                    Vec::new()
                } else {
                    cup::condense(seen, Some(&self.target))
                };
                ActionResult::observed(message, effect, changes)
            }
            Ok(Err(e)) => ActionResult::observed(
                format!("{message}; its effect could not be read ({e})"),
                Effect::Unverified,
                Vec::new(),
            ),
            Err(e) => ActionResult::observed(
                format!("{message}; its effect could not be read (the watch ended: {e})"),
                Effect::Unverified,
                Vec::new(),
            ),
        }
    }
}

impl WindowsAdapter {
    /// What an action is judged by, read before it: the target (found
    /// from its reference), the focus, the top-level windows.
    pub(super) async fn observe(&self, r: Option<ElementRef>) -> Observed {
        self.pool
            .run(Duration::from_secs(2), move |uia| Observed {
                target: r.and_then(|r| os_act::locate(uia, &r).ok()).map(|(_, f)| f),
                windows: crate::toplevel::watched(&win32::top_level(false)),
                focus: os_act::focus(uia),
            })
            .await
            .unwrap_or_default()
    }

    /// Starts watching for an action's effect before it is performed: a
    /// worker registers UIA event handlers on window `hwnd` (none when 0)
    /// and finds the target, then waits for [`Armed::finish`]. Dropping
    /// the [`Armed`] (the action failed) stops it.
    pub(super) async fn arm(
        &self,
        target: &str,
        r: Option<ElementRef>,
        hwnd: i64,
        before: Observed,
    ) -> Armed {
        let id = target.to_owned();
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let pool = Arc::clone(&self.pool);
        let job = move |uia: &mut Uia| {
            let uia = &*uia;
            let listener = (hwnd != 0)
                .then(|| os_events::Listener::start(uia, hwnd))
                .and_then(|l| {
                    l.map_err(|e| tracing::debug!("no UIA events for this action: {e}"))
                        .ok()
                });
            let found = r
                .and_then(|r| os_act::locate(uia, &r).ok())
                .map(|(el, _)| el);
            let rid = before
                .target
                .as_ref()
                .map(|t| t.runtime_id.clone())
                .unwrap_or_default();
            let _ = ready_tx.send(());
            // Nothing to watch when the action was not performed.
            if done_rx.recv_timeout(ACT_DEADLINE + SETTLE).is_err() {
                return Vec::new();
            }
            let mut end = Instant::now() + SETTLE;
            let cap = Instant::now() + SETTLE + ACT_DEADLINE;
            let mut events = Vec::new();
            loop {
                match &listener {
                    Some(l) => l.wait(Duration::from_millis(60)),
                    None => std::thread::sleep(Duration::from_millis(60)),
                }
                // The window for an effect counts the app's free time
                // only: while its thread is busy with the action (Wine's
                // file dialog lists a folder before it shows), the round
                // trip waits and the window moves on as long.
                if hwnd != 0 {
                    let t = Instant::now();
                    win32::round_trip(hwnd, 2000);
                    let busy = t.elapsed();
                    if busy > Duration::from_millis(20) {
                        end = (end + busy).min(cap);
                    }
                }
                if let Some(l) = &listener {
                    events.extend(l.take());
                }
                let after = Observed {
                    target: found.as_ref().and_then(|el| os_act::refresh(uia, el)),
                    windows: crate::toplevel::watched(&win32::top_level(false)),
                    focus: os_act::focus(uia),
                };
                let seen = cup::merge(
                    changes(&id, &before, &after),
                    event_changes(&id, &rid, &events),
                );
                if !seen.is_empty() || Instant::now() >= end {
                    tracing::debug!(
                        events = ?events.iter().map(|e| &e.kind).collect::<Vec<_>>(),
                        "UIA events during the action"
                    );
                    return seen;
                }
            }
        };
        let watch = tokio::spawn(async move {
            pool.run(ACT_DEADLINE + SETTLE * 2 + Duration::from_secs(2), job)
                .await
        });
        // Registration is a few cross-process calls; an implementation
        // that takes longer only loses the events.
        let _ = tokio::time::timeout(Duration::from_secs(2), ready_rx).await;
        Armed {
            target: target.to_owned(),
            done: done_tx,
            watch,
        }
    }
}
