//! Input on GNOME through mutter's `org.gnome.Mutter.RemoteDesktop` on the
//! session bus: one remote-desktop session per cup process, with a
//! screen-cast stream per monitor (absolute pointer motion is given
//! relative to a stream), pointer buttons by evdev code, the wheel in
//! notches, and keys by keysym (mutter finds the key in its active
//! layout; text is limited to what [`super::gnome::text_keysyms`]
//! allows). Mutter ends the session when cup's connection closes. Every
//! call is bounded by [`TIMEOUT`].
//!
//! GNOME 43 lets any client of the session bus open such a session. The
//! same input also goes through the desktop portal's RemoteDesktop
//! ([`MutterInput::open_portal`], [`super::portal`]): the consent-based
//! route, with a dialog the first time and a restore token after.

use std::collections::HashMap;
use std::time::Duration;

use cup_protocol::Rect;
use zbus::zvariant::{OwnedObjectPath, Value};
use zbus::Connection;

use super::client::WaylandError;
use super::fakeinput::button_code;
use super::gnome;
use super::gnome::shell::GnomeShell;

/// Longest one call may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);

/// Pause between moving the pointer and pressing a button, so the press
/// goes to the surface under the new position.
pub const POINTER_SETTLE: Duration = Duration::from_millis(30);

/// The left Shift key's keysym.
const SHIFT_L: u32 = 0xffe1;

const RD: &str = "org.gnome.Mutter.RemoteDesktop";
const RD_SESSION: &str = "org.gnome.Mutter.RemoteDesktop.Session";
const SC: &str = "org.gnome.Mutter.ScreenCast";
const SC_SESSION: &str = "org.gnome.Mutter.ScreenCast.Session";

/// How long a new session's first pointer motion is sent again until the
/// shell says the pointer is there.
const FIRST_MOTION: Duration = Duration::from_secs(3);

/// After a new session's first motion has arrived: the pause before a
/// press, while the surface under the pointer gets its focus.
const FIRST_FOCUS: Duration = Duration::from_millis(150);

/// Without cup's extension (nothing tells where the pointer is): the
/// pause before a new session's first motion is sent again.
const FIRST_MOTION_BLIND: Duration = Duration::from_millis(1500);

/// The pause after a new session's first key. The first key events of a
/// session's keyboard are lost, however long after the start they come
/// (measured on GNOME 43: the first one or two characters of each new
/// session's first text went missing, with pauses of up to 1 s before
/// it); a Shift press and release goes first, and after it this pause
/// (without it the next two keys were lost once in six runs; with 50 ms
/// and more, none in eight on an idle machine; with 150 ms a Ctrl+A was
/// lost once with two GNOME desktops busy side by side).
const KEYBOARD_SETTLE: Duration = Duration::from_millis(300);

/// Which remote-desktop API a session is on.
#[derive(Debug)]
enum Route {
    /// Mutter's own (`org.gnome.Mutter.RemoteDesktop`).
    Mutter {
        session: OwnedObjectPath,
        /// Each monitor's rectangle in the layout and its stream.
        streams: Vec<(Rect, OwnedObjectPath)>,
    },
    /// The desktop portal's (`org.freedesktop.portal.RemoteDesktop`).
    Portal {
        session: OwnedObjectPath,
        started: super::portal::Started,
    },
}

/// A running remote-desktop session.
#[derive(Debug)]
pub struct MutterInput {
    conn: Connection,
    route: Route,
    /// Calls go one at a time (the order of presses and releases).
    lock: tokio::sync::Mutex<()>,
    /// The keyboard had its first (lost) key (see [`KEYBOARD_SETTLE`]).
    warm: std::sync::atomic::AtomicBool,
    /// The pointer had its first motion.
    pointer_warm: std::sync::atomic::AtomicBool,
    /// cup's GNOME Shell extension, which tells where the pointer is.
    shell: Option<GnomeShell>,
    /// The seat had a keyboard before this session made one (a real
    /// desktop's; a headless GNOME's has none): apps already hold the
    /// keyboard's focus. `None` when it could not be read.
    keyboard_before: Option<bool>,
    /// The session's EIS connection, where the desktop offers one
    /// (`ConnectToEIS`: GNOME 45 and later, portal version 2): every
    /// event goes through it then.
    eis: Option<super::eis::EisInput>,
}

fn failed(what: &str, e: impl std::fmt::Display) -> WaylandError {
    let text = e.to_string();
    if text.contains("AccessDenied")
        || text.contains("NotAllowed")
        || text.contains("ServiceUnknown")
    {
        WaylandError::Unsupported(format!(
            "unsupported: input on this desktop ({what}: {text}): the remote-desktop service refused cup; act through the elements' actions, or allow cup when the desktop portal asks (CUP_WAYLAND_INPUT=portal)"
        ))
    } else {
        WaylandError::Bus(format!("remote desktop: {what}: {text}"))
    }
}

/// The stream whose monitor holds `(x, y)` and the point relative to it.
pub fn stream_point(streams: &[(Rect, String)], x: i64, y: i64) -> Option<(usize, f64, f64)> {
    streams.iter().enumerate().find_map(|(i, (r, _))| {
        (x >= r.x && y >= r.y && x < r.right() && y < r.bottom())
            .then(|| (i, (x - r.x) as f64, (y - r.y) as f64))
    })
}

impl MutterInput {
    /// Opens a session on `conn` with a stream for each of `monitors`
    /// (their rectangles and connectors) and starts it.
    pub async fn open(
        conn: &Connection,
        monitors: &[(cup::Monitor, String)],
        shell: Option<GnomeShell>,
    ) -> Result<MutterInput, WaylandError> {
        let session: OwnedObjectPath = call(
            conn,
            RD,
            "/org/gnome/Mutter/RemoteDesktop",
            RD,
            "CreateSession",
            &(),
            "creating a session",
        )
        .await?;
        let props = zbus::fdo::PropertiesProxy::builder(conn)
            .destination(RD)
            .and_then(|b| b.path(session.clone()))
            .map_err(|e| failed("the session", e))?
            .build();
        let props = tokio::time::timeout(TIMEOUT, props)
            .await
            .map_err(|_| WaylandError::Bus("mutter did not answer within 2 s".into()))?
            .map_err(|e| failed("the session", e))?;
        let name = zbus::names::InterfaceName::try_from(RD_SESSION)
            .map_err(|e| failed("the session", e))?;
        let id = tokio::time::timeout(TIMEOUT, props.get(name, "SessionId"))
            .await
            .map_err(|_| WaylandError::Bus("mutter did not answer within 2 s".into()))?
            .map_err(|e| failed("the session's id", e))?;
        let id = String::try_from(id).map_err(|e| failed("the session's id", e))?;
        let options: HashMap<&str, Value<'_>> =
            HashMap::from([("remote-desktop-session-id", Value::from(id.as_str()))]);
        let cast: OwnedObjectPath = call(
            conn,
            SC,
            "/org/gnome/Mutter/ScreenCast",
            SC,
            "CreateSession",
            &(options,),
            "creating its screen cast",
        )
        .await?;
        let mut streams = Vec::new();
        for (monitor, connector) in monitors {
            let options: HashMap<&str, Value<'_>> = HashMap::new();
            let stream: OwnedObjectPath = call(
                conn,
                SC,
                cast.as_str(),
                SC_SESSION,
                "RecordMonitor",
                &(connector.as_str(), options),
                "recording a monitor",
            )
            .await?;
            streams.push((monitor.rect, stream));
        }
        if streams.is_empty() {
            return Err(WaylandError::Bus(
                "mutter tells no monitors to move the pointer on".into(),
            ));
        }
        call::<_, ()>(
            conn,
            RD,
            session.as_str(),
            RD_SESSION,
            "Start",
            &(),
            "starting it",
        )
        .await?;
        Ok(MutterInput {
            conn: conn.clone(),
            route: Route::Mutter { session, streams },
            lock: tokio::sync::Mutex::new(()),
            warm: std::sync::atomic::AtomicBool::new(false),
            pointer_warm: std::sync::atomic::AtomicBool::new(false),
            shell,
            keyboard_before: None,
            eis: None,
        })
    }

    /// Opens a session through the desktop portal on `conn` (a dialog
    /// asks the user the first time; the restore token kept in
    /// `token_file` skips it later), waiting up to `consent` for the
    /// answer.
    pub async fn open_portal(
        conn: &Connection,
        token_file: &std::path::Path,
        consent: Duration,
        shell: Option<GnomeShell>,
    ) -> Result<MutterInput, WaylandError> {
        let (session, started) = super::portal::client::start(conn, token_file, consent).await?;
        Ok(MutterInput {
            conn: conn.clone(),
            route: Route::Portal { session, started },
            lock: tokio::sync::Mutex::new(()),
            warm: std::sync::atomic::AtomicBool::new(false),
            pointer_warm: std::sync::atomic::AtomicBool::new(false),
            shell,
            keyboard_before: None,
            eis: None,
        })
    }

    /// Whether this session goes through the desktop portal.
    pub fn is_portal(&self) -> bool {
        matches!(self.route, Route::Portal { .. })
    }

    /// Whether events go through EIS.
    pub fn is_eis(&self) -> bool {
        self.eis.is_some()
    }

    /// Asks the session for an EIS connection and speaks it from now on,
    /// where the desktop offers one; nothing changes where it does not
    /// (GNOME 43–44, portal version 1: the method is not there).
    ///
    /// # Errors
    ///
    /// The desktop offered EIS and the connection failed.
    pub async fn use_eis(mut self) -> Result<MutterInput, WaylandError> {
        let options: HashMap<&str, Value<'_>> = HashMap::new();
        let conn = self.conn.clone();
        let route = &self.route;
        let call = async move {
            match route {
                Route::Mutter { session, .. } => {
                    conn.call_method(
                        Some(RD),
                        session.as_str(),
                        Some(RD_SESSION),
                        "ConnectToEIS",
                        &(options,),
                    )
                    .await
                }
                Route::Portal { session, .. } => {
                    conn.call_method(
                        Some(super::portal::DESKTOP),
                        super::portal::PATH,
                        Some(super::portal::REMOTE_DESKTOP),
                        "ConnectToEIS",
                        &(session, options),
                    )
                    .await
                }
            }
        };
        let reply = match tokio::time::timeout(TIMEOUT, call).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(e)) => {
                tracing::debug!(error = %e, "no EIS from this desktop");
                return Ok(self);
            }
            Err(_) => {
                return Err(WaylandError::Bus(
                    "the desktop did not answer ConnectToEIS within 2 s".into(),
                ))
            }
        };
        let fd: zbus::zvariant::OwnedFd = reply
            .body()
            .deserialize()
            .map_err(|e| failed("the EIS socket", e))?;
        let eis = super::eis::EisInput::connect(std::os::fd::OwnedFd::from(fd)).await?;
        self.eis = Some(eis);
        Ok(self)
    }

    async fn mutter<B>(
        &self,
        session: &OwnedObjectPath,
        method: &str,
        body: &B,
        what: &str,
    ) -> Result<(), WaylandError>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType,
    {
        call::<_, ()>(
            &self.conn,
            RD,
            session.as_str(),
            RD_SESSION,
            method,
            body,
            what,
        )
        .await
    }

    async fn portal<B>(&self, method: &str, body: &B, what: &str) -> Result<(), WaylandError>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType,
    {
        call::<_, ()>(
            &self.conn,
            super::portal::DESKTOP,
            super::portal::PATH,
            super::portal::REMOTE_DESKTOP,
            method,
            body,
            what,
        )
        .await
    }

    async fn motion(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        if !self
            .pointer_warm
            .swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            return self.first_motion(x, y).await;
        }
        self.move_pointer(x, y).await
    }

    /// A new session's stream takes a moment before mutter places
    /// absolute motion on it; until then it drops the motion (measured:
    /// through the portal a click right after the session started pressed
    /// where the pointer had been; 1.5 s later it landed). The motion is
    /// sent again until the shell says the pointer is there (cup's GNOME
    /// Shell extension), for at most [`FIRST_MOTION`]; without the
    /// extension, once more after [`FIRST_MOTION_BLIND`].
    async fn first_motion(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        let Some(shell) = &self.shell else {
            self.move_pointer(x, y).await?;
            tokio::time::sleep(FIRST_MOTION_BLIND).await;
            return self.move_pointer(x, y).await;
        };
        let until = std::time::Instant::now() + FIRST_MOTION;
        loop {
            self.move_pointer(x, y).await?;
            tokio::time::sleep(Duration::from_millis(20)).await;
            match shell.pointer().await {
                Ok((px, py)) if i64::from(px) == x && i64::from(py) == y => {
                    // The shell has the pointer there; the surface under
                    // it gets the pointer's focus a moment later (under
                    // load a press right away once went to the window the
                    // pointer had left).
                    tokio::time::sleep(FIRST_FOCUS).await;
                    return Ok(());
                }
                Ok(_) if std::time::Instant::now() < until => {
                    tokio::time::sleep(Duration::from_millis(80)).await;
                }
                Ok((px, py)) => {
                    return Err(WaylandError::Bus(format!(
                        "the pointer did not move to {x},{y} within {} s (it is at {px},{py}): the remote-desktop session's stream never took motion; retry",
                        FIRST_MOTION.as_secs()
                    )))
                }
                // No extension after all: as without one.
                Err(_) => {
                    tokio::time::sleep(FIRST_MOTION_BLIND).await;
                    return self.move_pointer(x, y).await;
                }
            }
        }
    }

    async fn move_pointer(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        let nowhere = || WaylandError::Invalid(format!("{x},{y} is on no monitor of this desktop"));
        match &self.route {
            Route::Mutter { session, streams } => {
                let streams: Vec<(Rect, String)> =
                    streams.iter().map(|(r, s)| (*r, s.to_string())).collect();
                let (i, sx, sy) = stream_point(&streams, x, y).ok_or_else(nowhere)?;
                self.mutter(
                    session,
                    "NotifyPointerMotionAbsolute",
                    &(streams[i].1.as_str(), sx, sy),
                    "moving the pointer",
                )
                .await
            }
            Route::Portal { session, started } => {
                let (node, sx, sy) = started.stream_point(x, y).ok_or_else(nowhere)?;
                self.portal(
                    "NotifyPointerMotionAbsolute",
                    &(session, no_options(), node, sx, sy),
                    "moving the pointer",
                )
                .await
            }
        }
    }

    async fn press(&self, code: i32, down: bool, what: &str) -> Result<(), WaylandError> {
        match &self.route {
            Route::Mutter { session, .. } => {
                self.mutter(session, "NotifyPointerButton", &(code, down), what)
                    .await
            }
            Route::Portal { session, .. } => {
                self.portal(
                    "NotifyPointerButton",
                    &(session, no_options(), code, u32::from(down)),
                    what,
                )
                .await
            }
        }
    }

    async fn axis(&self, axis: u32, steps: i32) -> Result<(), WaylandError> {
        match &self.route {
            Route::Mutter { session, .. } => {
                self.mutter(
                    session,
                    "NotifyPointerAxisDiscrete",
                    &(axis, steps),
                    "scrolling",
                )
                .await
            }
            Route::Portal { session, .. } => {
                self.portal(
                    "NotifyPointerAxisDiscrete",
                    &(session, no_options(), axis, steps),
                    "scrolling",
                )
                .await
            }
        }
    }

    async fn keysym(&self, keysym: u32, down: bool) -> Result<(), WaylandError> {
        match &self.route {
            Route::Mutter { session, .. } => {
                self.mutter(
                    session,
                    "NotifyKeyboardKeysym",
                    &(keysym, down),
                    "pressing a key",
                )
                .await
            }
            Route::Portal { session, .. } => {
                self.portal(
                    "NotifyKeyboardKeysym",
                    &(
                        session,
                        no_options(),
                        i32::try_from(keysym).unwrap_or(0),
                        u32::from(down),
                    ),
                    "pressing a key",
                )
                .await
            }
        }
    }

    /// Moves the pointer to `(x, y)` on the screen.
    pub async fn move_to(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        if let Some(eis) = &self.eis {
            return eis.move_to(x, y).await;
        }
        let _one = self.lock.lock().await;
        self.motion(x, y).await
    }

    /// Presses (`down`) or releases `button` at `(x, y)`.
    pub async fn button(&self, x: i64, y: i64, button: u8, down: bool) -> Result<(), WaylandError> {
        if let Some(eis) = &self.eis {
            return eis.button(x, y, button, down).await;
        }
        let code = i32::try_from(button_code(button)?).unwrap_or(0x110);
        let _one = self.lock.lock().await;
        self.motion(x, y).await?;
        tokio::time::sleep(POINTER_SETTLE).await;
        self.press(code, down, "pressing a button").await
    }

    /// Clicks `button` `count` times at `(x, y)`.
    pub async fn click(&self, x: i64, y: i64, button: u8, count: u8) -> Result<(), WaylandError> {
        if let Some(eis) = &self.eis {
            return eis.click(x, y, button, count).await;
        }
        if !(1..=3).contains(&count) {
            return Err(WaylandError::Invalid(format!(
                "a click count of {count} is not 1, 2 or 3"
            )));
        }
        let code = i32::try_from(button_code(button)?).unwrap_or(0x110);
        let _one = self.lock.lock().await;
        self.motion(x, y).await?;
        tokio::time::sleep(POINTER_SETTLE).await;
        for _ in 0..count {
            self.press(code, true, "clicking").await?;
            self.press(code, false, "clicking").await?;
        }
        Ok(())
    }

    /// Turns the wheel at `(x, y)` by `dx`, `dy` notches (positive: right,
    /// down).
    pub async fn scroll(&self, x: i64, y: i64, dx: i32, dy: i32) -> Result<(), WaylandError> {
        if let Some(eis) = &self.eis {
            return eis.scroll(x, y, dx, dy).await;
        }
        let _one = self.lock.lock().await;
        self.motion(x, y).await?;
        tokio::time::sleep(POINTER_SETTLE).await;
        if dy != 0 {
            self.axis(0, dy).await?;
        }
        if dx != 0 {
            self.axis(1, dx).await?;
        }
        Ok(())
    }

    async fn key(&self, keysym: u32, down: bool) -> Result<(), WaylandError> {
        self.warm_keyboard().await?;
        self.keysym(keysym, down).await
    }

    /// The first keys of a new session's keyboard are lost (see
    /// [`KEYBOARD_SETTLE`]): a press and release of Shift, which types
    /// nothing, goes first, then a pause.
    async fn warm_keyboard(&self) -> Result<(), WaylandError> {
        if self.warm.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return Ok(());
        }
        for down in [true, false] {
            self.keysym(SHIFT_L, down).await?;
        }
        tokio::time::sleep(KEYBOARD_SETTLE).await;
        Ok(())
    }

    /// Sends a new session's first key (a Shift press and a pause) now,
    /// before any other; true when it did (the first call of a session
    /// not on EIS) and that made the seat's keyboard: a headless GNOME
    /// has none until a session makes one, and the apps' windows become
    /// active only then (and inactive again when the session ends). The
    /// caller waits for that.
    pub async fn prime_keyboard(&self) -> Result<bool, WaylandError> {
        if self.eis.is_some() {
            return Ok(false);
        }
        let _one = self.lock.lock().await;
        let first = !self.warm.load(std::sync::atomic::Ordering::SeqCst);
        self.warm_keyboard().await?;
        Ok(first && self.keyboard_before == Some(false))
    }

    /// Records whether the seat had a keyboard before this session (see
    /// [`MutterInput::prime_keyboard`]).
    pub fn with_keyboard_before(mut self, had: Option<bool>) -> MutterInput {
        self.keyboard_before = had;
        self
    }

    /// Presses `keysyms` in order and releases them in reverse (a combo);
    /// every key that went down goes up again.
    pub async fn keys(&self, keysyms: &[u32]) -> Result<(), WaylandError> {
        if let Some(eis) = &self.eis {
            return eis.keys(keysyms).await;
        }
        let _one = self.lock.lock().await;
        let mut down = Vec::new();
        let mut result = Ok(());
        for &k in keysyms {
            result = self.key(k, true).await;
            if result.is_err() {
                break;
            }
            down.push(k);
        }
        for &k in down.iter().rev() {
            let up = self.key(k, false).await;
            result = result.and(up);
        }
        result
    }

    /// Presses (`down`) or releases `keysyms` (modifiers held around a
    /// pointer gesture), releasing in reverse order.
    pub async fn hold(&self, keysyms: &[u32], down: bool) -> Result<(), WaylandError> {
        if let Some(eis) = &self.eis {
            return eis.hold(keysyms, down).await;
        }
        let _one = self.lock.lock().await;
        if down {
            for &k in keysyms {
                self.key(k, true).await?;
            }
            Ok(())
        } else {
            let mut result = Ok(());
            for &k in keysyms.iter().rev() {
                result = result.and(self.key(k, false).await);
            }
            result
        }
    }

    /// Types `text` (printable ASCII, Return, Tab; anything else is
    /// refused before a key goes out).
    pub async fn type_text(&self, text: &str) -> Result<(), WaylandError> {
        if let Some(eis) = &self.eis {
            return eis.type_text(text).await;
        }
        let keysyms = gnome::text_keysyms(text).map_err(WaylandError::Unsupported)?;
        let _one = self.lock.lock().await;
        for k in keysyms {
            self.key(k, true).await?;
            self.key(k, false).await?;
        }
        Ok(())
    }
}

/// The empty options of a portal notification.
fn no_options() -> HashMap<&'static str, Value<'static>> {
    HashMap::new()
}

async fn call<B, R>(
    conn: &Connection,
    service: &str,
    path: &str,
    interface: &str,
    method: &str,
    body: &B,
    what: &str,
) -> Result<R, WaylandError>
where
    B: serde::Serialize + zbus::zvariant::DynamicType,
    R: for<'d> serde::Deserialize<'d> + zbus::zvariant::Type,
{
    let call = conn.call_method(Some(service), path, Some(interface), method, body);
    let reply = tokio::time::timeout(TIMEOUT, call)
        .await
        .map_err(|_| {
            WaylandError::Bus(format!(
                "mutter did not answer {what} within 2 s (is the desktop busy or hung?)"
            ))
        })?
        .map_err(|e| failed(what, e))?;
    reply.body().deserialize().map_err(|e| failed(what, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_go_to_the_stream_of_their_monitor() {
        let streams = vec![
            (Rect::new(0, 0, 1280, 800), "/s/0".to_owned()),
            (Rect::new(1280, 0, 1280, 800), "/s/1".to_owned()),
        ];
        assert_eq!(stream_point(&streams, 10, 20), Some((0, 10.0, 20.0)));
        assert_eq!(stream_point(&streams, 1290, 5), Some((1, 10.0, 5.0)));
        assert_eq!(stream_point(&streams, 1280, 799), Some((1, 0.0, 799.0)));
        assert_eq!(stream_point(&streams, 2560, 0), None);
        assert_eq!(stream_point(&streams, -1, 0), None);
    }
}
