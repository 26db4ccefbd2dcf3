//! A picture the overlay shows: RGBA pixels and the hotspot. The pictures
//! themselves (the arrow, the click ripple, a cursor image from a file,
//! rotation) are drawn by the `cup-draw` crate, so every platform shows the
//! same pixels.

use std::hash::{Hash as _, Hasher as _};

/// An RGBA picture (straight alpha, rows top to bottom) and the pixel that
/// sits on the point it is shown at.
#[derive(Clone, PartialEq, Eq)]
pub struct Sprite {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// 4 bytes a pixel: red, green, blue, alpha.
    pub rgba: Vec<u8>,
    /// Hotspot column.
    pub hot_x: i64,
    /// Hotspot row.
    pub hot_y: i64,
    /// A hash of the pixels and hotspot: equal keys, equal pictures (so a
    /// platform can skip uploading a picture it already shows).
    pub key: u64,
}

impl std::fmt::Debug for Sprite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sprite")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("hot_x", &self.hot_x)
            .field("hot_y", &self.hot_y)
            .finish_non_exhaustive()
    }
}

impl Sprite {
    /// A sprite of `rgba` pixels; the key is computed.
    pub fn new(width: u32, height: u32, rgba: Vec<u8>, hot_x: i64, hot_y: i64) -> Sprite {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (width, height, hot_x, hot_y).hash(&mut h);
        rgba.hash(&mut h);
        let key = h.finish();
        Sprite {
            width,
            height,
            rgba,
            hot_x,
            hot_y,
            key,
        }
    }

    /// The pixel at (x, y): RGBA, transparent outside.
    pub fn pixel(&self, x: i64, y: i64) -> [u8; 4] {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return [0; 4];
        }
        let i = ((y as usize) * (self.width as usize) + x as usize) * 4;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }

    /// Rows of opaque runs (alpha at or above `threshold`): (row, first
    /// column, end column) — the shape of a window that cannot blend.
    pub fn runs(&self, threshold: u8) -> Vec<(u32, u32, u32)> {
        let mut out = Vec::new();
        for y in 0..self.height {
            let mut start = None;
            for x in 0..=self.width {
                let on = x < self.width && self.pixel(i64::from(x), i64::from(y))[3] >= threshold;
                match (on, start) {
                    (true, None) => start = Some(x),
                    (false, Some(s)) => {
                        out.push((y, s, x));
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_runs_and_keys() {
        // 3x2: row 0 opaque, half, opaque; row 1 clear, opaque, opaque.
        let rgba = [
            [1, 2, 3, 255],
            [0, 0, 0, 127],
            [4, 5, 6, 255],
            [0, 0, 0, 0],
            [7, 8, 9, 200],
            [7, 8, 9, 128],
        ]
        .concat();
        let s = Sprite::new(3, 2, rgba.clone(), 1, 0);
        assert_eq!(s.pixel(2, 0), [4, 5, 6, 255]);
        assert_eq!(s.pixel(-1, 0), [0; 4]);
        assert_eq!(s.pixel(3, 1), [0; 4]);
        assert_eq!(s.runs(128), vec![(0, 0, 1), (0, 2, 3), (1, 1, 3)]);
        assert_eq!(Sprite::new(3, 2, rgba.clone(), 1, 0).key, s.key);
        assert_ne!(Sprite::new(3, 2, rgba, 0, 0).key, s.key);
    }
}
