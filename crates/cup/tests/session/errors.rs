//! Errors: what the adapter reports surfaces unchanged as
//! `SessionError::Adapter` (its message is the adapter's, which says what
//! to do next) and leaves the kept snapshot alone; what the session can
//! tell without the adapter is refused before the adapter is asked.

use std::time::Duration;

use cup::protocol::Scope;
use cup::{
    ActionError, ActionParams, AdapterError, Button, Gesture, Point, SessionError, ShotTarget,
};

use crate::apps::{desk, request, snapped};
use crate::scripted::{Call, Op};

#[tokio::test]
async fn a_capture_error_surfaces_and_keeps_the_last_snapshot() {
    let (adapter, mut session) = snapped().await;
    let kept = session.last().cloned();
    let error = AdapterError::Platform("the accessibility bus did not answer; restart it".into());
    adapter.fail_next(Op::Capture, error.clone());
    let err = session.snapshot(&request(Scope::Full)).await.err();
    assert_eq!(err, Some(SessionError::Adapter(error)));
    assert_eq!(
        err.map(|e| e.to_string()).as_deref(),
        Some("the accessibility bus did not answer; restart it")
    );
    assert_eq!(session.last().cloned(), kept);
    assert_eq!(
        session.last_request().map(|r| r.scope),
        Some(Scope::Foreground),
        "the failed request is not the last one"
    );
}

#[tokio::test]
async fn listing_errors_surface_in_every_scope() {
    for (scope, op) in [
        (Scope::Overview, Op::Windows),
        (Scope::Foreground, Op::Windows),
        (Scope::Full, Op::Screen),
        (Scope::Desktop, Op::Desktop),
    ] {
        let (adapter, mut session) = desk();
        let error = AdapterError::Unavailable(format!("no display for {scope:?}; start one"));
        adapter.fail_next(op, error.clone());
        let err = session.snapshot(&request(scope)).await.err();
        assert_eq!(err, Some(SessionError::Adapter(error)), "{scope:?}");
        assert!(session.last().is_none());
        assert!(
            !adapter
                .calls()
                .iter()
                .any(|c| matches!(c, Call::Capture { .. })),
            "{scope:?}: {:?}",
            adapter.calls()
        );
    }
}

#[tokio::test]
async fn an_action_error_surfaces() {
    let (adapter, mut session) = snapped().await;
    let error = AdapterError::NotFound("e4 is gone; take a new snapshot".into());
    adapter.fail_next(Op::Act, error.clone());
    let err = session
        .action("e4", "click", &ActionParams::default())
        .await
        .err();
    assert_eq!(err, Some(SessionError::Adapter(error)));
    adapter.fail_next(Op::Press, AdapterError::Unsupported("no keyboard".into()));
    assert_eq!(
        session.press("ctrl+s").await.err(),
        Some(SessionError::Adapter(AdapterError::Unsupported(
            "no keyboard".into()
        )))
    );
}

/// What an adapter does not implement is the trait's `Unsupported`.
#[tokio::test]
async fn what_the_adapter_lacks_is_unsupported() {
    let (_adapter, mut session) = desk();
    assert_eq!(
        session.screenshot(&ShotTarget::Screen).await.err(),
        Some(SessionError::Adapter(AdapterError::Unsupported(
            "screenshots is not supported on this platform yet".into()
        )))
    );
    assert!(matches!(
        session.apps().await,
        Err(SessionError::Adapter(AdapterError::Unsupported(_)))
    ));
}

#[tokio::test]
async fn actions_the_session_can_refuse_never_reach_the_adapter() {
    let (adapter, mut session) = desk();
    let none = ActionParams::default();
    assert_eq!(
        session.action("e4", "click", &none).await.err(),
        Some(SessionError::Action(ActionError::NoSnapshot("e4".into())))
    );

    let (adapter2, mut session2) = snapped().await;
    let err = |r: Result<cup::ActionResult, SessionError>| match r {
        Err(SessionError::Action(e)) => e,
        other => panic!("not refused by the session: {other:?}"),
    };
    assert!(matches!(
        err(session2.action("e4", "press_button", &none).await),
        ActionError::UnknownAction(v) if v == "press_button"
    ));
    assert!(matches!(
        err(session2.action("e4", "toggle", &none).await),
        ActionError::Unsupported { action, .. } if action == "toggle"
    ));
    assert!(matches!(
        err(session2.action("e1", "type", &none).await),
        ActionError::BadParams(m) if m.contains("requires a 'value' parameter")
    ));
    assert!(matches!(
        err(session2.action("e17", "scroll", &none).await),
        ActionError::BadParams(m) if m.contains("requires 'direction'")
    ));
    assert_eq!(
        err(session2.action("e99", "click", &none).await),
        ActionError::UnknownId {
            id: "e99".into(),
            count: 18,
            last: 17
        }
    );
    assert!(matches!(
        session2.press("ctrl+").await.err(),
        Some(SessionError::Action(ActionError::BadParams(_)))
    ));
    let bad_click = Gesture::Click {
        at: Point::new(1, 1),
        button: Button::Left,
        count: 4,
        modifiers: Vec::new(),
    };
    assert!(matches!(
        session2.input(&bad_click).await.err(),
        Some(SessionError::Action(ActionError::BadParams(_)))
    ));
    let short_drag = Gesture::Drag {
        path: vec![Point::new(1, 1)],
        button: Button::Left,
        duration: Duration::ZERO,
        steps: None,
        modifiers: Vec::new(),
    };
    assert!(session2.input(&short_drag).await.is_err());
    assert!(matches!(
        session2.open_app("  ").await.err(),
        Some(SessionError::Action(ActionError::BadParams(_)))
    ));
    assert!(adapter.calls().is_empty(), "{:?}", adapter.calls());
    assert!(adapter2.calls().is_empty(), "{:?}", adapter2.calls());
}
