//! GTK3 (gtk3-widget-factory) in a private desktop: real content, states,
//! bounds, scopes, limits and a hung app.

use std::time::{Duration, Instant};

use crate::support::{find, has, nodes, request, snapshot, Desk};
use cup::{CaptureLimits, SnapshotRequest};
use cup_protocol::{Role, Scope, State};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn widget_factory_check_buttons_and_bounds() {
    let desk = Desk::start();
    let app = desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    let snap = snapshot(&mut session, &request(Scope::Foreground)).await;

    let root = &snap.envelope.tree[0];
    assert_eq!(root.role, Role::Window);
    assert_eq!(root.name, "gtk3-widget-factory");
    assert_eq!(
        snap.envelope.app.as_ref().and_then(|a| a.pid),
        Some(i64::from(app.pid))
    );

    // Six check buttons: plain, checked, mixed, and the same three disabled.
    let checks = find(&snap, Role::Checkbox, "checkbutton");
    assert_eq!(checks.len(), 6, "check buttons: {checks:#?}");
    let count = |f: &dyn Fn(&cup_protocol::Node) -> bool| checks.iter().filter(|n| f(n)).count();
    assert_eq!(count(&|n| has(n, State::Disabled)), 3);
    assert_eq!(count(&|n| has(n, State::Checked)), 2);
    assert_eq!(count(&|n| has(n, State::Mixed)), 2);
    assert_eq!(
        count(&|n| !has(n, State::Checked) && !has(n, State::Mixed)),
        2
    );
    for n in &checks {
        assert!(n.actions.contains(&cup_protocol::Action::Toggle), "{n:?}");
        assert!(n.bounds.is_some(), "{n:?}");
    }
    assert!(snap.text.contains("chk \"checkbutton\""), "{}", snap.text);

    // Sliders with their ranges, a spin button with its value.
    let sliders: Vec<_> = nodes(&snap)
        .into_iter()
        .filter(|n| n.role == Role::Slider)
        .collect();
    assert!(sliders.len() >= 4, "sliders: {sliders:#?}");
    assert!(sliders.iter().any(|n| n.value.as_deref() == Some("50")));
    let spins: Vec<_> = nodes(&snap)
        .into_iter()
        .filter(|n| n.role == Role::SpinButton)
        .collect();
    assert!(
        spins.iter().any(|n| n.value.as_deref() == Some("50")),
        "{spins:#?}"
    );

    // Refs for every id, pointing at this app's bus.
    for n in nodes(&snap) {
        let r = snap
            .refs
            .get(&n.id)
            .unwrap_or_else(|| panic!("no ref for {}", n.id));
        assert!(r.starts_with(&app.bus_name), "{} -> {r}", n.id);
    }
    // Pre-order ids e0, e1, ... without gaps in the full tree.
    for (i, n) in nodes(&snap).into_iter().enumerate() {
        assert_eq!(n.id, format!("e{i}"));
    }
    crate::support::assert_bounds_on_screen(&snap);
    assert!(
        snap.text.starts_with("# CUP 0.1.0 | linux | 1920x1080\n"),
        "{}",
        snap.text
    );
    assert!(
        snap.text.contains("# --- 1 open windows ---"),
        "{}",
        snap.text
    );

    // A second capture in the same session takes the roles, interfaces and
    // action names of GTK objects from the first (tree-view cells, every
    // control's actions), and its structure from the `GetItems` its window
    // listing read ahead; it must read the same tree.
    let shape = |s: &cup::Snapshot| -> Vec<String> {
        nodes(s)
            .into_iter()
            .map(|n| {
                format!(
                    "{} {:?} {:?} {:?} {:?}",
                    n.id, n.role, n.name, n.actions, n.bounds
                )
            })
            .collect()
    };
    let again = snapshot(&mut session, &request(Scope::Foreground)).await;
    assert_eq!(shape(&again), shape(&snap));
    assert_eq!(
        find(&again, Role::Cell, "Andrea").len(),
        1,
        "{}",
        again.text
    );
    // The tree view's "Cool" column: GTK's toggle renderer, cells with no
    // text that a person ticks. The table's empty cells are left out; these
    // are check boxes and stay, with their toggle, ticked as the app's model
    // says (True, False, True, True for its four rows).
    let toggles: Vec<bool> = nodes(&again)
        .into_iter()
        .filter(|n| n.role == Role::Cell && n.actions.contains(&cup_protocol::Action::Toggle))
        .map(|n| {
            // Named by their column's header.
            assert_eq!(n.name, "Cool", "{}", again.text);
            n.states.contains(&State::Checked)
        })
        .collect();
    assert_eq!(
        toggles,
        [true, false, true, true],
        "toggle cells (ticked?):\n{}",
        again.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overview_desktop_and_full_scopes() {
    let desk = Desk::start();
    let app = desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();

    let overview = snapshot(&mut session, &request(Scope::Overview)).await;
    assert!(overview.envelope.tree.is_empty());
    let windows = overview.envelope.windows.clone().unwrap_or_default();
    assert_eq!(windows.len(), 1, "{windows:?}");
    assert_eq!(windows[0].title, "gtk3-widget-factory");
    assert_eq!(windows[0].pid, Some(i64::from(app.pid)));
    assert!(windows[0].foreground);
    assert!(
        overview.text.contains("* [fg] gtk3-widget-factory"),
        "{}",
        overview.text
    );

    // No file manager desktop here: the overview, with a note that says so.
    let desktop = snapshot(&mut session, &request(Scope::Desktop)).await;
    assert!(desktop.envelope.tree.is_empty());
    assert!(
        desktop.text.contains("no desktop surface"),
        "{}",
        desktop.text
    );

    let full = SnapshotRequest {
        scope: Scope::Full,
        app: Some("WIDGET".into()),
        ..SnapshotRequest::default()
    };
    let snap = snapshot(&mut session, &full).await;
    assert_eq!(snap.envelope.tree.len(), 1);
    let missing = SnapshotRequest {
        scope: Scope::Full,
        app: Some("no such app".into()),
        ..SnapshotRequest::default()
    };
    let err = session
        .snapshot(&missing)
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.contains("gtk3-widget-factory"),
        "the error lists the open windows: {err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn depth_and_node_limits_make_a_partial_capture_that_says_so() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();

    let shallow = SnapshotRequest {
        limits: CaptureLimits {
            max_depth: 2,
            ..CaptureLimits::default()
        },
        ..request(Scope::Foreground)
    };
    let snap = snapshot(&mut session, &shallow).await;
    let depth = |snap: &cup::Snapshot| {
        fn d(n: &cup_protocol::Node) -> usize {
            1 + n.children.iter().map(d).max().unwrap_or(0)
        }
        snap.envelope.tree.iter().map(d).max().unwrap_or(0)
    };
    assert!(depth(&snap) <= 3, "depth {}", depth(&snap));

    let capped = SnapshotRequest {
        limits: CaptureLimits {
            max_nodes: 40,
            ..CaptureLimits::default()
        },
        ..request(Scope::Foreground)
    };
    let snap = snapshot(&mut session, &capped).await;
    assert!(nodes(&snap).len() <= 40, "{} nodes", nodes(&snap).len());
    assert!(
        snap.text
            .contains("# partial capture: node cap of 40 reached"),
        "{}",
        snap.text
    );
    let mark = snap.envelope.tree[0]
        .platform
        .linux
        .as_ref()
        .and_then(|l| l.extra.get("partial"))
        .cloned();
    assert!(mark.is_some(), "the envelope marks the partial capture");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_app_gives_a_partial_capture_within_the_deadline() {
    let desk = Desk::start();
    let app = desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    // Warm: windows and the direct connection are known.
    snapshot(&mut session, &request(Scope::Foreground)).await;

    let stop = std::process::Command::new("kill")
        .args(["-STOP", &app.pid.to_string()])
        .status()
        .map(|s| s.success());
    assert_eq!(stop.ok(), Some(true), "kill -STOP failed");
    let req = SnapshotRequest {
        limits: CaptureLimits {
            deadline: Duration::from_millis(800),
            ..CaptureLimits::default()
        },
        ..request(Scope::Foreground)
    };
    let started = Instant::now();
    let result = session.snapshot(&req).await.cloned();
    let elapsed = started.elapsed();
    let _ = std::process::Command::new("kill")
        .args(["-CONT", &app.pid.to_string()])
        .status();
    // The app cannot list its frames: the window comes from X11 alone and
    // the capture is partial, says which app did not answer, and keeps the
    // window without its tree; never an error, never a hang.
    assert!(elapsed < Duration::from_secs(6), "took {elapsed:?}");
    let snap =
        result.unwrap_or_else(|e| panic!("a hung app gave an error, not a partial capture: {e}"));
    let pid = app.pid;
    assert!(
        snap.notes.first().is_some_and(
            |n| n.starts_with(&format!("partial capture: app pid {pid} did not answer"))
        ),
        "{}",
        snap.text
    );
    assert!(
        snap.notes.iter().any(|n| n.starts_with(&format!(
            "window 'gtk3-widget-factory' (pid {pid}) did not answer over AT-SPI"
        ))),
        "{}",
        snap.text
    );
    assert!(
        snap.text.contains("# partial capture: app pid"),
        "{}",
        snap.text
    );
    let [root] = snap.envelope.tree.as_slice() else {
        panic!("one window root: {}", snap.text);
    };
    assert_eq!(
        (root.role, root.name.as_str()),
        (Role::Window, "gtk3-widget-factory")
    );
    assert!(root.children.is_empty(), "a hung app's tree: {}", snap.text);
    let mark = root
        .platform
        .linux
        .as_ref()
        .and_then(|l| l.extra.get("partial"))
        .and_then(|p| p.get("missing"))
        .and_then(serde_json::Value::as_u64);
    assert_eq!(mark, Some(1), "the envelope marks the partial capture");
    // And the app answers again afterwards.
    let again = snapshot(&mut session, &request(Scope::Foreground)).await;
    assert!(!find(&again, Role::Checkbox, "checkbutton").is_empty());
}

/// `since`: after a toggle, a changes-only snapshot shows the check
/// button under the lines that place it, by the id it had, in a tenth of
/// the whole text or less; the protocol's parser reads it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changes_only_snapshot_shows_a_toggle_by_its_id() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    let whole = snapshot(&mut session, &request(Scope::Foreground)).await;
    let id = find(&whole, Role::Checkbox, "checkbutton")
        .into_iter()
        .find(|n| !has(n, State::Disabled) && !has(n, State::Checked) && !has(n, State::Mixed))
        .map(|n| n.id.clone())
        .unwrap_or_else(|| panic!("an unchecked check button in:\n{}", whole.text));
    session
        .action(&id, "toggle", &cup::ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("toggle: {e}"));
    let req = SnapshotRequest {
        since: Some("last".into()),
        ..request(Scope::Foreground)
    };
    // GTK reports the change on its own time: each since snapshot is the
    // base of the next, so the change shows in one of them.
    let deadline = Instant::now() + Duration::from_secs(20);
    let changed = loop {
        let snap = session
            .snapshot(&req)
            .await
            .unwrap_or_else(|e| panic!("since: {e}"))
            .clone();
        if snap.text.contains(&format!("[{id}] chk \"checkbutton\"")) {
            break snap;
        }
        assert!(
            Instant::now() < deadline,
            "the toggle did not show in 20 s; the last:\n{}",
            snap.text
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let line = changed
        .text
        .lines()
        .find(|l| l.contains(&format!("[{id}]")))
        .unwrap_or_default();
    assert!(line.contains("chk}") || line.contains(",chk"), "{line}");
    assert!(
        changed.text.contains("gtk3-widget-factory"),
        "{}",
        changed.text
    );
    assert!(
        changed.text.len() * 10 <= whole.text.len(),
        "{} of {} characters:\n{}",
        changed.text.len(),
        whole.text.len(),
        changed.text
    );
    cup_protocol::compact::parse(&changed.text)
        .unwrap_or_else(|e| panic!("{e}:\n{}", changed.text));
    crate::support::assert_schema_valid(&changed);
    let node = changed.node(&id).expect("the kept id names it");
    assert!(has(node, State::Checked), "{node:?}");
}
