//! sway (or another compositor speaking its IPC): the windows with their
//! places and pids from its IPC, input through the wlroots virtual
//! pointer and keyboard, screenshots through screencopy.

use std::sync::Arc;

use async_trait::async_trait;
use cup::AdapterError;
use cup_protocol::{Node, Rect};
use futures::FutureExt as _;

use super::compositor::Wlroots;
use crate::pixels::Pixels;
use crate::sway::SwayIpc;
use cup_linux_display::backend::{Checked, DisplayBackend, Drawn, StateRead};
use cup_linux_display::device::GestureDevice;
use cup_linux_display::env::Desktop;

#[derive(Debug)]
pub(crate) struct Sway {
    ipc: SwayIpc,
    wlroots: Wlroots,
}

impl Sway {
    pub(crate) fn new(ipc: SwayIpc, socket: Option<std::path::PathBuf>) -> Sway {
        Sway {
            ipc,
            wlroots: Wlroots::new(socket),
        }
    }
}

#[async_trait]
impl DisplayBackend for Sway {
    async fn reader(&self) -> Result<StateRead, AdapterError> {
        let sway = self.ipc.clone();
        Ok(async move { Ok(sway.state().await?.display_state()) }.boxed())
    }

    /// The window of `window` among sway's, by title and position.
    async fn activate(&self, window: &Node) -> Result<(), AdapterError> {
        let state = self.ipc.state().await?;
        let name = window.name.as_str();
        let mut candidates = state.windows.iter().filter(|w| w.title == name);
        let chosen = match (window.bounds, candidates.clone().count()) {
            (_, 0) => None,
            (_, 1) => candidates.next(),
            (Some(b), _) => candidates.find(|w| !w.rect.intersect(&b).is_empty()),
            (None, _) => None,
        };
        match chosen {
            Some(w) if w.focused => Ok(()),
            Some(w) => self.ipc.focus(w.id).await,
            None => Ok(()),
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
        let version = self
            .ipc
            .version()
            .await
            .unwrap_or_else(|e| format!("(version unknown: {e})"));
        Some(format!(
            "display: Wayland, driven natively (sway {version}: its IPC, virtual pointer and keyboard, screencopy)"
        ))
    }

    async fn checks(&self, desktop: &Desktop) -> [Checked; 3] {
        let display = async {
            let s = self.reader().await.map_err(|e| e.to_string())?.await;
            let s = s.map_err(|e| e.to_string())?;
            let version = self.ipc.version().await.map_err(|e| e.to_string())?;
            Ok(format!(
                "Wayland, native: sway {version} at {} ({}); window positions from sway's IPC",
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
