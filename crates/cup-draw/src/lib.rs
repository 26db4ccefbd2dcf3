//! # cup-draw
//!
//! The drawing of cup's visual layer: what a person watching the screen
//! sees of the agent, and the set-of-marks screenshots a vision model
//! reads. The agent cursor glides to where the agent acts
//! ([`AgentCursor`], shaped by [`Motion`] and [`Style`]), drawn by a
//! platform's [`cup::visual::Overlay`]; its pictures are made here, so
//! every platform shows the same pixels. The platforms themselves depend
//! only on `cup` (the overlay trait and [`cup::visual::Sprite`]), not on
//! this crate or its SVG renderer.
//!
//! ## Layout
//!
//! - `cursor` (the [`AgentCursor`], and [`pointing`]: a pointer action with
//!   the cursor around it), [`motion`] (the knobs, the Bézier flight, the
//!   easing and the rotation's spring), `style` (colours, or a PNG or SVG
//!   picture), `sprite` (the pictures: arrow, ripple, rotation, fitting).
//! - [`CursorSettings`] (the config file's `agent_cursor`).
//! - [`marks`] (set-of-marks: element ids drawn on a screenshot).

mod cursor;
pub mod marks;
pub mod motion;
mod sprite;
mod style;

use serde::{Deserialize, Serialize};

pub use cursor::{pointing, AgentCursor};
pub use motion::Motion;
pub use sprite::arrow;
pub use style::{expand_home, parse_colour, Style, DEFAULT_BLOOM};

/// The cursor's settings, as kept in the config file (`agent_cursor`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CursorSettings {
    /// On or off; `None`: on where a person watches the display (not on a
    /// virtual framebuffer, a headless browser or under CI).
    pub enabled: Option<bool>,
    /// How it moves.
    pub motion: Motion,
    /// How it looks.
    pub style: Style,
}

impl CursorSettings {
    /// Every knob in range and the style usable (a file edited by hand may
    /// hold anything).
    pub fn check(&self) -> Result<(), String> {
        self.motion.check()?;
        self.style.check()
    }
}
