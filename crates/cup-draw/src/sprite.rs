//! The pictures the overlay shows: the procedural arrow (gradient fill,
//! white rim, bloom halo), a cursor image fitted from a file's pixels, the
//! click ripple, and rotation about the hotspot. Pure pixel code: every
//! platform shows the same pixels.

use cup::visual::Sprite;

/// The arrow's outline in units (tip at the origin, pointing up and to the
/// left like a system pointer; 20 units tall).
const ARROW: [(f64, f64); 7] = [
    (0.0, 0.0),
    (0.0, 16.0),
    (4.2, 12.3),
    (7.0, 18.6),
    (9.7, 17.4),
    (6.9, 11.3),
    (12.0, 11.3),
];

/// Direction from the tail to the tip of the arrow at rest, radians.
pub fn arrow_axis() -> f64 {
    // From the middle of the tail (between the two tail points) to the tip.
    let tail = (
        (ARROW[3].0 + ARROW[4].0) / 2.0,
        (ARROW[3].1 + ARROW[4].1) / 2.0,
    );
    (-tail.1).atan2(-tail.0)
}

fn inside(poly: &[(f64, f64)], x: f64, y: f64) -> bool {
    let mut odd = false;
    let mut j = poly.len() - 1;
    for i in 0..poly.len() {
        let (xi, yi) = poly[i];
        let (xj, yj) = poly[j];
        if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
            odd = !odd;
        }
        j = i;
    }
    odd
}

fn edge_distance(poly: &[(f64, f64)], x: f64, y: f64) -> f64 {
    let mut best = f64::INFINITY;
    let mut j = poly.len() - 1;
    for i in 0..poly.len() {
        let (ax, ay) = poly[j];
        let (bx, by) = poly[i];
        let (dx, dy) = (bx - ax, by - ay);
        let len2 = dx * dx + dy * dy;
        let t = if len2 > 0.0 {
            (((x - ax) * dx + (y - ay) * dy) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        best = best.min((x - (ax + t * dx)).hypot(y - (ay + t * dy)));
        j = i;
    }
    best
}

fn mix(a: [u8; 3], b: [u8; 3], t: f64) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    let m = |x: u8, y: u8| (f64::from(x) * (1.0 - t) + f64::from(y) * t).round() as u8;
    [m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2])]
}

/// The colour at `t` (0 = tip, 1 = tail) of a gradient through `stops`.
pub fn gradient(stops: &[[u8; 3]], t: f64) -> [u8; 3] {
    match stops {
        [] => [255, 255, 255],
        [one] => *one,
        _ => {
            let span = (stops.len() - 1) as f64;
            let pos = t.clamp(0.0, 1.0) * span;
            let i = (pos.floor() as usize).min(stops.len() - 2);
            mix(stops[i], stops[i + 1], pos - i as f64)
        }
    }
}

/// Lays `top` (straight alpha) over `bottom`.
fn over(bottom: [u8; 4], top: [u8; 3], alpha: f64) -> [u8; 4] {
    let a = alpha.clamp(0.0, 1.0);
    let ba = f64::from(bottom[3]) / 255.0;
    let out_a = a + ba * (1.0 - a);
    if out_a <= 0.0 {
        return [0; 4];
    }
    let ch =
        |t: u8, b: u8| ((f64::from(t) * a + f64::from(b) * ba * (1.0 - a)) / out_a).round() as u8;
    [
        ch(top[0], bottom[0]),
        ch(top[1], bottom[1]),
        ch(top[2], bottom[2]),
        (out_a * 255.0).round() as u8,
    ]
}

/// The procedural arrow, `size` pixels tall: gradient from tip to tail,
/// a white rim, and a bloom halo (soft; a window that cannot blend shows
/// only its opaque part: rim and fill).
pub fn arrow(size: f64, stops: &[[u8; 3]], bloom: [u8; 3]) -> Sprite {
    let k = size / 20.0;
    let halo = 4.0 * k.max(1.0);
    let rim = 1.3 * k.max(1.0);
    let pad = (halo + 1.0).ceil();
    let poly: Vec<(f64, f64)> = ARROW
        .iter()
        .map(|&(x, y)| (x * k + pad, y * k + pad))
        .collect();
    let w = (12.0 * k + 2.0 * pad).ceil() as u32;
    let h = (18.6 * k + 2.0 * pad).ceil() as u32;
    let tip = (pad, pad);
    let axis = arrow_axis();
    let (ux, uy) = (-axis.cos(), -axis.sin());
    let length = 18.6 * k;
    let mut rgba = vec![0u8; (w * h * 4) as usize];
    const SS: usize = 4;
    for y in 0..h {
        for x in 0..w {
            // Coverage of the fill by 4x4 samples.
            let mut hits = 0usize;
            for sy in 0..SS {
                for sx in 0..SS {
                    let px = f64::from(x) + (sx as f64 + 0.5) / SS as f64;
                    let py = f64::from(y) + (sy as f64 + 0.5) / SS as f64;
                    if inside(&poly, px, py) {
                        hits += 1;
                    }
                }
            }
            let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            let d = if hits == SS * SS {
                0.0
            } else {
                edge_distance(&poly, cx, cy)
            };
            let cover = hits as f64 / (SS * SS) as f64;
            let mut px = [0u8; 4];
            if d < halo {
                px = over(px, bloom, 0.45 * (1.0 - d / halo));
            }
            // The rim: a band outside the fill, antialiased at its edge.
            let rim_a = (rim + 0.5 - d).clamp(0.0, 1.0);
            if rim_a > 0.0 {
                px = over(px, [255, 255, 255], rim_a);
            }
            if cover > 0.0 {
                let t = ((cx - tip.0) * ux + (cy - tip.1) * uy) / length;
                px = over(px, gradient(stops, t), cover);
            }
            let i = ((y * w + x) * 4) as usize;
            rgba[i..i + 4].copy_from_slice(&px);
        }
    }
    Sprite::new(w, h, rgba, tip.0 as i64, tip.1 as i64)
}

/// A ring of `radius` pixels and `thickness`, centred, in `colour` at
/// `alpha` (the click ripple, one frame).
pub fn ring(radius: f64, thickness: f64, colour: [u8; 3], alpha: f64) -> Sprite {
    let r_out = radius + thickness / 2.0;
    let half = (r_out + 1.0).ceil() as i64;
    let side = (2 * half + 1) as u32;
    let mut rgba = vec![0u8; (side * side * 4) as usize];
    for y in 0..side {
        for x in 0..side {
            let d = (f64::from(x) - half as f64).hypot(f64::from(y) - half as f64);
            let cover = (thickness / 2.0 + 0.5 - (d - radius).abs()).clamp(0.0, 1.0);
            if cover > 0.0 {
                let i = ((y * side + x) * 4) as usize;
                rgba[i..i + 3].copy_from_slice(&colour);
                rgba[i + 3] = (cover * alpha.clamp(0.0, 1.0) * 255.0).round() as u8;
            }
        }
    }
    Sprite::new(side, side, rgba, half, half)
}

/// `s` turned by `angle` radians (clockwise on screen) about its hotspot,
/// bilinear; the canvas grows to hold every corner.
pub fn rotate(s: &Sprite, angle: f64) -> Sprite {
    if angle.abs() < 1e-6 {
        return s.clone();
    }
    let (sin, cos) = angle.sin_cos();
    let (hx, hy) = (s.hot_x as f64, s.hot_y as f64);
    let corners = [
        (0.0, 0.0),
        (f64::from(s.width), 0.0),
        (0.0, f64::from(s.height)),
        (f64::from(s.width), f64::from(s.height)),
    ];
    let turned: Vec<(f64, f64)> = corners
        .iter()
        .map(|&(x, y)| {
            let (dx, dy) = (x - hx, y - hy);
            (dx * cos - dy * sin, dx * sin + dy * cos)
        })
        .collect();
    let min_x = turned
        .iter()
        .map(|p| p.0)
        .fold(f64::INFINITY, f64::min)
        .floor();
    let min_y = turned
        .iter()
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min)
        .floor();
    let max_x = turned
        .iter()
        .map(|p| p.0)
        .fold(f64::NEG_INFINITY, f64::max)
        .ceil();
    let max_y = turned
        .iter()
        .map(|p| p.1)
        .fold(f64::NEG_INFINITY, f64::max)
        .ceil();
    let (w, h) = ((max_x - min_x) as u32, (max_y - min_y) as u32);
    let mut rgba = vec![0u8; (w * h * 4) as usize];
    for y in 0..h {
        for x in 0..w {
            // The output pixel's centre, back into the source.
            let (ox, oy) = (f64::from(x) + 0.5 + min_x, f64::from(y) + 0.5 + min_y);
            let sx = ox * cos + oy * sin + hx - 0.5;
            let sy = -ox * sin + oy * cos + hy - 0.5;
            let (x0, y0) = (sx.floor(), sy.floor());
            let (fx, fy) = (sx - x0, sy - y0);
            let mut acc = [0.0f64; 4];
            for (dx, dy, wgt) in [
                (0, 0, (1.0 - fx) * (1.0 - fy)),
                (1, 0, fx * (1.0 - fy)),
                (0, 1, (1.0 - fx) * fy),
                (1, 1, fx * fy),
            ] {
                let p = s.pixel(x0 as i64 + dx, y0 as i64 + dy);
                let a = f64::from(p[3]) / 255.0 * wgt;
                acc[0] += f64::from(p[0]) * a;
                acc[1] += f64::from(p[1]) * a;
                acc[2] += f64::from(p[2]) * a;
                acc[3] += a;
            }
            if acc[3] > 0.0 {
                let i = ((y * w + x) * 4) as usize;
                for c in 0..3 {
                    rgba[i + c] = (acc[c] / acc[3]).round().clamp(0.0, 255.0) as u8;
                }
                rgba[i + 3] = (acc[3] * 255.0).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    Sprite::new(w, h, rgba, (-min_x) as i64, (-min_y) as i64)
}

/// `rgba` pixels of `w` × `h` scaled to fit `size` × `size` (aspect kept,
/// box-filtered when shrinking), hotspot in the middle.
pub fn fitted(rgba: &[u8], w: u32, h: u32, size: u32) -> Sprite {
    let scale = f64::from(size) / f64::from(w.max(h).max(1));
    let (ow, oh) = (
        ((f64::from(w) * scale).round() as u32).max(1),
        ((f64::from(h) * scale).round() as u32).max(1),
    );
    let mut out = vec![0u8; (ow * oh * 4) as usize];
    for y in 0..oh {
        for x in 0..ow {
            // Source box of this output pixel.
            let (x0, x1) = (f64::from(x) / scale, f64::from(x + 1) / scale);
            let (y0, y1) = (f64::from(y) / scale, f64::from(y + 1) / scale);
            let mut acc = [0.0f64; 4];
            let mut n = 0.0;
            let mut sy = y0.floor() as u32;
            while f64::from(sy) < y1 && sy < h {
                let mut sx = x0.floor() as u32;
                while f64::from(sx) < x1 && sx < w {
                    let i = ((sy * w + sx) * 4) as usize;
                    let a = f64::from(rgba[i + 3]) / 255.0;
                    for c in 0..3 {
                        acc[c] += f64::from(rgba[i + c]) * a;
                    }
                    acc[3] += a;
                    n += 1.0;
                    sx += 1;
                }
                sy += 1;
            }
            if n > 0.0 && acc[3] > 0.0 {
                let i = ((y * ow + x) * 4) as usize;
                for c in 0..3 {
                    out[i + c] = (acc[c] / acc[3]).round().clamp(0.0, 255.0) as u8;
                }
                out[i + 3] = (acc[3] / n * 255.0).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    Sprite::new(ow, oh, out, i64::from(ow / 2), i64::from(oh / 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arrow_has_its_tip_at_the_hotspot_and_its_gradient() {
        let s = arrow(20.0, &[[255, 0, 0], [0, 0, 255]], [0, 255, 0]);
        // Just inside the tip: reddish fill; near the tail: bluish.
        let near_tip = s.pixel(s.hot_x + 1, s.hot_y + 3);
        assert!(
            near_tip[3] > 200 && near_tip[0] > near_tip[2],
            "{near_tip:?}"
        );
        let near_tail = s.pixel(s.hot_x + 7, s.hot_y + 16);
        assert!(
            near_tail[3] > 200 && near_tail[2] > near_tail[0],
            "{near_tail:?}"
        );
        // The rim is white and opaque, left of the tip's edge.
        let rim = s.pixel(s.hot_x - 1, s.hot_y + 8);
        assert!(rim[3] > 200 && rim[0] > 240 && rim[1] > 240, "{rim:?}");
        // The halo is soft: below the window shape's threshold.
        let halo = s.pixel(s.hot_x - 4, s.hot_y + 8);
        assert!(halo[3] > 0 && halo[3] < 128, "{halo:?}");
        // Corners far from the arrow are clear.
        assert_eq!(s.pixel(i64::from(s.width) - 1, 0)[3], 0);
        assert!(!s.runs(128).is_empty());
    }

    #[test]
    fn rotation_keeps_the_hotspot_and_turns_the_picture() {
        let s = arrow(20.0, &[[255, 0, 0]], [0, 255, 0]);
        let quarter = rotate(&s, std::f64::consts::FRAC_PI_2);
        // A point below the tip turns to the left of it.
        let below = s.pixel(s.hot_x + 1, s.hot_y + 10);
        let turned = quarter.pixel(quarter.hot_x - 10, quarter.hot_y + 1);
        assert!(below[3] > 200 && turned[3] > 200, "{below:?} {turned:?}");
        assert_eq!(rotate(&s, 0.0), s);
        let full = rotate(&s, std::f64::consts::TAU);
        assert!(full.pixel(full.hot_x + 1, full.hot_y + 10)[3] > 200);
    }

    #[test]
    fn ring_fitting_runs_and_keys() {
        let r = ring(10.0, 3.0, [1, 2, 3], 1.0);
        assert_eq!(r.pixel(r.hot_x + 10, r.hot_y)[3], 255);
        assert_eq!(r.pixel(r.hot_x, r.hot_y)[3], 0);
        // A 4x2 opaque red picture fitted to 8: 8x4, hotspot in the middle.
        let f = fitted(&[255, 0, 0, 255].repeat(8), 4, 2, 8);
        assert_eq!((f.width, f.height, f.hot_x, f.hot_y), (8, 4, 4, 2));
        assert_eq!(f.pixel(7, 3), [255, 0, 0, 255]);
        // Shrinking averages: half transparent.
        let g = fitted(&[255, 0, 0, 255, 0, 0, 0, 0], 2, 1, 1);
        assert_eq!(g.pixel(0, 0)[3], 128);
        assert_eq!(g.runs(128), vec![(0, 0, 1)]);
        assert_ne!(
            ring(10.0, 3.0, [1, 2, 3], 1.0).key,
            ring(11.0, 3.0, [1, 2, 3], 1.0).key
        );
        assert_eq!(gradient(&[[0, 0, 0], [200, 100, 50]], 0.5), [100, 50, 25]);
    }
}
