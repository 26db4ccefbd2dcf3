//! Pixel-level input: what the driver tools (click at x,y, drag, scroll,
//! type text) ask an adapter for. Coordinates are screen pixels (on the web:
//! the page viewport's pixels, the same space as the nodes' bounds). Like
//! element actions, every gesture reports the effect the adapter observed.

use std::fmt;
use std::time::Duration;

use cup_protocol::{Direction, Modifier};

/// A point in screen pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Point {
    /// Pixels from the left.
    pub x: i64,
    /// Pixels from the top.
    pub y: i64,
}

impl Point {
    /// The point `x`, `y`.
    pub const fn new(x: i64, y: i64) -> Point {
        Point { x, y }
    }
}

impl From<(i64, i64)> for Point {
    fn from((x, y): (i64, i64)) -> Point {
        Point { x, y }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// The points a drag along `path` moves through: `per` evenly spaced
/// points on each segment, each segment's end included (the start point
/// is not; the press happens there).
pub fn interpolate(path: &[Point], per: usize) -> Vec<Point> {
    let per = per.max(1);
    let mut out = Vec::with_capacity(path.len().saturating_sub(1) * per);
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        for i in 1..=per {
            let f = i as f64 / per as f64;
            out.push(Point::new(
                a.x + ((b.x - a.x) as f64 * f).round() as i64,
                a.y + ((b.y - a.y) as f64 * f).round() as i64,
            ));
        }
    }
    out
}

/// A pointer button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Button {
    /// The primary button.
    Left,
    /// The wheel button.
    Middle,
    /// The secondary button.
    Right,
    /// The "back" side button.
    Back,
    /// The "forward" side button.
    Forward,
}

impl Button {
    /// Every button.
    pub const ALL: [Button; 5] = [
        Button::Left,
        Button::Middle,
        Button::Right,
        Button::Back,
        Button::Forward,
    ];

    /// Its name (`left`, `middle`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Button::Left => "left",
            Button::Middle => "middle",
            Button::Right => "right",
            Button::Back => "back",
            Button::Forward => "forward",
        }
    }

    /// The button called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Button> {
        let name = name.trim();
        Button::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Button {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One input gesture.
#[derive(Debug, Clone, PartialEq)]
pub enum Gesture {
    /// Move to `at` and click `button` `count` times (1–3) with
    /// `modifiers` held.
    Click {
        /// Where.
        at: Point,
        /// Which button.
        button: Button,
        /// 1 (click), 2 (double) or 3 (triple).
        count: u8,
        /// Held during the click.
        modifiers: Vec<Modifier>,
    },
    /// Press `button` (at `at`, else where the pointer is) and keep it down.
    Down {
        /// Where (None: the pointer's position).
        at: Option<Point>,
        /// Which button.
        button: Button,
    },
    /// Release `button` (at `at`, else where the pointer is).
    Up {
        /// Where (None: the pointer's position).
        at: Option<Point>,
        /// Which button.
        button: Button,
    },
    /// Press at the first point, move through the path, release at the
    /// last one.
    Drag {
        /// At least two points.
        path: Vec<Point>,
        /// Which button.
        button: Button,
        /// How long the movement takes.
        duration: Duration,
        /// Motion events (None: about one per 10 px).
        steps: Option<u32>,
        /// Held during the drag.
        modifiers: Vec<Modifier>,
    },
    /// Move the real pointer.
    Move {
        /// Where.
        to: Point,
    },
    /// Turn the wheel `amount` notches (at `at`, else where the pointer is).
    Scroll {
        /// Where (None: the pointer's position).
        at: Option<Point>,
        /// Which way the content moves into view.
        direction: Direction,
        /// Notches (1–1000).
        amount: u32,
        /// Held during the scroll.
        modifiers: Vec<Modifier>,
    },
    /// Type `text` into the focused element: newlines as Return, tabs as
    /// Tab, any other Unicode character as itself; `delay` between
    /// characters (zero: as fast as the platform takes them).
    Type {
        /// The text.
        text: String,
        /// Pause between characters.
        delay: Duration,
    },
}

impl fmt::Display for Gesture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let held = |m: &[Modifier]| {
            if m.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = m.iter().map(|m| m.name()).collect();
                format!(" with {} held", names.join("+"))
            }
        };
        match self {
            Gesture::Click {
                at,
                button,
                count,
                modifiers,
            } => {
                let what = match count {
                    1 => "Clicked",
                    2 => "Double-clicked",
                    _ => "Triple-clicked",
                };
                let button = if *button == Button::Left {
                    String::new()
                } else {
                    format!(" ({button})")
                };
                write!(f, "{what} at {at}{button}{}", held(modifiers))
            }
            Gesture::Down { at, button } => match at {
                Some(at) => write!(f, "Pressed {button} at {at}"),
                None => write!(f, "Pressed {button}"),
            },
            Gesture::Up { at, button } => match at {
                Some(at) => write!(f, "Released {button} at {at}"),
                None => write!(f, "Released {button}"),
            },
            Gesture::Drag {
                path, modifiers, ..
            } => {
                let (Some(a), Some(b)) = (path.first(), path.last()) else {
                    return f.write_str("Dragged");
                };
                write!(f, "Dragged {a} -> {b}{}", held(modifiers))
            }
            Gesture::Move { to } => write!(f, "Moved the pointer to {to}"),
            Gesture::Scroll {
                at,
                direction,
                amount,
                modifiers,
            } => {
                let place = at.map(|p| format!(" at {p}")).unwrap_or_default();
                write!(f, "Scrolled {direction} {amount}{place}{}", held(modifiers))
            }
            Gesture::Type { text, .. } => {
                write!(f, "Typed {} character(s)", text.chars().count())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_by_name() {
        assert_eq!(Button::from_name(" Right "), Some(Button::Right));
        assert_eq!(Button::from_name("forward"), Some(Button::Forward));
        assert_eq!(Button::from_name("wheel"), None);
    }

    #[test]
    fn gestures_describe_themselves() {
        let g = Gesture::Click {
            at: Point::new(3, 4),
            button: Button::Right,
            count: 2,
            modifiers: vec![Modifier::Ctrl],
        };
        assert_eq!(
            g.to_string(),
            "Double-clicked at 3,4 (right) with ctrl held"
        );
        let d = Gesture::Drag {
            path: vec![Point::new(0, 0), Point::new(5, 5)],
            button: Button::Left,
            duration: Duration::ZERO,
            steps: None,
            modifiers: vec![],
        };
        assert_eq!(d.to_string(), "Dragged 0,0 -> 5,5");
    }
}
