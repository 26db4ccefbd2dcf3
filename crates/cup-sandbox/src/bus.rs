//! The D-Bus side: `org.a11y.Bus` on the session bus and the AT-SPI registry
//! on the accessibility bus, through the zbus that `atspi` re-exports.
//!
//! The public API is synchronous. Each bus conversation runs on a helper
//! thread with its own current-thread tokio runtime, so it also works when
//! the caller is itself inside a tokio runtime (e.g. `#[tokio::test]`).

use std::future::Future;
use std::time::{Duration, Instant};

use atspi::zbus;
use zbus::fdo::DBusProxy;
use zbus::names::BusName;
use zbus::zvariant::{OwnedObjectPath, OwnedValue, Value};
use zbus::Connection;

use crate::error::SandboxError;

/// How long one D-Bus call may take before it counts as failed (and is
/// retried while the overall deadline allows).
const CALL_TIMEOUT: Duration = Duration::from_secs(3);
/// Pause between two polls.
pub(crate) const POLL: Duration = Duration::from_millis(25);

const REGISTRY: &str = "org.a11y.atspi.Registry";
const ROOT_PATH: &str = "/org/a11y/atspi/accessible/root";
const ACCESSIBLE: &str = "org.a11y.atspi.Accessible";
/// `ATSPI_STATE_SHOWING`: bit 25 of the first word of `GetState`.
const STATE_SHOWING: u32 = 25;

/// Runs `future` to completion on a fresh current-thread runtime on a
/// scoped helper thread, and returns its output.
pub(crate) fn block_on<T, F>(future: F) -> Result<T, SandboxError>
where
    T: Send,
    F: Future<Output = T> + Send,
{
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(SandboxError::io(
                    "creating the tokio runtime for D-Bus calls",
                ))?;
            Ok(runtime.block_on(future))
        });
        handle.join().unwrap_or_else(|_| {
            Err(SandboxError::Bus {
                context: "D-Bus helper thread".into(),
                message: "panicked; this is a bug in cup-sandbox".into(),
            })
        })
    })
}

/// Opens a connection to the bus at `address`.
pub(crate) async fn connect(address: &str, what: &str) -> Result<Connection, SandboxError> {
    zbus::connection::Builder::address(address)
        .map_err(SandboxError::bus(format!(
            "parsing the {what} address {address}"
        )))?
        .method_timeout(CALL_TIMEOUT)
        .build()
        .await
        .map_err(SandboxError::bus(format!(
            "connecting to the {what} at {address}"
        )))
}

/// What `wait_a11y_bus` found.
#[derive(Debug)]
pub(crate) struct A11yBus {
    pub address: String,
    pub registry_pid: u32,
}

/// Waits until the bus launcher owns `org.a11y.Bus` on the session bus,
/// reads the accessibility bus address, sets `org.a11y.Status.IsEnabled`,
/// then makes the registry start (D-Bus activation by `GetChildren`) and
/// returns its pid. `alive` is asked between polls whether the launcher
/// still runs (it returns the exit status once it has exited).
/// Whether `name` has an owner on the bus at `address`.
pub(crate) async fn name_has_owner(address: &str, name: &str) -> Result<bool, SandboxError> {
    let bus = connect(address, "session bus").await?;
    let dbus = DBusProxy::new(&bus)
        .await
        .map_err(SandboxError::bus("creating the org.freedesktop.DBus proxy"))?;
    let name = BusName::try_from(name).map_err(SandboxError::bus("a bus name"))?;
    dbus.name_has_owner(name)
        .await
        .map_err(SandboxError::bus("NameHasOwner on the session bus"))
}

/// Adds `vars` to the environment the session bus at `address` gives the
/// services it starts (as a desktop session does: the portals need
/// `XDG_CURRENT_DESKTOP` and the display).
pub(crate) async fn update_activation_environment(
    address: &str,
    vars: &[(&str, &str)],
) -> Result<(), SandboxError> {
    let bus = connect(address, "session bus").await?;
    let dbus = DBusProxy::new(&bus)
        .await
        .map_err(SandboxError::bus("creating the org.freedesktop.DBus proxy"))?;
    let map: std::collections::HashMap<&str, &str> = vars.iter().copied().collect();
    dbus.update_activation_environment(map)
        .await
        .map_err(SandboxError::bus(
            "UpdateActivationEnvironment on the session bus",
        ))
}

/// Sets GNOME Shell's `OverviewActive` to `active` on the session bus at
/// `address` and answers whether it now is (the shell opens its overview
/// when it starts).
pub(crate) async fn gnome_overview(address: &str, active: bool) -> Result<bool, SandboxError> {
    let bus = connect(address, "session bus").await?;
    let props = zbus::fdo::PropertiesProxy::builder(&bus)
        .destination("org.gnome.Shell")
        .and_then(|b| b.path("/org/gnome/Shell"))
        .map_err(SandboxError::bus("a proxy of org.gnome.Shell"))?
        .build()
        .await
        .map_err(SandboxError::bus("a proxy of org.gnome.Shell"))?;
    let interface = zbus::names::InterfaceName::try_from("org.gnome.Shell")
        .map_err(SandboxError::bus("org.gnome.Shell"))?;
    props
        .set(interface.clone(), "OverviewActive", Value::from(active))
        .await
        .map_err(SandboxError::bus("setting org.gnome.Shell.OverviewActive"))?;
    let now = props
        .get(interface, "OverviewActive")
        .await
        .map_err(SandboxError::bus("reading org.gnome.Shell.OverviewActive"))?;
    Ok(bool::try_from(now).unwrap_or(!active) == active)
}

pub(crate) async fn wait_a11y_bus(
    session_address: &str,
    deadline: Instant,
    timeout: Duration,
    mut alive: impl FnMut() -> Option<String> + Send,
) -> Result<A11yBus, SandboxError> {
    let session = connect(session_address, "session bus").await?;
    let dbus = DBusProxy::new(&session)
        .await
        .map_err(SandboxError::bus("creating the org.freedesktop.DBus proxy"))?;
    let a11y_bus_name =
        BusName::try_from("org.a11y.Bus").map_err(SandboxError::bus("org.a11y.Bus"))?;

    // Poll NameHasOwner rather than calling org.a11y.Bus right away: a call
    // before the launcher owns the name would D-Bus-activate a second one.
    loop {
        let owned = dbus
            .name_has_owner(a11y_bus_name.clone())
            .await
            .map_err(SandboxError::bus(
                "NameHasOwner(org.a11y.Bus) on the session bus",
            ))?;
        if owned {
            break;
        }
        if let Some(status) = alive() {
            return Err(SandboxError::ComponentExited {
                component: "at-spi-bus-launcher".into(),
                status,
                detail: String::new(),
            });
        }
        if Instant::now() >= deadline {
            return Err(SandboxError::NotReady {
                component: "at-spi-bus-launcher".into(),
                timeout,
                detail: "it never took the name org.a11y.Bus on the session bus".into(),
            });
        }
        tokio::time::sleep(POLL).await;
    }

    let reply = session
        .call_method(
            Some("org.a11y.Bus"),
            "/org/a11y/bus",
            Some("org.a11y.Bus"),
            "GetAddress",
            &(),
        )
        .await
        .map_err(SandboxError::bus(
            "org.a11y.Bus.GetAddress on the session bus",
        ))?;
    let address: String = reply.body().deserialize().map_err(SandboxError::bus(
        "reading the reply of org.a11y.Bus.GetAddress",
    ))?;

    // Qt5, Chromium and Electron only expose themselves when IsEnabled is
    // true; apps that wait for a screen reader look at ScreenReaderEnabled.
    for property in ["IsEnabled", "ScreenReaderEnabled"] {
        session
            .call_method(
                Some("org.a11y.Bus"),
                "/org/a11y/bus",
                Some("org.freedesktop.DBus.Properties"),
                "Set",
                &("org.a11y.Status", property, Value::from(true)),
            )
            .await
            .map_err(SandboxError::bus(match property {
                "IsEnabled" => "setting org.a11y.Status.IsEnabled = true",
                _ => "setting org.a11y.Status.ScreenReaderEnabled = true",
            }))?;
    }

    let a11y = connect(&address, "accessibility bus").await?;
    loop {
        let last_error = match registry_children(&a11y).await {
            Ok(_) => break,
            Err(e) => e.to_string(),
        };
        if Instant::now() >= deadline {
            return Err(SandboxError::NotReady {
                component: "at-spi2-registryd".into(),
                timeout,
                detail: format!("GetChildren on the registry did not answer: {last_error}"),
            });
        }
        tokio::time::sleep(POLL).await;
    }
    let registry_pid = connection_pid(&a11y, REGISTRY).await?;
    Ok(A11yBus {
        address,
        registry_pid,
    })
}

/// The applications registered with the registry: (bus name, object path).
pub(crate) async fn registry_children(
    a11y: &Connection,
) -> Result<Vec<(String, OwnedObjectPath)>, SandboxError> {
    children(a11y, REGISTRY, ROOT_PATH).await
}

/// `Accessible.GetChildren` of one object.
pub(crate) async fn children(
    a11y: &Connection,
    bus_name: &str,
    path: &str,
) -> Result<Vec<(String, OwnedObjectPath)>, SandboxError> {
    let context = || format!("{ACCESSIBLE}.GetChildren on {bus_name} {path}");
    let reply = a11y
        .call_method(Some(bus_name), path, Some(ACCESSIBLE), "GetChildren", &())
        .await
        .map_err(|e| SandboxError::bus(context())(e))?;
    reply
        .body()
        .deserialize()
        .map_err(|e| SandboxError::bus(context())(e))
}

/// Whether the object has `STATE_SHOWING`.
pub(crate) async fn is_showing(
    a11y: &Connection,
    bus_name: &str,
    path: &str,
) -> Result<bool, SandboxError> {
    let context = || format!("{ACCESSIBLE}.GetState on {bus_name} {path}");
    let reply = a11y
        .call_method(Some(bus_name), path, Some(ACCESSIBLE), "GetState", &())
        .await
        .map_err(|e| SandboxError::bus(context())(e))?;
    let words: Vec<u32> = reply
        .body()
        .deserialize()
        .map_err(|e| SandboxError::bus(context())(e))?;
    Ok(words.first().is_some_and(|w| w & (1 << STATE_SHOWING) != 0))
}

/// The `Name` property of an accessible (empty when unreadable).
pub(crate) async fn name(a11y: &Connection, bus_name: &str, path: &str) -> String {
    let reply = a11y
        .call_method(
            Some(bus_name),
            path,
            Some("org.freedesktop.DBus.Properties"),
            "Get",
            &(ACCESSIBLE, "Name"),
        )
        .await;
    reply
        .ok()
        .and_then(|r| r.body().deserialize::<OwnedValue>().ok())
        .and_then(|v| String::try_from(v).ok())
        .unwrap_or_default()
}

/// `GetConnectionUnixProcessID` of a bus name.
pub(crate) async fn connection_pid(bus: &Connection, name: &str) -> Result<u32, SandboxError> {
    let context = || format!("GetConnectionUnixProcessID({name})");
    let dbus = DBusProxy::new(bus)
        .await
        .map_err(|e| SandboxError::bus(context())(e))?;
    let bus_name = BusName::try_from(name).map_err(|e| SandboxError::bus(context())(e))?;
    dbus.get_connection_unix_process_id(bus_name)
        .await
        .map_err(|e| SandboxError::bus(context())(e))
}
