//! Screenshots in cup's pixel space, decided without the OS: which part of
//! which display (in that display's points, as ScreenCaptureKit's
//! `sourceRect` takes it) makes which part of the image ([`pieces`]), and
//! the pieces put together into one image ([`compose`]). A region that
//! spans displays of different scales comes out at each display's own
//! pixels, like the envelope's bounds.

use cup_protocol::Rect;

use crate::facts::PointRect;
use crate::screen::Layout;

/// One display's part of a screenshot.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// `CGDirectDisplayID`.
    pub display: u32,
    /// What to capture, in the display's own points (origin at its
    /// top-left corner).
    pub source: PointRect,
    /// Its size in pixels.
    pub width: u32,
    /// Its size in pixels.
    pub height: u32,
    /// Where it goes in the image (pixels from its top-left corner).
    pub x: u32,
    /// Where it goes in the image.
    pub y: u32,
}

fn intersect(a: Rect, b: Rect) -> Option<Rect> {
    let x0 = a.x.max(b.x);
    let y0 = a.y.max(b.y);
    let x1 = (a.x + a.w as i64).min(b.x + b.w as i64);
    let y1 = (a.y + a.h as i64).min(b.y + b.h as i64);
    (x1 > x0 && y1 > y0).then(|| Rect::new(x0, y0, (x1 - x0) as u64, (y1 - y0) as u64))
}

/// The pieces of a screenshot of `region` (pixels).
///
/// # Errors
///
/// When no display shows any of it.
pub fn pieces(layout: &Layout, region: Rect) -> Result<Vec<Piece>, String> {
    let out: Vec<Piece> = layout
        .displays
        .iter()
        .filter_map(|d| {
            let i = intersect(d.pixels, region)?;
            Some(Piece {
                display: d.id,
                source: PointRect {
                    x: (i.x - d.pixels.x) as f64 / d.scale,
                    y: (i.y - d.pixels.y) as f64 / d.scale,
                    w: i.w as f64 / d.scale,
                    h: i.h as f64 / d.scale,
                },
                width: u32::try_from(i.w).ok()?,
                height: u32::try_from(i.h).ok()?,
                x: u32::try_from(i.x - region.x).ok()?,
                y: u32::try_from(i.y - region.y).ok()?,
            })
        })
        .collect();
    if out.is_empty() {
        return Err(format!(
            "the region {},{} {}x{} is on no display; get_screen_size lists the displays",
            region.x, region.y, region.w, region.h
        ));
    }
    Ok(out)
}

/// The pixels of all displays together (what `Screen` captures).
pub fn span(layout: &Layout) -> Option<Rect> {
    let mut it = layout.displays.iter().map(|d| d.pixels);
    let first = it.next()?;
    Some(it.fold(first, |a, b| {
        let x0 = a.x.min(b.x);
        let y0 = a.y.min(b.y);
        let x1 = (a.x + a.w as i64).max(b.x + b.w as i64);
        let y1 = (a.y + a.h as i64).max(b.y + b.h as i64);
        Rect::new(x0, y0, (x1 - x0) as u64, (y1 - y0) as u64)
    }))
}

/// Top-down BGRA pixels of one captured piece.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pixels {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Bytes per row (at least `width * 4`).
    pub stride: usize,
    /// The bytes.
    pub bgra: Vec<u8>,
}

/// How a `CGImage`'s 32-bit pixels are laid out in memory, from its
/// `CGBitmapInfo` (byte order and alpha position).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// B, G, R, A (32-bit little-endian, alpha first: what ScreenCaptureKit
    /// gives for SDR).
    Bgra,
    /// A, B, G, R (little-endian, alpha last).
    Abgr,
    /// A, R, G, B (big-endian, alpha first).
    Argb,
    /// R, G, B, A (big-endian or default, alpha last).
    Rgba,
}

/// The [`Order`] of a `CGBitmapInfo` value.
pub fn order_of(bitmap_info: u32) -> Order {
    let alpha = bitmap_info & 0x1F;
    let little = bitmap_info & 0x7000 == 0x2000;
    // kCGImageAlphaPremultipliedFirst, First, NoneSkipFirst.
    let first = matches!(alpha, 2 | 4 | 6);
    match (little, first) {
        (true, true) => Order::Bgra,
        (true, false) => Order::Abgr,
        (false, true) => Order::Argb,
        (false, false) => Order::Rgba,
    }
}

/// 32-bit pixels of `order` as BGRA [`Pixels`] (rows of `stride` bytes).
///
/// # Errors
///
/// When the bytes are fewer than the rows need.
pub fn to_bgra(
    bytes: &[u8],
    width: u32,
    height: u32,
    stride: usize,
    order: Order,
) -> Result<Pixels, String> {
    let need = stride * (height as usize).saturating_sub(1) + width as usize * 4;
    if height > 0 && (bytes.len() < need || stride < width as usize * 4) {
        return Err(format!(
            "the screenshot has {} bytes for {width}x{height} pixels of {stride} bytes a row",
            bytes.len()
        ));
    }
    let mut bgra = bytes.to_vec();
    if order != Order::Bgra {
        for row in 0..height as usize {
            let line = &mut bgra[row * stride..row * stride + width as usize * 4];
            for px in line.chunks_exact_mut(4) {
                let [a, b, c, d] = [px[0], px[1], px[2], px[3]];
                let out = match order {
                    Order::Bgra => [a, b, c, d],
                    Order::Abgr => [b, c, d, a],
                    Order::Argb => [d, c, b, a],
                    Order::Rgba => [c, b, a, d],
                };
                px.copy_from_slice(&out);
            }
        }
    }
    Ok(Pixels {
        width,
        height,
        stride,
        bgra,
    })
}

/// The pixels with rows packed (`stride` = `width * 4`), as PNG encoding
/// takes them.
pub fn packed(p: &Pixels) -> Vec<u8> {
    let row = p.width as usize * 4;
    if p.stride == row {
        return p.bgra[..row * p.height as usize].to_vec();
    }
    (0..p.height as usize)
        .flat_map(|r| p.bgra[r * p.stride..r * p.stride + row].iter().copied())
        .collect()
}

/// `width` × `height` BGRA with each piece drawn at its place (black where
/// no display is: the gaps between displays of a region). A piece that
/// came back smaller than asked is drawn as far as it goes.
pub fn compose(width: u32, height: u32, parts: &[(Piece, Pixels)]) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    let mut out = vec![0u8; w * h * 4];
    for px in out.chunks_exact_mut(4) {
        px[3] = 255;
    }
    for (piece, pixels) in parts {
        let cols = (pixels.width.min(piece.width) as usize).min(w.saturating_sub(piece.x as usize));
        let rows =
            (pixels.height.min(piece.height) as usize).min(h.saturating_sub(piece.y as usize));
        for r in 0..rows {
            let src = r * pixels.stride;
            let Some(line) = pixels.bgra.get(src..src + cols * 4) else {
                break;
            };
            let dst = ((piece.y as usize + r) * w + piece.x as usize) * 4;
            out[dst..dst + cols * 4].copy_from_slice(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2x main display (1512x982 points) and a 1x display right of it.
    fn layout() -> Layout {
        crate::screen::displays(&[(0.0, 1512.0, 982.0, 2.0), (1512.0, 1920.0, 1080.0, 1.0)])
    }

    #[test]
    fn a_region_across_two_displays_is_two_pieces_at_their_own_scale() {
        let l = layout();
        // The 1x display starts at pixel 3024 (its origin, 1512 points,
        // times the largest scale).
        let p = pieces(&l, Rect::new(3000, 100, 100, 50)).expect("pieces");
        assert_eq!(
            p,
            [
                Piece {
                    display: 1,
                    source: PointRect {
                        x: 1500.0,
                        y: 50.0,
                        w: 12.0,
                        h: 25.0
                    },
                    width: 24,
                    height: 50,
                    x: 0,
                    y: 0,
                },
                Piece {
                    display: 2,
                    source: PointRect {
                        x: 0.0,
                        y: 100.0,
                        w: 76.0,
                        h: 50.0
                    },
                    width: 76,
                    height: 50,
                    x: 24,
                    y: 0,
                }
            ]
        );
        assert!(pieces(&l, Rect::new(-500, -500, 10, 10)).is_err());
        assert_eq!(span(&l), Some(Rect::new(0, 0, 3024 + 1920, 1964)));
    }

    #[test]
    fn pixel_orders_become_bgra() {
        // kCGBitmapByteOrder32Little | kCGImageAlphaPremultipliedFirst.
        assert_eq!(order_of(0x2002), Order::Bgra);
        assert_eq!(order_of(0x2001), Order::Abgr);
        assert_eq!(order_of(0x4002), Order::Argb);
        assert_eq!(order_of(0x0003), Order::Rgba);
        // One red pixel per order, rows of 8 bytes (one pixel of padding).
        let red = |o: Order, px: [u8; 4]| {
            let mut bytes = px.to_vec();
            bytes.extend([0; 4]);
            let p = to_bgra(&bytes, 1, 1, 8, o).expect("pixels");
            packed(&p)
        };
        let want = vec![0, 0, 255, 255];
        assert_eq!(red(Order::Bgra, [0, 0, 255, 255]), want);
        assert_eq!(red(Order::Abgr, [255, 0, 0, 255]), want);
        assert_eq!(red(Order::Argb, [255, 255, 0, 0]), want);
        assert_eq!(red(Order::Rgba, [255, 0, 0, 255]), want);
        assert!(to_bgra(&[0; 7], 2, 1, 8, Order::Bgra).is_err());
    }

    #[test]
    fn pieces_are_drawn_at_their_place() {
        let piece = |x, w| Piece {
            display: 1,
            source: PointRect::default(),
            width: w,
            height: 1,
            x,
            y: 0,
        };
        let px = |w: u32, v: u8| Pixels {
            width: w,
            height: 1,
            stride: w as usize * 4 + 8,
            bgra: vec![v; w as usize * 4 + 8],
        };
        let img = compose(4, 2, &[(piece(0, 1), px(1, 9)), (piece(2, 2), px(2, 7))]);
        assert_eq!(&img[0..4], &[9, 9, 9, 9]);
        assert_eq!(&img[4..8], &[0, 0, 0, 255]);
        assert_eq!(&img[8..16], &[7; 8]);
        assert_eq!(&img[16..20], &[0, 0, 0, 255]);
    }
}
