//! How the agent cursor looks (driver reference, `set_agent_cursor_style`):
//! the arrow's gradient, the bloom colour of its halo and of the focus
//! rectangle, or a picture from a PNG or SVG file.

use std::path::PathBuf;

use cup::visual::Sprite;
use serde::{Deserialize, Serialize};

use crate::sprite;

/// The style as set (strings as given; empty means the default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Style {
    /// CSS hex colours of the arrow's fill, tip to tail (empty: default).
    pub gradient_colors: Vec<String>,
    /// CSS hex colour of the halo and the focus rectangle (empty: default).
    pub bloom_color: String,
    /// A PNG or SVG file drawn instead of the arrow (empty: the arrow).
    pub image_path: String,
}

/// The default gradient, tip to tail.
pub const DEFAULT_GRADIENT: [[u8; 3]; 2] = [[0x4F, 0x7C, 0xFF], [0x8B, 0x5C, 0xF6]];
/// The default bloom colour.
pub const DEFAULT_BLOOM: [u8; 3] = [0x4F, 0x7C, 0xFF];

/// Parses `#RRGGBB` or `#RGB`.
pub fn parse_colour(s: &str) -> Result<[u8; 3], String> {
    let bad = || format!("{s:?} is not a CSS hex colour; give #RRGGBB or #RGB, e.g. #A855F7");
    let hex = s.trim().strip_prefix('#').ok_or_else(bad)?;
    if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let digit = |i: usize, n: usize| u8::from_str_radix(&hex[i..i + n], 16).map_err(|_| bad());
    match hex.len() {
        6 => Ok([digit(0, 2)?, digit(2, 2)?, digit(4, 2)?]),
        3 => Ok([digit(0, 1)? * 17, digit(1, 1)? * 17, digit(2, 1)? * 17]),
        _ => Err(bad()),
    }
}

/// `~/x` to the home directory's `x`.
pub fn expand_home(path: &str) -> PathBuf {
    match path.strip_prefix("~/") {
        Some(rest) => std::env::var_os("HOME")
            .map(|h| PathBuf::from(h).join(rest))
            .unwrap_or_else(|| PathBuf::from(path)),
        None => PathBuf::from(path),
    }
}

impl Style {
    /// The gradient stops in effect.
    pub fn stops(&self) -> Result<Vec<[u8; 3]>, String> {
        if self.gradient_colors.is_empty() {
            return Ok(DEFAULT_GRADIENT.to_vec());
        }
        self.gradient_colors
            .iter()
            .map(|c| parse_colour(c).map_err(|e| format!("gradient_colors: {e}")))
            .collect()
    }

    /// The bloom colour in effect.
    pub fn bloom(&self) -> Result<[u8; 3], String> {
        if self.bloom_color.trim().is_empty() {
            return Ok(DEFAULT_BLOOM);
        }
        parse_colour(&self.bloom_color).map_err(|e| format!("bloom_color: {e}"))
    }

    /// Everything parses and the image (if any) loads.
    pub fn check(&self) -> Result<(), String> {
        self.stops()?;
        self.bloom()?;
        if !self.image_path.is_empty() {
            load_image(&self.image_path, 32)?;
        }
        Ok(())
    }

    /// The cursor picture at rest, `size` pixels: the image, or the arrow.
    pub fn sprite(&self, size: f64) -> Result<Sprite, String> {
        if !self.image_path.is_empty() {
            return load_image(&self.image_path, size.round().max(1.0) as u32);
        }
        Ok(sprite::arrow(size, &self.stops()?, self.bloom()?))
    }
}

/// Loads a PNG or SVG cursor picture fitted to `size` × `size`.
pub fn load_image(path: &str, size: u32) -> Result<Sprite, String> {
    let file = expand_home(path);
    let bytes = std::fs::read(&file).map_err(|e| {
        format!(
            "image_path: cannot read {}: {e}; give an absolute or ~/ path to a PNG or SVG file",
            file.display()
        )
    })?;
    let bad = |e: &dyn std::fmt::Display| {
        format!(
            "image_path: {} is not a readable PNG or SVG ({e}); give a PNG or SVG file, or \"\" for the arrow",
            file.display()
        )
    };
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        let (rgba, w, h) = cup::image::rgba_from_png(&bytes).map_err(|e| bad(&e))?;
        return Ok(sprite::fitted(&rgba, w, h, size));
    }
    let text_like = bytes.iter().take(512).any(|&b| b == b'<');
    let gz = bytes.starts_with(&[0x1f, 0x8b]);
    if !text_like && !gz {
        return Err(bad(&"neither a PNG signature nor SVG markup"));
    }
    let tree = resvg::usvg::Tree::from_data(&bytes, &resvg::usvg::Options::default())
        .map_err(|e| bad(&e))?;
    let sz = tree.size();
    let k = f64::from(size) / f64::from(sz.width().max(sz.height()));
    let (w, h) = (
        ((f64::from(sz.width()) * k).round() as u32).max(1),
        ((f64::from(sz.height()) * k).round() as u32).max(1),
    );
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(w, h).ok_or_else(|| bad(&"the picture has no size"))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(k as f32, k as f32),
        &mut pixmap.as_mut(),
    );
    // tiny-skia keeps premultiplied alpha; sprites are straight.
    let mut rgba = pixmap.take();
    for px in rgba.chunks_exact_mut(4) {
        let a = u32::from(px[3]);
        if a > 0 && a < 255 {
            for c in &mut px[..3] {
                *c = ((u32::from(*c) * 255 + a / 2) / a).min(255) as u8;
            }
        }
    }
    Ok(Sprite::new(w, h, rgba, i64::from(w / 2), i64::from(h / 2)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_or_say_what_to_give() {
        assert_eq!(parse_colour("#A855F7"), Ok([0xA8, 0x55, 0xF7]));
        assert_eq!(parse_colour("#fff"), Ok([255, 255, 255]));
        for bad in ["A855F7", "#12345", "#GGGGGG", "", "#ü12"] {
            let e = parse_colour(bad).err().unwrap_or_default();
            assert!(e.contains("#RRGGBB"), "{bad}: {e}");
        }
        let s = Style {
            gradient_colors: vec!["#f00".into(), "red".into()],
            ..Style::default()
        };
        assert!(s
            .check()
            .err()
            .unwrap_or_default()
            .starts_with("gradient_colors:"));
        assert_eq!(Style::default().stops(), Ok(DEFAULT_GRADIENT.to_vec()));
    }

    #[test]
    fn png_and_svg_pictures_load_and_others_are_refused() {
        let dir = std::env::temp_dir().join(format!("cup-style-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok();
        // A 2x2 PNG, green.
        let png_bytes =
            cup::image::png_from_bgra(&[0, 255, 0, 255].repeat(4), 2, 2).unwrap_or_default();
        let png_path = dir.join("c.png");
        std::fs::write(&png_path, &png_bytes).ok();
        let s = load_image(&png_path.to_string_lossy(), 16);
        let s = s.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.width, s.height), (16, 16));
        assert_eq!(s.pixel(8, 8), [0, 255, 0, 255]);
        let svg = dir.join("c.svg");
        std::fs::write(
            &svg,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20"><rect width="10" height="20" fill="#ff0000"/></svg>"##,
        )
        .ok();
        let s = load_image(&svg.to_string_lossy(), 40).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.width, s.height), (20, 40));
        assert_eq!(s.pixel(10, 20), [255, 0, 0, 255]);
        let junk = dir.join("c.bin");
        std::fs::write(&junk, [0u8, 1, 2, 3]).ok();
        let e = load_image(&junk.to_string_lossy(), 16)
            .err()
            .unwrap_or_default();
        assert!(e.contains("not a readable PNG or SVG"), "{e}");
        let e = load_image("/nonexistent/x.png", 16)
            .err()
            .unwrap_or_default();
        assert!(e.contains("cannot read"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
