//! The visual layer: what a person watching the screen sees of the agent.
//! The agent cursor glides to where the agent acts ([`AgentCursor`], shaped
//! by [`Motion`] and [`Style`]), drawn by a platform [`Overlay`]; the
//! pictures are made here ([`sprite`]), so every platform shows the same
//! pixels.

pub mod cursor;
pub mod motion;
pub mod overlay;
pub mod sprite;
pub mod style;

use serde::{Deserialize, Serialize};

pub use cursor::AgentCursor;
pub use motion::Motion;
pub use overlay::{Layer, Overlay};
pub use sprite::Sprite;
pub use style::Style;

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
