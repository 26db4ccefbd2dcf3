//! One persistent Chrome DevTools Protocol connection to a browser: a
//! WebSocket, commands matched to their responses by id, flattened target
//! sessions (`sessionId` on each message), events fanned out to whoever
//! listens. Every command has a deadline; a closed socket fails every call
//! in flight at once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::{SinkExt as _, StreamExt as _};
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

/// The first line of the exception a `Runtime.*` answer reports, if the
/// script threw.
pub(crate) fn exception_text(answer: &Value) -> Option<String> {
    let ex = answer.get("exceptionDetails")?;
    let text = ex
        .get("exception")
        .and_then(|e| e.get("description"))
        .and_then(Value::as_str)
        .or_else(|| ex.get("text").and_then(Value::as_str))
        .unwrap_or("exception");
    Some(text.lines().next().unwrap_or(text).to_owned())
}

/// Whether a CDP error message says the execution context no longer
/// exists (its document or its whole page is gone).
pub(crate) fn context_gone(message: &str) -> bool {
    let m = message.to_lowercase();
    m.contains("cannot find context")
        || m.contains("context was destroyed")
        || m.contains("context with specified id")
        || m.contains("inspected target navigated")
        || m.contains("no target with given id")
        || m.contains("target closed")
}

/// Deadline of one command unless the caller gives another.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// Deadline of the WebSocket handshake.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Errors of the CDP connection. Each says what to do next.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CdpError {
    /// No browser answers at the address.
    #[error("cannot reach the browser at {url}: {reason}; start one with `cup browser start` or pass --cdp-port")]
    Connect {
        /// Where we tried.
        url: String,
        /// Why it failed.
        reason: String,
    },
    /// The browser answered a command with an error.
    #[error("{method}: {message} (CDP error {code})")]
    Protocol {
        /// The command.
        method: String,
        /// CDP's error code.
        code: i64,
        /// CDP's message.
        message: String,
    },
    /// No answer within the deadline.
    #[error("{method}: the browser did not answer within {ms} ms")]
    Timeout {
        /// The command.
        method: String,
        /// The deadline.
        ms: u128,
    },
    /// The connection is gone (the browser exited or closed it).
    #[error("the browser connection closed ({0}); restart the browser or reconnect")]
    Closed(String),
}

/// An event from the browser.
#[derive(Debug, Clone)]
pub struct Event {
    /// E.g. `Page.javascriptDialogOpening`.
    pub method: String,
    /// Its parameters.
    pub params: Value,
    /// The target session it came from (`None`: the browser).
    pub session: Option<String>,
}

type Reply = Result<Value, CdpError>;

struct Inner {
    out: mpsc::UnboundedSender<Message>,
    pending: Mutex<HashMap<u64, (String, oneshot::Sender<Reply>)>>,
    next_id: AtomicU64,
    events: broadcast::Sender<Event>,
    closed: Mutex<Option<String>>,
}

impl Inner {
    fn fail_all(&self, why: &str) {
        *self.closed.lock().unwrap_or_else(PoisonError::into_inner) = Some(why.to_owned());
        let pending: Vec<_> = self
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .collect();
        for (_, (_, tx)) in pending {
            let _ = tx.send(Err(CdpError::Closed(why.to_owned())));
        }
    }
}

/// A connection to one browser (cheap to clone).
#[derive(Clone)]
pub struct Cdp {
    inner: Arc<Inner>,
    url: String,
}

impl std::fmt::Debug for Cdp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cdp").field("url", &self.url).finish()
    }
}

/// The largest CDP message cup reads (a whole page's accessibility tree
/// or DOM can pass tens of megabytes).
const MAX_MESSAGE: usize = 256 << 20;

impl Cdp {
    /// Opens the WebSocket at `ws_url` (the browser's
    /// `webSocketDebuggerUrl`).
    ///
    /// # Errors
    ///
    /// [`CdpError::Connect`] when nothing answers in time.
    pub async fn connect(ws_url: &str) -> Result<Cdp, CdpError> {
        // Chromium's answers to whole-page reads pass tungstenite's
        // default 16 MiB on large documents (getFullAXTree of rustdoc's
        // `Vec` page is 19.6 MB): allow 256 MiB.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .max_message_size(Some(MAX_MESSAGE))
            .max_frame_size(Some(MAX_MESSAGE));
        let connect = tokio_tungstenite::connect_async_with_config(ws_url, Some(config), false);
        let (stream, _) = tokio::time::timeout(CONNECT_TIMEOUT, connect)
            .await
            .map_err(|_| CdpError::Connect {
                url: ws_url.to_owned(),
                reason: format!("no handshake within {} s", CONNECT_TIMEOUT.as_secs()),
            })?
            .map_err(|e| CdpError::Connect {
                url: ws_url.to_owned(),
                reason: e.to_string(),
            })?;
        let (mut sink, mut source) = stream.split();
        let (out, mut out_rx) = mpsc::unbounded_channel::<Message>();
        let (events, _) = broadcast::channel(4096);
        let inner = Arc::new(Inner {
            out,
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            events,
            closed: Mutex::new(None),
        });
        tokio::spawn(async move {
            while let Some(message) = out_rx.recv().await {
                if sink.send(message).await.is_err() {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let reader = Arc::downgrade(&inner);
        tokio::spawn(async move {
            let why = loop {
                let Some(next) = source.next().await else {
                    break "end of stream".to_owned();
                };
                let Some(inner) = reader.upgrade() else {
                    return;
                };
                match next {
                    Ok(Message::Text(text)) => dispatch(&inner, text.as_str()),
                    Ok(Message::Binary(bytes)) => {
                        if let Ok(text) = std::str::from_utf8(&bytes) {
                            dispatch(&inner, text);
                        }
                    }
                    Ok(Message::Close(_)) => break "closed by the browser".to_owned(),
                    Ok(_) => {}
                    Err(e) => break e.to_string(),
                }
            };
            if let Some(inner) = reader.upgrade() {
                inner.fail_all(&why);
            }
        });
        Ok(Cdp {
            inner,
            url: ws_url.to_owned(),
        })
    }

    /// Whether the connection still stands.
    pub fn is_open(&self) -> bool {
        self.inner
            .closed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none()
    }

    /// The WebSocket URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Listens to events from now on.
    pub fn events(&self) -> broadcast::Receiver<Event> {
        self.inner.events.subscribe()
    }

    /// Sends `method` (to the target `session`, or the browser) and waits
    /// up to [`CALL_TIMEOUT`] for its result.
    ///
    /// # Errors
    ///
    /// The browser's error, a timeout, or a closed connection.
    pub async fn call(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, CdpError> {
        self.call_within(session, method, params, CALL_TIMEOUT)
            .await
    }

    /// [`Cdp::call`] with its own deadline.
    ///
    /// # Errors
    ///
    /// The browser's error, a timeout, or a closed connection.
    pub async fn call_within(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
        deadline: Duration,
    ) -> Result<Value, CdpError> {
        if let Some(why) = self
            .inner
            .closed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
        {
            return Err(CdpError::Closed(why));
        }
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            message["sessionId"] = Value::String(s.to_owned());
        }
        let (tx, rx) = oneshot::channel();
        self.inner
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, (method.to_owned(), tx));
        if self
            .inner
            .out
            .send(Message::Text(message.to_string().into()))
            .is_err()
        {
            self.forget(id);
            return Err(CdpError::Closed("the writer stopped".into()));
        }
        match tokio::time::timeout(deadline, rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(CdpError::Closed("the reader stopped".into())),
            Err(_) => {
                self.forget(id);
                Err(CdpError::Timeout {
                    method: method.to_owned(),
                    ms: deadline.as_millis(),
                })
            }
        }
    }

    fn forget(&self, id: u64) {
        self.inner
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
    }
}

/// Routes one incoming message: a response to its caller, an event to the
/// listeners.
fn dispatch(inner: &Inner, text: &str) {
    let Ok(mut message) = serde_json::from_str::<Value>(text) else {
        tracing::debug!("CDP: unreadable message ({} bytes)", text.len());
        return;
    };
    if let Some(id) = message.get("id").and_then(Value::as_u64) {
        let waiter = inner
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
        let Some((method, tx)) = waiter else {
            return;
        };
        let reply = match message.get("error") {
            Some(error) => Err(CdpError::Protocol {
                method,
                code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
                message: error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error")
                    .to_owned(),
            }),
            // Taken, not cloned: results can be megabytes.
            None => Ok(message
                .as_object_mut()
                .and_then(|m| m.remove("result"))
                .unwrap_or(Value::Null)),
        };
        let _ = tx.send(reply);
        return;
    }
    if let Some(method) = message.get("method").and_then(Value::as_str) {
        let _ = inner.events.send(Event {
            method: method.to_owned(),
            params: message.get("params").cloned().unwrap_or(Value::Null),
            session: message
                .get("sessionId")
                .and_then(Value::as_str)
                .map(str::to_owned),
        });
    }
}
