//! VLC 3 (its Qt 5 interface) on the sandbox desktop: every player control
//! named (VLC gives its buttons no name, only a tooltip), the menu bar's
//! items opened by a click (Qt's ShowMenu), a menu's items with bounds,
//! and a toggle confirmed by its state.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use crate::support::{find, nodes, snapshot, until, Desk, TempDir};
use cup::{ActionParams, Effect, SnapshotRequest};
use cup_protocol::{Action, Role, Scope, State};
use cup_sandbox::LaunchOptions;

/// The preload that lets VLC start as root (the tests run as root and
/// VLC's executable refuses to): `support/nonroot.c`, compiled here.
fn nonroot_preload(dir: &TempDir) -> PathBuf {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/desktop/support/nonroot.c");
    let out = dir.path().join("nonroot.so");
    let built = Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&out)
        .arg(&source)
        .arg("-ldl")
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run cc: {e} (apt-get install gcc, or scripts/install-deps.sh)")
        });
    assert!(
        built.status.success(),
        "cc failed: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vlc_controls_are_named_menus_open_and_a_toggle_is_confirmed() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-vlc");
    let preload = nonroot_preload(&dir);
    let options = LaunchOptions {
        timeout: Duration::from_secs(90),
        env: vec![
            ("LD_PRELOAD".into(), preload.display().to_string()),
            // VLC's settings go to a folder of the test's own.
            ("HOME".into(), dir.path().display().to_string()),
        ],
    };
    let _vlc = desk
        .sandbox
        .launch_with(
            "vlc",
            &["--no-qt-privacy-ask", "--no-video-title-show"],
            &options,
        )
        .unwrap_or_else(|e| {
            panic!("cannot launch vlc: {e} (apt-get install vlc, or scripts/install-deps.sh)")
        });
    let mut session = desk.session();
    let req = SnapshotRequest {
        scope: Scope::Foreground,
        ..SnapshotRequest::default()
    };
    let snap = until(&mut session, &req, "the Play button", 30, false, |s| {
        !find(s, Role::Button, "Play").is_empty()
    })
    .await;

    // Every button and check box of the player has a name; Play's came
    // from its tooltip, and says so.
    let controls: Vec<_> = nodes(&snap)
        .into_iter()
        .filter(|n| matches!(n.role, Role::Button | Role::Checkbox))
        .collect();
    assert!(controls.len() >= 8, "{}", snap.text);
    for c in &controls {
        assert!(!c.name.is_empty(), "nameless {c:?}\n{}", snap.text);
    }
    let play = find(&snap, Role::Button, "Play")[0];
    let from = play
        .platform
        .linux
        .as_ref()
        .and_then(|l| l.extra.get("nameFrom"))
        .and_then(serde_json::Value::as_str);
    assert_eq!(from, Some("description"), "{play:?}");
    assert!(
        !find(&snap, Role::Button, "Stop playback").is_empty(),
        "{}",
        snap.text
    );
    // The menu bar's items open with a click (Qt's ShowMenu), not a
    // right-click.
    for menu in [
        "Media", "Playback", "Audio", "Video", "Tools", "View", "Help",
    ] {
        let item = find(&snap, Role::MenuItem, menu);
        let item = item
            .first()
            .unwrap_or_else(|| panic!("menu {menu}:\n{}", snap.text));
        assert!(item.actions.contains(&Action::Click), "{item:?}");
        assert!(!item.actions.contains(&Action::RightClick), "{item:?}");
        assert!(item.bounds.is_some(), "{item:?}");
    }

    // Open the View menu: its items appear, with bounds.
    let view = find(&snap, Role::MenuItem, "View")[0].id.clone();
    let opened = session
        .action(&view, "click", &ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("click View: {e}"));
    assert!(opened.success, "{opened:?}");
    assert_ne!(opened.effect, Effect::NoChange, "{opened:?}");
    let snap = until(
        &mut session,
        &req,
        "the View menu's items",
        30,
        false,
        |s| {
            find(s, Role::MenuItem, "Always on top")
                .iter()
                .any(|m| m.bounds.is_some())
        },
    )
    .await;
    assert!(
        find(&snap, Role::MenuItem, "Minimal Interface")
            .iter()
            .any(|m| m.bounds.is_some()),
        "{}",
        snap.text
    );
    let closed = session
        .press("escape")
        .await
        .unwrap_or_else(|e| panic!("escape: {e}"));
    assert!(closed.success, "{closed:?}");
    let snap = until(&mut session, &req, "the View menu closed", 30, false, |s| {
        find(s, Role::MenuItem, "Always on top").is_empty()
    })
    .await;

    // Toggle Random: its state says so.
    let random = find(&snap, Role::Checkbox, "Random");
    let random = random
        .first()
        .unwrap_or_else(|| panic!("no Random:\n{}", snap.text));
    assert!(!random.states.contains(&State::Checked), "{random:?}");
    let id = random.id.clone();
    let toggled = session
        .action(&id, "toggle", &ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("toggle Random: {e}"));
    assert_eq!(toggled.effect, Effect::Confirmed, "{toggled:?}");
    let snap = snapshot(&mut session, &req).await;
    let random = find(&snap, Role::Checkbox, "Random");
    assert!(
        random.iter().any(|r| r.states.contains(&State::Checked)),
        "{}",
        snap.text
    );
}
