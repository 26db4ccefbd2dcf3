//! Qt5 (the calculator of qtbase5-examples).

use crate::support::{find, nodes, snapshot, Desk};
use cup::SnapshotRequest;
use cup_protocol::{Action, Role, Scope};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn qt5_calculator_buttons() {
    let desk = Desk::start();
    let calculator = crate::support::qt_example("calculator");
    desk.launch(&calculator.to_string_lossy(), &[]);
    let mut session = desk.session();
    let req = SnapshotRequest {
        scope: Scope::Full,
        app: Some("calculator".into()),
        ..SnapshotRequest::default()
    };
    let snap = snapshot(&mut session, &req).await;
    let root = &snap.envelope.tree[0];
    assert_eq!(root.role, Role::Window, "a Qt top-level is the window");
    assert_eq!(root.name, "Calculator");
    for digit in 0..10 {
        let b = find(&snap, Role::Button, &digit.to_string());
        assert_eq!(b.len(), 1, "button {digit}: {}", snap.text);
        assert!(b[0].actions.contains(&Action::Click));
        assert!(b[0].bounds.is_some());
    }
    let display: Vec<_> = nodes(&snap)
        .into_iter()
        .filter(|n| n.role == Role::TextBox)
        .collect();
    assert_eq!(display.len(), 1);
    assert_eq!(display[0].value.as_deref(), Some("0"));
    // Raw Qt action names never leak into `actions`.
    for n in nodes(&snap) {
        for a in &n.actions {
            assert!(Action::ALL.contains(a));
        }
    }
    crate::support::assert_bounds_on_screen(&snap);
}
