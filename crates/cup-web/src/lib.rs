//! # cup-web
//!
//! The web adapter of cup: Chromium pages over the Chrome DevTools
//! Protocol. One persistent WebSocket per browser ([`cdp::Cdp`]), every
//! frame read by cup's page walker in an isolated world — roles, names,
//! states, values and bounds in one pass ([`walker`]) — or, as an option,
//! Chromium's accessibility tree joined with the layout snapshot
//! ([`capture`]), pure role/state/action mapping
//! ([`mapping`]), and actions that report the effect they observed.

mod act;
pub mod adapter;
pub mod browser;
pub mod capture;
pub mod cdp;
pub mod dump;
pub mod endpoint;
mod ids;
pub mod keys;
pub mod layout;
pub mod mapping;
pub mod overlay;
pub mod screenshot;
pub mod script;
pub mod walker;

pub use adapter::WebAdapter;
pub use capture::AxSource;
pub use cdp::{Cdp, CdpError};
pub use endpoint::Endpoint;
pub use script::PageScript;
