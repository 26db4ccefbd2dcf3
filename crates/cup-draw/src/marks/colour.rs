//! The marks' colours: a palette of saturated colours, the ink (black or
//! white) that reads best on each, and the choice of a colour per mark so
//! that marks near each other differ.

use super::geom::Area;

/// The badge and box colours, in the order they are tried. Each is either
/// dark enough for white text or light enough for black text (contrast
/// ratio ≥ 6 either way).
pub const PALETTE: [[u8; 3]; 12] = [
    [190, 0, 30],   // red
    [60, 180, 75],  // green
    [0, 70, 200],   // blue
    [245, 130, 48], // orange
    [145, 30, 180], // purple
    [70, 240, 240], // cyan
    [240, 50, 230], // magenta
    [210, 245, 60], // lime
    [0, 100, 100],  // teal
    [130, 70, 20],  // brown
    [255, 225, 25], // yellow
    [0, 0, 128],    // navy
];

/// Black.
const BLACK: [u8; 3] = [0, 0, 0];
/// White.
const WHITE: [u8; 3] = [255, 255, 255];

/// Relative luminance of an sRGB colour (WCAG 2), 0 to 1.
fn luminance(c: [u8; 3]) -> f64 {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// The contrast ratio of two colours (WCAG 2), 1 to 21.
pub(crate) fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Black or white, whichever contrasts more with `fill`.
pub(crate) fn ink_for(fill: [u8; 3]) -> [u8; 3] {
    if contrast(fill, BLACK) >= contrast(fill, WHITE) {
        BLACK
    } else {
        WHITE
    }
}

/// A palette index for each mark, given the areas it draws on (its box and
/// its label). Marks are taken in order; each avoids the colours of the
/// earlier marks whose areas come within `margin` of its own, and among
/// the colours its neighbours use least takes the first from its own
/// position in the palette on (so that far-apart marks vary too).
pub(crate) fn assign(zones: &[[Area; 2]], margin: i64) -> Vec<usize> {
    let n = PALETTE.len();
    let mut out: Vec<usize> = Vec::with_capacity(zones.len());
    for (i, zone) in zones.iter().enumerate() {
        let near: [Area; 2] = zone.map(|a| a.inflate(margin, margin));
        let mut used = [0usize; PALETTE.len()];
        for (other, &c) in zones.iter().zip(&out) {
            if near.iter().any(|a| other.iter().any(|b| a.overlaps(b))) {
                used[c] += 1;
            }
        }
        let best = (0..n)
            .map(|k| (i + k) % n)
            .min_by_key(|&c| used[c])
            .unwrap_or(0);
        out.push(best);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_colour_has_legible_ink() {
        for c in PALETTE {
            assert!(contrast(c, ink_for(c)) >= 6.0, "{c:?}");
        }
        assert_eq!(ink_for(WHITE), BLACK);
        assert_eq!(ink_for(BLACK), WHITE);
    }

    #[test]
    fn neighbours_differ() {
        // A row of 30 touching cells: every pair of adjacent cells differs,
        // and so does every pair within a few cells.
        let zones: Vec<[Area; 2]> = (0..30)
            .map(|i| {
                let a = Area::at(i * 20, 0, 20, 20);
                [a, a]
            })
            .collect();
        let colours = assign(&zones, 10);
        for w in colours.windows(3) {
            assert_ne!(w[0], w[1]);
            assert_ne!(w[0], w[2]);
        }
    }
}
