//! # cup-x11
//!
//! The X11 backend of cup's Linux adapter (x11rb, pure Rust): the window
//! list with its places (EWMH, RandR), XTest's pointer and keyboard,
//! MIT-SHM screenshots, the visual layer's overlay windows and the X
//! cookie, behind `cup_linux_display`'s `DisplayBackend` ([`X11`]). It
//! knows nothing of AT-SPI or Wayland.
//!
//! ## Layout
//!
//! - `backend`: [`X11`], the `DisplayBackend` of an X server.
//! - `windows`: monitors, scale, the top-level windows ([`X11Reader`]).
//! - `input/`: XTest keyboard and pointer ([`input::Input`]); keymap and
//!   lease planning are pure; the gesture device and the actions' input.
//! - `screenshot`: MIT-SHM or `GetImage` grabs.
//! - `overlay`: the visual layer's override-redirect windows.
//! - `xauth` (connecting with the desktop's cookie), `xsettings` (the
//!   scale GTK and Qt read).

mod backend;
pub mod input;
mod overlay;
pub mod screenshot;
mod windows;
mod xauth;
mod xsettings;

// The boundary's modules under the names this crate's code uses.
use cup_linux_display::display;

pub use backend::X11;
pub use windows::{read_state, X11Reader};
pub use xauth::{connect, register};
