//! `find` and `page` read the kept snapshot: nothing before the first
//! one, the latest one's elements after it, and a page cursor per
//! container that a new snapshot resets.

use cup::protocol::compact::{PageError, PageRequest};
use cup::protocol::search::{FindQuery, SearchError};
use cup::protocol::{Direction, Role, Scope};
use cup::SessionError;

use crate::apps::{desk, request, snapped, FILES_VISIBLE, FILE_COUNT};

fn named(name: &str) -> FindQuery {
    FindQuery {
        name: Some(name.into()),
        ..FindQuery::default()
    }
}

fn down() -> PageRequest {
    PageRequest {
        direction: Some(Direction::Down),
        ..PageRequest::default()
    }
}

/// The names of the items a page shows.
fn items(page: &str) -> Vec<String> {
    page.lines()
        .filter(|l| l.starts_with('['))
        .filter_map(|l| l.split('"').nth(1).map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn nothing_is_found_or_paged_before_a_snapshot() {
    let (adapter, mut session) = desk();
    assert_eq!(
        session.find(&named("7")).err(),
        Some(SessionError::NoSnapshot)
    );
    assert_eq!(
        session.page("e1", &down()).err(),
        Some(SessionError::NoSnapshot)
    );
    assert!(adapter.calls().is_empty(), "{:?}", adapter.calls());
}

#[tokio::test]
async fn find_searches_the_latest_snapshot() {
    let (_adapter, mut session) = snapped().await;
    let found = session
        .find(&FindQuery {
            role: Some("button".into()),
            name: Some("7".into()),
            ..FindQuery::default()
        })
        .expect("find");
    let ids: Vec<&str> = found.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["e11"]);

    let keypad = session.find(&named("Keypad")).expect("find");
    assert_eq!(keypad[0].id, "e2");
    assert_eq!(keypad[0].role, Role::Group);
    assert!(
        keypad[0].children.is_empty(),
        "matches come without subtrees"
    );
    let kept = session.last().and_then(|s| s.envelope.find_node("e2"));
    assert_eq!(
        kept.map(|n| n.children.len()),
        Some(2),
        "the kept tree is whole"
    );

    assert!(session.find(&named("doc-05.txt")).expect("find").is_empty());
    session.snapshot(&request(Scope::Full)).await.expect("full");
    let doc = session.find(&named("doc-05.txt")).expect("find");
    assert_eq!(doc[0].id, "e24", "the exact match first: {doc:?}");

    assert_eq!(
        session.find(&FindQuery::default()).err(),
        Some(SessionError::Search(SearchError::NoCriteria))
    );
}

#[tokio::test]
async fn page_walks_a_clipped_list_and_a_new_snapshot_starts_over() {
    let (_adapter, mut session) = desk();
    let snap = session.snapshot(&request(Scope::Full)).await.expect("full");
    // The snapshot shows the rows inside the list's viewport.
    assert!(snap.text.contains("\"doc-10.txt\""), "{}", snap.text);
    assert!(!snap.text.contains("\"doc-11.txt\""), "{}", snap.text);
    let list = "e19";

    let first = session.page(list, &down()).expect("page");
    assert!(
        first.starts_with(&format!(
            "# page {list} | items 11-20 of {FILE_COUNT} | lst \"Documents\""
        )),
        "{first}"
    );
    let want: Vec<String> = (11..=20).map(|i| format!("doc-{i}.txt")).collect();
    assert_eq!(items(&first), want, "{first}");
    let second = session.page(list, &down()).expect("page");
    let want: Vec<String> = (21..=30).map(|i| format!("doc-{i}.txt")).collect();
    assert_eq!(items(&second), want, "{second}");
    let back = session
        .page(
            list,
            &PageRequest {
                direction: Some(Direction::Up),
                ..PageRequest::default()
            },
        )
        .expect("page");
    assert_eq!(items(&back), items(&first), "{back}");

    session
        .snapshot(&request(Scope::Full))
        .await
        .expect("again");
    let again = session.page(list, &down()).expect("page");
    assert_eq!(items(&again), items(&first), "the cursor started over");
    assert_eq!(items(&again).len(), FILES_VISIBLE);
}

#[tokio::test]
async fn page_refuses_unknown_ids_and_leaves() {
    let (_adapter, mut session) = snapped().await;
    assert_eq!(
        session.page("e99", &down()).err(),
        Some(SessionError::Page(PageError::NotFound("e99".into())))
    );
    assert_eq!(
        session.page("e4", &down()).err(),
        Some(SessionError::Page(PageError::NoItems("e4".into())))
    );
}
