//! # cup
//!
//! The facade of cup: the [`Session`] API (snapshot, overview, find, page)
//! over a platform [`Adapter`]. Adapters (Linux AT-SPI2, web CDP, ...) only
//! translate native trees into CUP; everything they have in common lives
//! here.
//!
//! ## Layout
//!
//! - The session and its contract with the platforms: `adapter` (the
//!   [`Adapter`] trait and its data), `session`, `execute` (the session's
//!   actions), `action`, `plan` (what every planner says alike), `refs`.
//! - `page`: page scripting, a seam of its own beside the adapter (the
//!   `PageScripting` trait, the `PageScript`s it runs); the web adapter
//!   implements it, the tool layer holds one.
//! - Observed effects: `watch`, `tree_diff` (two whole captures), `observe`
//!   (line by line).
//! - What adapters share: `native` (native dumps and fixtures), `input`
//!   (pixel-level input), `screenshot`, `image` (PNG), `apps` and `installed`
//!   (apps by name), `blocking` (blocking OS calls with deadlines).
//! - `visual/`: what the visual layer asks of a platform (the `Overlay`
//!   trait, its layers, the `Sprite` pictures it shows). The drawing itself
//!   (the agent cursor, its pictures, set-of-marks screenshots) is the
//!   `cup-draw` crate's.

pub mod action;
pub mod adapter;
pub mod apps;
pub mod blocking;
pub mod execute;
pub mod image;
pub mod input;
pub mod installed;
pub mod native;
pub mod observe;
pub mod ocr;
pub mod page;
mod pixel_act;
pub mod plan;
pub mod refs;
pub mod screenshot;
pub mod session;
pub mod since;
pub mod tokens;
pub mod tree_diff;
pub mod visual;
pub mod wait;
pub mod watch;

pub use action::{
    condense, keep_last, merge, windows_change, ActionParams, ActionResult, Change, Direction,
    Effect, Target,
};
pub use adapter::{
    Adapter, AdapterError, AppEntry, Capture, CaptureLimits, Check, Launched, Monitor, Partial,
    ScreenInfo, Shot, ShotTarget, WindowHandle,
};
pub use execute::{check_request, ActionError};
pub use input::{Button, Gesture, Point};
pub use observe::SnapshotDiff;
pub use ocr::OcrMode;
pub use session::{Session, SessionError, Snapshot, SnapshotRequest};
pub use wait::{Until, Waited};

pub use cup_protocol as protocol;
