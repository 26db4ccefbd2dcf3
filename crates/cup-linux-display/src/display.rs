//! What the display server says about the desktop, whichever it is (X11
//! or a Wayland compositor): outputs, scale, the top-level windows with
//! their screen rectangles and pids, and the active one. Filled by
//! cup-x11 or cup-wayland; joined with the AT-SPI
//! frames by cup-linux.

use std::collections::HashMap;

use cup::{Monitor, WindowHandle};
use cup_protocol::Rect;

/// Which display server the facts come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Backend {
    /// An X server (EWMH, RandR, XTest).
    #[default]
    X11,
    /// sway (or another compositor speaking its IPC).
    Sway,
    /// KWin (KDE Plasma): windows, places and pids from KWin scripting.
    KWin,
    /// GNOME (mutter / gnome-shell): windows, places and pids from cup's
    /// GNOME Shell extension.
    Gnome,
    /// Another Wayland compositor: windows from
    /// `zwlr_foreign_toplevel_manager_v1` (no positions, no pids), or
    /// from the accessibility bus alone.
    Wayland,
}

impl Backend {
    /// The prefix of a window handle without an accessibility tree
    /// (`x11:4194307`, `sway:6`).
    pub fn prefix(self) -> &'static str {
        match self {
            Backend::X11 => "x11",
            Backend::Sway => "sway",
            Backend::KWin => "kwin",
            Backend::Gnome => "gnome",
            Backend::Wayland => "wayland",
        }
    }

    /// A window handle names a display-server window, not an AT-SPI
    /// frame.
    pub fn is_window_handle(native: &str) -> bool {
        ["x11:", "sway:", "kwin:", "gnome:", "wayland:"]
            .iter()
            .any(|p| native.starts_with(p))
    }
}

/// A popup window mapped now: an X11 override-redirect window, the kind a
/// toolkit maps for a menu it opens (GTK 2's menus, tooltips).
#[derive(Debug, Clone, PartialEq)]
pub struct Popup {
    /// Its rectangle on screen.
    pub rect: Rect,
    /// The client's pid (`_NET_WM_PID`), when the window says.
    pub pid: Option<u32>,
}

/// One top-level window.
#[derive(Debug, Clone, PartialEq)]
pub struct TopWindow {
    /// The X window id, or sway's container id.
    pub id: u32,
    /// The title.
    pub title: String,
    /// The client's pid.
    pub pid: Option<u32>,
    /// Rectangle in screen (layout) coordinates: the window's content,
    /// without decorations the server draws or shadows the client draws.
    pub rect: Rect,
    /// Its toolkit reports extents relative to the window (every native
    /// Wayland client); they are placed on screen by `rect`'s origin.
    pub relative: bool,
    /// The Wayland app id (empty when unknown, and on X11).
    pub app_id: String,
    /// Where the toolkit's window-relative (0, 0) is on the screen, when
    /// the display server tells it exactly (KWin: the surface's corner);
    /// else it is worked out from `rect` and the frame.
    pub origin: Option<(i64, i64)>,
}

/// What the display server says about the display.
#[derive(Debug, Clone, PartialEq)]
pub struct DisplayState {
    /// Width of the whole screen (the bounding box of the outputs).
    pub width: i64,
    /// Height of the whole screen.
    pub height: i64,
    /// Device scale (XSETTINGS `Gdk/WindowScalingFactor`, or the largest
    /// output scale under Wayland), 1.0 when unset.
    pub scale: f64,
    /// Monitors, at least one.
    pub monitors: Vec<Monitor>,
    /// Mapped top-level windows, bottom to top.
    pub windows: Vec<TopWindow>,
    /// The active (focused) window.
    pub active: Option<u32>,
    /// A window manager manages the windows (EWMH client list present;
    /// always under Wayland).
    pub managed: bool,
    /// Where these facts come from.
    pub backend: Backend,
    /// Why the display server tells no window places, when it cannot
    /// (GNOME without cup's extension): said of every unplaced window.
    pub unplaced: Option<String>,
}

impl DisplayState {
    /// The monitors as the screen reports them: on X11 each with the one
    /// scale of the whole screen (Xft.dpi / XSETTINGS); each Wayland
    /// output has its own.
    pub fn screen_monitors(&self) -> Vec<Monitor> {
        match self.backend {
            Backend::X11 => self
                .monitors
                .iter()
                .map(|m| Monitor {
                    scale: self.scale,
                    ..m.clone()
                })
                .collect(),
            Backend::Sway | Backend::KWin | Backend::Gnome | Backend::Wayland => {
                self.monitors.clone()
            }
        }
    }

    /// Windows with window-relative extents are placed on the screen by
    /// their rectangles (a display server that tells places).
    pub fn places_relative_windows(&self) -> bool {
        self.backend != Backend::Wayland && self.windows.iter().any(|w| w.relative)
    }

    /// Windows are paired with frames by app id and program (a compositor
    /// that tells no pids).
    pub fn pairs_by_app_id(&self) -> bool {
        self.backend == Backend::Wayland
    }

    /// The display server draws no decorations: clients draw their own
    /// inside their surface (GNOME).
    pub fn clients_decorate(&self) -> bool {
        self.backend == Backend::Gnome
    }

    /// Takes the bounds off the windows whose place on the screen is unknown
    /// and says why, by native handle: under sway a frame it does not list (a
    /// popup); under a compositor that tells no positions every window but
    /// the X11 ones (XWayland) it shares a rectangle with. Their toolkits'
    /// extents are window-relative: presented as screen bounds they would
    /// send clicks to the wrong place.
    pub fn unplace(&self, windows: &mut [WindowHandle]) -> HashMap<String, String> {
        let state = self;
        let why = match state.backend {
            Backend::X11 => return HashMap::new(),
            Backend::Sway => "a surface sway does not list, such as a popup or menu",
            Backend::KWin => "a surface KWin's scripts do not list, such as a popup or menu",
            Backend::Gnome => state
                .unplaced
                .as_deref()
                .unwrap_or("a surface GNOME Shell does not list, such as a popup or menu"),
            Backend::Wayland => {
                "this Wayland compositor does not tell where windows are; toolkits report positions relative to their window"
            }
        };
        let mut unplaced = HashMap::new();
        for w in windows.iter_mut() {
            if w.info.bounds.is_some_and(|b| b.w == 0 || b.h == 0) {
                // A window the compositor lists without a place.
                w.info.bounds = None;
            }
            let placed = w.info.bounds.is_some_and(|b| {
                state.windows.iter().any(|t| {
                    t.rect == b && (state.backend != Backend::Wayland || !t.relative) && b.w > 0
                })
            });
            if !placed && !Backend::is_window_handle(&w.native) {
                w.info.bounds = None;
                unplaced.insert(w.native.clone(), why.to_owned());
            }
        }
        unplaced
    }
}
