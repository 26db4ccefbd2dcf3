//! The sandbox's X cookie: Xvfb takes only clients that present it
//! (`-auth FILE`), so another user or process on the host that can reach
//! the display's socket can neither read the screen nor inject input.
//! The cookie lives in the sandbox's 0700 state directory, in two
//! Xauthority files (mode 0600): one read by Xvfb at start-up (display
//! number left empty: Xvfb picks its display itself), and the one clients
//! get in `XAUTHORITY`, written once the display number is known (Xlib,
//! libxcb and x11rb match entries by display number).

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The only authorization protocol Xvfb and every client library share.
pub const MIT_MAGIC_COOKIE: &str = "MIT-MAGIC-COOKIE-1";
/// Bytes of a cookie.
const COOKIE_BYTES: usize = 16;
/// Xauthority's family for "any address".
const FAMILY_WILD: u16 = 0xffff;

/// A fresh cookie from the system's random source.
pub fn new_cookie() -> std::io::Result<[u8; COOKIE_BYTES]> {
    let mut cookie = [0u8; COOKIE_BYTES];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut cookie)?;
    Ok(cookie)
}

/// One Xauthority entry for `cookie`, any address, display `number`
/// (empty: any display, as Xvfb reads it).
pub fn entry(number: &str, cookie: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&FAMILY_WILD.to_be_bytes());
    for field in [
        &b""[..],
        number.as_bytes(),
        MIT_MAGIC_COOKIE.as_bytes(),
        cookie,
    ] {
        // Every field is far below 64 KiB.
        let len = u16::try_from(field.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(field);
    }
    out
}

/// The (protocol name, data) of the first entry of an Xauthority file.
pub fn cookie_of(bytes: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut at = 2usize;
    let mut field = || {
        let len = usize::from(u16::from_be_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]));
        let data = bytes.get(at + 2..at + 2 + len)?.to_vec();
        at += 2 + len;
        Some(data)
    };
    let _address = field()?;
    let _number = field()?;
    let name = field()?;
    let data = field()?;
    Some((name, data))
}

/// Writes `bytes` to a new file `path` readable by its owner only.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_in_xauthority_format() {
        let e = entry("7", &[1, 2, 3]);
        // family, address "", number "7", name, data.
        let mut want = vec![0xff, 0xff, 0, 0, 0, 1, b'7', 0, 18];
        want.extend_from_slice(MIT_MAGIC_COOKIE.as_bytes());
        want.extend_from_slice(&[0, 3, 1, 2, 3]);
        assert_eq!(e, want);
        assert_eq!(
            cookie_of(&e),
            Some((MIT_MAGIC_COOKIE.as_bytes().to_vec(), vec![1, 2, 3]))
        );
        assert_eq!(cookie_of(&e[..e.len() - 1]), None);
        let cookies: Vec<_> = (0..2).filter_map(|_| new_cookie().ok()).collect();
        assert_eq!(cookies.len(), 2);
        assert_ne!(cookies[0], cookies[1]);
    }
}
