//! Which windows are apps' windows, from `CGWindowListCopyWindowInfo`'s
//! front-to-back list: layer 0, visible, with an area, not owned by the
//! system's own processes (the Dock, the menu bar's servers, the window
//! server). The foreground window is the first of them: NSWorkspace's
//! frontmost app goes stale in a process without a run loop (cup's CLI).

use cup::WindowHandle;
use cup_protocol::WindowInfo;

use crate::facts::{PointRect, WindowFacts};
use crate::screen::Layout;

/// Processes whose layer-0 windows are not app windows.
pub const SYSTEM_OWNERS: [&str; 9] = [
    "Window Server",
    "Dock",
    "SystemUIServer",
    "Control Center",
    "Notification Center",
    "Spotlight",
    "WindowManager",
    "loginwindow",
    "screencaptureui",
];

/// Whether `w` is an app's window.
pub fn is_app_window(w: &WindowFacts) -> bool {
    w.layer == 0
        && w.alpha > 0.0
        && w.bounds.w >= 2.0
        && w.bounds.h >= 2.0
        && w.pid > 0
        && !SYSTEM_OWNERS.contains(&w.owner.as_str())
}

/// The app windows of `all`, front to back.
pub fn app_windows(all: &[WindowFacts]) -> Vec<WindowFacts> {
    all.iter().filter(|w| is_app_window(w)).cloned().collect()
}

/// The foreground window: the front-most app window.
pub fn foreground(all: &[WindowFacts]) -> Option<&WindowFacts> {
    all.iter().find(|w| is_app_window(w))
}

/// The window a pointer event at `(x, y)` (points) lands on: the
/// front-most visible window under it, of any layer (menus and popups are
/// above layer 0).
pub fn window_at(all: &[WindowFacts], x: f64, y: f64) -> Option<&WindowFacts> {
    all.iter()
        .find(|w| w.alpha > 0.0 && w.pid > 0 && w.layer >= 0 && w.bounds.contains(x, y))
}

/// A window as the adapter lists it: its title (the AX title when the
/// window list has none: `kCGWindowName` needs Screen Recording; else the
/// app's name), pid, bounds in pixels, and `cg:NUMBER|PID` as its native
/// reference.
pub fn handle(w: &WindowFacts, foreground: bool, layout: &Layout) -> WindowHandle {
    let title = if w.title.is_empty() {
        w.owner.clone()
    } else {
        w.title.clone()
    };
    let mut extra = serde_json::Map::new();
    extra.insert("app".into(), serde_json::Value::from(w.owner.clone()));
    extra.insert("windowId".into(), serde_json::Value::from(w.number));
    WindowHandle {
        info: WindowInfo {
            title,
            pid: Some(i64::from(w.pid)),
            foreground,
            bounds: layout.rect_to_pixels(&w.bounds),
            url: None,
            extra,
        },
        native: format!("cg:{}|{}", w.number, w.pid),
    }
}

/// The window number and pid of a native reference `cg:NUMBER|PID`
/// (number 0: the app's desktop, Finder's icons).
pub fn parse_native(native: &str) -> Option<(u32, i32)> {
    let (n, p) = native.strip_prefix("cg:")?.split_once('|')?;
    Some((n.parse().ok()?, p.parse().ok()?))
}

/// How pointer events reach the app under them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointerRoute {
    /// Through the HID tap, as a real mouse: WindowServer hit-tests them
    /// to the window on top (Chromium, Electron and Catalyst windows ignore
    /// pointer events posted to their process without its routing fields).
    Hid,
    /// Posted to this process (`CUP_MACOS_INPUT=pid`: the user's pointer
    /// and frontmost app stay put).
    Process(i32),
    /// The target's window is not the one on top at the point: a real
    /// mouse event would reach this other app.
    Covered {
        /// The app whose window is on top there.
        by: String,
    },
}

/// The route of a pointer gesture at a point where `at` is the topmost
/// window ([`window_at`]), for an element of app `target` (`None`: a
/// gesture at screen coordinates, which goes to whatever is there).
/// Events posted to a process go only to an app window's owner (layer 0,
/// not the menu bar's, the Dock's or another system process's: those get
/// HID events).
pub fn pointer_route(
    pid_delivery: bool,
    target: Option<i32>,
    at: Option<&WindowFacts>,
) -> PointerRoute {
    let app_window = at.filter(|w| is_app_window(w));
    if pid_delivery {
        return match (target, app_window) {
            (Some(t), _) if t > 0 => PointerRoute::Process(t),
            (None, Some(w)) => PointerRoute::Process(w.pid),
            _ => PointerRoute::Hid,
        };
    }
    match (target, at) {
        (Some(t), Some(w)) if w.pid != t => PointerRoute::Covered {
            by: w.owner.clone(),
        },
        _ => PointerRoute::Hid,
    }
}

/// Which of an app's accessible windows (their frames, in the order of
/// `AXWindows`) is the Core Graphics window with `bounds`: the one with the
/// same frame (within a point). `None` when none has it.
pub fn window_by_frame(frames: &[Option<PointRect>], bounds: &PointRect) -> Option<usize> {
    let close = |a: f64, b: f64| (a - b).abs() <= 1.0;
    frames.iter().position(|f| {
        f.as_ref().is_some_and(|f| {
            close(f.x, bounds.x)
                && close(f.y, bounds.y)
                && close(f.w, bounds.w)
                && close(f.h, bounds.h)
        })
    })
}

/// When no frame matched ([`window_by_frame`]): the only window with the
/// same non-empty title, else the app's only window; never a guess among
/// several (a window mid-move, a panel without an accessible window, two
/// of the same size: another window's tree would be read or acted in).
pub fn window_by_title_or_only(titles: &[Option<String>], title: &str) -> Option<usize> {
    let same: Vec<usize> = titles
        .iter()
        .enumerate()
        .filter(|(_, t)| !title.is_empty() && t.as_deref() == Some(title))
        .map(|(i, _)| i)
        .collect();
    match (same.as_slice(), titles.len()) {
        ([one], _) => Some(*one),
        ([], 1) => Some(0),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(owner: &str, pid: i32, layer: i32) -> WindowFacts {
        WindowFacts {
            owner: owner.into(),
            pid,
            layer,
            alpha: 1.0,
            bounds: PointRect {
                x: 0.0,
                y: 0.0,
                w: 400.0,
                h: 300.0,
            },
            ..WindowFacts::default()
        }
    }

    #[test]
    fn pointer_events_go_through_hid_unless_asked_and_never_to_system_owners() {
        let safari = window("Safari", 42, 0);
        let menu_bar = window("Window Server", 77, 24);
        let dock = window("Dock", 88, 20);
        // Default: HID, for an element of the app on top or for a point.
        assert_eq!(
            pointer_route(false, Some(42), Some(&safari)),
            PointerRoute::Hid
        );
        assert_eq!(
            pointer_route(false, None, Some(&menu_bar)),
            PointerRoute::Hid
        );
        assert_eq!(pointer_route(false, None, None), PointerRoute::Hid);
        // An element whose window is covered there: said, not clicked blind.
        assert_eq!(
            pointer_route(false, Some(7), Some(&safari)),
            PointerRoute::Covered {
                by: "Safari".into()
            }
        );
        // Process delivery (opt-in): the element's app, or the app window's
        // owner at a point; the menu bar and the Dock get HID events.
        assert_eq!(
            pointer_route(true, Some(42), Some(&menu_bar)),
            PointerRoute::Process(42)
        );
        assert_eq!(
            pointer_route(true, None, Some(&safari)),
            PointerRoute::Process(42)
        );
        assert_eq!(
            pointer_route(true, None, Some(&menu_bar)),
            PointerRoute::Hid
        );
        assert_eq!(pointer_route(true, None, Some(&dock)), PointerRoute::Hid);
    }

    #[test]
    fn a_window_is_matched_by_frame_then_title_then_as_the_only_one_never_guessed() {
        let r = |x: f64| PointRect {
            x,
            y: 10.0,
            w: 300.0,
            h: 200.0,
        };
        let frames = [Some(r(0.0)), None, Some(r(400.5))];
        assert_eq!(window_by_frame(&frames, &r(400.0)), Some(2));
        assert_eq!(window_by_frame(&frames, &r(900.0)), None);
        let titles = [Some("Notes".to_owned()), Some("Inbox".to_owned())];
        assert_eq!(window_by_title_or_only(&titles, "Inbox"), Some(1));
        // Titles are empty without Screen Recording: no guess among two.
        assert_eq!(window_by_title_or_only(&titles, ""), None);
        assert_eq!(window_by_title_or_only(&titles, "Other"), None);
        // Two windows of one title: no guess either.
        let twins = [Some("Untitled".to_owned()), Some("Untitled".to_owned())];
        assert_eq!(window_by_title_or_only(&twins, "Untitled"), None);
        // The app's only window is the one.
        assert_eq!(window_by_title_or_only(&[None], ""), Some(0));
        assert_eq!(window_by_title_or_only(&[], ""), None);
    }
    use crate::facts::PointRect;

    fn w(number: u32, owner: &str, layer: i32, alpha: f64) -> WindowFacts {
        WindowFacts {
            number,
            pid: i32::try_from(number).unwrap_or(1),
            owner: owner.into(),
            title: format!("{owner} {number}"),
            bounds: PointRect {
                x: 0.0,
                y: 25.0,
                w: 800.0,
                h: 600.0,
            },
            layer,
            on_screen: true,
            alpha,
            bundle_id: None,
        }
    }

    #[test]
    fn menu_bar_dock_and_invisible_windows_are_not_apps() {
        let list = vec![
            w(1, "Window Server", 0, 1.0),
            w(2, "SystemUIServer", 25, 1.0),
            w(3, "Dock", 20, 1.0),
            w(4, "Finder", 0, 0.0),
            w(5, "Safari", 0, 1.0),
            w(6, "Finder", 0, 1.0),
        ];
        let apps: Vec<u32> = app_windows(&list).iter().map(|w| w.number).collect();
        assert_eq!(apps, [5, 6]);
        assert_eq!(foreground(&list).map(|w| w.number), Some(5));
        let mut sliver = w(7, "Notes", 0, 1.0);
        sliver.bounds.h = 1.0;
        assert!(!is_app_window(&sliver));
    }

    #[test]
    fn pointer_targets_handles_and_references() {
        let mut menu = w(9, "Finder", 101, 1.0);
        menu.bounds = PointRect {
            x: 100.0,
            y: 100.0,
            w: 50.0,
            h: 50.0,
        };
        let list = vec![menu, w(5, "Safari", 0, 1.0)];
        assert_eq!(window_at(&list, 120.0, 120.0).map(|w| w.number), Some(9));
        assert_eq!(window_at(&list, 10.0, 300.0).map(|w| w.number), Some(5));
        assert!(window_at(&list, 10.0, 10.0).is_none());
        let layout = crate::screen::one_display(1512.0, 982.0, 2.0);
        let mut untitled = w(5, "Safari", 0, 1.0);
        untitled.title.clear();
        let h = handle(&untitled, true, &layout);
        assert_eq!(h.info.title, "Safari");
        assert_eq!(
            h.info.bounds,
            Some(cup_protocol::Rect::new(0, 50, 1600, 1200))
        );
        assert_eq!(h.native, "cg:5|5");
        assert_eq!(parse_native(&h.native), Some((5, 5)));
        assert_eq!(parse_native("hwnd:5"), None);
    }
}
