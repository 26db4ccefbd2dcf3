//! # cup
//!
//! The facade of cup: the [`Session`] API (snapshot, overview, find, page)
//! over a platform [`Adapter`]. Adapters (Linux AT-SPI2, web CDP, ...) only
//! translate native trees into CUP; everything they have in common lives
//! here.

pub mod adapter;
pub mod session;

pub use adapter::{
    Adapter, AdapterError, Capture, CaptureLimits, Monitor, Partial, ScreenInfo, WindowHandle,
};
pub use session::{Session, SessionError, Snapshot, SnapshotRequest};

pub use cup_protocol as protocol;
