//! The xdg-desktop-portal RemoteDesktop route (pure): what cup asks the
//! portal and how it reads the answers. The portal is the consent-based
//! way to drive any current desktop (GNOME, KDE, wlroots): the user
//! allows cup once in a dialog, and the portal hands back a restore token
//! with which later sessions start without asking again.
//!
//! The conversation (`org.freedesktop.portal.RemoteDesktop`, portal
//! version 2 for persistence):
//! 1. `CreateSession` → a request; its `Response` carries the session
//!    handle;
//! 2. `SelectDevices` with the device types (keyboard, pointer), the
//!    persist mode (until revoked) and the restore token kept from last
//!    time;
//! 3. `org.freedesktop.portal.ScreenCast.SelectSources` (monitors, so the
//!    pointer can be placed absolutely on a stream);
//! 4. `Start` → the dialog (or none, with a valid restore token); its
//!    `Response` carries the devices granted, the streams (PipeWire node
//!    id, position, size) and the new restore token, which cup keeps;
//! 5. `NotifyPointerMotionAbsolute(session, {}, node, x, y)`,
//!    `NotifyPointerButton`, `NotifyPointerAxisDiscrete`,
//!    `NotifyKeyboardKeysym`.
//!
//! Each request's `Response` comes as a signal on a path cup can name
//! before it calls ([`request_path`]); the transport subscribes first.

pub mod client;

use std::path::{Path, PathBuf};

use cup_protocol::Rect;
use serde::{Deserialize, Serialize};

/// The portal's bus name.
pub const DESKTOP: &str = "org.freedesktop.portal.Desktop";
/// Its object.
pub const PATH: &str = "/org/freedesktop/portal/desktop";
/// The remote-desktop interface.
pub const REMOTE_DESKTOP: &str = "org.freedesktop.portal.RemoteDesktop";
/// The screen-cast interface (its sources give the pointer a place).
pub const SCREEN_CAST: &str = "org.freedesktop.portal.ScreenCast";
/// The screenshot interface.
pub const SCREENSHOT: &str = "org.freedesktop.portal.Screenshot";
/// The request interface (its `Response` signal).
pub const REQUEST: &str = "org.freedesktop.portal.Request";

/// Device type bits of `SelectDevices`.
pub const KEYBOARD: u32 = 1;
/// The pointer.
pub const POINTER: u32 = 2;
/// `persist_mode`: until the user revokes it.
pub const PERSIST_UNTIL_REVOKED: u32 = 2;
/// Source type bit of `SelectSources`: monitors.
pub const MONITOR: u32 = 1;

/// The path the portal answers a request on: the caller's unique name
/// without its colon, dots made underscores, then the token.
pub fn request_path(unique_name: &str, token: &str) -> String {
    let sender = unique_name.trim_start_matches(':').replace('.', "_");
    format!("{PATH}/request/{sender}/{token}")
}

/// A `Response` code read: 0 success, 1 the user declined, 2 the
/// interaction ended otherwise.
///
/// # Errors
///
/// The one-line reason for any code but 0.
pub fn response(code: u32, what: &str) -> Result<(), String> {
    match code {
        0 => Ok(()),
        1 => Err(format!(
            "unsupported: the desktop's user declined cup's request to control the pointer and keyboard ({what}); allow it in the dialog, which comes once (cup keeps the portal's restore token)"
        )),
        n => Err(format!(
            "the desktop portal ended cup's request ({what}, response {n}); check that xdg-desktop-portal and the desktop's backend run, then retry"
        )),
    }
}

/// One stream the portal started, as its `Start` response tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stream {
    /// The PipeWire node id (what pointer motion names).
    pub node: u32,
    /// Its monitor's top-left in the layout, when told.
    pub position: Option<(i32, i32)>,
    /// Its size in layout pixels, when told.
    pub size: Option<(i32, i32)>,
}

/// What `Start` answered: the native facts cup keeps.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Started {
    /// The device types granted ([`KEYBOARD`], [`POINTER`]).
    pub devices: u32,
    /// The streams.
    pub streams: Vec<Stream>,
    /// The token that starts the next session without a dialog.
    pub restore_token: Option<String>,
}

impl Started {
    /// Both devices granted, or the one-line reason.
    ///
    /// # Errors
    ///
    /// A device type was not granted.
    pub fn check(&self) -> Result<(), String> {
        let missing: Vec<&str> = [(KEYBOARD, "keyboard"), (POINTER, "pointer")]
            .iter()
            .filter(|(bit, _)| self.devices & bit == 0)
            .map(|(_, name)| *name)
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "unsupported: the desktop portal did not grant cup the {} (granted device types {}); allow it when the dialog asks",
                missing.join(" and "),
                self.devices
            ))
        }
    }

    /// The stream whose monitor holds `(x, y)` and the point relative to
    /// it. A single stream without a position is the whole screen.
    pub fn stream_point(&self, x: i64, y: i64) -> Option<(u32, f64, f64)> {
        if let [only] = self.streams.as_slice() {
            if only.position.is_none() {
                return Some((only.node, x as f64, y as f64));
            }
        }
        self.streams.iter().find_map(|s| {
            let (px, py) = s.position?;
            let (w, h) = s.size?;
            let r = Rect::new(
                i64::from(px),
                i64::from(py),
                u64::try_from(w).ok()?,
                u64::try_from(h).ok()?,
            );
            (x >= r.x && y >= r.y && x < r.right() && y < r.bottom())
                .then(|| (s.node, (x - r.x) as f64, (y - r.y) as f64))
        })
    }
}

/// The file a screenshot's `uri` names (`file://` only, percent-escapes
/// decoded).
///
/// # Errors
///
/// Not a `file://` URI.
pub fn file_of_uri(uri: &str) -> Result<PathBuf, String> {
    let path = uri.strip_prefix("file://").ok_or_else(|| {
        format!("the desktop portal's screenshot is at {uri:?}, not a local file")
    })?;
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
            if let Ok(b) = u8::from_str_radix(hex, 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    use std::os::unix::ffi::OsStringExt as _;
    Ok(PathBuf::from(std::ffi::OsString::from_vec(out)))
}

/// Where cup keeps the portal's restore token: `cup/portal-restore-token`
/// under `$XDG_STATE_HOME` (else `~/.local/state`).
pub fn token_file(state_home: &Path) -> PathBuf {
    state_home.join("cup").join("portal-restore-token")
}

/// The kept restore token, if any.
pub fn read_token(file: &Path) -> Option<String> {
    std::fs::read_to_string(file)
        .ok()
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty() && t.len() < 512)
}

/// Keeps `token` in `file`, readable by its owner only.
///
/// # Errors
///
/// The folder or the file cannot be written.
pub fn write_token(file: &Path, token: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(file)?;
    f.write_all(token.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_paths_follow_the_sender() {
        assert_eq!(
            request_path(":1.42", "cup7"),
            "/org/freedesktop/portal/desktop/request/1_42/cup7"
        );
    }

    #[test]
    fn responses_say_what_happened() {
        assert!(response(0, "start").is_ok());
        let declined = response(1, "start").expect_err("declined");
        assert!(declined.starts_with("unsupported: the desktop's user declined"));
        assert!(response(2, "start")
            .expect_err("ended")
            .contains("response 2"));
    }

    #[test]
    fn streams_place_the_pointer() {
        let started = Started {
            devices: KEYBOARD | POINTER,
            streams: vec![
                Stream {
                    node: 40,
                    position: Some((0, 0)),
                    size: Some((1280, 800)),
                },
                Stream {
                    node: 41,
                    position: Some((1280, 0)),
                    size: Some((1280, 800)),
                },
            ],
            restore_token: Some("t".into()),
        };
        assert!(started.check().is_ok());
        assert_eq!(started.stream_point(10, 20), Some((40, 10.0, 20.0)));
        assert_eq!(started.stream_point(1300, 5), Some((41, 20.0, 5.0)));
        assert_eq!(started.stream_point(2600, 5), None);
        let whole = Started {
            devices: KEYBOARD,
            streams: vec![Stream {
                node: 7,
                position: None,
                size: None,
            }],
            restore_token: None,
        };
        assert_eq!(whole.stream_point(5, 6), Some((7, 5.0, 6.0)));
        let refused = whole.check().expect_err("no pointer");
        assert!(refused.contains("the pointer"), "{refused}");
    }

    #[test]
    fn screenshot_uris_name_local_files() {
        assert_eq!(
            file_of_uri("file:///home/u/Pictures/Screenshot%20from%202026.png").ok(),
            Some(PathBuf::from("/home/u/Pictures/Screenshot from 2026.png"))
        );
        assert!(file_of_uri("https://example.invalid/x.png").is_err());
    }

    #[test]
    fn the_token_is_kept_private() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = std::env::temp_dir().join(format!("cup-portal-token-{}", std::process::id()));
        let file = token_file(&dir);
        assert_eq!(read_token(&file), None);
        write_token(&file, "abc\n").expect("written");
        assert_eq!(read_token(&file).as_deref(), Some("abc"));
        let mode = std::fs::metadata(&file)
            .expect("there")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
