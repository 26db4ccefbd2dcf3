//! The Wayland backend: sway IPC, KWin scripting, virtual and fake input,
//! screencopy, the overlay.
pub mod client;
pub mod device;
pub mod eis;
pub mod fakeinput;
pub mod gnome;
pub mod kwin;
pub mod mutter;
pub mod overlay;
pub mod portal;
pub mod reported;
pub mod screencopy;
pub mod sway;
pub mod toplevel;
pub mod vinput;
pub mod xkb;
