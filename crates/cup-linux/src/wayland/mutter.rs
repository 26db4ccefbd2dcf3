//! Input on GNOME through mutter's `org.gnome.Mutter.RemoteDesktop` on the
//! session bus: one remote-desktop session per cup process, with a
//! screen-cast stream per monitor (absolute pointer motion is given
//! relative to a stream), pointer buttons by evdev code, the wheel in
//! notches, and keys by keysym (mutter finds the key in its active
//! layout; text is limited to what [`super::gnome::text_keysyms`]
//! allows). Mutter ends the session when cup's connection closes. Every
//! call is bounded by [`TIMEOUT`].
//!
//! GNOME 43 lets any client of the session bus open such a session; later
//! GNOME releases keep it for their own remote-desktop service, and the
//! error then says so.

use std::collections::HashMap;
use std::time::Duration;

use cup_protocol::Rect;
use zbus::zvariant::{OwnedObjectPath, Value};
use zbus::Connection;

use super::client::WaylandError;
use super::fakeinput::button_code;
use super::gnome;

/// Longest one call may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);

/// Pause between moving the pointer and pressing a button, so the press
/// goes to the surface under the new position.
const POINTER_SETTLE: Duration = Duration::from_millis(30);

/// The left Shift key's keysym.
const SHIFT_L: u32 = 0xffe1;

const RD: &str = "org.gnome.Mutter.RemoteDesktop";
const RD_SESSION: &str = "org.gnome.Mutter.RemoteDesktop.Session";
const SC: &str = "org.gnome.Mutter.ScreenCast";
const SC_SESSION: &str = "org.gnome.Mutter.ScreenCast.Session";

/// The pause after a new session's first key. The first key events of a
/// session's keyboard are lost, however long after the start they come
/// (measured on GNOME 43: the first one or two characters of each new
/// session's first text went missing, with pauses of up to 1 s before
/// it); a Shift press and release goes first, and after it this pause
/// (without it the next two keys were lost once in six runs; with 50 ms
/// and more, none in eight).
const KEYBOARD_SETTLE: Duration = Duration::from_millis(150);

/// A running remote-desktop session.
#[derive(Debug)]
pub struct MutterInput {
    conn: Connection,
    session: OwnedObjectPath,
    /// Each monitor's rectangle in the layout and its stream.
    streams: Vec<(Rect, OwnedObjectPath)>,
    /// Calls go one at a time (the order of presses and releases).
    lock: tokio::sync::Mutex<()>,
    /// The keyboard had its first (lost) key (see [`KEYBOARD_SETTLE`]).
    warm: std::sync::atomic::AtomicBool,
}

fn failed(what: &str, e: impl std::fmt::Display) -> WaylandError {
    let text = e.to_string();
    if text.contains("AccessDenied")
        || text.contains("NotAllowed")
        || text.contains("ServiceUnknown")
    {
        WaylandError::Unsupported(format!(
            "unsupported: input on this GNOME ({what}: {text}): its RemoteDesktop API is kept for GNOME's own remote-desktop service; cup's input there needs the RemoteDesktop portal, which this cup does not drive yet; act through the elements' actions"
        ))
    } else {
        WaylandError::Bus(format!("mutter RemoteDesktop: {what}: {text}"))
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
            session,
            streams,
            lock: tokio::sync::Mutex::new(()),
            warm: std::sync::atomic::AtomicBool::new(false),
        })
    }

    async fn notify<B>(&self, method: &str, body: &B, what: &str) -> Result<(), WaylandError>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType,
    {
        call::<_, ()>(
            &self.conn,
            RD,
            self.session.as_str(),
            RD_SESSION,
            method,
            body,
            what,
        )
        .await
    }

    async fn motion(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        let streams: Vec<(Rect, String)> = self
            .streams
            .iter()
            .map(|(r, s)| (*r, s.to_string()))
            .collect();
        let (i, sx, sy) = stream_point(&streams, x, y).ok_or_else(|| {
            WaylandError::Invalid(format!("{x},{y} is on no monitor of this GNOME desktop"))
        })?;
        self.notify(
            "NotifyPointerMotionAbsolute",
            &(streams[i].1.as_str(), sx, sy),
            "moving the pointer",
        )
        .await
    }

    /// Moves the pointer to `(x, y)` on the screen.
    pub async fn move_to(&self, x: i64, y: i64) -> Result<(), WaylandError> {
        let _one = self.lock.lock().await;
        self.motion(x, y).await
    }

    /// Presses (`down`) or releases `button` at `(x, y)`.
    pub async fn button(&self, x: i64, y: i64, button: u8, down: bool) -> Result<(), WaylandError> {
        let code = i32::try_from(button_code(button)?).unwrap_or(0x110);
        let _one = self.lock.lock().await;
        self.motion(x, y).await?;
        tokio::time::sleep(POINTER_SETTLE).await;
        self.notify("NotifyPointerButton", &(code, down), "pressing a button")
            .await
    }

    /// Clicks `button` `count` times at `(x, y)`.
    pub async fn click(&self, x: i64, y: i64, button: u8, count: u8) -> Result<(), WaylandError> {
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
            self.notify("NotifyPointerButton", &(code, true), "clicking")
                .await?;
            self.notify("NotifyPointerButton", &(code, false), "clicking")
                .await?;
        }
        Ok(())
    }

    /// Turns the wheel at `(x, y)` by `dx`, `dy` notches (positive: right,
    /// down).
    pub async fn scroll(&self, x: i64, y: i64, dx: i32, dy: i32) -> Result<(), WaylandError> {
        let _one = self.lock.lock().await;
        self.motion(x, y).await?;
        tokio::time::sleep(POINTER_SETTLE).await;
        if dy != 0 {
            self.notify("NotifyPointerAxisDiscrete", &(0u32, dy), "scrolling")
                .await?;
        }
        if dx != 0 {
            self.notify("NotifyPointerAxisDiscrete", &(1u32, dx), "scrolling")
                .await?;
        }
        Ok(())
    }

    async fn key(&self, keysym: u32, down: bool) -> Result<(), WaylandError> {
        self.warm_keyboard().await?;
        self.notify("NotifyKeyboardKeysym", &(keysym, down), "pressing a key")
            .await
    }

    /// The first keys of a new session's keyboard are lost (see
    /// [`KEYBOARD_SETTLE`]): a press and release of Shift, which types
    /// nothing, goes first, then a pause.
    async fn warm_keyboard(&self) -> Result<(), WaylandError> {
        if self.warm.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return Ok(());
        }
        for down in [true, false] {
            self.notify("NotifyKeyboardKeysym", &(SHIFT_L, down), "pressing a key")
                .await?;
        }
        tokio::time::sleep(KEYBOARD_SETTLE).await;
        Ok(())
    }

    /// Presses `keysyms` in order and releases them in reverse (a combo);
    /// every key that went down goes up again.
    pub async fn keys(&self, keysyms: &[u32]) -> Result<(), WaylandError> {
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
        let keysyms = gnome::text_keysyms(text).map_err(WaylandError::Unsupported)?;
        let _one = self.lock.lock().await;
        for k in keysyms {
            self.key(k, true).await?;
            self.key(k, false).await?;
        }
        Ok(())
    }
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
