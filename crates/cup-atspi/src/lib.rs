//! # cup-atspi
//!
//! The AT-SPI layer of cup's Linux adapter: its own lean D-Bus wire to the
//! accessibility bus and to each application, the capture (a walk of an
//! application's tree under limits and a deadline), the actions and the
//! effects they observe. What the facts mean is `cup-atspi-map`'s (pure);
//! pointer and keys come through `cup_linux_display`'s device traits, so
//! this crate knows no display server.
//!
//! ## Layout
//!
//! - Transport: `bus` (the accessibility bus, deadlines), `wire/` (a lean
//!   D-Bus client for the capture's calls: framing, connection,
//!   busy-polling), `peers` (direct peer-to-peer connections to apps),
//!   `atspi_calls` (the capture's reads), `atspi_actions` (the calls that
//!   change things).
//! - Capture: `capture/` — `structure` (from `Cache.GetItems` or level by
//!   level), `cache_index`, `details` (extents, actions, value, text),
//!   `managed` (containers that manage their descendants: what is on
//!   screen), `unallocated` (GTK 4's top-down extents), `warm` (Gecko's
//!   lazy facts), `statics`, `labels`, `office` (LibreOffice put right),
//!   `assemble`.
//! - Actions: `act/` (verbs over AT-SPI, probes and events as evidence,
//!   pointer/keyboard fallback, outsiders; `gesture`: the pixel-level
//!   gestures, written once over a `GestureDevice`).
//! - `advice`: what to tell about an app that shows no tree.

pub mod act;
pub mod advice;
pub mod atspi_actions;
pub mod atspi_calls;
pub mod bus;
pub mod capture;
pub mod peers;
pub mod wire;

// The pure mapping and the boundary's modules under the names this
// crate's code uses.
use cup_atspi_map::{facts, mapping};
use cup_linux_display::env;
