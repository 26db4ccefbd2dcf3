//! # cup-macos
//!
//! The macOS adapter of cup, in two layers:
//!
//! - the OS layer (`os`, compiled on macOS only) makes the Accessibility,
//!   Core Graphics, AppKit and ScreenCaptureKit calls and fills the plain
//!   serde structs of [`facts`];
//! - everything else — the AX → CUP mapping ([`mapping`]), points and
//!   pixels on every display ([`screen`]), the parallel per-app walk with
//!   its deadlines and node cap ([`walk`], generic over its reads and
//!   tested with a scripted provider), element references ([`refs`]) and
//!   the assembly of a capture ([`assemble`]) — is plain code, compiled and
//!   tested on every OS. `cup snapshot --native-dump FILE` writes the facts
//!   of a capture; the tests load such files as fixtures.

pub mod act;
#[cfg(target_os = "macos")]
pub mod adapter;
pub mod apps;
pub mod assemble;
pub mod events;
pub mod facts;
pub mod keys;
pub mod mapping;
#[cfg(target_os = "macos")]
#[allow(unsafe_code)]
pub mod os;
pub mod pointer;
pub mod refs;
pub mod screen;
pub mod shot;
pub mod toplevel;
pub mod walk;

#[cfg(test)]
mod fixture_tests;

#[cfg(target_os = "macos")]
pub use adapter::MacAdapter;
