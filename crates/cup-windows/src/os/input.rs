//! `SendInput`: the keyboard events of [`crate::keys`] and pointer events
//! at physical virtual-screen pixels.

use windows::Win32::UI::Input::KeyboardAndMouse::{
    GetKeyboardLayout, MapVirtualKeyExW, SendInput, VkKeyScanExW, HKL, INPUT, INPUT_0,
    INPUT_KEYBOARD, INPUT_MOUSE, KEYBDINPUT, KEYBD_EVENT_FLAGS, KEYEVENTF_EXTENDEDKEY,
    KEYEVENTF_KEYUP, KEYEVENTF_UNICODE, MAPVK_VK_TO_VSC_EX, MOUSEEVENTF_ABSOLUTE,
    MOUSEEVENTF_HWHEEL, MOUSEEVENTF_LEFTDOWN, MOUSEEVENTF_LEFTUP, MOUSEEVENTF_MIDDLEDOWN,
    MOUSEEVENTF_MIDDLEUP, MOUSEEVENTF_MOVE, MOUSEEVENTF_RIGHTDOWN, MOUSEEVENTF_RIGHTUP,
    MOUSEEVENTF_VIRTUALDESK, MOUSEEVENTF_WHEEL, MOUSEEVENTF_XDOWN, MOUSEEVENTF_XUP, MOUSEINPUT,
    MOUSE_EVENT_FLAGS, VIRTUAL_KEY,
};

use crate::keys::KeyEvent;
use crate::pointer::{MouseEvent, MouseKind};

/// `XBUTTON1` / `XBUTTON2` (back, forward).
const XBUTTON1: u32 = 1;
const XBUTTON2: u32 = 2;

/// The keyboard layout of the foreground window's thread: keyboard
/// layouts are per thread, and cup's own (a tokio thread's) may not be the
/// user's (a German or French window: `ctrl+plus`, `ctrl+/`).
fn foreground_layout() -> HKL {
    use windows::Win32::UI::WindowsAndMessaging::{GetForegroundWindow, GetWindowThreadProcessId};
    // SAFETY: plain queries; a null window gives thread 0, whose layout is
    // the calling thread's.
    unsafe {
        let thread = GetWindowThreadProcessId(GetForegroundWindow(), None);
        GetKeyboardLayout(thread)
    }
}

/// The foreground window's layout's key for a character
/// (`VkKeyScanExW`): the VK code and the shift state bits (1 Shift, 2
/// Ctrl, 4 Alt).
pub fn layout_key(c: char) -> Option<(u16, u8)> {
    let mut buf = [0_u16; 2];
    let units = c.encode_utf16(&mut buf);
    if units.len() != 1 {
        return None;
    }
    // SAFETY: a pure lookup in a keyboard layout handle.
    let r = unsafe { VkKeyScanExW(units[0], foreground_layout()) };
    if r == -1 {
        return None;
    }
    let r = r as u16;
    Some((r & 0xFF, (r >> 8) as u8))
}

fn key_input(e: &KeyEvent) -> INPUT {
    let (vk, scan, flags) = match *e {
        KeyEvent::Vk { vk, extended, up } => {
            let mut f = KEYBD_EVENT_FLAGS(0);
            if extended {
                f |= KEYEVENTF_EXTENDEDKEY;
            }
            if up {
                f |= KEYEVENTF_KEYUP;
            }
            // The scan code too (apps that read it, Chromium's
            // KeyboardEvent.code, remote and VM clients); the extended
            // prefix is in the flag already.
            // SAFETY: a pure lookup in a keyboard layout handle.
            let sc = unsafe {
                MapVirtualKeyExW(u32::from(vk), MAPVK_VK_TO_VSC_EX, Some(foreground_layout()))
            };
            (vk, (sc & 0xFF) as u16, f)
        }
        KeyEvent::Unit { unit, up } => {
            let f = if up {
                KEYEVENTF_KEYUP
            } else {
                KEYBD_EVENT_FLAGS(0)
            };
            (0, unit, f | KEYEVENTF_UNICODE)
        }
    };
    INPUT {
        r#type: INPUT_KEYBOARD,
        Anonymous: INPUT_0 {
            ki: KEYBDINPUT {
                wVk: VIRTUAL_KEY(vk),
                wScan: scan,
                dwFlags: flags,
                time: 0,
                dwExtraInfo: 0,
            },
        },
    }
}

fn mouse_input(e: &MouseEvent) -> INPUT {
    let mut flags = MOUSE_EVENT_FLAGS(0);
    let mut data: i32 = 0;
    let (dx, dy) = match e.at {
        Some((x, y)) => {
            flags |= MOUSEEVENTF_MOVE | MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK;
            (x, y)
        }
        None => (0, 0),
    };
    match e.kind {
        MouseKind::Move => {}
        MouseKind::LeftDown => flags |= MOUSEEVENTF_LEFTDOWN,
        MouseKind::LeftUp => flags |= MOUSEEVENTF_LEFTUP,
        MouseKind::RightDown => flags |= MOUSEEVENTF_RIGHTDOWN,
        MouseKind::RightUp => flags |= MOUSEEVENTF_RIGHTUP,
        MouseKind::MiddleDown => flags |= MOUSEEVENTF_MIDDLEDOWN,
        MouseKind::MiddleUp => flags |= MOUSEEVENTF_MIDDLEUP,
        MouseKind::BackDown => {
            flags |= MOUSEEVENTF_XDOWN;
            data = XBUTTON1 as i32;
        }
        MouseKind::BackUp => {
            flags |= MOUSEEVENTF_XUP;
            data = XBUTTON1 as i32;
        }
        MouseKind::ForwardDown => {
            flags |= MOUSEEVENTF_XDOWN;
            data = XBUTTON2 as i32;
        }
        MouseKind::ForwardUp => {
            flags |= MOUSEEVENTF_XUP;
            data = XBUTTON2 as i32;
        }
        MouseKind::Wheel(d) => {
            flags |= MOUSEEVENTF_WHEEL;
            data = d;
        }
        MouseKind::HWheel(d) => {
            flags |= MOUSEEVENTF_HWHEEL;
            data = d;
        }
    }
    INPUT {
        r#type: INPUT_MOUSE,
        Anonymous: INPUT_0 {
            mi: MOUSEINPUT {
                dx,
                dy,
                mouseData: data as u32,
                dwFlags: flags,
                time: 0,
                dwExtraInfo: 0,
            },
        },
    }
}

fn send(inputs: &[INPUT]) -> Result<(), String> {
    if inputs.is_empty() {
        return Ok(());
    }
    // SAFETY: a slice of fully initialised INPUT structs and their size.
    let sent = unsafe { SendInput(inputs, size_of::<INPUT>() as i32) };
    if sent as usize == inputs.len() {
        return Ok(());
    }
    let err = windows::core::Error::from_thread();
    Err(format!(
        "SendInput delivered {sent} of {} events ({}); input to a window of a higher integrity level (an elevated app) or to the secure desktop is blocked — run cup at that level",
        inputs.len(),
        crate::os::call_error(&err, "SendInput")
    ))
}

/// Sends keyboard events, `batch` at most per call.
pub fn keys(events: &[KeyEvent], batch: usize) -> Result<(), String> {
    for part in crate::keys::batches(events, batch) {
        let inputs: Vec<INPUT> = part.iter().map(key_input).collect();
        send(&inputs)?;
    }
    Ok(())
}

/// Sends pointer events one call each (each may need its own pause,
/// which the caller makes).
pub fn mouse(event: &MouseEvent) -> Result<(), String> {
    send(&[mouse_input(event)])
}
