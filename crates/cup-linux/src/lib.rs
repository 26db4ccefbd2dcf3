//! # cup-linux
//!
//! The Linux adapter of cup: AT-SPI2 over D-Bus (pure Rust, `atspi` and the
//! `zbus` it re-exports) for trees and actions, X11 (`x11rb`) for screens and
//! windows. Mapping logic lives apart from the IPC in [`mapping`], so it is
//! tested with fixtures on any OS.

pub mod act;
pub mod adapter;
pub mod advice;
pub mod apps;
pub mod atspi_actions;
pub mod atspi_calls;
pub mod bus;
pub mod capture;
pub mod checks;
pub mod display;
pub mod env;
pub mod input;
pub mod links;
pub mod mapping;
pub mod overlay;
pub mod raw;
pub mod screenshot;
pub mod wayland;
pub mod windows;
pub mod wire;
pub mod x11;
pub mod xauth;
pub mod xsettings;

pub use adapter::LinuxAdapter;
pub use env::Desktop;
