//! The display server behind a Linux desktop, as one boundary: what
//! differs between X11, sway, a generic wlroots compositor, KWin and GNOME
//! (the window list and places, activation, input, screenshots, the
//! overlay, the permission checks) behind [`DisplayBackend`], one
//! implementation each, chosen once when the adapter first needs it
//! ([`choose`]). The adapter composes AT-SPI with that one backend and asks
//! no more which desktop it is on.

#[cfg(feature = "wayland")]
mod compositor;
#[cfg(feature = "wayland")]
mod gnome;
#[cfg(feature = "wayland")]
mod kwin;
#[cfg(feature = "wayland")]
mod sway;
#[cfg(feature = "wayland")]
mod wlr;
mod x11;

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use cup::{ActionResult, AdapterError, Gesture, Point};
use cup_protocol::{Node, Rect};
use futures::future::BoxFuture;
use tokio::sync::OnceCell;

use crate::act::events::EventLog;
use crate::act::fallback::InputOps;
use crate::act::gesture::GestureDevice;
use crate::display::DisplayState;
use crate::env::Desktop;
use crate::screenshot::{Pixels, Png};

/// One read of the display server's state, not yet started: `'static`, so
/// that the adapter can share it between the calls that overlap it.
pub(crate) type StateRead = BoxFuture<'static, Result<DisplayState, AdapterError>>;

/// What the permission checks say about one part of the desktop, and how
/// to fix it when it fails.
pub(crate) struct Checked {
    pub name: &'static str,
    pub result: Result<String, String>,
    pub fix: &'static str,
}

/// What differs between display servers and compositors.
#[async_trait]
pub(crate) trait DisplayBackend: Send + Sync + std::fmt::Debug {
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
        crate::screenshot::encode_png(&pixels).map_err(|e| AdapterError::Platform(e.to_string()))
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

    /// Performs a pixel-level gesture and reports what it observed.
    async fn perform(
        &self,
        events: &EventLog,
        gesture: &Gesture,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        crate::act::gesture::perform(self.gestures().await?, events, gesture, refs).await
    }

    /// Where the pointer is.
    async fn cursor(&self) -> Result<Point, AdapterError> {
        self.gestures().await?.pointer().await
    }

    /// A new overlay for the visual layer.
    async fn overlay(&self) -> Result<Drawn, AdapterError>;

    /// The snapshot's line about the display, if it needs one.
    async fn note(&self) -> Option<String>;

    /// The display, input and screen-capture checks, in that order.
    async fn checks(&self, desktop: &Desktop) -> [Checked; 3];
}

/// Picks the backend of `desktop`: X11 unless the desktop is a native
/// Wayland session; there sway (its IPC socket), GNOME (mutter's
/// RemoteDesktop on the session bus), KWin (on the session bus), else a
/// generic wlroots compositor. Asked once per adapter.
pub(crate) async fn choose(
    desktop: &Desktop,
    x11_reader: Arc<crate::x11::X11Reader>,
) -> Box<dyn DisplayBackend> {
    #[cfg(feature = "wayland")]
    if desktop.is_native_wayland() {
        return wayland(desktop, x11_reader).await;
    }
    Box::new(x11::X11::new(desktop.display.clone(), x11_reader))
}

/// The backend of a native Wayland desktop.
#[cfg(feature = "wayland")]
async fn wayland(
    desktop: &Desktop,
    x11_reader: Arc<crate::x11::X11Reader>,
) -> Box<dyn DisplayBackend> {
    let socket = desktop.wayland.clone();
    if let Some(sock) = desktop.swaysock.clone() {
        return Box::new(sway::Sway::new(
            crate::wayland::sway::SwayIpc::new(sock),
            socket,
        ));
    }
    if let Some(bus) = desktop.session_bus.as_deref() {
        if let Ok(shell) = crate::wayland::gnome::shell::GnomeShell::connect(bus).await {
            if shell.present().await {
                return Box::new(gnome::Gnome::new(shell, socket));
            }
        }
        // Scripts go where KWin (the desktop's user) can read them: the
        // desktop's runtime directory.
        let dir = socket
            .as_deref()
            .and_then(std::path::Path::parent)
            .map_or_else(std::env::temp_dir, std::path::Path::to_path_buf);
        if let Ok(scripts) = crate::wayland::kwin::script::KWinScripts::connect(bus, dir).await {
            if scripts.present().await {
                return Box::new(kwin::KWin::new(scripts, socket));
            }
        }
    }
    Box::new(wlr::Wlr::new(socket, desktop.display.clone(), x11_reader))
}

/// The device in `cell`, opened by `open` on first use and kept; an open
/// that failed is kept too (its reason is the error of every later call).
pub(crate) async fn kept<T, F, Fut>(
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

/// The overlay the visual layer draws on: X11 windows or the Wayland
/// compositor's layer surfaces.
#[derive(Debug)]
pub(crate) enum Drawn {
    X11(Arc<crate::overlay::X11Overlay>),
    #[cfg(feature = "wayland")]
    Wayland(Arc<crate::wayland::overlay::WaylandOverlay>),
}

impl Drawn {
    pub(crate) fn is_broken(&self) -> bool {
        match self {
            Drawn::X11(o) => o.is_broken(),
            #[cfg(feature = "wayland")]
            Drawn::Wayland(o) => o.is_broken(),
        }
    }

    pub(crate) fn dyn_overlay(&self) -> Arc<dyn cup::visual::Overlay> {
        match self {
            Drawn::X11(o) => o.clone(),
            #[cfg(feature = "wayland")]
            Drawn::Wayland(o) => o.clone(),
        }
    }
}
