//! X11 state: monitors (RandR), scale (XSETTINGS), top-level windows
//! (EWMH `_NET_CLIENT_LIST_STACKING`, or the root's mapped children when no
//! window manager runs), their titles, pids and screen rectangles, and the
//! active window.
//!
//! x11rb calls block; [`read_state`] runs them on a blocking thread under a
//! deadline, so a hung X server cannot hang the process.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cup::{AdapterError, Monitor};

use crate::display::{Backend, DisplayState, Popup, TopWindow};
use cup_protocol::Rect;
use x11rb::connection::{Connection, RequestConnection as _};
use x11rb::protocol::randr::ConnectionExt as _;
use x11rb::protocol::res::{ClientIdMask, ClientIdSpec, ConnectionExt as _};
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, MapState, Window, WindowClass};
use x11rb::rust_connection::RustConnection;

/// Deadline of one [`read_state`].
pub const X11_TIMEOUT: Duration = Duration::from_secs(2);
/// Deadline of one [`X11Reader::popups`]: a snapshot waits on it, and
/// without the answer it reads menus as it would without X11.
pub const POPUPS_TIMEOUT: Duration = Duration::from_millis(250);

fn unavailable(msg: impl Into<String>) -> AdapterError {
    AdapterError::Unavailable(msg.into())
}

/// Reads the X11 state of `display` under `X11_TIMEOUT` (2 s), over a
/// connection of its own.
pub async fn read_state(display: Option<&str>) -> Result<DisplayState, AdapterError> {
    X11Reader::default().read(display).await
}

/// Reads the X11 state over one connection kept from read to read: the
/// connection's setup, the RandR version query and the atoms are paid
/// once, so a read is two round trips (the lists, then each window). A
/// connection that failed is dropped and the read retried once on a new
/// one (the X server restarted); one that missed the deadline is dropped.
#[derive(Debug, Default)]
pub struct X11Reader {
    link: Mutex<Option<Arc<Link>>>,
}

#[async_trait::async_trait]
impl cup_linux_display::backend::XWindows for X11Reader {
    async fn read(&self, display: Option<&str>) -> Result<DisplayState, AdapterError> {
        X11Reader::read(self, display).await
    }
}

impl X11Reader {
    /// The kept connection, when it is to `display`.
    fn kept_for(&self, display: &str) -> Option<Arc<Link>> {
        self.link
            .lock()
            .ok()
            .and_then(|l| l.clone())
            .filter(|l| l.display == display)
    }

    /// The state of `display` now.
    pub async fn read(&self, display: Option<&str>) -> Result<DisplayState, AdapterError> {
        let Some(display) = display.map(str::to_owned) else {
            return Err(unavailable(
                "no X11 display (DISPLAY is unset); run inside an X11 session or start one with `cup sandbox start`",
            ));
        };
        let kept = self.kept_for(&display);
        let task = tokio::task::spawn_blocking(move || {
            if let Some(link) = kept {
                match read_state_blocking(&link) {
                    Ok(state) => return Ok((state, link)),
                    Err(e) => tracing::debug!(error = %e, "X11 connection lost; reconnecting"),
                }
            }
            let link = Arc::new(Link::connect(&display)?);
            read_state_blocking(&link).map(|state| (state, link))
        });
        let outcome = match tokio::time::timeout(X11_TIMEOUT, task).await {
            Ok(Ok(result)) => result,
            Ok(Err(e)) => Err(unavailable(format!("X11 reader failed: {e}"))),
            Err(_) => Err(unavailable("the X server did not answer within 2 s")),
        };
        if let Ok(mut slot) = self.link.lock() {
            *slot = outcome.as_ref().ok().map(|(_, link)| link.clone());
        }
        outcome.map(|(state, _)| state)
    }

    /// The override-redirect windows mapped now on X display `display`
    /// (the menus a toolkit has open: also XWayland's, under a Wayland
    /// compositor), over the kept connection (opened and kept when there
    /// is none for `display`), in two round trips under 250 ms; `None`
    /// without a display or an answer in time.
    pub async fn popups(&self, display: Option<&str>) -> Option<Vec<Popup>> {
        let display = display?.to_owned();
        let kept = self.kept_for(&display);
        let task = tokio::task::spawn_blocking(move || {
            let link = match kept {
                Some(link) => link,
                None => Arc::new(Link::connect(&display)?),
            };
            popups_blocking(&link).map(|popups| (popups, link))
        });
        match tokio::time::timeout(POPUPS_TIMEOUT, task).await {
            Ok(Ok(Ok((popups, link)))) => {
                if let Ok(mut slot) = self.link.lock() {
                    if slot.is_none() {
                        *slot = Some(link);
                    }
                }
                Some(popups)
            }
            Ok(Ok(Err(e))) => {
                tracing::debug!(error = %e, "X11 popups not read");
                None
            }
            _ => None,
        }
    }
}

/// The root's viewable override-redirect children, with their places and
/// pids: the root's children in one round trip, then what each is in
/// another.
fn popups_blocking(link: &Link) -> X11Result<Vec<Popup>> {
    let conn = &link.conn;
    let root = conn
        .setup()
        .roots
        .get(link.screen_num)
        .ok_or_else(|| x11_err("no screen"))?
        .root;
    let children = conn
        .query_tree(root)
        .map_err(x11_err)?
        .reply()
        .map_err(x11_err)?
        .children;
    let asked: Vec<_> = children
        .iter()
        .map(|&id| {
            (
                conn.get_window_attributes(id).ok(),
                conn.get_geometry(id).ok(),
                conn.get_property(false, id, link.atoms.net_wm_pid, AtomEnum::CARDINAL, 0, 1)
                    .ok(),
            )
        })
        .collect();
    Ok(asked
        .into_iter()
        .filter_map(|(attributes, geometry, pid)| {
            // Every reply is read, so none is left behind on the connection.
            let (attrs, geom, pid) = (reply(attributes), reply(geometry), reply(pid));
            let (attrs, geom) = (attrs?, geom?);
            let popup = attrs.override_redirect
                && attrs.map_state == MapState::VIEWABLE
                && attrs.class != WindowClass::INPUT_ONLY;
            popup.then(|| Popup {
                rect: Rect::new(
                    i64::from(geom.x),
                    i64::from(geom.y),
                    u64::from(geom.width),
                    u64::from(geom.height),
                ),
                pid: pid.and_then(|r| r.value32().and_then(|mut v| v.next())),
            })
        })
        .collect())
}

/// An open X11 connection and what it learnt once.
struct Link {
    display: String,
    conn: RustConnection,
    screen_num: usize,
    atoms: Atoms,
    /// Monitor names by atom (an atom's name never changes on a server).
    names: Mutex<HashMap<u32, String>>,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("screen_num", &self.screen_num)
            .finish_non_exhaustive()
    }
}

impl Link {
    fn connect(display: &str) -> X11Result<Link> {
        let (conn, screen_num) = crate::xauth::connect(display).map_err(|e| {
            unavailable(format!(
                "cannot open the X11 display {display}: {e}; check DISPLAY and that the X server runs"
            ))
        })?;
        // The RandR query x11rb makes before the first RandR request goes
        // out with the atoms: one round trip for both.
        conn.prefetch_extension_information(x11rb::protocol::randr::X11_EXTENSION_NAME)
            .map_err(x11_err)?;
        let atoms = Atoms::intern(&conn, screen_num)?;
        tracing::debug!("X11 connection opened");
        Ok(Link {
            display: display.to_owned(),
            conn,
            screen_num,
            atoms,
            names: Mutex::new(HashMap::new()),
        })
    }
}

type X11Result<T> = Result<T, AdapterError>;

fn x11_err(e: impl std::fmt::Display) -> AdapterError {
    AdapterError::Platform(format!("X11: {e}"))
}

/// The atoms a read needs, interned in one round trip.
struct Atoms {
    net_client_list_stacking: u32,
    net_client_list: u32,
    net_active_window: u32,
    net_wm_name: u32,
    net_wm_pid: u32,
    utf8_string: u32,
    xsettings_selection: u32,
    xsettings_settings: u32,
}

impl Atoms {
    fn intern(conn: &RustConnection, screen_num: usize) -> X11Result<Atoms> {
        let selection = format!("_XSETTINGS_S{screen_num}");
        let names: [&str; 8] = [
            "_NET_CLIENT_LIST_STACKING",
            "_NET_CLIENT_LIST",
            "_NET_ACTIVE_WINDOW",
            "_NET_WM_NAME",
            "_NET_WM_PID",
            "UTF8_STRING",
            &selection,
            "_XSETTINGS_SETTINGS",
        ];
        // Every request first, then the replies: one round trip.
        let cookies = names
            .iter()
            .map(|n| conn.intern_atom(false, n.as_bytes()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(x11_err)?;
        let mut atoms = Vec::with_capacity(names.len());
        for cookie in cookies {
            atoms.push(cookie.reply().map_err(x11_err)?.atom);
        }
        Ok(Atoms {
            net_client_list_stacking: atoms[0],
            net_client_list: atoms[1],
            net_active_window: atoms[2],
            net_wm_name: atoms[3],
            net_wm_pid: atoms[4],
            utf8_string: atoms[5],
            xsettings_selection: atoms[6],
            xsettings_settings: atoms[7],
        })
    }
}

/// The replies to requests sent earlier; `None` for a failed one.
type Pending<'c, R> = Option<x11rb::cookie::Cookie<'c, RustConnection, R>>;

fn reply<R: x11rb::x11_utils::TryParse>(cookie: Pending<'_, R>) -> Option<R> {
    cookie?.reply().ok()
}

/// Reads the whole state in two round trips: each sends all its requests
/// before it waits for the first reply. Fails only when the connection
/// does (an X error on one window just leaves that window out).
fn read_state_blocking(link: &Link) -> X11Result<DisplayState> {
    let conn = &link.conn;
    let atoms = &link.atoms;
    let screen = conn
        .setup()
        .roots
        .get(link.screen_num)
        .ok_or_else(|| x11_err("no screen"))?
        .clone();
    let root = screen.root;
    let width = i64::from(screen.width_in_pixels);
    let height = i64::from(screen.height_in_pixels);

    // 1: monitors, window lists, active window, focus, the settings manager.
    let monitors_cookie = conn.randr_get_monitors(root, true).ok();
    let list = |atom| {
        conn.get_property(false, root, atom, AtomEnum::WINDOW, 0, 4096)
            .ok()
    };
    let stacking = list(atoms.net_client_list_stacking);
    let clients = list(atoms.net_client_list);
    let active = list(atoms.net_active_window);
    // GetInputFocus cannot fail on a live connection: it tells a dead one.
    let focus = conn.get_input_focus().map_err(x11_err)?;
    let tree = conn.query_tree(root).ok();
    let owner = conn.get_selection_owner(atoms.xsettings_selection).ok();
    let windows_of = |cookie| -> Option<Vec<u32>> {
        let r: x11rb::protocol::xproto::GetPropertyReply = reply(cookie)?;
        let list = r.value32()?.collect();
        Some(list)
    };
    let managed_list = windows_of(stacking)
        .filter(|l| !l.is_empty())
        .or_else(|| windows_of(clients).filter(|l| !l.is_empty()));
    let active = windows_of(active)
        .and_then(|l| l.first().copied())
        .filter(|&w| w != 0);
    let focus = focus.reply().map_err(x11_err)?.focus;
    let monitors = monitors(link, reply(monitors_cookie), width, height);
    let tree = reply(tree);
    let owner = reply(owner).map(|o| o.owner).filter(|&o| o != x11rb::NONE);
    let managed = managed_list.is_some();
    let candidates = match managed_list {
        Some(list) => list,
        None => {
            tree.ok_or_else(|| x11_err("QueryTree of the root failed"))?
                .children
        }
    };

    // 2: the scale, and everything about every candidate window.
    let settings = owner.and_then(|o| {
        conn.get_property(
            false,
            o,
            atoms.xsettings_settings,
            AtomEnum::ANY,
            0,
            1 << 16,
        )
        .ok()
    });
    let asked: Vec<Asked<'_>> = candidates
        .iter()
        .map(|&id| Asked::send(conn, root, id, atoms))
        .collect();
    let scale = reply(settings)
        .and_then(|r| crate::xsettings::window_scale(&r.value))
        .unwrap_or(1.0);
    let windows = asked
        .into_iter()
        .filter_map(|a| a.window(managed))
        .collect();
    // 0 = None, 1 = PointerRoot.
    let active = active.or((focus > 1).then_some(focus));
    Ok(DisplayState {
        width,
        height,
        scale,
        monitors,
        windows,
        active,
        managed,
        backend: Backend::X11,
        unplaced: None,
    })
}

fn monitors(
    link: &Link,
    reply: Option<x11rb::protocol::randr::GetMonitorsReply>,
    width: i64,
    height: i64,
) -> Vec<Monitor> {
    let whole = || {
        vec![Monitor {
            name: "screen".to_owned(),
            rect: Rect::new(0, 0, width.unsigned_abs(), height.unsigned_abs()),
            primary: true,
            scale: 1.0,
        }]
    };
    let Some(reply) = reply else {
        return whole();
    };
    // A name cache: a panic elsewhere cannot leave it wrong.
    let mut known = link
        .names
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let asked: Vec<(u32, Pending<'_, _>)> = reply
        .monitors
        .iter()
        .filter(|m| !known.contains_key(&m.name))
        .map(|m| (m.name, link.conn.get_atom_name(m.name).ok()))
        .collect();
    for (atom, cookie) in asked {
        if let Some(name) = self::reply(cookie).and_then(|r| String::from_utf8(r.name).ok()) {
            known.insert(atom, name);
        }
    }
    let mut out: Vec<Monitor> = reply
        .monitors
        .iter()
        .map(|m| Monitor {
            name: known
                .get(&m.name)
                .cloned()
                .unwrap_or_else(|| format!("monitor-{}", m.name)),
            rect: Rect::new(
                i64::from(m.x),
                i64::from(m.y),
                u64::from(m.width),
                u64::from(m.height),
            ),
            primary: m.primary,
            scale: 1.0,
        })
        .collect();
    if out.is_empty() {
        return whole();
    }
    if !out.iter().any(|m| m.primary) {
        if let Some(first) = out.first_mut() {
            first.primary = true;
        }
    }
    out
}

/// The requests about one candidate window, sent; [`Asked::window`] reads
/// the replies.
struct Asked<'c> {
    id: Window,
    attributes: Pending<'c, x11rb::protocol::xproto::GetWindowAttributesReply>,
    geometry: Pending<'c, x11rb::protocol::xproto::GetGeometryReply>,
    origin: Pending<'c, x11rb::protocol::xproto::TranslateCoordinatesReply>,
    net_wm_name: Pending<'c, x11rb::protocol::xproto::GetPropertyReply>,
    wm_name: Pending<'c, x11rb::protocol::xproto::GetPropertyReply>,
    pid: Pending<'c, x11rb::protocol::xproto::GetPropertyReply>,
    /// The X server's own answer for the process behind the window (the
    /// X-Resource extension), for toolkits that set no `_NET_WM_PID` (Tk).
    client_pid: Pending<'c, x11rb::protocol::res::QueryClientIdsReply>,
}

impl<'c> Asked<'c> {
    fn send(conn: &'c RustConnection, root: Window, id: Window, atoms: &Atoms) -> Self {
        let text = |prop: u32, ty: u32| conn.get_property(false, id, prop, ty, 0, 1024).ok();
        Asked {
            id,
            attributes: conn.get_window_attributes(id).ok(),
            geometry: conn.get_geometry(id).ok(),
            origin: conn.translate_coordinates(id, root, 0, 0).ok(),
            net_wm_name: text(atoms.net_wm_name, atoms.utf8_string),
            wm_name: text(AtomEnum::WM_NAME.into(), AtomEnum::STRING.into()),
            pid: conn
                .get_property(false, id, atoms.net_wm_pid, AtomEnum::CARDINAL, 0, 1)
                .ok(),
            // Without the extension the request is not sent: no answer.
            client_pid: conn
                .res_query_client_ids(&[ClientIdSpec {
                    client: id,
                    mask: ClientIdMask::LOCAL_CLIENT_PID,
                }])
                .ok(),
        }
    }

    /// The window, or `None` when it is gone or (without a window manager)
    /// is not a top-level window a user sees.
    fn window(self, managed: bool) -> Option<TopWindow> {
        let attrs = reply(self.attributes)?;
        // Every reply is read, so none is left behind on the connection.
        let geom = reply(self.geometry);
        let origin = reply(self.origin);
        let text = |r: Option<x11rb::protocol::xproto::GetPropertyReply>| {
            r.filter(|r| !r.value.is_empty())
                .map(|r| String::from_utf8_lossy(&r.value).into_owned())
        };
        let net_wm_name = text(reply(self.net_wm_name));
        let wm_name = text(reply(self.wm_name));
        let pid = reply(self.pid).and_then(|r| r.value32().and_then(|mut v| v.next()));
        let client_pid = reply(self.client_pid).and_then(|r| {
            r.ids
                .iter()
                .find(|i| i.spec.mask.contains(ClientIdMask::LOCAL_CLIENT_PID))
                .and_then(|i| i.value.first().copied())
        });
        if !managed
            && (attrs.map_state != MapState::VIEWABLE
                || attrs.class == WindowClass::INPUT_ONLY
                || attrs.override_redirect)
        {
            return None;
        }
        let (geom, origin) = (geom?, origin?);
        let title = net_wm_name.or(wm_name).unwrap_or_default();
        if !managed && title.is_empty() && pid.is_none() {
            // Unnamed helper windows of toolkits (e.g. GTK's leader window).
            return None;
        }
        Some(TopWindow {
            id: self.id,
            title,
            pid: pid.or(client_pid),
            rect: Rect::new(
                i64::from(origin.dst_x),
                i64::from(origin.dst_y),
                u64::from(geom.width),
                u64::from(geom.height),
            ),
            relative: false,
            app_id: String::new(),
            origin: None,
        })
    }
}
