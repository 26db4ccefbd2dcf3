//! # cup-linux
//!
//! The Linux adapter of cup: AT-SPI2 over D-Bus (pure Rust, `atspi` and the
//! `zbus` it re-exports) for trees and actions, X11 (`x11rb`) for screens and
//! windows. Mapping logic lives apart from the IPC in `mapping`, so it is
//! tested with fixtures on any OS.
//!
//! ## Layout
//!
//! cup's Linux adapter is five crates, so that Cargo holds the lines
//! between them; this one is the thin facade that composes them:
//!
//! - `cup-atspi-map`: the native facts of one accessible and their
//!   mapping to CUP (pure; fixture-tested and linted on every target).
//! - `cup-atspi`: the AT-SPI layer (its D-Bus wire, the capture, the
//!   actions and the effects they observe).
//! - `cup-linux-display`: the display-server boundary (the
//!   `DisplayBackend` trait, window lists, pixels, input devices).
//! - `cup-x11` and `cup-wayland`: the backends (X11; sway, a generic
//!   wlroots compositor, KWin and GNOME), neither depending on the other
//!   or on AT-SPI. cup-wayland is the `wayland` feature (default on).
//!
//! Here: `adapter/` (the [`cup::Adapter`]: AT-SPI composed with the one
//! backend; `windows`: the window list, AT-SPI frames joined with the
//! backend's windows), `backend` (the one place that asks which desktop
//! it is and picks the backend), `frames` (the display-server / AT-SPI
//! frame join, pure), `place` (window decorations and insets, pure),
//! `apps/` (installed apps from desktop entries, `open_app`), `checks`
//! (`check_permissions`), `setup` (`cup setup gnome|kde`, the X cookie).

mod adapter;
mod apps;
mod backend;
mod checks;
mod frames;
mod place;
pub mod setup;

// The parts under the names this crate's code uses.
use cup_atspi::{act, atspi_calls, bus, capture, peers, wire};
use cup_atspi_map::{facts, mapping};
use cup_linux_display::{display, env};

/// XTest's keyboard and pointer on an X display (the benches drive keys
/// with it).
pub use cup_x11::input;
/// X11 screenshots (MIT-SHM).
pub use cup_x11::screenshot;

/// sway's IPC (the i3 protocol over `SWAYSOCK`), as the live tests and the
/// benches drive a sway desktop with it.
#[cfg(feature = "wayland")]
pub use cup_wayland::sway_ipc as sway;

/// What the live tests of the AT-SPI wire reach below the adapter: the
/// direct calls, the lean D-Bus connection and an X connection with the
/// desktop's cookie. Not an API for anything else.
#[doc(hidden)]
pub mod internals {
    pub use cup_atspi::atspi_calls::ObjRef;
    /// The AT-SPI calls the capture makes.
    pub mod calls {
        pub use cup_atspi::atspi_calls::*;
    }
    pub use cup_atspi::peers::Peer;
    pub use cup_atspi::wire::{WireConn, WireError};
    pub use cup_x11::connect as x11_connect;
}

pub use adapter::LinuxAdapter;
pub use env::Desktop;
