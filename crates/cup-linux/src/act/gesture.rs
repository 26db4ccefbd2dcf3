//! Pixel-level gestures (the driver tools' click at x,y, drag, scroll, type
//! text) through XTest, each observed like a key press: the changes any
//! application announces on the accessibility bus. Moving the pointer is
//! confirmed by reading the pointer back.

use std::collections::HashMap;

use cup::{ActionResult, AdapterError, Button, Change, Effect, Gesture};

use super::events::EventLog;
use crate::input::{self, Input, InputError};

fn platform(e: InputError) -> AdapterError {
    match e {
        InputError::OutOfScreen { .. } | InputError::InvalidArgument(_) => {
            AdapterError::Invalid(e.to_string())
        }
        e => AdapterError::Platform(e.to_string()),
    }
}

fn button(b: Button) -> input::Button {
    match b {
        Button::Left => input::Button::Left,
        Button::Middle => input::Button::Middle,
        Button::Right => input::Button::Right,
        Button::Back => input::Button::Back,
        Button::Forward => input::Button::Forward,
    }
}

/// Performs `gesture` and reports what it observed.
pub async fn perform(
    device: &Input,
    events: &EventLog,
    gesture: &Gesture,
    refs: &HashMap<String, String>,
) -> Result<ActionResult, AdapterError> {
    let message = gesture.to_string();
    match gesture {
        Gesture::Move { to } => {
            device.move_to(*to).await.map_err(platform)?;
            let now = device.cursor_position().await.map_err(platform)?;
            let (effect, changes) = if (now.x, now.y) == (to.x, to.y) {
                (
                    Effect::Confirmed,
                    vec![Change {
                        target: "pointer".into(),
                        field: "position".into(),
                        before: None,
                        after: Some(format!("{},{}", now.x, now.y)),
                    }],
                )
            } else {
                (Effect::NoChange, Vec::new())
            };
            Ok(ActionResult::observed(message, effect, changes))
        }
        Gesture::Click {
            at,
            button: b,
            count,
            modifiers,
        } => {
            let work = async {
                device
                    .click(*at, button(*b), *count, modifiers)
                    .await
                    .map_err(platform)
            };
            super::observed(events, message, refs, work).await
        }
        Gesture::Down { at, button: b } => {
            let work = async { device.button_down(button(*b), *at).await.map_err(platform) };
            super::observed(events, message, refs, work).await
        }
        Gesture::Up { at, button: b } => {
            let work = async { device.button_up(button(*b), *at).await.map_err(platform) };
            super::observed(events, message, refs, work).await
        }
        Gesture::Drag {
            path,
            button: b,
            duration,
            steps,
            modifiers,
        } => {
            let work = async {
                device
                    .drag(path, button(*b), *duration, *steps, modifiers)
                    .await
                    .map_err(platform)
            };
            super::observed(events, message, refs, work).await
        }
        Gesture::Scroll {
            at,
            direction,
            amount,
            modifiers,
        } => {
            let work = async {
                device
                    .scroll(*at, *direction, *amount, modifiers)
                    .await
                    .map_err(platform)
            };
            super::observed(events, message, refs, work).await
        }
        Gesture::Type { text, delay } => {
            let work = async {
                if delay.is_zero() {
                    return device.type_text(text).await.map_err(platform);
                }
                let mut buf = [0u8; 4];
                for (i, c) in text.chars().enumerate() {
                    if i > 0 {
                        // The delay is the gesture itself (human-paced typing).
                        tokio::time::sleep(*delay).await;
                    }
                    let one = c.encode_utf8(&mut buf);
                    device.type_text(one).await.map_err(platform)?;
                }
                Ok(())
            };
            super::typed(events, message, refs, text, work).await
        }
    }
}
