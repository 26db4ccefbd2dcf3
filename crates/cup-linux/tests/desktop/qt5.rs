//! Qt5 (the calculator of qtbase5-examples).

use crate::support::{find, nodes, snapshot, Desk};
use cup::SnapshotRequest;
use cup_protocol::{Action, Node, Role, Scope, State};

/// A desktop with the Qt 5 calculator example, and a session on it.
fn calculator() -> (Desk, cup::Session) {
    let desk = Desk::start();
    let calculator = crate::support::qt_example("calculator");
    desk.launch(&calculator.to_string_lossy(), &[]);
    let session = desk.session();
    (desk, session)
}

/// A full snapshot of the calculator's window.
fn full_calculator() -> SnapshotRequest {
    SnapshotRequest {
        scope: Scope::Full,
        app: Some("calculator".into()),
        ..SnapshotRequest::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn qt5_calculator_buttons() {
    let (_desk, mut session) = calculator();
    let req = full_calculator();
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

    // Qt's raw AT-SPI action names stay in `platform.linux.actions`; the
    // mapping turns them into CUP verbs ("Press" → click, "SetFocus" →
    // focus) and adds nothing a node does not offer.
    let buttons: Vec<_> = nodes(&snap)
        .into_iter()
        .filter(|n| n.role == Role::Button)
        .collect();
    assert_eq!(
        buttons.len(),
        27,
        "digits, operators, memory and editing keys: {}",
        snap.text
    );
    for b in &buttons {
        assert_eq!(
            raw_actions(b),
            ["Press", "SetFocus"],
            "{} {:?}",
            b.id,
            b.name
        );
        assert_eq!(
            b.actions,
            [Action::Click, Action::Focus],
            "{} {:?}",
            b.id,
            b.name
        );
    }
    // The display is read-only: it can take focus, not text.
    assert_eq!(raw_actions(display[0]), ["SetFocus"]);
    assert!(
        display[0].states.contains(&State::ReadOnly),
        "{:?}",
        display[0]
    );
    assert_eq!(display[0].actions, [Action::Focus]);
    // The top-level (a Qt filler) offers nothing.
    assert!(
        raw_actions(root).is_empty() && root.actions.is_empty(),
        "{root:?}"
    );
    crate::support::assert_bounds_on_screen(&snap);
}

/// The raw AT-SPI action names the capture kept for `node`.
fn raw_actions(node: &Node) -> Vec<&str> {
    node.platform
        .linux
        .as_ref()
        .and_then(|l| l.extra.get("actions"))
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .collect()
}

/// Each click's effect shows in a snapshot taken at once: 7, +, 5, =
/// reads 7, 7, 5, 12 on the display. (The calculator's buttons are
/// `QToolButton`s, whose `Press` clicks at once; the push buttons' click
/// animation is the wizard test below.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn qt5_each_click_shows_its_effect_in_the_next_snapshot() {
    let (_desk, mut session) = calculator();
    let req = full_calculator();
    let snap = snapshot(&mut session, &req).await;
    let id_of = |name: &str| {
        let b = find(&snap, Role::Button, name);
        assert_eq!(b.len(), 1, "button {name}: {}", snap.text);
        b[0].id.clone()
    };
    let steps = [("7", "7"), ("+", "7"), ("5", "5"), ("=", "12")];
    let ids: Vec<String> = steps.iter().map(|(b, _)| id_of(b)).collect();
    for ((button, shown), id) in steps.iter().zip(&ids) {
        let result = session
            .action(id, "click", &cup::ActionParams::default())
            .await
            .unwrap_or_else(|e| panic!("click {button}: {e}"));
        assert!(result.success, "click {button}: {result:?}");
        let after = snapshot(&mut session, &req).await;
        let display: Vec<_> = nodes(&after)
            .into_iter()
            .filter(|n| n.role == Role::TextBox)
            .collect();
        assert_eq!(display.len(), 1, "{}", after.text);
        assert_eq!(
            display[0].value.as_deref(),
            Some(*shown),
            "after clicking {button} ({result:?}) the display should read {shown}"
        );
        // The display's change is the evidence (its value), not the
        // button's press animation: `pressed` came and went.
        if *button != "+" {
            assert_eq!(
                result.effect,
                cup::Effect::Confirmed,
                "{button}: {result:?}"
            );
        }
        assert!(
            !result
                .changes
                .iter()
                .any(|c| c.target == *id
                    && c.after.as_deref().is_some_and(|a| a.contains("pressed"))),
            "{button}: the press animation is no effect: {result:?}"
        );
    }
}

/// A `QPushButton`'s `Press` runs `animateClick`: `pressed` for 100 ms,
/// then `clicked`; the wizard's page switch that follows is announced by
/// Qt with nameless events. The click returns only after the release, so
/// the snapshot taken at once shows the next page; its result never
/// reports the press animation as the effect, nor `no_change`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn qt5_a_push_buttons_click_returns_after_its_animation() {
    let desk = Desk::start();
    let wizard = crate::support::qt_example_in("dialogs", "trivialwizard");
    desk.launch(&wizard.to_string_lossy(), &[]);
    let mut session = desk.session();
    let req = SnapshotRequest {
        scope: Scope::Full,
        app: Some("Trivial Wizard".into()),
        ..SnapshotRequest::default()
    };
    let mut snap = snapshot(&mut session, &req).await;
    assert_eq!(
        find(&snap, Role::Text, "Introduction").len(),
        1,
        "{}",
        snap.text
    );
    for page in ["Registration", "Conclusion"] {
        let next = find(&snap, Role::Button, "Next >");
        assert_eq!(next.len(), 1, "{}", snap.text);
        let id = next[0].id.clone();
        let result = session
            .action(&id, "click", &cup::ActionParams::default())
            .await
            .unwrap_or_else(|e| panic!("click Next: {e}"));
        assert!(result.success, "{result:?}");
        assert_ne!(result.effect, cup::Effect::NoChange, "{result:?}");
        assert!(
            !result
                .changes
                .iter()
                .any(|c| c.after.as_deref().is_some_and(|a| a.contains("pressed"))),
            "the press animation is no effect: {result:?}"
        );
        snap = snapshot(&mut session, &req).await;
        assert_eq!(
            find(&snap, Role::Text, page).len(),
            1,
            "the snapshot right after the click shows the {page} page ({result:?}):\n{}",
            snap.text
        );
    }
}
