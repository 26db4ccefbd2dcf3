//! The WebDriverAgent client: runs a [`Call`] against WDA's base URL
//! (`http://127.0.0.1:8100`) under a deadline, makes the session on first
//! use (`POST /session`, once; again only when WDA says it is gone) and
//! turns every failure into one line that says what to do.
//!
//! Reads that WDA serves without a session (source, screen, active app,
//! screenshot, status) are sent without one, so looking at the screen never
//! ends another client's session (`POST /session` replaces WDA's only
//! session); touches, keys and launches use the session.

use std::time::Duration;

use cup::AdapterError;
use serde_json::Value;
use tokio::sync::Mutex;

use crate::facts::unwrap_reply;
use crate::http::{self, HttpError};
use crate::plan::{self, Call, Method};

/// The URL WDA listens on by default (its port forwarded to this machine).
pub const DEFAULT_URL: &str = "http://127.0.0.1:8100";
/// WDA's port when the URL gives none.
pub const DEFAULT_PORT: u16 = 8100;
/// The deadline of one request unless set otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);

/// Why a WDA request failed; each message is one line saying what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WdaError {
    /// The URL cannot be used.
    #[error(
        "'{url}' is not a WebDriverAgent URL: {why}; give http://HOST:PORT, e.g. {DEFAULT_URL}"
    )]
    BadUrl {
        /// As given.
        url: String,
        /// What is wrong.
        why: String,
    },
    /// Nothing answers there.
    #[error("no WebDriverAgent answers at {url} ({detail}); start WDA on the device (xcodebuild test-without-building … or go-ios) and forward port 8100")]
    Unreachable {
        /// The base URL.
        url: String,
        /// The connection error.
        detail: String,
    },
    /// WDA took longer than the deadline.
    #[error("WebDriverAgent at {url} did not answer {request} within {} s; it may be busy (a long animation, a huge screen) or hung: try again, or restart WDA", secs(*.timeout))]
    Timeout {
        /// The base URL.
        url: String,
        /// The request (`GET /source`).
        request: String,
        /// The deadline.
        timeout: Duration,
    },
    /// WDA answered with an error.
    #[error("WebDriverAgent refused {request}: {message}")]
    Refused {
        /// The request.
        request: String,
        /// WDA's error code (`invalid session id`, `unknown error`, ...).
        error: String,
        /// Its code and first line of message.
        message: String,
        /// The HTTP status.
        status: u16,
    },
    /// The connection broke, or the answer is not WDA's.
    #[error("WebDriverAgent at {url} broke off {request}: {detail}; is WDA still running (and is this port WDA)?")]
    Broken {
        /// The base URL.
        url: String,
        /// The request.
        request: String,
        /// What happened.
        detail: String,
    },
}

fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 && s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s:.1}")
    }
}

impl WdaError {
    /// WDA no longer knows the session (restarted, or another client made
    /// its own).
    pub fn is_invalid_session(&self) -> bool {
        match self {
            WdaError::Refused {
                error,
                message,
                status,
                ..
            } => {
                error == "invalid session id"
                    || (*status == 404 && message.to_lowercase().contains("session does not exist"))
            }
            _ => false,
        }
    }
}

impl From<WdaError> for AdapterError {
    fn from(e: WdaError) -> Self {
        match e {
            WdaError::BadUrl { .. } => AdapterError::Invalid(e.to_string()),
            WdaError::Unreachable { .. } => AdapterError::Unavailable(e.to_string()),
            _ => AdapterError::Platform(e.to_string()),
        }
    }
}

/// Host, port and path prefix of a WDA URL (`http://` optional, port 8100
/// when absent).
///
/// # Errors
///
/// Another scheme than `http`, no host, or a bad port.
pub fn parse_url(url: &str) -> Result<(String, u16, String), WdaError> {
    let bad = |why: &str| WdaError::BadUrl {
        url: url.to_owned(),
        why: why.to_owned(),
    };
    let u = url.trim();
    let rest = match u.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => rest,
        Some(_) => return Err(bad("WebDriverAgent serves plain http")),
        None => u,
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (h, after) = v6.split_once(']').ok_or_else(|| bad("an unclosed '['"))?;
        (h, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err(bad("no host"));
    }
    let port = match port {
        Some(p) => p
            .parse::<u16>()
            .ok()
            .filter(|p| *p > 0)
            .ok_or_else(|| bad("a bad port"))?,
        None => DEFAULT_PORT,
    };
    Ok((host.to_owned(), port, path.trim_end_matches('/').to_owned()))
}

/// The session id of `POST /session`'s reply (`value.sessionId`, or the
/// top-level `sessionId` of older WDA).
pub fn session_id(reply: &Value) -> Option<String> {
    [
        reply.get("value").and_then(|v| v.get("sessionId")),
        reply.get("sessionId"),
    ]
    .into_iter()
    .flatten()
    .find_map(|v| v.as_str().filter(|s| !s.is_empty()).map(str::to_owned))
}

/// The error a WDA reply carries, if any: W3C (`value.error`,
/// `value.message`) or the older JSONWP (`status` not 0).
fn reply_error(reply: &Value, status: u16) -> Option<(String, String)> {
    let value = reply.get("value");
    if let Some(error) = value.and_then(|v| v.get("error")).and_then(Value::as_str) {
        let message = value
            .and_then(|v| v.get("message"))
            .and_then(Value::as_str)
            .unwrap_or("");
        return Some((error.to_owned(), message.to_owned()));
    }
    let legacy = reply
        .get("status")
        .and_then(Value::as_i64)
        .filter(|s| *s != 0);
    if let Some(code) = legacy {
        let message = value
            .and_then(|v| {
                v.as_str()
                    .or_else(|| v.get("message").and_then(Value::as_str))
            })
            .unwrap_or("");
        return Some((format!("status {code}"), message.to_owned()));
    }
    (status >= 400).then(|| (format!("HTTP {status}"), String::new()))
}

/// The description inside an `NSError`'s own description, which most of
/// WDA's errors carry as their message (`FBResponseWithUnknownError` sends
/// `error.description`, FBResponsePayload.m; its errors are built by
/// FBErrorBuilder.m): `Error Domain=com.facebook.WebDriverAgent Code=1
/// "The button 'x' is not supported…" UserInfo={NSLocalizedDescription=…}`
/// gives `The button 'x' is not supported…`.
fn ns_error_description(message: &str) -> Option<&str> {
    let rest = message.trim_start().strip_prefix("Error Domain=")?;
    let (_, quoted) = rest.split_once(" \"")?;
    // The first `" UserInfo=`: an underlying error nests another after it.
    let end = quoted.find("\" UserInfo=").or_else(|| quoted.rfind('"'))?;
    Some(&quoted[..end])
}

/// `error: first line of message` (of an NSError's description: all of
/// it, on one line), cut at 300 characters.
fn one_line(error: &str, message: &str) -> String {
    let described = ns_error_description(message)
        .map(|d| cup_protocol::text::one_line(d, 300))
        .filter(|d| !d.is_empty());
    let first = described.as_deref().unwrap_or_else(|| {
        message
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("")
    });
    let text = if first.is_empty() {
        error.to_owned()
    } else {
        format!("{error}: {first}")
    };
    cup_protocol::text::cap(&text, 300)
}

/// A WebDriverAgent endpoint and its session.
#[derive(Debug)]
pub struct WdaClient {
    url: String,
    host: String,
    port: u16,
    prefix: String,
    timeout: Duration,
    session: Mutex<Option<String>>,
}

impl WdaClient {
    /// A client for the WDA at `url` (no request is made yet).
    ///
    /// # Errors
    ///
    /// The URL is not `http://HOST[:PORT]`.
    pub fn new(url: &str) -> Result<WdaClient, WdaError> {
        let (host, port, prefix) = parse_url(url)?;
        Ok(WdaClient {
            url: format!("http://{}{prefix}", http::authority(&host, port)),
            host,
            port,
            prefix,
            timeout: DEFAULT_TIMEOUT,
            session: Mutex::new(None),
        })
    }

    /// The same client with `timeout` as the deadline of each request.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> WdaClient {
        self.timeout = timeout;
        self
    }

    /// The base URL (`http://127.0.0.1:8100`).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The deadline of each request.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// One request, its whole JSON reply (errors turned into [`WdaError`]).
    async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        request: &str,
        timeout: Duration,
    ) -> Result<Value, WdaError> {
        let bytes = body.map(|b| b.to_string().into_bytes());
        let full_path = format!("{}{path}", self.prefix);
        let broken = |detail: String| WdaError::Broken {
            url: self.url.clone(),
            request: request.to_owned(),
            detail,
        };
        let exchange = http::exchange(
            &self.host,
            self.port,
            method.name(),
            &full_path,
            bytes.as_deref(),
        );
        let reply = match tokio::time::timeout(timeout, exchange).await {
            Err(_) => {
                return Err(WdaError::Timeout {
                    url: self.url.clone(),
                    request: request.to_owned(),
                    timeout,
                })
            }
            Ok(Err(HttpError::Connect(e))) => {
                return Err(WdaError::Unreachable {
                    url: self.url.clone(),
                    detail: e.to_string(),
                })
            }
            Ok(Err(e)) => return Err(broken(e.to_string())),
            Ok(Ok(r)) => r,
        };
        let json: Value = serde_json::from_slice(&reply.body).map_err(|_| {
            broken(format!(
                "HTTP {} with a body that is not JSON ({})",
                reply.status,
                cup_protocol::text::one_line(&String::from_utf8_lossy(&reply.body), 60)
            ))
        })?;
        if let Some((error, message)) = reply_error(&json, reply.status) {
            return Err(WdaError::Refused {
                request: request.to_owned(),
                message: one_line(&error, &message),
                error,
                status: reply.status,
            });
        }
        Ok(json)
    }

    /// The session's id, made on first use.
    ///
    /// # Errors
    ///
    /// WDA cannot be reached or refuses a session.
    pub async fn session(&self) -> Result<String, WdaError> {
        let mut slot = self.session.lock().await;
        if let Some(id) = slot.as_ref() {
            return Ok(id.clone());
        }
        let call = plan::new_session();
        let reply = self
            .send(
                call.method,
                &call.path,
                call.body.as_ref(),
                &call.describe(),
                self.timeout,
            )
            .await?;
        let id = session_id(&reply).ok_or_else(|| WdaError::Broken {
            url: self.url.clone(),
            request: call.describe(),
            detail: "the reply has no sessionId".to_owned(),
        })?;
        tracing::debug!(session = %id, "WebDriverAgent session");
        *slot = Some(id.clone());
        Ok(id)
    }

    /// The session id, if one was made.
    pub async fn current_session(&self) -> Option<String> {
        self.session.lock().await.clone()
    }

    async fn forget(&self, id: &str) {
        let mut slot = self.session.lock().await;
        if slot.as_deref() == Some(id) {
            *slot = None;
        }
    }

    /// Runs `call` within the client's deadline and returns its `value`.
    ///
    /// # Errors
    ///
    /// See [`WdaError`].
    pub async fn call(&self, call: &Call) -> Result<Value, WdaError> {
        self.call_within(call, self.timeout).await
    }

    /// Runs `call` within `timeout` and returns its `value` (without WDA's
    /// `{"value": ..., "sessionId": ...}` wrapper). A session route whose
    /// session WDA no longer knows is sent once more in a new session.
    ///
    /// # Errors
    ///
    /// See [`WdaError`].
    pub async fn call_within(&self, call: &Call, timeout: Duration) -> Result<Value, WdaError> {
        let request = call.describe();
        if !call.session {
            return self
                .send(
                    call.method,
                    &call.path,
                    call.body.as_ref(),
                    &request,
                    timeout,
                )
                .await
                .map(unwrap_reply);
        }
        let id = self.session().await?;
        let path = format!("/session/{id}{}", call.path);
        match self
            .send(call.method, &path, call.body.as_ref(), &request, timeout)
            .await
        {
            Err(e) if e.is_invalid_session() => {
                tracing::debug!("WebDriverAgent forgot session {id}; making a new one");
                self.forget(&id).await;
                let id = self.session().await?;
                let path = format!("/session/{id}{}", call.path);
                self.send(call.method, &path, call.body.as_ref(), &request, timeout)
                    .await
                    .map(unwrap_reply)
            }
            other => other.map(unwrap_reply),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn urls() {
        assert_eq!(
            parse_url("http://127.0.0.1:8100").expect("url"),
            ("127.0.0.1".into(), 8100, String::new())
        );
        assert_eq!(
            parse_url("localhost").expect("url"),
            ("localhost".into(), 8100, String::new())
        );
        assert_eq!(
            parse_url("http://[::1]:9100/wda/").expect("url"),
            ("::1".into(), 9100, "/wda".into())
        );
        for bad in [
            "https://x:8100",
            "http://:8100",
            "http://x:port",
            "http://x:0",
        ] {
            let e = parse_url(bad).expect_err(bad);
            assert!(e.to_string().contains("http://HOST:PORT"), "{e}");
        }
        let c = WdaClient::new("[::1]:8100").expect("client");
        assert_eq!(c.url(), "http://[::1]:8100");
    }

    #[test]
    fn sessions_and_errors_in_replies() {
        assert_eq!(
            session_id(&json!({"value": {"sessionId": "A", "capabilities": {}}, "sessionId": "A"})),
            Some("A".into())
        );
        assert_eq!(
            session_id(&json!({"value": {}, "sessionId": "B"})),
            Some("B".into())
        );
        assert_eq!(session_id(&json!({"value": null, "sessionId": null})), None);
        assert_eq!(
            reply_error(
                &json!({"value": {"error": "no such alert", "message": "An attempt was made to operate on a modal dialog when one was not open\n  at …", "traceback": ""}}),
                404
            ),
            Some((
                "no such alert".into(),
                "An attempt was made to operate on a modal dialog when one was not open\n  at …"
                    .into()
            ))
        );
        assert_eq!(
            reply_error(&json!({"status": 13, "value": "boom"}), 200),
            Some(("status 13".into(), "boom".into()))
        );
        assert_eq!(
            reply_error(&json!({"value": null, "sessionId": "S"}), 200),
            None
        );
        assert_eq!(
            one_line("unknown error", "first\nsecond"),
            "unknown error: first"
        );
        // An NSError's description, as FBResponseWithUnknownError sends it
        // (FBResponsePayload.m, FBErrorBuilder.m), gives its own text.
        assert_eq!(
            one_line(
                "unknown error",
                "Error Domain=com.facebook.WebDriverAgent Code=1 \"Only pointer type 'touch' is supported. 'mouse' is given instead for action with id 'finger1'\" UserInfo={NSLocalizedDescription=Only pointer type 'touch' is supported. 'mouse' is given instead for action with id 'finger1'}"
            ),
            "unknown error: Only pointer type 'touch' is supported. 'mouse' is given instead for action with id 'finger1'"
        );
        assert_eq!(ns_error_description("Error Domain=x"), None);
        let gone = WdaError::Refused {
            request: "POST /session/{id}/actions".into(),
            error: "invalid session id".into(),
            message: "invalid session id: Session does not exist".into(),
            status: 404,
        };
        assert!(gone.is_invalid_session());
        assert_eq!(
            gone.to_string(),
            "WebDriverAgent refused POST /session/{id}/actions: invalid session id: Session does not exist"
        );
        let late = WdaError::Timeout {
            url: DEFAULT_URL.into(),
            request: "GET /source".into(),
            timeout: Duration::from_millis(300),
        };
        assert!(late.to_string().contains("within 0.3 s"), "{late}");
        assert!(matches!(
            AdapterError::from(WdaError::Unreachable {
                url: DEFAULT_URL.into(),
                detail: "refused".into()
            }),
            AdapterError::Unavailable(_)
        ));
    }
}
