//! Pixels read from the screen, whichever display server gave them, and
//! their PNG encoding.

/// The pixels of one grab, before encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pixels {
    /// RGB, 3 bytes a pixel, rows top to bottom.
    pub rgb: Vec<u8>,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Left edge on the screen.
    pub x: i64,
    /// Top edge on the screen.
    pub y: i64,
}

/// A PNG screenshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Png {
    /// The PNG file.
    pub bytes: Vec<u8>,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Left edge on the screen.
    pub x: i64,
    /// Top edge on the screen.
    pub y: i64,
}

/// Encodes RGB pixels as PNG (fast compression).
pub fn encode_png(pixels: &Pixels) -> Result<Png, String> {
    let bytes = cup::image::png_from_rgb(&pixels.rgb, pixels.width, pixels.height)?;
    Ok(Png {
        bytes,
        width: pixels.width,
        height: pixels.height,
        x: pixels.x,
        y: pixels.y,
    })
}
