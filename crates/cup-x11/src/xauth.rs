//! Connecting to an X server that wants a cookie. A process that drives
//! one desktop finds it the usual way (`XAUTHORITY`, else
//! `~/.Xauthority`: x11rb reads them). One that drives several private
//! desktops at once (tests, `cup serve`, benches) names each display's
//! Xauthority file ([`Desktop::xauthority`](crate::Desktop)): it is
//! registered here by display name, and every X connection cup opens
//! ([`connect`]) presents that file's cookie.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use x11rb::errors::ConnectError;
use x11rb::reexports::x11rb_protocol::parse_display::parse_display;
use x11rb::rust_connection::{DefaultStream, RustConnection};

/// Xauthority file by display name.
fn registry() -> &'static Mutex<HashMap<String, PathBuf>> {
    static FILES: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    FILES.get_or_init(Mutex::default)
}

/// Makes cup's connections to `display` present the cookie in the
/// Xauthority file `path` (instead of the process's `XAUTHORITY`).
pub fn register(display: &str, path: &Path) {
    if let Ok(mut files) = registry().lock() {
        files.insert(display.to_owned(), path.to_owned());
    }
}

/// The Xauthority file registered for `display`.
pub fn registered(display: &str) -> Option<PathBuf> {
    registry().lock().ok()?.get(display).cloned()
}

/// One Xauthority entry: (display number, protocol name, data).
type Entry = (String, Vec<u8>, Vec<u8>);

/// The entries of an Xauthority file (big-endian u16 family, then
/// address, display number, protocol name and data, each a u16 length and
/// bytes); `None` when the bytes are cut short.
pub fn parse(bytes: &[u8]) -> Option<Vec<Entry>> {
    let mut out = Vec::new();
    let mut at = 0usize;
    let field = |at: &mut usize| -> Option<Vec<u8>> {
        let len = usize::from(u16::from_be_bytes([*bytes.get(*at)?, *bytes.get(*at + 1)?]));
        let data = bytes.get(*at + 2..*at + 2 + len)?.to_vec();
        *at += 2 + len;
        Some(data)
    };
    while at < bytes.len() {
        // The family: every entry of a registered file is the display's.
        bytes.get(at..at + 2)?;
        at += 2;
        let _address = field(&mut at)?;
        let number = String::from_utf8(field(&mut at)?).ok()?;
        let name = field(&mut at)?;
        let data = field(&mut at)?;
        out.push((number, name, data));
    }
    Some(out)
}

/// The cookie of display `number` in `entries` (an entry without a
/// number is for any display).
pub fn cookie_for(entries: &[Entry], number: u16) -> Option<(Vec<u8>, Vec<u8>)> {
    let number = number.to_string();
    entries
        .iter()
        .find(|(n, _, _)| *n == number)
        .or_else(|| entries.iter().find(|(n, _, _)| n.is_empty()))
        .map(|(_, name, data)| (name.clone(), data.clone()))
}

/// Connects to `display` with the cookie of its registered Xauthority
/// file, or as x11rb does (the environment's) when none is registered.
///
/// # Errors
///
/// As `x11rb::connect`; an unreadable registered file is an I/O error
/// that names it.
pub fn connect(display: &str) -> Result<(RustConnection, usize), ConnectError> {
    let Some(path) = registered(display) else {
        return x11rb::connect(Some(display));
    };
    let bytes = std::fs::read(&path).map_err(|e| {
        ConnectError::IoError(std::io::Error::new(
            e.kind(),
            format!("cannot read the Xauthority file {}: {e}", path.display()),
        ))
    })?;
    let parsed = parse_display(Some(display))?;
    let (name, data) = parse(&bytes)
        .and_then(|entries| cookie_for(&entries, parsed.display))
        .unwrap_or_default();
    let screen = usize::from(parsed.screen);
    let mut error = None;
    for addr in parsed.connect_instruction() {
        match DefaultStream::connect(&addr) {
            Ok((stream, _)) => {
                let conn =
                    RustConnection::connect_to_stream_with_auth_info(stream, screen, name, data)?;
                return Ok((conn, screen));
            }
            Err(e) => error = Some(e),
        }
    }
    Err(error.map_or(
        ConnectError::DisplayParsingError(x11rb::errors::DisplayParsingError::Unknown),
        ConnectError::IoError,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(number: &str, data: &[u8]) -> Vec<u8> {
        let mut out = vec![0xff, 0xff, 0, 0];
        for f in [number.as_bytes(), b"MIT-MAGIC-COOKIE-1", data] {
            out.extend_from_slice(&u16::try_from(f.len()).unwrap_or(0).to_be_bytes());
            out.extend_from_slice(f);
        }
        out
    }

    #[test]
    fn the_cookie_of_the_display_is_picked() {
        let mut file = entry("", &[9]);
        file.extend(entry("7", &[1, 2]));
        let entries = parse(&file).unwrap_or_default();
        assert_eq!(entries.len(), 2);
        assert_eq!(cookie_for(&entries, 7).map(|c| c.1), Some(vec![1, 2]));
        // Any display: the entry without a number.
        assert_eq!(cookie_for(&entries, 3).map(|c| c.1), Some(vec![9]));
        // A file cut short is no file.
        assert!(parse(&file[..file.len() - 1]).is_none());
        assert_eq!(parse(&[]).map(|e| e.len()), Some(0));
    }

    #[test]
    fn registered_files_are_found_by_display() {
        register(":4242", Path::new("/tmp/x"));
        assert_eq!(registered(":4242"), Some(PathBuf::from("/tmp/x")));
        assert_eq!(registered(":4243"), None);
    }
}
