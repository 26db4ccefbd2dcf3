//! The pixels given, and their preparation for Tesseract: one grey byte a
//! pixel, dark text on a light ground, scaled up so that UI-sized text
//! (11-14 px lines) reaches the 20-30 px Tesseract's models read best.

use crate::OcrError;

/// An image as the platforms give it: rows of RGBA bytes.
#[derive(Debug, Clone, Copy)]
pub struct Rgba<'a> {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width * height * 4` bytes, row after row.
    pub pixels: &'a [u8],
}

impl Rgba<'_> {
    /// Refuses pixels that do not make the image they say.
    ///
    /// # Errors
    ///
    /// [`OcrError::Image`] with what is wrong.
    pub fn check(&self) -> Result<(), OcrError> {
        if self.width == 0 || self.height == 0 {
            return Err(OcrError::Image(format!(
                "an empty image ({}x{}): give a window or region with an area",
                self.width, self.height
            )));
        }
        let want = self
            .width
            .checked_mul(self.height)
            .and_then(|n| n.checked_mul(4));
        if want != Some(self.pixels.len()) {
            return Err(OcrError::Image(format!(
                "{} bytes for a {}x{} RGBA image (want {})",
                self.pixels.len(),
                self.width,
                self.height,
                want.map_or_else(|| "too many".to_owned(), |n| n.to_string())
            )));
        }
        Ok(())
    }
}

/// One grey byte a pixel, row after row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gray {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width * height` bytes.
    pub pixels: Vec<u8>,
}

/// An image made ready for Tesseract, and how much larger it is than the
/// one given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// The grey image, dark text on light.
    pub gray: Gray,
    /// The factor each side was scaled by.
    pub scale: usize,
}

/// The scale of an image: text whose lines are at least [`PLAIN_LINE`]
/// pixels tall is read as it is (Tesseract reads UI text of 11 px and
/// more as well unscaled, twice as fast); smaller text grows ×2, tiny
/// text ×3. Without a measure (`line` None) the image's area decides: a
/// small image grows most, a large one less, to keep recognition time in
/// bounds.
pub fn scale_for(width: usize, height: usize, line: Option<usize>) -> usize {
    match line {
        Some(h) if h >= PLAIN_LINE => 1,
        Some(h) if h >= 7 => 2,
        Some(_) => 3,
        None if width.saturating_mul(height) <= 800 * 600 => 3,
        None => 2,
    }
}

/// Lines at least this tall (ink rows, ascenders to descenders) are read
/// unscaled.
pub const PLAIN_LINE: usize = 10;

/// The median height of the text lines in `grey` (`w` x `h`, dark ink on
/// light): rows with `ROW_INK` ink pixels or more make runs, runs of 4
/// rows and more are lines. None when there is none.
pub fn line_height(grey: &[u8], w: usize, h: usize) -> Option<usize> {
    let inked = |y: usize| {
        grey[y * w..(y + 1) * w]
            .iter()
            .filter(|&&g| g < INK)
            .count()
            >= ROW_INK
    };
    let mut runs = Vec::new();
    let mut start = None;
    for y in 0..=h {
        match (y < h && inked(y), start) {
            (true, None) => start = Some(y),
            (false, Some(s)) => {
                if y - s >= 4 {
                    runs.push(y - s);
                }
                start = None;
            }
            _ => {}
        }
    }
    runs.sort_unstable();
    runs.get(runs.len() / 2).copied()
}

/// Ink pixels a row needs to count as part of a text line (a frame's side
/// crossing it is one or two).
const ROW_INK: usize = 3;

/// Where to cut `image` into `parts` bands of rows for engines running
/// side by side: at blank rows (no ink) nearest the even cuts, so no line
/// is split; a cut with no blank row within a sixth of the height of its
/// place is left out. Row ranges, top to bottom.
pub fn bands(image: &Gray, parts: usize) -> Vec<std::ops::Range<usize>> {
    let (w, h) = (image.width, image.height);
    let whole = std::iter::once(0..h).collect();
    if parts < 2 || h < 2 * MIN_BAND || w == 0 {
        return whole;
    }
    let blank = |y: usize| image.pixels[y * w..(y + 1) * w].iter().all(|&g| g >= INK);
    let reach = h / 6;
    let mut cuts = Vec::new();
    for k in 1..parts {
        let aim = h * k / parts;
        let found = (0..=reach).find_map(|d| {
            [aim.checked_sub(d), Some(aim + d)]
                .into_iter()
                .flatten()
                .find(|&y| y > 0 && y < h && blank(y))
        });
        if let Some(y) = found {
            if cuts.last().is_none_or(|&last| y >= last + MIN_BAND) && h - y >= MIN_BAND {
                cuts.push(y);
            }
        }
    }
    if cuts.is_empty() {
        return whole;
    }
    let mut out = Vec::new();
    let mut from = 0;
    for c in cuts {
        out.push(from..c);
        from = c;
    }
    out.push(from..h);
    out
}

/// The fewest rows a band has (smaller images are read whole).
const MIN_BAND: usize = 120;

/// Rows `range` of `image`, as an image of their own.
pub fn rows(image: &Gray, range: std::ops::Range<usize>) -> Gray {
    Gray {
        width: image.width,
        height: range.len(),
        pixels: image.pixels[range.start * image.width..range.end * image.width].to_vec(),
    }
}

/// Luma of an RGBA pixel (ITU-R BT.601, integers).
fn luma(p: &[u8]) -> u8 {
    let y = (299 * u32::from(p[0]) + 587 * u32::from(p[1]) + 114 * u32::from(p[2])) / 1000;
    u8::try_from(y).unwrap_or(u8::MAX)
}

/// Grey, inverted when the image is mostly dark (light text on a dark
/// ground: a terminal, a dark theme), scaled by [`scale_for`] with
/// bilinear sampling.
pub fn prepare(image: &Rgba<'_>) -> Prepared {
    prepare_at(image, None)
}

/// As [`prepare`], at `scale` when given (a second try at a larger scale).
pub fn prepare_at(image: &Rgba<'_>, scale: Option<usize>) -> Prepared {
    let (w, h) = (image.width, image.height);
    let mut grey: Vec<u8> = image.pixels.chunks_exact(4).map(luma).collect();
    let mean = grey.iter().map(|&g| u64::from(g)).sum::<u64>() / (grey.len().max(1) as u64);
    if mean < 128 {
        for g in &mut grey {
            *g = 255 - *g;
        }
    }
    invert_fills(&mut grey, w, h);
    remove_frames(&mut grey, w, h);
    let scale = scale.unwrap_or_else(|| scale_for(w, h, line_height(&grey, w, h)));
    Prepared {
        gray: upscale(&grey, w, h, scale),
        scale,
    }
}

/// Darker than this (after [`prepare`]'s inversion) is ink.
const INK: u8 = 140;
/// A dark horizontal run at least this long, and at least twice the
/// text's line height, is a frame's stroke, not a letter (UI letters are
/// far narrower; a phone's 40 px "T" has a bar of 28 px).
const FRAME_RUN: usize = 24;
/// A frame's stroke is at most this thick, or a quarter of the line
/// height when that is more: thicker dark runs are a filled area (a
/// button's background), left as they are.
const FRAME_THICK: usize = 3;
/// A vertical stroke at least this tall that meets a removed horizontal
/// one (a box's corner) is the box's side.
const FRAME_SIDE: usize = 8;

/// The shortest run of ink that is a frame's stroke (or a fill's row)
/// and the thickest a stroke is, for the text in `grey`: [`FRAME_RUN`]
/// and at least twice the line height; [`FRAME_THICK`] and at least a
/// quarter of it.
fn stroke_sizes(grey: &[u8], w: usize, h: usize) -> (usize, usize) {
    let line = line_height(grey, w, h).unwrap_or(0);
    (FRAME_RUN.max(2 * line), FRAME_THICK.max(line / 4))
}

/// The horizontal runs of ink at least `run_min` long: row and columns.
fn dark_runs(
    grey: &[u8],
    w: usize,
    h: usize,
    run_min: usize,
) -> Vec<(usize, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    for y in 0..h {
        let row = &grey[y * w..(y + 1) * w];
        let mut x = 0;
        while x < w {
            if row[x] >= INK {
                x += 1;
                continue;
            }
            let start = x;
            while x < w && row[x] < INK {
                x += 1;
            }
            if x - start >= run_min {
                out.push((y, start..x));
            }
        }
    }
    out
}

/// How many rows the ink of row `y` across `span` is thick: the row and
/// those above and below it that are mostly ink across the span, counted
/// up to `limit + 1`.
fn thickness(
    grey: &[u8],
    w: usize,
    h: usize,
    y: usize,
    span: std::ops::Range<usize>,
    limit: usize,
) -> usize {
    let mostly_ink = |yy: usize| {
        let ink = span.clone().filter(|&x| grey[yy * w + x] < INK).count();
        ink * 2 >= span.len()
    };
    let up = (0..y)
        .rev()
        .take(limit + 1)
        .take_while(|&yy| mostly_ink(yy))
        .count();
    let down = (y + 1..h)
        .take(limit + 1)
        .take_while(|&yy| mostly_ink(yy))
        .count();
    1 + up + down
}

/// Inverts the filled areas of `grey` (`w` x `h`): dark rectangles such
/// as a button's background, whose light text Tesseract's layout
/// analysis takes for a picture. Rows of ink thicker than a stroke make
/// the areas; runs within a line height of each other and overlapping
/// join one area (the text's rows break the runs between them).
fn invert_fills(grey: &mut [u8], w: usize, h: usize) {
    let (run_min, thick_max) = stroke_sizes(grey, w, h);
    let gap = FRAME_RUN.max(run_min / 2);
    // (x0, y0, x1, y1), exclusive ends.
    let mut areas: Vec<(usize, usize, usize, usize)> = Vec::new();
    for (y, span) in dark_runs(grey, w, h, run_min) {
        if thickness(grey, w, h, y, span.clone(), thick_max) <= thick_max {
            continue;
        }
        let joined = areas
            .iter_mut()
            .rev()
            .find(|a| a.3 + gap >= y && span.start < a.2 && a.0 < span.end);
        match joined {
            Some(a) => {
                a.0 = a.0.min(span.start);
                a.2 = a.2.max(span.end);
                a.3 = y + 1;
            }
            None => areas.push((span.start, y, span.end, y + 1)),
        }
    }
    for (x0, y0, x1, y1) in areas {
        // Inverted, the fill is a mid grey that a binarization may take for
        // ink: stretched so that the fill's own level (the area's median)
        // is white.
        let mut levels: Vec<u8> = (y0..y1)
            .flat_map(|y| grey[y * w + x0..y * w + x1].iter().map(|&g| 255 - g))
            .collect();
        let mid = levels.len() / 2;
        let fill = u32::from(*levels.select_nth_unstable(mid).1).max(1);
        for y in y0..y1 {
            for g in &mut grey[y * w + x0..y * w + x1] {
                let v = u32::from(255 - *g) * 255 / fill;
                *g = u8::try_from(v.min(255)).unwrap_or(u8::MAX);
            }
        }
    }
}

/// Takes the frames drawn around text (an entry's box, a table's rules)
/// out of `grey` (`w` x `h`): Tesseract's layout analysis takes boxed
/// text for a picture and reads nothing in it. Horizontal ink runs of
/// [`FRAME_RUN`] pixels and more go, then the vertical runs that start or
/// end on one of them; each is painted with the lighter of its two
/// neighbours across the stroke.
fn remove_frames(grey: &mut [u8], w: usize, h: usize) {
    let (run_min, thick_max) = stroke_sizes(grey, w, h);
    let mut gone = vec![false; w * h];
    // Strokes are thin: a run whose span is ink over more rows is a
    // filled area (see [`invert_fills`]).
    for (y, span) in dark_runs(grey, w, h, run_min) {
        if thickness(grey, w, h, y, span.clone(), thick_max) <= thick_max {
            gone[y * w + span.start..y * w + span.end]
                .iter_mut()
                .for_each(|g| *g = true);
        }
    }
    // Sides: vertical runs touching a removed stroke at an end.
    let near_gone = |x: usize, y: usize| -> bool {
        let (x0, x1) = (x.saturating_sub(1), (x + 1).min(w - 1));
        let (y0, y1) = (y.saturating_sub(1), (y + 1).min(h - 1));
        (y0..=y1).any(|yy| (x0..=x1).any(|xx| gone[yy * w + xx]))
    };
    let mut sides = Vec::new();
    for x in 0..w {
        let mut y = 0;
        while y < h {
            if grey[y * w + x] >= INK || gone[y * w + x] {
                y += 1;
                continue;
            }
            let start = y;
            while y < h && grey[y * w + x] < INK && !gone[y * w + x] {
                y += 1;
            }
            if y - start >= FRAME_SIDE && (near_gone(x, start) || near_gone(x, y - 1)) {
                sides.push((x, start, y));
            }
        }
    }
    for (x, start, end) in sides {
        (start..end).for_each(|y| gone[y * w + x] = true);
    }
    // Paint: the lighter neighbour across the stroke.
    let original = grey.to_vec();
    for y in 0..h {
        for x in 0..w {
            if !gone[y * w + x] {
                continue;
            }
            let pick = |xx: usize, yy: usize| -> u8 {
                if gone[yy * w + xx] {
                    0
                } else {
                    original[yy * w + xx]
                }
            };
            let mut light = 0u8;
            if y > 0 {
                light = light.max(pick(x, y - 1));
            }
            if y + 1 < h {
                light = light.max(pick(x, y + 1));
            }
            if x > 0 {
                light = light.max(pick(x - 1, y));
            }
            if x + 1 < w {
                light = light.max(pick(x + 1, y));
            }
            grey[y * w + x] = if light == 0 { u8::MAX } else { light };
        }
    }
}

/// `grey` (`w` x `h`) scaled by `k` with bilinear sampling.
fn upscale(grey: &[u8], w: usize, h: usize, k: usize) -> Gray {
    let (ow, oh) = (w * k, h * k);
    let mut out = vec![0u8; ow * oh];
    let at = |x: usize, y: usize| u32::from(grey[y.min(h - 1) * w + x.min(w - 1)]);
    let k32 = u32::try_from(k).unwrap_or(1);
    for oy in 0..oh {
        // Sample centres: (o + 0.5) / k - 0.5, in 1/k steps.
        let sy = (2 * oy + 1).saturating_sub(k);
        let (y0, fy) = (sy / (2 * k), u32::try_from(sy % (2 * k)).unwrap_or(0));
        for ox in 0..ow {
            let sx = (2 * ox + 1).saturating_sub(k);
            let (x0, fx) = (sx / (2 * k), u32::try_from(sx % (2 * k)).unwrap_or(0));
            let d = 2 * k32;
            let top = at(x0, y0) * (d - fx) + at(x0 + 1, y0) * fx;
            let bottom = at(x0, y0 + 1) * (d - fx) + at(x0 + 1, y0 + 1) * fx;
            let v = (top * (d - fy) + bottom * fy) / (d * d);
            out[oy * ow + ox] = u8::try_from(v).unwrap_or(u8::MAX);
        }
    }
    Gray {
        width: ow,
        height: oh,
        pixels: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba(w: usize, h: usize, f: impl Fn(usize, usize) -> [u8; 4]) -> Vec<u8> {
        let mut v = Vec::with_capacity(w * h * 4);
        for y in 0..h {
            for x in 0..w {
                v.extend_from_slice(&f(x, y));
            }
        }
        v
    }

    #[test]
    fn bad_pixels_are_refused_with_what_is_wrong() {
        let px = vec![0u8; 10];
        let e = Rgba {
            width: 2,
            height: 2,
            pixels: &px,
        }
        .check()
        .expect_err("refused");
        assert_eq!(
            e.to_string(),
            "OCR: 10 bytes for a 2x2 RGBA image (want 16)"
        );
        let e = Rgba {
            width: 0,
            height: 2,
            pixels: &[],
        }
        .check()
        .expect_err("refused");
        assert!(e.to_string().contains("empty image"), "{e}");
    }

    #[test]
    fn light_on_dark_turns_dark_on_light_and_grows() {
        // A dark ground with one white pixel.
        let px = rgba(4, 4, |x, y| {
            if (x, y) == (1, 1) {
                [255; 4]
            } else {
                [10, 10, 10, 255]
            }
        });
        let p = prepare(&Rgba {
            width: 4,
            height: 4,
            pixels: &px,
        });
        assert_eq!((p.gray.width, p.gray.height, p.scale), (12, 12, 3));
        // The ground is light now, the pixel dark.
        assert!(p.gray.pixels[0] > 200, "{:?}", &p.gray.pixels[..12]);
        assert!(p.gray.pixels[4 * 12 + 4] < 60, "{:?}", p.gray.pixels);
    }

    /// A grey image `w` wide with ink rows `lines` (start, height).
    fn lined(w: usize, h: usize, lines: &[(usize, usize)]) -> Gray {
        let mut px = vec![230u8; w * h];
        for &(y0, lh) in lines {
            for y in y0..y0 + lh {
                for x in (5..w - 5).step_by(2) {
                    px[y * w + x] = 20;
                }
            }
        }
        Gray {
            width: w,
            height: h,
            pixels: px,
        }
    }

    #[test]
    fn line_height_is_the_median_run_of_inked_rows() {
        let g = lined(60, 100, &[(10, 12), (30, 13), (50, 14), (80, 2)]);
        assert_eq!(line_height(&g.pixels, g.width, g.height), Some(13));
        let blank = lined(60, 100, &[]);
        assert_eq!(line_height(&blank.pixels, 60, 100), None);
    }

    #[test]
    fn bands_cut_at_blank_rows_near_the_middle_never_through_a_line() {
        // Lines every 20 rows, 14 tall: rows 14-19 of each are blank.
        let lines: Vec<(usize, usize)> = (0..20).map(|i| (i * 20, 14)).collect();
        let g = lined(40, 400, &lines);
        let b = bands(&g, 2);
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].start, b[1].end), (0, 400));
        assert_eq!(b[0].end, b[1].start);
        let cut = b[0].end;
        assert!((cut % 20) >= 14, "cut at {cut}, inside a line");
        assert!(cut.abs_diff(200) <= 400 / 6);
        // Small images and images without a blank row stay whole.
        assert_eq!(bands(&lined(40, 200, &lines[..10]), 2), vec![0..200]);
        assert_eq!(bands(&lined(40, 400, &[(0, 400)]), 2), vec![0..400]);
        assert_eq!(rows(&g, 20..34).height, 14);
    }

    #[test]
    fn a_box_around_text_goes_and_the_text_stays() {
        // A 40x12 box (1 px black sides) on grey, a 2x6 "letter" inside.
        let (w, h) = (50, 16);
        let mut g = vec![200u8; w * h];
        for x in 5..45 {
            g[2 * w + x] = 0;
            g[13 * w + x] = 0;
        }
        for y in 2..14 {
            g[y * w + 5] = 0;
            g[y * w + 44] = 0;
        }
        for y in 5..11 {
            g[y * w + 10] = 0;
            g[y * w + 11] = 0;
        }
        // A tall stroke alone (a letter's stem in large text) stays.
        for y in 1..15 {
            g[y * w + 48] = 0;
        }
        remove_frames(&mut g, w, h);
        assert!(
            [2 * w + 20, 13 * w + 20, 7 * w + 5, 7 * w + 44]
                .iter()
                .all(|&i| g[i] >= INK),
            "the box is gone"
        );
        assert!(
            g[7 * w + 10] < INK && g[7 * w + 11] < INK,
            "the letter stays"
        );
        assert!(g[7 * w + 48] < INK, "a stem alone stays");
    }

    /// A phone's screen (issue 51): a button filled dark behind light
    /// text, and a 28 px "T" bar in 44 px lines. Neither is a frame.
    #[test]
    fn a_filled_button_and_a_large_letter_stay() {
        let (w, h) = (200, 140);
        let mut g = vec![255u8; w * h];
        // Three 44 px lines of "ink" (4 px wide stems every 10 px), the
        // first with a 28 x 4 bar on top (a "T").
        for top in [4, 50, 96] {
            for y in top..top + 40 {
                for x in (120..190).step_by(10) {
                    for dx in 0..4 {
                        g[y * w + x + dx] = 0;
                    }
                }
            }
        }
        for y in 4..8 {
            for x in 10..38 {
                g[y * w + x] = 0;
            }
        }
        // The button: a 100 x 30 fill of 90 with a white "letter".
        for y in 100..130 {
            for x in 10..110 {
                g[y * w + x] = if (50..54).contains(&x) && (105..125).contains(&y) {
                    255
                } else {
                    90
                };
            }
        }
        let before = g.clone();
        remove_frames(&mut g, w, h);
        assert_eq!(g, before);
        // The fill turns light and its letter dark; the rest stays.
        invert_fills(&mut g, w, h);
        assert!(g[110 * w + 51] < INK, "the button's letter is ink");
        assert_eq!(g[102 * w + 20], 255, "its background is white");
        assert_eq!(&g[..99 * w], &before[..99 * w]);
        assert!((0..h).all(|y| g[y * w + 150..y * w + 200] == before[y * w + 150..y * w + 200]));
    }

    #[test]
    fn a_flat_image_stays_flat_when_scaled() {
        let px = rgba(5, 3, |_, _| [200, 200, 200, 255]);
        let p = prepare(&Rgba {
            width: 5,
            height: 3,
            pixels: &px,
        });
        assert!(
            p.gray.pixels.iter().all(|&g| g == 200),
            "{:?}",
            p.gray.pixels
        );
        assert_eq!(scale_for(1920, 1080, None), 2);
        assert_eq!(scale_for(300, 200, None), 3);
        assert_eq!(scale_for(300, 200, Some(13)), 1);
        assert_eq!(scale_for(300, 200, Some(8)), 2);
        assert_eq!(scale_for(300, 200, Some(5)), 3);
    }
}
