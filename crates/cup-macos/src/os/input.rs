//! Core Graphics input: key strokes, Unicode typing and mouse events made
//! from the plain data of [`crate::keys`] and [`crate::pointer`], delivered
//! to one process (`CGEventPostToPid`: the user's pointer and the
//! frontmost app stay as they are) or, when asked, through the HID event
//! tap like a real device.

use std::time::Duration;

use objc2_core_foundation::{CFRetained, CGPoint};
use objc2_core_graphics::{
    CGEvent, CGEventField, CGEventFlags, CGEventSource, CGEventSourceStateID, CGEventTapLocation,
    CGEventType, CGMouseButton, CGScrollEventUnit,
};

use crate::keys::{Stroke, Typed};
use crate::pointer::{button_number, MouseEvent, MouseKind};
use cup::Button;

/// Where events go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// To this process only (background delivery).
    Pid(i32),
    /// Through the HID event tap, to whatever is under the pointer or
    /// focused (moves the real pointer).
    Hid,
}

fn source() -> Option<CFRetained<CGEventSource>> {
    CGEventSource::new(CGEventSourceStateID::HIDSystemState)
}

fn post(ev: &CGEvent, to: Delivery) {
    match to {
        Delivery::Pid(pid) => CGEvent::post_to_pid(pid, Some(ev)),
        Delivery::Hid => CGEvent::post(CGEventTapLocation::HIDEventTap, Some(ev)),
    }
}

fn made<T>(e: Option<T>, what: &str) -> Result<T, String> {
    e.ok_or_else(|| format!("Core Graphics could not make a {what} event"))
}

/// Posts key strokes (a combo), a moment apart so apps see them in order.
///
/// # Errors
///
/// An event could not be made.
pub fn keys(strokes: &[Stroke], to: Delivery) -> Result<(), String> {
    let process_strokes;
    let strokes = match to {
        Delivery::Pid(_) => {
            process_strokes = crate::keys::for_process(strokes);
            process_strokes.as_slice()
        }
        Delivery::Hid => strokes,
    };
    let src = source();
    for (i, s) in strokes.iter().enumerate() {
        let Some(ev) = CGEvent::new_keyboard_event(src.as_deref(), s.code, s.down) else {
            // Release what went down before saying so (best effort).
            for up in crate::keys::release_after(&strokes[..i]) {
                if let Some(ev) = CGEvent::new_keyboard_event(src.as_deref(), up.code, false) {
                    CGEvent::set_flags(Some(&ev), CGEventFlags(0));
                    post(&ev, to);
                }
            }
            return Err("Core Graphics could not make a key event".into());
        };
        CGEvent::set_flags(Some(&ev), CGEventFlags(s.flags));
        post(&ev, to);
        std::thread::sleep(Duration::from_millis(2));
    }
    Ok(())
}

/// Types `steps`: each character as one key down and up carrying it
/// (`CGEventKeyboardSetUnicodeString`), 1 ms apart, line breaks and tabs
/// as their keys; `delay` (at least 2 ms) after each step.
///
/// # Errors
///
/// An event could not be made.
pub fn typing(steps: &[Typed], to: Delivery, delay: Duration) -> Result<(), String> {
    let src = source();
    for step in steps {
        match step {
            Typed::Text(units) => {
                for down in [true, false] {
                    let ev = made(CGEvent::new_keyboard_event(src.as_deref(), 0, down), "key")?;
                    // SAFETY: `units` is a live slice of `units.len()`
                    // UTF-16 units; the call copies them.
                    unsafe {
                        CGEvent::keyboard_set_unicode_string(
                            Some(&ev),
                            units.len() as _,
                            units.as_ptr(),
                        );
                    }
                    CGEvent::set_flags(Some(&ev), CGEventFlags(0));
                    post(&ev, to);
                    if down {
                        // Down and up not back to back (a key, not a glitch).
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
            }
            Typed::Key(code) => keys(
                &[
                    Stroke {
                        code: *code,
                        down: true,
                        flags: 0,
                    },
                    Stroke {
                        code: *code,
                        down: false,
                        flags: 0,
                    },
                ],
                to,
            )?,
        }
        std::thread::sleep(delay.max(Duration::from_millis(2)));
    }
    Ok(())
}

fn mouse_type(kind: MouseKind) -> (CGEventType, Button) {
    let pick = |b: Button, left, right, other| match b {
        Button::Left => (left, b),
        Button::Right => (right, b),
        _ => (other, b),
    };
    match kind {
        MouseKind::Move | MouseKind::Wheel { .. } => (CGEventType::MouseMoved, Button::Left),
        MouseKind::Down(b) => pick(
            b,
            CGEventType::LeftMouseDown,
            CGEventType::RightMouseDown,
            CGEventType::OtherMouseDown,
        ),
        MouseKind::Up(b) => pick(
            b,
            CGEventType::LeftMouseUp,
            CGEventType::RightMouseUp,
            CGEventType::OtherMouseUp,
        ),
        MouseKind::Dragged(b) => pick(
            b,
            CGEventType::LeftMouseDragged,
            CGEventType::RightMouseDragged,
            CGEventType::OtherMouseDragged,
        ),
    }
}

/// Posts mouse events with `flags` (held modifiers), pausing after each as
/// it says.
///
/// # Errors
///
/// An event could not be made.
pub fn mouse(events: &[MouseEvent], flags: u64, to: Delivery) -> Result<(), String> {
    let posted = mouse_events(events, flags, to);
    if let Err((sent, e)) = posted {
        // Release the buttons that went down before the failure (best
        // effort: one that cannot be made is left as it is).
        let _ = mouse_events(&crate::pointer::release_after(&events[..sent]), 0, to);
        return Err(e);
    }
    Ok(())
}

/// Posts `events`; on a failure, how many were posted and why.
fn mouse_events(events: &[MouseEvent], flags: u64, to: Delivery) -> Result<(), (usize, String)> {
    let src = source();
    for (sent, m) in events.iter().enumerate() {
        let made = |e, what| made(e, what).map_err(|e| (sent, e));
        let at = CGPoint {
            x: m.at.0,
            y: m.at.1,
        };
        let ev = match m.kind {
            MouseKind::Wheel { dy, dx } => {
                let ev = made(
                    CGEvent::new_scroll_wheel_event2(
                        src.as_deref(),
                        CGScrollEventUnit::Pixel,
                        2,
                        dy,
                        dx,
                        0,
                    ),
                    "scroll",
                )?;
                CGEvent::set_location(Some(&ev), at);
                ev
            }
            kind => {
                let (ty, button) = mouse_type(kind);
                let n = button_number(button);
                let cg_button = CGMouseButton(u32::try_from(n).unwrap_or(0));
                let ev = made(
                    CGEvent::new_mouse_event(src.as_deref(), ty, at, cg_button),
                    "mouse",
                )?;
                if m.clicks > 0 {
                    CGEvent::set_integer_value_field(
                        Some(&ev),
                        CGEventField::MouseEventClickState,
                        m.clicks,
                    );
                }
                if n > 2 || button == Button::Middle {
                    CGEvent::set_integer_value_field(
                        Some(&ev),
                        CGEventField::MouseEventButtonNumber,
                        n,
                    );
                }
                ev
            }
        };
        if flags != 0 {
            CGEvent::set_flags(Some(&ev), CGEventFlags(flags));
        }
        post(&ev, to);
        if !m.pause.is_zero() {
            std::thread::sleep(m.pause);
        }
    }
    Ok(())
}

/// Where the pointer is (global points).
pub fn cursor() -> Option<(f64, f64)> {
    let ev = CGEvent::new(None)?;
    let p = CGEvent::location(Some(&ev));
    Some((p.x, p.y))
}
