//! `max_tokens`: a snapshot's text never costs more o200k tokens than the
//! budget, says what it left out, and a budget too small is refused.

use cup::protocol::compact::Detail;
use cup::protocol::Scope;
use cup::{tokens, SessionError, SnapshotRequest};

use crate::apps::{desk, request};

fn full(max_tokens: usize) -> SnapshotRequest {
    SnapshotRequest {
        detail: Detail::Full,
        max_chars: 0,
        max_tokens,
        ..request(Scope::Full)
    }
}

#[tokio::test]
async fn a_snapshot_fits_its_token_budget() {
    let (_adapter, mut session) = desk();
    let whole = session
        .snapshot(&full(0))
        .await
        .expect("whole")
        .text
        .clone();
    let cost = tokens::count(&whole);
    // The budget above the whole text's cost changes nothing.
    let same = session.snapshot(&full(cost)).await.expect("at cost");
    assert_eq!(same.text, whole);
    let max = (cost / 2).max(120);
    assert!(max < cost, "the desk must cost more than {max}: {cost}");
    let text = session
        .snapshot(&full(max))
        .await
        .expect("budget")
        .text
        .clone();
    assert!(
        tokens::count(&text) <= max,
        "{} > {max}:\n{text}",
        tokens::count(&text)
    );
    assert!(text.contains(&format!("# max_tokens {max}: ")), "{text}");
    // Both windows' own lines stay.
    assert!(text.contains("\"Calculator\""), "{text}");
    assert!(text.contains("\"Files — Documents\""), "{text}");
}

#[tokio::test]
async fn a_budget_too_small_is_refused_with_what_to_give() {
    let (_adapter, mut session) = desk();
    let err = session.snapshot(&full(50)).await.expect_err("refused");
    assert!(
        matches!(&err, SessionError::Request(m) if m.contains("at least 100")),
        "{err}"
    );
}
