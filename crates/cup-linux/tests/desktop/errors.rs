//! Without a desktop, the adapter says which piece is missing and what to do.

use cup::{Session, SnapshotRequest};
use cup_linux::{Desktop, LinuxAdapter};
use cup_protocol::Scope;

async fn error_of(desktop: Desktop, scope: Scope) -> String {
    let mut session = Session::new(Box::new(LinuxAdapter::for_desktop(desktop)));
    let req = SnapshotRequest {
        scope,
        ..SnapshotRequest::default()
    };
    match session.snapshot(&req).await {
        Ok(s) => panic!("expected an error, got {}", s.text),
        Err(e) => e.to_string(),
    }
}

#[tokio::test]
async fn no_session_bus_no_display() {
    let e = error_of(Desktop::default(), Scope::Foreground).await;
    assert!(e.contains("session bus") || e.contains("display"), "{e}");
    assert!(e.contains("cup sandbox start"), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

#[tokio::test]
async fn dead_accessibility_bus() {
    let desktop = Desktop {
        display: Some(":9999".into()),
        session_bus: None,
        a11y_bus: Some("unix:path=/nonexistent/cup-test-bus".into()),
        xauthority: None,
        ..Desktop::default()
    };
    let e = error_of(desktop, Scope::Overview).await;
    assert!(
        e.contains("accessibility bus") || e.contains("X11 display"),
        "{e}"
    );
    assert!(!e.contains('\n'), "one line: {e}");
}
