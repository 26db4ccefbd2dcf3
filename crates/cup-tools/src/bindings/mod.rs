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
}
