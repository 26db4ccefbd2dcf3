//! Checks before input that Windows delivers wherever it likes: keys go
//! to the foreground window, a click to the window on top at its point.
//! `SetForegroundWindow` may be refused (the foreground lock: a process
//! started from a terminal or an MCP host usually may not take the
//! foreground), and another window may cover the element: cup refuses
//! then, in one line, rather than typing or clicking into another app.
//! The calls that give the windows are the OS layer's; the decisions are
//! here.

/// A top-level window as the checks name it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Top {
    /// The root window (`GetAncestor(.., GA_ROOT)`), 0 for none.
    pub root: i64,
    /// The window that owns it (`GW_OWNER`: a dialog's app window), 0
    /// for none.
    pub owner: i64,
    /// Its title.
    pub title: String,
    /// Its process's executable name.
    pub app: String,
}

impl Top {
    fn named(&self) -> String {
        match (self.title.is_empty(), self.app.is_empty()) {
            (false, false) => format!("'{}' ({})", self.title, self.app),
            (false, true) => format!("'{}'", self.title),
            (true, false) => format!("a window of {}", self.app),
            (true, true) => "no window".into(),
        }
    }
}

/// Keys for an element of window `target` may be sent only when it is
/// the foreground window (its root).
///
/// # Errors
///
/// A one-line refusal naming the window keys would reach instead.
pub fn keys_reach(target: &Top, foreground: &Top) -> Result<(), String> {
    if target.root != 0 && foreground.root == target.root {
        return Ok(());
    }
    if target.root != 0 && foreground.owner == target.root {
        return Err(format!(
            "{} has {} open in front of it, so keys would go there; nothing was typed — answer or close that dialog first",
            target.named(),
            foreground.named()
        ));
    }
    Err(format!(
        "{} is not in front (Windows did not let cup bring it forward), so keys would go to {}; nothing was typed — bring the window to the front (click it, or the focus action on the window) and try again",
        target.named(),
        foreground.named()
    ))
}

/// Whether the focus action on window `target` brought it to the front.
///
/// # Errors
///
/// A one-line refusal naming the window Windows kept in front.
pub fn raised(target: &Top, foreground: &Top) -> Result<(), String> {
    if target.root != 0 && foreground.root == target.root {
        return Ok(());
    }
    Err(format!(
        "Windows kept {} in front of {} (its foreground lock: cup's process may not take the foreground now); click the window to bring it forward",
        foreground.named(),
        target.named()
    ))
}

/// A click at an element of window `target` may be sent only when that
/// window is the one on top at the point (`WindowFromPoint`'s root).
///
/// # Errors
///
/// A one-line refusal naming the window on top there.
pub fn click_reaches(target: &Top, at_point: &Top) -> Result<(), String> {
    if target.root != 0 && at_point.root == target.root {
        return Ok(());
    }
    Err(format!(
        "{} is covered at the element's centre by {}, so a click there would reach it; nothing was clicked — bring the window to the front and try again",
        target.named(),
        at_point.named()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn top(root: i64, title: &str, app: &str) -> Top {
        Top {
            root,
            owner: 0,
            title: title.into(),
            app: app.into(),
        }
    }

    #[test]
    fn the_focus_action_on_a_window_says_when_windows_kept_another_in_front() {
        let notepad = top(0x10, "Untitled - Notepad", "notepad.exe");
        let term = top(0x20, "Terminal", "WindowsTerminal.exe");
        assert_eq!(raised(&notepad, &notepad), Ok(()));
        let e = raised(&notepad, &term).expect_err("another window kept in front");
        assert!(
            e.starts_with(
                "Windows kept 'Terminal' (WindowsTerminal.exe) in front of 'Untitled - Notepad'"
            ),
            "{e}"
        );
        assert!(!e.contains('\n'));
        assert!(raised(&Top::default(), &Top::default()).is_err());
    }

    #[test]
    fn keys_go_only_to_the_window_in_front() {
        let notepad = top(0x10, "Untitled - Notepad", "notepad.exe");
        assert!(keys_reach(&notepad, &notepad).is_ok());
        let terminal = top(0x20, "Windows PowerShell", "WindowsTerminal.exe");
        let e = keys_reach(&notepad, &terminal).expect_err("another window is in front");
        assert!(
            e.contains("'Untitled - Notepad' (notepad.exe) is not in front"),
            "{e}"
        );
        assert!(e.contains("keys would go to 'Windows PowerShell'"), "{e}");
        assert!(e.contains("nothing was typed"), "{e}");
        assert!(!e.contains('\n'));
        // No foreground window, or a target without a root: refused too.
        assert!(keys_reach(&notepad, &Top::default()).is_err());
        assert!(keys_reach(&Top::default(), &Top::default()).is_err());
        // A modal dialog of the target's in front: it is named.
        let open = Top {
            owner: 0x10,
            ..top(0x40, "Open", "notepad.exe")
        };
        let e = keys_reach(&notepad, &open).expect_err("a dialog is in front");
        assert!(
            e.contains("has 'Open' (notepad.exe) open in front of it")
                && e.contains("close that dialog first"),
            "{e}"
        );
    }

    #[test]
    fn a_click_goes_only_where_the_window_is_on_top() {
        let app = top(0x10, "Form", "app.exe");
        assert!(click_reaches(&app, &app).is_ok());
        let popup = top(0x30, "", "other.exe");
        let e = click_reaches(&app, &popup).expect_err("covered");
        assert!(
            e.contains("covered at the element's centre by a window of other.exe"),
            "{e}"
        );
    }
}
