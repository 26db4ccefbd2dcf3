//! # cup-linux
//!
//! The Linux adapter of cup: AT-SPI2 over D-Bus (pure Rust, `atspi` and the
//! `zbus` it re-exports) for trees and actions, X11 (`x11rb`) for screens and
//! windows. Mapping logic lives apart from the IPC in `mapping`, so it is
//! tested with fixtures on any OS.
//!
//! ## Layout
//!
//! What talks to the desktop, and what only decides (pure, unit-tested):
//!
//! - AT-SPI transport: `bus` (the accessibility bus, deadlines), `wire/` (a lean
//!   D-Bus client for the capture's calls: framing, connection, busy-polling),
//!   `peers` (direct peer-to-peer connections to apps), `atspi_calls` (the
//!   capture's reads), `atspi_actions` (the calls that change things).
//! - Capture: `capture/` — `structure` (from `Cache.GetItems` or level by
//!   level), `cache_index`, `details` (extents, actions, value, text),
//!   `managed` (containers that manage their descendants: what is on screen),
//!   `unallocated` (GTK 4's top-down extents), `warm` (Gecko's lazy facts),
//!   `statics`, `labels`, `office` (LibreOffice put right), `assemble`.
//! - Mapping (pure): `facts` (the native facts of one accessible), `mapping/`
//!   (role, states, actions, text, attributes, `needs`: what a node is worth
//!   reading; fixture tests in `mapping/tests.rs`).
//! - Actions: `act/` (verbs over AT-SPI, probes and events as evidence,
//!   pointer/keyboard fallback, outsiders; `gesture`: the pixel-level
//!   gestures written once over a `GestureDevice`, XTest's or Wayland's).
//! - X11: `x11` (monitors, scale, top-level windows), `frames` (the X11 /
//!   AT-SPI frame join, pure), `input/` (XTest keyboard and pointer; keymap,
//!   keysym and lease planning are pure), `screenshot`, `overlay` (the visual
//!   layer), `xauth`, `xsettings`.
//! - Wayland: `wayland/` (sway IPC, the wlr protocols with `xkb` keymaps for
//!   the virtual keyboard, EIS, mutter; `kwin/` with its scripts, EIS entry
//!   and screenshots, `gnome/` with its shell connection, `portal/` with its
//!   client: each compositor's transport beside its pure part).
//! - The display-server boundary: `backend/` (one `DisplayBackend` trait
//!   for what differs between display servers: the window list and places,
//!   activation, input, gestures, screenshots, the overlay, the checks; one
//!   implementation each for X11, sway, a generic wlroots compositor, KWin
//!   and GNOME, chosen once when the adapter first needs it).
//! - The desktop as a whole: `env` (which desktop), `display` (what the
//!   display server says, whichever it is), `adapter` (the [`cup::Adapter`]:
//!   AT-SPI composed with the one backend),
//!   `apps/` (installed apps from desktop entries), `checks`
//!   (`check_permissions`), `advice` (what to tell about an app without a tree).

mod act;
mod adapter;
mod advice;
mod apps;
mod atspi_actions;
mod atspi_calls;
mod backend;
mod bus;
mod capture;
mod checks;
mod display;
mod env;
mod facts;
mod frames;
pub mod input;
mod mapping;
mod overlay;
mod peers;
mod place;
pub mod screenshot;
pub mod setup;
#[cfg(feature = "wayland")]
mod wayland;
mod wire;
mod x11;
mod xauth;
mod xsettings;

/// sway's IPC (the i3 protocol over `SWAYSOCK`), as the live tests and the
/// benches drive a sway desktop with it.
#[cfg(feature = "wayland")]
pub mod sway {
    pub use crate::wayland::sway::{windows_of, SwayIpc, SwayState, SwayWindow};
}

/// What the live tests of the AT-SPI wire reach below the adapter: the
/// direct calls, the lean D-Bus connection and an X connection with the
/// desktop's cookie. Not an API for anything else.
#[doc(hidden)]
pub mod internals {
    pub use crate::atspi_calls::ObjRef;
    /// The AT-SPI calls the capture makes.
    pub mod calls {
        pub use crate::atspi_calls::*;
    }
    pub use crate::peers::Peer;
    pub use crate::wire::{WireConn, WireError};
    pub use crate::xauth::connect as x11_connect;
}

pub use adapter::LinuxAdapter;
pub use env::Desktop;
