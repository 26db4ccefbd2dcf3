//! Which windows are apps' windows, from `CGWindowListCopyWindowInfo`'s
//! front-to-back list: layer 0, visible, with an area, not owned by the
//! system's own processes (the Dock, the menu bar's servers, the window
//! server). The foreground window is the first of them: NSWorkspace's
//! frontmost app goes stale in a process without a run loop (cup's CLI).

use crate::facts::WindowFacts;

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

#[cfg(test)]
mod tests {
    use super::*;
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
}
