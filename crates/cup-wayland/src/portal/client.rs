//! The transport of [`super`]: the RemoteDesktop conversation
//! with `org.freedesktop.portal.Desktop` on the session bus. Each request
//! subscribes to its `Response` first (the path is known before the
//! call), calls under [`crate::mutter::TIMEOUT`], then waits for the
//! answer: 2 s for the set-up steps, `consent` for `Start` (a person may
//! have to answer a dialog). The session lives as long as cup's
//! connection.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures::StreamExt as _;
use zbus::zvariant::{OwnedObjectPath, OwnedValue, Value};
use zbus::Connection;

use super::{self as portal, Started, Stream};
use crate::client::WaylandError;
use crate::mutter::TIMEOUT;

/// Options of a portal call.
type Options = HashMap<&'static str, Value<'static>>;
/// Results of a `Response`.
type Results = HashMap<String, OwnedValue>;

fn bus(what: &str, e: impl std::fmt::Display) -> WaylandError {
    WaylandError::Bus(format!("desktop portal: {what}: {e}"))
}

/// A fresh handle token (`cupN`, unique in this process).
fn token() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!(
        "cup{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Calls `method` of `interface` with `body` (whose options carry
/// `token` as `handle_token`) and returns its `Response`'s results,
/// waiting up to `wait` for it.
async fn request<B>(
    conn: &Connection,
    interface: &str,
    method: &str,
    body: &B,
    token: &str,
    (what, wait): (&str, Duration),
) -> Result<Results, WaylandError>
where
    B: serde::Serialize + zbus::zvariant::DynamicType,
{
    let unique = conn
        .unique_name()
        .map(ToString::to_string)
        .ok_or_else(|| bus(what, "no unique name on the session bus"))?;
    let path = portal::request_path(&unique, token);
    let rule = zbus::MatchRule::builder()
        .msg_type(zbus::message::Type::Signal)
        .interface(portal::REQUEST)
        .and_then(|b| b.member("Response"))
        .and_then(|b| b.path(path.clone()))
        .map_err(|e| bus(what, e))?
        .build();
    let mut responses = tokio::time::timeout(
        TIMEOUT,
        zbus::MessageStream::for_match_rule(rule, conn, Some(4)),
    )
    .await
    .map_err(|_| {
        bus(
            what,
            "the session bus did not take the subscription within 2 s",
        )
    })?
    .map_err(|e| bus(what, e))?;
    let call = conn.call_method(
        Some(portal::DESKTOP),
        portal::PATH,
        Some(interface),
        method,
        body,
    );
    tokio::time::timeout(TIMEOUT, call)
        .await
        .map_err(|_| bus(what, "no answer within 2 s"))?
        .map_err(|e| {
            let text = e.to_string();
            if text.contains("AccessDenied") {
                WaylandError::Unsupported(format!(
                    "unsupported: the desktop portal refused cup ({what}: {text}); run cup as the desktop's user (the portal tells its callers apart through /proc)"
                ))
            } else if text.contains("ServiceUnknown") || text.contains("UnknownMethod") {
                WaylandError::Unsupported(format!(
                    "unsupported: input through the desktop portal ({what}): {text}; install xdg-desktop-portal and the desktop's backend (xdg-desktop-portal-gnome, -kde or -wlr)"
                ))
            } else {
                bus(what, text)
            }
        })?;
    let message = tokio::time::timeout(wait, responses.next())
        .await
        .map_err(|_| {
            WaylandError::Unsupported(format!(
                "unsupported: the desktop portal gave no answer to {what} within {} s (a dialog may be waiting for the desktop's user to allow cup)",
                wait.as_secs()
            ))
        })?
        .ok_or_else(|| bus(what, "the session bus closed"))?
        .map_err(|e| bus(what, e))?;
    let (code, results): (u32, Results) = message.body().deserialize().map_err(|e| bus(what, e))?;
    portal::response(code, what).map_err(WaylandError::Unsupported)?;
    Ok(results)
}

/// The facts of a `Start` response.
fn started_of(results: &Results) -> Started {
    let devices = results
        .get("devices")
        .and_then(|v| u32::try_from(v).ok())
        .unwrap_or(0);
    let restore_token = results
        .get("restore_token")
        .and_then(|v| String::try_from(v.try_clone().ok()?).ok());
    let streams = results
        .get("streams")
        .and_then(|v| <Vec<(u32, HashMap<String, OwnedValue>)>>::try_from(v.try_clone().ok()?).ok())
        .unwrap_or_default()
        .into_iter()
        .map(|(node, props)| {
            let pair = |key: &str| {
                props
                    .get(key)
                    .and_then(|v| <(i32, i32)>::try_from(v.try_clone().ok()?).ok())
            };
            Stream {
                node,
                position: pair("position"),
                size: pair("size"),
            }
        })
        .collect();
    Started {
        devices,
        streams,
        restore_token,
    }
}

/// Runs the conversation to a started session: its handle and what
/// `Start` granted. The new restore token is kept in `token_file`.
pub async fn start(
    conn: &Connection,
    token_file: &Path,
    consent: Duration,
) -> Result<(OwnedObjectPath, Started), WaylandError> {
    let quick = TIMEOUT;
    let t = token();
    let options: Options = HashMap::from([
        ("handle_token", Value::from(t.clone())),
        ("session_handle_token", Value::from(token())),
    ]);
    let created = request(
        conn,
        portal::REMOTE_DESKTOP,
        "CreateSession",
        &(options,),
        &t,
        ("creating a remote-desktop session", quick),
    )
    .await?;
    let handle = created
        .get("session_handle")
        .and_then(|v| String::try_from(v.try_clone().ok()?).ok())
        .ok_or_else(|| bus("creating a session", "its answer has no session_handle"))?;
    let session = OwnedObjectPath::try_from(handle).map_err(|e| bus("the session handle", e))?;

    let t = token();
    let mut options: Options = HashMap::from([
        ("handle_token", Value::from(t.clone())),
        ("types", Value::from(portal::KEYBOARD | portal::POINTER)),
        ("persist_mode", Value::from(portal::PERSIST_UNTIL_REVOKED)),
    ]);
    if let Some(kept) = portal::read_token(token_file) {
        options.insert("restore_token", Value::from(kept));
    }
    request(
        conn,
        portal::REMOTE_DESKTOP,
        "SelectDevices",
        &(&session, options),
        &t,
        ("choosing the keyboard and pointer", quick),
    )
    .await?;

    // Monitors as sources: absolute pointer motion is given per stream.
    let t = token();
    let options: Options = HashMap::from([
        ("handle_token", Value::from(t.clone())),
        ("types", Value::from(portal::MONITOR)),
        ("multiple", Value::from(true)),
    ]);
    request(
        conn,
        portal::SCREEN_CAST,
        "SelectSources",
        &(&session, options),
        &t,
        ("choosing the monitors", quick),
    )
    .await?;

    let t = token();
    let options: Options = HashMap::from([("handle_token", Value::from(t.clone()))]);
    let results = request(
        conn,
        portal::REMOTE_DESKTOP,
        "Start",
        &(&session, "", options),
        &t,
        ("starting the session", consent),
    )
    .await?;
    let started = started_of(&results);
    tracing::debug!(?started, "desktop portal session started");
    started.check().map_err(WaylandError::Unsupported)?;
    if let Some(kept) = &started.restore_token {
        if let Err(e) = portal::write_token(token_file, kept) {
            tracing::warn!(error = %e, file = %token_file.display(), "cannot keep the portal's restore token");
        }
    }
    Ok((session, started))
}

/// A screenshot of the whole screen through the desktop portal (no
/// dialog for a program outside a sandbox on GNOME; where the desktop
/// asks, up to `consent` for the answer): the PNG's bytes. The file the
/// portal saved is removed once read.
pub async fn screenshot(conn: &Connection, consent: Duration) -> Result<Vec<u8>, WaylandError> {
    let t = token();
    let options: Options = HashMap::from([
        ("handle_token", Value::from(t.clone())),
        ("interactive", Value::from(false)),
    ]);
    let results = request(
        conn,
        portal::SCREENSHOT,
        "Screenshot",
        &("", options),
        &t,
        ("taking a screenshot", consent),
    )
    .await?;
    let uri = results
        .get("uri")
        .and_then(|v| String::try_from(v.try_clone().ok()?).ok())
        .ok_or_else(|| bus("taking a screenshot", "its answer has no uri"))?;
    let file = portal::file_of_uri(&uri).map_err(WaylandError::Unsupported)?;
    let png = std::fs::read(&file).map_err(|e| {
        bus(
            "taking a screenshot",
            format!("reading {}: {e}", file.display()),
        )
    })?;
    if let Err(e) = std::fs::remove_file(&file) {
        tracing::warn!(error = %e, file = %file.display(), "cannot remove the portal's screenshot");
    }
    Ok(png)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Start` response as xdg-desktop-portal 1.16 sends it (the
    /// documented result keys: `devices`, `streams` with `position` and
    /// `size`, `restore_token`), built as zvariant values.
    #[test]
    fn a_start_response_is_read() {
        let props: HashMap<String, OwnedValue> = HashMap::from([
            (
                "position".to_owned(),
                OwnedValue::try_from(Value::from((0i32, 0i32))).expect("value"),
            ),
            (
                "size".to_owned(),
                OwnedValue::try_from(Value::from((1280i32, 800i32))).expect("value"),
            ),
        ]);
        let streams = vec![(42u32, props)];
        let results: Results = HashMap::from([
            (
                "devices".to_owned(),
                OwnedValue::from(portal::KEYBOARD | portal::POINTER),
            ),
            (
                "streams".to_owned(),
                OwnedValue::try_from(Value::from(streams)).expect("value"),
            ),
            (
                "restore_token".to_owned(),
                OwnedValue::try_from(Value::from("f00d")).expect("value"),
            ),
        ]);
        let started = started_of(&results);
        assert_eq!(started.devices, 3);
        assert_eq!(started.restore_token.as_deref(), Some("f00d"));
        assert_eq!(
            started.streams,
            vec![Stream {
                node: 42,
                position: Some((0, 0)),
                size: Some((1280, 800))
            }]
        );
        assert_eq!(started.stream_point(640, 400), Some((42, 640.0, 400.0)));
        assert_eq!(started_of(&HashMap::new()), Started::default());
    }
}
