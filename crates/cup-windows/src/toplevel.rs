//! Which top-level windows are an app's windows (what `EnumWindows` lists
//! is mostly not): visible, not cloaked by DWM (another virtual desktop, a
//! suspended UWP app), not a tool window unless it asks for a taskbar
//! button, not the shell's own surfaces; owned windows (dialogs) count.

use cup::WindowHandle;
use cup_protocol::WindowInfo;
use serde_json::{Map, Value};

use crate::facts::WindowFacts;
use crate::screen::ltrb;

/// `WS_EX_TOOLWINDOW`.
pub const WS_EX_TOOLWINDOW: u32 = 0x0000_0080;
/// `WS_EX_APPWINDOW`.
pub const WS_EX_APPWINDOW: u32 = 0x0004_0000;
/// `WS_EX_NOACTIVATE`.
pub const WS_EX_NOACTIVATE: u32 = 0x0800_0000;
/// `WS_CHILD`.
pub const WS_CHILD: u32 = 0x4000_0000;

/// Window classes of the shell that are not app windows.
const SHELL_CLASSES: [&str; 6] = [
    "Progman",
    "WorkerW",
    "Shell_TrayWnd",
    "Shell_SecondaryTrayWnd",
    "Windows.UI.Core.CoreWindow",
    "tooltips_class32",
];

/// Whether `w` is an app's window.
pub fn is_app_window(w: &WindowFacts) -> bool {
    if !w.visible || w.cloaked || w.style & WS_CHILD != 0 {
        return false;
    }
    if SHELL_CLASSES.contains(&w.class_name.as_str()) {
        return false;
    }
    let tool = w.ex_style & WS_EX_TOOLWINDOW != 0 && w.ex_style & WS_EX_APPWINDOW == 0;
    if tool {
        return false;
    }
    let r = ltrb(w.rect);
    if (r.w == 0 || r.h == 0) && !w.minimized {
        return false;
    }
    // A popup without a title that takes no activation (a menu, a
    // notification) is not a window the user switches to; a titled or
    // owned one (a dialog) is.
    !(w.title.trim().is_empty() && w.owner == 0 && w.ex_style & WS_EX_NOACTIVATE != 0)
}

/// The windows an action's effect is judged by: every visible top-level
/// window, popups and menus included (a menu that opens is the effect of
/// clicking its button), each as its handle and a label (the title; a
/// menu's is `menu`).
pub fn watched(all: &[WindowFacts]) -> Vec<(i64, String)> {
    all.iter()
        .filter(|w| w.visible && !w.cloaked && w.style & WS_CHILD == 0)
        .filter(|w| !SHELL_CLASSES[..4].contains(&w.class_name.as_str()))
        .filter(|w| {
            let r = ltrb(w.rect);
            r.w > 0 && r.h > 0
        })
        .map(|w| {
            let label = if !w.title.trim().is_empty() {
                w.title.clone()
            } else if w.class_name == "#32768" {
                "menu".to_owned()
            } else {
                format!("({})", w.class_name)
            };
            (w.hwnd, label)
        })
        .collect()
}

/// The handle cup lists for `w`.
pub fn handle(w: &WindowFacts, foreground: i64) -> WindowHandle {
    let mut extra = Map::new();
    if !w.process_name.is_empty() {
        extra.insert("app".into(), Value::from(w.process_name.clone()));
    }
    if w.minimized {
        extra.insert("minimized".into(), Value::from(true));
    }
    if w.elevated {
        extra.insert("elevated".into(), Value::from(true));
    }
    WindowHandle {
        info: WindowInfo {
            title: w.title.clone(),
            pid: Some(i64::from(w.pid)).filter(|p| *p != 0),
            foreground: w.hwnd == foreground,
            bounds: Some(ltrb(w.rect)).filter(|r| r.w > 0 && r.h > 0 && !w.minimized),
            url: None,
            extra,
        },
        native: format!("hwnd:{}", w.hwnd),
    }
}

/// The `HWND` of a handle's native reference (`hwnd:N`).
pub fn hwnd_of(native: &str) -> Option<i64> {
    native.strip_prefix("hwnd:")?.parse().ok()
}

/// The app windows of `all` (in `EnumWindows`' order: top of the Z order
/// first), the foreground one flagged.
pub fn app_windows(all: &[WindowFacts], foreground: i64) -> Vec<WindowHandle> {
    all.iter()
        .filter(|w| is_app_window(w))
        .map(|w| handle(w, foreground))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(hwnd: i64, title: &str, class: &str) -> WindowFacts {
        WindowFacts {
            hwnd,
            title: title.into(),
            class_name: class.into(),
            pid: 100,
            rect: [10, 10, 410, 310],
            visible: true,
            style: 0x14CF_0000,
            ..WindowFacts::default()
        }
    }

    #[test]
    fn app_windows_leave_out_shell_tool_cloaked_and_hidden_ones() {
        let mut tool = win(3, "Palette", "Tool");
        tool.ex_style = WS_EX_TOOLWINDOW;
        let mut app_tool = win(4, "Chat", "Tool");
        app_tool.ex_style = WS_EX_TOOLWINDOW | WS_EX_APPWINDOW;
        let mut cloaked = win(5, "Calculator", "ApplicationFrameWindow");
        cloaked.cloaked = true;
        let mut hidden = win(6, "Hidden", "X");
        hidden.visible = false;
        let mut menu = win(7, "", "#32768");
        menu.ex_style = WS_EX_NOACTIVATE | WS_EX_TOOLWINDOW | WS_EX_APPWINDOW;
        let mut dialog = win(8, "Save As", "#32770");
        dialog.owner = 1;
        let mut minimized = win(9, "Mail", "X");
        minimized.minimized = true;
        minimized.rect = [-32000, -32000, -32000, -32000];
        let all = vec![
            win(1, "Untitled - Notepad", "Notepad"),
            win(2, "Program Manager", "Progman"),
            tool,
            app_tool,
            cloaked,
            hidden,
            menu,
            dialog,
            minimized,
        ];
        let listed: Vec<String> = app_windows(&all, 8)
            .into_iter()
            .map(|h| {
                format!(
                    "{}{}",
                    h.info.title,
                    if h.info.foreground { "*" } else { "" }
                )
            })
            .collect();
        assert_eq!(listed, ["Untitled - Notepad", "Chat", "Save As*", "Mail"]);
    }

    #[test]
    fn an_opened_menu_is_a_watched_window() {
        let mut menu = win(7, "", "#32768");
        menu.ex_style = WS_EX_TOOLWINDOW;
        let all = vec![
            win(1, "Untitled - Notepad", "Notepad"),
            menu,
            win(2, "Program Manager", "Progman"),
        ];
        assert_eq!(
            watched(&all),
            vec![(1, "Untitled - Notepad".to_owned()), (7, "menu".to_owned())]
        );
    }

    #[test]
    fn a_handle_names_its_hwnd() {
        let h = handle(&win(0x1_0044, "A", "B"), 0);
        assert_eq!(hwnd_of(&h.native), Some(0x1_0044));
        assert_eq!(hwnd_of("/org/a11y/atspi"), None);
    }
}
