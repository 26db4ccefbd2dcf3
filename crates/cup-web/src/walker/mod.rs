//! The fast capture path: one injected walker per frame
//! ([`SCRIPT`], run in an isolated world so the page's scripts can neither
//! see nor break it) computes what Chromium's accessibility tree exposes —
//! roles (Chromium's own role strings), names and descriptions (accname),
//! states, values and bounds — in one pass and answers one compact JSON
//! string. This module reads that answer ([`RawWalk`]) and builds the CUP
//! tree from it through the same [`crate::mapping`] the
//! `getFullAXTree` path uses; [`world`] runs it. No I/O here: tested with
//! fixtures on any OS.
//!
//! - `answer`: the walker's answers as it sends them ([`RawWalk`],
//!   [`Patch`], [`Splice`], [`Answer`]);
//! - `walk`: a whole walk decoded ([`Walk`], [`WalkNode`]);
//! - `patch`: patches and splices applied to a decoded walk;
//! - `ax`: a walker node as Chromium's `AXNode` would give it;
//! - `tree`: the CUP tree of a page from its frames' walks ([`build`]);
//! - [`world`]: runs the walker in the page (the only I/O).

mod answer;
mod ax;
mod patch;
mod tree;
mod walk;
pub mod world;

pub use answer::{Answer, Extra, Patch, RawWalk, Splice};
pub use tree::{build, build_walks, walker_ref, FrameWalk, WalkFrame, WalkPage};
pub use walk::{Walk, WalkError, WalkNode};

/// The walker: a JavaScript function expression `(function(options){...})`.
pub const SCRIPT: &str = include_str!("walker.js");

/// State bits of [`RawWalk::flags`] (the walker's `F_*`).
pub mod flag {
    /// Focusable.
    pub const FOCUSABLE: u32 = 1;
    /// Has the focus.
    pub const FOCUSED: u32 = 2;
    /// Disabled.
    pub const DISABLED: u32 = 4;
    /// Read-only.
    pub const READONLY: u32 = 8;
    /// Required.
    pub const REQUIRED: u32 = 16;
    /// Editable text.
    pub const EDITABLE: u32 = 32;
    /// Rich (contenteditable) text.
    pub const RICH: u32 = 64;
    /// Checked.
    pub const CHECKED: u32 = 128;
    /// Mixed.
    pub const MIXED: u32 = 256;
    /// Has a checked state.
    pub const CHECKABLE: u32 = 512;
    /// Selected.
    pub const SELECTED: u32 = 1024;
    /// Has a selected state.
    pub const SELECTABLE: u32 = 2048;
    /// Expanded.
    pub const EXPANDED: u32 = 4096;
    /// Collapsed.
    pub const COLLAPSED: u32 = 8192;
    /// Pressed.
    pub const PRESSED: u32 = 16384;
    /// Pressed: mixed.
    pub const PRESSED_MIXED: u32 = 32768;
    /// A toggle button (aria-pressed).
    pub const TOGGLE: u32 = 65536;
    /// Busy.
    pub const BUSY: u32 = 131_072;
    /// Modal.
    pub const MODAL: u32 = 262_144;
    /// Multi-selectable.
    pub const MULTISELECTABLE: u32 = 524_288;
    /// Multi-line text.
    pub const MULTILINE: u32 = 1_048_576;
    /// Invalid.
    pub const INVALID: u32 = 2_097_152;
    /// An iframe (its document is another frame's walk).
    pub const FRAME: u32 = 4_194_304;
    /// Generated content (no DOM node).
    pub const PSEUDO: u32 = 8_388_608;
    /// Scrolls (overflow with content larger than its box).
    pub const SCROLLABLE: u32 = 33_554_432;
}

#[cfg(test)]
mod tests;
