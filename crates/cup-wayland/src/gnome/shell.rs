//! The transport of [`super`]: one session-bus connection to
//! gnome-shell, for cup's extension (`org.cup.Shell`: windows, activation,
//! screenshots), mutter's `DisplayConfig` (the monitors) and mutter's
//! `RemoteDesktop` ([`crate::mutter`]). Every call is bounded by
//! [`TIMEOUT`]: a shell that does not answer makes the call fail, never
//! hang.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use cup::{AdapterError, Monitor};
use zbus::zvariant::OwnedValue;
use zbus::Connection;

use super::{self as gnome, ExtensionVersion, LogicalMonitor, BUS_NAME, PATH};

/// Longest one call may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);

/// Mutter's input service (there on every GNOME on Wayland).
pub const REMOTE_DESKTOP: &str = "org.gnome.Mutter.RemoteDesktop";
const DISPLAY_CONFIG: &str = "org.gnome.Mutter.DisplayConfig";

/// gnome-shell on one session bus.
#[derive(Debug, Clone)]
pub struct GnomeShell {
    conn: Connection,
    /// The extension's version once read, with the unique bus name that
    /// answered: asked again only when another process owns
    /// `org.cup.Shell` (the shell restarted).
    checked: Arc<Mutex<Option<(String, ExtensionVersion)>>>,
}

fn unavailable(what: &str, e: impl std::fmt::Display) -> AdapterError {
    AdapterError::Unavailable(format!("GNOME: {what}: {e}"))
}

/// A `GetCurrentState` physical monitor: `((connector, vendor, product,
/// serial), modes, properties)`.
type Physical = (
    (String, String, String, String),
    Vec<(
        String,
        i32,
        i32,
        f64,
        f64,
        Vec<f64>,
        HashMap<String, OwnedValue>,
    )>,
    HashMap<String, OwnedValue>,
);
/// A `GetCurrentState` logical monitor: `(x, y, scale, transform, primary,
/// monitors, properties)`.
type Logical = (
    i32,
    i32,
    f64,
    u32,
    bool,
    Vec<(String, String, String, String)>,
    HashMap<String, OwnedValue>,
);

impl GnomeShell {
    /// Connects to the session bus at `address`.
    pub async fn connect(address: &str) -> Result<GnomeShell, AdapterError> {
        let build = zbus::connection::Builder::address(address)
            .map_err(|e| unavailable("the session bus address", e))?
            .method_timeout(TIMEOUT)
            .build();
        let conn = tokio::time::timeout(TIMEOUT, build)
            .await
            .map_err(|_| unavailable("connecting to the session bus", "no answer within 2 s"))?
            .map_err(|e| unavailable("connecting to the session bus", e))?;
        Ok(GnomeShell {
            conn,
            checked: Arc::default(),
        })
    }

    /// The session-bus connection (mutter's input).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Whether `name` has an owner on this bus.
    pub async fn has_owner(&self, name: &str) -> bool {
        crate::bus::name_has_owner(&self.conn, name).await
    }

    /// Whether this bus is a GNOME session's (mutter's RemoteDesktop is
    /// on it).
    pub async fn present(&self) -> bool {
        self.has_owner(REMOTE_DESKTOP).await
    }

    async fn call<B, R>(&self, method: &str, body: &B, what: &str) -> Result<R, AdapterError>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType,
        R: for<'d> serde::Deserialize<'d> + zbus::zvariant::Type,
    {
        let call = self
            .conn
            .call_method(Some(BUS_NAME), PATH, Some(BUS_NAME), method, body);
        let reply = tokio::time::timeout(TIMEOUT, call)
            .await
            .map_err(|_| {
                AdapterError::Unavailable(format!(
                    "GNOME Shell did not answer {what} within 2 s (is the shell busy or hung?)"
                ))
            })?
            .map_err(|e| {
                let text = e.to_string();
                if text.contains("ServiceUnknown") || text.contains("UnknownMethod") {
                    AdapterError::Unsupported(format!(
                        "unsupported: {what} on GNOME without {}",
                        gnome::missing_extension(&text)
                    ))
                } else {
                    AdapterError::Platform(format!("GNOME Shell: {what}: {text}"))
                }
            })?;
        reply
            .body()
            .deserialize()
            .map_err(|e| AdapterError::Platform(format!("GNOME Shell's answer to {what}: {e}")))
    }

    /// The extension's version, or the one-line reason it cannot be used
    /// (not running, or older than this cup). One round trip while the
    /// same shell runs; the version is read again after a restart.
    pub async fn extension(&self) -> Result<ExtensionVersion, String> {
        let Some(owner) = crate::bus::name_owner(&self.conn, BUS_NAME).await else {
            return Err(gnome::missing_extension(
                "nothing owns org.cup.Shell on the session bus",
            ));
        };
        let remembered = self
            .checked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .filter(|(seen, _)| *seen == owner)
            .map(|(_, version)| version.clone());
        if let Some(version) = remembered {
            return Ok(version);
        }
        let json: String = self
            .call("Version", &(), "asking cup's extension its version")
            .await
            .map_err(|e| e.to_string())?;
        let version: ExtensionVersion = serde_json::from_str(&json)
            .map_err(|e| format!("cup's GNOME Shell extension answered {json:?}: {e}"))?;
        if version.extension < gnome::EXTENSION_VERSION {
            return Err(format!(
                "cup's GNOME Shell extension is version {}, this cup needs {}: {}",
                version.extension,
                gnome::EXTENSION_VERSION,
                gnome::SETUP_LINE
            ));
        }
        *self.checked.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((owner, version.clone()));
        Ok(version)
    }

    /// The windows' JSON (see [`crate::reported`]).
    pub async fn windows(&self) -> Result<String, AdapterError> {
        self.call("Windows", &(), "listing the windows").await
    }

    /// Activates the window with the shell's `id`; false when it is gone.
    pub async fn activate(&self, id: &str) -> Result<bool, AdapterError> {
        self.call("Activate", &(id,), "activating a window").await
    }

    /// Where the pointer is, in layout pixels.
    pub async fn pointer(&self) -> Result<(i32, i32), AdapterError> {
        self.call("Pointer", &(), "reading the pointer's place")
            .await
    }

    /// A PNG of the area `(x, y, w, h)` in layout pixels.
    pub async fn screenshot(&self, area: (i32, i32, i32, i32)) -> Result<Vec<u8>, AdapterError> {
        self.call("Screenshot", &area, "taking a screenshot").await
    }

    /// The monitors (from mutter's `DisplayConfig`), each with its
    /// connector.
    pub async fn monitors(&self) -> Result<Vec<(Monitor, String)>, AdapterError> {
        let call = self.conn.call_method(
            Some(DISPLAY_CONFIG),
            "/org/gnome/Mutter/DisplayConfig",
            Some(DISPLAY_CONFIG),
            "GetCurrentState",
            &(),
        );
        let reply = tokio::time::timeout(TIMEOUT, call)
            .await
            .map_err(|_| {
                AdapterError::Unavailable("mutter did not tell its monitors within 2 s".into())
            })?
            .map_err(|e| AdapterError::Platform(format!("mutter's monitors: {e}")))?;
        let (_serial, physical, logical, properties): (
            u32,
            Vec<Physical>,
            Vec<Logical>,
            HashMap<String, OwnedValue>,
        ) = reply
            .body()
            .deserialize()
            .map_err(|e| AdapterError::Platform(format!("mutter's monitors: {e}")))?;
        let layout_logical = properties
            .get("layout-mode")
            .and_then(|v| u32::try_from(v).ok())
            .is_some_and(|m| m == 1);
        let facts = logical_monitors(&physical, &logical);
        Ok(gnome::monitors_of(&facts, layout_logical))
    }
}

/// The native facts of `GetCurrentState`'s monitors: each logical monitor
/// with its first monitor's connector and that monitor's current mode.
fn logical_monitors(physical: &[Physical], logical: &[Logical]) -> Vec<LogicalMonitor> {
    logical
        .iter()
        .map(|(x, y, scale, transform, primary, monitors, _)| {
            let connector = monitors.first().map(|m| m.0.clone()).unwrap_or_default();
            let mode = physical
                .iter()
                .find(|p| p.0 .0 == connector)
                .and_then(|p| {
                    p.1.iter().find(|m| {
                        m.6.get("is-current")
                            .and_then(|v| bool::try_from(v).ok())
                            .unwrap_or(false)
                    })
                })
                .map_or((0, 0), |m| (m.1, m.2));
            LogicalMonitor {
                connector,
                x: *x,
                y: *y,
                scale: *scale,
                transform: *transform,
                primary: *primary,
                mode,
            }
        })
        .collect()
}
