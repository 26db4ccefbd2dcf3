//! The `DisplayBackend` of each kind of Wayland compositor, and what the
//! wlroots-style ones share.

pub(crate) mod compositor;
pub(crate) mod gnome;
pub(crate) mod kwin;
pub(crate) mod sway;
pub(crate) mod wlr;
