//! The adapter trait every platform implements, and the data it returns.

use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;
use cup_protocol::keys::Combo;
use cup_protocol::{Action, Node, PlatformId, Rect, WindowInfo};

use crate::action::{ActionParams, ActionResult, Target};
use crate::input::{Gesture, Point};

/// One monitor.
#[derive(Debug, Clone, PartialEq)]
pub struct Monitor {
    /// Output name (e.g. `HDMI-1`, `screen`).
    pub name: String,
    /// Position and size in physical pixels.
    pub rect: Rect,
    /// Primary monitor.
    pub primary: bool,
    /// Its scale factor (physical / logical pixels; 1.5 at 144 DPI).
    pub scale: f64,
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
    /// WebMCP tools the captured page offers (web only).
    pub tools: Vec<cup_protocol::envelope::WebMcpTool>,
    /// What this capture read, as a number, when the adapter knows it read
    /// exactly what an earlier capture did: two captures of one adapter
    /// with the same revision hold the same tree, refs, notes and tools
    /// (the web adapter's reused tree of an unchanged page). None: not
    /// known. The session then answers with the snapshot it holds.
    pub revision: Option<u64>,
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
    /// The platform cannot do this (yet).
    #[error("{0}")]
    Unsupported(String),
    /// The request is malformed (bad parameters).
    #[error("{0}")]
    Invalid(String),
}

/// What a screenshot shows.
#[derive(Debug, Clone, PartialEq)]
pub enum ShotTarget {
    /// Every monitor.
    Screen,
    /// One monitor (index in [`ScreenInfo::monitors`]).
    Monitor(usize),
    /// A rectangle in screen pixels.
    Region(Rect),
    /// One window (its [`WindowHandle::native`] reference, or a title).
    Window(String),
    /// The whole scrollable page of the foreground window (web).
    FullPage,
}

/// A screenshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shot {
    /// PNG bytes.
    pub png: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Left edge on the screen.
    pub x: i64,
    /// Top edge on the screen.
    pub y: i64,
}

/// A launched application.
#[derive(Debug, Clone, PartialEq)]
pub struct Launched {
    /// What was matched and started (the entry's name).
    pub name: String,
    /// Process id.
    pub pid: u32,
    /// Its window, once visible.
    pub window: Option<WindowHandle>,
}

/// An application an agent can open or is running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppEntry {
    /// Display name.
    pub name: String,
    /// Stable id (desktop entry id, or the window's process name).
    pub id: String,
    /// Process ids of its running instances (empty: installed, not running).
    pub pids: Vec<u32>,
    /// Titles of its windows.
    pub windows: Vec<String>,
    /// Can be launched by name (`open_app`).
    pub installed: bool,
}

/// One prerequisite of an adapter, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What was checked (`display`, `accessibility bus`, ...).
    pub name: String,
    /// Whether it is in place.
    pub ok: bool,
    /// What was found.
    pub detail: String,
    /// How to fix it (empty when ok).
    pub fix: String,
}

fn unsupported(what: &str) -> AdapterError {
    AdapterError::Unsupported(format!("{what} is not supported on this platform yet"))
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

    /// [`Adapter::windows`], listed for a capture of some of them that
    /// follows at once (a snapshot's foreground and full scopes): an
    /// adapter may start reading the trees it expects to capture while it
    /// lists. The default lists only.
    async fn windows_for_capture(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        self.windows().await
    }

    /// The desktop surface (icons), if the platform has one.
    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError>;

    /// Captures the trees of `windows` (ids pre-order across them, in order).
    async fn capture(
        &self,
        windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError>;

    /// Performs `action` on `target` and reports the effect it observed.
    /// `refs` maps every id of the snapshot to its native reference (to name
    /// changes around the target by id).
    async fn act(
        &self,
        target: &Target<'_>,
        action: Action,
        params: &ActionParams,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let _ = (target, action, params, refs);
        Err(unsupported("acting on elements"))
    }

    /// Presses a key combo on the focused window and reports what changed
    /// (`refs` names changed elements by their snapshot ids).
    async fn press(
        &self,
        combo: &Combo,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let _ = (combo, refs);
        Err(unsupported("pressing keys"))
    }

    /// Takes a PNG screenshot.
    async fn screenshot(&self, target: &ShotTarget) -> Result<Shot, AdapterError> {
        let _ = target;
        Err(unsupported("screenshots"))
    }

    /// A screenshot's pixels before encoding (to draw on: set-of-marks).
    /// The default decodes [`Adapter::screenshot`]'s PNG; adapters that
    /// have the pixels first give them as they are.
    async fn screenshot_rgb(
        &self,
        target: &ShotTarget,
    ) -> Result<crate::image::RgbShot, AdapterError> {
        let shot = self.screenshot(target).await?;
        let (rgb, width, height) = crate::image::rgb_from_png(&shot.png)
            .map_err(|e| AdapterError::Platform(format!("the screenshot does not decode: {e}")))?;
        Ok(crate::image::RgbShot {
            rgb,
            width,
            height,
            x: shot.x,
            y: shot.y,
        })
    }

    /// Performs a pixel-level gesture (screen pixels) and reports what
    /// changed (`refs` names changed elements by their snapshot ids).
    async fn input(
        &self,
        gesture: &Gesture,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let _ = (gesture, refs);
        Err(unsupported("pointer and text input"))
    }

    /// Where the pointer is, in screen pixels.
    async fn cursor(&self) -> Result<Point, AdapterError> {
        Err(unsupported("reading the pointer position"))
    }

    /// Installed and running applications.
    async fn apps(&self) -> Result<Vec<AppEntry>, AdapterError> {
        Err(unsupported("listing applications"))
    }

    /// A line for the overview about the display the adapter drives, when
    /// there is a choice worth telling (a Wayland session: driven natively,
    /// or only through XWayland); `None` where there is none.
    async fn display_note(&self) -> Option<String> {
        None
    }

    /// Checks what the adapter needs (display, buses, input, capture),
    /// each with how to fix it.
    async fn check(&self) -> Vec<Check> {
        Vec::new()
    }

    /// [`Adapter::check`], first asking the OS to show its prompts for the
    /// permissions that are missing when `prompt` is set (macOS:
    /// Accessibility, Screen Recording). Adapters without such prompts
    /// only check.
    async fn check_prompting(&self, prompt: bool) -> Vec<Check> {
        let _ = prompt;
        self.check().await
    }

    /// The native facts the last capture read, as JSON (the input of the
    /// mapping; `cup snapshot --native-dump FILE` writes it, tests load such
    /// files as fixtures). `None`: nothing captured yet, or this adapter
    /// does not record them.
    fn native_dump(&self) -> Option<serde_json::Value> {
        None
    }

    /// Asks the adapter to keep the native facts of the captures that
    /// follow (for [`Adapter::native_dump`]); adapters that always keep
    /// them, or never do, ignore it.
    fn record_native(&self, on: bool) {
        let _ = on;
    }

    /// The overlay the visual layer draws on (agent cursor, highlight):
    /// made on first use, the same one after.
    async fn overlay(&self) -> Result<std::sync::Arc<dyn crate::visual::Overlay>, AdapterError> {
        Err(unsupported("drawing an overlay (agent cursor, highlight)"))
    }

    /// Launches an installed application by (fuzzy) name and waits for its
    /// window.
    async fn open_app(&self, name: &str) -> Result<Launched, AdapterError> {
        let _ = name;
        Err(unsupported("launching apps"))
    }

    /// Like [`Adapter::open_app`], with arguments for the app (files, URLs,
    /// flags) after its own.
    async fn open_app_with(&self, name: &str, args: &[String]) -> Result<Launched, AdapterError> {
        if args.is_empty() {
            return self.open_app(name).await;
        }
        Err(unsupported("launching apps with arguments"))
    }
}
