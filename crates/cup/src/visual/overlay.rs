//! What a platform draws for the visual layer: pictures and rectangle
//! outlines above every window, that never take input or focus and never
//! move the real pointer. The X11 adapter shows them as click-through
//! override-redirect windows, the web adapter as a page overlay.

use std::sync::Arc;

use async_trait::async_trait;
use cup_protocol::Rect;

use super::Sprite;
use crate::adapter::AdapterError;
use crate::input::Point;

/// One picture of the overlay; each shows one thing at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layer {
    /// The agent cursor.
    Cursor,
    /// The click ripple.
    Ripple,
    /// The focus rectangle around the element acted on.
    Focus,
    /// A `highlight` rectangle.
    Highlight,
}

impl Layer {
    /// Every layer.
    pub const ALL: [Layer; 4] = [Layer::Cursor, Layer::Ripple, Layer::Focus, Layer::Highlight];

    /// Its name (window names, element ids).
    pub fn name(self) -> &'static str {
        match self {
            Layer::Cursor => "cursor",
            Layer::Ripple => "ripple",
            Layer::Focus => "focus",
            Layer::Highlight => "highlight",
        }
    }
}

/// A platform's overlay. Coordinates are the adapter's screen pixels (the
/// web: the viewport's device pixels, as its bounds and screenshots).
#[async_trait]
pub trait Overlay: Send + Sync + std::fmt::Debug {
    /// Shows `sprite` on `layer` with its hotspot at `at`, above every
    /// window, replacing what the layer showed.
    async fn show(&self, layer: Layer, sprite: Arc<Sprite>, at: Point) -> Result<(), AdapterError>;

    /// Shows the outline of `rect` on `layer`, `thickness` pixels wide,
    /// inside the rectangle's edges.
    async fn frame(
        &self,
        layer: Layer,
        rect: Rect,
        colour: [u8; 3],
        thickness: u32,
    ) -> Result<(), AdapterError>;

    /// Takes `layer` off the screen; when every layer is hidden nothing of
    /// the overlay is left (the next screenshot shows none of it).
    async fn hide(&self, layer: Layer) -> Result<(), AdapterError>;

    /// Whether a person is likely to watch this display (decides the
    /// cursor's default): false on a virtual framebuffer or a headless
    /// browser.
    async fn attended(&self) -> bool;

    /// Device scale of the display (pictures are drawn this much larger).
    fn scale(&self) -> f64 {
        1.0
    }
}
