//! Direct (peer-to-peer) connections to applications.
//!
//! Every AT-SPI call normally travels app ↔ bus daemon ↔ cup. Toolkit
//! bridges also listen on a private socket of their own
//! (`Application.GetApplicationBusAddress`); talking to it directly skips
//! the daemon's routing, which roughly halves the cost of each call. An app
//! that offers no socket (or refuses the connection) is reached through the
//! bus, over a second, lean connection of its own. Both are spoken to with
//! cup's lean client ([`crate::wire`]), which costs a fraction of `zbus`'s
//! CPU per call; the `zbus` connection keeps signals and the registry.

use std::collections::HashMap;
use std::sync::Mutex;

use atspi::zbus;
use zbus::Connection;

use crate::atspi_calls::{self as calls, CallResult, Caller, ObjRef};
use crate::bus::CALL_TIMEOUT;
use crate::wire::{RawBody, WireConn, WireError};

/// Where an application's calls go: its own socket, or the bus.
#[derive(Debug, Clone)]
pub enum Peer {
    /// The application's own socket.
    Direct(WireConn),
    /// The accessibility bus, through cup's lean connection to it.
    Routed(WireConn),
    /// The accessibility bus, through `zbus`.
    Bus(Connection),
}

impl Peer {
    /// The lean connection and the destination a call to `obj` carries,
    /// or the `zbus` connection.
    fn route<'a>(
        &'a self,
        obj: &'a ObjRef,
    ) -> Result<(&'a WireConn, Option<&'a str>), &'a Connection> {
        match self {
            Peer::Bus(conn) => Err(conn),
            Peer::Direct(wire) => Ok((wire, None)),
            Peer::Routed(wire) => Ok((wire, Some(obj.bus.as_str()))),
        }
    }
}

impl Caller for Peer {
    async fn call<B, R>(&self, obj: &ObjRef, iface: &str, method: &str, body: &B) -> CallResult<R>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType + Sync,
        R: serde::de::DeserializeOwned + zbus::zvariant::Type + Send,
    {
        match self.route(obj) {
            Ok((wire, destination)) => {
                let call = wire.call_typed(destination, &obj.path, iface, method, body);
                bounded(call, iface, method).await
            }
            Err(conn) => conn.call(obj, iface, method, body).await,
        }
    }

    async fn call_raw(&self, obj: &ObjRef, iface: &str, method: &str) -> CallResult<RawBody> {
        match self.route(obj) {
            Ok((wire, destination)) => {
                let call = wire.call(destination, &obj.path, iface, method, "", &[]);
                bounded(call, iface, method)
                    .await
                    .map(crate::wire::Reply::into_raw)
            }
            Err(conn) => conn.call_raw(obj, iface, method).await,
        }
    }
}

/// A lean call under [`CALL_TIMEOUT`], its errors as `zbus`'s.
async fn bounded<T>(
    call: impl std::future::Future<Output = Result<T, WireError>>,
    iface: &str,
    method: &str,
) -> CallResult<T> {
    match tokio::time::timeout(CALL_TIMEOUT, call).await {
        Ok(r) => r.map_err(zbus_error),
        Err(_) => Err(timed_out(iface, method)),
    }
}

fn timed_out(iface: &str, method: &str) -> zbus::Error {
    zbus::Error::InputOutput(std::sync::Arc::new(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("{iface}.{method} timed out"),
    )))
}

/// A failed direct call as the `zbus` error the rest of the adapter knows.
fn zbus_error(e: WireError) -> zbus::Error {
    use zbus::fdo::Error as Fdo;
    match e {
        WireError::Method { name, message } => match name.as_str() {
            "org.freedesktop.DBus.Error.UnknownMethod" => {
                zbus::Error::FDO(Box::new(Fdo::UnknownMethod(message)))
            }
            "org.freedesktop.DBus.Error.UnknownObject" => {
                zbus::Error::FDO(Box::new(Fdo::UnknownObject(message)))
            }
            "org.freedesktop.DBus.Error.UnknownInterface" => {
                zbus::Error::FDO(Box::new(Fdo::UnknownInterface(message)))
            }
            _ => zbus::Error::Failure(format!("{name}: {message}")),
        },
        WireError::Io(_) | WireError::Closed(_) => {
            zbus::Error::InputOutput(std::sync::Arc::new(std::io::Error::other(e.to_string())))
        }
        other => zbus::Error::Failure(other.to_string()),
    }
}

/// The accessibility bus plus a direct connection per application where
/// one could be opened.
#[derive(Debug)]
pub struct Links {
    bus: Connection,
    /// The bus's address, for the lean connection.
    address: String,
    /// The lean connection to the bus, once opened (`None` inside: it
    /// could not be).
    routed: tokio::sync::OnceCell<Option<WireConn>>,
    peers: Mutex<HashMap<String, Option<WireConn>>>,
}

impl Links {
    /// Links over `bus` (at `address`) with no other connection yet.
    pub fn new(bus: Connection, address: String) -> Self {
        Links {
            bus,
            address,
            routed: tokio::sync::OnceCell::new(),
            peers: Mutex::new(HashMap::new()),
        }
    }

    /// The accessibility bus.
    pub fn bus(&self) -> &Connection {
        &self.bus
    }

    /// The connection to use for objects of the application `bus_name`:
    /// its direct socket when one is open, else the bus (the lean
    /// connection once [`Links::open`] opened it).
    pub fn to(&self, bus_name: &str) -> Peer {
        let direct = self
            .peers
            .lock()
            .ok()
            .and_then(|p| p.get(bus_name).cloned().flatten())
            .filter(|w| !w.is_closed());
        if let Some(w) = direct {
            return Peer::Direct(w);
        }
        self.bus_peer(self.routed.get().and_then(Option::as_ref))
    }

    /// The lean connection to the bus while it is open, else `zbus`.
    fn bus_peer(&self, routed: Option<&WireConn>) -> Peer {
        match routed {
            Some(w) if !w.is_closed() => Peer::Routed(w.clone()),
            _ => Peer::Bus(self.bus.clone()),
        }
    }

    /// The bus daemon itself (registry, pids): the lean connection to the
    /// bus, opened on first use, else `zbus`.
    pub async fn daemon(&self) -> Peer {
        let routed = self.routed.get_or_init(|| self.open_routed()).await;
        self.bus_peer(routed.as_ref())
    }

    /// Tries once per application to open its direct socket, and opens
    /// the lean connection to the bus once an application has none.
    pub async fn open(&self, bus_names: &[String]) {
        let todo: Vec<String> = match self.peers.lock() {
            Ok(p) => bus_names
                .iter()
                .filter(|b| !p.contains_key(*b))
                .cloned()
                .collect(),
            Err(_) => return,
        };
        let opened = futures::future::join_all(todo.into_iter().map(|name| async move {
            let conn = tokio::time::timeout(CALL_TIMEOUT, self.direct(&name))
                .await
                .ok()
                .flatten();
            (name, conn)
        }))
        .await;
        let routed_needed = match self.peers.lock() {
            Ok(mut p) => {
                p.extend(opened);
                bus_names
                    .iter()
                    .any(|b| p.get(b).is_none_or(Option::is_none))
            }
            Err(_) => false,
        };
        if routed_needed {
            self.routed.get_or_init(|| self.open_routed()).await;
        }
    }

    /// The lean connection to the bus, or `None` when it cannot be opened
    /// (calls then go through `zbus`).
    async fn open_routed(&self) -> Option<WireConn> {
        match tokio::time::timeout(CALL_TIMEOUT, WireConn::connect(&self.address, true)).await {
            Ok(Ok(w)) => Some(w),
            Ok(Err(e)) => {
                tracing::debug!(address = %self.address, error = %e, "no lean bus connection");
                None
            }
            Err(_) => {
                tracing::debug!(address = %self.address, "lean bus connection timed out");
                None
            }
        }
    }

    async fn direct(&self, bus_name: &str) -> Option<WireConn> {
        let root = ObjRef::new(bus_name, "/org/a11y/atspi/accessible/root");
        let address: String = calls::call(
            &self.bus,
            &root,
            "org.a11y.atspi.Application",
            "GetApplicationBusAddress",
            &(),
        )
        .await
        .map_err(|e| tracing::debug!(bus = bus_name, error = %e, "no direct socket"))
        .ok()?;
        if address.is_empty() {
            return None;
        }
        let conn = WireConn::connect(&address, false)
            .await
            .map_err(
                |e| tracing::debug!(bus = bus_name, %address, error = %e, "direct socket refused"),
            )
            .ok()?;
        tracing::debug!(bus = bus_name, %address, "direct connection");
        Some(conn)
    }
}
