//! Where each label goes.
//!
//! Labels are placed one element at a time, in the given order, greedily.
//! A position is *allowed* when the label lies inside the image and
//! overlaps no label placed before (the hard rule). Among allowed
//! positions, the cost of one is how much it hides of the elements: the
//! share of each other element's box it covers, plus half the share of its
//! own element's box (covering its own text is bad, but the label then
//! still sits on what it names).
//!
//! 1. The fixed candidates, in order: above the box at its left edge,
//!    below at its left edge, right of it at its top, left of it at its
//!    top, above and below at its right edge, then inside it at each
//!    corner; each is shifted into the image when it sticks out. The first
//!    allowed one that hides nothing is taken at once.
//! 2. Otherwise, unless the cheapest allowed fixed candidate already costs
//!    no more than [`FAR_BASE`] (e.g. it only clips a large container),
//!    positions on a grid around the element (half a label height apart,
//!    out to two label heights from its box, aligned with its edges too)
//!    compete, nearest first, at a cost that grows with their distance
//!    from the box; the cheapest allowed position of all wins (fixed
//!    candidates keep a small preference in their order).
//! 3. When no position is allowed, the label is not placed.
//!
//! Each element only looks at labels and boxes within its reach, so the
//! work is about `n²` rectangle tests for `n` elements plus a few hundred
//! positions each in crowded places.

use super::geom::Area;

/// Weight of the share of the element's own box a label covers.
const OWN_WEIGHT: f64 = 0.5;
/// Cost added per rank of the fixed candidates.
const FIXED_STEP: f64 = 0.01;
/// Cost of leaving the fixed candidates for the grid around the element.
const FAR_BASE: f64 = 0.1;
/// Cost per label height of distance between the label and the box.
const FAR_PER_HEIGHT: f64 = 0.1;
/// How far from the box the grid reaches, in label heights.
const REACH_HEIGHTS: i64 = 2;
/// At most this many grid steps along each axis.
const MAX_STEPS: i64 = 40;

/// An element to label.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Item {
    /// Its box, inside the image.
    pub bounds: Area,
    /// Its label's width.
    pub w: i64,
    /// Its label's height.
    pub h: i64,
}

/// The labels for `items` inside `image`, `None` where none fits.
pub(crate) fn place(items: &[Item], image: Area) -> Vec<Option<Area>> {
    let mut out: Vec<Option<Area>> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let label = place_one(i, item, items, &out, image);
        out.push(label);
    }
    out
}

/// What one element's label must keep off: the labels already placed and
/// the boxes near it.
#[derive(Debug)]
struct Scene {
    labels: Vec<Area>,
    /// Other elements' boxes, each with the inverse of its area.
    boxes: Vec<(Area, f64)>,
    own: (Area, f64),
}

impl Scene {
    /// `true` when `a` overlaps no placed label.
    fn free(&self, a: &Area) -> bool {
        !self.labels.iter().any(|l| l.overlaps(a))
    }

    /// What `a` hides of the elements; stops counting at `limit`.
    fn cost(&self, a: &Area, limit: f64) -> f64 {
        let hides = |(b, inv): &(Area, f64)| inv * b.overlap(a) as f64;
        let mut c = OWN_WEIGHT * hides(&self.own);
        for b in &self.boxes {
            if c >= limit {
                break;
            }
            c += hides(b);
        }
        c
    }
}

/// The inverse of an area's size (0 for an empty one).
fn inverse(a: &Area) -> f64 {
    match a.area() {
        0 => 0.0,
        n => 1.0 / n as f64,
    }
}

/// Steps from `lo` to `hi` (both included) at least `step` apart and at
/// most [`MAX_STEPS`] of them, plus the `extra` values within the range;
/// sorted, without repeats.
fn steps(lo: i64, hi: i64, step: i64, extra: [i64; 4]) -> Vec<i64> {
    if lo > hi {
        return Vec::new();
    }
    let step = step.max((hi - lo) / MAX_STEPS).max(1);
    let mut v: Vec<i64> = std::iter::successors(Some(lo), |&x| Some(x + step))
        .take_while(|&x| x < hi)
        .chain(std::iter::once(hi))
        .chain(extra.into_iter().filter(|&x| lo <= x && x <= hi))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The label of `items[i]`, given the labels of the items before it.
fn place_one(
    i: usize,
    item: &Item,
    items: &[Item],
    placed: &[Option<Area>],
    image: Area,
) -> Option<Area> {
    let (lw, lh) = (item.w, item.h);
    if lw <= 0 || lh <= 0 || lw > image.w() || lh > image.h() {
        return None;
    }
    let b = item.bounds;
    let radius = REACH_HEIGHTS * lh;
    let reach = b.inflate(lw + radius, lh + radius);
    let scene = Scene {
        labels: placed
            .iter()
            .flatten()
            .filter(|l| l.overlaps(&reach))
            .copied()
            .collect(),
        boxes: items
            .iter()
            .enumerate()
            .filter(|&(j, o)| j != i && o.bounds.overlaps(&reach))
            .map(|(_, o)| (o.bounds, inverse(&o.bounds)))
            .collect(),
        own: (b, inverse(&b)),
    };
    let (xmax, ymax) = (image.x1 - lw, image.y1 - lh);
    let at = |x: i64, y: i64| Area::at(x.clamp(image.x0, xmax), y.clamp(image.y0, ymax), lw, lh);

    let fixed = [
        (b.x0, b.y0 - lh),
        (b.x0, b.y1),
        (b.x1, b.y0),
        (b.x0 - lw, b.y0),
        (b.x1 - lw, b.y0 - lh),
        (b.x1 - lw, b.y1),
        (b.x0, b.y0),
        (b.x1 - lw, b.y0),
        (b.x0, b.y1 - lh),
        (b.x1 - lw, b.y1 - lh),
    ];
    let mut best: Option<(f64, Area)> = None;
    for (rank, &(x, y)) in fixed.iter().enumerate() {
        let a = at(x, y);
        if !scene.free(&a) {
            continue;
        }
        // Counted in full: a candidate that hides nothing wins outright.
        let c = scene.cost(&a, f64::INFINITY);
        if c == 0.0 {
            return Some(a);
        }
        let total = c + FIXED_STEP * rank as f64;
        if best.is_none_or(|(prev, _)| total < prev) {
            best = Some((total, a));
        }
    }

    if best.is_some_and(|(c, _)| c <= FAR_BASE) {
        return best.map(|(_, a)| a);
    }
    let step = (lh / 2).max(1);
    let xs = steps(
        (b.x0 - lw - radius).max(image.x0),
        (b.x1 + radius).min(xmax),
        step,
        [b.x0, b.x1, b.x0 - lw, b.x1 - lw],
    );
    let ys = steps(
        (b.y0 - lh - radius).max(image.y0),
        (b.y1 + radius).min(ymax),
        step,
        [b.y0, b.y1, b.y0 - lh, b.y1 - lh],
    );
    let mut grid: Vec<(i64, Area)> = ys
        .iter()
        .flat_map(|&y| xs.iter().map(move |&x| Area::at(x, y, lw, lh)))
        .map(|a| (a.gap(&b), a))
        .collect();
    grid.sort_by_key(|&(gap, _)| gap);
    for (gap, a) in grid {
        let limit = best.map_or(f64::INFINITY, |(c, _)| c);
        let penalty = FAR_BASE + FAR_PER_HEIGHT * gap as f64 / lh as f64;
        if penalty >= limit {
            break;
        }
        if !scene.free(&a) {
            continue;
        }
        // `limit - penalty` is positive here, so a cut-short count is
        // never taken for a free spot.
        let c = scene.cost(&a, limit - penalty) + penalty;
        if c < limit {
            best = Some((c, a));
        }
    }
    best.map(|(_, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(x: i64, y: i64, w: i64, h: i64) -> Item {
        Item {
            bounds: Area::at(x, y, w, h),
            w: 38,
            h: 18,
        }
    }

    #[test]
    fn first_choice_is_above_the_top_left_corner() {
        let image = Area::at(0, 0, 400, 300);
        let got = place(&[item(100, 100, 80, 30)], image);
        assert_eq!(got, vec![Some(Area::at(100, 82, 38, 18))]);
    }

    #[test]
    fn at_the_top_edge_the_label_goes_below() {
        let image = Area::at(0, 0, 400, 300);
        let got = place(&[item(10, 0, 80, 30)], image);
        assert_eq!(got, vec![Some(Area::at(10, 30, 38, 18))]);
    }

    #[test]
    fn a_neighbour_above_is_not_covered() {
        // A button right above: the label goes below instead.
        let image = Area::at(0, 0, 400, 300);
        let got = place(&[item(100, 100, 80, 30), item(100, 70, 80, 30)], image);
        assert_eq!(got[0], Some(Area::at(100, 130, 38, 18)));
        let (first, second) = (got[0].expect("first"), got[1].expect("second"));
        assert!(!second.overlaps(&first));
    }

    #[test]
    fn a_list_item_between_others_takes_its_right_side() {
        // Items above and below, a big panel to the right: right of the
        // item hides only a sliver of the panel, better than hiding a
        // neighbour (or the item itself).
        let image = Area::at(0, 0, 760, 420);
        let items = [
            item(10, 100, 180, 22),
            item(10, 124, 180, 22),
            item(10, 148, 180, 22),
            item(220, 100, 500, 300),
        ];
        let got = place(&items, image);
        assert_eq!(got[1], Some(Area::at(190, 124, 38, 18)));
    }

    #[test]
    fn nothing_fits_in_a_tiny_image() {
        let image = Area::at(0, 0, 30, 30);
        assert_eq!(place(&[item(0, 0, 10, 10)], image), vec![None]);
    }

    #[test]
    fn steps_are_bounded_and_sorted() {
        let v = steps(0, 10_000, 9, [5, -1, 10_001, 10_000]);
        assert!(v.len() <= MAX_STEPS as usize + 3);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        assert_eq!((v[0], v[v.len() - 1]), (0, 10_000));
        assert!(v.contains(&5));
        assert!(steps(5, 4, 1, [0; 4]).is_empty());
    }
}
