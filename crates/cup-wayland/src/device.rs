//! cup's input on a Wayland desktop: the compositor's virtual pointer and
//! keyboard ([`super::vinput`]) behind the same [`InputOps`] the element
//! actions use on X11, and the pointer gestures of `cup input`.
//!
//! Wayland has no way to ask where the pointer is; the device remembers
//! where it last put it.

use std::sync::Mutex;
use std::time::Duration;

use cup::{AdapterError, Button, Point};
use cup_protocol::keys::{Combo, Key, Modifier};
use cup_protocol::Direction;

use super::client::WaylandError;
use super::fakeinput::FakeInput;
use super::vinput::WaylandInput;
use super::xkb::Keymap;
use crate::keysym;
use cup_linux_display::device::GestureDevice;
use cup_linux_display::device::InputOps;

/// The X-style number of a button (1 left, 2 middle, 3 right, 8 back,
/// 9 forward).
fn number(button: Button) -> u8 {
    match button {
        Button::Left => 1,
        Button::Middle => 2,
        Button::Right => 3,
        Button::Back => 8,
        Button::Forward => 9,
    }
}

/// The keysyms of a combo: its modifiers' (left) keys first, then its
/// keys.
pub fn combo_keysyms(combo: &Combo) -> Vec<u32> {
    let mut out: Vec<u32> = combo
        .modifiers
        .iter()
        .filter_map(|m| keysym::modifier_keysyms(*m).first().copied())
        .collect();
    out.extend(combo.keys.iter().filter_map(|k| match k {
        Key::Char(c) => keysym::char_keysym(*c),
        Key::Named(n) => Some(keysym::named_keysym(*n)),
    }));
    out
}

/// Wheel notches (dx, dy) for a scroll `direction` of `amount`.
pub fn notches(direction: Direction, amount: u32) -> (i32, i32) {
    let n = i32::try_from(amount).unwrap_or(i32::MAX);
    match direction {
        Direction::Up => (0, -n),
        Direction::Down => (0, n),
        Direction::Left => (-n, 0),
        Direction::Right => (n, 0),
    }
}

/// The points a drag passes through: each leg of `path` cut into `steps`
/// moves (at least one), ending on every waypoint.
pub fn drag_points(path: &[Point], steps: u32) -> Vec<Point> {
    let steps = i64::from(steps.max(1));
    let mut out = Vec::new();
    for leg in path.windows(2) {
        let (a, b) = (leg[0], leg[1]);
        for i in 1..=steps {
            out.push(Point::new(
                a.x + (b.x - a.x) * i / steps,
                a.y + (b.y - a.y) * i / steps,
            ));
        }
    }
    out
}

fn platform(e: WaylandError) -> AdapterError {
    match e {
        WaylandError::Invalid(m) => AdapterError::Invalid(m),
        e => AdapterError::Platform(e.to_string()),
    }
}

/// The keysyms of held modifiers (their left keys).
pub fn modifier_keysyms(modifiers: &[Modifier]) -> Vec<u32> {
    modifiers
        .iter()
        .filter_map(|m| keysym::modifier_keysyms(*m).first().copied())
        .collect()
}

/// The compositor's input devices: the wlroots virtual pointer and
/// keyboard, or KWin's fake input.
#[derive(Debug)]
enum Devices {
    Wlr(WaylandInput),
    KWin(FakeInput),
    Mutter(super::mutter::MutterInput),
    /// EIS handed out by the compositor itself (KWin 6.1+).
    Eis(super::eis::EisInput),
}

/// The US keycode of `keysym` (KWin's fake input and an EIS keyboard
/// type by key), or the one-line refusal naming `on` (the device).
pub fn us_keycode(keysym: u32, on: &str) -> Result<u32, WaylandError> {
    Keymap::new([]).keycode(keysym).ok_or_else(|| {
        WaylandError::Unsupported(format!(
            "unsupported: the key {keysym:#x} on {on} (it has the US keyboard's keys only)"
        ))
    })
}

impl Devices {
    async fn click(&self, x: i64, y: i64, button: u8, count: u8) -> Result<(), WaylandError> {
        match self {
            Devices::Wlr(i) => i.click(x, y, button, count).await,
            Devices::KWin(f) => f.click(x, y, button, count).await,
            Devices::Mutter(m) => m.click(x, y, button, count).await,
            Devices::Eis(e) => e.click(x, y, button, count).await,
        }
    }

    async fn button_down(&self, x: i64, y: i64, button: u8) -> Result<(), WaylandError> {
        match self {
            Devices::Wlr(i) => i.button_down(x, y, button).await,
            Devices::KWin(f) => f.button(x, y, button, true).await,
            Devices::Mutter(m) => m.button(x, y, button, true).await,
            Devices::Eis(e) => e.button(x, y, button, true).await,
        }
    }

    async fn button_up(&self, x: i64, y: i64, button: u8) -> Result<(), WaylandError> {
        match self {
            Devices::Wlr(i) => i.button_up(x, y, button).await,
            Devices::KWin(f) => f.button(x, y, button, false).await,
            Devices::Mutter(m) => m.button(x, y, button, false).await,
            Devices::Eis(e) => e.button(x, y, button, false).await,
        }
    }

    async fn move_to(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        match self {
            Devices::Wlr(i) => i.move_to(x, y).await,
            Devices::KWin(f) => f.move_to(x, y).await,
            Devices::Mutter(m) => m.move_to(x, y).await,
            Devices::Eis(e) => e.move_to(x, y).await,
        }
    }

    async fn scroll(&self, x: i64, y: i64, dx: i32, dy: i32) -> Result<(), WaylandError> {
        match self {
            Devices::Wlr(i) => i.scroll(x, y, dx, dy).await,
            Devices::KWin(f) => f.scroll(x, y, dx, dy).await,
            Devices::Mutter(m) => m.scroll(x, y, dx, dy).await,
            Devices::Eis(e) => e.scroll(x, y, dx, dy).await,
        }
    }

    async fn prime_keyboard(&self) -> Result<bool, WaylandError> {
        match self {
            Devices::Mutter(m) => m.prime_keyboard().await,
            Devices::Wlr(_) | Devices::Eis(_) | Devices::KWin(_) => Ok(false),
        }
    }

    async fn keys(&self, keysyms: &[u32]) -> Result<(), WaylandError> {
        match self {
            Devices::Wlr(i) => i.keys(keysyms).await,
            Devices::Mutter(m) => m.keys(keysyms).await,
            Devices::Eis(e) => e.keys(keysyms).await,
            Devices::KWin(f) => {
                let codes = keysyms
                    .iter()
                    .map(|&k| us_keycode(k, "KWin 5's fake input"))
                    .collect::<Result<Vec<_>, _>>()?;
                f.keys(&codes).await
            }
        }
    }

    async fn type_text(&self, text: &str) -> Result<(), WaylandError> {
        match self {
            Devices::Wlr(i) => i.type_text(text).await,
            Devices::KWin(f) => f.type_text(text).await,
            Devices::Mutter(m) => m.type_text(text).await,
            Devices::Eis(e) => e.type_text(text).await,
        }
    }

    async fn hold_modifiers(&self, keysyms: &[u32], down: bool) -> Result<(), WaylandError> {
        match self {
            Devices::Wlr(i) => i.hold_modifiers(keysyms, down).await,
            Devices::Mutter(m) => m.hold(keysyms, down).await,
            Devices::Eis(e) => e.hold(keysyms, down).await,
            Devices::KWin(f) => {
                let codes = keysyms
                    .iter()
                    .map(|&k| us_keycode(k, "KWin 5's fake input"))
                    .collect::<Result<Vec<_>, _>>()?;
                f.hold(&codes, down).await
            }
        }
    }
}

/// The virtual pointer and keyboard of one Wayland desktop.
#[derive(Debug)]
pub struct WaylandDevice {
    input: Devices,
    last: Mutex<Option<Point>>,
}

impl WaylandDevice {
    /// Opens the virtual devices on the compositor at `socket`.
    ///
    /// # Errors
    ///
    /// The compositor cannot be reached or offers no virtual pointer or
    /// keyboard (a one-line `unsupported: …` naming what it offers).
    pub async fn open(socket: &std::path::Path) -> Result<WaylandDevice, WaylandError> {
        Ok(WaylandDevice {
            input: Devices::Wlr(WaylandInput::open(socket).await?),
            last: Mutex::new(None),
        })
    }

    /// Runs `work` with `modifiers` held (pressed before, released after
    /// whatever happened, so none stays down).
    async fn holding<F>(&self, modifiers: &[Modifier], work: F) -> Result<(), AdapterError>
    where
        F: std::future::Future<Output = Result<(), AdapterError>>,
    {
        let keys = modifier_keysyms(modifiers);
        if keys.is_empty() {
            return work.await;
        }
        self.input
            .hold_modifiers(&keys, true)
            .await
            .map_err(platform)?;
        let done = work.await;
        let released = self
            .input
            .hold_modifiers(&keys, false)
            .await
            .map_err(platform);
        done.and(released)
    }

    /// Opens KWin's fake input on the compositor at `socket`.
    ///
    /// # Errors
    ///
    /// KWin cannot be reached, or does not offer the protocol to this
    /// program (a one-line `unsupported: …` saying how to allow it).
    pub async fn open_kwin(socket: &std::path::Path) -> Result<WaylandDevice, WaylandError> {
        Ok(WaylandDevice {
            input: Devices::KWin(FakeInput::open(socket, super::client::DEFAULT_TIMEOUT).await?),
            last: Mutex::new(None),
        })
    }

    /// Opens a mutter RemoteDesktop session on the session bus `conn`
    /// with a stream on each of `monitors` (GNOME).
    ///
    /// # Errors
    ///
    /// Mutter refuses the session or does not answer in time.
    pub async fn open_mutter(
        conn: &zbus::Connection,
        monitors: &[(cup::Monitor, String)],
        shell: Option<super::gnome::shell::GnomeShell>,
        socket: Option<&std::path::Path>,
    ) -> Result<WaylandDevice, WaylandError> {
        // Read before the session makes a keyboard of its own.
        let keyboard_before = match socket {
            Some(socket) => {
                let socket = socket.to_owned();
                let read = tokio::task::spawn_blocking(move || {
                    super::client::Client::connect(&socket, super::client::DEFAULT_TIMEOUT)?
                        .seat_has_keyboard()
                })
                .await
                .map_err(|e| e.to_string())
                .and_then(|r| r.map_err(|e| e.to_string()));
                read.map_err(
                    |e| tracing::debug!(error = %e, "the seat's keyboard could not be read"),
                )
                .ok()
            }
            None => None,
        };
        Ok(WaylandDevice {
            input: Devices::Mutter(
                super::mutter::MutterInput::open(conn, monitors, shell)
                    .await?
                    .with_keyboard_before(keyboard_before)
                    .use_eis()
                    .await?,
            ),
            last: Mutex::new(None),
        })
    }

    /// Opens a remote-desktop session through the desktop portal on the
    /// session bus `conn` (a dialog the first time; the restore token in
    /// `token_file` after), waiting up to `consent` for the user.
    ///
    /// # Errors
    ///
    /// No portal, the user declined, or no answer in time.
    pub async fn open_portal(
        conn: &zbus::Connection,
        token_file: &std::path::Path,
        consent: Duration,
        shell: Option<super::gnome::shell::GnomeShell>,
    ) -> Result<WaylandDevice, WaylandError> {
        Ok(WaylandDevice {
            input: Devices::Mutter(
                super::mutter::MutterInput::open_portal(conn, token_file, consent, shell)
                    .await?
                    .use_eis()
                    .await?,
            ),
            last: Mutex::new(None),
        })
    }

    /// Speaks EIS on `socket` (handed out by the compositor).
    ///
    /// # Errors
    ///
    /// The handshake or the devices failed (see [`super::eis`]).
    pub async fn open_eis(socket: std::os::fd::OwnedFd) -> Result<WaylandDevice, WaylandError> {
        Ok(WaylandDevice {
            input: Devices::Eis(super::eis::EisInput::connect(socket).await?),
            last: Mutex::new(None),
        })
    }

    /// Whether input goes through EIS.
    pub fn is_eis(&self) -> bool {
        match &self.input {
            Devices::Mutter(m) => m.is_eis(),
            Devices::Eis(_) => true,
            _ => false,
        }
    }

    /// Whether input goes through the desktop portal.
    pub fn is_portal(&self) -> bool {
        matches!(&self.input, Devices::Mutter(m) if m.is_portal())
    }

    fn moved(&self, to: Point) {
        if let Ok(mut last) = self.last.lock() {
            *last = Some(to);
        }
    }

    /// Where cup last put the pointer.
    pub fn cursor(&self) -> Result<Point, AdapterError> {
        self.last.lock().ok().and_then(|l| *l).ok_or_else(|| {
            AdapterError::Unsupported(
                "unsupported: reading the pointer position on Wayland (compositors do not tell clients); cup knows it only after it moved the pointer".into(),
            )
        })
    }

    async fn click_point(&self, at: Point, button: u8, count: u8) -> Result<(), AdapterError> {
        self.input
            .click(at.x, at.y, button, count)
            .await
            .map_err(platform)?;
        self.moved(at);
        Ok(())
    }

    async fn press_button(
        &self,
        at: Option<Point>,
        button: u8,
        down: bool,
    ) -> Result<(), AdapterError> {
        let at = match at {
            Some(p) => p,
            None => self.cursor()?,
        };
        let done = if down {
            self.input.button_down(at.x, at.y, button).await
        } else {
            self.input.button_up(at.x, at.y, button).await
        };
        done.map_err(platform)?;
        self.moved(at);
        Ok(())
    }

    async fn drag_path(
        &self,
        path: &[Point],
        button: u8,
        duration: Duration,
        steps: u32,
    ) -> Result<(), AdapterError> {
        let (Some(&first), Some(_)) = (path.first(), path.get(1)) else {
            return Err(AdapterError::Invalid(
                "a drag needs at least two points: --from X,Y --to X,Y".into(),
            ));
        };
        let points = drag_points(path, steps);
        let pause = duration / u32::try_from(points.len()).unwrap_or(u32::MAX).max(1);
        self.input
            .button_down(first.x, first.y, button)
            .await
            .map_err(platform)?;
        let mut moved = Ok(());
        for (i, p) in points.iter().enumerate() {
            // The pacing is the gesture itself (a drag the app can follow);
            // the first move follows the press at once (a press held still
            // is a long press to GTK: its sliders then turn to fine-tuning).
            if i > 0 {
                tokio::time::sleep(pause).await;
            }
            moved = self.input.move_to(p.x, p.y).await.map_err(platform);
            if moved.is_err() {
                break;
            }
        }
        // The button goes up whatever happened, so none stays held.
        let end = points.last().copied().unwrap_or(first);
        let up = self
            .input
            .button_up(end.x, end.y, button)
            .await
            .map_err(platform);
        self.moved(end);
        moved.and(up)
    }
}

#[async_trait::async_trait]
impl GestureDevice for WaylandDevice {
    fn reads_pointer(&self) -> bool {
        false
    }

    async fn move_pointer(&self, to: Point) -> Result<Option<Point>, AdapterError> {
        self.input.move_to(to.x, to.y).await.map_err(platform)?;
        self.moved(to);
        Ok(None)
    }

    async fn click(
        &self,
        at: Point,
        button: Button,
        count: u8,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError> {
        self.holding(modifiers, self.click_point(at, number(button), count))
            .await
    }

    async fn button(
        &self,
        at: Option<Point>,
        button: Button,
        down: bool,
    ) -> Result<(), AdapterError> {
        self.press_button(at, number(button), down).await
    }

    async fn drag(
        &self,
        path: &[Point],
        button: Button,
        duration: Duration,
        steps: Option<u32>,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError> {
        self.holding(
            modifiers,
            self.drag_path(path, number(button), duration, steps.unwrap_or(20)),
        )
        .await
    }

    async fn scroll(
        &self,
        at: Option<Point>,
        direction: Direction,
        amount: u32,
        modifiers: &[Modifier],
    ) -> Result<(), AdapterError> {
        let at = match at {
            Some(p) => p,
            None => self.cursor()?,
        };
        let (dx, dy) = notches(direction, amount);
        let scroll = async {
            self.input
                .scroll(at.x, at.y, dx, dy)
                .await
                .map_err(platform)?;
            self.moved(at);
            Ok(())
        };
        self.holding(modifiers, scroll).await
    }

    async fn write(&self, text: &str) -> Result<(), AdapterError> {
        self.input.type_text(text).await.map_err(platform)
    }

    async fn pointer(&self) -> Result<Point, AdapterError> {
        self.cursor()
    }
}

#[async_trait::async_trait]
impl InputOps for WaylandDevice {
    async fn click_at(&self, x: i64, y: i64, button: u8, count: u8) -> Result<(), AdapterError> {
        self.click_point(Point::new(x, y), button, count).await
    }

    async fn hold_at(
        &self,
        x: i64,
        y: i64,
        button: u8,
        hold: Duration,
    ) -> Result<(), AdapterError> {
        let at = Some(Point::new(x, y));
        self.press_button(at, button, true).await?;
        // The hold is the gesture itself (a long press), not a settle wait.
        tokio::time::sleep(hold).await;
        self.press_button(at, button, false).await
    }

    async fn wheel_at(
        &self,
        x: i64,
        y: i64,
        direction: Direction,
        amount: u32,
    ) -> Result<(), AdapterError> {
        let (dx, dy) = notches(direction, amount);
        self.input.scroll(x, y, dx, dy).await.map_err(platform)?;
        self.moved(Point::new(x, y));
        Ok(())
    }

    async fn prime_keyboard(&self) -> Result<bool, AdapterError> {
        self.input.prime_keyboard().await.map_err(platform)
    }

    async fn keys(&self, combo: &Combo) -> Result<(), AdapterError> {
        self.input
            .keys(&combo_keysyms(combo))
            .await
            .map_err(platform)
    }

    async fn type_text(&self, text: &str) -> Result<(), AdapterError> {
        self.input.type_text(text).await.map_err(platform)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_modifiers_are_their_left_keys() {
        assert_eq!(
            modifier_keysyms(&[Modifier::Ctrl, Modifier::Shift]),
            vec![0xffe3, 0xffe1]
        );
        assert!(modifier_keysyms(&[]).is_empty());
    }

    #[test]
    fn a_combo_is_its_modifier_keys_then_its_keys() {
        let combo: Combo = "ctrl+shift+t".parse().expect("a combo");
        assert_eq!(combo_keysyms(&combo), vec![0xffe3, 0xffe1, u32::from('t')]);
        let enter: Combo = "enter".parse().expect("a combo");
        assert_eq!(combo_keysyms(&enter), vec![0xff0d]);
    }

    #[test]
    fn scroll_directions_are_signed_notches() {
        assert_eq!(notches(Direction::Down, 3), (0, 3));
        assert_eq!(notches(Direction::Up, 2), (0, -2));
        assert_eq!(notches(Direction::Left, 1), (-1, 0));
        assert_eq!(notches(Direction::Right, 4), (4, 0));
    }

    #[test]
    fn a_drag_ends_on_every_waypoint() {
        let path = [Point::new(0, 0), Point::new(100, 0), Point::new(100, 50)];
        let points = drag_points(&path, 4);
        assert_eq!(points.len(), 8);
        assert_eq!(points[3], Point::new(100, 0));
        assert_eq!(points[7], Point::new(100, 50));
        assert_eq!(points[0], Point::new(25, 0));
    }
}
