//! Direct (peer-to-peer) connections to applications.
//!
//! Every AT-SPI call normally travels app ↔ bus daemon ↔ cup. Toolkit
//! bridges also listen on a private socket of their own
//! (`Application.GetApplicationBusAddress`); talking to it directly skips
//! the daemon's routing, which roughly halves the cost of each call. An app
//! that offers no socket (or refuses the connection) is reached through the
//! bus as before.

use std::collections::HashMap;
use std::sync::Mutex;

use atspi::zbus;
use zbus::Connection;

use crate::atspi_calls::{self as calls, ObjRef};
use crate::bus::CALL_TIMEOUT;

/// The accessibility bus plus a direct connection per application where
/// one could be opened.
#[derive(Debug)]
pub struct Links {
    bus: Connection,
    peers: Mutex<HashMap<String, Option<Connection>>>,
}

impl Links {
    /// Links over `bus` with no direct connection yet.
    pub fn new(bus: Connection) -> Self {
        Links {
            bus,
            peers: Mutex::new(HashMap::new()),
        }
    }

    /// The accessibility bus.
    pub fn bus(&self) -> &Connection {
        &self.bus
    }

    /// The connection to use for objects of the application `bus_name`:
    /// its direct socket when one is open, else the bus.
    pub fn to(&self, bus_name: &str) -> Connection {
        self.peers
            .lock()
            .ok()
            .and_then(|p| p.get(bus_name).cloned().flatten())
            .unwrap_or_else(|| self.bus.clone())
    }

    /// Tries once per application to open its direct socket.
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
        if let Ok(mut p) = self.peers.lock() {
            p.extend(opened);
        }
    }

    /// Forgets the direct connection of an application (it failed).
    pub fn drop_peer(&self, bus_name: &str) {
        if let Ok(mut p) = self.peers.lock() {
            p.insert(bus_name.to_owned(), None);
        }
    }

    async fn direct(&self, bus_name: &str) -> Option<Connection> {
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
        let conn = zbus::connection::Builder::address(address.as_str())
            .ok()?
            .p2p()
            .method_timeout(CALL_TIMEOUT)
            .build()
            .await
            .map_err(
                |e| tracing::debug!(bus = bus_name, %address, error = %e, "direct socket refused"),
            )
            .ok()?;
        tracing::debug!(bus = bus_name, %address, "direct connection");
        Some(conn)
    }
}
