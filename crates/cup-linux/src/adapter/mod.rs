//! [`LinuxAdapter`]: the [`cup::Adapter`] for Linux desktops.
//!
//! Windows are the AT-SPI frames of registered applications joined with the
//! X11 top-level windows (EWMH, or the root's children without a window
//! manager) by pid, then title, then overlap. The foreground window is the
//! X11 active window; without one (no window manager), the frame in the
//! ACTIVE state, else the top-most visible window.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use atspi::zbus::Connection;
use atspi::Role as AtspiRole;
use cup::{
    ActionParams, ActionResult, Adapter, AdapterError, Capture, CaptureLimits, Monitor, ScreenInfo,
    Shot, ShotTarget, Target, WindowHandle,
};
use cup_protocol::Action;
use cup_protocol::{PlatformId, Rect, WindowInfo};
use tokio::sync::OnceCell;

use crate::act::{
    self,
    events::EventLog,
    fallback::{Fallback, InputOps},
};
use crate::atspi_calls::ObjRef;
use crate::capture::{self, AppFacts, Target as CaptureTarget};
use crate::env::Desktop;
use crate::mapping::MapContext;
use crate::peers::Links;
use cup_linux_display::backend::{Checked, DisplayBackend, Drawn};
use cup_protocol::keys::Combo;

mod windows;

use windows::X11Read;

/// The Linux adapter. Connects to the accessibility bus on first use.
#[derive(Debug, Default)]
pub struct LinuxAdapter {
    desktop: Desktop,
    unresponsive: Mutex<HashSet<u32>>,
    links: OnceCell<Links>,
    events: OnceCell<EventLog>,
    /// The display server's backend (chosen on first use).
    backend: OnceCell<Box<dyn DisplayBackend>>,
    facts: AppFacts,
    monitors: Mutex<Vec<Monitor>>,
    /// The X11 read in progress, which concurrent callers share (a
    /// snapshot asks for the screen and the windows at once).
    x11_read: Mutex<Option<X11Read>>,
    /// The X11 connection the reads share.
    x11_reader: Arc<cup_x11::X11Reader>,
    /// The registry's applications at the last window listing.
    last_apps: Mutex<Vec<ObjRef>>,
    /// Keep the raw facts of captures (`cup snapshot --native-dump`).
    record: std::sync::atomic::AtomicBool,
    /// The raw facts of the last capture, when recording.
    native: Mutex<Option<serde_json::Value>>,
    /// The visual layer's windows (made on first use, again after the
    /// connection broke).
    overlay: tokio::sync::Mutex<Option<Arc<dyn Drawn>>>,
    /// Where window-relative (0, 0) is on screen, by window handle, for
    /// the windows whose extents are window-relative (native Wayland
    /// clients), as of the last window listing.
    origins: Mutex<HashMap<String, (i64, i64)>>,
    /// Window handles of frames the compositor does not list (Wayland
    /// popups), as of the last window listing: placed nowhere.
    /// Windows with no known place on the screen, and why.
    unplaced: Mutex<HashMap<String, String>>,
    /// The shadow inset found for a window, with the frame extents and
    /// rectangle it was found for: the same two again need no reads.
    insets: Mutex<HashMap<String, KnownInset>>,
}

/// A shadow inset with the frame extents and rectangle it was found for.
type KnownInset = (Rect, Rect, (i64, i64));

impl LinuxAdapter {
    /// An adapter for the desktop of the process environment (no I/O until
    /// the first call).
    pub fn new() -> Self {
        LinuxAdapter::for_desktop(Desktop::from_env())
    }

    /// An adapter for the given desktop (no I/O until the first call).
    pub fn for_desktop(desktop: Desktop) -> Self {
        if let (Some(display), Some(file)) = (&desktop.display, &desktop.xauthority) {
            cup_x11::register(display, file);
        }
        LinuxAdapter {
            desktop,
            ..LinuxAdapter::default()
        }
    }

    /// Pids of the applications that did not answer the last window listing.
    pub fn unresponsive(&self) -> HashSet<u32> {
        self.unresponsive
            .lock()
            .map(|u| u.clone())
            .unwrap_or_default()
    }

    /// The desktop this adapter talks to.
    pub fn desktop(&self) -> &Desktop {
        &self.desktop
    }

    /// The accessibility bus connection.
    pub async fn connection(&self) -> Result<&Connection, AdapterError> {
        Ok(self.links().await?.bus())
    }

    /// The bus and the direct connections to applications.
    pub async fn links(&self) -> Result<&Links, AdapterError> {
        self.links
            .get_or_try_init(|| async {
                crate::bus::connect(&self.desktop)
                    .await
                    .map(|(bus, address)| Links::new(bus, address))
            })
            .await
    }

    /// The display server's backend, chosen once (see
    /// [`crate::backend::choose`]).
    async fn backend(&self) -> &dyn DisplayBackend {
        self.backend
            .get_or_init(|| crate::backend::choose(&self.desktop, Arc::clone(&self.x11_reader)))
            .await
            .as_ref()
    }

    /// The input device of this desktop: the compositor's virtual devices
    /// on a native Wayland desktop, XTest on X11.
    pub async fn input_ops(&self) -> Result<&dyn InputOps, AdapterError> {
        self.backend().await.input().await
    }

    /// The display, input and screen-capture checks of this desktop's
    /// display server.
    pub(crate) async fn backend_checks(&self) -> [Checked; 3] {
        self.backend().await.checks(&self.desktop).await
    }

    /// The screen rectangle a screenshot target stands for.
    async fn shot_region(&self, target: &ShotTarget) -> Result<Rect, AdapterError> {
        match target {
            ShotTarget::Screen => self.backend().await.screen_rect().await,
            ShotTarget::FullPage => Err(AdapterError::Invalid(
                "a full-page screenshot is for web pages (--platform web); on the desktop take the screen, a window or a region".into(),
            )),
            ShotTarget::Region(r) => Ok(*r),
            ShotTarget::Monitor(i) => {
                let monitors = self.display_state().await?.monitors;
                monitors.get(*i).map(|m| m.rect).ok_or_else(|| {
                    AdapterError::NotFound(format!(
                        "there is no monitor {i}: the screen has {} (0 to {}); see `cup snapshot --scope overview`",
                        monitors.len(),
                        monitors.len().saturating_sub(1)
                    ))
                })
            }
            ShotTarget::Window(wanted) => {
                let windows = self.windows().await?;
                let lower = wanted.to_lowercase();
                let found = windows
                    .iter()
                    .find(|w| w.native == *wanted)
                    .or_else(|| {
                        windows
                            .iter()
                            .find(|w| w.info.title.to_lowercase() == lower)
                    })
                    .or_else(|| {
                        windows.iter().find(|w| {
                            !lower.is_empty() && w.info.title.to_lowercase().contains(&lower)
                        })
                    });
                let Some(w) = found else {
                    let titles: Vec<String> = windows
                        .iter()
                        .map(|w| format!("{:?}", w.info.title))
                        .collect();
                    return Err(AdapterError::NotFound(format!(
                        "no window matches {wanted:?}; open windows: {}",
                        if titles.is_empty() {
                            "none".to_owned()
                        } else {
                            titles.join(", ")
                        }
                    )));
                };
                w.info.bounds.ok_or_else(|| {
                    AdapterError::NotFound(format!(
                        "window {:?} has no known position; use --region x,y,w,h",
                        w.info.title
                    ))
                })
            }
        }
    }

    /// The log of AT-SPI events (subscribed on first use).
    pub async fn events(&self) -> Result<&EventLog, AdapterError> {
        let links = self.links().await?;
        self.events
            .get_or_try_init(|| async {
                EventLog::start(links.bus()).await.map_err(|e| {
                    AdapterError::Platform(format!(
                        "cannot listen to AT-SPI events: {e}; check the accessibility bus"
                    ))
                })
            })
            .await
    }
}

#[async_trait]
impl Adapter for LinuxAdapter {
    fn record_native(&self, on: bool) {
        self.record.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    fn native_dump(&self) -> Option<serde_json::Value> {
        self.native.lock().ok().and_then(|n| n.clone())
    }

    fn platform(&self) -> PlatformId {
        PlatformId::Linux
    }

    async fn screen(&self) -> Result<ScreenInfo, AdapterError> {
        let s = self.display_state().await?;
        Ok(ScreenInfo {
            width: s.width,
            height: s.height,
            scale: s.scale,
            monitors: s.screen_monitors(),
        })
    }

    async fn windows(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        self.list_windows(false).await
    }

    async fn windows_for_capture(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        // `CUP_READ_AHEAD=0` lists as for no capture (to compare).
        let ahead = std::env::var("CUP_READ_AHEAD").map_or(true, |v| v != "0");
        self.list_windows(ahead).await
    }

    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError> {
        let frames = self.frames(false).await?;
        Ok(frames
            .into_iter()
            .find(|f| f.role == AtspiRole::DesktopFrame)
            .map(|f| WindowHandle {
                info: WindowInfo {
                    title: f.name.clone(),
                    pid: f.pid.map(i64::from),
                    foreground: false,
                    bounds: f.extents,
                    ..WindowInfo::default()
                },
                native: f.obj.key(),
            }))
    }

    async fn act(
        &self,
        target: &Target<'_>,
        action: Action,
        params: &ActionParams,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let links = self.links().await?;
        let events = self.events().await?;
        let bus = target.native.split_once(":/").map_or("", |(b, _)| b);
        // GTK 4 (any display) and native Wayland clients report extents
        // relative to the window, whose root node is at its origin.
        let relative = self.facts.is_gtk4(bus) || self.is_relative_app(bus);
        self.backend().await.activate(target.window).await?;
        let origin = if relative {
            target.window.bounds.map_or((0, 0), |b| (b.x, b.y))
        } else {
            (0, 0)
        };
        let ctx = act::Context {
            links,
            events,
            fallback: Fallback {
                input: self.input_ops().await.ok(),
                origin,
                window_relative: relative,
                snapshot_bounds: target.node.bounds,
                offscreen: target.node.states.contains(&cup_protocol::State::Offscreen),
            },
        };
        act::act(&ctx, target, action, params, refs).await
    }

    async fn screenshot(&self, target: &ShotTarget) -> Result<Shot, AdapterError> {
        let region = self.shot_region(target).await?;
        let png = self.backend().await.png(region).await?;
        Ok(Shot {
            png: png.bytes,
            width: png.width,
            height: png.height,
            x: png.x,
            y: png.y,
        })
    }

    async fn overlay(&self) -> Result<Arc<dyn cup::visual::Overlay>, AdapterError> {
        let mut slot = self.overlay.lock().await;
        if let Some(o) = slot.as_ref().filter(|o| !o.is_broken()) {
            return Ok(o.clone());
        }
        let made = self.backend().await.overlay().await?;
        *slot = Some(made.clone());
        Ok(made)
    }

    async fn screenshot_rgb(
        &self,
        target: &ShotTarget,
    ) -> Result<cup::image::RgbShot, AdapterError> {
        let region = self.shot_region(target).await?;
        let px = self.backend().await.pixels(region).await?;
        Ok(cup::image::RgbShot {
            rgb: px.rgb,
            width: px.width,
            height: px.height,
            x: px.x,
            y: px.y,
        })
    }

    async fn open_app(&self, name: &str) -> Result<cup::Launched, AdapterError> {
        crate::apps::open(self, name, &[]).await
    }

    async fn open_app_with(
        &self,
        name: &str,
        args: &[String],
    ) -> Result<cup::Launched, AdapterError> {
        crate::apps::open(self, name, args).await
    }

    async fn input(
        &self,
        gesture: &cup::Gesture,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let events = self.events().await?;
        act::gesture::perform(
            self.backend().await.gestures().await?,
            events,
            gesture,
            refs,
        )
        .await
    }

    async fn cursor(&self) -> Result<cup::Point, AdapterError> {
        self.backend().await.cursor().await
    }

    async fn apps(&self) -> Result<Vec<cup::AppEntry>, AdapterError> {
        let installed = tokio::task::spawn_blocking(crate::apps::discover::installed);
        let (installed, windows) = tokio::join!(installed, self.windows());
        let installed: Vec<crate::apps::entry::Entry> = installed
            .map_err(|e| AdapterError::Platform(format!("app discovery failed: {e}")))?
            .into_iter()
            .map(|(e, _)| e)
            .collect();
        Ok(crate::apps::list::join(&installed, &windows?))
    }

    async fn display_note(&self) -> Option<String> {
        self.backend().await.note().await
    }

    async fn check(&self) -> Vec<cup::Check> {
        crate::checks::run(self).await
    }

    async fn press(
        &self,
        combo: &Combo,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let input = self.input_ops().await?;
        let ctx = act::Context {
            links: self.links().await?,
            events: self.events().await?,
            fallback: Fallback {
                input: Some(input),
                origin: (0, 0),
                window_relative: false,
                snapshot_bounds: None,
                offscreen: false,
            },
        };
        act::press(&ctx, combo, refs).await
    }

    async fn capture(
        &self,
        windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError> {
        let links = self.links().await?;
        let mut monitors: Vec<Rect> = self
            .monitors
            .lock()
            .map(|m| m.iter().map(|m| m.rect).collect())
            .unwrap_or_default();
        if monitors.is_empty() {
            monitors = self
                .display_state()
                .await?
                .monitors
                .iter()
                .map(|m| m.rect)
                .collect();
        }
        let popups = self.popups_for(links, windows).await;
        let targets: Vec<CaptureTarget> = windows
            .iter()
            .map(|w| (w, self.origin_of(&w.native)))
            .map(|(w, placed)| CaptureTarget {
                frame: if crate::display::Backend::is_window_handle(&w.native) {
                    None
                } else {
                    ObjRef::from_key(&w.native)
                },
                title: w.info.title.clone(),
                origin: placed.unwrap_or_else(|| w.info.bounds.map_or((0, 0), |b| (b.x, b.y))),
                relative: placed.is_some(),
                unplaced: self
                    .unplaced
                    .lock()
                    .ok()
                    .and_then(|u| u.get(&w.native).cloned()),
                rect: w.info.bounds,
                pid: w.info.pid.and_then(|p| u32::try_from(p).ok()),
                popups: popups.as_ref().map(|all| {
                    all.iter()
                        .filter(|p| p.pid.is_some_and(|p| Some(i64::from(p)) == w.info.pid))
                        .map(|p| p.rect)
                        .collect()
                }),
            })
            .collect();
        let record = self.record.load(std::sync::atomic::Ordering::Relaxed);
        let (capture, raws) = capture::capture(
            links,
            &targets,
            limits,
            &MapContext { monitors },
            &self.facts,
            &self.unresponsive(),
            record,
        )
        .await;
        if let Some(raws) = raws {
            let dump = serde_json::json!({
                "platform": "linux",
                "source": "recorded by cup snapshot --native-dump",
                "windows": raws,
            });
            if let Ok(mut slot) = self.native.lock() {
                *slot = Some(dump);
            }
        }
        Ok(capture)
    }
}
