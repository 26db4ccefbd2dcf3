//! Scopes as the adapter sees them: which listing, which windows captured
//! with which limits, and what the envelope says; the app filter of the
//! full scope; the node cap's partial capture and the adapter's notes.

use std::time::Duration;

use cup::protocol::{Role, Scope};
use cup::{AdapterError, CaptureLimits, SessionError, SnapshotRequest};

use crate::apps::{calculator, desk, files, request, CALC, FILES};
use crate::scripted::Call;

/// The calls of one snapshot, in a stable order (the screen and the
/// window list are asked for concurrently).
fn sorted(mut calls: Vec<Call>) -> Vec<Call> {
    let rank = |c: &Call| match c {
        Call::Screen => 0,
        Call::Windows | Call::WindowsForCapture => 1,
        Call::Desktop => 2,
        _ => 3,
    };
    calls.sort_by_key(rank);
    calls
}

fn capture(windows: &[&str], limits: &CaptureLimits) -> Call {
    Call::Capture {
        windows: windows.iter().map(|w| (*w).to_owned()).collect(),
        limits: limits.clone(),
    }
}

#[tokio::test]
async fn overview_lists_the_windows_and_captures_nothing() {
    let (adapter, mut session) = desk();
    let snap = session
        .snapshot(&request(Scope::Overview))
        .await
        .expect("overview");
    assert_eq!(sorted(adapter.calls()), vec![Call::Screen, Call::Windows]);
    assert_eq!(snap.envelope.scope, Some(Scope::Overview));
    assert!(snap.envelope.tree.is_empty() && snap.refs.is_empty());
    let titles: Vec<&str> = snap
        .envelope
        .windows
        .iter()
        .flatten()
        .map(|w| w.title.as_str())
        .collect();
    assert_eq!(titles, ["Calculator", "Files — Documents"]);
    assert!(
        snap.text.contains("Calculator") && snap.text.contains("Files — Documents"),
        "{}",
        snap.text
    );
}

#[tokio::test]
async fn foreground_captures_the_flagged_window_with_the_limits_asked_for() {
    let (adapter, mut session) = desk();
    let limits = CaptureLimits {
        max_depth: 7,
        max_nodes: 900,
        deadline: Duration::from_millis(1234),
    };
    let req = SnapshotRequest {
        limits: limits.clone(),
        // The app filter belongs to the full scope only.
        app: Some("files".into()),
        ..request(Scope::Foreground)
    };
    let snap = session.snapshot(&req).await.expect("foreground");
    assert_eq!(
        sorted(adapter.calls()),
        vec![
            Call::Screen,
            Call::WindowsForCapture,
            capture(&[CALC], &limits)
        ]
    );
    let env = &snap.envelope;
    assert_eq!(env.scope, Some(Scope::Foreground));
    let app = env.app.as_ref().expect("app");
    assert_eq!(
        (app.name.as_deref(), app.pid),
        (Some("Calculator"), Some(100))
    );
    assert_eq!(
        env.windows.as_ref().map(Vec::len),
        Some(2),
        "window list in the header"
    );
    assert_eq!(env.tree.len(), 1);
    assert_eq!(
        (env.tree[0].role, env.tree[0].name.as_str()),
        (Role::Window, "Calculator")
    );
    assert!(snap.text.contains("[e11] btn \"7\""), "{}", snap.text);
    assert_eq!(session.last_request(), Some(&req));
}

#[tokio::test]
async fn foreground_without_a_flagged_window_takes_the_first_and_without_any_fails() {
    let (adapter, mut session) = desk();
    let mut calc = calculator();
    calc.handle.info.foreground = false;
    adapter.set_windows(vec![files(), calc]);
    session
        .snapshot(&request(Scope::Foreground))
        .await
        .expect("foreground");
    assert!(
        adapter
            .calls()
            .contains(&capture(&[FILES], &CaptureLimits::default())),
        "{:?}",
        adapter.calls()
    );

    adapter.set_windows(Vec::new());
    adapter.take_calls();
    let err = session.snapshot(&request(Scope::Foreground)).await.err();
    assert!(
        matches!(&err, Some(SessionError::Adapter(AdapterError::NotFound(m))) if m.starts_with("no window is open")),
        "{err:?}"
    );
    assert!(
        !adapter
            .calls()
            .iter()
            .any(|c| matches!(c, Call::Capture { .. })),
        "nothing to capture"
    );
}

#[tokio::test]
async fn desktop_captures_the_desktop_surface() {
    let (adapter, mut session) = desk();
    let snap = session
        .snapshot(&request(Scope::Desktop))
        .await
        .expect("desktop");
    assert_eq!(
        sorted(adapter.calls()),
        vec![
            Call::Screen,
            Call::Windows,
            Call::Desktop,
            capture(&["desktop:/"], &CaptureLimits::default())
        ]
    );
    let env = &snap.envelope;
    assert_eq!(env.scope, Some(Scope::Desktop));
    assert_eq!(
        env.app.as_ref().map(|a| (a.name.as_deref(), a.pid)),
        Some((Some("Desktop"), Some(300)))
    );
    assert_eq!(env.windows, None, "no window list in a desktop snapshot");
    assert!(snap.text.contains("\"Trash\""), "{}", snap.text);
}

#[tokio::test]
async fn desktop_without_a_surface_shows_the_window_list_and_says_why() {
    let (adapter, mut session) = desk();
    adapter.set_desktop(None);
    let snap = session
        .snapshot(&request(Scope::Desktop))
        .await
        .expect("desktop");
    assert_eq!(
        sorted(adapter.calls()),
        vec![Call::Screen, Call::Windows, Call::Desktop]
    );
    assert_eq!(snap.envelope.scope, Some(Scope::Overview));
    assert!(
        snap.notes[0].starts_with("no desktop surface"),
        "{:?}",
        snap.notes
    );
    assert!(snap.text.contains("# no desktop surface"), "{}", snap.text);
}

#[tokio::test]
async fn full_captures_every_window_in_order() {
    let (adapter, mut session) = desk();
    let snap = session.snapshot(&request(Scope::Full)).await.expect("full");
    assert_eq!(
        sorted(adapter.calls()),
        vec![
            Call::Screen,
            Call::WindowsForCapture,
            capture(&[CALC, FILES], &CaptureLimits::default())
        ]
    );
    let env = &snap.envelope;
    assert_eq!(env.scope, Some(Scope::Full));
    assert_eq!((env.app.as_ref(), env.windows.as_ref()), (None, None));
    let roots: Vec<(&str, &str)> = env
        .tree
        .iter()
        .map(|r| (r.id.as_str(), r.name.as_str()))
        .collect();
    assert_eq!(roots, [("e0", "Calculator"), ("e18", "Files — Documents")]);
}

#[tokio::test]
async fn the_app_filter_picks_windows_by_title_ignoring_case() {
    let (adapter, mut session) = desk();
    let req = SnapshotRequest {
        app: Some("DOCUMENTS".into()),
        ..request(Scope::Full)
    };
    let snap = session.snapshot(&req).await.expect("full, filtered");
    assert!(
        adapter
            .calls()
            .contains(&capture(&[FILES], &CaptureLimits::default())),
        "{:?}",
        adapter.calls()
    );
    assert_eq!(snap.envelope.tree[0].id, "e0", "ids start again at e0");

    adapter.take_calls();
    let req = SnapshotRequest {
        app: Some("mail".into()),
        ..request(Scope::Full)
    };
    let err = session.snapshot(&req).await.err();
    assert_eq!(
        err,
        Some(SessionError::Adapter(AdapterError::NotFound(
            "no window title contains 'mail'; open windows: Calculator, Files — Documents".into()
        )))
    );
    assert!(!adapter
        .calls()
        .iter()
        .any(|c| matches!(c, Call::Capture { .. })));
    assert!(
        session.last().is_some_and(|s| s.envelope.tree.len() == 1),
        "the failed snapshot left the kept one"
    );
}

#[tokio::test]
async fn a_capture_cut_by_its_node_cap_says_it_is_partial() {
    let (adapter, mut session) = desk();
    adapter.set_notes(vec!["scripted advice".into()]);
    let req = SnapshotRequest {
        limits: CaptureLimits {
            max_nodes: 5,
            ..CaptureLimits::default()
        },
        ..request(Scope::Foreground)
    };
    let snap = session.snapshot(&req).await.expect("partial snapshot");
    assert_eq!(snap.envelope.node_count(), 5);
    assert_eq!(
        snap.notes,
        [
            "partial capture: node cap of 5 reached; 11 subtree(s) missing — raise the deadline/node limit or narrow the scope",
            "scripted advice"
        ]
    );
    assert!(
        snap.text
            .contains("# partial capture: node cap of 5 reached")
            && snap.text.contains("# scripted advice"),
        "{}",
        snap.text
    );

    let req = SnapshotRequest {
        limits: CaptureLimits {
            max_depth: 1,
            ..CaptureLimits::default()
        },
        ..request(Scope::Foreground)
    };
    let snap = session.snapshot(&req).await.expect("shallow snapshot");
    assert_eq!(snap.envelope.node_count(), 4, "{}", snap.text);
    assert_eq!(snap.notes, ["scripted advice"]);
}
