//! GIMP 2.10 (GTK 2, with the AT-SPI bridge loaded as a GTK module) on
//! the sandbox desktop: its tool buttons named, its dock
//! tabs never named by the page they hold, a menu item's dialog opened and
//! a value set in it, the dialog's fields named by their labels.

use std::time::{Duration, Instant};

use crate::support::{find, nodes, until, Desk, TempDir};
use cup::{ActionParams, Effect, SnapshotRequest};
use cup_protocol::{Action, Role, Scope, State};
use cup_sandbox::LaunchOptions;

fn name_from(n: &cup_protocol::Node) -> Option<&str> {
    n.platform
        .linux
        .as_ref()
        .and_then(|l| l.extra.get("nameFrom"))
        .and_then(serde_json::Value::as_str)
}

/// Clicks File in `snap` and waits for its items to have their places.
async fn open_file_menu(
    session: &mut cup::Session,
    main: &SnapshotRequest,
    snap: &cup::Snapshot,
) -> cup::Snapshot {
    let file = find(snap, Role::Menu, "File")[0].id.clone();
    let opened = session
        .action(&file, "click", &ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("click File: {e}"));
    assert!(opened.success, "{opened:?}");
    until(session, main, "the File menu's New...", 60, false, |s| {
        find(s, Role::MenuItem, "New...")
            .iter()
            .any(|m| m.bounds.is_some())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gimp_tools_named_a_dialog_opened_and_a_value_set() {
    let desk = Desk::start();
    let home = TempDir::new("cup-gimp");
    let options = LaunchOptions {
        // GIMP's first start makes its profile and scans its resources.
        timeout: Duration::from_secs(150),
        env: vec![
            // GTK 2 loads the AT-SPI bridge only as a module.
            ("GTK_MODULES".into(), "gail:atk-bridge".into()),
            ("HOME".into(), home.path().display().to_string()),
        ],
    };
    let _gimp = desk
        .sandbox
        .launch_with("gimp", &["--no-splash", "--no-data"], &options)
        .unwrap_or_else(|e| {
            panic!("cannot launch gimp: {e} (apt-get install gimp libatk-adaptor, or scripts/install-deps.sh)")
        });
    let mut session = desk.session();
    let main = SnapshotRequest {
        scope: Scope::Full,
        app: Some("GNU Image Manipulation Program".into()),
        ..SnapshotRequest::default()
    };
    let snap = until(
        &mut session,
        &main,
        "the File menu and the tools",
        60,
        false,
        |s| {
            find(s, Role::Menu, "File")
                .iter()
                .any(|m| m.actions.contains(&Action::Click))
                && nodes(s)
                    .iter()
                    .any(|n| n.role == Role::Button && n.name.starts_with("Move Tool"))
        },
    )
    .await;

    // The toolbox's tools are named (GTK 2 names them by their tooltips).
    let tools: Vec<_> = nodes(&snap)
        .into_iter()
        .filter(|n| n.role == Role::Button && n.name.contains(" Tool"))
        .collect();
    assert!(tools.len() >= 10, "{}", snap.text);
    // A dock tab holds its page: it is never named by the page's controls.
    for tab in nodes(&snap).into_iter().filter(|n| n.role == Role::Tab) {
        let inner: Vec<&str> = tab
            .iter()
            .skip(1)
            .filter(|d| !d.actions.is_empty())
            .map(|d| d.name.as_str())
            .collect();
        assert!(
            tab.name.is_empty() || !inner.iter().any(|n| !n.is_empty() && tab.name.contains(n)),
            "tab {:?} named by its page's controls {inner:?}",
            tab.name
        );
    }

    // The menus are closed: their items have no place, fold under their
    // menu, and can still be acted on (GTK 2 says SHOWING of no menu
    // item: one read of each menu's first item tells, capture::menus).
    assert!(snap.text.contains("items in closed menu"), "{}", snap.text);
    let open_item = find(&snap, Role::MenuItem, "Open...");
    assert!(!open_item.is_empty(), "{}", snap.text);
    for item in &open_item {
        assert!(item.bounds.is_none(), "{item:?}");
        assert!(item.actions.contains(&Action::Click), "{item:?}");
    }

    // File > New...: its dialog opens.
    let snap = open_file_menu(&mut session, &main, &snap).await;
    // The open menu's items are on screen; its submenu stays closed.
    let item = find(&snap, Role::MenuItem, "New...")[0];
    assert!(!item.states.contains(&State::Offscreen), "{item:?}");
    let in_submenu = find(&snap, Role::MenuItem, "From Clipboard");
    assert!(!in_submenu.is_empty(), "{}", snap.text);
    assert!(
        in_submenu.iter().all(|m| m.bounds.is_none()),
        "{in_submenu:?}"
    );
    // Closed again: GAIL still answers its items' old places, but no
    // popup window holds them any more, so they fold again.
    let escape = session
        .press("escape")
        .await
        .unwrap_or_else(|e| panic!("escape: {e}"));
    assert!(escape.success, "{escape:?}");
    let snap = until(
        &mut session,
        &main,
        "the File menu closed again",
        60,
        false,
        |s| {
            find(s, Role::MenuItem, "New...")
                .iter()
                .all(|m| m.bounds.is_none())
        },
    )
    .await;
    assert!(snap.text.contains("items in closed menu"), "{}", snap.text);
    let snap = open_file_menu(&mut session, &main, &snap).await;
    let new = find(&snap, Role::MenuItem, "New...")[0].id.clone();
    let clicked = session
        .action(&new, "click", &ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("click New...: {e}"));
    assert!(clicked.success, "{clicked:?}");
    let dialog = SnapshotRequest {
        scope: Scope::Full,
        app: Some("Create a New Image".into()),
        ..SnapshotRequest::default()
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    let snap = loop {
        match session.snapshot(&dialog).await {
            Ok(s) if !find(s, Role::SpinButton, "Width").is_empty() => break s.clone(),
            _ if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            other => panic!("no 'Create a New Image' dialog with a Width field: {other:?}"),
        }
    };
    // Its fields are named by their labels.
    let width = find(&snap, Role::SpinButton, "Width")[0];
    assert_eq!(name_from(width), Some("label"), "{width:?}");
    assert!(
        !find(&snap, Role::SpinButton, "Height").is_empty(),
        "{}",
        snap.text
    );
    assert!(
        !find(&snap, Role::Combobox, "Template").is_empty(),
        "{}",
        snap.text
    );

    // Set the width: the field shows it.
    let id = width.id.clone();
    let params = ActionParams {
        value: Some("640".into()),
        ..ActionParams::default()
    };
    let set = session
        .action(&id, "setvalue", &params)
        .await
        .unwrap_or_else(|e| panic!("setvalue Width: {e}"));
    assert!(set.success, "{set:?}");
    assert_eq!(set.effect, Effect::Confirmed, "{set:?}");
    let snap = session
        .snapshot(&dialog)
        .await
        .unwrap_or_else(|e| panic!("snapshot: {e}"))
        .clone();
    let width = find(&snap, Role::SpinButton, "Width");
    assert_eq!(
        width.first().and_then(|w| w.value.as_deref()),
        Some("640"),
        "{}",
        snap.text
    );
}
