//! KWin's own EIS entry (Plasma 6.1 and later): `connectToEIS` on
//! `org.kde.KWin` at `/org/kde/KWin/EIS/RemoteDesktop` hands back a
//! socket speaking libei's protocol ([`crate::eis`]) with the keyboard and
//! the pointer (absolute, buttons, scroll). KWin guards it like its other
//! restricted interfaces: the desktop file `cup setup kde` writes lists
//! it. Plasma 5 has no such object: cup then uses the fake-input
//! protocol.

use std::os::fd::OwnedFd;

use zbus::Connection;

use crate::client::WaylandError;

const PATH: &str = "/org/kde/KWin/EIS/RemoteDesktop";
/// The interface.
pub const INTERFACE: &str = "org.kde.KWin.EIS.RemoteDesktop";
/// `connectToEIS`'s device bits (as the portal counts them): keyboard 1,
/// pointer 2.
const KEYBOARD_AND_POINTER: i32 = 1 | 2;

/// The EIS socket KWin hands out, or `None` where KWin has no EIS entry
/// (Plasma 5) or does not allow it to this program.
///
/// # Errors
///
/// KWin did not answer within [`super::script::TIMEOUT`].
pub async fn connect(conn: &Connection) -> Result<Option<OwnedFd>, WaylandError> {
    let call = conn.call_method(
        Some("org.kde.KWin"),
        PATH,
        Some(INTERFACE),
        "connectToEIS",
        &(KEYBOARD_AND_POINTER,),
    );
    let reply = match tokio::time::timeout(super::script::TIMEOUT, call).await {
        Ok(Ok(reply)) => reply,
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "no EIS from KWin");
            return Ok(None);
        }
        Err(_) => {
            return Err(WaylandError::Bus(format!(
                "KWin did not answer connectToEIS within {} s",
                super::script::TIMEOUT.as_secs()
            )))
        }
    };
    let (fd, _cookie): (zbus::zvariant::OwnedFd, i32) = reply
        .body()
        .deserialize()
        .map_err(|e| WaylandError::Bus(format!("KWin's EIS socket: {e}")))?;
    Ok(Some(OwnedFd::from(fd)))
}
