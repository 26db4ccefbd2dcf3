//! Pointer input through XTest: the real pointer moves, buttons click
//! (1–3 times), drag along a path, and the wheel scrolls (buttons 4–7),
//! with modifiers held around it.

use std::time::Duration;

use cup_protocol::{Direction, Modifier};

use super::held::Held;
use super::keyboard::modifier_key;
use super::link::Link;
use super::{Button, InputError, Point};

/// Pixels per drag step when no step count is given.
const AUTO_STEP_PX: f64 = 10.0;
/// Most motion events of one drag.
const MAX_STEPS: u32 = 2000;

/// The wheel button of a scroll direction: 4 up, 5 down, 6 left, 7 right.
pub fn scroll_button(direction: Direction) -> u8 {
    match direction {
        Direction::Up => 4,
        Direction::Down => 5,
        Direction::Left => 6,
        Direction::Right => 7,
    }
}

/// The points a drag moves through after its first point: `steps` motion
/// events (`None`: one per 10 px) spread over the path by length, at least
/// one per segment so every corner is visited, ending exactly on the last
/// point. Repeated points are skipped.
pub fn interpolate(path: &[Point], steps: Option<u32>) -> Vec<Point> {
    let segments: Vec<(Point, Point)> = path
        .windows(2)
        .filter_map(|w| match w {
            [a, b] if a != b => Some((*a, *b)),
            _ => None,
        })
        .collect();
    let length = |a: Point, b: Point| ((b.x - a.x) as f64).hypot((b.y - a.y) as f64);
    let total: f64 = segments.iter().map(|&(a, b)| length(a, b)).sum();
    if segments.is_empty() || total <= 0.0 {
        return Vec::new();
    }
    let steps = steps
        .unwrap_or_else(|| (total / AUTO_STEP_PX).ceil() as u32)
        .clamp(1, MAX_STEPS);
    let mut out = Vec::new();
    let mut last = segments[0].0;
    for (a, b) in segments {
        let share = (f64::from(steps) * length(a, b) / total).round().max(1.0) as u32;
        for k in 1..=share {
            let t = f64::from(k) / f64::from(share);
            let p = Point {
                x: a.x + ((b.x - a.x) as f64 * t).round() as i64,
                y: a.y + ((b.y - a.y) as f64 * t).round() as i64,
            };
            if p != last {
                out.push(p);
                last = p;
            }
        }
    }
    out
}

/// Presses `modifiers` (in order) on `held`.
fn hold_modifiers(held: &mut Held<'_>, modifiers: &[Modifier]) -> Result<(), InputError> {
    if modifiers.is_empty() {
        return Ok(());
    }
    let maps = held.link().maps()?;
    for &m in modifiers {
        let kc = modifier_key(&maps, m)?;
        held.key_down(kc)?;
    }
    Ok(())
}

/// Moves the pointer to `at`.
pub(crate) fn move_to(link: &mut Link, at: Point) -> Result<(), InputError> {
    let p = link.check_point(at)?;
    link.motion(p)?;
    link.sync()
}

/// Clicks `button` `count` times at `at` with `modifiers` held, `gap`
/// between the clicks of a multi-click.
pub(crate) fn click(
    link: &mut Link,
    at: Point,
    button: Button,
    count: u8,
    modifiers: &[Modifier],
    gap: Duration,
) -> Result<(), InputError> {
    if !(1..=3).contains(&count) {
        return Err(InputError::InvalidArgument(format!(
            "click count {count} is not 1, 2 or 3; give 1 (single), 2 (double) or 3 (triple click)"
        )));
    }
    let button = button.number()?;
    let p = link.check_point(at)?;
    let mut held = Held::new(link);
    held.link().motion(p)?;
    hold_modifiers(&mut held, modifiers)?;
    for i in 0..count {
        if i > 0 && !gap.is_zero() {
            held.link().flush()?;
            std::thread::sleep(gap);
        }
        held.button_down(button)?;
        held.button_up(button)?;
    }
    held.finish()
}

/// Presses or releases `button`, at `at` if given.
pub(crate) fn button(
    link: &mut Link,
    button: Button,
    at: Option<Point>,
    down: bool,
) -> Result<(), InputError> {
    let button = button.number()?;
    if let Some(at) = at {
        let p = link.check_point(at)?;
        link.motion(p)?;
    }
    link.button(button, down)?;
    link.sync()
}

/// Drags along `path` with `button` held (and `modifiers`), taking about
/// `duration` in total.
pub(crate) fn drag(
    link: &mut Link,
    path: &[Point],
    button: Button,
    duration: Duration,
    steps: Option<u32>,
    modifiers: &[Modifier],
) -> Result<(), InputError> {
    let button = button.number()?;
    let Some(&start) = path.first() else {
        return Err(InputError::InvalidArgument(
            "a drag needs at least one point; give the path as screen points".to_owned(),
        ));
    };
    for &p in path {
        link.check_point(p)?;
    }
    let moves = interpolate(path, steps);
    let pause = duration
        .checked_div(u32::try_from(moves.len()).unwrap_or(u32::MAX).max(1))
        .unwrap_or_default();
    let start = link.check_point(start)?;
    let mut held = Held::new(link);
    held.link().motion(start)?;
    hold_modifiers(&mut held, modifiers)?;
    held.button_down(button)?;
    for p in moves {
        if !pause.is_zero() {
            held.link().flush()?;
            std::thread::sleep(pause);
        }
        // Every interpolated point lies on a segment between checked points.
        let x = i16::try_from(p.x).unwrap_or(i16::MAX);
        let y = i16::try_from(p.y).unwrap_or(i16::MAX);
        held.link().motion((x, y))?;
    }
    held.button_up(button)?;
    held.finish()
}

/// Turns the wheel `amount` notches towards `direction`, at `at` if given,
/// with `modifiers` held.
pub(crate) fn scroll(
    link: &mut Link,
    at: Option<Point>,
    direction: Direction,
    amount: u32,
    modifiers: &[Modifier],
) -> Result<(), InputError> {
    if amount == 0 || amount > 1000 {
        return Err(InputError::InvalidArgument(format!(
            "scroll amount {amount} is not 1 to 1000; give the number of wheel notches"
        )));
    }
    let target = at.map(|p| link.check_point(p)).transpose()?;
    let mut held = Held::new(link);
    if let Some(p) = target {
        held.link().motion(p)?;
    }
    hold_modifiers(&mut held, modifiers)?;
    let button = scroll_button(direction);
    for _ in 0..amount {
        held.button_down(button)?;
        held.button_up(button)?;
    }
    held.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i64, y: i64) -> Point {
        Point { x, y }
    }

    #[test]
    fn wheel_buttons() {
        assert_eq!(scroll_button(Direction::Up), 4);
        assert_eq!(scroll_button(Direction::Down), 5);
        assert_eq!(scroll_button(Direction::Left), 6);
        assert_eq!(scroll_button(Direction::Right), 7);
    }

    #[test]
    fn straight_line_in_even_steps() {
        assert_eq!(
            interpolate(&[p(0, 0), p(100, 0)], Some(4)),
            vec![p(25, 0), p(50, 0), p(75, 0), p(100, 0)]
        );
        assert_eq!(interpolate(&[p(0, 0), p(10, 10)], Some(1)), vec![p(10, 10)]);
    }

    #[test]
    fn steps_follow_segment_length_and_visit_corners() {
        let path = [p(0, 0), p(90, 0), p(90, 10)];
        let out = interpolate(&path, Some(10));
        assert_eq!(out.len(), 10);
        assert!(out.contains(&p(90, 0)), "{out:?}");
        assert_eq!(out.last(), Some(&p(90, 10)));
        // Fewer steps than segments: still one per segment.
        let out = interpolate(&[p(0, 0), p(5, 0), p(5, 5), p(0, 5)], Some(1));
        assert_eq!(out, vec![p(5, 0), p(5, 5), p(0, 5)]);
    }

    #[test]
    fn automatic_steps_are_about_ten_pixels() {
        let out = interpolate(&[p(0, 0), p(0, 200)], None);
        assert_eq!(out.len(), 20);
        assert_eq!(out[0], p(0, 10));
        assert_eq!(out.last(), Some(&p(0, 200)));
        for w in out.windows(2) {
            assert!((w[1].y - w[0].y).abs() <= 11);
        }
    }

    #[test]
    fn degenerate_paths() {
        assert!(interpolate(&[], None).is_empty());
        assert!(interpolate(&[p(3, 3)], None).is_empty());
        assert!(interpolate(&[p(3, 3), p(3, 3)], Some(5)).is_empty());
        assert_eq!(
            interpolate(&[p(3, 3), p(3, 3), p(4, 3)], None),
            vec![p(4, 3)]
        );
        // Many steps on a short line do not repeat points.
        assert_eq!(
            interpolate(&[p(0, 0), p(2, 0)], Some(100)),
            vec![p(1, 0), p(2, 0)]
        );
        assert_eq!(
            interpolate(&[p(0, 0), p(5000, 0)], Some(u32::MAX)).len(),
            2000
        );
    }
}
