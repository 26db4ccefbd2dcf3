//! The display server behind a Linux desktop, as one boundary: what
//! differs between X11, sway, a generic wlroots compositor, KWin and GNOME
//! (the window list and places, activation, input, screenshots, the
//! overlay, the permission checks) behind [`DisplayBackend`], one
//! implementation each, chosen once when the adapter first needs it
//! ([`choose`]). The adapter composes AT-SPI with that one backend and asks
//! no more which desktop it is on.

mod gnome;
mod kwin;
mod sway;
mod wlr;
mod x11;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
use crate::wayland::device::WaylandDevice;

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
    if !desktop.is_native_wayland() {
        return Box::new(x11::X11::new(desktop.display.clone(), x11_reader));
    }
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

/// The Wayland compositor's socket, or why there is none.
fn socket_of(socket: Option<&std::path::Path>) -> Result<std::path::PathBuf, String> {
    socket
        .map(std::path::Path::to_path_buf)
        .ok_or_else(|| "no Wayland socket (WAYLAND_DISPLAY is unset)".to_owned())
}

/// The socket's path as the checks print it.
fn socket_name(desktop: &Desktop) -> String {
    desktop
        .wayland
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

/// A display state's size and monitors, as the checks print them.
fn screen_line(s: &DisplayState) -> String {
    format!(
        "{}x{}, {} output(s), scale {}",
        s.width,
        s.height,
        s.monitors.len(),
        s.scale
    )
}

/// How long the desktop portal's dialog may wait for the user's answer.
const PORTAL_CONSENT: Duration = Duration::from_secs(60);

/// Where the desktop portal's restore token is kept
/// (`$XDG_STATE_HOME/cup/`, else `~/.local/state/cup/`).
fn portal_token_file() -> Result<std::path::PathBuf, String> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/state"))
        })
        .ok_or("neither XDG_STATE_HOME nor HOME is set: set HOME (where cup keeps the desktop portal's restore token)")?;
    Ok(crate::wayland::portal::token_file(&state))
}

/// Whether `CUP_WAYLAND_INPUT=portal` asks for the desktop portal's input.
fn portal_asked() -> bool {
    std::env::var("CUP_WAYLAND_INPUT").is_ok_and(|v| v == "portal")
}

/// The compositor's screenshots (wlr-screencopy) of `region`.
async fn screencopy_pixels(
    shots: &crate::wayland::screencopy::Screencopy,
    region: Rect,
) -> Result<Pixels, AdapterError> {
    let frame = shots
        .capture(Some((region.x, region.y, region.w, region.h)))
        .await
        .map_err(|e| match e {
            crate::wayland::client::WaylandError::Invalid(m) => AdapterError::Invalid(m),
            e => AdapterError::Platform(e.to_string()),
        })?;
    Ok(Pixels {
        rgb: frame.rgb,
        width: frame.width,
        height: frame.height,
        x: frame.x,
        y: frame.y,
    })
}

/// A picture of `w`x`h` device pixels brought to `region`'s layout size
/// (compositors answer in device pixels at scales other than 1).
fn to_layout(rgb: Vec<u8>, w: u32, h: u32, region: Rect) -> Pixels {
    let (width, height) = (
        u32::try_from(region.w).unwrap_or(w),
        u32::try_from(region.h).unwrap_or(h),
    );
    let rgb = if (w, h) == (width, height) {
        rgb
    } else {
        let image = crate::wayland::screencopy::Image {
            width: w as usize,
            height: h as usize,
            rgb,
        };
        crate::wayland::screencopy::resample(&image, width as usize, height as usize).rgb
    };
    Pixels {
        rgb,
        width,
        height,
        x: region.x,
        y: region.y,
    }
}

/// A Wayland overlay on the compositor's layer shell.
async fn wayland_overlay(socket: Option<&std::path::Path>) -> Result<Drawn, AdapterError> {
    let socket = socket_of(socket).map_err(AdapterError::Unavailable)?;
    let o = crate::wayland::overlay::WaylandOverlay::open(&socket)
        .await
        .map_err(|e| match e {
            crate::wayland::client::WaylandError::Unsupported(m) => AdapterError::Unsupported(m),
            e => AdapterError::Unavailable(e.to_string()),
        })?;
    Ok(Drawn::Wayland(Arc::new(o)))
}

/// Runs `make` with a function that gives each shell window id the
/// number cup uses for it (kept in `ids`).
fn numbered(
    ids: &Mutex<HashMap<String, u32>>,
    make: impl FnOnce(&mut dyn FnMut(&str) -> u32) -> DisplayState,
) -> Result<DisplayState, AdapterError> {
    let mut ids = ids
        .lock()
        .map_err(|_| AdapterError::Platform("window id table poisoned; restart cup".into()))?;
    if ids.len() > 4096 {
        ids.clear();
    }
    let mut number = |id: &str| {
        let next = u32::try_from(ids.len() + 1).unwrap_or(u32::MAX);
        *ids.entry(id.to_owned()).or_insert(next)
    };
    Ok(make(&mut number))
}

/// The overlay the visual layer draws on: X11 windows or the Wayland
/// compositor's layer surfaces.
#[derive(Debug)]
pub(crate) enum Drawn {
    X11(Arc<crate::overlay::X11Overlay>),
    Wayland(Arc<crate::wayland::overlay::WaylandOverlay>),
}

impl Drawn {
    pub(crate) fn is_broken(&self) -> bool {
        match self {
            Drawn::X11(o) => o.is_broken(),
            Drawn::Wayland(o) => o.is_broken(),
        }
    }

    pub(crate) fn dyn_overlay(&self) -> Arc<dyn cup::visual::Overlay> {
        match self {
            Drawn::X11(o) => o.clone(),
            Drawn::Wayland(o) => o.clone(),
        }
    }
}

/// What every wlroots compositor offers cup: the virtual pointer and
/// keyboard, and screencopy (each connected on first use).
#[derive(Debug, Default)]
struct Wlroots {
    socket: Option<std::path::PathBuf>,
    device: OnceCell<Result<WaylandDevice, String>>,
    shots: OnceCell<Result<crate::wayland::screencopy::Screencopy, String>>,
}

impl Wlroots {
    fn new(socket: Option<std::path::PathBuf>) -> Wlroots {
        Wlroots {
            socket,
            ..Wlroots::default()
        }
    }

    async fn device(&self) -> Result<&WaylandDevice, AdapterError> {
        kept(&self.device, || async {
            let socket = socket_of(self.socket.as_deref())?;
            WaylandDevice::open(&socket)
                .await
                .map_err(|e| e.to_string())
        })
        .await
    }

    async fn shots(&self) -> Result<&crate::wayland::screencopy::Screencopy, AdapterError> {
        kept(&self.shots, || async {
            let socket = socket_of(self.socket.as_deref())?;
            crate::wayland::screencopy::Screencopy::open(&socket)
                .await
                .map_err(|e| e.to_string())
        })
        .await
    }

    /// The input and capture checks of a wlroots compositor.
    async fn checks(&self) -> (Checked, Checked) {
        let input = async {
            self.device().await.map_err(|e| e.to_string())?;
            Ok(
                "zwlr_virtual_pointer_v1 and zwp_virtual_keyboard_v1 (cup's own keymaps)"
                    .to_owned(),
            )
        };
        let capture = async {
            self.shots().await.map_err(|e| e.to_string())?;
            Ok("zwlr_screencopy_manager_v1".to_owned())
        };
        let (input, capture) = tokio::join!(input, capture);
        (
            Checked {
                name: INPUT_CHECK,
                result: input,
                fix: "use a wlroots compositor (sway, Hyprland, river, labwc, Wayfire): cup's Wayland input needs its virtual pointer and keyboard protocols",
            },
            Checked {
                name: "screen capture",
                result: capture,
                fix: "use a wlroots compositor that offers wlr-screencopy (sway does)",
            },
        )
    }
}

/// The name of the input check on a Wayland desktop.
const INPUT_CHECK: &str = "input (virtual pointer and keyboard)";

/// How to fix the display check of a wlroots desktop.
const WLR_DISPLAY_FIX: &str = "check WAYLAND_DISPLAY and SWAYSOCK (sway sets both), or run `eval \"$(cup sandbox start --wayland)\"`";
