//! A lean D-Bus client for the capture's method calls.
//!
//! A capture makes hundreds of small calls (extents, actions, values) to
//! one application. Through `zbus`, each costs a message object, signature
//! parsing, a broadcast to its subscribers and two `recvmsg` calls; on a
//! 2-core machine that made cup's own CPU the larger half of a GTK 3
//! capture. Here a call is encoded straight into an out-buffer that one
//! task writes in a single `write`, and one task reads whatever replies
//! have arrived in a single `read` and hands each to its caller by serial.
//! Bodies are still (de)serialized by `zvariant`. `zbus` keeps everything
//! else: signals, the registry, the session bus.

mod address;
mod body;
pub(crate) mod busy;
mod conn;
mod frame;

pub use body::{BodyReader, RawBody};
pub use busy::BusyPoll;
pub use conn::{Reply, WireConn};

/// A failed connection or call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// The address names no socket this client can reach.
    #[error("unusable D-Bus address {0}")]
    Address(String),
    /// Connecting, reading or writing failed.
    #[error("D-Bus I/O error: {0}")]
    Io(String),
    /// The server refused us.
    #[error("D-Bus authentication failed: {0}")]
    Auth(String),
    /// The peer sent something that is not D-Bus.
    #[error("D-Bus protocol error: {0}")]
    Protocol(String),
    /// The connection is gone (the app quit or failed).
    #[error("D-Bus connection closed: {0}")]
    Closed(String),
    /// The method answered with an error.
    #[error("{name}: {message}")]
    Method {
        /// Error name (`org.freedesktop.DBus.Error.UnknownMethod`, ...).
        name: String,
        /// Its text.
        message: String,
    },
    /// The reply's body is not what the call returns.
    #[error("D-Bus reply body: {0}")]
    Body(String),
}
