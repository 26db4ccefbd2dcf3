//! The scripted desktop of these tests: a calculator (the foreground
//! window: a display, nested groups of buttons, a check box), a file
//! manager whose list is longer than its viewport, and a desktop surface.
//!
//! Ids of a foreground capture (the calculator), pre-order:
//!
//! ```text
//! e0 win "Calculator"
//!   e1 tbx "Display" = "0"
//!   e2 grp "Keypad"
//!     e3 grp "Digits"
//!       e4..e13 btn "0".."9"
//!     e14 grp "Operators"
//!       e15 btn "Plus"   e16 btn "Equals"
//!   e17 chk "Scientific"
//! ```

use cup::protocol::{Action, Role};
use cup::{Session, SnapshotRequest};

use crate::scripted::{Element, Scripted, Window};

/// Native reference of the calculator's window.
pub const CALC: &str = "calc:/";
/// Native reference of the calculator's display.
pub const DISPLAY: &str = "calc:/display";
/// Native reference of the file manager's window.
pub const FILES: &str = "files:/";
/// Native reference of the file list.
pub const LIST: &str = "files:/list";
/// Items of the file list.
pub const FILE_COUNT: usize = 40;
/// Of which this many lie inside the list's viewport.
pub const FILES_VISIBLE: usize = 10;

/// Native reference of calculator digit `d`.
pub fn digit(d: u32) -> String {
    format!("calc:/keypad/digits/{d}")
}

fn button(native: String, name: &str, x: i64, y: i64) -> Element {
    Element::new(native, Role::Button, name)
        .bounds(x, y, 40, 40)
        .actions(&[Action::Click])
}

/// The calculator (18 elements).
pub fn calculator() -> Window {
    let digits = (0..10).map(|d| {
        let x = 10 + i64::from(d % 3) * 50;
        let y = 100 + i64::from(d / 3) * 50;
        button(digit(d), &d.to_string(), x, y)
    });
    let root = Element::new(CALC, Role::Window, "Calculator")
        .bounds(0, 0, 400, 500)
        .children([
            Element::new(DISPLAY, Role::TextBox, "Display")
                .value("0")
                .bounds(10, 10, 380, 40)
                .actions(&[Action::Type, Action::SetValue]),
            Element::new("calc:/keypad", Role::Group, "Keypad")
                .bounds(0, 90, 400, 300)
                .children([
                    Element::new("calc:/keypad/digits", Role::Group, "Digits")
                        .bounds(0, 90, 200, 300)
                        .children(digits),
                    Element::new("calc:/keypad/ops", Role::Group, "Operators")
                        .bounds(200, 90, 200, 300)
                        .children([
                            button("calc:/keypad/ops/plus".into(), "Plus", 210, 100),
                            button("calc:/keypad/ops/equals".into(), "Equals", 210, 150),
                        ]),
                ]),
            Element::new("calc:/scientific", Role::Checkbox, "Scientific")
                .bounds(10, 400, 100, 20)
                .actions(&[Action::Click, Action::Toggle]),
        ]);
    Window::new("Calculator", 100, root).foreground()
}

/// The file manager: a scrollable list of [`FILE_COUNT`] files, the first
/// [`FILES_VISIBLE`] inside its 200-pixel viewport.
pub fn files() -> Window {
    let rows = (1..=FILE_COUNT).map(|i| {
        let y = 540 + 20 * i64::try_from(i - 1).unwrap_or(0);
        Element::new(
            format!("{LIST}/{i}"),
            Role::ListItem,
            format!("doc-{i:02}.txt"),
        )
        .bounds(500, y, 300, 20)
    });
    let root = Element::new(FILES, Role::Window, "Files — Documents")
        .bounds(500, 500, 400, 300)
        .children([Element::new(LIST, Role::List, "Documents")
            .bounds(500, 540, 300, 200)
            .actions(&[Action::Scroll])
            .children(rows)]);
    Window::new("Files — Documents", 200, root)
}

/// The desktop surface: two icons.
pub fn desktop_surface() -> Window {
    let root = Element::new("desktop:/", Role::Window, "Desktop")
        .bounds(0, 0, 1920, 1080)
        .children([
            Element::new("desktop:/home", Role::ListItem, "Home")
                .bounds(20, 20, 64, 64)
                .actions(&[Action::DoubleClick]),
            Element::new("desktop:/trash", Role::ListItem, "Trash")
                .bounds(20, 100, 64, 64)
                .actions(&[Action::DoubleClick]),
        ]);
    Window::new("Desktop", 300, root)
}

/// The calculator (foreground) and the file manager, a desktop surface,
/// and a session on them.
pub fn desk() -> (Scripted, Session) {
    let adapter = Scripted::new(vec![calculator(), files()]);
    adapter.set_desktop(Some(desktop_surface()));
    let session = Session::new(adapter.boxed());
    (adapter, session)
}

/// A request for `scope` with the defaults otherwise.
pub fn request(scope: cup::protocol::Scope) -> SnapshotRequest {
    SnapshotRequest {
        scope,
        ..SnapshotRequest::default()
    }
}

/// A foreground snapshot taken (the calculator's ids), the adapter's
/// calls so far forgotten.
pub async fn snapped() -> (Scripted, Session) {
    let (adapter, mut session) = desk();
    session
        .snapshot(&request(cup::protocol::Scope::Foreground))
        .await
        .expect("foreground snapshot");
    adapter.take_calls();
    (adapter, session)
}
