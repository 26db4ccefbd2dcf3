//! # cup-linux-display
//!
//! The display-server boundary of cup's Linux adapter. What differs between
//! X11 and each Wayland compositor (the window list and places, activation,
//! pointer and keys, screenshots, the overlay, the permission checks) is
//! one trait, `backend::DisplayBackend`, implemented by cup-x11 and
//! cup-wayland, which depend on this crate and on neither each other nor
//! AT-SPI. cup-atspi uses the input devices through the traits here, and
//! cup-linux composes the two.
//!
//! ## Layout
//!
//! - `backend`: the `DisplayBackend` trait, the overlay a backend draws on
//!   (`Drawn`), XWayland's window list for a Wayland backend (`XWindows`).
//! - `display`: what the display server says (monitors, scale, top-level
//!   windows with places and pids), whichever it is.
//! - `device`: the pointer and keyboard (`InputOps`, `GestureDevice`).
//! - `pixels`: screen pixels and their PNG encoding.
//! - `keysym`: X keysyms, shared by XTest and the Wayland virtual keyboard.
//! - `env`: which desktop the adapter is on (`Desktop`).

pub mod backend;
pub mod device;
pub mod display;
pub mod env;
pub mod keysym;
pub mod pixels;
