//! A Wayland compositor without sway's IPC (labwc, Wayfire, river, …):
//! the windows from `zwlr_foreign_toplevel_manager_v1` (titles and app
//! ids, no places), XWayland's windows from the X server, input through
//! the wlroots virtual pointer and keyboard, screenshots through
//! screencopy.

use std::sync::Arc;

use async_trait::async_trait;
use cup::AdapterError;
use cup_protocol::{Node, Rect};
use futures::FutureExt as _;
use tokio::sync::OnceCell;

use super::compositor::Wlroots;
use crate::pixels::Pixels;
use crate::toplevel::Toplevels;
use cup_linux_display::backend::XWindows;
use cup_linux_display::backend::{kept, Checked, DisplayBackend, Drawn, StateRead};
use cup_linux_display::device::GestureDevice;
use cup_linux_display::env::Desktop;

#[derive(Debug)]
pub(crate) struct Wlr {
    wlroots: Wlroots,
    toplevels: OnceCell<Result<Toplevels, String>>,
    /// XWayland's display, whose windows keep their X11 places.
    display: Option<String>,
    reader: Arc<dyn XWindows>,
}

impl Wlr {
    pub(crate) fn new(
        socket: Option<std::path::PathBuf>,
        display: Option<String>,
        reader: Arc<dyn XWindows>,
    ) -> Wlr {
        Wlr {
            wlroots: Wlroots::new(socket),
            toplevels: OnceCell::new(),
            display,
            reader,
        }
    }

    /// The compositor's window list (connected on first use).
    async fn toplevels(&self) -> Result<&Toplevels, AdapterError> {
        kept(&self.toplevels, || async {
            let socket = super::compositor::socket_of(self.wlroots.socket.as_deref())?;
            Toplevels::open(&socket, crate::client::DEFAULT_TIMEOUT)
                .await
                .map_err(|e| e.to_string())
        })
        .await
    }
}

#[async_trait]
impl DisplayBackend for Wlr {
    async fn reader(&self) -> Result<StateRead, AdapterError> {
        let toplevels = self.toplevels().await?.clone();
        let display = self.display.clone();
        let reader = Arc::clone(&self.reader);
        Ok(async move {
            use crate::toplevel;
            let (list, outputs) = toplevels
                .read()
                .await
                .map_err(|e| AdapterError::Platform(e.to_string()))?;
            let state = toplevel::state_of(&list, toplevel::monitors_of(&outputs));
            // XWayland's windows keep their X11 places.
            let x11 = match display {
                Some(d) => reader
                    .read(Some(&d))
                    .await
                    .map(|x| x.windows)
                    .unwrap_or_default(),
                None => Vec::new(),
            };
            Ok(toplevel::with_xwayland(state, &x11))
        }
        .boxed())
    }

    /// Activates the one toplevel titled like `window` through the
    /// foreign-toplevel protocol (nothing when it is active already, when
    /// no toplevel or several have that title, or when the compositor
    /// lists none: keys then go where its focus is).
    async fn activate(&self, window: &Node) -> Result<(), AdapterError> {
        let toplevels = self.toplevels().await?;
        if !toplevels.lists() {
            return Ok(());
        }
        let (list, _) = toplevels
            .read()
            .await
            .map_err(|e| AdapterError::Platform(e.to_string()))?;
        let mut named = list.iter().filter(|t| t.title == window.name);
        match (named.next(), named.next()) {
            (Some(t), None) if !t.activated => toplevels
                .activate(t.id)
                .await
                .map_err(|e| AdapterError::Platform(e.to_string())),
            _ => Ok(()),
        }
    }

    async fn pixels(&self, region: Rect) -> Result<Pixels, AdapterError> {
        super::compositor::screencopy_pixels(self.wlroots.shots().await?, region).await
    }

    async fn gestures(&self) -> Result<&dyn GestureDevice, AdapterError> {
        Ok(self.wlroots.device().await? as &dyn GestureDevice)
    }

    async fn overlay(&self) -> Result<Arc<dyn Drawn>, AdapterError> {
        super::compositor::wayland_overlay(self.wlroots.socket.as_deref()).await
    }

    async fn note(&self) -> Option<String> {
        let lists = match self.toplevels().await {
            Ok(t) if t.lists() => "its window list from zwlr_foreign_toplevel_manager_v1",
            Ok(_) => "no window list from it (windows from the accessibility bus)",
            Err(e) => return Some(format!("display: Wayland, compositor not reachable: {e}")),
        };
        Some(format!(
            "display: Wayland without sway's IPC ({lists}): the compositor tells no window positions, so native windows' elements have no bounds (act through their actions); XWayland windows keep theirs"
        ))
    }

    async fn checks(&self, desktop: &Desktop) -> [Checked; 3] {
        let display = async {
            let s = self.reader().await.map_err(|e| e.to_string())?.await;
            let s = s.map_err(|e| e.to_string())?;
            let toplevels = self.toplevels().await.map_err(|e| e.to_string())?;
            let offers = toplevels.globals().names().join(", ");
            let list = if toplevels.lists() {
                "windows from zwlr_foreign_toplevel_manager_v1"
            } else {
                "no window list from the compositor"
            };
            Ok(format!(
                "Wayland, native, without sway's IPC at {} ({}); {list}; window positions unknown: native windows' elements get no bounds (compositor offers: {offers})",
                super::compositor::socket_name(desktop),
                super::compositor::screen_line(&s)
            ))
        };
        let (display, (input, capture)) = tokio::join!(display, self.wlroots.checks());
        [
            Checked {
                name: "display",
                result: display,
                fix: super::compositor::WLR_DISPLAY_FIX,
            },
            input,
            capture,
        ]
    }
}
