//! Connecting to the AT-SPI accessibility bus, with deadlines and errors
//! that name the missing piece.

use std::time::Duration;

use atspi::zbus;
use cup::AdapterError;

use crate::env::Desktop;
use zbus::Connection;

/// Per-call deadline on the accessibility bus: a hung app fails its calls
/// instead of hanging the capture.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(2);

const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

fn unavailable(msg: impl Into<String>) -> AdapterError {
    AdapterError::Unavailable(msg.into())
}

/// A connection to the desktop's D-Bus session bus.
async fn session(desktop: &Desktop) -> Result<Connection, AdapterError> {
    let Some(session_addr) = &desktop.session_bus else {
        return Err(unavailable(
            "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset); run inside a desktop session, or start one with `cup sandbox start`",
        ));
    };
    let session = zbus::connection::Builder::address(session_addr.as_str())
        .map_err(|e| {
            unavailable(format!(
                "bad D-Bus session bus address '{session_addr}': {e}"
            ))
        })?
        .method_timeout(CALL_TIMEOUT);
    let session = tokio::time::timeout(CONNECT_TIMEOUT, session.build())
        .await
        .map_err(|_| unavailable("the D-Bus session bus did not answer within 3 s"))?
        .map_err(|e| {
            unavailable(format!(
                "cannot connect to the D-Bus session bus: {e}; check DBUS_SESSION_BUS_ADDRESS"
            ))
        })?;
    Ok(session)
}

/// The session's `org.a11y.Status.IsEnabled` flag: whether toolkits are
/// asked to expose their accessibility trees.
pub async fn a11y_enabled(desktop: &Desktop) -> Result<bool, AdapterError> {
    let session = session(desktop).await?;
    let reply = session
        .call_method(
            Some("org.a11y.Bus"),
            "/org/a11y/bus",
            Some("org.freedesktop.DBus.Properties"),
            "Get",
            &("org.a11y.Status", "IsEnabled"),
        )
        .await
        .map_err(|e| unavailable(format!("cannot read org.a11y.Status.IsEnabled: {e}")))?;
    let value: zbus::zvariant::OwnedValue = reply
        .body()
        .deserialize()
        .map_err(|e| unavailable(format!("org.a11y.Status.IsEnabled answered oddly: {e}")))?;
    bool::try_from(value)
        .map_err(|e| unavailable(format!("org.a11y.Status.IsEnabled is not a boolean: {e}")))
}

/// The address of the accessibility bus: the desktop's `a11y_bus` when
/// set, else `org.a11y.Bus.GetAddress` on its session bus.
pub async fn a11y_address(desktop: &Desktop) -> Result<String, AdapterError> {
    if let Some(addr) = &desktop.a11y_bus {
        return Ok(addr.clone());
    }
    let session = session(desktop).await?;
    let reply = session
        .call_method(Some("org.a11y.Bus"), "/org/a11y/bus", Some("org.a11y.Bus"), "GetAddress", &())
        .await
        .map_err(|e| {
            unavailable(format!(
                "no accessibility bus (org.a11y.Bus.GetAddress failed: {e}); install at-spi2-core (apt-get install at-spi2-core) and run in a session with accessibility enabled, or use `cup sandbox start`"
            ))
        })?;
    reply
        .body()
        .deserialize::<String>()
        .map_err(|e| unavailable(format!("org.a11y.Bus.GetAddress answered oddly: {e}")))
}

/// A connection to the accessibility bus, and the bus's address.
pub async fn connect(desktop: &Desktop) -> Result<(Connection, String), AdapterError> {
    let addr = a11y_address(desktop).await?;
    let builder = zbus::connection::Builder::address(addr.as_str())
        .map_err(|e| unavailable(format!("bad accessibility bus address '{addr}': {e}")))?
        .method_timeout(CALL_TIMEOUT);
    let conn = tokio::time::timeout(CONNECT_TIMEOUT, builder.build())
        .await
        .map_err(|_| unavailable(format!("the accessibility bus at {addr} did not answer within 3 s; unset a stale AT_SPI_BUS_ADDRESS")))?
        .map_err(|e| {
            unavailable(format!(
                "cannot connect to the accessibility bus at {addr}: {e}; unset a stale AT_SPI_BUS_ADDRESS or restart at-spi-bus-launcher"
            ))
        })?;
    announce_listener(&conn).await;
    Ok((conn, addr))
}

/// Registers event listeners with the AT-SPI registry. Toolkit bridges
/// (GTK's atk-bridge) switch on their object cache (`Cache.GetItems`, one
/// call for a whole tree) only once some client listens to events; the
/// registration lasts as long as this connection. Best effort: without a
/// registry the capture still works, by walking.
async fn announce_listener(conn: &Connection) {
    let calls = LISTENED.iter().map(|event| async move {
        let body = (*event, Vec::<String>::new(), "");
        let call = conn.call_method(
            Some("org.a11y.atspi.Registry"),
            "/org/a11y/atspi/registry",
            Some("org.a11y.atspi.Registry"),
            "RegisterEvent",
            &body,
        );
        match tokio::time::timeout(CALL_TIMEOUT, call).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::debug!(event, error = %e, "RegisterEvent failed"),
            Err(_) => tracing::debug!(event, "RegisterEvent timed out"),
        }
    });
    futures::future::join_all(calls).await;
}

/// The events cup listens to: what actions observe (states, names, values,
/// text, children, windows, focus). Listening also switches GTK's cache on.
const LISTENED: &[&str] = &[
    "object:children-changed",
    "object:state-changed",
    "object:property-change:accessible-name",
    "object:property-change:accessible-value",
    "object:text-changed",
    "object:text-selection-changed",
    "window:create",
    "window:destroy",
    "focus:",
];
