//! A set-of-marks screenshot: the adapter's pixels, the marks drawn, one
//! PNG encoding (the marks cost the drawing only, not a decode and a
//! second encoding).

use cup::{Adapter, AdapterError, ShotTarget};
use cup_protocol::Rect;

use super::{draw, Canvas, Drawn, Mark};

/// A marked screenshot.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkedShot {
    /// The PNG.
    pub png: Vec<u8>,
    /// Where the image lies on the screen (its size in pixels).
    pub image: Rect,
    /// The marks as drawn (rectangles in image pixels).
    pub drawn: Drawn,
}

/// Takes `target` and marks `marks` on it; their rectangles are screen
/// pixels (as a snapshot's bounds), `scale` the display's device scale.
pub async fn screenshot(
    adapter: &dyn Adapter,
    target: &ShotTarget,
    marks: &[Mark],
    scale: f64,
) -> Result<MarkedShot, AdapterError> {
    let mut shot = adapter.screenshot_rgb(target).await?;
    let image = Rect::new(
        shot.x,
        shot.y,
        u64::from(shot.width),
        u64::from(shot.height),
    );
    let local: Vec<Mark> = marks
        .iter()
        .map(|m| Mark {
            id: m.id.clone(),
            rect: Rect::new(m.rect.x - shot.x, m.rect.y - shot.y, m.rect.w, m.rect.h),
        })
        .collect();
    let drawn = draw(
        &mut Canvas {
            rgb: &mut shot.rgb,
            width: shot.width,
            height: shot.height,
        },
        &local,
        scale,
    );
    let png = cup::image::png_from_rgb(&shot.rgb, shot.width, shot.height)
        .map_err(AdapterError::Platform)?;
    Ok(MarkedShot { png, image, drawn })
}
