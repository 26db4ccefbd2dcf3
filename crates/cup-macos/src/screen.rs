//! Points and pixels. AX and Core Graphics place everything in points of
//! one global space (origin at the main display's top left, y down); a
//! display shows each point as `scale` pixels (2 on Retina). cup's
//! envelopes are in pixels on every platform, so this module lays the
//! displays out in one pixel space, exactly and invertibly:
//!
//! - a display's pixel origin is its point origin times the largest scale
//!   of all displays (`S`), its pixel size its point size times its own
//!   scale. Point rectangles do not overlap, so neither do these; a display
//!   with a smaller scale than `S` leaves a gap after it, as mixed-DPI
//!   layouts do on Windows;
//! - a pixel inside a display is `origin·S + (point − origin)·scale`, so a
//!   screenshot of that display at its native resolution shows the pixel
//!   at exactly that offset from the display's pixel origin;
//! - a pixel goes back to the point under it (what CGEvents take) through
//!   the display whose pixel rectangle holds it.
//!
//! With one display (the common case, Retina or not) pixels are simply
//! points times its scale.

use cup::{Monitor, ScreenInfo};
use cup_protocol::Rect;

use crate::facts::{PointRect, ScreenFacts};

/// One display placed in the pixel space.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// `CGDirectDisplayID`.
    pub id: u32,
    /// Its rectangle in points.
    pub points: PointRect,
    /// Pixels per point.
    pub scale: f64,
    /// Its rectangle in pixels.
    pub pixels: Rect,
    /// The main display.
    pub main: bool,
}

/// The displays, placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Every display.
    pub displays: Vec<Placed>,
    /// The largest scale (`S`).
    pub spread: f64,
}

fn sane(scale: f64) -> f64 {
    if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    }
}

impl Layout {
    /// Places the displays of `f`; with none known, one 1× display at the
    /// origin (AX coordinates pass through as pixels).
    pub fn new(f: &ScreenFacts) -> Layout {
        let spread = f
            .displays
            .iter()
            .map(|d| sane(d.scale))
            .fold(1.0_f64, f64::max);
        let displays = f
            .displays
            .iter()
            .map(|d| {
                let scale = sane(d.scale);
                let p = d.bounds;
                Placed {
                    id: d.id,
                    points: p,
                    scale,
                    pixels: Rect::new(
                        (p.x * spread).round() as i64,
                        (p.y * spread).round() as i64,
                        (p.w * scale).round().max(0.0) as u64,
                        (p.h * scale).round().max(0.0) as u64,
                    ),
                    main: d.main,
                }
            })
            .collect();
        Layout { displays, spread }
    }

    /// The display showing point `(x, y)`; else the nearest one.
    fn display_at(&self, x: f64, y: f64) -> Option<&Placed> {
        self.displays
            .iter()
            .find(|d| d.points.contains(x, y))
            .or_else(|| {
                self.displays
                    .iter()
                    .min_by(|a, b| distance(&a.points, x, y).total_cmp(&distance(&b.points, x, y)))
            })
    }

    /// Point `(x, y)` in pixels, through the display showing it.
    pub fn to_pixel(&self, x: f64, y: f64) -> (f64, f64) {
        self.to_pixel_via(x, y, x, y)
    }

    /// A rectangle in points as whole pixels, through the display that
    /// shows its centre (an element spanning two displays is measured in
    /// the one that shows most of it).
    pub fn rect_to_pixels(&self, r: &PointRect) -> Option<Rect> {
        if r.is_empty() {
            return None;
        }
        let (cx, cy) = r.centre();
        let (x0, y0) = self.to_pixel_via(cx, cy, r.x, r.y);
        let scale = self.display_at(cx, cy).map_or(1.0, |d| d.scale);
        let x = x0.round();
        let y = y0.round();
        let w = (r.w * scale).round().max(1.0);
        let h = (r.h * scale).round().max(1.0);
        Some(Rect::new(x as i64, y as i64, w as u64, h as u64))
    }

    /// Point `(x, y)` in pixels through the display showing `(cx, cy)`.
    fn to_pixel_via(&self, cx: f64, cy: f64, x: f64, y: f64) -> (f64, f64) {
        match self.display_at(cx, cy) {
            Some(d) => (
                d.points.x * self.spread + (x - d.points.x) * d.scale,
                d.points.y * self.spread + (y - d.points.y) * d.scale,
            ),
            None => (x, y),
        }
    }

    /// The point under pixel `(x, y)` (where a CGEvent must go), or
    /// `None` when no display shows that pixel.
    pub fn to_point(&self, x: i64, y: i64) -> Option<(f64, f64)> {
        // The pixel's centre, so rounding back lands on it.
        let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
        self.displays
            .iter()
            .find(|d| {
                let r = d.pixels;
                x >= r.x && y >= r.y && x < r.x + r.w as i64 && y < r.y + r.h as i64
            })
            .map(|d| {
                (
                    d.points.x + (px - d.points.x * self.spread) / d.scale,
                    d.points.y + (py - d.points.y * self.spread) / d.scale,
                )
            })
    }

    /// An element is offscreen when its rectangle (points) overlaps no
    /// display.
    pub fn offscreen(&self, r: &PointRect) -> bool {
        !self.displays.is_empty() && !self.displays.iter().any(|d| d.points.overlaps(r))
    }

    /// The screen as cup reports it: the size of the pixel space all
    /// displays span (a display left of or above the main one has negative
    /// coordinates), the main display's scale, every display with its own.
    pub fn screen_info(&self) -> ScreenInfo {
        let monitors: Vec<Monitor> = self
            .displays
            .iter()
            .map(|d| Monitor {
                name: format!("display {}", d.id),
                rect: d.pixels,
                primary: d.main,
                scale: d.scale,
            })
            .collect();
        // The span of all displays; the main display's origin is in it.
        let (left, top, right, bottom) =
            self.displays
                .iter()
                .fold((0i64, 0i64, 0i64, 0i64), |(l, t, r, b), d| {
                    let p = d.pixels;
                    (
                        l.min(p.x),
                        t.min(p.y),
                        r.max(p.x + p.w as i64),
                        b.max(p.y + p.h as i64),
                    )
                });
        let scale = self
            .displays
            .iter()
            .find(|d| d.main)
            .or(self.displays.first())
            .map_or(1.0, |d| d.scale);
        ScreenInfo {
            width: (right - left).max(0),
            height: (bottom - top).max(0),
            scale,
            monitors,
        }
    }
}

fn distance(r: &PointRect, x: f64, y: f64) -> f64 {
    let dx = (r.x - x).max(0.0).max(x - (r.x + r.w));
    let dy = (r.y - y).max(0.0).max(y - (r.y + r.h));
    dx.hypot(dy)
}

/// Displays side by side at `y` = 0, each `(x, w, h, scale)` in points,
/// ids from 1, the first the main one (tests).
#[cfg(test)]
pub(crate) fn displays(list: &[(f64, f64, f64, f64)]) -> Layout {
    Layout::new(&ScreenFacts {
        displays: list
            .iter()
            .zip(1..)
            .map(|(&(x, w, h, scale), id)| crate::facts::DisplayFacts {
                id,
                bounds: PointRect { x, y: 0.0, w, h },
                scale,
                main: id == 1,
            })
            .collect(),
    })
}

/// One display of `w` × `h` points at `scale`, at the origin (tests).
#[cfg(test)]
pub(crate) fn one_display(w: f64, h: f64, scale: f64) -> Layout {
    displays(&[(0.0, w, h, scale)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::DisplayFacts;

    fn display(id: u32, x: f64, y: f64, w: f64, h: f64, scale: f64, main: bool) -> DisplayFacts {
        DisplayFacts {
            id,
            bounds: PointRect { x, y, w, h },
            scale,
            main,
        }
    }

    /// A 2× MacBook display (1512×982 points) as main, a 1× 1920×1080
    /// monitor to its left and a 2× 5K display (2560×1440 points) to its
    /// right.
    fn desk() -> Layout {
        Layout::new(&ScreenFacts {
            displays: vec![
                display(1, 0.0, 0.0, 1512.0, 982.0, 2.0, true),
                display(2, -1920.0, 0.0, 1920.0, 1080.0, 1.0, false),
                display(3, 1512.0, -200.0, 2560.0, 1440.0, 2.0, false),
            ],
        })
    }

    #[test]
    fn one_retina_display_is_points_times_two() {
        let l = Layout::new(&ScreenFacts {
            displays: vec![display(1, 0.0, 0.0, 1440.0, 900.0, 2.0, true)],
        });
        let r = PointRect {
            x: 10.5,
            y: 20.0,
            w: 100.0,
            h: 22.0,
        };
        assert_eq!(l.rect_to_pixels(&r), Some(Rect::new(21, 40, 200, 44)));
        let s = l.screen_info();
        assert_eq!((s.width, s.height, s.scale), (2880, 1800, 2.0));
        assert_eq!(l.to_point(21, 40), Some((10.75, 20.25)));
    }

    #[test]
    fn mixed_scales_do_not_overlap_and_round_trip() {
        let l = desk();
        let px: Vec<Rect> = l.displays.iter().map(|d| d.pixels).collect();
        assert_eq!(px[0], Rect::new(0, 0, 3024, 1964));
        // The 1× monitor: origin −1920·2, its own 1920 pixels wide.
        assert_eq!(px[1], Rect::new(-3840, 0, 1920, 1080));
        assert_eq!(px[2], Rect::new(3024, -400, 5120, 2880));
        for (i, a) in px.iter().enumerate() {
            for b in &px[i + 1..] {
                assert!(a.intersect(b).is_empty(), "{a:?} overlaps {b:?}");
            }
        }
        // Every pixel of every display goes back to a point that maps to
        // the same pixel.
        for d in &l.displays {
            let r = d.pixels;
            for (x, y) in [
                (r.x, r.y),
                (r.x + r.w as i64 - 1, r.y + r.h as i64 - 1),
                (r.x + 333, r.y + 77),
            ] {
                let (ptx, pty) = l.to_point(x, y).expect("a display shows it");
                let (bx, by) = l.to_pixel(ptx, pty);
                assert_eq!((bx.floor() as i64, by.floor() as i64), (x, y), "{d:?}");
            }
        }
        // The gap after the 1× monitor shows nothing.
        assert_eq!(l.to_point(-1000, 10), None);
        let s = l.screen_info();
        assert_eq!((s.width, s.height, s.scale), (11984, 2880, 2.0));
        assert_eq!(s.monitors.len(), 3);
        assert_eq!(s.monitors[1].scale, 1.0);
    }

    #[test]
    fn a_button_on_the_secondary_monitor_is_clicked_where_it_is() {
        let l = desk();
        // A 1× button at points (−1000, 500), 80×24.
        let b = PointRect {
            x: -1000.0,
            y: 500.0,
            w: 80.0,
            h: 24.0,
        };
        let r = l.rect_to_pixels(&b).expect("bounds");
        assert_eq!(r, Rect::new(-2920, 500, 80, 24));
        let (cx, cy) = (r.x + r.w as i64 / 2, r.y + r.h as i64 / 2);
        let (x, y) = l.to_point(cx, cy).expect("shown");
        assert!(b.contains(x, y), "({x}, {y}) is inside {b:?}");
        // And on the 5K display above the main one's top.
        let b = PointRect {
            x: 2000.0,
            y: -150.0,
            w: 40.0,
            h: 20.0,
        };
        let r = l.rect_to_pixels(&b).expect("bounds");
        assert_eq!(r, Rect::new(3024 + 976, -300, 80, 40));
        let (x, y) = l
            .to_point(r.x + r.w as i64 / 2, r.y + r.h as i64 / 2)
            .expect("shown");
        assert!(b.contains(x, y));
    }

    #[test]
    fn offscreen_is_judged_in_points() {
        let l = desk();
        let far = PointRect {
            x: 0.0,
            y: 5000.0,
            w: 10.0,
            h: 10.0,
        };
        assert!(l.offscreen(&far));
        let seen = PointRect {
            x: -10.0,
            y: 10.0,
            w: 20.0,
            h: 10.0,
        };
        assert!(!l.offscreen(&seen));
        assert_eq!(l.rect_to_pixels(&PointRect::default()), None);
    }
}
