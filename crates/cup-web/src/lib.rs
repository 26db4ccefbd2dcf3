//! # cup-web
//!
//! The web adapter of cup: Chromium pages over the Chrome DevTools
//! Protocol. One persistent WebSocket per browser ([`cdp::Cdp`]), every
//! frame read by cup's page walker in an isolated world — roles, names,
//! states, values and bounds in one pass ([`walker`]) — or, as an option,
//! Chromium's accessibility tree joined with the layout snapshot
//! ([`capture`]), pure role/state/action mapping
//! ([`mapping`]), and actions that report the effect they observed.
//!
//! ## Layout
//!
//! - Transport: `cdp` (one DevTools connection, sessions, deadlines),
//!   `browser` (page targets), `endpoint` (where the browser is).
//! - Capture: `walker/` (one injected walker per frame: the fast path;
//!   `world` runs it, the rest is pure: `answer` its answers as sent,
//!   `walk` one decoded, `patch` patches and splices applied to it, `ax` a
//!   node as Chromium's `AXNode`, `tree` the CUP tree of a page's walks),
//!   `capture/` (one page from either source: `walked` the walker's,
//!   `chromium` and `join` the accessibility tree joined with
//!   `DOMSnapshot`, read by `layout`; `replay` a recorded capture built
//!   again), `ids` (ids kept across snapshots), `dump` (the native dump).
//! - Mapping (pure): `mapping/` (one Chromium `AXNode` → CUP; fixture tests).
//! - Acting: `act/` (element verbs, gestures, dialogs, observed effects),
//!   `keys`, `script` (page scripting: the adapter as cup's
//!   `PageScripting`), `screenshot`, `overlay`.
//! - `adapter`: the [`cup::Adapter`] over all of it.

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
