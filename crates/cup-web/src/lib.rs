//! # cup-web
//!
//! The web adapter of cup: Chromium pages over the Chrome DevTools
//! Protocol. One persistent WebSocket per browser ([`cdp::Cdp`]), the
//! accessibility tree joined with the layout snapshot so every rendered
//! node has bounds ([`capture`]), pure role/state/action mapping
//! ([`mapping`]), and actions that report the effect they observed.

mod act;
pub mod adapter;
pub mod browser;
pub mod capture;
pub mod cdp;
pub mod dump;
pub mod endpoint;
pub mod keys;
pub mod layout;
pub mod mapping;
pub mod overlay;
pub mod screenshot;
pub mod script;

pub use adapter::WebAdapter;
pub use cdp::{Cdp, CdpError};
pub use endpoint::Endpoint;
pub use script::PageScript;
