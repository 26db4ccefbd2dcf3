//! Pixel-level gestures (the driver tools' click at x,y, drag, scroll, type
//! text), written once over [`GestureDevice`]: XTest on X11, the
//! compositor's virtual devices under Wayland. Each is observed like a key
//! press: the changes any application announces on the accessibility bus.
//! A move is confirmed by reading the pointer back where the device can.

use std::collections::HashMap;

use cup::{ActionResult, AdapterError, Change, Effect, Gesture, Point};

use super::events::EventLog;
use cup_linux_display::device::GestureDevice;

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
