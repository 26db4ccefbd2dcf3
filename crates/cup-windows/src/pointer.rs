//! Pointer gestures as `SendInput` mouse events in plain data: where (the
//! normalized virtual-desktop coordinates of [`crate::screen::normalize`])
//! and what (buttons incl. back/forward, wheel notches), with the pauses
//! between them.

use std::time::Duration;

use cup::{Button, Gesture};
use cup_protocol::Direction;

use crate::screen::normalize;

/// One mouse event's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MouseKind {
    /// Move only.
    Move,
    /// Left button down.
    LeftDown,
    /// Left button up.
    LeftUp,
    /// Right button down.
    RightDown,
    /// Right button up.
    RightUp,
    /// Middle button down.
    MiddleDown,
    /// Middle button up.
    MiddleUp,
    /// Back (X1) down.
    BackDown,
    /// Back (X1) up.
    BackUp,
    /// Forward (X2) down.
    ForwardDown,
    /// Forward (X2) up.
    ForwardUp,
    /// Vertical wheel (`WHEEL_DELTA` = 120 a notch; positive = away from
    /// the user, up).
    Wheel(i32),
    /// Horizontal wheel (positive = right).
    HWheel(i32),
}

/// One mouse event: where (normalized; `None` = where the pointer is),
/// what, and the pause after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MouseEvent {
    /// Normalized absolute position.
    pub at: Option<(i32, i32)>,
    /// What happens.
    pub kind: MouseKind,
    /// Pause after it.
    pub pause: Duration,
}

/// `WHEEL_DELTA`.
pub const WHEEL_DELTA: i32 = 120;

/// Down and up of a button.
pub fn button_kinds(b: Button) -> (MouseKind, MouseKind) {
    match b {
        Button::Left => (MouseKind::LeftDown, MouseKind::LeftUp),
        Button::Right => (MouseKind::RightDown, MouseKind::RightUp),
        Button::Middle => (MouseKind::MiddleDown, MouseKind::MiddleUp),
        Button::Back => (MouseKind::BackDown, MouseKind::BackUp),
        Button::Forward => (MouseKind::ForwardDown, MouseKind::ForwardUp),
    }
}

fn at(x: i64, y: i64, vs: [i32; 4]) -> Result<(i32, i32), String> {
    normalize(x, y, vs).ok_or_else(|| {
        format!(
            "the point {x},{y} is off the screen (the virtual desktop is {}x{} at {},{}); take a new snapshot for current coordinates",
            vs[2], vs[3], vs[0], vs[1]
        )
    })
}

fn ev(at: Option<(i32, i32)>, kind: MouseKind, pause_ms: u64) -> MouseEvent {
    MouseEvent {
        at,
        kind,
        pause: Duration::from_millis(pause_ms),
    }
}

/// The mouse events of a pointer gesture over the virtual desktop `vs`
/// (keyboard parts — held modifiers, text — are the caller's). The clicks
/// of one gesture come well within any double-click time.
pub fn mouse_events(g: &Gesture, vs: [i32; 4]) -> Result<Vec<MouseEvent>, String> {
    let mut out = Vec::new();
    match g {
        Gesture::Click {
            at: p,
            button,
            count,
            ..
        } => {
            let pos = at(p.x, p.y, vs)?;
            out.push(ev(Some(pos), MouseKind::Move, 15));
            let (down, up) = button_kinds(*button);
            for _ in 0..(*count).max(1) {
                out.push(ev(Some(pos), down, 10));
                out.push(ev(Some(pos), up, 30));
            }
        }
        Gesture::Down { at: p, button } => {
            let pos = p.map(|p| at(p.x, p.y, vs)).transpose()?;
            out.push(ev(pos, button_kinds(*button).0, 10));
        }
        Gesture::Up { at: p, button } => {
            let pos = p.map(|p| at(p.x, p.y, vs)).transpose()?;
            out.push(ev(pos, button_kinds(*button).1, 10));
        }
        Gesture::Move { to } => out.push(ev(Some(at(to.x, to.y, vs)?), MouseKind::Move, 0)),
        Gesture::Drag {
            path,
            button,
            duration,
            steps,
            ..
        } => {
            let (Some(first), Some(_)) = (path.first(), path.last()) else {
                return Err("a drag needs at least a start and an end point".into());
            };
            let (down, up) = button_kinds(*button);
            let start = at(first.x, first.y, vs)?;
            out.push(ev(Some(start), MouseKind::Move, 20));
            out.push(ev(Some(start), down, 50));
            let segments = path.len().saturating_sub(1).max(1);
            let per = steps.map_or(10, |s| s.max(1) as usize);
            let total = (segments * per).max(1);
            let pause = u64::try_from(duration.as_millis() / total as u128).unwrap_or(0);
            for p in cup::input::interpolate(path, per) {
                out.push(ev(Some(at(p.x, p.y, vs)?), MouseKind::Move, pause.max(5)));
            }
            out.push(ev(None, up, 20));
        }
        Gesture::Scroll {
            at: p,
            direction,
            amount,
            ..
        } => {
            let pos = p.map(|p| at(p.x, p.y, vs)).transpose()?;
            if let Some(pos) = pos {
                out.push(ev(Some(pos), MouseKind::Move, 15));
            }
            let n = i32::try_from((*amount).max(1)).unwrap_or(i32::MAX / WHEEL_DELTA);
            for _ in 0..n {
                let kind = match direction {
                    Direction::Up => MouseKind::Wheel(WHEEL_DELTA),
                    Direction::Down => MouseKind::Wheel(-WHEEL_DELTA),
                    Direction::Left => MouseKind::HWheel(-WHEEL_DELTA),
                    Direction::Right => MouseKind::HWheel(WHEEL_DELTA),
                };
                out.push(ev(None, kind, 15));
            }
        }
        Gesture::Type { .. } => {}
    }
    Ok(out)
}

/// Where a pointer gesture lands first (its events go to the window
/// there): a click's or press's point, a drag's start, a scroll's point;
/// `None` for text, a move (it clicks nothing) and the pointer where it is.
pub fn landing(g: &Gesture) -> Option<cup::Point> {
    match g {
        Gesture::Click { at, .. } => Some(*at),
        Gesture::Down { at, .. } | Gesture::Up { at, .. } | Gesture::Scroll { at, .. } => *at,
        Gesture::Drag { path, .. } => path.first().copied(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gesture_lands_where_it_first_touches() {
        use cup::Point;
        let p = Point::new(5, 6);
        let click = Gesture::Click {
            at: p,
            button: Button::Left,
            count: 1,
            modifiers: Vec::new(),
        };
        assert_eq!(landing(&click), Some(p));
        let drag = Gesture::Drag {
            path: vec![p, Point::new(9, 9)],
            button: Button::Left,
            duration: Duration::ZERO,
            steps: Some(2),
            modifiers: Vec::new(),
        };
        assert_eq!(landing(&drag), Some(p));
        assert_eq!(landing(&Gesture::Move { to: p }), None);
    }
    use crate::screen::denormalize;
    use cup::Point;

    const VS: [i32; 4] = [-1920, 0, 3840, 1080];

    #[test]
    fn a_double_click_on_the_left_monitor_lands_on_its_pixel() {
        let g = Gesture::Click {
            at: Point::new(-100, 50),
            button: Button::Left,
            count: 2,
            modifiers: vec![],
        };
        let e = mouse_events(&g, VS).expect("events");
        let kinds: Vec<MouseKind> = e.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [
                MouseKind::Move,
                MouseKind::LeftDown,
                MouseKind::LeftUp,
                MouseKind::LeftDown,
                MouseKind::LeftUp
            ]
        );
        for m in &e {
            let (dx, dy) = m.at.expect("absolute");
            assert_eq!(denormalize(dx, dy, VS), (-100, 50));
        }
    }

    #[test]
    fn back_and_forward_buttons_and_wheels() {
        let g = Gesture::Click {
            at: Point::new(10, 10),
            button: Button::Back,
            count: 1,
            modifiers: vec![],
        };
        let e = mouse_events(&g, VS).expect("events");
        assert_eq!(e[1].kind, MouseKind::BackDown);
        assert_eq!(e[2].kind, MouseKind::BackUp);
        let g = Gesture::Scroll {
            at: None,
            direction: Direction::Down,
            amount: 3,
            modifiers: vec![],
        };
        let e = mouse_events(&g, VS).expect("events");
        assert_eq!(
            e.iter().map(|e| e.kind).collect::<Vec<_>>(),
            vec![MouseKind::Wheel(-120); 3]
        );
        let g = Gesture::Scroll {
            at: Some(Point::new(0, 0)),
            direction: Direction::Left,
            amount: 1,
            modifiers: vec![],
        };
        assert_eq!(
            mouse_events(&g, VS).expect("events")[1].kind,
            MouseKind::HWheel(-120)
        );
    }

    #[test]
    fn a_drag_walks_its_path_and_ends_where_it_should() {
        let g = Gesture::Drag {
            path: vec![Point::new(0, 0), Point::new(100, 50)],
            button: Button::Left,
            duration: Duration::from_millis(200),
            steps: Some(4),
            modifiers: vec![],
        };
        let e = mouse_events(&g, VS).expect("events");
        assert_eq!(e[1].kind, MouseKind::LeftDown);
        let last_move = e[e.len() - 2].at.expect("absolute");
        assert_eq!(denormalize(last_move.0, last_move.1, VS), (100, 50));
        assert_eq!(e.last().map(|e| e.kind), Some(MouseKind::LeftUp));
    }

    #[test]
    fn points_off_screen_are_refused_with_advice() {
        let g = Gesture::Move {
            to: Point::new(1920, 0),
        };
        let err = mouse_events(&g, VS).expect_err("off screen");
        assert!(err.contains("take a new snapshot"), "{err}");
    }
}
