//! Nautilus 43 (Files, GTK 4) on the sandbox desktop, the actions of
//! OSWorld's file tasks the task suite does not take (it renames, makes
//! a folder and trashes): files selected by typing a pattern ("Select
//! Items Matching"), and a folder opened by a double-click on it.
//! (The 500-file folder is read in `large.rs`.)

use std::time::Duration;

use crate::support::{assert_read_right, find, has, nodes, until, Desk, TempDir};
use cup::{ActionParams, Snapshot, SnapshotRequest};
use cup_protocol::{Node, Role, Scope, State};

fn foreground() -> SnapshotRequest {
    SnapshotRequest {
        scope: Scope::Foreground,
        ..SnapshotRequest::default()
    }
}

/// The cells that name file `name` (Nautilus's grid cell and, in its
/// list view, the row's name cell).
fn cells<'a>(snap: &'a Snapshot, name: &str) -> Vec<&'a Node> {
    nodes(snap)
        .into_iter()
        .filter(|n| n.role == Role::Cell && n.name == name && n.bounds.is_some())
        .collect()
}

fn selected(snap: &Snapshot, name: &str) -> bool {
    cells(snap, name).iter().any(|n| has(n, State::Selected))
}

fn window_name(snap: &Snapshot) -> &str {
    snap.envelope.tree.first().map_or("", |w| w.name.as_str())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nautilus_selects_a_file_by_typing_and_opens_a_folder() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-nautilus");
    let files = dir.path().join("files");
    std::fs::create_dir_all(files.join("projects")).unwrap_or_else(|e| panic!("{e}"));
    for name in ["alpha.txt", "beta.txt", "report.txt", "zeta.txt"] {
        std::fs::write(files.join(name), format!("{name}\n")).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(files.join("projects").join("plan.txt"), "plan\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let options = cup_sandbox::LaunchOptions {
        timeout: Duration::from_secs(60),
        env: vec![("HOME".into(), dir.path().display().to_string())],
    };
    let folder = files.display().to_string();
    desk.sandbox
        .launch_with("nautilus", &["--new-window", folder.as_str()], &options)
        .unwrap_or_else(|e| {
            panic!("cannot launch nautilus: {e} (apt-get install nautilus, or scripts/install-deps.sh)")
        });
    let mut session = desk.session();
    let req = foreground();
    let snap = until(&mut session, &req, "the folder's files", 60, true, |s| {
        ["alpha.txt", "zeta.txt", "projects"]
            .iter()
            .all(|f| !cells(s, f).is_empty())
    })
    .await;
    assert_read_right(&snap);
    assert!(!selected(&snap, "zeta.txt"), "{}", snap.text);

    // Select by typing: Nautilus's "Select Items Matching" (Ctrl+S)
    // takes a pattern typed by the agent and selects the files it
    // matches. (Typing into the view starts Nautilus 43's search instead,
    // which waits on tracker's miner: started at idle priority, it never
    // answers on a busy machine, and the search stays "Searching…".)
    let ask = session
        .press("ctrl+s")
        .await
        .unwrap_or_else(|e| panic!("ctrl+s: {e}"));
    assert!(ask.success, "{ask:?}");
    let dialog = until(&mut session, &req, "Select Items Matching", 30, true, |s| {
        window_name(s) == "Select Items Matching"
            && nodes(s).iter().any(|n| n.role == Role::TextBox)
            && !find(s, Role::Button, "Select").is_empty()
    })
    .await;
    let field = nodes(&dialog)
        .into_iter()
        .find(|n| n.role == Role::TextBox)
        .map(|n| n.id.clone())
        .unwrap_or_default();
    let typed = session
        .action(
            &field,
            "type",
            &ActionParams {
                value: Some("zet*".into()),
                ..ActionParams::default()
            },
        )
        .await
        .unwrap_or_else(|e| panic!("type: {e}"));
    assert!(typed.success, "{typed:?}");
    let select = find(&dialog, Role::Button, "Select")[0].id.clone();
    let chosen = session
        .action(&select, "click", &ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("click Select: {e}"));
    assert!(chosen.success, "{chosen:?}");
    let snap = until(&mut session, &req, "zeta.txt selected", 30, true, |s| {
        window_name(s) == "files" && selected(s, "zeta.txt")
    })
    .await;
    for other in ["alpha.txt", "beta.txt", "report.txt", "projects"] {
        assert!(
            !selected(&snap, other),
            "{other} selected too:\n{}",
            snap.text
        );
    }

    // Open a folder by a double-click on it: the window shows its content.
    let projects = cells(&snap, "projects")[0].id.clone();
    let opened = session
        .action(&projects, "doubleclick", &ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("doubleclick: {e}"));
    assert!(opened.success, "{opened:?}");
    let snap = until(
        &mut session,
        &req,
        "the projects folder open",
        30,
        true,
        |s| window_name(s) == "projects" && !cells(s, "plan.txt").is_empty(),
    )
    .await;
    assert!(cells(&snap, "alpha.txt").is_empty(), "{}", snap.text);
}
