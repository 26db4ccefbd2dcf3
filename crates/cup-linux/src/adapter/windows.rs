//! The adapter's window list: every application's top-level frames over
//! AT-SPI (asked concurrently, each under `FRAMES_TIMEOUT`), joined with
//! the display backend's windows and places (one state read shared by the
//! callers that overlap it).

use std::collections::{HashMap, HashSet};
#[cfg(feature = "wayland")]
use std::os::unix::ffi::OsStrExt as _;
use std::sync::Mutex;

use atspi::Role as AtspiRole;
use cup::{AdapterError, WindowHandle};
use cup_protocol::Rect;

use super::LinuxAdapter;
use crate::atspi_calls::{self as calls, ObjRef};
use crate::capture::{self, FRAMES_TIMEOUT};
use crate::display::DisplayState;
use crate::frames::{join_windows, Frame};
use crate::peers::{Links, Peer};

/// What one application's frame listing found.
struct AppFrames {
    frames: Vec<Frame>,
    /// Its pid, when it did not answer in time.
    hung: Option<u32>,
}

/// One X11 state read, shared by the callers that overlap it.
pub(super) type X11Read = futures::future::Shared<
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
    pub(super) async fn list_windows(
        &self,
        ahead: bool,
    ) -> Result<Vec<WindowHandle>, AdapterError> {
        let began = std::time::Instant::now();
        let since = || began.elapsed().as_secs_f64() * 1e3;
        let one_thread = ahead
            && self
                .facts
                .ahead
                .captured_all(|bus| self.facts.busy_poll_helps(bus));
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
    pub(super) fn is_relative_app(&self, bus: &str) -> bool {
        let prefix = format!("{bus}:/");
        self.origins
            .lock()
            .is_ok_and(|o| o.keys().any(|k| k.starts_with(&prefix)))
    }

    /// The popup windows mapped now, when one of `windows` is a GTK 2
    /// app's (the capture tells its closed menus by them: see
    /// `capture::Target::popups`) and the X display (or XWayland) answers;
    /// read fresh, since an action may have opened or closed a menu since
    /// the listing.
    /// The toolkit of an app not known yet is read here (and kept: the
    /// capture would read it first thing).
    pub(super) async fn popups_for(
        &self,
        links: &Links,
        windows: &[WindowHandle],
    ) -> Option<Vec<crate::display::Popup>> {
        let buses: HashSet<String> = windows
            .iter()
            .filter_map(|w| ObjRef::from_key(&w.native).map(|f| f.bus))
            .collect();
        let toolkits = futures::future::join_all(
            buses
                .iter()
                .map(|bus| async move { self.toolkit_of(&links.to(bus), bus).await }),
        )
        .await;
        let gtk2 = toolkits
            .iter()
            .any(|(name, version)| crate::facts::is_gtk2(name, version));
        if !gtk2 {
            return None;
        }
        // X11's, or XWayland's under a Wayland compositor (GTK 2 has no
        // Wayland backend): the same X display either way.
        let popups = self
            .x11_reader
            .popups(self.desktop.display.as_deref())
            .await;
        tracing::debug!(?popups, "popup windows");
        popups
    }

    /// The on-screen origin of a window's window-relative extents, when
    /// its extents are window-relative (a native Wayland client, placed at
    /// the last listing).
    pub(super) fn origin_of(&self, native: &str) -> Option<(i64, i64)> {
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
