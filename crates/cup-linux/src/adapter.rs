//! [`LinuxAdapter`]: the [`cup::Adapter`] for Linux desktops.
//!
//! Windows are the AT-SPI frames of registered applications joined with the
//! X11 top-level windows (EWMH, or the root's children without a window
//! manager) by pid, then title, then overlap. The foreground window is the
//! X11 active window; without one (no window manager), the frame in the
//! ACTIVE state, else the top-most visible window.

use std::collections::{HashMap, HashSet};
use std::os::unix::ffi::OsStrExt as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
use crate::atspi_calls::{self as calls, ObjRef};
use crate::capture::{self, AppFacts, Target as CaptureTarget};
use crate::display::DisplayState;
use crate::env::Desktop;
use crate::input::Input;
use crate::links::{Links, Peer};
use crate::mapping::MapContext;
use crate::screenshot::Grabber;
use crate::windows::join_windows;
pub use crate::windows::Frame;
use crate::x11;
use cup_protocol::keys::Combo;

/// How long an application gets to list its windows before it counts as
/// busy or hung (its windows then come from X11 alone).
pub const FRAMES_TIMEOUT: Duration = Duration::from_millis(1000);

/// The Linux adapter. Connects to the accessibility bus on first use.
#[derive(Debug, Default)]
pub struct LinuxAdapter {
    desktop: Desktop,
    unresponsive: Mutex<HashSet<u32>>,
    links: OnceCell<Links>,
    events: OnceCell<EventLog>,
    input: OnceCell<Result<Input, String>>,
    grabber: OnceCell<Result<Grabber, String>>,
    /// The compositor's virtual pointer and keyboard (native Wayland).
    wl_input: OnceCell<Result<crate::wayland::device::WaylandDevice, String>>,
    /// KWin's scripting, when the Wayland desktop is KWin's (none when
    /// KWin is not on the session bus).
    kwin: OnceCell<Option<crate::wayland::kwin_script::KWinScripts>>,
    /// gnome-shell, when the Wayland desktop is GNOME's (none when
    /// mutter's RemoteDesktop is not on the session bus).
    gnome: OnceCell<Option<crate::wayland::gnome_shell::GnomeShell>>,
    /// cup's number for each KWin (`{uuid}`) or GNOME Shell window id,
    /// kept while the adapter lives.
    shell_ids: Arc<Mutex<HashMap<String, u32>>>,
    /// The compositor's window list (a Wayland compositor without sway's
    /// IPC).
    wl_toplevels: OnceCell<Result<crate::wayland::toplevel::Toplevels, String>>,
    /// Screenshots through the compositor (native Wayland).
    wl_shots: OnceCell<Result<crate::wayland::screencopy::Screencopy, String>>,
    facts: AppFacts,
    monitors: Mutex<Vec<Monitor>>,
    /// The X11 read in progress, which concurrent callers share (a
    /// snapshot asks for the screen and the windows at once).
    x11_read: Mutex<Option<X11Read>>,
    /// The X11 connection the reads share.
    x11_reader: Arc<x11::X11Reader>,
    /// The registry's applications at the last window listing.
    last_apps: Mutex<Vec<ObjRef>>,
    /// Keep the raw facts of captures (`cup snapshot --native-dump`).
    record: std::sync::atomic::AtomicBool,
    /// The raw facts of the last capture, when recording.
    native: Mutex<Option<serde_json::Value>>,
    /// The visual layer's windows (made on first use, again after the
    /// connection broke).
    overlay: tokio::sync::Mutex<Option<Drawn>>,
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
    /// sway's IPC client (made on first use).
    sway_ipc: std::sync::OnceLock<Option<crate::wayland::sway::SwayIpc>>,
}

/// A shadow inset with the frame extents and rectangle it was found for.
type KnownInset = (Rect, Rect, (i64, i64));

/// What one application's frame listing found.
struct AppFrames {
    frames: Vec<Frame>,
    /// Its pid, when it did not answer in time.
    hung: Option<u32>,
}

/// One X11 state read, shared by the callers that overlap it.
type X11Read = futures::future::Shared<
    futures::future::BoxFuture<'static, Result<DisplayState, AdapterError>>,
>;

/// Empties the slot of the shared X11 read once its first caller is done
/// with it (or gave up): a later call reads afresh.
struct ClearRead<'a>(&'a Mutex<Option<X11Read>>);

impl Drop for ClearRead<'_> {
    fn drop(&mut self) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = None;
        }
    }
}

impl LinuxAdapter {
    /// An adapter for the desktop of the process environment (no I/O until
    /// the first call).
    pub fn new() -> Self {
        LinuxAdapter::for_desktop(Desktop::from_env())
    }

    /// An adapter for the given desktop (no I/O until the first call).
    pub fn for_desktop(desktop: Desktop) -> Self {
        if let (Some(display), Some(file)) = (&desktop.display, &desktop.xauthority) {
            crate::xauth::register(display, file);
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

    /// Synthetic input on this desktop's display (opened on first use).
    pub async fn input(&self) -> Result<&Input, AdapterError> {
        kept(&self.input, || async {
            let display = self.x11_display()?;
            Input::open(&display).await.map_err(|e| e.to_string())
        })
        .await
    }

    /// The compositor's virtual devices (opened on first use).
    pub async fn wayland_input(
        &self,
    ) -> Result<&crate::wayland::device::WaylandDevice, AdapterError> {
        let kwin = self.kwin().await;
        let gnome = self.gnome().await;
        kept(&self.wl_input, || async {
            if let Some(shell) = gnome {
                let portal = std::env::var("CUP_WAYLAND_INPUT").is_ok_and(|v| v == "portal");
                // The extension tells where the pointer is (a new
                // session's first motion is checked with it).
                let probe = shell.extension().await.is_ok().then(|| shell.clone());
                if !portal {
                    let monitors = shell.monitors().await.map_err(|e| e.to_string())?;
                    let socket = self.wayland_socket().ok();
                    let direct = crate::wayland::device::WaylandDevice::open_mutter(
                        shell.connection(),
                        &monitors,
                        probe.clone(),
                        socket.as_deref(),
                    )
                    .await;
                    match direct {
                        Err(crate::wayland::client::WaylandError::Unsupported(why))
                            if shell.has_owner(crate::wayland::portal::DESKTOP).await =>
                        {
                            tracing::info!(%why, "mutter refused its RemoteDesktop: the desktop portal's");
                        }
                        other => return other.map_err(|e| e.to_string()),
                    }
                }
                return crate::wayland::device::WaylandDevice::open_portal(
                    shell.connection(),
                    &portal_token_file()?,
                    PORTAL_CONSENT,
                    probe,
                )
                .await
                .map_err(|e| e.to_string());
            }
            let socket = self.wayland_socket()?;
            let portal = std::env::var("CUP_WAYLAND_INPUT").is_ok_and(|v| v == "portal");
            let opened = if let (Some(scripts), true) = (kwin, portal) {
                // KDE through the desktop portal (Plasma 6: with EIS
                // where it offers it), with the user's consent.
                crate::wayland::device::WaylandDevice::open_portal(
                    scripts.connection(),
                    &portal_token_file()?,
                    PORTAL_CONSENT,
                    None,
                )
                .await
            } else if let Some(scripts) = kwin {
                // KWin's own EIS (Plasma 6.1+), else its fake input.
                match crate::wayland::kwin_eis::connect(scripts.connection()).await {
                    Ok(Some(fd)) => crate::wayland::device::WaylandDevice::open_eis(fd).await,
                    Ok(None) => crate::wayland::device::WaylandDevice::open_kwin(&socket).await,
                    Err(e) => Err(e),
                }
            } else {
                crate::wayland::device::WaylandDevice::open(&socket).await
            };
            opened.map_err(|e| e.to_string())
        })
        .await
    }

    /// The X display, or why there is none.
    fn x11_display(&self) -> Result<String, String> {
        self.desktop.display.clone().ok_or_else(|| {
            "no X11 display (DISPLAY is unset); start one with `cup sandbox start`".to_owned()
        })
    }

    /// The Wayland compositor's socket, or why there is none.
    fn wayland_socket(&self) -> Result<std::path::PathBuf, String> {
        self.desktop
            .wayland
            .clone()
            .ok_or_else(|| "no Wayland socket (WAYLAND_DISPLAY is unset)".to_owned())
    }

    /// The input device of this desktop: the compositor's virtual devices
    /// on a native Wayland desktop, XTest on X11.
    pub async fn input_ops(&self) -> Result<&dyn InputOps, AdapterError> {
        if self.desktop.is_native_wayland() {
            return Ok(self.wayland_input().await? as &dyn InputOps);
        }
        Ok(self.input().await? as &dyn InputOps)
    }

    /// KWin's scripting, when this Wayland desktop is KWin's: the session
    /// bus is asked once whether `org.kde.KWin` is there.
    pub async fn kwin(&self) -> Option<&crate::wayland::kwin_script::KWinScripts> {
        self.kwin
            .get_or_init(|| async {
                if !self.desktop.is_native_wayland() || self.sway().is_some() {
                    return None;
                }
                let bus = self.desktop.session_bus.as_deref()?;
                // Scripts go where KWin (the desktop's user) can read them:
                // the desktop's runtime directory.
                let dir = self
                    .desktop
                    .wayland
                    .as_deref()
                    .and_then(std::path::Path::parent)
                    .map_or_else(std::env::temp_dir, std::path::Path::to_path_buf);
                let scripts = crate::wayland::kwin_script::KWinScripts::connect(bus, dir)
                    .await
                    .ok()?;
                scripts.present().await.then_some(scripts)
            })
            .await
            .as_ref()
    }

    /// gnome-shell, when this Wayland desktop is GNOME's: the session bus
    /// is asked once whether mutter's RemoteDesktop is there.
    pub async fn gnome(&self) -> Option<&crate::wayland::gnome_shell::GnomeShell> {
        self.gnome
            .get_or_init(|| async {
                if !self.desktop.is_native_wayland() || self.sway().is_some() {
                    return None;
                }
                let bus = self.desktop.session_bus.as_deref()?;
                let shell = crate::wayland::gnome_shell::GnomeShell::connect(bus)
                    .await
                    .ok()?;
                shell.present().await.then_some(shell)
            })
            .await
            .as_ref()
    }

    /// The window list of a Wayland compositor without sway's IPC
    /// (connected on first use).
    pub async fn wayland_toplevels(
        &self,
    ) -> Result<&crate::wayland::toplevel::Toplevels, AdapterError> {
        kept(&self.wl_toplevels, || async {
            let socket = self.wayland_socket()?;
            crate::wayland::toplevel::Toplevels::open(
                &socket,
                crate::wayland::client::DEFAULT_TIMEOUT,
            )
            .await
            .map_err(|e| e.to_string())
        })
        .await
    }

    /// Screenshots through the compositor (connected on first use).
    pub async fn wayland_shots(
        &self,
    ) -> Result<&crate::wayland::screencopy::Screencopy, AdapterError> {
        kept(&self.wl_shots, || async {
            let socket = self.wayland_socket()?;
            crate::wayland::screencopy::Screencopy::open(&socket)
                .await
                .map_err(|e| e.to_string())
        })
        .await
    }

    /// The pixels of `region`, from the compositor or the X server.
    async fn pixels(&self, region: Rect) -> Result<crate::screenshot::Pixels, AdapterError> {
        if let Some(shell) = self.gnome().await {
            return gnome_pixels(shell, region).await;
        }
        if let Some(scripts) = self.kwin().await {
            tracing::debug!(?region, "KWin screenshot area");
            let area = (
                i32::try_from(region.x).unwrap_or(i32::MAX),
                i32::try_from(region.y).unwrap_or(i32::MAX),
                u32::try_from(region.w).unwrap_or(u32::MAX),
                u32::try_from(region.h).unwrap_or(u32::MAX),
            );
            let (meta, rgb) =
                crate::wayland::kwin_shot::capture_area(scripts.connection(), area).await?;
            // KWin answers in layout pixels at scale 1; at other scales in
            // device pixels, which cup brings back to layout ones.
            let (width, height) = (
                u32::try_from(region.w).unwrap_or(meta.width),
                u32::try_from(region.h).unwrap_or(meta.height),
            );
            let rgb = if (meta.width, meta.height) == (width, height) {
                rgb
            } else {
                let image = crate::wayland::screencopy::Image {
                    width: meta.width as usize,
                    height: meta.height as usize,
                    rgb,
                };
                crate::wayland::screencopy::resample(&image, width as usize, height as usize).rgb
            };
            return Ok(crate::screenshot::Pixels {
                rgb,
                width,
                height,
                x: region.x,
                y: region.y,
            });
        }
        if self.desktop.is_native_wayland() {
            let frame = self
                .wayland_shots()
                .await?
                .capture(Some((region.x, region.y, region.w, region.h)))
                .await
                .map_err(|e| match e {
                    crate::wayland::client::WaylandError::Invalid(m) => AdapterError::Invalid(m),
                    e => AdapterError::Platform(e.to_string()),
                })?;
            return Ok(crate::screenshot::Pixels {
                rgb: frame.rgb,
                width: frame.width,
                height: frame.height,
                x: frame.x,
                y: frame.y,
            });
        }
        self.grabber()
            .await?
            .pixels(region)
            .await
            .map_err(|e| match e {
                crate::screenshot::ShotError::Region { .. } => AdapterError::Invalid(e.to_string()),
                e => AdapterError::Platform(e.to_string()),
            })
    }

    /// Gives the keyboard to the window an action targets (under Wayland
    /// only the compositor can: AT-SPI's focus does not activate a
    /// window), found by title and position among sway's windows.
    async fn activate_for(&self, window: &cup_protocol::Node) -> Result<(), AdapterError> {
        let Some(sway) = self.sway() else {
            if let Some(shell) = self.gnome().await {
                return activate_gnome(shell, window).await;
            }
            if let Some(scripts) = self.kwin().await {
                return self.activate_kwin(scripts, window).await;
            }
            if self.desktop.is_native_wayland() {
                return self.activate_toplevel(&window.name).await;
            }
            return Ok(());
        };
        let state = sway.state().await?;
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
            Some(w) => sway.focus(w.id).await,
            None => Ok(()),
        }
    }

    /// Activates the KWin window of `window` (by title, and place when
    /// several share it) through a script, unless it is active already.
    async fn activate_kwin(
        &self,
        scripts: &crate::wayland::kwin_script::KWinScripts,
        window: &cup_protocol::Node,
    ) -> Result<(), AdapterError> {
        use crate::wayland::{kwin, reported};
        let json = scripts.run(kwin::script).await?;
        let windows = reported::windows_of(&json, KWIN)?;
        match reported::choose(&windows, &window.name, window.bounds) {
            Some(w) if !w.active => {
                let id = w.id.clone();
                scripts
                    .run(|service, token| kwin::activate_script(service, token, &id))
                    .await
                    .map(|_| ())
            }
            _ => Ok(()),
        }
    }

    /// Activates the one toplevel titled `title` through the compositor's
    /// foreign-toplevel protocol (nothing when it is active already, when
    /// no toplevel or several have that title, or when the compositor
    /// lists none: keys then go where its focus is).
    async fn activate_toplevel(&self, title: &str) -> Result<(), AdapterError> {
        let toplevels = self.wayland_toplevels().await?;
        if !toplevels.lists() {
            return Ok(());
        }
        let (list, _) = toplevels
            .read()
            .await
            .map_err(|e| AdapterError::Platform(e.to_string()))?;
        let mut named = list.iter().filter(|t| t.title == title);
        match (named.next(), named.next()) {
            (Some(t), None) if !t.activated => toplevels
                .activate(t.id)
                .await
                .map_err(|e| AdapterError::Platform(e.to_string())),
            _ => Ok(()),
        }
    }

    /// Screenshots of this desktop's display (connected on first use).
    pub async fn grabber(&self) -> Result<&Grabber, AdapterError> {
        kept(&self.grabber, || async {
            let display = self.x11_display()?;
            Grabber::open(&display).await.map_err(|e| e.to_string())
        })
        .await
    }

    /// The screen rectangle a screenshot target stands for.
    async fn shot_region(&self, target: &ShotTarget) -> Result<Rect, AdapterError> {
        match target {
            ShotTarget::Screen if self.desktop.is_native_wayland() => {
                let s = self.display_state().await?;
                Ok(Rect::new(
                    0,
                    0,
                    s.width.max(0).unsigned_abs(),
                    s.height.max(0).unsigned_abs(),
                ))
            }
            ShotTarget::Screen => Ok(self.grabber().await?.screen()),
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

    /// Every showing top-level frame of every registered application.
    /// Applications that do not answer within [`FRAMES_TIMEOUT`] are
    /// remembered as unresponsive (see [`LinuxAdapter::unresponsive`]).
    ///
    /// The registry's list takes the longest of these calls (about 2 ms:
    /// through the bus daemon to the registry and back), so the apps of the
    /// last listing are asked for their frames while it comes; an app no
    /// longer listed is then left out, and a new one asked after. The
    /// result is the registry's list of now either way.
    ///
    /// With `ahead` (a capture follows), the apps the last capture read are
    /// asked for their whole structure instead (see [`capture::ReadAhead`]).
    pub async fn frames(&self, ahead: bool) -> Result<Vec<Frame>, AdapterError> {
        let links = self.links().await?;
        let daemon = &links.daemon().await;
        self.facts.ahead.clear();
        let known: Vec<ObjRef> = self.last_apps.lock().map(|a| a.clone()).unwrap_or_default();
        let (apps, early) = tokio::join!(
            calls::applications(daemon),
            futures::future::join_all(
                known
                    .iter()
                    .map(|app| self.frames_of(links, daemon, app, ahead))
            )
        );
        let apps = apps.map_err(|e| {
            AdapterError::Platform(format!(
                "the AT-SPI registry did not list applications: {e}"
            ))
        })?;
        if let Ok(mut last) = self.last_apps.lock() {
            last.clone_from(&apps);
        }
        let mut listed: HashMap<&ObjRef, AppFrames> = known.iter().zip(early).collect();
        let new: Vec<&ObjRef> = apps.iter().filter(|a| !listed.contains_key(a)).collect();
        let late = futures::future::join_all(
            new.iter()
                .map(|app| self.frames_of(links, daemon, app, ahead)),
        )
        .await;
        listed.extend(new.into_iter().zip(late));
        let mut unresponsive = HashSet::new();
        let mut frames = Vec::new();
        for app in &apps {
            let Some(got) = listed.remove(app) else {
                continue;
            };
            unresponsive.extend(got.hung);
            let shown: Vec<Frame> = got
                .frames
                .into_iter()
                .filter(|f| capture::is_showing(f.states))
                .collect();
            self.facts
                .ahead
                .remember_frames(&app.bus, shown.iter().map(|f| f.obj.clone()).collect());
            frames.extend(shown);
        }
        if let Ok(mut u) = self.unresponsive.lock() {
            *u = unresponsive;
        }
        Ok(frames)
    }

    /// The top-level frames of one application; with `ahead`, from its
    /// whole structure when the last capture read it (kept for the next
    /// capture: [`capture::ReadAhead`]).
    async fn frames_of(
        &self,
        links: &Links,
        daemon: &Peer,
        app: &ObjRef,
        ahead: bool,
    ) -> AppFrames {
        // The app's own socket once a capture opened it (the bus daemon
        // otherwise); the pid is the daemon's to say, once.
        let peer = &links.to(&app.bus);
        let toolkit = self.facts.toolkit(&app.bus);
        let read_ahead = ahead
            && self.facts.ahead.wanted(&app.bus)
            && toolkit
                .as_ref()
                .is_some_and(|(name, version)| crate::raw::is_gtk_before_4(name, version));
        let get_all = toolkit.is_some_and(|(name, _)| calls::get_all_safe(&name));
        let pid = async {
            if let Some(pid) = self.facts.pid(&app.bus) {
                return Some(pid);
            }
            let pid = calls::pid_of(daemon, &app.bus).await.ok()?;
            self.facts.put_pid(&app.bus, pid);
            Some(pid)
        };
        let cached = async {
            if !read_ahead {
                return Ok(None);
            }
            // The frames shown at the last listing are asked for their
            // extents right behind GetItems: the app answers them while
            // cup decodes its answer.
            let guesses = self.facts.ahead.last_frames(&app.bus);
            let (items, guessed) = tokio::join!(
                tokio::time::timeout(FRAMES_TIMEOUT, calls::cache_items(peer, &app.bus)),
                futures::future::join_all(guesses.iter().map(|f| {
                    tokio::time::timeout(
                        FRAMES_TIMEOUT,
                        calls::extents(peer, f, calls::coord_type(false)),
                    )
                }))
            );
            let guessed: HashMap<ObjRef, crate::raw::Extents> = guesses
                .into_iter()
                .zip(guessed)
                .filter_map(|(f, e)| Some((f, e.ok()?.ok()?)))
                .collect();
            match items {
                Ok(Ok(items)) => {
                    let index = capture::CacheIndex::new(items);
                    let frames = index.children(app).map(|kids| {
                        kids.into_iter()
                            .map(|e| (e.obj.clone(), e.role, e.states, e.name.clone()))
                            .collect::<Vec<_>>()
                    });
                    self.facts.ahead.put(&app.bus, index);
                    Ok(frames.map(|f| (f, guessed)))
                }
                // No cache after all: the frames one by one.
                Ok(Err(_)) => Ok(None),
                Err(elapsed) => Err(elapsed),
            }
        };
        let (pid, cached) = tokio::join!(pid, cached);
        match cached {
            Ok(Some((frames, guessed))) => {
                return AppFrames {
                    frames: self.cached_frames(peer, frames, guessed, pid).await,
                    hung: None,
                }
            }
            Ok(None) => {}
            Err(_) => {
                return AppFrames {
                    frames: Vec::new(),
                    hung: pid,
                }
            }
        }
        let kids = tokio::time::timeout(FRAMES_TIMEOUT, calls::children(peer, app)).await;
        let kids = match kids {
            Ok(Ok(kids)) => kids,
            Ok(Err(e)) if !calls::is_timeout(&e) => Vec::new(),
            // Busy or hung: its windows come from X11 only.
            _ => {
                return AppFrames {
                    frames: Vec::new(),
                    hung: pid,
                }
            }
        };
        // A GTK 4 frame's extents are window-relative either way; asked
        // for screen ones, it logs a warning.
        let coord = calls::coord_type(self.facts.is_gtk4(&app.bus));
        let frames = futures::future::join_all(kids.into_iter().map(|obj| async move {
            let read = tokio::try_join!(
                calls::role(peer, &obj),
                calls::states(peer, &obj),
                calls::accessible_props(peer, &obj, get_all),
                calls::extents(peer, &obj, coord)
            );
            read.ok().map(|(role, states, props, e)| Frame {
                obj,
                role,
                name: props.name,
                states,
                extents: frame_rect(e),
                pid,
            })
        }))
        .await;
        AppFrames {
            frames: frames.into_iter().flatten().collect(),
            hung: None,
        }
    }

    /// The windows: AT-SPI frames and X11 state read at once, joined.
    /// With `ahead`, see [`LinuxAdapter::frames`]; the listing then polls
    /// busily when the capture that follows will (its apps answer on one
    /// thread: see [`crate::wire::BusyPoll`]).
    async fn list_windows(&self, ahead: bool) -> Result<Vec<WindowHandle>, AdapterError> {
        let began = std::time::Instant::now();
        let since = || began.elapsed().as_secs_f64() * 1e3;
        let one_thread = ahead
            && self
                .facts
                .ahead
                .captured_all(|bus| self.facts.is_gtk_before_4(bus));
        let _busy = crate::wire::BusyPoll::start(FRAMES_TIMEOUT, one_thread);
        let ((frames, frames_ms), (x11, x11_ms)) =
            tokio::join!(async { (self.frames(ahead).await, since()) }, async {
                (self.display_state().await, since())
            });
        tracing::debug!(frames_ms, x11_ms, ahead, "window listing");
        let (frames, state) = (frames?, x11?);
        let mut windows = join_windows(&frames, &state);
        if state.backend != crate::display::Backend::Wayland
            && state.windows.iter().any(|w| w.relative)
        {
            let origins = self.place(&frames, &state, &windows).await;
            if let Ok(mut slot) = self.origins.lock() {
                *slot = origins;
            }
        }
        if state.backend == crate::display::Backend::Wayland {
            crate::wayland::toplevel::pair_by_app_id(&mut windows, &state, &program_of);
        }
        let unplaced = unplaced_windows(&mut windows, &state);
        if let Ok(mut slot) = self.unplaced.lock() {
            *slot = unplaced;
        }
        Ok(windows)
    }

    /// Where each window with window-relative extents has its (0, 0) on
    /// screen: its rectangle's origin, less the client-side shadow that a
    /// GTK 2/3 frame larger than the rectangle includes (read from the
    /// frame's children; see [`crate::wayland::place`]).
    async fn place(
        &self,
        frames: &[Frame],
        state: &DisplayState,
        windows: &[WindowHandle],
    ) -> HashMap<String, (i64, i64)> {
        use crate::wayland::place;
        let Ok(links) = self.links().await else {
            return HashMap::new();
        };
        let relative = |w: &WindowHandle| {
            let Some(b) = w.info.bounds else {
                return false;
            };
            state
                .windows
                .iter()
                .any(|t| t.relative && t.rect == b && t.pid.map(i64::from) == w.info.pid)
        };
        let placed = windows.iter().filter(|w| relative(w)).map(|w| async move {
            let rect = w.info.bounds?;
            // The display server told the surface's corner (KWin).
            let told = state
                .windows
                .iter()
                .find(|t| t.rect == rect && t.pid.map(i64::from) == w.info.pid)
                .and_then(|t| t.origin);
            let frame = frames.iter().find(|f| f.obj.key() == w.native);
            let extents = frame.and_then(|f| f.extents);
            let mut inset = (0, 0);
            if let (Some(f), Some(e)) = (frame, extents) {
                // GTK 4 frames are the window geometry (its extents are
                // content boxes of the widgets, no shadow): only GTK 2/3
                // frames carry the shadow, and a GTK 4 window's origin is
                // its rectangle's, whatever surface the server tells.
                let peer = &links.to(&f.obj.bus);
                let toolkit = self.toolkit_of(peer, &f.obj.bus).await;
                let gtk4 = crate::raw::is_gtk4(&toolkit.0, &toolkit.1);
                if gtk4 {
                    return Some((w.native.clone(), (rect.x, rect.y)));
                }
                if state.backend == crate::display::Backend::Gnome && place::decorated(&rect, &e) {
                    // GNOME draws no decorations for its clients: Qt
                    // draws its own title bar and borders, around its
                    // frame's extents and inside its surface.
                    let (x, y) = place::decoration_inset(&rect, &e);
                    return Some((w.native.clone(), place::origin(&rect, (-x, -y))));
                }
                if let Some(origin) = told {
                    return Some((w.native.clone(), origin));
                }
                let even = toolkit.0.eq_ignore_ascii_case("chromium");
                let known = self.insets.lock().ok().and_then(|m| {
                    m.get(&w.native)
                        .filter(|(fe, r, _)| *fe == e && *r == rect)
                        .map(|(_, _, inset)| *inset)
                });
                if let Some(known) = known {
                    inset = known;
                } else if place::has_shadow(&rect, Some(&e)) {
                    let kids = tokio::time::timeout(FRAMES_TIMEOUT, calls::children(peer, &f.obj))
                        .await
                        .ok()
                        .and_then(Result::ok)
                        .unwrap_or_default();
                    let coord = calls::coord_type(true);
                    let boxes = futures::future::join_all(kids.iter().map(|k| async move {
                        tokio::time::timeout(FRAMES_TIMEOUT, calls::extents(peer, k, coord))
                            .await
                            .ok()?
                            .ok()
                            .and_then(frame_rect)
                    }))
                    .await;
                    let boxes: Vec<Rect> = boxes.into_iter().flatten().collect();
                    inset = place::inset(&rect, &e, &boxes, even);
                    if let Ok(mut m) = self.insets.lock() {
                        // Closed windows' entries go when it grows.
                        if m.len() > 256 {
                            m.clear();
                        }
                        m.insert(w.native.clone(), (e, rect, inset));
                    }
                }
            } else if let Some(origin) = told {
                return Some((w.native.clone(), origin));
            }
            Some((w.native.clone(), place::origin(&rect, inset)))
        });
        futures::future::join_all(placed)
            .await
            .into_iter()
            .flatten()
            .collect()
    }

    /// The toolkit (name, version) of the app on `bus`, read once and
    /// kept; empty when it does not answer.
    async fn toolkit_of(&self, peer: &Peer, bus: &str) -> (String, String) {
        if let Some(toolkit) = self.facts.toolkit(bus) {
            return toolkit;
        }
        let root = ObjRef::new(bus.to_owned(), "/org/a11y/atspi/accessible/root");
        match tokio::time::timeout(FRAMES_TIMEOUT, calls::toolkit(peer, &root)).await {
            Ok(Ok(toolkit)) => {
                self.facts.put_toolkit(bus, toolkit.clone());
                toolkit
            }
            _ => Default::default(),
        }
    }

    /// The app on `bus` has windows with window-relative extents (a
    /// native Wayland client), as of the last listing.
    fn is_relative_app(&self, bus: &str) -> bool {
        let prefix = format!("{bus}:/");
        self.origins
            .lock()
            .is_ok_and(|o| o.keys().any(|k| k.starts_with(&prefix)))
    }

    /// The on-screen origin of a window's window-relative extents, when
    /// its extents are window-relative (a native Wayland client, placed at
    /// the last listing).
    fn origin_of(&self, native: &str) -> Option<(i64, i64)> {
        self.origins.lock().ok()?.get(native).copied()
    }

    /// Frames whose role, states and name came from the app's cache: only
    /// the extents of those shown are read (GTK 2 and 3: screen ones),
    /// unless they were read along with the cache (`guessed`).
    async fn cached_frames(
        &self,
        peer: &Peer,
        frames: Vec<(ObjRef, AtspiRole, atspi::StateSet, String)>,
        guessed: HashMap<ObjRef, crate::raw::Extents>,
        pid: Option<u32>,
    ) -> Vec<Frame> {
        let guessed = &guessed;
        let shown = frames
            .into_iter()
            .filter(|(_, _, states, _)| capture::is_showing(*states))
            .map(|(obj, role, states, name)| async move {
                let e = match guessed.get(&obj) {
                    Some(e) => *e,
                    None => calls::extents(peer, &obj, calls::coord_type(false))
                        .await
                        .ok()?,
                };
                self.facts.ahead.put_frame(&obj, e);
                Some(Frame {
                    obj,
                    role,
                    name,
                    states,
                    extents: frame_rect(e),
                    pid,
                })
            });
        futures::future::join_all(shown)
            .await
            .into_iter()
            .flatten()
            .collect()
    }

    /// sway's IPC, when the desktop is a native Wayland session (one
    /// client per adapter: it keeps the outputs a moment).
    pub fn sway(&self) -> Option<crate::wayland::sway::SwayIpc> {
        self.sway_ipc
            .get_or_init(|| {
                self.desktop
                    .is_native_wayland()
                    .then(|| self.desktop.swaysock.clone())
                    .flatten()
                    .map(crate::wayland::sway::SwayIpc::new)
            })
            .clone()
    }

    /// The display server's state (X11, or sway's under Wayland). Calls
    /// that overlap one read in progress share it (its first caller
    /// started it, and it is no older than that call); every other call
    /// reads afresh.
    pub async fn display_state(&self) -> Result<DisplayState, AdapterError> {
        use futures::FutureExt;
        let gnome = self.gnome().await.cloned();
        let kwin = self.kwin().await.cloned();
        let toplevels = match self.desktop.is_native_wayland() && self.sway().is_none() {
            // GNOME's monitors come from mutter's DisplayConfig.
            true if gnome.is_some() => None,
            // KWin's outputs come from it too (it lists no toplevels), and
            // the screen's size from them: a compositor that does not
            // answer is an error, not a screen of no size.
            true => Some(self.wayland_toplevels().await?.clone()),
            false => None,
        };
        let (read, first) = {
            let mut slot = self.x11_read.lock().map_err(|_| {
                AdapterError::Platform("X11 reader state poisoned; restart cup".to_owned())
            })?;
            match slot.as_ref() {
                Some(read) => (read.clone(), false),
                None => {
                    let read = if let Some(sway) = self.sway() {
                        async move { Ok(sway.state().await?.display_state()) }
                            .boxed()
                            .shared()
                    } else if let Some(shell) = gnome {
                        gnome_state(shell, Arc::clone(&self.shell_ids))
                            .boxed()
                            .shared()
                    } else if let Some(scripts) = kwin {
                        kwin_state(scripts, toplevels, Arc::clone(&self.shell_ids))
                            .boxed()
                            .shared()
                    } else if let Some(toplevels) = toplevels {
                        let display = self.desktop.display.clone();
                        let reader = self.x11_reader.clone();
                        async move {
                            use crate::wayland::toplevel;
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
                        .boxed()
                        .shared()
                    } else {
                        let display = self.desktop.display.clone();
                        let reader = self.x11_reader.clone();
                        async move { reader.read(display.as_deref()).await }
                            .boxed()
                            .shared()
                    };
                    *slot = Some(read.clone());
                    (read, true)
                }
            }
        };
        let _clear = first.then(|| ClearRead(&self.x11_read));
        let state = read.await?;
        if let Ok(mut m) = self.monitors.lock() {
            m.clone_from(&state.monitors);
        }
        Ok(state)
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
        let monitors = match s.backend {
            // X11 has one scale for the whole screen (Xft.dpi / XSETTINGS).
            crate::display::Backend::X11 => s
                .monitors
                .into_iter()
                .map(|m| Monitor {
                    scale: s.scale,
                    ..m
                })
                .collect(),
            // Each Wayland output has its own.
            crate::display::Backend::Sway
            | crate::display::Backend::KWin
            | crate::display::Backend::Gnome
            | crate::display::Backend::Wayland => s.monitors,
        };
        Ok(ScreenInfo {
            width: s.width,
            height: s.height,
            scale: s.scale,
            monitors,
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
        self.activate_for(target.window).await?;
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
        let png = if self.desktop.is_native_wayland() {
            let pixels = self.pixels(region).await?;
            crate::screenshot::encode_png(&pixels)
                .map_err(|e| AdapterError::Platform(e.to_string()))?
        } else {
            self.grabber()
                .await?
                .png(region)
                .await
                .map_err(|e| match e {
                    crate::screenshot::ShotError::Region { .. } => {
                        AdapterError::Invalid(e.to_string())
                    }
                    e => AdapterError::Platform(e.to_string()),
                })?
        };
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
            return Ok(o.dyn_overlay());
        }
        let made = if self.desktop.is_native_wayland() {
            let socket = self.wayland_socket().map_err(AdapterError::Unavailable)?;
            let o = crate::wayland::overlay::WaylandOverlay::open(&socket)
                .await
                .map_err(|e| match e {
                    crate::wayland::client::WaylandError::Unsupported(m) => {
                        AdapterError::Unsupported(m)
                    }
                    e => AdapterError::Unavailable(e.to_string()),
                })?;
            Drawn::Wayland(Arc::new(o))
        } else {
            let display = self.x11_display().map_err(AdapterError::Unavailable)?;
            let state = self.display_state().await?;
            Drawn::X11(Arc::new(
                crate::overlay::X11Overlay::open(
                    &display,
                    state.scale,
                    crate::overlay::attended(&state.monitors),
                )
                .await?,
            ))
        };
        let o = made.dyn_overlay();
        *slot = Some(made);
        Ok(o)
    }

    async fn screenshot_rgb(
        &self,
        target: &ShotTarget,
    ) -> Result<cup::image::RgbShot, AdapterError> {
        let region = self.shot_region(target).await?;
        let px = self.pixels(region).await?;
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
        if self.desktop.is_native_wayland() {
            return self
                .wayland_input()
                .await?
                .perform(events, gesture, refs)
                .await;
        }
        let input = self.input().await?;
        act::gesture::perform(input, events, gesture, refs).await
    }

    async fn cursor(&self) -> Result<cup::Point, AdapterError> {
        if self.desktop.is_native_wayland() {
            return self.wayland_input().await?.cursor();
        }
        let p = self
            .input()
            .await?
            .cursor_position()
            .await
            .map_err(|e| AdapterError::Platform(e.to_string()))?;
        Ok(cup::Point::new(p.x, p.y))
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
        if let Some(sway) = self.sway() {
            let version = sway
                .version()
                .await
                .unwrap_or_else(|e| format!("(version unknown: {e})"));
            return Some(format!(
                "display: Wayland, driven natively (sway {version}: its IPC, virtual pointer and keyboard, screencopy)"
            ));
        }
        if !self.desktop.is_native_wayland() {
            return None;
        }
        if let Some(shell) = self.gnome().await {
            return Some(match shell.extension().await {
                Ok(v) => format!(
                    "display: Wayland, GNOME Shell {}: windows, places, pids and screenshots from cup's extension; pointer and keys through mutter's RemoteDesktop (ASCII keys; other text through the elements' type action)",
                    v.shell
                ),
                Err(why) => format!(
                    "display: Wayland, GNOME: window places unknown, so elements have no bounds (act through their actions): {why}"
                ),
            });
        }
        if self.kwin().await.is_some() {
            return Some(
                "display: Wayland, KWin (KDE Plasma): windows, places and pids from KWin scripting; pointer, keys and screenshots (ScreenShot2) once `cup setup kde` allowed this cup (US keys; other text through the elements' type action)".to_owned(),
            );
        }
        let lists = match self.wayland_toplevels().await {
            Ok(t) if t.lists() => "its window list from zwlr_foreign_toplevel_manager_v1",
            Ok(_) => "no window list from it (windows from the accessibility bus)",
            Err(e) => return Some(format!("display: Wayland, compositor not reachable: {e}")),
        };
        Some(format!(
            "display: Wayland without sway's IPC ({lists}): the compositor tells no window positions, so native windows' elements have no bounds (act through their actions); XWayland windows keep theirs"
        ))
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

/// The device in `cell`, opened by `open` on first use and kept; an open
/// that failed is kept too (its reason is the error of every later call).
async fn kept<T, F, Fut>(cell: &OnceCell<Result<T, String>>, open: F) -> Result<&T, AdapterError>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    cell.get_or_init(open)
        .await
        .as_ref()
        .map_err(|e| AdapterError::Unavailable(e.clone()))
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

/// KWin and where to report its problems.
const KWIN: (&str, &str) = ("KWin", "your Plasma version");

/// KWin's windows now (one script exchange), on the outputs `toplevels`
/// reads, numbered through `ids`.
async fn kwin_state(
    scripts: crate::wayland::kwin_script::KWinScripts,
    toplevels: Option<crate::wayland::toplevel::Toplevels>,
    ids: Arc<Mutex<HashMap<String, u32>>>,
) -> Result<DisplayState, AdapterError> {
    use crate::wayland::{kwin, reported, toplevel};
    let json = scripts.run(kwin::script).await?;
    tracing::debug!(%json, "kwin windows");
    let windows = reported::windows_of(&json, KWIN)?;
    let outputs = match toplevels {
        Some(t) => t.read().await.map(|(_, o)| o).map_err(|e| {
            AdapterError::Unavailable(format!("KWin's outputs could not be read: {e}"))
        })?,
        None => Vec::new(),
    };
    numbered(&ids, |number| {
        reported::state_of(
            &windows,
            toplevel::monitors_of(&outputs),
            number,
            crate::display::Backend::KWin,
        )
    })
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

/// GNOME Shell and where to report its problems.
const GNOME: (&str, &str) = ("GNOME Shell", "your GNOME version");

/// GNOME's windows now (from cup's extension) on mutter's monitors; when
/// the extension does not answer, no windows and why.
async fn gnome_state(
    shell: crate::wayland::gnome_shell::GnomeShell,
    ids: Arc<Mutex<HashMap<String, u32>>>,
) -> Result<DisplayState, AdapterError> {
    use crate::wayland::reported;
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
    numbered(&ids, |number| {
        reported::state_of(&windows, monitors, number, crate::display::Backend::Gnome)
    })
}

/// The pixels of `region` from cup's GNOME Shell extension (a PNG in
/// layout pixels at scale 1; at other scales in device pixels, brought
/// back to layout ones).
async fn gnome_pixels(
    shell: &crate::wayland::gnome_shell::GnomeShell,
    region: Rect,
) -> Result<crate::screenshot::Pixels, AdapterError> {
    if let Err(why) = shell.extension().await {
        // The desktop portal's screenshot, of the whole screen, cut here.
        return match portal_pixels(shell, region).await {
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
    let png = shell.screenshot(area).await?;
    let (rgb, w, h) = cup::image::rgb_from_png(&png)
        .map_err(|e| AdapterError::Platform(format!("GNOME Shell's screenshot: {e}")))?;
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
    Ok(crate::screenshot::Pixels {
        rgb,
        width,
        height,
        x: region.x,
        y: region.y,
    })
}

/// `region` cut from a screenshot of the whole screen through the
/// desktop portal (the route without cup's extension), in layout pixels.
async fn portal_pixels(
    shell: &crate::wayland::gnome_shell::GnomeShell,
    region: Rect,
) -> Result<crate::screenshot::Pixels, String> {
    let png = crate::wayland::portal_client::screenshot(shell.connection(), PORTAL_CONSENT)
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
    let image = crate::wayland::screencopy::Image {
        width: w as usize,
        height: h as usize,
        rgb,
    };
    // The portal's picture may be in device pixels: back to layout ones.
    let screen = crate::wayland::screencopy::resample(
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
    Ok(crate::screenshot::Pixels {
        rgb,
        width: r.w as u32,
        height: r.h as u32,
        x: r.x,
        y: r.y,
    })
}

/// Activates the GNOME window of `window` (by title, and place when
/// several share it) through cup's extension, unless it is active
/// already. Without the extension nothing is activated (actions through
/// AT-SPI need no focus; input goes where GNOME's focus is).
async fn activate_gnome(
    shell: &crate::wayland::gnome_shell::GnomeShell,
    window: &cup_protocol::Node,
) -> Result<(), AdapterError> {
    use crate::wayland::reported;
    if shell.extension().await.is_err() {
        return Ok(());
    }
    let windows = reported::windows_of(&shell.windows().await?, GNOME)?;
    match reported::choose(&windows, &window.name, window.bounds) {
        Some(w) if !w.active => shell.activate(&w.id).await.map(|_| ()),
        _ => Ok(()),
    }
}

/// The program a process runs: its first argument's file name (`gtk3-widget-factory`), else its `comm`.
fn program_of(pid: u32) -> Option<String> {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let first = cmdline.split(|b| *b == 0).next().unwrap_or_default();
    let name = std::path::Path::new(std::ffi::OsStr::from_bytes(first))
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty());
    name.or_else(|| {
        std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .ok()
            .map(|c| c.trim().to_owned())
    })
}

/// Takes the bounds off the windows whose place on the screen is unknown
/// and says why, by native handle: under sway a frame it does not list (a
/// popup); under a compositor that tells no positions every window but
/// the X11 ones (XWayland) it shares a rectangle with. Their toolkits'
/// extents are window-relative: presented as screen bounds they would
/// send clicks to the wrong place.
fn unplaced_windows(windows: &mut [WindowHandle], state: &DisplayState) -> HashMap<String, String> {
    use crate::display::Backend;
    let why = match state.backend {
        Backend::X11 => return HashMap::new(),
        Backend::Sway => "a surface sway does not list, such as a popup or menu",
        Backend::KWin => "a surface KWin's scripts do not list, such as a popup or menu",
        Backend::Gnome => state
            .unplaced
            .as_deref()
            .unwrap_or("a surface GNOME Shell does not list, such as a popup or menu"),
        Backend::Wayland => {
            "this Wayland compositor does not tell where windows are; toolkits report positions relative to their window"
        }
    };
    let mut unplaced = HashMap::new();
    for w in windows.iter_mut() {
        if w.info.bounds.is_some_and(|b| b.w == 0 || b.h == 0) {
            // A window the compositor lists without a place.
            w.info.bounds = None;
        }
        let placed = w.info.bounds.is_some_and(|b| {
            state.windows.iter().any(|t| {
                t.rect == b && (state.backend != Backend::Wayland || !t.relative) && b.w > 0
            })
        });
        if !placed && !Backend::is_window_handle(&w.native) {
            w.info.bounds = None;
            unplaced.insert(w.native.clone(), why.to_owned());
        }
    }
    unplaced
}

/// The overlay the visual layer draws on: X11 windows or the Wayland
/// compositor's layer surfaces.
#[derive(Debug)]
enum Drawn {
    X11(Arc<crate::overlay::X11Overlay>),
    Wayland(Arc<crate::wayland::overlay::WaylandOverlay>),
}

impl Drawn {
    fn is_broken(&self) -> bool {
        match self {
            Drawn::X11(o) => o.is_broken(),
            Drawn::Wayland(o) => o.is_broken(),
        }
    }

    fn dyn_overlay(&self) -> Arc<dyn cup::visual::Overlay> {
        match self {
            Drawn::X11(o) => o.clone(),
            Drawn::Wayland(o) => o.clone(),
        }
    }
}

/// A frame's screen rectangle from its extents (none when empty).
fn frame_rect(e: crate::raw::Extents) -> Option<Rect> {
    (e.w > 0 && e.h > 0).then(|| {
        Rect::new(
            i64::from(e.x),
            i64::from(e.y),
            e.w.unsigned_abs().into(),
            e.h.unsigned_abs().into(),
        )
    })
}
