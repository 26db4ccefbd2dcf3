//! KWin (KDE Plasma) under Wayland: the windows with their places and
//! pids from KWin scripting, the outputs from the compositor, input
//! through KWin's EIS or fake input (or the desktop portal), screenshots
//! through `org.kde.KWin.ScreenShot2`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use cup::AdapterError;
use cup_protocol::{Node, Rect};
use futures::FutureExt as _;
use tokio::sync::OnceCell;

use crate::device::WaylandDevice;
use crate::display::DisplayState;
use crate::kwin::script::KWinScripts;
use crate::pixels::Pixels;
use crate::toplevel::Toplevels;
use cup_linux_display::backend::{kept, Checked, DisplayBackend, Drawn, StateRead};
use cup_linux_display::device::GestureDevice;
use cup_linux_display::env::Desktop;

/// KWin and where to report its problems.
const KWIN: (&str, &str) = ("KWin", "your Plasma version");

#[derive(Debug)]
pub(crate) struct KWin {
    scripts: KWinScripts,
    socket: Option<std::path::PathBuf>,
    device: OnceCell<Result<WaylandDevice, String>>,
    /// The outputs (KWin's scripts list no outputs).
    toplevels: OnceCell<Result<Toplevels, String>>,
    /// cup's number for each KWin window (`{uuid}`), kept while it lives.
    ids: Arc<Mutex<HashMap<String, u32>>>,
}

impl KWin {
    pub(crate) fn new(scripts: KWinScripts, socket: Option<std::path::PathBuf>) -> KWin {
        KWin {
            scripts,
            socket,
            device: OnceCell::new(),
            toplevels: OnceCell::new(),
            ids: Arc::default(),
        }
    }

    async fn toplevels(&self) -> Result<&Toplevels, AdapterError> {
        kept(&self.toplevels, || async {
            let socket = super::compositor::socket_of(self.socket.as_deref())?;
            Toplevels::open(&socket, crate::client::DEFAULT_TIMEOUT)
                .await
                .map_err(|e| e.to_string())
        })
        .await
    }

    /// The pointer and keyboard: through the desktop portal when
    /// `CUP_WAYLAND_INPUT=portal` asks (Plasma 6: with EIS where it offers
    /// it, with the user's consent), else KWin's own EIS (Plasma 6.1+),
    /// else its fake input.
    async fn device(&self) -> Result<&WaylandDevice, AdapterError> {
        kept(&self.device, || async {
            let socket = super::compositor::socket_of(self.socket.as_deref())?;
            let opened = if super::compositor::portal_asked() {
                WaylandDevice::open_portal(
                    self.scripts.connection(),
                    &super::compositor::portal_token_file()?,
                    super::compositor::PORTAL_CONSENT,
                    None,
                )
                .await
            } else {
                match crate::kwin::eis::connect(self.scripts.connection()).await {
                    Ok(Some(fd)) => WaylandDevice::open_eis(fd).await,
                    Ok(None) => WaylandDevice::open_kwin(&socket).await,
                    Err(e) => Err(e),
                }
            };
            opened.map_err(|e| e.to_string())
        })
        .await
    }
}

/// KWin's windows now (one script exchange), on the outputs `toplevels`
/// reads, numbered through `ids`.
async fn state(
    scripts: KWinScripts,
    toplevels: Toplevels,
    ids: Arc<Mutex<HashMap<String, u32>>>,
) -> Result<DisplayState, AdapterError> {
    use crate::{kwin, reported, toplevel};
    let json = scripts.run(kwin::script).await?;
    tracing::debug!(%json, "kwin windows");
    let windows = reported::windows_of(&json, KWIN)?;
    let outputs =
        toplevels.read().await.map(|(_, o)| o).map_err(|e| {
            AdapterError::Unavailable(format!("KWin's outputs could not be read: {e}"))
        })?;
    super::compositor::numbered(&ids, |number| {
        reported::state_of(
            &windows,
            toplevel::monitors_of(&outputs),
            number,
            crate::display::Backend::KWin,
        )
    })
}

#[async_trait]
impl DisplayBackend for KWin {
    async fn reader(&self) -> Result<StateRead, AdapterError> {
        // The screen's size comes from the outputs: a compositor that does
        // not answer is an error, not a screen of no size.
        let toplevels = self.toplevels().await?.clone();
        Ok(state(self.scripts.clone(), toplevels, Arc::clone(&self.ids)).boxed())
    }

    /// Activates the KWin window of `window` (by title, and place when
    /// several share it) through a script, unless it is active already.
    async fn activate(&self, window: &Node) -> Result<(), AdapterError> {
        use crate::{kwin, reported};
        let json = self.scripts.run(kwin::script).await?;
        let windows = reported::windows_of(&json, KWIN)?;
        match reported::choose(&windows, &window.name, window.bounds) {
            Some(w) if !w.active => {
                let id = w.id.clone();
                self.scripts
                    .run(|service, token| kwin::activate_script(service, token, &id))
                    .await
                    .map(|_| ())
            }
            _ => Ok(()),
        }
    }

    /// The desktop's size from a script: a whole-screen screenshot then
    /// needs no Wayland connection (see [`crate::kwin::screen_script`]).
    async fn screen_rect(&self) -> Result<Rect, AdapterError> {
        let json = self.scripts.run(crate::kwin::screen_script).await?;
        let (w, h) = crate::kwin::screen_size(&json).map_err(AdapterError::Platform)?;
        Ok(Rect::new(0, 0, u64::from(w), u64::from(h)))
    }

    async fn pixels(&self, region: Rect) -> Result<Pixels, AdapterError> {
        tracing::debug!(?region, "KWin screenshot area");
        let area = (
            i32::try_from(region.x).unwrap_or(i32::MAX),
            i32::try_from(region.y).unwrap_or(i32::MAX),
            u32::try_from(region.w).unwrap_or(u32::MAX),
            u32::try_from(region.h).unwrap_or(u32::MAX),
        );
        let (meta, rgb) = crate::kwin::shot::capture_area(self.scripts.connection(), area).await?;
        // KWin answers in layout pixels at scale 1; at other scales in
        // device pixels, which cup brings back to layout ones.
        Ok(super::compositor::to_layout(
            rgb,
            meta.width,
            meta.height,
            region,
        ))
    }

    async fn gestures(&self) -> Result<&dyn GestureDevice, AdapterError> {
        Ok(self.device().await? as &dyn GestureDevice)
    }

    async fn overlay(&self) -> Result<Arc<dyn Drawn>, AdapterError> {
        super::compositor::wayland_overlay(self.socket.as_deref()).await
    }

    async fn note(&self) -> Option<String> {
        Some(
            "display: Wayland, KWin (KDE Plasma): windows, places and pids from KWin scripting; pointer, keys and screenshots (ScreenShot2) once `cup setup kde` allowed this cup (US keys; other text through the elements' type action)".to_owned(),
        )
    }

    async fn checks(&self, desktop: &Desktop) -> [Checked; 3] {
        let display = async {
            let s = self.reader().await.map_err(|e| e.to_string())?.await;
            let s = s.map_err(|e| e.to_string())?;
            Ok(format!(
                "Wayland, native: KWin at {} ({}); windows, places and pids from KWin scripting",
                super::compositor::socket_name(desktop),
                super::compositor::screen_line(&s)
            ))
        };
        let input = async {
            self.device().await.map_err(|e| e.to_string())?;
            Ok(
                "org_kde_kwin_fake_input (US keys; other text through the elements' type action)"
                    .to_owned(),
            )
        };
        let capture = async {
            crate::kwin::shot::capture_area(self.scripts.connection(), (0, 0, 1, 1))
                .await
                .map_err(|e| e.to_string())?;
            Ok("org.kde.KWin.ScreenShot2".to_owned())
        };
        let (display, input, capture) = tokio::join!(display, input, capture);
        [
            Checked {
                name: "display",
                result: display,
                fix: super::compositor::WLR_DISPLAY_FIX,
            },
            Checked {
                name: super::compositor::INPUT_CHECK,
                result: input,
                fix: "run `cup setup kde` as the desktop's user (a desktop file that lets this cup use KWin's fake input)",
            },
            Checked {
                name: "screen capture",
                result: capture,
                fix: "run `cup setup kde` as the desktop's user (the same desktop file allows KWin's screenshots)",
            },
        ]
    }
}
