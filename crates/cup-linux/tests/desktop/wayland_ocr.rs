//! A native Wayland window with no accessibility tree, on a private
//! headless sway (issue 51): a GTK 3 form whose ATK bridge is off
//! (`NO_AT_BRIDGE=1`) is read from its pixels (screencopy, then
//! Tesseract) with sway's screen coordinates, and a click on its button's
//! line presses the button: the program's own output says so, and the
//! line it shows after is the click's effect.

use std::io::{BufRead as _, BufReader};
use std::os::unix::fs::PermissionsExt as _;
use std::process::Stdio;
use std::time::Duration;

use crate::support::{Desk, TempDir};
use cup::{ActionParams, Effect, SnapshotRequest};
use cup_linux::sway::SwayIpc;
use cup_protocol::Node;
use cup_sandbox::SandboxOptions;

/// The form: a label, an entry, a button that says what it did on stdout
/// and in a label. It prints `ready` once its window is painted (its
/// frame clock's first `after-paint`).
const FORM: &str = r#"
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk

win = Gtk.Window(title="Order form")
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=16)
box.set_border_width(32)
box.pack_start(Gtk.Label(label="Customer name", xalign=0), False, False, 0)
box.pack_start(Gtk.Entry(), False, False, 0)
button = Gtk.Button(label="Place order")
status = Gtk.Label(label="", xalign=0)

def clicked(_):
    status.set_text("Done: Place order")
    print("clicked Place order", flush=True)

button.connect("clicked", clicked)
box.pack_start(button, False, False, 0)
box.pack_start(status, False, False, 0)
win.add(box)
win.connect("destroy", Gtk.main_quit)
win.show_all()
painted = []

def on_paint(*_):
    if not painted:
        painted.append(True)
        print("ready", flush=True)

win.get_frame_clock().connect("after-paint", on_paint)
Gtk.main()
"#;

fn lines_from_pixels(snap: &cup::Snapshot) -> Vec<Node> {
    snap.envelope
        .nodes()
        .filter(|n| n.is_from_pixels())
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wayland_window_without_a_tree_is_read_and_clicked_from_its_pixels() {
    let desk = Desk::start_with(SandboxOptions {
        width: 1280,
        height: 800,
        wayland: true,
        ..SandboxOptions::default()
    });
    // The apps run as `nobody` when the tests run as root: the script must
    // be readable by them.
    let dir = TempDir::new("cup-wayland-ocr");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("{e}"));
    let script = dir.path().join("form.py");
    std::fs::write(&script, FORM).unwrap_or_else(|e| panic!("{e}"));
    let mut form = desk
        .sandbox
        .command("/usr/bin/python3")
        .arg(&script)
        .env("NO_AT_BRIDGE", "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run python3: {e} (scripts/install-deps.sh installs python3-gi and gir1.2-gtk-3.0)")
        });
    let stdout = form.stdout.take().unwrap_or_else(|| panic!("no stdout"));
    let (tx, said) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let first = said
        .recv_timeout(Duration::from_secs(30))
        .unwrap_or_else(|e| {
            panic!("the GTK form never drew its window (python3-gi, gir1.2-gtk-3.0): {e}")
        });
    assert_eq!(first, "ready");
    let ipc = SwayIpc::new(
        desk.sandbox
            .sway_socket()
            .unwrap_or_else(|| panic!("a Wayland sandbox has sway's IPC socket")),
    );
    // The form painted, so sway has its window; asked again until its
    // tree lists it (each ask is a round trip to sway), at most 20 s.
    let until = std::time::Instant::now() + Duration::from_secs(20);
    let rect = loop {
        if let Ok(state) = ipc.state().await {
            if let Some(w) = state.windows.first() {
                break w.rect;
            }
        }
        assert!(
            std::time::Instant::now() < until,
            "sway never mapped the form"
        );
    };

    // GTK's first `after-paint` says the form committed a frame, not that
    // sway has shown it: sway may still be resizing the window to its
    // tile, and a screenshot taken before the tiled frame lands shows no
    // text. So the form is read again (each read is a screenshot and an
    // OCR pass) until its two lines are on screen, at most 20 s.
    let mut session = desk.session();
    let until = std::time::Instant::now() + Duration::from_secs(20);
    let (snap, lines) = loop {
        let snap = session
            .snapshot(&SnapshotRequest::default())
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .clone();
        assert!(
            snap.notes
                .iter()
                .any(|n| n.contains("exposes no accessibility tree")),
            "{}",
            snap.text
        );
        let lines = lines_from_pixels(&snap);
        let shown = ["Customer name", "Place order"]
            .iter()
            .all(|want| lines.iter().any(|n| n.name == *want));
        if shown || std::time::Instant::now() >= until {
            break (snap, lines);
        }
    };
    let names: Vec<&str> = lines.iter().map(|n| n.name.as_str()).collect();
    for want in ["Customer name", "Place order"] {
        assert!(
            names.contains(&want),
            "{want:?} in {names:?}\n{}",
            snap.text
        );
    }
    assert!(!names.iter().any(|n| n.contains("Done")), "{names:?}");
    for line in &lines {
        let b = line.bounds.unwrap_or_else(|| panic!("bounds: {line:?}"));
        assert!(
            b.x >= rect.x
                && b.y >= rect.y
                && b.right() <= rect.right()
                && b.bottom() <= rect.bottom(),
            "{line:?} lies in sway's window {rect:?}"
        );
    }
    let button = lines
        .iter()
        .find(|n| n.name == "Place order")
        .unwrap_or_else(|| panic!("{names:?}"));

    let result = session
        .action(&button.id, "click", &ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let pressed = said
        .recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|e| panic!("the button was not pressed: {e}; the click said {result:?}"));
    assert_eq!(pressed, "clicked Place order");
    assert_eq!(result.effect, Effect::Confirmed, "{}", result.message);
    assert!(
        result
            .changes
            .iter()
            .any(|c| c.field == "text" && c.after.as_deref().is_some_and(|a| a.contains("Done"))),
        "{result:?}"
    );
    let _ = form.kill();
    let _ = form.wait();
}
