//! PNG encoding of BGRA screen pixels (what GDI, ScreenCaptureKit and
//! most capture APIs give), for the adapters' screenshots.

/// Encodes `w` × `h` top-down BGRA pixels as an RGB PNG.
pub fn png_from_bgra(bgra: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    let n = (w as usize) * (h as usize);
    if bgra.len() < n * 4 {
        return Err(format!("{} bytes for {w}x{h} pixels", bgra.len()));
    }
    let mut rgb = Vec::with_capacity(n * 3);
    for px in bgra[..n * 4].chunks_exact(4) {
        rgb.extend_from_slice(&[px[2], px[1], px[0]]);
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut writer = enc.write_header().map_err(|e| format!("PNG header: {e}"))?;
    writer
        .write_image_data(&rgb)
        .map_err(|e| format!("PNG data: {e}"))?;
    writer.finish().map_err(|e| format!("PNG end: {e}"))?;
    Ok(out)
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
}
