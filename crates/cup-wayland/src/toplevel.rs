//! The windows of a Wayland compositor without sway's IPC, through
//! `zwlr_foreign_toplevel_manager_v1` (wlroots compositors: river, labwc,
//! Wayfire, Hyprland; sway offers it too): each top-level window's title,
//! app id and state (activated, minimized), and activation. The protocol
//! gives no position and no pid, so such windows cannot be placed on the
//! screen: their elements get no bounds (see [`state_of`]).
//!
//! One long-lived connection holds the toplevel handles (activation needs
//! them); every read is a round trip under the connection's deadline.

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use cup::Monitor;
use cup_protocol::Rect;
use wayland_client::protocol::wl_seat;
use wayland_client::{event_created_child, Connection, Dispatch, Proxy, QueueHandle};
use wayland_protocols_wlr::foreign_toplevel::v1::client::{
    zwlr_foreign_toplevel_handle_v1 as handle, zwlr_foreign_toplevel_manager_v1 as manager,
};

use super::client::{unsupported, Client, Globals, Output, State, WaylandError};
use super::vinput::blocking;
use crate::display::{Backend, DisplayState, TopWindow};

/// What the compositor told of one top-level window.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Toplevel {
    /// cup's number for it (in announcement order, never reused).
    pub id: u32,
    /// Its title.
    pub title: String,
    /// Its app id (the Wayland `app_id`, often the desktop file's name).
    pub app_id: String,
    /// It has the keyboard focus.
    pub activated: bool,
    /// It is minimized (not on the screen).
    pub minimized: bool,
}

/// The monitors of `outputs`, in layout (logical) pixels; the first is
/// primary.
pub fn monitors_of(outputs: &[Output]) -> Vec<Monitor> {
    outputs
        .iter()
        .enumerate()
        .map(|(i, o)| Monitor {
            name: o.name.clone(),
            rect: Rect::new(
                i64::from(o.x),
                i64::from(o.y),
                u64::try_from(o.width).unwrap_or(0),
                u64::try_from(o.height).unwrap_or(0),
            ),
            primary: i == 0,
            scale: f64::from(o.scale.max(1)),
        })
        .collect()
}

/// The display facts of a compositor that tells no window positions:
/// `monitors` make the screen, `toplevels` (those not minimized) the
/// windows, without rectangles (empty ones) and marked window-relative;
/// the activated one is the active window.
pub fn state_of(toplevels: &[Toplevel], monitors: Vec<Monitor>) -> DisplayState {
    let width = monitors.iter().map(|m| m.rect.right()).max().unwrap_or(0);
    let height = monitors.iter().map(|m| m.rect.bottom()).max().unwrap_or(0);
    let scale = monitors.iter().map(|m| m.scale).fold(1.0_f64, f64::max);
    let shown: Vec<&Toplevel> = toplevels.iter().filter(|t| !t.minimized).collect();
    // No stacking order is told: the active window is taken as the top.
    let mut windows: Vec<TopWindow> = shown
        .iter()
        .filter(|t| !t.activated)
        .chain(shown.iter().filter(|t| t.activated))
        .map(|t| TopWindow {
            id: t.id,
            title: t.title.clone(),
            pid: None,
            rect: Rect::new(0, 0, 0, 0),
            relative: true,
            app_id: t.app_id.clone(),
            origin: None,
        })
        .collect();
    windows.dedup_by_key(|w| w.id);
    DisplayState {
        width,
        height,
        scale,
        monitors,
        active: shown.iter().find(|t| t.activated).map(|t| t.id),
        windows,
        managed: true,
        backend: Backend::Wayland,
        unplaced: None,
    }
}

/// `state` with the X11 windows of XWayland (`x11`, placed by their X11
/// rectangles) below its own; a toplevel with the title of one of them is
/// that window (the compositor lists XWayland windows too) and goes.
pub fn with_xwayland(mut state: DisplayState, x11: &[TopWindow]) -> DisplayState {
    if x11.is_empty() {
        return state;
    }
    state.windows.retain(|t| {
        !x11.iter()
            .any(|x| !x.title.is_empty() && x.title == t.title)
    });
    let mut windows: Vec<TopWindow> = x11
        .iter()
        .map(|x| TopWindow {
            relative: false,
            ..x.clone()
        })
        .collect();
    windows.append(&mut state.windows);
    state.windows = windows;
    state
}

/// Pairs the windows the compositor lists but no accessibility frame
/// matched (handles `wayland:N`: no pid and no title to match by) with
/// the untitled frames no window matched (GTK 3 leaves its frame's name
/// empty under Wayland): the frame whose program (`program_of` its pid)
/// is the window's app id becomes that window, with its title and its
/// foreground flag; the window's own handle goes. Ambiguous pairs (two
/// frames of the same program) are left alone.
pub fn pair_by_app_id(
    windows: &mut Vec<cup::WindowHandle>,
    state: &DisplayState,
    program_of: &dyn Fn(u32) -> Option<String>,
) {
    let prefix = format!("{}:", Backend::Wayland.prefix());
    let mut gone = Vec::new();
    for k in 0..windows.len() {
        let Some(id) = windows[k]
            .native
            .strip_prefix(&prefix)
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Some(top) = state.windows.iter().find(|t| t.id == id) else {
            continue;
        };
        if top.app_id.is_empty() {
            continue;
        }
        let wanted = top.app_id.to_ascii_lowercase();
        let candidates: Vec<usize> = (0..windows.len())
            .filter(|&i| {
                let w = &windows[i];
                !Backend::is_window_handle(&w.native)
                    && w.info.title.is_empty()
                    && w.info
                        .pid
                        .and_then(|p| u32::try_from(p).ok())
                        .and_then(program_of)
                        .is_some_and(|p| p.to_ascii_lowercase() == wanted)
            })
            .collect();
        if let [i] = candidates[..] {
            let (title, foreground) = (windows[k].info.title.clone(), windows[k].info.foreground);
            let frame = &mut windows[i];
            frame.info.title = title;
            frame.info.foreground |= foreground;
            gone.push(k);
        }
    }
    for k in gone.into_iter().rev() {
        windows.remove(k);
    }
}

/// The toplevels of one compositor over a long-lived connection.
#[derive(Debug, Clone)]
pub struct Toplevels {
    inner: Arc<Mutex<Lister>>,
}

impl Toplevels {
    /// Connects to the compositor at `socket` (each wait bounded by
    /// `timeout`) and reads its toplevels once. A compositor without the
    /// foreign-toplevel protocol lists none ([`Toplevels::lists`] says
    /// so); its outputs are still read.
    pub async fn open(socket: &Path, timeout: Duration) -> Result<Toplevels, WaylandError> {
        let socket = socket.to_path_buf();
        let lister = blocking(move || Lister::open(&socket, timeout)).await?;
        Ok(Toplevels {
            inner: Arc::new(Mutex::new(lister)),
        })
    }

    /// The toplevels and outputs now (after a round trip).
    pub async fn read(&self) -> Result<(Vec<Toplevel>, Vec<Output>), WaylandError> {
        let inner = Arc::clone(&self.inner);
        blocking(move || {
            let mut l = inner.lock().unwrap_or_else(PoisonError::into_inner);
            l.client.roundtrip("listing the windows")?;
            Ok((l.toplevels(), l.client.outputs()))
        })
        .await
    }

    /// Asks the compositor to activate (focus and raise) toplevel `id`.
    pub async fn activate(&self, id: u32) -> Result<(), WaylandError> {
        let inner = Arc::clone(&self.inner);
        blocking(move || {
            let mut l = inner.lock().unwrap_or_else(PoisonError::into_inner);
            if l.manager.is_none() {
                return Err(unsupported(
                    "activating a window: zwlr_foreign_toplevel_manager_v1",
                    l.client.globals(),
                ));
            }
            let Some(h) = l.handle(id) else {
                return Err(WaylandError::Invalid(format!(
                    "window {id} is gone (it was closed): snapshot again"
                )));
            };
            h.activate(&l.seat);
            l.client.roundtrip("activating a window")
        })
        .await
    }

    /// Whether the compositor lists its windows
    /// (`zwlr_foreign_toplevel_manager_v1`).
    pub fn lists(&self) -> bool {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .manager
            .is_some()
    }

    /// The globals the compositor offers.
    pub fn globals(&self) -> Globals {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .client
            .globals()
            .clone()
    }
}

/// What the handles told so far, shared with their event handlers.
#[derive(Debug, Default)]
struct Listed {
    next: u32,
    handles: Vec<(
        u32,
        handle::ZwlrForeignToplevelHandleV1,
        Arc<Mutex<Pending>>,
    )>,
}

/// One handle's facts: those of its last `done`, and those since.
#[derive(Debug, Default)]
struct Pending {
    done: Option<Toplevel>,
    next: Toplevel,
    closed: bool,
}

/// The blocking side of [`Toplevels`].
#[derive(Debug)]
struct Lister {
    client: Client,
    manager: Option<manager::ZwlrForeignToplevelManagerV1>,
    seat: wl_seat::WlSeat,
    listed: Arc<Mutex<Listed>>,
}

impl Lister {
    fn open(socket: &Path, timeout: Duration) -> Result<Lister, WaylandError> {
        let client = Client::connect(socket, timeout)?;
        let interface = manager::ZwlrForeignToplevelManagerV1::interface().name;
        let listed = Arc::new(Mutex::new(Listed::default()));
        let manager = client
            .globals()
            .list
            .iter()
            .find(|g| g.interface == interface)
            .map(|g| {
                client
                    .registry()
                    .bind::<manager::ZwlrForeignToplevelManagerV1, _, State>(
                        g.name,
                        g.version.min(3),
                        client.qh(),
                        Arc::clone(&listed),
                    )
            });
        let seat: wl_seat::WlSeat = client.bind(1)?;
        let mut lister = Lister {
            client,
            manager,
            seat,
            listed,
        };
        // The toplevels, then their facts.
        lister.client.roundtrip("listing the windows")?;
        lister.client.roundtrip("reading the windows")?;
        Ok(lister)
    }

    fn toplevels(&self) -> Vec<Toplevel> {
        let mut listed = self.listed.lock().unwrap_or_else(PoisonError::into_inner);
        listed.handles.retain(|(_, h, p)| {
            let closed = p.lock().unwrap_or_else(PoisonError::into_inner).closed;
            if closed {
                h.destroy();
            }
            !closed
        });
        listed
            .handles
            .iter()
            .filter_map(|(_, _, p)| {
                p.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .done
                    .clone()
            })
            .collect()
    }

    fn handle(&self, id: u32) -> Option<handle::ZwlrForeignToplevelHandleV1> {
        self.listed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .handles
            .iter()
            .find(|(i, _, p)| *i == id && !p.lock().unwrap_or_else(PoisonError::into_inner).closed)
            .map(|(_, h, _)| h.clone())
    }
}

/// The states of a `state` event: native-endian 32-bit values.
pub fn states_of(bytes: &[u8]) -> (bool, bool) {
    let values: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let has = |s: handle::State| values.contains(&(s as u32));
    (has(handle::State::Activated), has(handle::State::Minimized))
}

impl Dispatch<manager::ZwlrForeignToplevelManagerV1, Arc<Mutex<Listed>>> for State {
    fn event(
        _: &mut Self,
        _: &manager::ZwlrForeignToplevelManagerV1,
        event: manager::Event,
        listed: &Arc<Mutex<Listed>>,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let manager::Event::Toplevel { toplevel } = event {
            let Some(pending) = toplevel.data::<Arc<Mutex<Pending>>>().cloned() else {
                return;
            };
            let mut l = listed.lock().unwrap_or_else(PoisonError::into_inner);
            l.next += 1;
            let id = l.next;
            pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .next
                .id = id;
            l.handles.push((id, toplevel, pending));
        }
    }

    event_created_child!(State, manager::ZwlrForeignToplevelManagerV1, [
        manager::EVT_TOPLEVEL_OPCODE => (handle::ZwlrForeignToplevelHandleV1, Arc::new(Mutex::new(Pending::default()))),
    ]);
}

impl Dispatch<handle::ZwlrForeignToplevelHandleV1, Arc<Mutex<Pending>>> for State {
    fn event(
        _: &mut Self,
        _: &handle::ZwlrForeignToplevelHandleV1,
        event: handle::Event,
        pending: &Arc<Mutex<Pending>>,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let mut p = pending.lock().unwrap_or_else(PoisonError::into_inner);
        match event {
            handle::Event::Title { title } => p.next.title = title,
            handle::Event::AppId { app_id } => p.next.app_id = app_id,
            handle::Event::State { state } => {
                (p.next.activated, p.next.minimized) = states_of(&state);
            }
            handle::Event::Done => p.done = Some(p.next.clone()),
            handle::Event::Closed => p.closed = true,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toplevel(id: u32, title: &str, activated: bool, minimized: bool) -> Toplevel {
        Toplevel {
            id,
            title: title.into(),
            app_id: format!("app.{id}"),
            activated,
            minimized,
        }
    }

    #[test]
    fn states_are_read_from_the_array() {
        let bytes: Vec<u8> = [2u32, 0].iter().flat_map(|v| v.to_ne_bytes()).collect();
        assert_eq!(states_of(&bytes), (true, false));
        let bytes: Vec<u8> = 1u32.to_ne_bytes().to_vec();
        assert_eq!(states_of(&bytes), (false, true));
        assert_eq!(states_of(&[]), (false, false));
        // A torn value is ignored.
        assert_eq!(states_of(&[2, 0, 0]), (false, false));
    }

    #[test]
    fn an_untitled_frame_is_paired_by_its_program() {
        let toplevels = [
            toplevel(1, "Widget Factory", true, false),
            toplevel(2, "Calculator", false, false),
        ];
        let mut state = state_of(&toplevels, Vec::new());
        state.windows[1].app_id = "gtk3-widget-factory".into();
        let handle = |title: &str, pid: Option<i64>, native: &str, fg: bool| cup::WindowHandle {
            info: cup_protocol::WindowInfo {
                title: title.into(),
                pid,
                foreground: fg,
                ..cup_protocol::WindowInfo::default()
            },
            native: native.into(),
        };
        let mut windows = vec![
            handle("Calculator", Some(7), ":1.5:/a/2", false),
            handle("Widget Factory", None, "wayland:1", true),
            handle("", Some(9), ":1.3:/a/1", false),
        ];
        let program = |pid: u32| (pid == 9).then(|| "gtk3-widget-factory".to_owned());
        pair_by_app_id(&mut windows, &state, &program);
        let got: Vec<(&str, &str, bool)> = windows
            .iter()
            .map(|w| (w.info.title.as_str(), w.native.as_str(), w.info.foreground))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Calculator", ":1.5:/a/2", false),
                ("Widget Factory", ":1.3:/a/1", true)
            ]
        );
        // Two frames of the program: left alone.
        let mut twice = vec![
            handle("Widget Factory", None, "wayland:1", true),
            handle("", Some(9), ":1.3:/a/1", false),
            handle("", Some(9), ":1.3:/a/7", false),
        ];
        pair_by_app_id(&mut twice, &state, &program);
        assert_eq!(twice.len(), 3);
    }

    #[test]
    fn xwayland_windows_keep_their_places() {
        let toplevels = [
            toplevel(1, "Editor", true, false),
            toplevel(2, "xterm", false, false),
        ];
        let x11 = [TopWindow {
            id: 4_194_307,
            title: "xterm".into(),
            pid: Some(77),
            rect: Rect::new(10, 20, 300, 200),
            relative: false,
            app_id: String::new(),
            origin: None,
        }];
        let s = with_xwayland(state_of(&toplevels, Vec::new()), &x11);
        let got: Vec<(&str, bool, u64)> = s
            .windows
            .iter()
            .map(|w| (w.title.as_str(), w.relative, w.rect.w))
            .collect();
        assert_eq!(got, vec![("xterm", false, 300), ("Editor", true, 0)]);
        assert_eq!(s.active, Some(1));
    }

    #[test]
    fn windows_without_places_and_the_active_one_on_top() {
        let toplevels = [
            toplevel(1, "Editor", true, false),
            toplevel(2, "Terminal", false, false),
            toplevel(3, "Hidden", false, true),
        ];
        let s = state_of(&toplevels, Vec::new());
        let titles: Vec<&str> = s.windows.iter().map(|w| w.title.as_str()).collect();
        assert_eq!(titles, vec!["Terminal", "Editor"]);
        assert_eq!(s.active, Some(1));
        assert!(s
            .windows
            .iter()
            .all(|w| w.relative && w.rect.w == 0 && w.pid.is_none()));
        assert_eq!(s.backend, Backend::Wayland);
        assert_eq!((s.width, s.height), (0, 0));
        assert!(s.monitors.is_empty());
        let monitors = vec![
            Monitor {
                name: "A".into(),
                rect: Rect::new(0, 0, 1280, 800),
                primary: true,
                scale: 1.0,
            },
            Monitor {
                name: "B".into(),
                rect: Rect::new(1280, 0, 1280, 800),
                primary: false,
                scale: 2.0,
            },
        ];
        let s = state_of(&toplevels, monitors);
        assert_eq!((s.width, s.height, s.scale), (2560, 800, 2.0));
    }
}
