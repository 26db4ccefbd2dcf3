//! Batches: steps run in order, each through the same checks as a single
//! call; the first failure (refused, or failed by the adapter) ends the
//! batch and is its last result.

use cup::protocol::Action;
use cup::{ActionParams, ActionResult, AdapterError, Effect};
use serde_json::{json, Value};

use crate::apps::{digit, snapped, DISPLAY, LIST};
use crate::scripted::{Call, Op};

fn steps(v: Value) -> Vec<Value> {
    v.as_array().cloned().expect("an array of steps")
}

#[tokio::test]
async fn steps_run_in_order() {
    let (adapter, mut session) = snapped().await;
    let results = session
        .batch(&steps(json!([
            {"action": "click", "element_id": "e7"},
            {"action": "click", "element_id": "e15"},
            {"action": "click", "element_id": "e6"},
            {"action": "press", "keys": "Return"},
            {"action": "type", "element_id": "e1", "value": "3+2"},
            {"action": "execute", "verb": "setvalue", "element_id": "e1", "value": "5"},
            {"action": "press_keys", "keys": "ctrl+a"},
        ])))
        .await;
    assert_eq!(results.len(), 7, "{results:?}");
    assert!(results.iter().all(|r| r.success), "{results:?}");
    let value = |v: &str| ActionParams {
        value: Some(v.into()),
        ..ActionParams::default()
    };
    let calls: Vec<String> = adapter
        .calls()
        .into_iter()
        .map(|c| match c {
            Call::Act {
                native,
                action,
                params,
                ..
            } => format!("{action} {native} {:?}", params.value),
            Call::Press { combo } => format!("press {combo}"),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        calls,
        [
            format!("click {} None", digit(3)),
            "click calc:/keypad/ops/plus None".to_owned(),
            format!("click {} None", digit(2)),
            "press enter".to_owned(),
            format!("type {DISPLAY} {:?}", value("3+2").value),
            format!("setvalue {DISPLAY} {:?}", value("5").value),
            "press ctrl+a".to_owned(),
        ]
    );
}

#[tokio::test]
async fn a_refused_step_ends_the_batch() {
    let (adapter, mut session) = snapped().await;
    let results = session
        .batch(&steps(json!([
            {"action": "click", "element_id": "e4"},
            {"action": "toggle", "element_id": "e4"},
            {"action": "click", "element_id": "e5"},
        ])))
        .await;
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results[0].success);
    assert_eq!(
        results[1],
        ActionResult::failed(
            "step 2: e4 (button \"0\") does not support toggle; it supports: click, doubleclick, rightclick, longpress, scroll, focus"
        )
    );
    assert_eq!(adapter.acts(), vec![("e4".into(), digit(0), Action::Click)]);
}

#[tokio::test]
async fn an_adapter_error_ends_the_batch() {
    let (adapter, mut session) = snapped().await;
    adapter.fail_next(
        Op::Act,
        AdapterError::Platform("the app did not answer; try again".into()),
    );
    let results = session
        .batch(&steps(json!([
            {"action": "click", "element_id": "e4"},
            {"action": "click", "element_id": "e5"},
        ])))
        .await;
    assert_eq!(
        results,
        [ActionResult::failed(
            "step 1: the app did not answer; try again"
        )]
    );
    assert_eq!(adapter.acts().len(), 1, "the second step never ran");
}

#[tokio::test]
async fn a_step_the_adapter_reports_failed_ends_the_batch() {
    let (adapter, mut session) = snapped().await;
    let refused = ActionResult {
        success: false,
        message: String::new(),
        error: Some("the button is insensitive".into()),
        effect: Effect::NoChange,
        changes: Vec::new(),
    };
    adapter.answer_next(&digit(1), refused.clone());
    let results = session
        .batch(&steps(json!([
            {"action": "click", "element_id": "e4"},
            {"action": "click", "element_id": "e5"},
            {"action": "click", "element_id": "e6"},
        ])))
        .await;
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[1], refused, "the adapter's own result, as it was");
    assert_eq!(
        adapter.acts(),
        vec![
            ("e4".into(), digit(0), Action::Click),
            ("e5".into(), digit(1), Action::Click)
        ]
    );
}

/// A snapshot step replaces the ids the later steps use; a find step
/// answers from it.
#[tokio::test]
async fn a_snapshot_step_renews_the_ids_of_the_steps_after_it() {
    let (adapter, mut session) = snapped().await;
    let results = session
        .batch(&steps(json!([
            {"action": "snapshot", "scope": "full"},
            {"action": "find", "name": "doc-03.txt", "limit": 1},
            {"action": "doubleclick", "element_id": "e22"},
        ])))
        .await;
    assert_eq!(results.len(), 3, "{results:?}");
    assert!(results.iter().all(|r| r.success), "{results:?}");
    assert!(
        results[0].message.contains("\"Files — Documents\""),
        "{}",
        results[0].message
    );
    assert!(
        results[1]
            .message
            .starts_with("1 matches:\n[e22] li \"doc-03.txt\""),
        "{}",
        results[1].message
    );
    assert_eq!(
        adapter.acts(),
        vec![("e22".into(), format!("{LIST}/3"), Action::DoubleClick)]
    );
}

#[tokio::test]
async fn malformed_steps_say_what_is_wrong() {
    let (adapter, mut session) = snapped().await;
    for (step, error) in [
        (json!("click e4"), "step 1: a step must be an object like"),
        (
            json!({"element_id": "e4"}),
            "step 1: a step needs \"action\"",
        ),
        (
            json!({"action": "click"}),
            "step 1: element action 'click' needs \"element_id\"",
        ),
        (json!({"action": "press"}), "step 1: press needs \"keys\""),
        (
            json!({"action": "scroll", "element_id": "e4", "direction": "sideways"}),
            "step 1: direction: ",
        ),
        (
            json!({"action": "snapshot", "scope": "everything"}),
            "step 1: snapshot scope: ",
        ),
        (
            json!({"action": "find", "state": "sleepy"}),
            "step 1: find: unknown state \"sleepy\"",
        ),
        (
            json!({"action": "frobnicate", "element_id": "e4"}),
            "step 1: Unknown action 'frobnicate'",
        ),
    ] {
        let results = session.batch(std::slice::from_ref(&step)).await;
        assert_eq!(results.len(), 1, "{step}: {results:?}");
        let got = results[0].error.as_deref().unwrap_or_default();
        assert!(
            !results[0].success && got.starts_with(error),
            "{step}: {got}"
        );
    }
    assert!(adapter.acts().is_empty(), "{:?}", adapter.calls());
}

#[tokio::test]
async fn open_app_succeeds_only_with_a_window() {
    let (adapter, mut session) = snapped().await;
    let results = session
        .batch(&steps(json!([
            {"action": "open_app", "name": "calculator"},
            {"action": "launch_app", "app": "mail"},
            {"action": "click", "element_id": "e4"},
        ])))
        .await;
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results[0].success && results[0].effect == Effect::Confirmed);
    assert!(!results[1].success && results[1].effect == Effect::NoChange);
    assert!(adapter.acts().is_empty());
}

#[tokio::test]
async fn a_wait_step_is_clamped() {
    let (_adapter, mut session) = snapped().await;
    let results = session
        .batch(&steps(json!([{"action": "wait", "ms": 1}])))
        .await;
    assert_eq!(results[0].message, "Waited 50ms");
}
