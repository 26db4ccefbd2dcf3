//! A browser over one [`Cdp`] connection: its page targets (never
//! `browser_ui` or workers), a flattened session per target (attached once,
//! kept), and which page is in the foreground (focused and visible, not
//! merely the first).

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex, PoisonError};

use serde_json::{json, Value};
use tokio::sync::Mutex;

use crate::cdp::{Cdp, CdpError};
use crate::endpoint::Endpoint;

/// A target of the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetInfo {
    /// `targetId` (for iframes, also their frame id).
    pub id: String,
    /// `page`, `iframe`, ...
    pub kind: String,
    /// Title.
    pub title: String,
    /// URL.
    pub url: String,
}

/// A connected browser.
#[derive(Debug)]
pub struct Browser {
    cdp: Cdp,
    endpoint: Endpoint,
    sessions: Mutex<HashMap<String, String>>,
    /// Open JavaScript dialogs (alert, confirm, prompt, beforeunload) by
    /// session: while one is open, the page runs no script.
    dialogs: Arc<StdMutex<HashMap<String, String>>>,
    /// cup's isolated world in each frame walked.
    worlds: crate::walker::world::Worlds,
}

/// The JavaScript that tells whether a page is visible and focused.
const FOREGROUND_PROBE: &str =
    "({visible: document.visibilityState === 'visible', focused: document.hasFocus()})";

impl Browser {
    /// Connects to the browser at `endpoint`.
    ///
    /// # Errors
    ///
    /// [`CdpError::Connect`] when no browser answers there.
    pub async fn connect(endpoint: &Endpoint) -> Result<Browser, CdpError> {
        let ws = endpoint.websocket_url().await?;
        let cdp = Cdp::connect(&ws).await?;
        let dialogs: Arc<StdMutex<HashMap<String, String>>> = Arc::default();
        let mut events = cdp.events();
        let seen = Arc::downgrade(&dialogs);
        tokio::spawn(async move {
            loop {
                let event = match events.recv().await {
                    Ok(e) => e,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => return,
                };
                let Some(dialogs) = seen.upgrade() else {
                    return;
                };
                let Some(session) = event.session.clone() else {
                    continue;
                };
                let mut open = dialogs.lock().unwrap_or_else(PoisonError::into_inner);
                match event.method.as_str() {
                    "Page.javascriptDialogOpening" => {
                        let p = &event.params;
                        let s = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or_default();
                        open.insert(session, format!("{} {:?}", s("type"), s("message")));
                    }
                    "Page.javascriptDialogClosed" => {
                        open.remove(&session);
                    }
                    _ => {}
                }
            }
        });
        Ok(Browser {
            cdp,
            endpoint: endpoint.clone(),
            sessions: Mutex::new(HashMap::new()),
            dialogs,
            worlds: crate::walker::world::Worlds::default(),
        })
    }

    /// cup's isolated worlds (one per frame walked).
    pub fn worlds(&self) -> &crate::walker::world::Worlds {
        &self.worlds
    }

    /// The connection.
    pub fn cdp(&self) -> &Cdp {
        &self.cdp
    }

    /// Where the browser is.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Every target, in the browser's order.
    ///
    /// # Errors
    ///
    /// When the browser does not answer.
    pub async fn targets(&self) -> Result<Vec<TargetInfo>, CdpError> {
        let result = self.cdp.call(None, "Target.getTargets", json!({})).await?;
        Ok(result
            .get("targetInfos")
            .and_then(Value::as_array)
            .map(|infos| {
                infos
                    .iter()
                    .filter_map(|t| {
                        let s = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or_default();
                        Some(TargetInfo {
                            id: t.get("targetId")?.as_str()?.to_owned(),
                            kind: s("type").to_owned(),
                            title: s("title").to_owned(),
                            url: s("url").to_owned(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    /// The page targets (tabs), without the browser's own UI.
    ///
    /// # Errors
    ///
    /// When the browser does not answer.
    pub async fn pages(&self) -> Result<Vec<TargetInfo>, CdpError> {
        Ok(self
            .targets()
            .await?
            .into_iter()
            .filter(|t| t.kind == "page" && !t.url.starts_with("devtools://"))
            .collect())
    }

    /// The flattened session of `target_id` (attached on first use).
    ///
    /// # Errors
    ///
    /// When the target is gone.
    pub async fn session(&self, target_id: &str) -> Result<String, CdpError> {
        let mut sessions = self.sessions.lock().await;
        if let Some(s) = sessions.get(target_id) {
            return Ok(s.clone());
        }
        let result = self
            .cdp
            .call(
                None,
                "Target.attachToTarget",
                json!({"targetId": target_id, "flatten": true}),
            )
            .await?;
        let session = result
            .get("sessionId")
            .and_then(Value::as_str)
            .ok_or_else(|| CdpError::Protocol {
                method: "Target.attachToTarget".into(),
                code: 0,
                message: "no sessionId in the answer".into(),
            })?
            .to_owned();
        // Page events say when a JavaScript dialog opens or closes.
        if let Err(e) = self
            .cdp
            .call(Some(&session), "Page.enable", json!({}))
            .await
        {
            tracing::debug!(error = %e, "Page.enable");
        }
        sessions.insert(target_id.to_owned(), session.clone());
        Ok(session)
    }

    /// Calls `method` in the session of `target_id`, attaching again once if
    /// the kept session is gone (the target navigated across processes).
    ///
    /// # Errors
    ///
    /// The browser's error.
    pub async fn call(
        &self,
        target_id: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, CdpError> {
        let session = self.session(target_id).await?;
        match self.cdp.call(Some(&session), method, params.clone()).await {
            Err(CdpError::Protocol { message, .. })
                if message.contains("ession") && message.contains("not found") =>
            {
                self.sessions.lock().await.remove(target_id);
                let session = self.session(target_id).await?;
                self.cdp.call(Some(&session), method, params).await
            }
            other => other,
        }
    }

    /// The JavaScript dialog open on `target_id` (`alert "Saved"`), if any.
    pub async fn dialog(&self, target_id: &str) -> Option<String> {
        let session = self.sessions.lock().await.get(target_id).cloned()?;
        self.dialogs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&session)
            .cloned()
    }

    /// Accepts (`true`: OK, Enter) or dismisses (`false`: Cancel, Escape)
    /// the JavaScript dialog of `target_id`.
    ///
    /// # Errors
    ///
    /// When there is no dialog or the browser refuses.
    pub async fn close_dialog(&self, target_id: &str, accept: bool) -> Result<(), CdpError> {
        self.call(
            target_id,
            "Page.handleJavaScriptDialog",
            json!({"accept": accept}),
        )
        .await?;
        // Closed now: do not wait for the event to say so (the next call
        // may come first).
        if let Some(session) = self.sessions.lock().await.get(target_id).cloned() {
            self.dialogs
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&session);
        }
        Ok(())
    }

    /// Evaluates `expression` in the page and returns its value (JSON).
    ///
    /// # Errors
    ///
    /// The browser's error, or the page's exception as a
    /// [`CdpError::Protocol`] with the exception text.
    pub async fn evaluate(&self, target_id: &str, expression: &str) -> Result<Value, CdpError> {
        let result = self
            .call(
                target_id,
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            )
            .await?;
        if let Some(message) = crate::cdp::exception_text(&result) {
            return Err(CdpError::Protocol {
                method: "Runtime.evaluate".into(),
                code: 0,
                message,
            });
        }
        Ok(result
            .get("result")
            .and_then(|r| r.get("value"))
            .cloned()
            .unwrap_or(Value::Null))
    }

    /// The index in `pages` of the foreground page: focused and visible,
    /// else visible, else the first. `None` when there is no page.
    pub async fn foreground(&self, pages: &[TargetInfo]) -> Option<usize> {
        if pages.len() <= 1 {
            return (!pages.is_empty()).then_some(0);
        }
        let probes = pages.iter().map(|p| self.evaluate(&p.id, FOREGROUND_PROBE));
        let answers = futures::future::join_all(probes).await;
        let score = |v: &Result<Value, CdpError>| match v {
            Ok(v) => {
                let flag = |k: &str| v.get(k).and_then(Value::as_bool).unwrap_or(false);
                u8::from(flag("visible")) * 2 + u8::from(flag("focused"))
            }
            Err(_) => 0,
        };
        let best = answers.iter().map(score).max().unwrap_or(0);
        answers.iter().position(|a| score(a) == best)
    }
}
