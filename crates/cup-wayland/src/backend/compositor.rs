//! What the Wayland backends share: the compositor's socket, the desktop
//! portal's consent, wlroots' devices and screencopy, the layer-shell
//! overlay, pictures brought to layout pixels, shell window numbers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cup::AdapterError;
use cup_protocol::Rect;
use tokio::sync::OnceCell;

use crate::device::WaylandDevice;
use crate::display::DisplayState;
use crate::pixels::Pixels;
use cup_linux_display::backend::{kept, Checked, Drawn};
use cup_linux_display::env::Desktop;

/// The Wayland compositor's socket, or why there is none.
pub(super) fn socket_of(socket: Option<&std::path::Path>) -> Result<std::path::PathBuf, String> {
    socket
        .map(std::path::Path::to_path_buf)
        .ok_or_else(|| "no Wayland socket (WAYLAND_DISPLAY is unset)".to_owned())
}

/// The socket's path as the checks print it.
pub(super) fn socket_name(desktop: &Desktop) -> String {
    desktop
        .wayland
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

/// A display state's size and monitors, as the checks print them.
pub(super) fn screen_line(s: &DisplayState) -> String {
    format!(
        "{}x{}, {} output(s), scale {}",
        s.width,
        s.height,
        s.monitors.len(),
        s.scale
    )
}

/// How long the desktop portal's dialog may wait for the user's answer.
pub(super) const PORTAL_CONSENT: Duration = Duration::from_secs(60);

/// Where the desktop portal's restore token is kept
/// (`$XDG_STATE_HOME/cup/`, else `~/.local/state/cup/`).
pub(super) fn portal_token_file() -> Result<std::path::PathBuf, String> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/state"))
        })
        .ok_or("neither XDG_STATE_HOME nor HOME is set: set HOME (where cup keeps the desktop portal's restore token)")?;
    Ok(crate::portal::token_file(&state))
}

/// Whether `CUP_WAYLAND_INPUT=portal` asks for the desktop portal's input.
pub(super) fn portal_asked() -> bool {
    std::env::var("CUP_WAYLAND_INPUT").is_ok_and(|v| v == "portal")
}

/// The compositor's screenshots (wlr-screencopy) of `region`.
pub(super) async fn screencopy_pixels(
    shots: &crate::screencopy::Screencopy,
    region: Rect,
) -> Result<Pixels, AdapterError> {
    let frame = shots
        .capture(Some((region.x, region.y, region.w, region.h)))
        .await
        .map_err(|e| match e {
            crate::client::WaylandError::Invalid(m) => AdapterError::Invalid(m),
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
pub(super) fn to_layout(rgb: Vec<u8>, w: u32, h: u32, region: Rect) -> Pixels {
    let (width, height) = (
        u32::try_from(region.w).unwrap_or(w),
        u32::try_from(region.h).unwrap_or(h),
    );
    let rgb = if (w, h) == (width, height) {
        rgb
    } else {
        let image = crate::screencopy::Image {
            width: w as usize,
            height: h as usize,
            rgb,
        };
        crate::screencopy::resample(&image, width as usize, height as usize).rgb
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
pub(super) async fn wayland_overlay(
    socket: Option<&std::path::Path>,
) -> Result<Arc<dyn Drawn>, AdapterError> {
    let socket = socket_of(socket).map_err(AdapterError::Unavailable)?;
    let o = crate::overlay::WaylandOverlay::open(&socket)
        .await
        .map_err(|e| match e {
            crate::client::WaylandError::Unsupported(m) => AdapterError::Unsupported(m),
            e => AdapterError::Unavailable(e.to_string()),
        })?;
    Ok(Arc::new(o))
}

/// Runs `make` with a function that gives each shell window id the
/// number cup uses for it (kept in `ids`).
pub(super) fn numbered(
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

/// What every wlroots compositor offers cup: the virtual pointer and
/// keyboard, and screencopy (each connected on first use).
#[derive(Debug, Default)]
pub(crate) struct Wlroots {
    pub(super) socket: Option<std::path::PathBuf>,
    device: OnceCell<Result<WaylandDevice, String>>,
    shots: OnceCell<Result<crate::screencopy::Screencopy, String>>,
}

impl Wlroots {
    pub(crate) fn new(socket: Option<std::path::PathBuf>) -> Wlroots {
        Wlroots {
            socket,
            ..Wlroots::default()
        }
    }

    pub(super) async fn device(&self) -> Result<&WaylandDevice, AdapterError> {
        kept(&self.device, || async {
            let socket = socket_of(self.socket.as_deref())?;
            WaylandDevice::open(&socket)
                .await
                .map_err(|e| e.to_string())
        })
        .await
    }

    pub(super) async fn shots(&self) -> Result<&crate::screencopy::Screencopy, AdapterError> {
        kept(&self.shots, || async {
            let socket = socket_of(self.socket.as_deref())?;
            crate::screencopy::Screencopy::open(&socket)
                .await
                .map_err(|e| e.to_string())
        })
        .await
    }

    /// The input and capture checks of a wlroots compositor.
    pub(super) async fn checks(&self) -> (Checked, Checked) {
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
pub(super) const INPUT_CHECK: &str = "input (virtual pointer and keyboard)";

/// How to fix the display check of a wlroots desktop.
pub(super) const WLR_DISPLAY_FIX: &str = "check WAYLAND_DISPLAY and SWAYSOCK (sway sets both), or run `eval \"$(cup sandbox start --wayland)\"`";
