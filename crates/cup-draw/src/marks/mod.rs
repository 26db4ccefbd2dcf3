//! Set-of-marks: the ids of elements drawn on a screenshot.
//!
//! Vision models ground better on a screenshot whose elements carry their
//! ids. [`draw`] outlines each element's box in a colour and puts its id in
//! a badge of that colour next to it:
//!
//! - the badge is solid (nothing of the image shows through), its text
//!   black or white by the fill's luminance, with a thin outline in the
//!   text colour, so it reads on any background; text and strokes grow
//!   with the image's device scale;
//! - labels never overlap each other; they go outside the element's box
//!   where they hide no other element (above its top left corner first),
//!   else where they hide least, near the element (see the placement
//!   notes of `place.rs`); a label with no free place is left out and its
//!   id reported in [`Drawn::unplaced`];
//! - elements wholly outside the image are skipped ([`Drawn::outside`]),
//!   boxes partly outside are clipped;
//! - neighbouring marks get different colours of [`PALETTE`].
//!
//! The work is proportional to the pixels drawn and about `n²` rectangle
//! tests for `n` marks (no pass over the whole image).
//!
//! [`read_label`] reads an id back from the image, by exact match of the
//! module's own glyphs, for tests of the drawn image.

mod badge;
mod colour;
mod font;
mod geom;
mod paint;
mod place;
mod shot;
#[cfg(test)]
mod tests;

use std::fmt;

use cup_protocol::Rect;
use serde::Serialize;

use badge::Style;
pub use colour::PALETTE;
use geom::Area;
use paint::{Surface, View};
use place::Item;
pub use shot::{screenshot, MarkedShot};

/// RGB8 pixels, rows top to bottom, 3 bytes a pixel (what the Linux
/// screenshot grabber produces). Only whole rows are used: a buffer shorter
/// than `width × height × 3` bytes is an image of fewer rows.
pub struct Canvas<'a> {
    /// The pixels.
    pub rgb: &'a mut [u8],
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl fmt::Debug for Canvas<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Canvas")
            .field("bytes", &self.rgb.len())
            .field("width", &self.width)
            .field("height", &self.height)
            .finish()
    }
}

/// One element to mark: its id (e.g. `e12`; ids are ASCII lowercase
/// letters, digits, `-`, `_`, `:` and `.`; uppercase letters draw as
/// lowercase, other characters as `?`) and its bounds in image pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// The element's id.
    pub id: String,
    /// Its bounds in image pixels.
    pub rect: Rect,
}

/// A mark as drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placed {
    /// The element's id.
    pub id: String,
    /// The box drawn: the element's bounds clipped to the image.
    pub bounds: Rect,
    /// The badge with the id, inside the image.
    pub label: Rect,
    /// The colour of the badge's fill and of the box.
    pub colour: [u8; 3],
}

/// What [`draw`] drew.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Drawn {
    /// The marks drawn, in the order given.
    pub placed: Vec<Placed>,
    /// Ids whose element is visible but whose label found no free place
    /// (neither box nor label is drawn).
    pub unplaced: Vec<String>,
    /// Ids skipped as not visible in the image (empty, or wholly outside).
    pub outside: Vec<String>,
}

/// The glyph factor at a device scale: each font pixel is a square of this
/// many image pixels a side. 2 at scale 1 (a 14-pixel-high text in an
/// 18-pixel badge), 4 at scale 2; `round(2 × scale)` in 1..=16 (scales
/// that are not positive and finite count as scale 1).
pub fn glyph_factor(scale: f64) -> u32 {
    u32::try_from(badge::factor_for_scale(scale)).unwrap_or(2)
}

/// The width and height in pixels of the badge of `id` at `scale`.
pub fn label_size(id: &str, scale: f64) -> (u32, u32) {
    let style = Style::for_scale(scale);
    let w = style.width(badge::text(id).chars().count());
    let size = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
    (size(w), size(style.height()))
}

/// Draws `marks` on `canvas` at `scale` (the image's device scale: 1.0
/// normal, 2.0 HiDPI; glyphs and strokes grow with it): each visible
/// element's box in its colour, then every label on top. Marks are placed
/// in the given order (earlier ones get the better spots).
pub fn draw(canvas: &mut Canvas<'_>, marks: &[Mark], scale: f64) -> Drawn {
    let style = Style::for_scale(scale);
    let mut surface = Surface::new(canvas.rgb, canvas.width, canvas.height);
    let image = surface.bounds();
    let mut drawn = Drawn::default();

    let mut visible: Vec<(&Mark, Item)> = Vec::with_capacity(marks.len());
    for mark in marks {
        let bounds = Area::of(&mark.rect).intersect(&image);
        if bounds.is_empty() {
            drawn.outside.push(mark.id.clone());
            continue;
        }
        let chars = badge::text(&mark.id).chars().count();
        let item = Item {
            bounds,
            w: style.width(chars),
            h: style.height(),
        };
        visible.push((mark, item));
    }

    let items: Vec<Item> = visible.iter().map(|(_, item)| *item).collect();
    let labels = place::place(&items, image);
    let mut shown: Vec<(&Mark, Area, Area)> = Vec::with_capacity(visible.len());
    for ((mark, item), label) in visible.iter().zip(labels) {
        match label {
            Some(label) => shown.push((mark, item.bounds, label)),
            None => drawn.unplaced.push(mark.id.clone()),
        }
    }

    let zones: Vec<[Area; 2]> = shown.iter().map(|&(_, b, l)| [b, l]).collect();
    let colours: Vec<[u8; 3]> = colour::assign(&zones, style.height())
        .into_iter()
        .map(|c| PALETTE[c % PALETTE.len()])
        .collect();
    for (&(_, bounds, _), &c) in shown.iter().zip(&colours) {
        surface.stroke(bounds, style.stroke, c);
    }
    for (&(mark, bounds, label), &c) in shown.iter().zip(&colours) {
        badge::paint(&mut surface, label, badge::text(&mark.id), c, &style);
        drawn.placed.push(Placed {
            id: mark.id.clone(),
            bounds: bounds.rect(),
            label: label.rect(),
            colour: c,
        });
    }
    drawn
}

/// The id written in the badge at `label` on `canvas` (a [`Placed::label`]),
/// when the badge is exactly as [`draw`] paints it; `None` otherwise.
pub fn read_label(canvas: &Canvas<'_>, label: Rect) -> Option<String> {
    read_label_rgb(canvas.rgb, canvas.width, canvas.height, label)
}

/// [`read_label`] on a plain RGB8 buffer (e.g. an image decoded from the
/// PNG of a drawn canvas).
pub fn read_label_rgb(rgb: &[u8], width: u32, height: u32, label: Rect) -> Option<String> {
    badge::read(&View::new(rgb, width, height), Area::of(&label))
}
