//! The adapter trait every platform implements, and the data it returns.

use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;
use cup_protocol::{Node, PlatformId, Rect, WindowInfo};

/// One monitor.
#[derive(Debug, Clone, PartialEq)]
pub struct Monitor {
    /// Output name (e.g. `HDMI-1`, `screen`).
    pub name: String,
    /// Position and size in physical pixels.
    pub rect: Rect,
    /// Primary monitor.
    pub primary: bool,
}

/// Screens of the display.
#[derive(Debug, Clone, PartialEq)]
pub struct ScreenInfo {
    /// Size of the whole screen (all monitors).
    pub width: i64,
    /// Height of the whole screen.
    pub height: i64,
    /// Device scale factor (physical / logical pixels), 1.0 when unknown.
    pub scale: f64,
    /// Every monitor; at least one.
    pub monitors: Vec<Monitor>,
}

/// A top-level window an adapter can capture.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowHandle {
    /// Title, pid, foreground flag, bounds.
    pub info: WindowInfo,
    /// Adapter-specific reference to the native window (e.g. AT-SPI bus
    /// name and path of the frame).
    pub native: String,
}

/// Limits of one capture. When one is hit, the capture returns what it has
/// and says so in [`Capture::partial`].
#[derive(Debug, Clone, PartialEq)]
pub struct CaptureLimits {
    /// Nodes deeper than this are left out (root = depth 0).
    pub max_depth: usize,
    /// At most this many nodes.
    pub max_nodes: usize,
    /// Wall-clock budget of the whole capture.
    pub deadline: Duration,
}

impl Default for CaptureLimits {
    fn default() -> Self {
        CaptureLimits {
            max_depth: 999,
            max_nodes: 50_000,
            deadline: Duration::from_secs(3),
        }
    }
}

/// Why a capture is incomplete.
#[derive(Debug, Clone, PartialEq)]
pub struct Partial {
    /// One-line reason, e.g. `deadline of 3000 ms reached`.
    pub reason: String,
    /// Windows or subtrees that were cut.
    pub missing: usize,
}

/// A captured tree with the native references of its ids.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Capture {
    /// One root per captured window; ids are pre-order across windows.
    pub tree: Vec<Node>,
    /// Native reference of every id (for actions).
    pub refs: HashMap<String, String>,
    /// Set when a limit was hit or an app did not answer.
    pub partial: Option<Partial>,
    /// Advice for the agent (e.g. how to expose a browser's web content).
    pub notes: Vec<String>,
}

/// Errors of adapters. Each message says what to do next.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AdapterError {
    /// A required platform component is missing or unreachable.
    #[error("{0}")]
    Unavailable(String),
    /// The platform answered with an error.
    #[error("{0}")]
    Platform(String),
    /// Nothing matches the request.
    #[error("{0}")]
    NotFound(String),
}

/// A platform: screens, windows and trees.
#[async_trait]
pub trait Adapter: Send + Sync {
    /// Which platform this is.
    fn platform(&self) -> PlatformId;

    /// Monitors and scale.
    async fn screen(&self) -> Result<ScreenInfo, AdapterError>;

    /// Open top-level windows, the foreground one flagged.
    async fn windows(&self) -> Result<Vec<WindowHandle>, AdapterError>;

    /// The desktop surface (icons), if the platform has one.
    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError>;

    /// Captures the trees of `windows` (ids pre-order across them, in order).
    async fn capture(
        &self,
        windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError>;
}
