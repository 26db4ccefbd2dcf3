//! What the display server says about the desktop, whichever it is (X11
//! or a Wayland compositor): outputs, scale, the top-level windows with
//! their screen rectangles and pids, and the active one. Filled by
//! [`crate::x11`] or [`crate::wayland::sway`]; joined with the AT-SPI
//! frames by [`crate::windows::join_windows`].

use cup::Monitor;
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
