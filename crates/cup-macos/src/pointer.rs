//! Pointer gestures as Core Graphics mouse events in plain data: where
//! (global points, converted from cup's screen pixels through the display
//! that shows each pixel), what (buttons with their click state, drags,
//! wheel lines) and the pauses between them. The OS layer only creates and
//! posts them.

use std::time::Duration;

use cup::{Button, Gesture, Point};
use cup_protocol::Direction;

use crate::screen::Layout;

/// One mouse event's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MouseKind {
    /// `kCGEventMouseMoved`.
    Move,
    /// A button down (`kCGEventLeftMouseDown`, right, other).
    Down(Button),
    /// A button up.
    Up(Button),
    /// A move with a button held (`kCGEventLeftMouseDragged`, ...).
    Dragged(Button),
    /// `kCGEventScrollWheel` in pixels ([`PIXELS_PER_NOTCH`] a notch):
    /// vertical (positive: the content moves down, showing what is above)
    /// and horizontal (positive: left). Pixel units, as AppKit and Safari
    /// take synthetic line units as tiny or no movement.
    Wheel {
        /// Vertical pixels.
        dy: i32,
        /// Horizontal pixels.
        dx: i32,
    },
}

/// Pixels one wheel notch scrolls (the reference SDK uses 80, cua pixel
/// units too): about three lines of text.
pub const PIXELS_PER_NOTCH: i32 = 60;

/// One mouse event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MouseEvent {
    /// Global points.
    pub at: (f64, f64),
    /// What happens.
    pub kind: MouseKind,
    /// `kCGMouseEventClickState` (1 single, 2 double, 3 triple).
    pub clicks: i64,
    /// Pause after it.
    pub pause: Duration,
}

/// `CGMouseButton`/`kCGMouseEventButtonNumber` of a button (0 left,
/// 1 right, 2 middle, 3 back, 4 forward).
pub fn button_number(b: Button) -> i64 {
    match b {
        Button::Left => 0,
        Button::Right => 1,
        Button::Middle => 2,
        Button::Back => 3,
        Button::Forward => 4,
    }
}

/// The global point of pixel `p`.
///
/// # Errors
///
/// When no display shows it.
pub fn point(layout: &Layout, p: Point) -> Result<(f64, f64), String> {
    layout.to_point(p.x, p.y).ok_or_else(|| {
        format!(
            "the point {p} is on no display; take a new snapshot (or get_screen_size) for current coordinates"
        )
    })
}

fn ev(at: (f64, f64), kind: MouseKind, clicks: i64, pause_ms: u64) -> MouseEvent {
    MouseEvent {
        at,
        kind,
        clicks,
        pause: Duration::from_millis(pause_ms),
    }
}

/// The button-ups that release what `sent` (the mouse events posted so
/// far) left down, where the pointer last was: posted when a gesture stops
/// part-way, so no button stays held system-wide (a drag cut short).
pub fn release_after(sent: &[MouseEvent]) -> Vec<MouseEvent> {
    let mut down: Vec<Button> = Vec::new();
    let mut at = (0.0, 0.0);
    for m in sent {
        at = m.at;
        match m.kind {
            MouseKind::Down(b) => down.push(b),
            MouseKind::Up(b) => down.retain(|d| *d != b),
            _ => {}
        }
    }
    down.iter()
        .rev()
        .map(|&b| ev(at, MouseKind::Up(b), 1, 0))
        .collect()
}

/// A click of `button` `count` times (1–3) at `pos` (points): a move
/// there, then down/up pairs about 80 ms apart with rising click states.
pub fn click(pos: (f64, f64), button: Button, count: u8) -> Vec<MouseEvent> {
    let mut out = vec![ev(pos, MouseKind::Move, 0, 15)];
    for n in 1..=i64::from(count.clamp(1, 3)) {
        out.push(ev(pos, MouseKind::Down(button), n, 10));
        out.push(ev(pos, MouseKind::Up(button), n, 70));
    }
    out
}

/// The left button held at `pos` for `held` (a long press).
pub fn hold(pos: (f64, f64), held: Duration) -> Vec<MouseEvent> {
    let mut down = ev(pos, MouseKind::Down(Button::Left), 1, 0);
    down.pause = held;
    vec![
        ev(pos, MouseKind::Move, 0, 15),
        down,
        ev(pos, MouseKind::Up(Button::Left), 1, 20),
    ]
}

/// `notches` wheel notches ([`PIXELS_PER_NOTCH`] pixels each) at `pos`
/// that bring content from `direction`
/// into view.
pub fn wheel(pos: (f64, f64), direction: Direction, notches: u32) -> Vec<MouseEvent> {
    let (dy, dx) = match direction {
        Direction::Up => (1, 0),
        Direction::Down => (-1, 0),
        Direction::Left => (0, 1),
        Direction::Right => (0, -1),
    };
    let (dy, dx) = (dy * PIXELS_PER_NOTCH, dx * PIXELS_PER_NOTCH);
    (0..notches.clamp(1, 1000))
        .map(|_| ev(pos, MouseKind::Wheel { dy, dx }, 0, 10))
        .collect()
}

/// The mouse events of a pointer gesture (keyboard parts — held
/// modifiers, text — are the caller's). `pointer` is where the pointer is
/// (points), for gestures that name no place. The clicks of one gesture
/// come about 80 ms apart, well within any double-click time, with rising
/// click states so apps see a double or triple click.
///
/// # Errors
///
/// A point on no display, a drag without two points.
pub fn mouse_events(
    g: &Gesture,
    layout: &Layout,
    pointer: (f64, f64),
) -> Result<Vec<MouseEvent>, String> {
    let mut out = Vec::new();
    let at = |p: Option<Point>| p.map_or(Ok(pointer), |p| point(layout, p));
    match g {
        Gesture::Click {
            at: p,
            button,
            count,
            ..
        } => {
            out = click(point(layout, *p)?, *button, *count);
        }
        Gesture::Down { at: p, button } => {
            out.push(ev(at(*p)?, MouseKind::Down(*button), 1, 10));
        }
        Gesture::Up { at: p, button } => {
            out.push(ev(at(*p)?, MouseKind::Up(*button), 1, 10));
        }
        Gesture::Move { to } => out.push(ev(point(layout, *to)?, MouseKind::Move, 0, 0)),
        Gesture::Drag {
            path,
            button,
            duration,
            steps,
            ..
        } => {
            let [first, .., last] = path.as_slice() else {
                return Err("a drag needs at least a start and an end point".into());
            };
            let start = point(layout, *first)?;
            out.push(ev(start, MouseKind::Move, 0, 20));
            out.push(ev(start, MouseKind::Down(*button), 1, 50));
            let per = steps.map_or(10, |s| s.max(1) as usize);
            let moves = cup::input::interpolate(path, per);
            let pause = u64::try_from(duration.as_millis() / moves.len().max(1) as u128)
                .unwrap_or(0)
                .max(5);
            for p in moves {
                out.push(ev(point(layout, p)?, MouseKind::Dragged(*button), 1, pause));
            }
            out.push(ev(point(layout, *last)?, MouseKind::Up(*button), 1, 20));
        }
        Gesture::Scroll {
            at: p,
            direction,
            amount,
            ..
        } => {
            let pos = at(*p)?;
            if p.is_some() {
                out.push(ev(pos, MouseKind::Move, 0, 15));
            }
            out.extend(wheel(pos, *direction, *amount));
        }
        Gesture::Type { .. } => {}
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_left_down_are_released_where_the_pointer_was() {
        let events = click((5.0, 6.0), Button::Left, 1);
        let downs = events
            .iter()
            .position(|m| matches!(m.kind, MouseKind::Down(_)))
            .expect("a down");
        let up = release_after(&events[..=downs]);
        assert_eq!(up.len(), 1);
        assert_eq!(
            (up[0].kind, up[0].at),
            (MouseKind::Up(Button::Left), (5.0, 6.0))
        );
        assert!(release_after(&events).is_empty());
    }

    /// A 2x main display and a 1x display left of it.
    fn layout() -> Layout {
        crate::screen::displays(&[(0.0, 1512.0, 982.0, 2.0), (-1920.0, 1920.0, 1080.0, 1.0)])
    }

    #[test]
    fn a_double_click_has_rising_click_states_at_one_point() {
        let l = layout();
        let g = Gesture::Click {
            at: Point::new(200, 100),
            button: Button::Left,
            count: 2,
            modifiers: vec![],
        };
        let e = mouse_events(&g, &l, (0.0, 0.0)).expect("events");
        let kinds: Vec<(MouseKind, i64)> = e.iter().map(|e| (e.kind, e.clicks)).collect();
        assert_eq!(
            kinds,
            [
                (MouseKind::Move, 0),
                (MouseKind::Down(Button::Left), 1),
                (MouseKind::Up(Button::Left), 1),
                (MouseKind::Down(Button::Left), 2),
                (MouseKind::Up(Button::Left), 2),
            ]
        );
        // Pixel 200,100 on the 2x display is the point 100.25,50.25.
        for m in &e {
            assert_eq!(m.at, (100.25, 50.25));
        }
    }

    #[test]
    fn drags_wheels_and_buttons() {
        let l = layout();
        let g = Gesture::Drag {
            path: vec![Point::new(0, 0), Point::new(100, 50)],
            button: Button::Right,
            duration: Duration::from_millis(200),
            steps: Some(4),
            modifiers: vec![],
        };
        let e = mouse_events(&g, &l, (0.0, 0.0)).expect("events");
        assert_eq!(e[1].kind, MouseKind::Down(Button::Right));
        assert_eq!(e.len(), 2 + 4 + 1);
        assert!(e[2..6]
            .iter()
            .all(|m| m.kind == MouseKind::Dragged(Button::Right)));
        assert_eq!(e[6].kind, MouseKind::Up(Button::Right));
        assert_eq!(e[6].at, (50.25, 25.25));
        let g = Gesture::Scroll {
            at: None,
            direction: Direction::Down,
            amount: 3,
            modifiers: vec![],
        };
        let e = mouse_events(&g, &l, (7.0, 8.0)).expect("events");
        assert_eq!(e.len(), 3);
        assert!(e.iter().all(|m| m.kind
            == MouseKind::Wheel {
                dy: -PIXELS_PER_NOTCH,
                dx: 0
            }
            && m.at == (7.0, 8.0)));
        // The 1x display left of the main one starts at pixel -3840 (its
        // origin times the largest scale); a pixel there is a point.
        let g = Gesture::Move {
            to: Point::new(-3800, 10),
        };
        assert_eq!(
            mouse_events(&g, &l, (0.0, 0.0)).expect("move")[0].at,
            (-1879.5, 10.5)
        );
        // Between the two displays' pixels there is no display.
        let gap = Gesture::Move {
            to: Point::new(-1900, 10),
        };
        assert!(mouse_events(&gap, &l, (0.0, 0.0)).is_err());
        assert_eq!(button_number(Button::Forward), 4);
    }

    #[test]
    fn points_on_no_display_are_refused_with_advice() {
        let g = Gesture::Move {
            to: Point::new(5000, 5000),
        };
        let err = mouse_events(&g, &layout(), (0.0, 0.0)).expect_err("off screen");
        assert!(err.contains("take a new snapshot"), "{err}");
    }
}
