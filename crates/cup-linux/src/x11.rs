//! X11 state: monitors (RandR), scale (XSETTINGS), top-level windows
//! (EWMH `_NET_CLIENT_LIST_STACKING`, or the root's mapped children when no
//! window manager runs), their titles, pids and screen rectangles, and the
//! active window.
//!
//! x11rb calls block; [`read_state`] runs them on a blocking thread under a
//! deadline, so a hung X server cannot hang the process.

use std::time::Duration;

use cup::{AdapterError, Monitor};
use cup_protocol::Rect;
use x11rb::connection::Connection;
use x11rb::protocol::randr::ConnectionExt as _;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, MapState, Window, WindowClass};
use x11rb::rust_connection::RustConnection;

/// Deadline of one [`read_state`].
pub const X11_TIMEOUT: Duration = Duration::from_secs(2);

/// One top-level window.
#[derive(Debug, Clone, PartialEq)]
pub struct X11Window {
    /// X window id.
    pub id: u32,
    /// `_NET_WM_NAME`, else `WM_NAME`.
    pub title: String,
    /// `_NET_WM_PID`.
    pub pid: Option<u32>,
    /// Rectangle in root (screen) coordinates.
    pub rect: Rect,
}

/// What X11 says about the display.
#[derive(Debug, Clone, PartialEq)]
pub struct X11State {
    /// Root window width.
    pub width: i64,
    /// Root window height.
    pub height: i64,
    /// Device scale (XSETTINGS `Gdk/WindowScalingFactor`), 1.0 when unset.
    pub scale: f64,
    /// Monitors (RandR), at least one.
    pub monitors: Vec<Monitor>,
    /// Mapped top-level windows, bottom to top.
    pub windows: Vec<X11Window>,
    /// `_NET_ACTIVE_WINDOW` (with a window manager) or the input focus.
    pub active: Option<u32>,
    /// A window manager manages the windows (EWMH client list present).
    pub managed: bool,
}

fn unavailable(msg: impl Into<String>) -> AdapterError {
    AdapterError::Unavailable(msg.into())
}

/// Reads the X11 state of `display` under [`X11_TIMEOUT`].
pub async fn read_state(display: Option<&str>) -> Result<X11State, AdapterError> {
    let Some(display) = display.map(str::to_owned) else {
        return Err(unavailable(
            "no X11 display (DISPLAY is unset); run inside an X11 session or start one with `cup sandbox start`",
        ));
    };
    let task = tokio::task::spawn_blocking(move || read_state_blocking(&display));
    match tokio::time::timeout(X11_TIMEOUT, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(e)) => Err(unavailable(format!("X11 reader failed: {e}"))),
        Err(_) => Err(unavailable("the X server did not answer within 2 s")),
    }
}

type X11Result<T> = Result<T, AdapterError>;

fn x11_err(e: impl std::fmt::Display) -> AdapterError {
    AdapterError::Platform(format!("X11: {e}"))
}

struct Atoms {
    net_client_list_stacking: u32,
    net_client_list: u32,
    net_active_window: u32,
    net_wm_name: u32,
    net_wm_pid: u32,
    utf8_string: u32,
}

fn intern(conn: &RustConnection, name: &str) -> X11Result<u32> {
    Ok(conn
        .intern_atom(false, name.as_bytes())
        .map_err(x11_err)?
        .reply()
        .map_err(x11_err)?
        .atom)
}

fn read_state_blocking(display: &str) -> X11Result<X11State> {
    let (conn, screen_num) = x11rb::connect(Some(display)).map_err(|e| {
        unavailable(format!(
            "cannot open the X11 display {display}: {e}; check DISPLAY and that the X server runs"
        ))
    })?;
    let screen = conn
        .setup()
        .roots
        .get(screen_num)
        .ok_or_else(|| x11_err("no screen"))?
        .clone();
    let root = screen.root;
    let atoms = Atoms {
        net_client_list_stacking: intern(&conn, "_NET_CLIENT_LIST_STACKING")?,
        net_client_list: intern(&conn, "_NET_CLIENT_LIST")?,
        net_active_window: intern(&conn, "_NET_ACTIVE_WINDOW")?,
        net_wm_name: intern(&conn, "_NET_WM_NAME")?,
        net_wm_pid: intern(&conn, "_NET_WM_PID")?,
        utf8_string: intern(&conn, "UTF8_STRING")?,
    };
    let width = i64::from(screen.width_in_pixels);
    let height = i64::from(screen.height_in_pixels);
    let monitors = monitors(&conn, root, width, height);
    let scale = settings_scale(&conn, screen_num);

    let managed_list = window_list_prop(&conn, root, atoms.net_client_list_stacking)
        .filter(|l| !l.is_empty())
        .or_else(|| window_list_prop(&conn, root, atoms.net_client_list).filter(|l| !l.is_empty()));
    let managed = managed_list.is_some();
    let candidates = match managed_list {
        Some(list) => list,
        None => {
            conn.query_tree(root)
                .map_err(x11_err)?
                .reply()
                .map_err(x11_err)?
                .children
        }
    };
    let mut windows = Vec::new();
    for id in candidates {
        if let Some(w) = describe(&conn, root, id, &atoms, managed) {
            windows.push(w);
        }
    }
    let active = window_list_prop(&conn, root, atoms.net_active_window)
        .and_then(|l| l.first().copied())
        .filter(|&w| w != 0)
        .or_else(|| {
            let focus = conn.get_input_focus().ok()?.reply().ok()?.focus;
            // 0 = None, 1 = PointerRoot.
            (focus > 1).then_some(focus)
        });
    Ok(X11State {
        width,
        height,
        scale,
        monitors,
        windows,
        active,
        managed,
    })
}

fn monitors(conn: &RustConnection, root: Window, width: i64, height: i64) -> Vec<Monitor> {
    let whole = || {
        vec![Monitor {
            name: "screen".to_owned(),
            rect: Rect::new(0, 0, width.unsigned_abs(), height.unsigned_abs()),
            primary: true,
        }]
    };
    let Ok(cookie) = conn.randr_get_monitors(root, true) else {
        return whole();
    };
    let Ok(reply) = cookie.reply() else {
        return whole();
    };
    let mut out: Vec<Monitor> = reply
        .monitors
        .iter()
        .map(|m| Monitor {
            name: atom_name(conn, m.name).unwrap_or_else(|| format!("monitor-{}", m.name)),
            rect: Rect::new(
                i64::from(m.x),
                i64::from(m.y),
                u64::from(m.width),
                u64::from(m.height),
            ),
            primary: m.primary,
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

fn atom_name(conn: &RustConnection, atom: u32) -> Option<String> {
    let reply = conn.get_atom_name(atom).ok()?.reply().ok()?;
    String::from_utf8(reply.name).ok()
}

/// The device scale: the XSETTINGS `Gdk/WindowScalingFactor` of the
/// settings manager of this screen, 1.0 without one (`Xft.dpi` is a font
/// setting, not the scale).
fn settings_scale(conn: &RustConnection, screen_num: usize) -> f64 {
    let read = || -> Option<f64> {
        let selection = intern(conn, &format!("_XSETTINGS_S{screen_num}")).ok()?;
        let owner = conn
            .get_selection_owner(selection)
            .ok()?
            .reply()
            .ok()?
            .owner;
        if owner == x11rb::NONE {
            return None;
        }
        let property = intern(conn, "_XSETTINGS_SETTINGS").ok()?;
        let reply = conn
            .get_property(false, owner, property, AtomEnum::ANY, 0, 1 << 16)
            .ok()?
            .reply()
            .ok()?;
        crate::xsettings::window_scale(&reply.value)
    };
    read().unwrap_or(1.0)
}

fn window_list_prop(conn: &RustConnection, root: Window, atom: u32) -> Option<Vec<u32>> {
    let reply = conn
        .get_property(false, root, atom, AtomEnum::WINDOW, 0, 4096)
        .ok()?
        .reply()
        .ok()?;
    let list: Vec<u32> = reply.value32()?.collect();
    Some(list)
}

fn describe(
    conn: &RustConnection,
    root: Window,
    id: Window,
    atoms: &Atoms,
    managed: bool,
) -> Option<X11Window> {
    let attrs = conn.get_window_attributes(id).ok()?.reply().ok()?;
    if !managed
        && (attrs.map_state != MapState::VIEWABLE
            || attrs.class == WindowClass::INPUT_ONLY
            || attrs.override_redirect)
    {
        return None;
    }
    let geom = conn.get_geometry(id).ok()?.reply().ok()?;
    let origin = conn
        .translate_coordinates(id, root, 0, 0)
        .ok()?
        .reply()
        .ok()?;
    let title = text_prop(conn, id, atoms.net_wm_name, atoms.utf8_string)
        .or_else(|| text_prop(conn, id, AtomEnum::WM_NAME.into(), AtomEnum::STRING.into()))
        .unwrap_or_default();
    let pid = conn
        .get_property(false, id, atoms.net_wm_pid, AtomEnum::CARDINAL, 0, 1)
        .ok()
        .and_then(|c| c.reply().ok())
        .and_then(|r| r.value32().and_then(|mut v| v.next()));
    if !managed && title.is_empty() && pid.is_none() {
        // Unnamed helper windows of toolkits (e.g. GTK's leader window).
        return None;
    }
    Some(X11Window {
        id,
        title,
        pid,
        rect: Rect::new(
            i64::from(origin.dst_x),
            i64::from(origin.dst_y),
            u64::from(geom.width),
            u64::from(geom.height),
        ),
    })
}

fn text_prop(conn: &RustConnection, id: Window, prop: u32, ty: u32) -> Option<String> {
    let reply = conn
        .get_property(false, id, prop, ty, 0, 1024)
        .ok()?
        .reply()
        .ok()?;
    (!reply.value.is_empty()).then(|| String::from_utf8_lossy(&reply.value).into_owned())
}
