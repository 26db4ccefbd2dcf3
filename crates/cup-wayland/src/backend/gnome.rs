//! GNOME (mutter / gnome-shell) under Wayland: the windows with their
//! places and pids from cup's GNOME Shell extension, the monitors from
//! mutter's DisplayConfig, input through mutter's RemoteDesktop (or the
//! desktop portal's), screenshots through the extension (or the portal).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use cup::{AdapterError, Monitor};
use cup_protocol::{Node, Rect};
use futures::FutureExt as _;
use tokio::sync::OnceCell;

use crate::device::WaylandDevice;
use crate::display::DisplayState;
use crate::gnome::shell::GnomeShell;
use crate::pixels::Pixels;
use cup_linux_display::backend::{kept, Checked, DisplayBackend, Drawn, StateRead};
use cup_linux_display::device::GestureDevice;
use cup_linux_display::env::Desktop;

/// GNOME Shell and where to report its problems.
const GNOME: (&str, &str) = ("GNOME Shell", "your GNOME version");

#[derive(Debug)]
pub(crate) struct Gnome {
    shell: GnomeShell,
    socket: Option<std::path::PathBuf>,
    device: OnceCell<Result<WaylandDevice, String>>,
    /// cup's number for each GNOME Shell window id, kept while it lives.
    ids: Arc<Mutex<HashMap<String, u32>>>,
}

impl Gnome {
    pub(crate) fn new(shell: GnomeShell, socket: Option<std::path::PathBuf>) -> Gnome {
        Gnome {
            shell,
            socket,
            device: OnceCell::new(),
            ids: Arc::default(),
        }
    }

    /// The pointer and keyboard: mutter's RemoteDesktop, else (where
    /// mutter refuses it, or `CUP_WAYLAND_INPUT=portal` asks) the desktop
    /// portal's, with the user's consent.
    async fn device(&self) -> Result<&WaylandDevice, AdapterError> {
        kept(&self.device, || async {
            let shell = &self.shell;
            // The extension tells where the pointer is (a new session's
            // first motion is checked with it).
            let probe = shell.extension().await.is_ok().then(|| shell.clone());
            if !super::compositor::portal_asked() {
                let monitors = shell.monitors().await.map_err(|e| e.to_string())?;
                let direct = WaylandDevice::open_mutter(
                    shell.connection(),
                    &monitors,
                    probe.clone(),
                    self.socket.as_deref(),
                )
                .await;
                match direct {
                    Err(crate::client::WaylandError::Unsupported(why))
                        if shell.has_owner(crate::portal::DESKTOP).await =>
                    {
                        tracing::info!(%why, "mutter refused its RemoteDesktop: the desktop portal's");
                    }
                    other => return other.map_err(|e| e.to_string()),
                }
            }
            WaylandDevice::open_portal(
                shell.connection(),
                &super::compositor::portal_token_file()?,
                super::compositor::PORTAL_CONSENT,
                probe,
            )
            .await
            .map_err(|e| e.to_string())
        })
        .await
    }

    /// `region` cut from a screenshot of the whole screen through the
    /// desktop portal (the route without cup's extension), in layout pixels.
    async fn portal_pixels(&self, region: Rect) -> Result<Pixels, String> {
        let shell = &self.shell;
        let png = crate::portal::client::screenshot(
            shell.connection(),
            super::compositor::PORTAL_CONSENT,
        )
        .await
        .map_err(|e| e.to_string())?;
        let (rgb, w, h) = cup::image::rgb_from_png(&png)?;
        let monitors = shell.monitors().await.map_err(|e| e.to_string())?;
        let screen_w = monitors
            .iter()
            .map(|(m, _)| m.rect.right())
            .max()
            .unwrap_or(0);
        let screen_h = monitors
            .iter()
            .map(|(m, _)| m.rect.bottom())
            .max()
            .unwrap_or(0);
        let image = crate::screencopy::Image {
            width: w as usize,
            height: h as usize,
            rgb,
        };
        // The portal's picture may be in device pixels: back to layout ones.
        let screen = crate::screencopy::resample(
            &image,
            usize::try_from(screen_w).unwrap_or(w as usize),
            usize::try_from(screen_h).unwrap_or(h as usize),
        );
        let r = region.intersect(&Rect::new(
            0,
            0,
            screen_w.max(0) as u64,
            screen_h.max(0) as u64,
        ));
        if r.w == 0 || r.h == 0 {
            return Err(format!("{region:?} is outside the screen"));
        }
        let (x0, y0) = (r.x as usize, r.y as usize);
        let (cw, ch) = (r.w as usize, r.h as usize);
        let mut rgb = Vec::with_capacity(cw * ch * 3);
        for row in y0..y0 + ch {
            let start = (row * screen.width + x0) * 3;
            rgb.extend_from_slice(screen.rgb.get(start..start + cw * 3).unwrap_or_default());
        }
        if rgb.len() != cw * ch * 3 {
            return Err("the portal's screenshot is smaller than the screen".into());
        }
        Ok(Pixels {
            rgb,
            width: r.w as u32,
            height: r.h as u32,
            x: r.x,
            y: r.y,
        })
    }
}

/// GNOME's windows now (from cup's extension) on mutter's monitors; when
/// the extension does not answer, no windows and why.
async fn state(
    shell: GnomeShell,
    ids: Arc<Mutex<HashMap<String, u32>>>,
) -> Result<DisplayState, AdapterError> {
    use crate::reported;
    let (monitors, extension, windows) =
        tokio::join!(shell.monitors(), shell.extension(), shell.windows());
    let monitors: Vec<Monitor> = monitors?.into_iter().map(|(m, _)| m).collect();
    let windows = match extension {
        Ok(_) => reported::windows_of(&windows?, GNOME)?,
        Err(why) => {
            let mut state =
                reported::state_of(&[], monitors, &mut |_| 0, crate::display::Backend::Gnome);
            state.unplaced = Some(why);
            return Ok(state);
        }
    };
    tracing::debug!(count = windows.len(), "gnome windows");
    super::compositor::numbered(&ids, |number| {
        reported::state_of(&windows, monitors, number, crate::display::Backend::Gnome)
    })
}

#[async_trait]
impl DisplayBackend for Gnome {
    async fn reader(&self) -> Result<StateRead, AdapterError> {
        Ok(state(self.shell.clone(), Arc::clone(&self.ids)).boxed())
    }

    /// Activates the GNOME window of `window` (by title, and place when
    /// several share it) through cup's extension, unless it is active
    /// already. Without the extension nothing is activated (actions
    /// through AT-SPI need no focus; input goes where GNOME's focus is).
    async fn activate(&self, window: &Node) -> Result<(), AdapterError> {
        use crate::reported;
        if self.shell.extension().await.is_err() {
            return Ok(());
        }
        let windows = reported::windows_of(&self.shell.windows().await?, GNOME)?;
        match reported::choose(&windows, &window.name, window.bounds) {
            Some(w) if !w.active => self.shell.activate(&w.id).await.map(|_| ()),
            _ => Ok(()),
        }
    }

    /// The pixels of `region` from cup's GNOME Shell extension (a PNG in
    /// layout pixels at scale 1; at other scales in device pixels, brought
    /// back to layout ones); without it, the desktop portal's screenshot.
    async fn pixels(&self, region: Rect) -> Result<Pixels, AdapterError> {
        if let Err(why) = self.shell.extension().await {
            return match self.portal_pixels(region).await {
                Ok(pixels) => Ok(pixels),
                Err(e) => Err(AdapterError::Unsupported(format!(
                    "unsupported: screenshots on GNOME without {why}; the desktop portal's screenshot failed too: {e}"
                ))),
            };
        }
        let area = (
            i32::try_from(region.x).unwrap_or(i32::MAX),
            i32::try_from(region.y).unwrap_or(i32::MAX),
            i32::try_from(region.w).unwrap_or(i32::MAX),
            i32::try_from(region.h).unwrap_or(i32::MAX),
        );
        let png = self.shell.screenshot(area).await?;
        let (rgb, w, h) = cup::image::rgb_from_png(&png)
            .map_err(|e| AdapterError::Platform(format!("GNOME Shell's screenshot: {e}")))?;
        Ok(super::compositor::to_layout(rgb, w, h, region))
    }

    async fn gestures(&self) -> Result<&dyn GestureDevice, AdapterError> {
        Ok(self.device().await? as &dyn GestureDevice)
    }

    async fn overlay(&self) -> Result<Arc<dyn Drawn>, AdapterError> {
        super::compositor::wayland_overlay(self.socket.as_deref()).await
    }

    async fn note(&self) -> Option<String> {
        Some(match self.shell.extension().await {
            Ok(v) => format!(
                "display: Wayland, GNOME Shell {}: windows, places, pids and screenshots from cup's extension; pointer and keys through mutter's RemoteDesktop (ASCII keys; other text through the elements' type action)",
                v.shell
            ),
            Err(why) => format!(
                "display: Wayland, GNOME: window places unknown, so elements have no bounds (act through their actions): {why}"
            ),
        })
    }

    async fn checks(&self, desktop: &Desktop) -> [Checked; 3] {
        let display = async {
            let s = self.reader().await.map_err(|e| e.to_string())?.await;
            let s = s.map_err(|e| e.to_string())?;
            let version = self.shell.extension().await?;
            Ok(format!(
                "Wayland, native: GNOME Shell {} at {} ({}); windows, places and pids from cup's extension (version {})",
                version.shell,
                super::compositor::socket_name(desktop),
                super::compositor::screen_line(&s),
                version.extension
            ))
        };
        let input = async {
            let dev = self.device().await.map_err(|e| e.to_string())?;
            Ok(if dev.is_eis() {
                format!(
                    "EIS through {} (libei's protocol)",
                    if dev.is_portal() {
                        "the desktop portal"
                    } else {
                        "mutter's RemoteDesktop"
                    }
                )
            } else if dev.is_portal() {
                "the desktop portal's RemoteDesktop (ASCII keys; other text through the elements' type action)".to_owned()
            } else {
                "mutter's org.gnome.Mutter.RemoteDesktop (ASCII keys; other text through the elements' type action)".to_owned()
            })
        };
        let capture = async {
            self.shell.extension().await.map_err(|why| {
                format!("{why}; without it a screenshot goes through the desktop portal (whole screen, cut; GNOME asks its user once, and the portal refuses a root cup)")
            })?;
            self.shell
                .screenshot((0, 0, 1, 1))
                .await
                .map_err(|e| e.to_string())?;
            Ok("Shell.Screenshot through cup's GNOME Shell extension".to_owned())
        };
        let (display, input, capture) = tokio::join!(display, input, capture);
        [
            Checked {
                name: "display",
                result: display,
                fix: crate::gnome::SETUP_LINE,
            },
            Checked {
                name: super::compositor::INPUT_CHECK,
                result: input,
                fix: "run cup as the desktop's user; where mutter refuses its RemoteDesktop, cup asks the desktop portal (xdg-desktop-portal with its GNOME backend) and the user allows it once (CUP_WAYLAND_INPUT=portal asks it first)",
            },
            Checked {
                name: "screen capture",
                result: capture,
                fix: crate::gnome::SETUP_LINE,
            },
        ]
    }
}
