//! An X server: EWMH and RandR for the windows and monitors, XTest for
//! input, XShm or the core protocol for screenshots, override-redirect
//! windows for the overlay. Also what cup sees of a Wayland session it does
//! not drive natively: the XWayland windows.

use std::sync::Arc;

use async_trait::async_trait;
use cup::AdapterError;
use cup_protocol::{Node, Rect};
use futures::FutureExt as _;
use tokio::sync::OnceCell;

use crate::input::Input;
use crate::screenshot::{Grabber, Pixels, Png, ShotError};
use crate::windows::X11Reader;
use cup_linux_display::backend::{kept, Checked, DisplayBackend, Drawn, StateRead};
use cup_linux_display::device::GestureDevice;
use cup_linux_display::env::Desktop;

/// The display backend of an X server.
#[derive(Debug)]
pub struct X11 {
    display: Option<String>,
    reader: Arc<X11Reader>,
    input: OnceCell<Result<Input, String>>,
    grabber: OnceCell<Result<Grabber, String>>,
}

impl X11 {
    /// The backend of X display `display`, reading windows with `reader`.
    pub fn new(display: Option<String>, reader: Arc<X11Reader>) -> X11 {
        X11 {
            display,
            reader,
            input: OnceCell::new(),
            grabber: OnceCell::new(),
        }
    }

    /// The X display, or why there is none.
    fn display(&self) -> Result<String, String> {
        self.display.clone().ok_or_else(|| {
            "no X11 display (DISPLAY is unset); start one with `cup sandbox start`".to_owned()
        })
    }

    /// Synthetic input on the display (opened on first use).
    async fn xtest(&self) -> Result<&Input, AdapterError> {
        kept(&self.input, || async {
            let display = self.display()?;
            Input::open(&display).await.map_err(|e| e.to_string())
        })
        .await
    }

    /// Screenshots of the display (connected on first use).
    async fn grabber(&self) -> Result<&Grabber, AdapterError> {
        kept(&self.grabber, || async {
            let display = self.display()?;
            Grabber::open(&display).await.map_err(|e| e.to_string())
        })
        .await
    }
}

fn shot_error(e: ShotError) -> AdapterError {
    match e {
        ShotError::Region { .. } => AdapterError::Invalid(e.to_string()),
        e => AdapterError::Platform(e.to_string()),
    }
}

#[async_trait]
impl DisplayBackend for X11 {
    async fn reader(&self) -> Result<StateRead, AdapterError> {
        let display = self.display.clone();
        let reader = Arc::clone(&self.reader);
        Ok(async move { reader.read(display.as_deref()).await }.boxed())
    }

    async fn activate(&self, _window: &Node) -> Result<(), AdapterError> {
        // AT-SPI's focus reaches X11 windows: nothing to do here.
        Ok(())
    }

    async fn pixels(&self, region: Rect) -> Result<Pixels, AdapterError> {
        self.grabber()
            .await?
            .pixels(region)
            .await
            .map_err(shot_error)
    }

    async fn png(&self, region: Rect) -> Result<Png, AdapterError> {
        self.grabber().await?.png(region).await.map_err(shot_error)
    }

    async fn screen_rect(&self) -> Result<Rect, AdapterError> {
        Ok(self.grabber().await?.screen())
    }

    async fn gestures(&self) -> Result<&dyn GestureDevice, AdapterError> {
        Ok(self.xtest().await? as &dyn GestureDevice)
    }

    async fn overlay(&self) -> Result<Arc<dyn Drawn>, AdapterError> {
        let display = self.display().map_err(AdapterError::Unavailable)?;
        let state = self.reader().await?.await?;
        Ok(Arc::new(
            crate::overlay::X11Overlay::open(
                &display,
                state.scale,
                crate::overlay::attended(&state.monitors),
            )
            .await?,
        ))
    }

    async fn note(&self) -> Option<String> {
        None
    }

    async fn checks(&self, desktop: &Desktop) -> [Checked; 3] {
        let display = async {
            let s = crate::windows::read_state(desktop.display.as_deref())
                .await
                .map_err(|e| e.to_string())?;
            // A Wayland session without sway's IPC: cup sees the XWayland
            // windows only.
            let wayland = if desktop.wayland.is_some() {
                "; a Wayland session without SWAYSOCK: native Wayland windows are not seen (GNOME and KDE are not supported natively yet), X11 apps through XWayland are"
            } else {
                ""
            };
            Ok(format!(
                "X11 {} ({}x{}, {} monitor(s), scale {}){wayland}",
                desktop.display.clone().unwrap_or_default(),
                s.width,
                s.height,
                s.monitors.len(),
                s.scale
            ))
        };
        let input = async {
            let input = self.xtest().await.map_err(|e| e.to_string())?;
            let p = input.cursor_position().await.map_err(|e| e.to_string())?;
            Ok(format!("XTest available; pointer at {},{}", p.x, p.y))
        };
        let capture = async {
            let g = self.grabber().await.map_err(|e| e.to_string())?;
            let (w, h) = g.size();
            Ok(format!("{} ({w}x{h})", g.transport().name()))
        };
        let (display, input, capture) = tokio::join!(display, input, capture);
        [
            Checked {
                name: "display",
                result: display,
                fix: "set DISPLAY to a running X11 server, or run `eval \"$(cup sandbox start)\"`",
            },
            Checked {
                name: "input (XTest)",
                result: input,
                fix: "run an X server with the XTEST extension (Xorg and Xvfb have it by default)",
            },
            Checked {
                name: "screen capture",
                result: capture,
                fix: "check that the X server runs and allows GetImage (it does unless a security extension forbids it)",
            },
        ]
    }
}
