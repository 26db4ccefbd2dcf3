//! # cup-windows
//!
//! The Windows adapter of cup: UI Automation (COM, through the `windows`
//! crate) for trees and actions, Win32 for windows, monitors, input and
//! screenshots.
//!
//! The crate is two layers. `os` (compiled on Windows only) makes the calls and fills
//! plain serde structs of native facts ([`facts`]); everything else — the
//! mapping to CUP ([`mapping`]), the walk with its deadlines, retries and
//! caps ([`walk`], [`pool`]), window filtering ([`toplevel`]), coordinates
//! ([`screen`]), key and text events ([`keys`]) — is plain code that
//! compiles and is tested on every OS, from fixtures that
//! `cup snapshot --native-dump FILE` writes on a real machine.

pub mod act;
#[cfg(windows)]
pub mod adapter;
pub mod apps;
pub mod assemble;
pub mod control;
pub mod events;
pub mod facts;
pub mod guard;
pub mod keys;
pub mod mapping;
#[cfg(windows)]
#[allow(unsafe_code)]
pub mod os;
pub mod pointer;
pub mod pool;
pub mod refs;
pub mod screen;
pub mod toplevel;
pub mod walk;

#[cfg(windows)]
pub use adapter::WindowsAdapter;
