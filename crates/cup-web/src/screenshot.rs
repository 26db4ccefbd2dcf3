//! Screenshots with `Page.captureScreenshot`: the viewport, a region of it
//! (screen pixels, as node bounds are), or the whole scrollable page.

use base64::Engine as _;
use cup::{AdapterError, Shot};
use cup_protocol::Rect;
use serde_json::{json, Value};

use crate::adapter::adapter_error;
use crate::browser::Browser;
use crate::capture::Viewport;

/// What to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    /// What the viewport shows.
    Viewport,
    /// A rectangle in screen pixels of the viewport.
    Region(Rect),
    /// The whole page, beyond the viewport.
    FullPage,
}

/// A PNG of `area` of `page`.
///
/// # Errors
///
/// A region outside the viewport, or the browser's error.
pub async fn take(
    browser: &Browser,
    page: &str,
    view: Viewport,
    area: Area,
) -> Result<Shot, AdapterError> {
    let d = view.dpr.max(0.01);
    let (params, x, y) = match area {
        Area::Viewport => (json!({"format": "png"}), 0, 0),
        Area::Region(r) => {
            let vp = view.rect();
            let clipped = r.intersect(&vp);
            if clipped.is_empty() {
                return Err(AdapterError::Invalid(format!(
                    "region {},{},{},{} is outside the page's viewport ({}x{}); give x,y,w,h inside it",
                    r.x, r.y, r.w, r.h, vp.w, vp.h
                )));
            }
            (
                json!({"format": "png", "clip": {
                    "x": clipped.x as f64 / d, "y": clipped.y as f64 / d,
                    "width": clipped.w as f64 / d, "height": clipped.h as f64 / d, "scale": 1}}),
                clipped.x,
                clipped.y,
            )
        }
        Area::FullPage => {
            let m = browser
                .call(page, "Page.getLayoutMetrics", json!({}))
                .await
                .map_err(adapter_error)?;
            let size = m.get("cssContentSize").or_else(|| m.get("contentSize"));
            let n = |k: &str| {
                size.and_then(|s| s.get(k))
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0)
            };
            (
                json!({"format": "png", "captureBeyondViewport": true, "clip": {
                    "x": 0, "y": 0, "width": n("width"), "height": n("height"), "scale": 1}}),
                0,
                0,
            )
        }
    };
    let r = browser
        .call(page, "Page.captureScreenshot", params)
        .await
        .map_err(adapter_error)?;
    let data = r
        .get("data")
        .and_then(Value::as_str)
        .ok_or_else(|| AdapterError::Platform("the browser returned no image".into()))?;
    let png = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| AdapterError::Platform(format!("the browser's image is not base64: {e}")))?;
    let (width, height) = png_size(&png)
        .ok_or_else(|| AdapterError::Platform("the browser's image is not a PNG".into()))?;
    Ok(Shot {
        png,
        width,
        height,
        x,
        y,
    })
}

/// Width and height from a PNG's IHDR.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[..8] != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    Some((be(16), be(20)))
}
