//! Input on KWin (KDE Plasma) through `org_kde_kwin_fake_input`: pointer
//! motion to absolute places, buttons, wheel, and keys by evdev keycode.
//!
//! KWin offers the protocol only to a program that one of its desktop
//! files allows (`X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input`, its
//! `Exec=` the program's path): without it the global is not there, and
//! every call says how to allow it ([`not_allowed`]). Version 4 (Plasma
//! 5.27) types by keycode only, so text is limited to the keys of the US
//! layout ([`us_key`]); anything else is refused in one line naming the
//! AT-SPI route that types any script.

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use wayland_client::Proxy;
use wayland_protocols_plasma::fake_input::client::org_kde_kwin_fake_input as fake;

use super::client::{Client, Globals, WaylandError};
use super::vinput::blocking;

/// evdev codes of the pointer buttons (left, middle, right, back, forward)
/// by X-style number.
pub fn button_code(button: u8) -> Result<u32, WaylandError> {
    match button {
        1 => Ok(0x110),
        2 => Ok(0x112),
        3 => Ok(0x111),
        8 => Ok(0x113),
        9 => Ok(0x114),
        n => Err(WaylandError::Invalid(format!(
            "button {n} does not exist: use left, middle, right, back or forward"
        ))),
    }
}

/// The evdev keycode of the left Shift key.
pub const SHIFT: u32 = 42;

/// The key of the US layout that types `c`, and whether Shift is held for
/// it; `None` for a character the layout has no key for.
pub fn us_key(c: char) -> Option<(u32, bool)> {
    const ROW_DIGITS: &str = "1234567890";
    const ROW_Q: &str = "qwertyuiop";
    const ROW_A: &str = "asdfghjkl";
    const ROW_Z: &str = "zxcvbnm";
    if let Some(i) = ROW_DIGITS.find(c) {
        return Some((2 + i as u32, false));
    }
    let lower = c.to_ascii_lowercase();
    let shifted = c.is_ascii_uppercase();
    for (row, first) in [(ROW_Q, 16u32), (ROW_A, 30), (ROW_Z, 44)] {
        if let Some(i) = row.find(lower) {
            return Some((first + i as u32, shifted));
        }
    }
    let plain = |code| Some((code, false));
    let shift = |code| Some((code, true));
    match c {
        ' ' => plain(57),
        '\n' => plain(28),
        '\t' => plain(15),
        '-' => plain(12),
        '=' => plain(13),
        '[' => plain(26),
        ']' => plain(27),
        ';' => plain(39),
        '\'' => plain(40),
        '`' => plain(41),
        '\\' => plain(43),
        ',' => plain(51),
        '.' => plain(52),
        '/' => plain(53),
        '!' => shift(2),
        '@' => shift(3),
        '#' => shift(4),
        '$' => shift(5),
        '%' => shift(6),
        '^' => shift(7),
        '&' => shift(8),
        '*' => shift(9),
        '(' => shift(10),
        ')' => shift(11),
        '_' => shift(12),
        '+' => shift(13),
        '{' => shift(26),
        '}' => shift(27),
        ':' => shift(39),
        '"' => shift(40),
        '~' => shift(41),
        '|' => shift(43),
        '<' => shift(51),
        '>' => shift(52),
        '?' => shift(53),
        _ => None,
    }
}

/// The keys (`(code, shift)`) that type `text` on the US layout, or the
/// one-line refusal naming the first character it has no key for.
pub fn text_keys(text: &str) -> Result<Vec<(u32, bool)>, WaylandError> {
    text.chars()
        .map(|c| {
            us_key(c).ok_or_else(|| {
                WaylandError::Unsupported(format!(
                    "unsupported: typing {c:?} on KWin 5 (its fake input types by key, and the US layout has no key for it); use the element's type or set_value action, which writes the text through AT-SPI in any script"
                ))
            })
        })
        .collect()
}

/// The refusal when KWin does not offer the protocol to this program.
pub fn not_allowed(globals: &Globals) -> WaylandError {
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "this program".to_owned());
    WaylandError::Unsupported(format!(
        "unsupported: input on KWin without org_kde_kwin_fake_input (KWin offers it only to programs a desktop file allows): run `cup setup kde` as the desktop's user, or add a desktop file with Exec={exe} and X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input to ~/.local/share/applications (compositor offers: {})",
        globals.names().join(", ")
    ))
}

/// A desktop file that lets the program `exe` use KWin's fake input (and
/// its screenshots, for later use).
pub fn desktop_file(exe: &Path) -> String {
    format!(
        "[Desktop Entry]\n\
         Type=Application\n\
         Name=cup\n\
         Comment=Computer Use Protocol: an agent's pointer and keys\n\
         Exec={}\n\
         NoDisplay=true\n\
         X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input\n\
         X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2,org.kde.KWin.EIS.RemoteDesktop\n",
        exe.display()
    )
}

/// Writes the desktop file (`desktop_file`) for `exe` into `data_home`'s `applications`
/// folder (`$XDG_DATA_HOME`, else `~/.local/share`), where KWin reads it
/// when the program connects; returns the file written.
///
/// # Errors
///
/// The folder or the file cannot be written.
pub fn install_desktop_file(data_home: &Path, exe: &Path) -> std::io::Result<std::path::PathBuf> {
    let dir = data_home.join("applications");
    std::fs::create_dir_all(&dir)?;
    let name = exe
        .file_name()
        .map_or_else(|| "program".into(), |n| n.to_string_lossy().into_owned());
    let file = dir.join(format!("cup-input-{name}.desktop"));
    std::fs::write(&file, desktop_file(exe))?;
    Ok(file)
}

/// KWin's fake input over one long-lived connection.
#[derive(Debug, Clone)]
pub struct FakeInput {
    inner: Arc<Mutex<Device>>,
}

#[derive(Debug)]
struct Device {
    client: Client,
    input: fake::OrgKdeKwinFakeInput,
}

impl FakeInput {
    /// Connects to KWin at `socket` and authenticates (each wait bounded
    /// by `timeout`).
    pub async fn open(socket: &Path, timeout: Duration) -> Result<FakeInput, WaylandError> {
        let socket = socket.to_path_buf();
        let device = blocking(move || {
            let client = Client::connect(&socket, timeout)?;
            if !client
                .globals()
                .has(fake::OrgKdeKwinFakeInput::interface().name)
            {
                return Err(not_allowed(client.globals()));
            }
            let input: fake::OrgKdeKwinFakeInput = client.bind(4)?;
            input.authenticate(
                "cup".to_owned(),
                "computer use: an agent acts on this desktop".to_owned(),
            );
            let mut device = Device { client, input };
            device
                .client
                .roundtrip("authenticating to KWin's fake input")?;
            Ok(device)
        })
        .await?;
        Ok(FakeInput {
            inner: Arc::new(Mutex::new(device)),
        })
    }

    /// Keeps this device, and so the seat's pointer, for as long as KWin
    /// keeps the connection: a round trip every `every`, each under the
    /// connection's deadline. A round trip KWin is too busy to answer in
    /// time (it stalls while it hashes a new client's program) is no
    /// reason to let go; a closed connection is. Returns why it ended.
    pub async fn keep(&self, every: Duration) -> WaylandError {
        loop {
            tokio::time::sleep(every).await;
            match self.with("holding the pointer device", |_| Ok(())).await {
                Ok(()) | Err(WaylandError::Timeout { .. }) => {}
                Err(e) => return e,
            }
        }
    }

    /// Moves the pointer to `(x, y)` and lets KWin handle it before
    /// `then` sends more (buttons, wheel): KWin handles a client's
    /// requests in order, so once it answers the round trip after the
    /// motion, the pointer is there and its focus follows it (a press
    /// sent with the motion, without the round trip, went nowhere).
    async fn at(
        &self,
        x: i64,
        y: i64,
        what: &'static str,
        then: impl FnOnce(&fake::OrgKdeKwinFakeInput) -> Result<(), WaylandError> + Send + 'static,
    ) -> Result<(), WaylandError> {
        let inner = Arc::clone(&self.inner);
        blocking(move || {
            let mut d = inner.lock().unwrap_or_else(PoisonError::into_inner);
            d.input.pointer_motion_absolute(x as f64, y as f64);
            d.client.roundtrip(what)?;
            then(&d.input)?;
            d.client.roundtrip(what)
        })
        .await
    }

    async fn with(
        &self,
        what: &'static str,
        work: impl FnOnce(&fake::OrgKdeKwinFakeInput) -> Result<(), WaylandError> + Send + 'static,
    ) -> Result<(), WaylandError> {
        let inner = Arc::clone(&self.inner);
        blocking(move || {
            let mut d = inner.lock().unwrap_or_else(PoisonError::into_inner);
            work(&d.input)?;
            d.client.roundtrip(what)
        })
        .await
    }

    /// Moves the pointer to `(x, y)` on the screen.
    pub async fn move_to(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        self.with("moving the pointer", move |i| {
            i.pointer_motion_absolute(x as f64, y as f64);
            Ok(())
        })
        .await
    }

    /// Presses (`down`) or releases `button` at `(x, y)`.
    pub async fn button(&self, x: i64, y: i64, button: u8, down: bool) -> Result<(), WaylandError> {
        let code = button_code(button)?;
        self.at(x, y, "pressing a button", move |i| {
            i.button(code, u32::from(down));
            Ok(())
        })
        .await
    }

    /// Clicks `button` `count` times at `(x, y)`.
    pub async fn click(&self, x: i64, y: i64, button: u8, count: u8) -> Result<(), WaylandError> {
        if !(1..=3).contains(&count) {
            return Err(WaylandError::Invalid(format!(
                "a click count of {count} is not 1, 2 or 3"
            )));
        }
        let code = button_code(button)?;
        self.at(x, y, "clicking", move |i| {
            for _ in 0..count {
                i.button(code, 1);
                i.button(code, 0);
            }
            Ok(())
        })
        .await
    }

    /// Turns the wheel at `(x, y)` by `dx`, `dy` notches (positive: right,
    /// down).
    pub async fn scroll(&self, x: i64, y: i64, dx: i32, dy: i32) -> Result<(), WaylandError> {
        // One notch is 15 units, as a mouse wheel reports it.
        self.at(x, y, "scrolling", move |i| {
            if dy != 0 {
                i.axis(0, f64::from(dy) * 15.0);
            }
            if dx != 0 {
                i.axis(1, f64::from(dx) * 15.0);
            }
            Ok(())
        })
        .await
    }

    /// Presses `codes` in order and releases them in reverse (a combo).
    pub async fn keys(&self, codes: &[u32]) -> Result<(), WaylandError> {
        let codes = codes.to_vec();
        self.with("pressing keys", move |i| {
            for &c in &codes {
                i.keyboard_key(c, 1);
            }
            for &c in codes.iter().rev() {
                i.keyboard_key(c, 0);
            }
            Ok(())
        })
        .await
    }

    /// Presses (`down`) or releases the keys `codes` (modifiers held
    /// around a pointer gesture), releasing in reverse order.
    pub async fn hold(&self, codes: &[u32], down: bool) -> Result<(), WaylandError> {
        let codes = codes.to_vec();
        self.with("holding keys", move |i| {
            if down {
                for &c in &codes {
                    i.keyboard_key(c, 1);
                }
            } else {
                for &c in codes.iter().rev() {
                    i.keyboard_key(c, 0);
                }
            }
            Ok(())
        })
        .await
    }

    /// Types `text` on the US layout (see [`text_keys`]).
    pub async fn type_text(&self, text: &str) -> Result<(), WaylandError> {
        let keys = text_keys(text)?;
        self.with("typing", move |i| {
            for (code, shift) in keys {
                if shift {
                    i.keyboard_key(SHIFT, 1);
                }
                i.keyboard_key(code, 1);
                i.keyboard_key(code, 0);
                if shift {
                    i.keyboard_key(SHIFT, 0);
                }
            }
            Ok(())
        })
        .await
    }
}

super::client::ignore_events!(fake::OrgKdeKwinFakeInput);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn us_keys_with_and_without_shift() {
        assert_eq!(us_key('a'), Some((30, false)));
        assert_eq!(us_key('A'), Some((30, true)));
        assert_eq!(us_key('1'), Some((2, false)));
        assert_eq!(us_key('0'), Some((11, false)));
        assert_eq!(us_key('!'), Some((2, true)));
        assert_eq!(us_key(' '), Some((57, false)));
        assert_eq!(us_key('m'), Some((50, false)));
        assert_eq!(us_key('p'), Some((25, false)));
        assert_eq!(us_key('é'), None);
        let keys = text_keys("Hi!").expect("ascii");
        assert_eq!(keys, vec![(35, true), (23, false), (2, true)]);
        let refused = text_keys("héllo").expect_err("é has no key");
        assert!(refused.to_string().starts_with("unsupported: typing 'é'"));
    }

    #[test]
    fn the_desktop_file_names_the_program_and_the_interfaces() {
        let text = desktop_file(Path::new("/usr/local/bin/cup"));
        assert!(text.starts_with("[Desktop Entry]\n"));
        assert!(text.contains("\nExec=/usr/local/bin/cup\n"));
        assert!(text.contains("\nX-KDE-Wayland-Interfaces=org_kde_kwin_fake_input\n"));
    }

    #[test]
    fn buttons_are_evdev_codes() {
        assert_eq!(button_code(1).ok(), Some(0x110));
        assert_eq!(button_code(3).ok(), Some(0x111));
        assert!(button_code(7).is_err());
    }
}
