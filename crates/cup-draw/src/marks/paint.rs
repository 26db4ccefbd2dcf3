//! Pixels of an RGB8 image: solid rectangles and outlines, clipped to the
//! image. The image is the part of the buffer that holds
//! whole rows, so a short buffer never panics.

use super::geom::Area;

/// The rows of `width` pixels that `len` bytes hold, at most `height`.
fn rows(len: usize, width: u32, height: u32) -> i64 {
    let row = u64::from(width) * 3;
    if row == 0 {
        return 0;
    }
    let whole = u64::try_from(len).unwrap_or(u64::MAX) / row;
    i64::try_from(whole.min(u64::from(height))).unwrap_or(0)
}

/// Byte offset of pixel `(x, y)` in an image `width` pixels wide (the
/// caller keeps `x` and `y` inside the image).
fn offset(width: i64, x: i64, y: i64) -> Option<usize> {
    usize::try_from((y * width + x) * 3).ok()
}

/// An image to draw on.
#[derive(Debug)]
pub(crate) struct Surface<'a> {
    rgb: &'a mut [u8],
    width: i64,
    height: i64,
}

impl<'a> Surface<'a> {
    /// The image of `width` × `height` pixels in `rgb` (fewer rows when the
    /// buffer is short).
    pub(crate) fn new(rgb: &'a mut [u8], width: u32, height: u32) -> Self {
        let height = rows(rgb.len(), width, height);
        Surface {
            rgb,
            width: i64::from(width),
            height,
        }
    }

    /// The whole image.
    pub(crate) fn bounds(&self) -> Area {
        Area::at(0, 0, self.width, self.height)
    }

    /// Paints the part of `area` inside the image: its first row pixel by
    /// doubling copies, the other rows as copies of the first.
    pub(crate) fn fill(&mut self, area: Area, colour: [u8; 3]) {
        let a = area.intersect(&self.bounds());
        if a.is_empty() {
            return;
        }
        let (Some(first), Some(end), Some(last)) = (
            offset(self.width, a.x0, a.y0),
            offset(self.width, a.x1, a.y0),
            offset(self.width, a.x1, a.y1 - 1),
        ) else {
            return;
        };
        if last > self.rgb.len() {
            return;
        }
        let len = end - first;
        let Some(row) = self.rgb.get_mut(first..end) else {
            return;
        };
        row[..3].copy_from_slice(&colour);
        let mut done = 3;
        while done < len {
            let n = done.min(len - done);
            row.copy_within(..n, done);
            done += n;
        }
        for y in a.y0 + 1..a.y1 {
            if let Some(at) = offset(self.width, a.x0, y) {
                self.rgb.copy_within(first..end, at);
            }
        }
    }

    /// Paints a frame `width` pixels thick along the inside of `area`'s
    /// edges (the whole area when it is thinner than two frames).
    pub(crate) fn stroke(&mut self, area: Area, width: i64, colour: [u8; 3]) {
        let t = width.max(1);
        if area.w() <= 2 * t || area.h() <= 2 * t {
            self.fill(area, colour);
            return;
        }
        let Area { x0, y0, x1, y1 } = area;
        self.fill(Area { y1: y0 + t, ..area }, colour);
        self.fill(Area { y0: y1 - t, ..area }, colour);
        self.fill(
            Area {
                x0,
                y0: y0 + t,
                x1: x0 + t,
                y1: y1 - t,
            },
            colour,
        );
        self.fill(
            Area {
                x0: x1 - t,
                y0: y0 + t,
                x1,
                y1: y1 - t,
            },
            colour,
        );
    }
}

/// An image to read.
#[derive(Debug)]
pub(crate) struct View<'a> {
    rgb: &'a [u8],
    width: i64,
    height: i64,
}

impl<'a> View<'a> {
    /// The image of `width` × `height` pixels in `rgb` (fewer rows when the
    /// buffer is short).
    pub(crate) fn new(rgb: &'a [u8], width: u32, height: u32) -> Self {
        View {
            rgb,
            width: i64::from(width),
            height: rows(rgb.len(), width, height),
        }
    }

    /// The whole image.
    pub(crate) fn bounds(&self) -> Area {
        Area::at(0, 0, self.width, self.height)
    }

    /// The pixel at `(x, y)`, `None` outside the image.
    pub(crate) fn get(&self, x: i64, y: i64) -> Option<[u8; 3]> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        let px = offset(self.width, x, y).and_then(|i| self.rgb.get(i..i + 3))?;
        Some([px[0], px[1], px[2]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_and_stroke_are_clipped() {
        let mut rgb = vec![0u8; 6 * 4 * 3];
        let mut s = Surface::new(&mut rgb, 6, 4);
        s.fill(Area::at(-2, -2, 4, 4), [1, 2, 3]);
        s.stroke(Area::at(2, 0, 4, 4), 1, [9, 9, 9]);
        s.fill(Area::at(10, 10, 3, 3), [7, 7, 7]);
        let v = View::new(&rgb, 6, 4);
        assert_eq!(v.get(0, 0), Some([1, 2, 3]));
        assert_eq!(v.get(1, 1), Some([1, 2, 3]));
        assert_eq!(v.get(2, 2), Some([9, 9, 9]));
        assert_eq!(v.get(3, 1), Some([0, 0, 0]), "inside the frame");
        assert_eq!(v.get(5, 3), Some([9, 9, 9]));
        assert_eq!(v.get(6, 0), None);
    }

    #[test]
    fn a_short_buffer_is_fewer_rows() {
        let mut rgb = vec![0u8; 10 * 3 * 2 + 5];
        let mut s = Surface::new(&mut rgb, 10, 100);
        assert_eq!(s.bounds(), Area::at(0, 0, 10, 2));
        s.fill(Area::at(0, 0, 100, 100), [5, 5, 5]);
        assert_eq!(&rgb[60..], &[0; 5]);
        let mut none: Vec<u8> = Vec::new();
        assert!(Surface::new(&mut none, 0, 10).bounds().is_empty());
    }
}
