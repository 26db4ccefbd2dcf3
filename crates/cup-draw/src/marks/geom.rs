//! Half-open rectangles by their edges, the working form of [`Rect`]
//! inside the module (edges subtract and compare without the `u64` sizes).

use cup_protocol::Rect;

/// A rectangle `[x0, x1) × [y0, y1)`; empty when `x1 <= x0` or `y1 <= y0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Area {
    pub x0: i64,
    pub y0: i64,
    pub x1: i64,
    pub y1: i64,
}

impl Area {
    /// The area of `rect` (edges saturate at the `i64` range).
    pub(crate) fn of(rect: &Rect) -> Area {
        Area {
            x0: rect.x,
            y0: rect.y,
            x1: rect.right(),
            y1: rect.bottom(),
        }
    }

    /// The area at `(x, y)` of size `w` × `h`.
    pub(crate) fn at(x: i64, y: i64, w: i64, h: i64) -> Area {
        Area {
            x0: x,
            y0: y,
            x1: x.saturating_add(w),
            y1: y.saturating_add(h),
        }
    }

    /// Back to a [`Rect`] (an empty area has zero size).
    pub(crate) fn rect(&self) -> Rect {
        Rect::new(
            self.x0,
            self.y0,
            u64::try_from(self.w()).unwrap_or(0),
            u64::try_from(self.h()).unwrap_or(0),
        )
    }

    /// Width (0 when empty).
    pub(crate) fn w(&self) -> i64 {
        self.x1.saturating_sub(self.x0).max(0)
    }

    /// Height (0 when empty).
    pub(crate) fn h(&self) -> i64 {
        self.y1.saturating_sub(self.y0).max(0)
    }

    /// `true` when no pixel is inside.
    pub(crate) fn is_empty(&self) -> bool {
        self.x1 <= self.x0 || self.y1 <= self.y0
    }

    /// Pixels inside.
    pub(crate) fn area(&self) -> i64 {
        self.w().saturating_mul(self.h())
    }

    /// The common part (possibly empty).
    pub(crate) fn intersect(&self, other: &Area) -> Area {
        Area {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        }
    }

    /// `true` when the two share a pixel (touching edges do not).
    pub(crate) fn overlaps(&self, other: &Area) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    /// Pixels shared by the two.
    pub(crate) fn overlap(&self, other: &Area) -> i64 {
        self.intersect(other).area()
    }

    /// `true` when `other` lies wholly inside.
    pub(crate) fn contains(&self, other: &Area) -> bool {
        other.x0 >= self.x0 && other.y0 >= self.y0 && other.x1 <= self.x1 && other.y1 <= self.y1
    }

    /// Grown by `dx` on the left and right, `dy` on top and bottom.
    pub(crate) fn inflate(&self, dx: i64, dy: i64) -> Area {
        Area {
            x0: self.x0.saturating_sub(dx),
            y0: self.y0.saturating_sub(dy),
            x1: self.x1.saturating_add(dx),
            y1: self.y1.saturating_add(dy),
        }
    }

    /// The empty space between the two along the farther axis (0 when they
    /// touch or overlap).
    pub(crate) fn gap(&self, other: &Area) -> i64 {
        let dx = (other.x0 - self.x1).max(self.x0 - other.x1).max(0);
        let dy = (other.y0 - self.y1).max(self.y0 - other.y1).max(0);
        dx.max(dy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_and_gap() {
        let a = Area::at(0, 0, 10, 10);
        assert!(a.overlaps(&Area::at(9, 9, 5, 5)));
        assert!(
            !a.overlaps(&Area::at(10, 0, 5, 5)),
            "touching is no overlap"
        );
        assert_eq!(a.overlap(&Area::at(5, 5, 10, 10)), 25);
        assert_eq!(a.gap(&Area::at(13, 2, 4, 4)), 3);
        assert_eq!(a.gap(&Area::at(12, 15, 4, 4)), 5);
        assert_eq!(a.gap(&Area::at(10, 10, 4, 4)), 0);
        assert!(a.contains(&Area::at(2, 2, 8, 8)));
        assert!(!a.contains(&Area::at(2, 2, 9, 8)));
        assert_eq!(Area::of(&a.rect()), a);
        let huge = Area::of(&Rect::new(-5, -5, u64::MAX, u64::MAX));
        assert_eq!(huge.intersect(&a), a);
    }
}
