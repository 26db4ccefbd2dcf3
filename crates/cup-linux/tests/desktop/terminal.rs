//! gnome-terminal on the sandbox desktop: its launcher hands the window to
//! gnome-terminal-server (started over D-Bus) and exits, and the sandbox
//! follows it; a command typed into the terminal runs, and its output is
//! read back from the terminal's text.

use crate::support::{nodes, until, Desk};
use cup::{ActionParams, SnapshotRequest};
use cup_protocol::{Action, Scope};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_typed_into_gnome_terminal_and_its_output_read() {
    let desk = Desk::start();
    let app = desk.launch("gnome-terminal", &[]);
    assert_eq!(app.name, "gnome-terminal-server", "{app:?}");
    let mut session = desk.session();
    let req = SnapshotRequest {
        scope: Scope::Full,
        app: Some("Terminal".into()),
        ..SnapshotRequest::default()
    };
    let terminal = |snap: &cup::Snapshot| {
        nodes(snap)
            .into_iter()
            .find(|n| n.actions.contains(&Action::Type) && n.name == "Terminal")
            .cloned()
    };
    // The shell's prompt is there once the terminal has started it.
    let snap = until(&mut session, &req, "the shell's prompt", 30, false, |s| {
        terminal(s).is_some_and(|t| {
            t.value
                .as_deref()
                .is_some_and(|v| v.contains('#') || v.contains('$'))
        })
    })
    .await;
    let id = terminal(&snap).map(|t| t.id).unwrap_or_default();
    let params = ActionParams {
        value: Some("echo $((6*7))-done\n".into()),
        ..ActionParams::default()
    };
    let typed = session
        .action(&id, "type", &params)
        .await
        .unwrap_or_else(|e| panic!("type: {e}"));
    assert!(typed.success, "{typed:?}");
    // The output (not the typed command, which says $((6*7))) comes back
    // in the terminal's text, without the padding of its lines.
    let snap = until(&mut session, &req, "the command's output", 30, false, |s| {
        terminal(s)
            .and_then(|t| t.value)
            .is_some_and(|v| v.lines().any(|l| l == "42-done"))
    })
    .await;
    let value = terminal(&snap).and_then(|t| t.value).unwrap_or_default();
    assert!(!value.lines().any(|l| l.ends_with(' ')), "{value:?}");
}
