//! Who owns a name on the session bus (KWin, GNOME Shell, the portal),
//! under a deadline.

use std::time::Duration;

use zbus::Connection;

/// The deadline of one call to the bus daemon.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(2);

/// Whether `name` has an owner on the bus `conn` (false when the bus does
/// not answer within [`CALL_TIMEOUT`]).
pub async fn name_has_owner(conn: &Connection, name: &str) -> bool {
    name_owner(conn, name).await.is_some()
}

/// The unique name (`:1.42`) that owns `name` on this bus, if any: a
/// service that restarts gets a new one.
pub async fn name_owner(conn: &Connection, name: &str) -> Option<String> {
    let dbus = zbus::fdo::DBusProxy::new(conn).await.ok()?;
    let name = zbus::names::BusName::try_from(name).ok()?;
    tokio::time::timeout(CALL_TIMEOUT, dbus.get_name_owner(name))
        .await
        .ok()
        .and_then(Result::ok)
        .map(|owner| owner.to_string())
}
