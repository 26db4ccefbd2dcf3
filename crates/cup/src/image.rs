//! PNG encoding of BGRA screen pixels (what GDI, ScreenCaptureKit and
//! most capture APIs give), for the adapters' screenshots.

/// Encodes `w` × `h` top-down BGRA pixels as an RGB PNG.
pub fn png_from_bgra(bgra: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    let n = (w as usize) * (h as usize);
    if bgra.len() < n * 4 {
        return Err(format!("{} bytes for {w}x{h} pixels", bgra.len()));
    }
    let rgb: Vec<u8> = bgra[..n * 4]
        .chunks_exact(4)
        .flat_map(|px| [px[2], px[1], px[0]])
        .collect();
    png_from_rgb(&rgb, w, h)
}

/// A screenshot's pixels before encoding: RGB, 3 bytes a pixel, rows top
/// to bottom (for drawing on them: set-of-marks).
#[derive(Clone, PartialEq, Eq)]
pub struct RgbShot {
    /// The pixels.
    pub rgb: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Left edge on the screen.
    pub x: i64,
    /// Top edge on the screen.
    pub y: i64,
}

impl std::fmt::Debug for RgbShot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RgbShot")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("x", &self.x)
            .field("y", &self.y)
            .finish_non_exhaustive()
    }
}

/// Encodes `w` × `h` RGB pixels as a PNG (fast compression, as every
/// screenshot).
pub fn png_from_rgb(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    let n = (w as usize) * (h as usize) * 3;
    if rgb.len() < n {
        return Err(format!("{} bytes for {w}x{h} RGB pixels", rgb.len()));
    }
    let mut out = Vec::with_capacity(n / 8);
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut writer = enc.write_header().map_err(|e| format!("PNG header: {e}"))?;
    writer
        .write_image_data(&rgb[..n])
        .map_err(|e| format!("PNG data: {e}"))?;
    writer.finish().map_err(|e| format!("PNG end: {e}"))?;
    Ok(out)
}

/// Decodes a PNG to RGB pixels (alpha dropped, grey widened).
pub fn rgb_from_png(bytes: &[u8]) -> Result<(Vec<u8>, u32, u32), String> {
    let (rgba, w, h) = rgba_from_png(bytes)?;
    let rgb = rgba
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Ok((rgb, w, h))
}

/// Decodes a PNG to straight RGBA (any colour type; 16-bit channels cut
/// to 8).
pub fn rgba_from_png(bytes: &[u8]) -> Result<(Vec<u8>, u32, u32), String> {
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(|e| e.to_string())?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "the image is too large".to_owned())?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let (w, h) = (info.width, info.height);
    let n = (w as usize) * (h as usize);
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf[..n * 4].to_vec(),
        png::ColorType::Rgb => buf[..n * 3]
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => buf[..n * 2]
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Grayscale => buf[..n].iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return Err("an indexed PNG the decoder did not expand".into()),
    };
    Ok((rgba, w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bgra_becomes_rgb_png() {
        // Two pixels: pure blue and pure red in BGRA.
        let png = png_from_bgra(&[255, 0, 0, 255, 0, 0, 255, 255], 2, 1).expect("png");
        let dec = png::Decoder::new(std::io::Cursor::new(png));
        let mut r = dec.read_info().expect("info");
        let mut buf = vec![0; r.output_buffer_size().expect("size")];
        r.next_frame(&mut buf).expect("frame");
        assert_eq!(&buf[..6], &[0, 0, 255, 255, 0, 0]);
        assert!(png_from_bgra(&[0; 4], 2, 1).is_err());
    }

    #[test]
    fn rgb_round_trips() {
        let px = [1, 2, 3, 250, 251, 252];
        let png = png_from_rgb(&px, 2, 1).unwrap_or_default();
        assert_eq!(rgb_from_png(&png), Ok((px.to_vec(), 2, 1)));
        assert!(png_from_rgb(&px, 3, 1).is_err());
        assert!(rgb_from_png(b"nope").is_err());
    }
}
