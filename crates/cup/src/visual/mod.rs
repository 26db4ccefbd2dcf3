//! What the visual layer asks of a platform: an [`Overlay`] that shows
//! pictures ([`Sprite`]) and rectangle outlines on its [`Layer`]s above
//! every window. The agent cursor that draws with it, and the pictures
//! themselves, are the `cup-draw` crate's, so every platform shows the same
//! pixels.

mod overlay;
mod sprite;

pub use overlay::{Layer, Overlay};
pub use sprite::Sprite;
