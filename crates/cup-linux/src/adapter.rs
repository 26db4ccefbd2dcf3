//! [`LinuxAdapter`]: the [`cup::Adapter`] for Linux desktops.
//!
//! Windows are the AT-SPI frames of registered applications joined with the
//! X11 top-level windows (EWMH, or the root's children without a window
//! manager) by pid, then title, then overlap. The foreground window is the
//! X11 active window; without one (no window manager), the frame in the
//! ACTIVE state, else the top-most visible window.

use std::collections::{HashMap, HashSet};
#[cfg(feature = "wayland")]
use std::os::unix::ffi::OsStrExt as _;
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
use crate::atspi_calls::{self as calls, ObjRef};
use crate::capture::FRAMES_TIMEOUT;
use crate::capture::{self, AppFacts, Target as CaptureTarget};
use crate::display::DisplayState;
use crate::env::Desktop;
use crate::frames::join_windows;
pub use crate::frames::Frame;
use crate::mapping::MapContext;
use crate::peers::{Links, Peer};
use cup_linux_display::backend::{Checked, DisplayBackend, Drawn};
use cup_protocol::keys::Combo;

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

    /// Every showing top-level frame of every registered application.
    /// Applications that do not answer within `FRAMES_TIMEOUT` are
    /// remembered as unresponsive (see [`LinuxAdapter::unresponsive`]).
    ///
    /// The registry's list takes the longest of these calls (about 2 ms:
    /// through the bus daemon to the registry and back), so the apps of the
    /// last listing are asked for their frames while it comes; an app no
    /// longer listed is then left out, and a new one asked after. The
    /// result is the registry's list of now either way.
    ///
    /// With `ahead` (a capture follows), the apps the last capture read are
    /// asked for their whole structure instead (see `capture::ReadAhead`).
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
                .is_some_and(|(name, version)| crate::facts::is_gtk_before_4(name, version));
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
            let guessed: HashMap<ObjRef, crate::facts::Extents> = guesses
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
        if state.places_relative_windows() {
            let origins = self.place(&frames, &state, &windows).await;
            if let Ok(mut slot) = self.origins.lock() {
                *slot = origins;
            }
        }
        #[cfg(feature = "wayland")]
        if state.pairs_by_app_id() {
            cup_wayland::pair_by_app_id(&mut windows, &state, &program_of);
        }
        let unplaced = state.unplace(&mut windows);
        if let Ok(mut slot) = self.unplaced.lock() {
            *slot = unplaced;
        }
        Ok(windows)
    }

    /// Where each window with window-relative extents has its (0, 0) on
    /// screen: its rectangle's origin, less the client-side shadow that a
    /// GTK 2/3 frame larger than the rectangle includes (read from the
    /// frame's children; see [`crate::place`]).
    async fn place(
        &self,
        frames: &[Frame],
        state: &DisplayState,
        windows: &[WindowHandle],
    ) -> HashMap<String, (i64, i64)> {
        use crate::place;
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
                let gtk4 = crate::facts::is_gtk4(&toolkit.0, &toolkit.1);
                if gtk4 {
                    return Some((w.native.clone(), (rect.x, rect.y)));
                }
                if state.clients_decorate() && place::decorated(&rect, &e) {
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
        guessed: HashMap<ObjRef, crate::facts::Extents>,
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

    /// The display server's state. Calls that overlap one read in
    /// progress share it (its first caller started it, and it is no older
    /// than that call); every other call reads afresh.
    pub async fn display_state(&self) -> Result<DisplayState, AdapterError> {
        use futures::FutureExt;
        let fresh = self.backend().await.reader().await?;
        let (read, first) = {
            let mut slot = self.x11_read.lock().map_err(|_| {
                AdapterError::Platform("X11 reader state poisoned; restart cup".to_owned())
            })?;
            match slot.as_ref() {
                Some(read) => (read.clone(), false),
                None => {
                    let read = fresh.shared();
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

#[cfg(feature = "wayland")]
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

/// A frame's screen rectangle from its extents (none when empty).
fn frame_rect(e: crate::facts::Extents) -> Option<Rect> {
    (e.w > 0 && e.h > 0).then(|| {
        Rect::new(
            i64::from(e.x),
            i64::from(e.y),
            e.w.unsigned_abs().into(),
            e.h.unsigned_abs().into(),
        )
    })
}
