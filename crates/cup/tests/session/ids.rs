//! Ids: a snapshot numbers the elements, an action on an id reaches the
//! adapter with that element's native reference, and only the latest
//! kept snapshot's ids count (`look` keeps none, `restore` brings one
//! back).

use cup::protocol::{Action, Role, Scope};
use cup::{ActionError, ActionParams, ActionResult, Change, Effect, SessionError};

use crate::apps::{digit, request, snapped, CALC, DISPLAY, FILES, LIST};
use crate::scripted::Call;

fn none() -> ActionParams {
    ActionParams::default()
}

#[tokio::test]
async fn an_action_reaches_the_native_reference_of_its_id() {
    let (adapter, mut session) = snapped().await;
    let snap = session.last().expect("kept");
    assert_eq!(snap.refs.len(), 18, "{:?}", snap.refs);
    assert_eq!(snap.refs.get("e7"), Some(&digit(3)));
    let seven = snap.envelope.find_node("e11").expect("e11");
    assert_eq!((seven.role, seven.name.as_str()), (Role::Button, "7"));

    let r = session
        .action("e11", "click", &none())
        .await
        .expect("click");
    assert_eq!(r.message, format!("click {}", digit(7)));
    let typed = ActionParams {
        value: Some("12+30".into()),
        ..ActionParams::default()
    };
    session.action("e1", " type ", &typed).await.expect("type");
    assert_eq!(
        adapter.calls(),
        vec![
            Call::Act {
                id: "e11".into(),
                native: digit(7),
                window: CALC.into(),
                action: Action::Click,
                params: none(),
                refs: 18,
            },
            Call::Act {
                id: "e1".into(),
                native: DISPLAY.into(),
                window: CALC.into(),
                action: Action::Type,
                params: typed,
                refs: 18,
            },
        ]
    );
}

#[tokio::test]
async fn ids_run_pre_order_across_the_windows_of_a_full_capture() {
    let (adapter, mut session) = snapped().await;
    let snap = session.snapshot(&request(Scope::Full)).await.expect("full");
    assert_eq!(snap.refs.len(), 18 + 2 + 40);
    assert_eq!(
        snap.refs.get("e17").map(String::as_str),
        Some("calc:/scientific")
    );
    assert_eq!(snap.refs.get("e18").map(String::as_str), Some(FILES));
    assert_eq!(snap.refs.get("e19").map(String::as_str), Some(LIST));
    session
        .action("e22", "doubleclick", &none())
        .await
        .expect("doubleclick by pointer: the item has bounds");
    assert_eq!(
        adapter.acts(),
        vec![("e22".into(), format!("{LIST}/3"), Action::DoubleClick)]
    );
    let window = adapter.calls().into_iter().find_map(|c| match c {
        Call::Act { window, .. } => Some(window),
        _ => None,
    });
    assert_eq!(window.as_deref(), Some(FILES), "the target's window root");
}

/// The app loses its Operators group: the second snapshot has 15
/// elements. An id only the first one had is refused before the adapter
/// is asked; an id both have names the new snapshot's element.
#[tokio::test]
async fn a_new_snapshot_replaces_the_ids_of_the_old_one() {
    let (adapter, mut session) = snapped().await;
    adapter.edit("calc:/keypad", |keypad| {
        keypad.children.retain(|c| c.native != "calc:/keypad/ops");
    });
    session
        .snapshot(&request(Scope::Foreground))
        .await
        .expect("second snapshot");
    adapter.take_calls();

    let err = session.action("e16", "click", &none()).await.err();
    assert_eq!(
        err,
        Some(SessionError::Action(ActionError::UnknownId {
            id: "e16".into(),
            count: 15,
            last: 14,
        }))
    );
    assert!(
        err.map(|e| e.to_string())
            .is_some_and(|e| e.contains("take a new snapshot and use its ids")),
        "the refusal says what to do"
    );
    // e14 was the Operators group; now it is the check box.
    session
        .action("e14", "toggle", &none())
        .await
        .expect("toggle");
    assert_eq!(
        adapter.acts(),
        vec![("e14".into(), "calc:/scientific".into(), Action::Toggle)]
    );
}

/// An overview keeps no tree: the ids of the snapshot before it are gone.
#[tokio::test]
async fn an_overview_keeps_no_ids() {
    let (adapter, mut session) = snapped().await;
    session
        .snapshot(&request(Scope::Overview))
        .await
        .expect("overview");
    let err = session.action("e4", "click", &none()).await.err();
    assert!(
        matches!(
            err,
            Some(SessionError::Action(ActionError::UnknownId {
                count: 0,
                ..
            }))
        ),
        "{err:?}"
    );
    assert!(adapter.acts().is_empty());
}

#[tokio::test]
async fn a_look_leaves_the_ids_acted_on_as_they_were() {
    let (adapter, mut session) = snapped().await;
    let kept = session.last().cloned().expect("kept");
    adapter.edit("calc:/keypad", |keypad| keypad.children.clear());
    let looked = session
        .look(&request(Scope::Foreground))
        .await
        .expect("look");
    assert_eq!(looked.envelope.node_count(), 4, "{}", looked.text);
    assert_eq!(session.last(), Some(&kept), "look keeps nothing");
    session
        .action("e16", "click", &none())
        .await
        .expect("e16 of the kept snapshot");
    assert_eq!(
        adapter.acts(),
        vec![(
            "e16".into(),
            "calc:/keypad/ops/equals".into(),
            Action::Click
        )]
    );
}

#[tokio::test]
async fn a_restored_snapshot_is_the_one_acted_on() {
    let (adapter, mut session) = snapped().await;
    let foreground = session.last().cloned().expect("kept");
    session.snapshot(&request(Scope::Full)).await.expect("full");
    session.restore(foreground);
    let err = session.action("e18", "focus", &none()).await.err();
    assert!(
        matches!(
            err,
            Some(SessionError::Action(ActionError::UnknownId {
                count: 18,
                ..
            }))
        ),
        "{err:?}"
    );
    session.action("e4", "click", &none()).await.expect("click");
    assert_eq!(adapter.acts(), vec![("e4".into(), digit(0), Action::Click)]);
}

/// What the adapter observed comes back condensed: the target's change
/// first, alike changes of other elements grouped.
#[tokio::test]
async fn the_changes_an_adapter_reports_are_condensed() {
    let (adapter, mut session) = snapped().await;
    let change = |target: &str, after: &str| Change {
        target: target.into(),
        field: "states".into(),
        before: None,
        after: Some(after.into()),
    };
    let mut changes: Vec<Change> = (4..14)
        .map(|i| change(&format!("e{i}"), "-showing"))
        .collect();
    changes.push(change("e17", "+checked"));
    adapter.answer_next(
        "calc:/scientific",
        ActionResult::observed("Toggled (checked)", Effect::Confirmed, changes),
    );
    let r = session
        .action("e17", "toggle", &none())
        .await
        .expect("toggle");
    assert_eq!(r.effect, Effect::Confirmed);
    assert_eq!(
        r.changes,
        vec![
            change("e17", "+checked"),
            change("e4 e5 e6 +7 more", "-showing"),
        ]
    );
}
