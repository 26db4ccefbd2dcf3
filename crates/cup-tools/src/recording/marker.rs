//! `click.png`: a turn's screenshot with the point a click-family call
//! aimed at marked by a red dot in a white ring.

/// Radius of the red dot, in image pixels.
const DOT: i64 = 6;
/// Width of the white ring around it.
const RING: i64 = 2;

/// `png` with a dot at `(x, y)` (image pixels). `Err` says why not: an
/// undecodable image, or a point outside it.
pub fn mark(png: &[u8], x: i64, y: i64) -> Result<Vec<u8>, String> {
    let mut dec = png::Decoder::new(std::io::Cursor::new(png));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(|e| format!("screenshot: {e}"))?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "screenshot: too large to mark".to_owned())?;
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("screenshot: {e}"))?;
    buf.truncate(info.buffer_size());
    let (w, h) = (i64::from(info.width), i64::from(info.height));
    if !(0..w).contains(&x) || !(0..h).contains(&y) {
        return Err(format!(
            "the click point {x},{y} is outside the {w}x{h} screenshot"
        ));
    }
    // After EXPAND and STRIP_16: 8-bit gray, gray+alpha, RGB or RGBA.
    let (pixels, color) = match info.color_type {
        png::ColorType::Rgb => (buf, png::ColorType::Rgb),
        png::ColorType::Rgba => (buf, png::ColorType::Rgba),
        png::ColorType::Grayscale => (
            buf.iter().flat_map(|&g| [g, g, g]).collect(),
            png::ColorType::Rgb,
        ),
        png::ColorType::GrayscaleAlpha => (
            buf.chunks_exact(2)
                .flat_map(|p| [p[0], p[0], p[0], p[1]])
                .collect(),
            png::ColorType::Rgba,
        ),
        other => return Err(format!("screenshot: unexpected colour type {other:?}")),
    };
    let channels = if color == png::ColorType::Rgba { 4 } else { 3 };
    let mut pixels = pixels;
    let outer = DOT + RING;
    for dy in -outer..=outer {
        for dx in -outer..=outer {
            let d2 = dx * dx + dy * dy;
            if d2 > outer * outer {
                continue;
            }
            let (px, py) = (x + dx, y + dy);
            if !(0..w).contains(&px) || !(0..h).contains(&py) {
                continue;
            }
            let rgb = if d2 <= DOT * DOT {
                [230, 20, 20]
            } else {
                [255, 255, 255]
            };
            let Ok(at) = usize::try_from((py * w + px) * channels) else {
                continue;
            };
            if let Some(p) = pixels.get_mut(at..at + 3) {
                p.copy_from_slice(&rgb);
            }
            if channels == 4 {
                if let Some(a) = pixels.get_mut(at + 3) {
                    *a = 255;
                }
            }
        }
    }
    let mut out = Vec::with_capacity(png.len() + 1024);
    {
        let mut enc = png::Encoder::new(&mut out, info.width, info.height);
        enc.set_color(color);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&pixels)
            .map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_of(w: u32, h: u32, color: png::ColorType, pixels: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, w, h);
            enc.set_color(color);
            enc.set_depth(png::BitDepth::Eight);
            let mut writer = enc.write_header().unwrap_or_else(|e| panic!("{e}"));
            writer
                .write_image_data(pixels)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        out
    }

    fn decode(png: &[u8]) -> (png::OutputInfo, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap_or_else(|e| panic!("{e}"));
        let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
        let info = reader
            .next_frame(&mut buf)
            .unwrap_or_else(|e| panic!("{e}"));
        (info, buf)
    }

    #[test]
    fn the_dot_is_red_at_the_point_and_the_rest_is_untouched() {
        let (w, h) = (40u32, 30u32);
        let black = vec![0u8; (w * h * 3) as usize];
        let marked = mark(&png_of(w, h, png::ColorType::Rgb, &black), 20, 10)
            .unwrap_or_else(|e| panic!("{e}"));
        let (info, px) = decode(&marked);
        assert_eq!((info.width, info.height), (w, h));
        let at = |x: usize, y: usize| &px[(y * w as usize + x) * 3..][..3];
        assert_eq!(at(20, 10), [230, 20, 20]);
        assert_eq!(at(20 + 7, 10), [255, 255, 255], "the ring");
        assert_eq!(at(0, 0), [0, 0, 0]);
        assert_eq!(at(39, 29), [0, 0, 0]);
        // Near the edge: clipped, not a panic.
        assert!(mark(&png_of(w, h, png::ColorType::Rgb, &black), 0, 29).is_ok());
    }

    #[test]
    fn rgba_and_gray_images_are_marked_and_a_point_outside_is_refused() {
        let rgba = vec![10u8; 8 * 8 * 4];
        let (info, px) = decode(
            &mark(&png_of(8, 8, png::ColorType::Rgba, &rgba), 4, 4)
                .unwrap_or_else(|e| panic!("{e}")),
        );
        assert_eq!(info.color_type, png::ColorType::Rgba);
        assert_eq!(&px[(4 * 8 + 4) * 4..][..4], [230, 20, 20, 255]);
        let gray = vec![128u8; 8 * 8];
        let (info, _) = decode(
            &mark(&png_of(8, 8, png::ColorType::Grayscale, &gray), 1, 1)
                .unwrap_or_else(|e| panic!("{e}")),
        );
        assert_eq!(info.color_type, png::ColorType::Rgb);
        let err = mark(&png_of(8, 8, png::ColorType::Grayscale, &gray), 8, 3)
            .err()
            .unwrap_or_default();
        assert!(err.contains("outside the 8x8 screenshot"), "{err}");
        assert!(mark(b"not a png", 1, 1).is_err());
    }
}
