//! Synthetic input on wlroots compositors: `zwlr_virtual_pointer_v1` for
//! the pointer, `zwp_virtual_keyboard_v1` for the keyboard.
//!
//! A [`WaylandInput`] holds ONE virtual pointer and ONE virtual keyboard for
//! its whole life: a new device per gesture makes GTK drop its `wl_pointer`
//! (the device's removal ends the pointer focus), and clicks never land.
//!
//! Coordinates are the compositor's global layout in logical pixels. The
//! pointer moves with `motion_absolute` over the bounding box of all
//! outputs (`xdg-output` logical rectangles), which is what wlroots maps an
//! absolute device onto. Each gesture ends with a roundtrip, so it has been
//! delivered when the call returns.
//!
//! The keyboard types with keymaps of its own ([`super::xkb`]): each
//! needed keysym gets a key, so any text in any script types exactly,
//! whatever the compositor's layout. A keymap is uploaded only when the
//! keysyms needed are not all in the last one, and the first key waits
//! [`KEYMAP_SETTLE`] after an upload (a fresh keymap loses the first key
//! otherwise, measured on sway).

use std::fs::File;
use std::io::Write as _;
use std::os::fd::AsFd as _;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use wayland_client::protocol::{wl_pointer, wl_seat};
use wayland_client::Proxy;
use wayland_protocols_misc::zwp_virtual_keyboard_v1::client::{
    zwp_virtual_keyboard_manager_v1, zwp_virtual_keyboard_v1,
};
use wayland_protocols_wlr::virtual_pointer::v1::client::{
    zwlr_virtual_pointer_manager_v1, zwlr_virtual_pointer_v1,
};

use super::client::{bounding_box, unsupported, Client, LayoutRect, WaylandError, DEFAULT_TIMEOUT};
use super::xkb::{self, Keymap, MAX_KEYSYMS};
use crate::keysym::{char_keysym, describe, Keysym};

/// Pause after a keymap upload before the first key.
pub const KEYMAP_SETTLE: Duration = Duration::from_millis(25);

/// Pause between the clicks of a multiple click (well inside every
/// toolkit's double-click time).
pub const CLICK_GAP: Duration = Duration::from_millis(40);

/// Pause after the virtual devices gave the seat a pointer or keyboard it
/// lacked: clients bind their `wl_pointer`/`wl_keyboard` only when the
/// seat announces the capability, and events before that are lost.
pub const DEVICE_SETTLE: Duration = Duration::from_millis(150);

/// `wl_seat.capability` bits.
const SEAT_POINTER: u32 = 1;
const SEAT_KEYBOARD: u32 = 2;

/// Keys sent between two flushes while typing.
const KEYS_PER_FLUSH: usize = 64;

/// `wl_keyboard.keymap_format.xkb_v1`.
const KEYMAP_FORMAT_XKB_V1: u32 = 1;

/// Linux input event codes of the mouse buttons.
mod btn {
    pub const LEFT: u32 = 0x110;
    pub const RIGHT: u32 = 0x111;
    pub const MIDDLE: u32 = 0x112;
    pub const SIDE: u32 = 0x113;
    pub const EXTRA: u32 = 0x114;
}

/// `wl_pointer.axis` values.
const AXIS_VERTICAL: u32 = 0;
const AXIS_HORIZONTAL: u32 = 1;

/// Scroll distance of one wheel notch, as libinput reports it.
const NOTCH: f64 = 10.0;

/// The evdev code of an X-style button number: 1 left, 2 middle, 3 right,
/// 8 back, 9 forward.
pub fn button_code(button: u8) -> Result<u32, WaylandError> {
    Ok(match button {
        1 => btn::LEFT,
        2 => btn::MIDDLE,
        3 => btn::RIGHT,
        8 => btn::SIDE,
        9 => btn::EXTRA,
        _ => {
            return Err(WaylandError::Invalid(format!(
                "no mouse button {button}: use 1 (left), 2 (middle), 3 (right), 8 (back) \
                 or 9 (forward)"
            )))
        }
    })
}

/// Where `motion_absolute` puts the layout point `(x, y)`: `(x, y,
/// x_extent, y_extent)` relative to the bounding box of `outputs` (their
/// logical rectangles). A point on no output is refused.
pub fn absolute_position(
    outputs: &[LayoutRect],
    x: i64,
    y: i64,
) -> Result<(u32, u32, u32, u32), WaylandError> {
    let on_output = outputs
        .iter()
        .any(|&(ox, oy, w, h)| x >= ox && y >= oy && x < ox + w && y < oy + h);
    let layout = bounding_box(outputs.iter().copied());
    let (Some((bx, by, bw, bh)), true) = (layout, on_output) else {
        let described = match layout {
            Some((bx, by, bw, bh)) => format!("the layout spans {bw}x{bh} at ({bx}, {by})"),
            None => "the compositor reports no outputs".to_owned(),
        };
        return Err(WaylandError::Invalid(format!(
            "the point ({x}, {y}) is on no output ({described}): pick a point on the screen"
        )));
    };
    let convert = |v: i64| {
        u32::try_from(v)
            .map_err(|_| WaylandError::Invalid(format!("the layout is too large ({bw}x{bh})")))
    };
    Ok((
        convert(x - bx)?,
        convert(y - by)?,
        convert(bw)?,
        convert(bh)?,
    ))
}

/// The keysyms that type `text`, one per character: `'\n'` Return, `'\t'`
/// Tab, every other character its Latin-1 or Unicode keysym (combining
/// marks, emoji modifiers and right-to-left letters included, each its own
/// key). A control character without a key is refused.
pub fn text_keysyms(text: &str) -> Result<Vec<Keysym>, WaylandError> {
    text.chars()
        .map(|c| {
            char_keysym(c).ok_or_else(|| {
                WaylandError::Invalid(format!(
                    "cannot type the control character U+{:04X}: remove it from the text",
                    u32::from(c)
                ))
            })
        })
        .collect()
}

/// The virtual devices and the state of the keyboard.
#[derive(Debug)]
struct Inner {
    client: Client,
    pointer: zwlr_virtual_pointer_v1::ZwlrVirtualPointerV1,
    keyboard: zwp_virtual_keyboard_v1::ZwpVirtualKeyboardV1,
    /// The keymap last uploaded.
    keymap: Option<Keymap>,
    /// Origin of the event timestamps.
    start: Instant,
}

/// Synthetic pointer and keyboard input on a wlroots compositor.
#[derive(Debug, Clone)]
pub struct WaylandInput {
    inner: Arc<Mutex<Inner>>,
}

impl WaylandInput {
    /// Connects to the compositor at `socket` and creates the virtual
    /// pointer and keyboard (each wait bounded by [`DEFAULT_TIMEOUT`]).
    pub async fn open(socket: &Path) -> Result<WaylandInput, WaylandError> {
        Self::open_with_timeout(socket, DEFAULT_TIMEOUT).await
    }

    /// [`WaylandInput::open`] with another deadline for each wait.
    pub async fn open_with_timeout(
        socket: &Path,
        timeout: Duration,
    ) -> Result<WaylandInput, WaylandError> {
        let socket = socket.to_path_buf();
        let inner = blocking(move || Inner::open(&socket, timeout)).await?;
        Ok(WaylandInput {
            inner: Arc::new(Mutex::new(inner)),
        })
    }

    /// Runs `f` on the devices on a blocking thread.
    async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Inner) -> Result<T, WaylandError> + Send + 'static,
    ) -> Result<T, WaylandError> {
        let inner = Arc::clone(&self.inner);
        blocking(move || {
            let mut guard = inner.lock().unwrap_or_else(PoisonError::into_inner);
            f(&mut guard)
        })
        .await
    }

    /// Clicks `button` (1 left, 2 middle, 3 right, 8 back, 9 forward)
    /// `count` times (at least once; 2 a double click) at the layout point
    /// `(x, y)`.
    pub async fn click(&self, x: i64, y: i64, button: u8, count: u8) -> Result<(), WaylandError> {
        let code = button_code(button)?;
        self.with(move |d| {
            d.motion(x, y)?;
            for i in 0..count.max(1) {
                if i > 0 {
                    d.client.flush("clicking")?;
                    std::thread::sleep(CLICK_GAP);
                }
                d.button(code, wl_pointer::ButtonState::Pressed);
                d.button(code, wl_pointer::ButtonState::Released);
            }
            d.client.roundtrip("clicking")
        })
        .await
    }

    /// Moves to `(x, y)` and presses `button` (held until
    /// [`WaylandInput::button_up`]).
    pub async fn button_down(&self, x: i64, y: i64, button: u8) -> Result<(), WaylandError> {
        let code = button_code(button)?;
        self.with(move |d| {
            d.motion(x, y)?;
            d.button(code, wl_pointer::ButtonState::Pressed);
            d.client.roundtrip("pressing a mouse button")
        })
        .await
    }

    /// Moves to `(x, y)` and releases `button`.
    pub async fn button_up(&self, x: i64, y: i64, button: u8) -> Result<(), WaylandError> {
        let code = button_code(button)?;
        self.with(move |d| {
            d.motion(x, y)?;
            d.button(code, wl_pointer::ButtonState::Released);
            d.client.roundtrip("releasing a mouse button")
        })
        .await
    }

    /// Moves the pointer to `(x, y)`.
    pub async fn move_to(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        self.with(move |d| {
            d.motion(x, y)?;
            d.client.roundtrip("moving the pointer")
        })
        .await
    }

    /// Scrolls at `(x, y)` by whole wheel notches: positive `dy` down,
    /// positive `dx` right. Each notch is its own wheel event (`axis_source`
    /// wheel, `axis_discrete` 1 step of 10), as a mouse wheel sends them.
    pub async fn scroll(
        &self,
        x: i64,
        y: i64,
        dx_notches: i32,
        dy_notches: i32,
    ) -> Result<(), WaylandError> {
        self.with(move |d| {
            d.motion(x, y)?;
            let steps = dx_notches.unsigned_abs().max(dy_notches.unsigned_abs());
            for i in 0..steps {
                let t = d.now();
                d.pointer.axis_source(wl_pointer::AxisSource::Wheel);
                if i < dy_notches.unsigned_abs() {
                    let s = dy_notches.signum();
                    d.pointer
                        .axis_discrete(t, axis(AXIS_VERTICAL), NOTCH * f64::from(s), s);
                }
                if i < dx_notches.unsigned_abs() {
                    let s = dx_notches.signum();
                    d.pointer
                        .axis_discrete(t, axis(AXIS_HORIZONTAL), NOTCH * f64::from(s), s);
                }
                d.pointer.frame();
            }
            d.client.roundtrip("scrolling")
        })
        .await
    }

    /// Presses the keys of `keysyms` in order and releases them in reverse:
    /// a combo, modifiers first (`Control_L`, `Shift_L`, `t`). The
    /// modifier keys set their modifiers (`Control_L` Control, `Shift_L`
    /// Shift, `Alt_L` Mod1, `Super_L` Mod4, the right keys alike) and the
    /// modifier state is sent with each change.
    pub async fn keys(&self, keysyms: &[Keysym]) -> Result<(), WaylandError> {
        let keysyms = keysyms.to_vec();
        self.with(move |d| {
            if keysyms.is_empty() {
                return Ok(());
            }
            if keysyms.len() > MAX_KEYSYMS {
                return Err(WaylandError::Invalid(format!(
                    "a combo of {} keys is too long: press at most {MAX_KEYSYMS} at once",
                    keysyms.len()
                )));
            }
            let codes = d.prepare_keymap(&keysyms, "pressing keys")?;
            let mut depressed = 0;
            d.keyboard.modifiers(0, 0, 0, 0);
            for (&code, &k) in codes.iter().zip(&keysyms) {
                d.key(code, true);
                let m = xkb::modifier_mask(k);
                if m & !depressed != 0 {
                    depressed |= m;
                    d.keyboard.modifiers(depressed, 0, 0, 0);
                }
            }
            for (i, (&code, &k)) in codes.iter().zip(&keysyms).enumerate().rev() {
                d.key(code, false);
                if xkb::modifier_mask(k) != 0 {
                    // The mask of the modifier keys still down.
                    let still: u32 = keysyms[..i]
                        .iter()
                        .map(|&k| xkb::modifier_mask(k))
                        .fold(0, |a, m| a | m);
                    if still != depressed {
                        depressed = still;
                        d.keyboard.modifiers(depressed, 0, 0, 0);
                    }
                }
            }
            d.client.roundtrip("pressing keys")
        })
        .await
    }

    /// Presses (`down`) or releases the modifier keys `keysyms`
    /// (`Control_L`, `Shift_L`, …) and sends the modifier state: held
    /// around a pointer gesture (a ctrl+click). Released in reverse order,
    /// with no modifier left set.
    pub async fn hold_modifiers(&self, keysyms: &[Keysym], down: bool) -> Result<(), WaylandError> {
        let keysyms = keysyms.to_vec();
        self.with(move |d| {
            if keysyms.is_empty() {
                return Ok(());
            }
            let what = if down {
                "pressing modifier keys"
            } else {
                "releasing modifier keys"
            };
            let codes = d.prepare_keymap(&keysyms, what)?;
            if down {
                let mut depressed = 0;
                for (&code, &k) in codes.iter().zip(&keysyms) {
                    d.key(code, true);
                    depressed |= xkb::modifier_mask(k);
                    d.keyboard.modifiers(depressed, 0, 0, 0);
                }
            } else {
                for &code in codes.iter().rev() {
                    d.key(code, false);
                }
                d.keyboard.modifiers(0, 0, 0, 0);
            }
            d.client.roundtrip(what)
        })
        .await
    }

    /// Types `text` exactly, whatever the script: a key press and release
    /// per character (`'\n'` Return, `'\t'` Tab), with keymaps made for the
    /// text (in parts of at most [`MAX_KEYSYMS`] distinct characters).
    pub async fn type_text(&self, text: &str) -> Result<(), WaylandError> {
        let keysyms = text_keysyms(text)?;
        self.with(move |d| {
            if keysyms.is_empty() {
                return Ok(());
            }
            for (n, part) in xkb::chunks(&keysyms, MAX_KEYSYMS).into_iter().enumerate() {
                let part = &keysyms[part];
                let codes = d.prepare_keymap(part, "typing")?;
                if n == 0 {
                    // No modifier from an earlier gesture (a keymap must
                    // be there before a modifier state).
                    d.keyboard.modifiers(0, 0, 0, 0);
                }
                for (i, &code) in codes.iter().enumerate() {
                    d.key(code, true);
                    d.key(code, false);
                    if (i + 1) % KEYS_PER_FLUSH == 0 {
                        d.client.flush("typing")?;
                    }
                }
                d.client.roundtrip("typing")?;
            }
            Ok(())
        })
        .await
    }
}

/// A `wl_pointer.axis` argument.
fn axis(value: u32) -> wl_pointer::Axis {
    if value == AXIS_HORIZONTAL {
        wl_pointer::Axis::HorizontalScroll
    } else {
        wl_pointer::Axis::VerticalScroll
    }
}

impl Inner {
    fn open(socket: &Path, timeout: Duration) -> Result<Inner, WaylandError> {
        let client = Client::connect(socket, timeout)?;
        let globals = client.globals();
        for (interface, what) in [
            (
                zwlr_virtual_pointer_manager_v1::ZwlrVirtualPointerManagerV1::interface().name,
                "virtual pointer",
            ),
            (
                zwp_virtual_keyboard_manager_v1::ZwpVirtualKeyboardManagerV1::interface().name,
                "virtual keyboard",
            ),
            (wl_seat::WlSeat::interface().name, "seat"),
        ] {
            if !globals.has(interface) {
                return Err(unsupported(&format!("{interface} ({what})"), globals));
            }
        }
        let seat: wl_seat::WlSeat = client.bind(1)?;
        let mut client = client;
        client.roundtrip("reading the seat")?;
        let before = client.seat_capabilities().unwrap_or(0);
        let pointer_manager: zwlr_virtual_pointer_manager_v1::ZwlrVirtualPointerManagerV1 =
            client.bind(2)?;
        let keyboard_manager: zwp_virtual_keyboard_manager_v1::ZwpVirtualKeyboardManagerV1 =
            client.bind(1)?;
        let pointer = pointer_manager.create_virtual_pointer(Some(&seat), client.qh(), ());
        let keyboard = keyboard_manager.create_virtual_keyboard(&seat, client.qh(), ());
        let mut inner = Inner {
            client,
            pointer,
            keyboard,
            keymap: None,
            start: Instant::now(),
        };
        // Wait until the seat has both devices; when it had not before,
        // give the clients time to bind theirs.
        let both = SEAT_POINTER | SEAT_KEYBOARD;
        let deadline = Instant::now() + inner.client.timeout();
        inner.client.dispatch_until(
            "creating the virtual pointer and keyboard",
            deadline,
            |s| s.seat_capabilities().is_some_and(|c| c & both == both),
        )?;
        inner
            .client
            .roundtrip("creating the virtual pointer and keyboard")?;
        if before & both != both {
            std::thread::sleep(DEVICE_SETTLE);
        }
        Ok(inner)
    }

    /// Milliseconds since the devices were made (wrapping, as the protocol's
    /// timestamps do).
    fn now(&self) -> u32 {
        #[allow(clippy::cast_possible_truncation)]
        let ms = self.start.elapsed().as_millis() as u32;
        ms
    }

    /// Moves the pointer to the layout point `(x, y)`, after a roundtrip
    /// that brings the outputs up to date.
    fn motion(&mut self, x: i64, y: i64) -> Result<(), WaylandError> {
        self.client.roundtrip("reading the outputs")?;
        let rects: Vec<LayoutRect> = self.client.outputs().iter().map(|o| o.rect()).collect();
        let (px, py, w, h) = absolute_position(&rects, x, y)?;
        let t = self.now();
        self.pointer.motion_absolute(t, px, py, w, h);
        self.pointer.frame();
        Ok(())
    }

    /// A button event and its frame.
    fn button(&self, code: u32, state: wl_pointer::ButtonState) {
        let t = self.now();
        self.pointer.button(t, code, state);
        self.pointer.frame();
    }

    /// A key event (evdev keycode).
    fn key(&self, code: u32, pressed: bool) {
        let t = self.now();
        self.keyboard.key(t, code, u32::from(pressed));
    }

    /// Makes sure the keymap has every keysym of `keysyms` (uploading a new
    /// one when not, then waiting [`KEYMAP_SETTLE`]) and returns their
    /// keycodes in order.
    fn prepare_keymap(&mut self, keysyms: &[Keysym], what: &str) -> Result<Vec<u32>, WaylandError> {
        let needed = xkb::distinct(keysyms);
        let current = self.keymap.as_ref().filter(|m| m.contains_all(&needed));
        if current.is_none() {
            let next = match &self.keymap {
                Some(map) => map.extended(&needed),
                None => Keymap::new(needed.iter().copied()),
            };
            self.upload(&next)?;
            self.keymap = Some(next);
            self.client.roundtrip(what)?;
            std::thread::sleep(KEYMAP_SETTLE);
        }
        let map = self.keymap.as_ref().ok_or_else(|| {
            WaylandError::Worker("the keymap vanished after its upload".to_owned())
        })?;
        keysyms
            .iter()
            .map(|&k| {
                map.keycode(k).ok_or_else(|| {
                    WaylandError::Invalid(format!(
                        "{} has no key in the keymap: type fewer distinct characters at once",
                        describe(k)
                    ))
                })
            })
            .collect()
    }

    /// Sends `map` to the compositor in a memory file.
    fn upload(&self, map: &Keymap) -> Result<(), WaylandError> {
        let text = map.text();
        let mut file = memfd("cup-keymap")?;
        file.write_all(text.as_bytes())
            .map_err(|source| WaylandError::Io {
                what: "writing the keymap",
                source,
            })?;
        let size = u32::try_from(text.len())
            .map_err(|_| WaylandError::Invalid("the keymap is too large".to_owned()))?;
        self.keyboard
            .keymap(KEYMAP_FORMAT_XKB_V1, file.as_fd(), size);
        // The fd is duplicated into the outgoing message: ours can close.
        Ok(())
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.pointer.destroy();
        self.keyboard.destroy();
        // Never block in a destructor (closing the connection destroys the
        // devices anyway).
        self.client.flush_now();
    }
}

/// An anonymous memory file (sealed-able `memfd`, close-on-exec).
pub(crate) fn memfd(name: &str) -> Result<File, WaylandError> {
    rustix::fs::memfd_create(name, rustix::fs::MemfdFlags::CLOEXEC)
        .map(File::from)
        .map_err(|e| WaylandError::Io {
            what: "creating a memory file",
            source: e.into(),
        })
}

/// Runs blocking Wayland work on tokio's blocking pool.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, WaylandError> + Send + 'static,
) -> Result<T, WaylandError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| WaylandError::Worker(e.to_string()))?
}

super::client::ignore_events!(
    zwlr_virtual_pointer_manager_v1::ZwlrVirtualPointerManagerV1,
    zwlr_virtual_pointer_v1::ZwlrVirtualPointerV1,
    zwp_virtual_keyboard_manager_v1::ZwpVirtualKeyboardManagerV1,
    zwp_virtual_keyboard_v1::ZwpVirtualKeyboardV1,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keysym::xk;

    #[test]
    fn buttons() {
        assert_eq!(button_code(1).ok(), Some(0x110));
        assert_eq!(button_code(2).ok(), Some(0x112));
        assert_eq!(button_code(3).ok(), Some(0x111));
        assert_eq!(button_code(8).ok(), Some(0x113));
        assert_eq!(button_code(9).ok(), Some(0x114));
        let err = button_code(4)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.starts_with("no mouse button 4: use 1 (left)"), "{err}");
    }

    #[test]
    fn points_map_onto_the_layout_box() {
        let one = [(0, 0, 1280, 800)];
        assert_eq!(absolute_position(&one, 0, 0).ok(), Some((0, 0, 1280, 800)));
        assert_eq!(
            absolute_position(&one, 1279, 799).ok(),
            Some((1279, 799, 1280, 800))
        );
        assert!(absolute_position(&one, 1280, 10).is_err());
        assert!(absolute_position(&one, -1, 10).is_err());

        // Two outputs, the second to the left and lower: the box starts at
        // (-1920, 0) and spans both.
        let two = [(0, 0, 1280, 800), (-1920, 200, 1920, 1080)];
        assert_eq!(
            absolute_position(&two, 10, 10).ok(),
            Some((1930, 10, 3200, 1280))
        );
        assert_eq!(
            absolute_position(&two, -1920, 1279).ok(),
            Some((0, 1279, 3200, 1280))
        );
        // Inside the box but on neither output.
        let err = absolute_position(&two, 100, 1000)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert_eq!(
            err,
            "the point (100, 1000) is on no output (the layout spans 3200x1280 at \
             (-1920, 0)): pick a point on the screen"
        );
        let none = absolute_position(&[], 0, 0)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(none.contains("reports no outputs"), "{none}");
    }

    #[test]
    fn text_to_keysyms() {
        assert_eq!(
            text_keysyms("a\n\tÉ✓").ok(),
            Some(vec![0x61, xk::RETURN, xk::TAB, 0xc9, 0x0100_2713])
        );
        // Skin tone and combining marks are keysyms of their own.
        assert_eq!(
            text_keysyms("👍🏽e\u{301}").ok(),
            Some(vec![0x0101_f44d, 0x0101_f3fd, 0x65, 0x0100_0301])
        );
        let err = text_keysyms("a\u{1}")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("U+0001"), "{err}");
    }
}
