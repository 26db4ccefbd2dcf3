//! Waiting for the UI: snapshots taken again (each kept, so the ids an
//! agent acts on next are the latest's) until the page has loaded or an
//! element matches, within a timeout. What the MCP tool `wait` and the
//! Python and Node `wait` share.

use std::time::Duration;

use cup_protocol::search::FindQuery;
use cup_protocol::Node;

use crate::session::{Session, SessionError, SnapshotRequest};

/// What to wait for.
#[derive(Debug, Clone, PartialEq)]
pub enum Until {
    /// The page has loaded: no snapshot note says it is still loading
    /// ([`crate::page::LOADING_NOTE`]; on platforms with no such note, the
    /// first snapshot).
    Load,
    /// An element matches the query.
    Found(FindQuery),
}

/// What a wait saw.
#[derive(Debug, Clone, PartialEq)]
pub struct Waited {
    /// Milliseconds from the start of the wait to the snapshot that met
    /// it.
    pub ms: u64,
    /// With [`Until::Found`], the first match (without children).
    pub found: Option<Node>,
}

/// Longest pause between two snapshots of a wait.
const MAX_STEP: Duration = Duration::from_millis(400);

impl Session {
    /// Snapshots (as the last request did, else the default) until
    /// `until` holds, for `timeout` at most. Every snapshot is kept: the
    /// ids of the last one hold afterwards.
    ///
    /// # Errors
    ///
    /// [`SessionError::Timeout`] when it did not hold in time (the message
    /// says what was last seen and what to do); a snapshot's error.
    pub async fn wait(&mut self, until: &Until, timeout: Duration) -> Result<Waited, SessionError> {
        let req = self
            .last_request()
            .cloned()
            .unwrap_or_else(SnapshotRequest::default);
        let started = tokio::time::Instant::now();
        let mut step = Duration::from_millis(50);
        loop {
            let snap = self.snapshot(&req).await?;
            let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let missing = match until {
                Until::Load => snap
                    .notes
                    .iter()
                    .find(|n| n.starts_with(crate::page::LOADING_NOTE))
                    .cloned(),
                Until::Found(query) => {
                    let limited = FindQuery {
                        limit: 1,
                        ..query.clone()
                    };
                    match self.find(&limited)?.into_iter().next() {
                        Some(found) => {
                            return Ok(Waited {
                                ms,
                                found: Some(found),
                            })
                        }
                        None => Some(format!("nothing matched {}", describe(query))),
                    }
                }
            };
            let Some(missing) = missing else {
                return Ok(Waited { ms, found: None });
            };
            if started.elapsed() >= timeout {
                return Err(SessionError::Timeout(format!(
                    "wait: {missing} after {} ms; wait again or snapshot to see what is there",
                    timeout.as_millis()
                )));
            }
            // Polling the UI for what was asked is the point of a wait.
            tokio::time::sleep(step).await;
            step = (step * 2).min(MAX_STEP);
        }
    }
}

/// A query as the timeout message names it.
fn describe(q: &FindQuery) -> String {
    let mut parts = Vec::new();
    if let Some(t) = &q.query {
        parts.push(format!("{t:?}"));
    }
    if let Some(r) = &q.role {
        parts.push(format!("role {r}"));
    }
    if let Some(n) = &q.name {
        parts.push(format!("name {n:?}"));
    }
    if let Some(s) = &q.state {
        parts.push(format!("state {s}"));
    }
    if parts.is_empty() {
        "the query".to_owned()
    } else {
        parts.join(", ")
    }
}
