//! What the language bindings (Python, Node) share: argument checks with
//! cup's one-line messages ([`word`], [`direction`], [`find_query`]), the
//! I/O thread a binding's session runs on ([`IoThread`]), and the pure
//! protocol helpers over JSON text ([`json`]). Each binding only turns a
//! `String` error into its language's exception.

pub mod io_thread;
pub mod json;

use std::str::FromStr;

use cup_protocol::search::FindQuery;
use cup_protocol::{Direction, State};

pub use io_thread::IoThread;

/// Parses a word of a closed set, or says which words there are.
///
/// # Errors
///
/// `{what} "{v}": use one of {expected}`.
pub fn word<T: FromStr>(what: &str, v: &str, expected: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("{what} {v:?}: use one of {expected}"))
}

/// A scroll direction, when given.
///
/// # Errors
///
/// When it is not up, down, left or right.
pub fn direction(v: Option<&str>) -> Result<Option<Direction>, String> {
    v.map(|d| {
        d.trim().parse().map_err(|_| {
            format!("action 'scroll' requires 'direction': up, down, left or right, got {d:?}")
        })
    })
    .transpose()
}

/// A search, its state name checked.
///
/// # Errors
///
/// When `state` is not a CUP state (the message lists them).
pub fn find_query(
    query: Option<String>,
    role: Option<String>,
    name: Option<String>,
    state: Option<String>,
    limit: usize,
) -> Result<FindQuery, String> {
    let state = state
        .map(|s| {
            State::from_name(s.trim()).ok_or_else(|| {
                format!(
                    "state {s:?} is not a CUP state; use one of {}",
                    State::ALL
                        .iter()
                        .map(|s| s.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
        })
        .transpose()?;
    Ok(FindQuery {
        query,
        role,
        name,
        state,
        limit,
    })
}

/// What a binding's `wait` does: pause, or snapshot until something
/// holds.
#[derive(Debug, Clone, PartialEq)]
pub enum WaitPlan {
    /// A pause of this long (no snapshot).
    Pause(std::time::Duration),
    /// Snapshots until this holds.
    Until(cup::Until),
}

/// The plan of a binding's `wait(until, query, role, name, state, ms)`:
/// `until="load"`, or a search, or a pause of `ms` (default 500).
///
/// # Errors
///
/// When `until` is not `load`, a state is not a CUP state, or `ms` is
/// outside 50-10,000.
pub fn wait_plan(
    until: Option<&str>,
    query: Option<String>,
    role: Option<String>,
    name: Option<String>,
    state: Option<String>,
    ms: Option<u64>,
) -> Result<WaitPlan, String> {
    match until.map(str::trim) {
        Some("load") => return Ok(WaitPlan::Until(cup::Until::Load)),
        Some(other) => {
            return Err(format!(
                "wait: until {other:?}: use \"load\" (or a query to wait for an element)"
            ))
        }
        None => {}
    }
    let search = [&query, &role, &name, &state]
        .iter()
        .any(|v| v.as_deref().is_some_and(|s| !s.trim().is_empty()));
    if search {
        return Ok(WaitPlan::Until(cup::Until::Found(find_query(
            query, role, name, state, 1,
        )?)));
    }
    let ms = ms.unwrap_or(500);
    if !(50..=10_000).contains(&ms) {
        return Err(format!("wait: ms {ms} is out of range: give 50 to 10000"));
    }
    Ok(WaitPlan::Pause(std::time::Duration::from_millis(ms)))
}

/// Runs `plan` on `session` for `timeout` at most: `{"ms": waited,
/// "element": the match or null}` as JSON.
///
/// # Errors
///
/// The session's, a timeout's included ([`cup::SessionError::Timeout`]).
pub async fn wait(
    session: &mut cup::Session,
    plan: &WaitPlan,
    timeout: std::time::Duration,
) -> Result<String, cup::SessionError> {
    let (ms, found) = match plan {
        WaitPlan::Pause(d) => {
            // A pause is what was asked for.
            tokio::time::sleep(*d).await;
            (u64::try_from(d.as_millis()).unwrap_or(u64::MAX), None)
        }
        WaitPlan::Until(until) => {
            let w = session.wait(until, timeout).await?;
            (w.ms, w.found)
        }
    };
    Ok(serde_json::json!({ "ms": ms, "element": found }).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_arguments_say_what_to_send() {
        let e = word::<cup_protocol::Scope>("scope", "everything", "overview, full")
            .expect_err("refused");
        assert_eq!(e, "scope \"everything\": use one of overview, full");
        assert_eq!(direction(Some(" down ")), Ok(Some(Direction::Down)));
        assert!(direction(Some("sideways"))
            .expect_err("refused")
            .contains("up, down, left or right"));
        let e = find_query(None, None, None, Some("shiny".into()), 5).expect_err("refused");
        assert!(
            e.starts_with("state \"shiny\" is not a CUP state; use one of "),
            "{e}"
        );
        assert_eq!(
            find_query(None, None, None, Some("focused".into()), 5).map(|q| q.state),
            Ok(Some(State::Focused))
        );
    }

    #[test]
    fn a_wait_is_planned_from_its_arguments() {
        assert_eq!(
            wait_plan(Some("load"), None, None, None, None, None),
            Ok(WaitPlan::Until(cup::Until::Load))
        );
        assert!(wait_plan(Some("idle"), None, None, None, None, None)
            .expect_err("refused")
            .contains("use \"load\""));
        match wait_plan(None, Some("Save".into()), None, None, None, None) {
            Ok(WaitPlan::Until(cup::Until::Found(q))) => {
                assert_eq!((q.query.as_deref(), q.limit), (Some("Save"), 1));
            }
            other => panic!("a search: {other:?}"),
        }
        assert_eq!(
            wait_plan(None, None, None, None, None, Some(200)),
            Ok(WaitPlan::Pause(std::time::Duration::from_millis(200)))
        );
        assert!(wait_plan(None, None, None, None, None, Some(20))
            .expect_err("refused")
            .contains("50 to 10000"));
    }
}
