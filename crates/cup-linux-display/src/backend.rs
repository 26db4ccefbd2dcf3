//! The display server behind a Linux desktop, as one boundary: what
//! differs between X11, sway, a generic wlroots compositor, KWin and GNOME
//! (the window list and places, activation, input, screenshots, the
//! overlay, the permission checks) behind [`DisplayBackend`]. cup-x11 and
//! cup-wayland implement it; cup-linux chooses one when its adapter first
//! needs it and composes AT-SPI with it.

use std::sync::Arc;

use async_trait::async_trait;
use cup::{AdapterError, Point};
use cup_protocol::{Node, Rect};
use futures::future::BoxFuture;
use tokio::sync::OnceCell;

use crate::device::{GestureDevice, InputOps};
use crate::display::DisplayState;
use crate::env::Desktop;
use crate::pixels::{Pixels, Png};

/// One read of the display server's state, not yet started: `'static`, so
/// that the adapter can share it between the calls that overlap it.
pub type StateRead = BoxFuture<'static, Result<DisplayState, AdapterError>>;

/// What the permission checks say about one part of the desktop, and how
/// to fix it when it fails.
#[derive(Debug)]
pub struct Checked {
    /// What was checked ("display", "input", "screen capture").
    pub name: &'static str,
    /// What it found, or why it failed.
    pub result: Result<String, String>,
    /// How to fix a failure.
    pub fix: &'static str,
}

/// What differs between display servers and compositors.
#[async_trait]
pub trait DisplayBackend: Send + Sync + std::fmt::Debug {
    /// A read of the windows, their places and the monitors.
    async fn reader(&self) -> Result<StateRead, AdapterError>;

    /// Gives the keyboard to `window` (a snapshot's window node), where
    /// only the display server can.
    async fn activate(&self, window: &Node) -> Result<(), AdapterError>;

    /// The pixels of `region` of the screen.
    async fn pixels(&self, region: Rect) -> Result<Pixels, AdapterError>;

    /// `region` as a PNG.
    async fn png(&self, region: Rect) -> Result<Png, AdapterError> {
        let pixels = self.pixels(region).await?;
        crate::pixels::encode_png(&pixels).map_err(AdapterError::Platform)
    }

    /// The whole screen's rectangle.
    async fn screen_rect(&self) -> Result<Rect, AdapterError> {
        let s = self.reader().await?.await?;
        Ok(Rect::new(
            0,
            0,
            s.width.max(0).unsigned_abs(),
            s.height.max(0).unsigned_abs(),
        ))
    }

    /// The pointer and keyboard: XTest, or the compositor's devices.
    async fn gestures(&self) -> Result<&dyn GestureDevice, AdapterError>;

    /// The pointer and keyboard the actions fall back to.
    async fn input(&self) -> Result<&dyn InputOps, AdapterError> {
        Ok(self.gestures().await? as &dyn InputOps)
    }

    /// Where the pointer is.
    async fn cursor(&self) -> Result<Point, AdapterError> {
        self.gestures().await?.pointer().await
    }

    /// A new overlay for the visual layer.
    async fn overlay(&self) -> Result<Arc<dyn Drawn>, AdapterError>;

    /// The snapshot's line about the display, if it needs one.
    async fn note(&self) -> Option<String>;

    /// The display, input and screen-capture checks, in that order.
    async fn checks(&self, desktop: &Desktop) -> [Checked; 3];
}

/// The device in `cell`, opened by `open` on first use and kept; an open
/// that failed is kept too (its reason is the error of every later call).
pub async fn kept<T, F, Fut>(
    cell: &OnceCell<Result<T, String>>,
    open: F,
) -> Result<&T, AdapterError>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    cell.get_or_init(open)
        .await
        .as_ref()
        .map_err(|e| AdapterError::Unavailable(e.clone()))
}

/// The overlay a backend draws the visual layer on (X11 windows or a
/// Wayland compositor's layer surfaces).
pub trait Drawn: cup::visual::Overlay + std::fmt::Debug {
    /// The overlay's connection is gone: a new one must be opened.
    fn is_broken(&self) -> bool;
}

/// The X11 window list of a display (XWayland's, under a wlroots
/// compositor whose own list has no places): cup-x11's reader, handed to
/// the Wayland backend that merges it.
#[async_trait]
pub trait XWindows: Send + Sync + std::fmt::Debug {
    /// The windows, places and monitors of X display `display`.
    async fn read(&self, display: Option<&str>) -> Result<DisplayState, AdapterError>;
}
