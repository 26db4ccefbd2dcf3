//! The label badge: its sizes at a scale, its pixels, and reading it back.
//!
//! A badge is, from the outside in: an outline in the ink colour, padding
//! in the fill colour, and the text, each font pixel a square of
//! `factor` × `factor` image pixels, glyphs one font column apart.
//! [`Badge::pixel`] says what every pixel of a badge is; [`read`] checks a
//! badge against it exactly, and [`paint`] draws the same pixels by
//! rectangles (the tests check the two agree at every factor).

use super::colour::ink_for;
use super::font::{self, Glyph, ADVANCE, GLYPH_H, GLYPH_W};
use super::geom::Area;
use super::paint::{Surface, View};

/// The largest glyph factor (a 112-pixel-high text).
pub(crate) const MAX_FACTOR: i64 = 16;

/// The glyph factor at a device scale: 2 at scale 1 (14-pixel text), 4 at
/// scale 2; scales that are not positive and finite count as scale 1.
pub(crate) fn factor_for_scale(scale: f64) -> i64 {
    if !scale.is_finite() || scale <= 0.0 {
        return 2;
    }
    // `as` saturates; the clamp keeps the factor in range.
    ((scale * 2.0).round() as i64).clamp(1, MAX_FACTOR)
}

/// Sizes of badges and boxes at one glyph factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Style {
    /// Image pixels per font pixel.
    pub factor: i64,
    /// Fill between the outline and the text.
    pub pad: i64,
    /// Thickness of the badge's outline.
    pub outline: i64,
    /// Thickness of an element's box.
    pub stroke: i64,
}

impl Style {
    /// The style at glyph factor `factor` (clamped to 1..=16).
    pub(crate) fn for_factor(factor: i64) -> Style {
        let f = factor.clamp(1, MAX_FACTOR);
        let thin = (f / 2).max(1);
        Style {
            factor: f,
            pad: thin,
            outline: thin,
            stroke: (3 * f + 2) / 4,
        }
    }

    /// The style at a device scale.
    pub(crate) fn for_scale(scale: f64) -> Style {
        Style::for_factor(factor_for_scale(scale))
    }

    /// The style whose badges are `height` pixels high.
    pub(crate) fn for_height(height: i64) -> Option<Style> {
        (1..=MAX_FACTOR)
            .map(Style::for_factor)
            .find(|s| s.height() == height)
    }

    /// Outline and padding on each side.
    fn border(&self) -> i64 {
        self.outline + self.pad
    }

    /// Badge height.
    pub(crate) fn height(&self) -> i64 {
        GLYPH_H * self.factor + 2 * self.border()
    }

    /// Width of a badge of `chars` characters.
    pub(crate) fn width(&self, chars: usize) -> i64 {
        let n = i64::try_from(chars).unwrap_or(i64::MAX / 64).max(1);
        n * ADVANCE * self.factor - self.factor + 2 * self.border()
    }

    /// The number of characters in a badge `width` pixels wide.
    fn chars(&self, width: i64) -> Option<usize> {
        let text = width - 2 * self.border() + self.factor;
        let cell = ADVANCE * self.factor;
        if text <= 0 || text % cell != 0 {
            return None;
        }
        usize::try_from(text / cell).ok()
    }
}

/// The text a badge shows for `id` (`?` for an empty id).
pub(crate) fn text(id: &str) -> &str {
    if id.is_empty() {
        "?"
    } else {
        id
    }
}

/// One badge: its glyphs and colours at a style.
#[derive(Debug)]
struct Badge {
    style: Style,
    glyphs: Vec<Glyph>,
    fill: [u8; 3],
    ink: [u8; 3],
    w: i64,
    h: i64,
}

impl Badge {
    /// The colour of the badge pixel at `(dx, dy)` from its top left.
    fn pixel(&self, dx: i64, dy: i64) -> [u8; 3] {
        let s = &self.style;
        let o = s.outline;
        if dx < o || dy < o || dx >= self.w - o || dy >= self.h - o {
            return self.ink;
        }
        let (tx, ty) = (dx - s.border(), dy - s.border());
        if tx < 0 || ty < 0 {
            return self.fill;
        }
        let cell = ADVANCE * s.factor;
        let (col, row) = ((tx % cell) / s.factor, ty / s.factor);
        let on = usize::try_from(tx / cell)
            .ok()
            .and_then(|i| self.glyphs.get(i))
            .is_some_and(|g| col < GLYPH_W && font::lit(g, col, row));
        if on {
            self.ink
        } else {
            self.fill
        }
    }
}

/// Paints the badge of `text` in `fill` over `area` (sized by
/// [`Style::width`] and [`Style::height`]); the ink is black or white,
/// whichever reads better on `fill`. The same pixels as [`Badge::pixel`],
/// by rectangles: the outline, the fill, a square per lit font pixel.
pub(crate) fn paint(
    surface: &mut Surface<'_>,
    area: Area,
    text: &str,
    fill: [u8; 3],
    style: &Style,
) {
    let ink = ink_for(fill);
    let f = style.factor;
    surface.fill(area, ink);
    surface.fill(area.inflate(-style.outline, -style.outline), fill);
    let (x0, y0) = (area.x0 + style.border(), area.y0 + style.border());
    for (i, c) in (0..).zip(text.chars()) {
        let g = font::glyph(c);
        for row in 0..GLYPH_H {
            for col in (0..GLYPH_W).filter(|&col| font::lit(&g, col, row)) {
                let x = x0 + (i * ADVANCE + col) * f;
                surface.fill(Area::at(x, y0 + row * f, f, f), ink);
            }
        }
    }
}

/// The text of the badge drawn over `area`, when every pixel of `area` is
/// exactly what [`paint`] draws for that text.
pub(crate) fn read(view: &View<'_>, area: Area) -> Option<String> {
    if area.is_empty() || !view.bounds().contains(&area) {
        return None;
    }
    let style = Style::for_height(area.h())?;
    let n = style.chars(area.w())?;
    let fill = view.get(area.x0 + style.outline, area.y0 + style.outline)?;
    let ink = ink_for(fill);
    let (x0, y0) = (area.x0 + style.border(), area.y0 + style.border());
    let mut glyphs = Vec::with_capacity(n);
    let mut text = String::with_capacity(n);
    for i in 0..i64::try_from(n).ok()? {
        let mut g: Glyph = [0; 7];
        for (row, bits) in (0..GLYPH_H).zip(g.iter_mut()) {
            for col in 0..GLYPH_W {
                let x = x0 + (i * ADVANCE + col) * style.factor;
                if view.get(x, y0 + row * style.factor)? == ink {
                    *bits |= 1 << (GLYPH_W - 1 - col);
                }
            }
        }
        text.push(font::char_of(&g)?);
        glyphs.push(g);
    }
    let badge = Badge {
        style,
        glyphs,
        fill,
        ink,
        w: area.w(),
        h: area.h(),
    };
    for dy in 0..badge.h {
        for dx in 0..badge.w {
            if view.get(area.x0 + dx, area.y0 + dy)? != badge.pixel(dx, dy) {
                return None;
            }
        }
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let one = Style::for_scale(1.0);
        assert_eq!((one.factor, one.height(), one.width(3)), (2, 18, 38));
        let two = Style::for_scale(2.0);
        assert_eq!((two.factor, two.height(), two.width(3)), (4, 36, 76));
        assert_eq!(Style::for_scale(f64::NAN), one);
        assert_eq!(Style::for_scale(0.1).factor, 1);
        assert_eq!(Style::for_scale(1e300).factor, MAX_FACTOR);
        for f in 1..=MAX_FACTOR {
            let s = Style::for_factor(f);
            assert_eq!(Style::for_height(s.height()), Some(s));
            assert_eq!(s.chars(s.width(7)), Some(7));
        }
    }

    #[test]
    fn paint_then_read() {
        let (w, h) = (400u32, 140u32);
        for f in 1..=6 {
            let mut rgb = vec![128u8; (w * h * 3) as usize];
            let style = Style::for_factor(f);
            let area = Area::at(3, 5, style.width(4), style.height());
            let mut surface = Surface::new(&mut rgb, w, h);
            paint(&mut surface, area, "e1:_", [0, 70, 200], &style);
            let view = View::new(&rgb, w, h);
            assert_eq!(read(&view, area).as_deref(), Some("e1:_"), "factor {f}");
            assert_eq!(read(&view, Area { x0: 4, ..area }), None);
            assert_eq!(
                read(
                    &view,
                    Area {
                        y1: area.y1 + 1,
                        ..area
                    }
                ),
                None
            );
            // Nothing painted outside the badge.
            assert_eq!(view.get(area.x1, area.y0), Some([128; 3]));
            assert_eq!(view.get(area.x0, area.y1), Some([128; 3]));
        }
        let view = View::new(&[9; 120 * 40 * 3], 120, 40);
        assert_eq!(read(&view, Area::at(3, 5, 38, 18)), None);
    }
}
