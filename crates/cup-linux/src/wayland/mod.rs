//! The Wayland backend: sway IPC, virtual input, screencopy, the overlay.
pub mod client;
pub mod device;
pub mod keymap;
pub mod overlay;
pub mod place;
pub mod screencopy;
pub mod sway;
pub mod toplevel;
pub mod vinput;
