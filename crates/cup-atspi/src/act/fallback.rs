//! The pointer and keyboard, for verbs AT-SPI cannot do on an element:
//! the element is scrolled into view first, then the pointer acts at its
//! centre (screen coordinates).

use std::time::Duration;

use cup::{AdapterError, Direction};
use cup_protocol::keys::Combo;
use cup_protocol::Rect;

pub use cup_linux_display::device::InputOps;

use super::events::EventLog;
use super::verbs::Element;
use crate::atspi_actions as act;
use crate::atspi_calls as calls;

/// How long `longpress` holds the button.
pub const LONG_PRESS: Duration = Duration::from_millis(800);

/// The input device plus what is needed to find an element on screen.
#[derive(Debug)]
pub struct Fallback<'a> {
    /// The device, when the display offers synthetic input.
    pub input: Option<&'a dyn InputOps>,
    /// Added to the element's extents (GTK4 reports window-relative ones).
    pub origin: (i64, i64),
    /// Extents are read window-relative (GTK 4), to be offset by `origin`.
    pub window_relative: bool,
    /// The element's bounds in the snapshot.
    pub snapshot_bounds: Option<Rect>,
    /// The element was offscreen in the snapshot.
    pub offscreen: bool,
}

impl Fallback<'_> {
    fn device(&self) -> Result<&dyn InputOps, AdapterError> {
        self.input.ok_or_else(|| {
            AdapterError::Unavailable(
                "no synthetic input on this display (XTest missing); this action needs the pointer or keyboard".into(),
            )
        })
    }

    /// The element's centre on screen, after scrolling it into view.
    async fn centre(&self, el: &Element<'_>) -> Result<(i64, i64), AdapterError> {
        if self.offscreen {
            let _ = act::scroll_into_view(el.conn, el.obj).await;
        }
        let coord = calls::coord_type(self.window_relative);
        let fresh = calls::extents(el.conn, el.obj, coord)
            .await
            .ok()
            .filter(|e| e.w > 0 && e.h > 0 && !e.is_unplaced())
            .map(|e| {
                Rect::new(
                    i64::from(e.x) + self.origin.0,
                    i64::from(e.y) + self.origin.1,
                    u64::from(e.w.unsigned_abs()),
                    u64::from(e.h.unsigned_abs()),
                )
            });
        let bounds = fresh.or(self.snapshot_bounds).ok_or_else(|| {
            AdapterError::Unsupported(
                "the element has no position on screen, so the pointer cannot reach it".into(),
            )
        })?;
        let half = |v: u64| i64::try_from(v / 2).unwrap_or(0);
        Ok((bounds.x + half(bounds.w), bounds.y + half(bounds.h)))
    }

    /// Clicks the element's centre.
    pub async fn click(&self, el: &Element<'_>, button: u8, count: u8) -> Result<(), AdapterError> {
        let device = self.device()?;
        let (x, y) = self.centre(el).await?;
        device.click_at(x, y, button, count).await
    }

    /// Holds the left button on the element's centre.
    pub async fn long_press(&self, el: &Element<'_>) -> Result<(), AdapterError> {
        let device = self.device()?;
        let (x, y) = self.centre(el).await?;
        device.hold_at(x, y, 1, LONG_PRESS).await
    }

    /// Turns the wheel over the element.
    pub async fn scroll(
        &self,
        el: &Element<'_>,
        direction: Direction,
        amount: u32,
    ) -> Result<(), AdapterError> {
        let device = self.device()?;
        let (x, y) = self.centre(el).await?;
        device.wheel_at(x, y, direction, amount).await
    }

    /// Presses keys (on the focused element), once the keyboard is ready
    /// (see [`super::keyboard_ready`]).
    pub async fn keys(&self, events: &EventLog, combo: &Combo) -> Result<(), AdapterError> {
        let device = self.device()?;
        super::keyboard_ready(events, device).await?;
        device.keys(combo).await
    }

    /// Types text (on the focused element), once the keyboard is ready.
    pub async fn type_text(&self, events: &EventLog, text: &str) -> Result<(), AdapterError> {
        let device = self.device()?;
        super::keyboard_ready(events, device).await?;
        device.type_text(text).await
    }
}
