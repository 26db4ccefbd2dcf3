//! Pixel-level gestures (the driver tools' click at x,y, drag, scroll, type
//! text), written once over [`GestureDevice`]: XTest on X11, the
//! compositor's virtual devices under Wayland. Each is observed like a key
//! press: the changes any application announces on the accessibility bus.
//! A move is confirmed by reading the pointer back where the device can.

use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;
use cup::{ActionResult, AdapterError, Button, Change, Direction, Effect, Gesture, Point};
use cup_protocol::keys::Modifier;

use super::events::EventLog;
use super::fallback::InputOps;
use crate::input::{self, Input, InputError};

/// A pointer and keyboard that performs gestures.
#[async_trait]
pub trait GestureDevice: InputOps {
    /// The device reads the pointer's position back (X11; not Wayland).
    fn reads_pointer(&self) -> bool;
    /// Moves the pointer to `to`. A device that can read the pointer back
    /// returns where it is then (the move is confirmed by it); one that
    /// cannot (Wayland) returns `None`, and the move is observed like any
    /// gesture.
    async fn move_pointer(&self, to: Point) -> Result<Option<Point>, AdapterError>;
    /// Clicks `button` `count` times at `at` with `modifiers` held.
    async fn click(
        &self,
        at: Point,
        button: Button,
        count: u8,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError>;
    /// Presses (`down`) or releases `button`, after moving to `at` if given.
    async fn button(
        &self,
        at: Option<Point>,
        button: Button,
        down: bool,
    ) -> Result<(), AdapterError>;
    /// Drags along `path` with `button` in `steps` moves over `duration`.
    async fn drag(
        &self,
        path: &[Point],
        button: Button,
        duration: Duration,
        steps: Option<u32>,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError>;
    /// Turns the wheel `amount` notches towards `direction`, at `at` or
    /// where the pointer is.
    async fn scroll(
        &self,
        at: Option<Point>,
        direction: Direction,
        amount: u32,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError>;
    /// Types `text` as keys.
    async fn write(&self, text: &str) -> Result<(), AdapterError>;
    /// Where the pointer is (on Wayland: where cup last put it).
    async fn pointer(&self) -> Result<Point, AdapterError>;
}

/// Performs `gesture` on `device` and reports what it observed.
pub async fn perform(
    device: &dyn GestureDevice,
    events: &EventLog,
    gesture: &Gesture,
    refs: &HashMap<String, String>,
) -> Result<ActionResult, AdapterError> {
    let message = gesture.to_string();
    match gesture {
        Gesture::Move { to } => {
            if device.reads_pointer() {
                let now = device.move_pointer(*to).await?;
                return Ok(moved(message, *to, now));
            }
            let work = async { device.move_pointer(*to).await.map(|_| ()) };
            super::observed(events, message, refs, work).await
        }
        Gesture::Click {
            at,
            button,
            count,
            modifiers,
        } => {
            let work = device.click(*at, *button, *count, modifiers);
            super::observed(events, message, refs, work).await
        }
        Gesture::Down { at, button } => {
            let work = device.button(*at, *button, true);
            super::observed(events, message, refs, work).await
        }
        Gesture::Up { at, button } => {
            let work = device.button(*at, *button, false);
            super::observed(events, message, refs, work).await
        }
        Gesture::Drag {
            path,
            button,
            duration,
            steps,
            modifiers,
        } => {
            let work = device.drag(path, *button, *duration, *steps, modifiers);
            super::observed(events, message, refs, work).await
        }
        Gesture::Scroll {
            at,
            direction,
            amount,
            modifiers,
        } => {
            let work = device.scroll(*at, *direction, *amount, modifiers);
            super::observed(events, message, refs, work).await
        }
        Gesture::Type { text, delay } => {
            super::keyboard_ready(events, device).await?;
            let work = async {
                if delay.is_zero() {
                    return device.write(text).await;
                }
                let mut buf = [0u8; 4];
                for (i, c) in text.chars().enumerate() {
                    if i > 0 {
                        // The delay is the gesture itself (human-paced typing).
                        tokio::time::sleep(*delay).await;
                    }
                    device.write(c.encode_utf8(&mut buf)).await?;
                }
                Ok(())
            };
            super::typed(events, message, refs, text, work).await
        }
    }
}

/// A move confirmed by the pointer read back (`now`), or nothing changed.
fn moved(message: String, to: Point, now: Option<Point>) -> ActionResult {
    match now {
        Some(now) if (now.x, now.y) == (to.x, to.y) => ActionResult::observed(
            message,
            Effect::Confirmed,
            vec![Change {
                target: "pointer".into(),
                field: "position".into(),
                before: None,
                after: Some(format!("{},{}", now.x, now.y)),
            }],
        ),
        _ => ActionResult::observed(message, Effect::NoChange, Vec::new()),
    }
}

fn platform(e: InputError) -> AdapterError {
    match e {
        InputError::OutOfScreen { .. } | InputError::InvalidArgument(_) => {
            AdapterError::Invalid(e.to_string())
        }
        e => AdapterError::Platform(e.to_string()),
    }
}

fn x11_button(b: Button) -> input::Button {
    match b {
        Button::Left => input::Button::Left,
        Button::Middle => input::Button::Middle,
        Button::Right => input::Button::Right,
        Button::Back => input::Button::Back,
        Button::Forward => input::Button::Forward,
    }
}

#[async_trait]
impl GestureDevice for Input {
    fn reads_pointer(&self) -> bool {
        true
    }

    async fn move_pointer(&self, to: Point) -> Result<Option<Point>, AdapterError> {
        self.move_to(to).await.map_err(platform)?;
        let now = self.cursor_position().await.map_err(platform)?;
        Ok(Some(now))
    }

    async fn click(
        &self,
        at: Point,
        button: Button,
        count: u8,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError> {
        Input::click(self, at, x11_button(button), count, modifiers)
            .await
            .map_err(platform)
    }

    async fn button(
        &self,
        at: Option<Point>,
        button: Button,
        down: bool,
    ) -> Result<(), AdapterError> {
        if down {
            self.button_down(x11_button(button), at).await
        } else {
            self.button_up(x11_button(button), at).await
        }
        .map_err(platform)
    }

    async fn drag(
        &self,
        path: &[Point],
        button: Button,
        duration: Duration,
        steps: Option<u32>,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError> {
        Input::drag(self, path, x11_button(button), duration, steps, modifiers)
            .await
            .map_err(platform)
    }

    async fn scroll(
        &self,
        at: Option<Point>,
        direction: Direction,
        amount: u32,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError> {
        Input::scroll(self, at, direction, amount, modifiers)
            .await
            .map_err(platform)
    }

    async fn write(&self, text: &str) -> Result<(), AdapterError> {
        Input::type_text(self, text).await.map_err(platform)
    }

    async fn pointer(&self) -> Result<Point, AdapterError> {
        self.cursor_position()
            .await
            .map_err(|e| AdapterError::Platform(e.to_string()))
    }
}
