//! How the agent cursor moves: the cubic Bézier between two points that the
//! motion knobs shape, the easing of time along it, and the spring that
//! settles the arrow's rotation on arrival (driver reference,
//! `set_agent_cursor_motion`).

use serde::{Deserialize, Serialize};

/// The motion knobs, with the driver reference's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Motion {
    /// Where the first control point sits along the line, in [0, 1].
    pub start_handle: f64,
    /// Where the second control point sits, measured from the end, in [0, 1].
    pub end_handle: f64,
    /// Perpendicular deflection as a fraction of the path length, in [0, 1].
    pub arc_size: f64,
    /// Asymmetry in [-1, 1]: positive bulges toward the destination.
    pub arc_flow: f64,
    /// Damping of the rotation's settle, in [0.3, 1] (1: no overshoot).
    pub spring: f64,
    /// Duration of one flight.
    pub glide_duration_ms: f64,
    /// Pause after the click ripple before the tool returns.
    pub dwell_after_click_ms: f64,
    /// How long the cursor stays after the last pointer action.
    pub idle_hide_ms: f64,
}

impl Default for Motion {
    fn default() -> Self {
        Motion {
            start_handle: 0.3,
            end_handle: 0.3,
            arc_size: 0.25,
            arc_flow: 0.0,
            spring: 0.72,
            glide_duration_ms: 750.0,
            dwell_after_click_ms: 400.0,
            idle_hide_ms: 3000.0,
        }
    }
}

/// Each knob: name, lowest and highest value.
pub const KNOBS: [(&str, f64, f64); 8] = [
    ("start_handle", 0.0, 1.0),
    ("end_handle", 0.0, 1.0),
    ("arc_size", 0.0, 1.0),
    ("arc_flow", -1.0, 1.0),
    ("spring", 0.3, 1.0),
    ("glide_duration_ms", 0.0, 10_000.0),
    ("dwell_after_click_ms", 0.0, 10_000.0),
    ("idle_hide_ms", 0.0, 3_600_000.0),
];

impl Motion {
    /// The knob `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<f64> {
        let mut copy = *self;
        copy.slot(name).map(|v| *v)
    }

    fn slot(&mut self, name: &str) -> Option<&mut f64> {
        Some(match name {
            "start_handle" => &mut self.start_handle,
            "end_handle" => &mut self.end_handle,
            "arc_size" => &mut self.arc_size,
            "arc_flow" => &mut self.arc_flow,
            "spring" => &mut self.spring,
            "glide_duration_ms" => &mut self.glide_duration_ms,
            "dwell_after_click_ms" => &mut self.dwell_after_click_ms,
            "idle_hide_ms" => &mut self.idle_hide_ms,
            _ => return None,
        })
    }

    /// Sets knob `name` to `value`, checked against its range; unchanged on
    /// error (the message names the knob, its range and the value).
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        let Some(&(_, lo, hi)) = KNOBS.iter().find(|(n, _, _)| *n == name) else {
            let names: Vec<&str> = KNOBS.iter().map(|k| k.0).collect();
            return Err(format!(
                "unknown motion knob {name:?}; knobs: {}",
                names.join(", ")
            ));
        };
        if !value.is_finite() || value < lo || value > hi {
            return Err(format!(
                "{name} must be a number from {lo} to {hi}, got {value}"
            ));
        }
        if let Some(slot) = self.slot(name) {
            *slot = value;
        }
        Ok(())
    }

    /// Every knob in range (a config file edited by hand may not be).
    pub fn check(&self) -> Result<(), String> {
        let mut copy = *self;
        for (name, _, _) in KNOBS {
            copy.set(name, self.get(name).unwrap_or(f64::NAN))?;
        }
        Ok(())
    }
}

/// A point with fractional pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pt {
    /// Pixels from the left.
    pub x: f64,
    /// Pixels from the top.
    pub y: f64,
}

impl Pt {
    /// The point (x, y).
    pub fn new(x: f64, y: f64) -> Pt {
        Pt { x, y }
    }

    fn add(self, o: Pt, k: f64) -> Pt {
        Pt::new(self.x + o.x * k, self.y + o.y * k)
    }

    /// Distance to `o`.
    pub fn dist(self, o: Pt) -> f64 {
        (self.x - o.x).hypot(self.y - o.y)
    }
}

/// The cubic Bézier of one flight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Path {
    /// Start, first control, second control, end.
    pub p: [Pt; 4],
}

impl Path {
    /// The flight from `from` to `to` shaped by `m`: the control points sit
    /// `start_handle` and `end_handle` of the way along the line, pushed
    /// sideways (to the left of the direction of travel, so a flight to the
    /// right arcs upwards) by `arc_size` of the length, the start's push
    /// scaled by `1 - arc_flow` and the end's by `1 + arc_flow`.
    pub fn new(from: Pt, to: Pt, m: &Motion) -> Path {
        let d = Pt::new(to.x - from.x, to.y - from.y);
        let len = d.x.hypot(d.y);
        let n = if len > 0.0 {
            Pt::new(d.y / len, -d.x / len)
        } else {
            Pt::new(0.0, 0.0)
        };
        let arc = m.arc_size * len;
        let p1 = from.add(d, m.start_handle).add(n, arc * (1.0 - m.arc_flow));
        let p2 = to.add(d, -m.end_handle).add(n, arc * (1.0 + m.arc_flow));
        Path {
            p: [from, p1, p2, to],
        }
    }

    /// The point at parameter `t` in [0, 1].
    pub fn at(&self, t: f64) -> Pt {
        let t = t.clamp(0.0, 1.0);
        let u = 1.0 - t;
        let [a, b, c, d] = self.p;
        let (k0, k1, k2, k3) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        Pt::new(
            k0 * a.x + k1 * b.x + k2 * c.x + k3 * d.x,
            k0 * a.y + k1 * b.y + k2 * c.y + k3 * d.y,
        )
    }

    /// Direction of travel at `t`, in radians (0: to the right, clockwise
    /// positive as screen y grows downwards); `None` where the path has no
    /// direction (a flight of zero length).
    pub fn heading(&self, t: f64) -> Option<f64> {
        let t = t.clamp(0.0, 1.0);
        let u = 1.0 - t;
        let [a, b, c, d] = self.p;
        let dx = 3.0 * u * u * (b.x - a.x) + 6.0 * u * t * (c.x - b.x) + 3.0 * t * t * (d.x - c.x);
        let dy = 3.0 * u * u * (b.y - a.y) + 6.0 * u * t * (c.y - b.y) + 3.0 * t * t * (d.y - c.y);
        (dx.hypot(dy) > 1e-9).then(|| dy.atan2(dx))
    }

    /// The nearest point of the path to `q`: (parameter, distance), by
    /// sampling (tests and checks, not drawing).
    pub fn nearest(&self, q: Pt) -> (f64, f64) {
        let mut best = (0.0, f64::INFINITY);
        for i in 0..=2000 {
            let t = f64::from(i) / 2000.0;
            let d = self.at(t).dist(q);
            if d < best.1 {
                best = (t, d);
            }
        }
        best
    }
}

/// Time along a flight: `s` (elapsed / duration, in [0, 1]) to the path
/// parameter, easing in and out (cubic), so the cursor leaves and arrives
/// gently.
pub fn ease(s: f64) -> f64 {
    let s = s.clamp(0.0, 1.0);
    if s < 0.5 {
        4.0 * s * s * s
    } else {
        1.0 - (-2.0 * s + 2.0).powi(3) / 2.0
    }
}

/// The arrow's rotation, a damped spring toward a target angle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spring {
    /// Current angle, radians.
    pub angle: f64,
    /// Angular velocity, radians per second.
    pub velocity: f64,
}

/// Natural frequency of the rotation spring, radians per second (about 3
/// turns of oscillation a second when underdamped).
const SPRING_OMEGA: f64 = 18.0;

impl Spring {
    /// Advances by `dt` seconds toward `target` with damping ratio `damping`
    /// (1: critically damped), in small steps so a long frame stays stable.
    pub fn step(&mut self, target: f64, damping: f64, dt: f64) {
        let mut left = dt.max(0.0);
        while left > 0.0 {
            let h = left.min(0.004);
            // The shortest way round to the target.
            let mut err = self.angle - target;
            err = (err + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
                - std::f64::consts::PI;
            let acc =
                -SPRING_OMEGA * SPRING_OMEGA * err - 2.0 * damping * SPRING_OMEGA * self.velocity;
            self.velocity += acc * h;
            self.angle += self.velocity * h;
            left -= h;
        }
    }

    /// Whether it has come to rest at `target`.
    pub fn settled(&self, target: f64) -> bool {
        let err = (self.angle - target + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
            - std::f64::consts::PI;
        err.abs() < 0.01 && self.velocity.abs() < 0.05
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_runs_from_start_to_end_and_arcs_left_of_travel() {
        let m = Motion::default();
        let p = Path::new(Pt::new(100.0, 500.0), Pt::new(500.0, 500.0), &m);
        assert_eq!(p.at(0.0), Pt::new(100.0, 500.0));
        assert_eq!(p.at(1.0), Pt::new(500.0, 500.0));
        // A flight to the right bows upwards: 3/4 of arc_size * length at
        // the middle when symmetric.
        let mid = p.at(0.5);
        assert!(
            (mid.y - (500.0 - 0.75 * 0.25 * 400.0)).abs() < 1e-9,
            "{mid:?}"
        );
        assert!((mid.x - 300.0).abs() < 1e-9);
        // No arc: a straight line.
        let flat = Motion { arc_size: 0.0, ..m };
        let s = Path::new(Pt::new(0.0, 0.0), Pt::new(0.0, 300.0), &flat);
        for i in 0..=10 {
            assert!(s.at(f64::from(i) / 10.0).x.abs() < 1e-9);
        }
    }

    #[test]
    fn arc_flow_moves_the_bulge_toward_the_destination() {
        let m = Motion {
            arc_flow: 0.8,
            ..Motion::default()
        };
        let p = Path::new(Pt::new(0.0, 0.0), Pt::new(400.0, 0.0), &m);
        // The highest point (smallest y) lies past the middle.
        let top = (0..=100)
            .map(|i| p.at(f64::from(i) / 100.0))
            .min_by(|a, b| a.y.total_cmp(&b.y))
            .map(|q| q.x)
            .unwrap_or_default();
        assert!(top > 220.0, "{top}");
        let back = Path::new(
            Pt::new(0.0, 0.0),
            Pt::new(400.0, 0.0),
            &Motion {
                arc_flow: -0.8,
                ..m
            },
        );
        let top = (0..=100)
            .map(|i| back.at(f64::from(i) / 100.0))
            .min_by(|a, b| a.y.total_cmp(&b.y))
            .map(|q| q.x)
            .unwrap_or_default();
        assert!(top < 180.0, "{top}");
    }

    #[test]
    fn heading_and_nearest() {
        let p = Path::new(Pt::new(0.0, 0.0), Pt::new(100.0, 0.0), &Motion::default());
        // Leaving up and to the right, arriving down and to the right.
        let h0 = p.heading(0.0).unwrap_or_default();
        let h1 = p.heading(1.0).unwrap_or_default();
        assert!(h0 < 0.0 && h0 > -std::f64::consts::FRAC_PI_2, "{h0}");
        assert!(h1 > 0.0 && h1 < std::f64::consts::FRAC_PI_2, "{h1}");
        assert_eq!(
            Path::new(Pt::new(5.0, 5.0), Pt::new(5.0, 5.0), &Motion::default()).heading(0.3),
            None
        );
        let q = p.at(0.37);
        let (t, d) = p.nearest(q);
        assert!((t - 0.37).abs() < 0.01 && d < 0.1, "{t} {d}");
    }

    #[test]
    fn easing_is_monotonic_and_symmetric() {
        assert_eq!(ease(0.0), 0.0);
        assert_eq!(ease(1.0), 1.0);
        assert!((ease(0.5) - 0.5).abs() < 1e-12);
        let mut last = 0.0;
        for i in 1..=100 {
            let v = ease(f64::from(i) / 100.0);
            assert!(v >= last);
            last = v;
        }
        assert!((ease(0.2) + ease(0.8) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_spring_settles_and_low_damping_overshoots() {
        let run = |damping: f64| {
            let mut s = Spring {
                angle: 1.0,
                velocity: 0.0,
            };
            let mut lowest = f64::INFINITY;
            for _ in 0..120 {
                s.step(0.0, damping, 1.0 / 60.0);
                lowest = lowest.min(s.angle);
            }
            (s, lowest)
        };
        let (stiff, low) = run(1.0);
        assert!(stiff.settled(0.0), "{stiff:?}");
        assert!(low > -0.01, "critically damped overshot to {low}");
        let (_, low) = run(0.3);
        assert!(low < -0.2, "a bouncy spring overshoots: {low}");
        // The shortest way round: from just below +pi to -pi is a small step.
        let mut s = Spring {
            angle: 3.1,
            velocity: 0.0,
        };
        s.step(-3.1, 1.0, 1.0);
        assert!(s.settled(-3.1) || s.settled(3.1 - std::f64::consts::TAU + 0.0));
    }

    #[test]
    fn knobs_are_checked() {
        let mut m = Motion::default();
        assert!(m.set("spring", 0.2).is_err());
        assert!(m.set("arc_flow", 1.5).is_err());
        assert!(m.set("glide_duration_ms", f64::NAN).is_err());
        let e = m.set("speed", 1.0).err().unwrap_or_default();
        assert!(
            e.contains("unknown motion knob") && e.contains("arc_size"),
            "{e}"
        );
        assert_eq!(m, Motion::default());
        m.set("arc_size", 0.5).ok();
        assert_eq!(m.arc_size, 0.5);
        assert!(m.check().is_ok());
        m.spring = 7.0;
        assert!(m.check().is_err());
    }
}
