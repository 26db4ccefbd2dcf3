//! The Wayland backend: sway IPC, virtual input, screencopy.
pub mod client;
pub mod device;
pub mod keymap;
pub mod place;
pub mod screencopy;
pub mod sway;
pub mod vinput;
