//! Integration tests of the Linux adapter against real apps (GTK3, GTK4, Qt5,
//! Chromium) on private headless desktops.
//!
//! One test binary for the crate (each file a module): one link, not one
//! per file, and the tests of every file share the runner's threads.

mod support;

mod actions;
mod calc;
mod chromium;
mod errors;
mod firefox;
mod gimp;
mod gtk3;
mod gtk4;
mod impress;
mod input;
mod large;
mod nautilus;
mod qt5;
mod screenshot;
mod terminal;
mod thunderbird;
mod typing;
mod vlc;
#[cfg(feature = "wayland")]
mod wayland;
#[cfg(feature = "wayland")]
mod wayland_ocr;
mod wire;
mod writer;
