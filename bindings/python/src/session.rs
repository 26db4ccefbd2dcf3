//! `cup._native.Session`: one cup Session (adapter, latest snapshot, ids)
//! behind a lock, so one object can be used from several Python threads;
//! calls from two threads run one after the other.

use std::future::Future;
use std::str::FromStr;
use std::sync::Arc;

use cup::{ActionParams, ActionResult, CaptureLimits, ShotTarget, SnapshotRequest};
use cup_protocol::compact::{Detail, PageRequest, MAX_OUTPUT_CHARS};
use cup_protocol::search::FindQuery;
use cup_protocol::{Direction, Rect, Scope};
use cup_tools::bindings;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tokio::sync::Mutex;

use crate::engine::Engine;
use crate::errors;
use crate::to_json;

/// A session on this machine's desktop or on a browser.
#[pyclass(module = "cup._native", name = "Session", frozen)]
pub struct Session {
    engine: Engine,
    inner: Arc<Mutex<cup::Session>>,
    platform: &'static str,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("platform", &self.platform)
            .finish_non_exhaustive()
    }
}

/// Parses a word of a closed set (cup's message as `ValueError`).
pub fn word<T: FromStr>(what: &str, v: &str, expected: &str) -> PyResult<T> {
    bindings::word(what, v, expected).map_err(errors::value)
}

/// A scroll direction (cup's message as `ValueError`).
pub fn direction(v: Option<&str>) -> PyResult<Option<Direction>> {
    bindings::direction(v).map_err(errors::value)
}

/// A search, its state name checked (cup's message as `ValueError`).
pub fn find_query(
    query: Option<String>,
    role: Option<String>,
    name: Option<String>,
    state: Option<String>,
    limit: usize,
) -> PyResult<FindQuery> {
    bindings::find_query(query, role, name, state, limit).map_err(errors::value)
}

impl Session {
    /// Runs `f` with the session locked, on the I/O thread.
    fn with<T, F, Fut>(&self, py: Python<'_>, f: F) -> PyResult<T>
    where
        T: Send + 'static,
        F: FnOnce(Arc<Mutex<cup::Session>>) -> Fut,
        Fut: Future<Output = PyResult<T>> + Send + 'static,
    {
        let fut = f(self.inner.clone());
        self.engine.run(py, fut)?
    }
}

#[pymethods]
impl Session {
    /// A session on `platform`: `None`/`"desktop"` (this machine), this
    /// machine's OS name, or `"web"` (a Chromium over CDP at `cdp_url`, or
    /// `cdp_host`:`cdp_port`, else `$CUP_CDP_URL` / `$CUP_CDP_HOST` /
    /// `$CUP_CDP_PORT`), `"android"` (a phone over adb: `serial`, else
    /// `$ANDROID_SERIAL`, else the only device) or `"ios"` (WebDriverAgent
    /// at `wda_url`, else `$CUP_WDA_URL`, else http://127.0.0.1:8100).
    /// Nothing is connected until the first call.
    #[new]
    #[pyo3(signature = (platform=None, cdp_url=None, cdp_host=None, cdp_port=None, serial=None, wda_url=None))]
    fn new(
        platform: Option<String>,
        cdp_url: Option<String>,
        cdp_host: Option<String>,
        cdp_port: Option<u16>,
        serial: Option<String>,
        wda_url: Option<String>,
    ) -> PyResult<Self> {
        let target = cup_tools::Target {
            platform,
            cdp_port,
            cdp_host,
            cdp_url,
            ax_source: None,
            serial,
            wda_url,
        };
        let adapter = target.adapter().map_err(errors::CupError::new_err)?;
        Ok(Session {
            engine: Engine::start()?,
            inner: Arc::new(Mutex::new(cup::Session::new(adapter))),
            platform: target.platform_name(),
        })
    }

    /// Ends the session: its I/O thread stops and its connections close; a
    /// call in progress on another thread and every later call raise
    /// `CupError`. Also done when the object is garbage-collected.
    fn close(&self, py: Python<'_>) {
        py.detach(|| self.engine.close());
    }

    /// `linux`, `windows`, `macos` or `web`.
    #[getter]
    fn platform_name(&self) -> &'static str {
        self.platform
    }

    /// Captures and keeps a snapshot; returns its compact text, or the
    /// envelope as JSON when `compact` is false. With `since` ("last", or
    /// the id a changes-only header names), the text says only what
    /// changed since that snapshot, and its elements keep their ids. With
    /// `bounds` false the lines leave their bounds off (act by id only).
    /// With `max_tokens` the text costs at most that many o200k tokens:
    /// lines are kept by need (the focus, the screen, what acts, landmarks
    /// and headings) and the rest is left out with a note saying so.
    /// `ocr` ("auto", "always", "never") says when windows are read from
    /// their pixels.
    #[pyo3(signature = (scope="foreground", app=None, max_depth=999, compact=true, detail="compact", max_chars=None, max_nodes=None, timeout_ms=None, since=None, bounds=true, max_tokens=None, ocr="auto"))]
    #[allow(clippy::too_many_arguments)]
    fn snapshot(
        &self,
        py: Python<'_>,
        scope: &str,
        app: Option<String>,
        max_depth: usize,
        compact: bool,
        detail: &str,
        max_chars: Option<usize>,
        max_nodes: Option<usize>,
        timeout_ms: Option<u64>,
        since: Option<String>,
        bounds: bool,
        max_tokens: Option<usize>,
        ocr: &str,
    ) -> PyResult<String> {
        let scope: Scope = word("scope", scope, "overview, foreground, desktop, full")?;
        let detail: Detail = word(
            "detail",
            detail,
            "compact (or standard), full, minimal, page",
        )?;
        let mut limits = CaptureLimits {
            max_depth,
            ..CaptureLimits::default()
        };
        if let Some(n) = max_nodes {
            limits.max_nodes = n;
        }
        if let Some(ms) = timeout_ms {
            limits.deadline = std::time::Duration::from_millis(ms);
        }
        let req = SnapshotRequest {
            scope,
            app,
            detail,
            max_chars: max_chars.unwrap_or(MAX_OUTPUT_CHARS),
            max_tokens: max_tokens.unwrap_or(0),
            ocr: ocr.parse().map_err(errors::value)?,
            limits,
            since,
            bounds,
        };
        self.with(py, |inner| async move {
            let mut s = inner.lock().await;
            let snap = s.snapshot(&req).await.map_err(errors::session)?;
            if compact {
                Ok(snap.text.clone())
            } else {
                to_json(&snap.envelope)
            }
        })
    }

    /// The latest snapshot's envelope as JSON, if any.
    fn last_envelope(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.with(py, |inner| async move {
            let s = inner.lock().await;
            s.last().map(|l| to_json(&l.envelope)).transpose()
        })
    }

    /// Performs a CUP action on an element of the latest snapshot; the
    /// result (with the observed effect) as JSON.
    #[pyo3(signature = (element_id, action, value=None, direction=None, amount=None))]
    fn action(
        &self,
        py: Python<'_>,
        element_id: String,
        action: String,
        value: Option<String>,
        direction: Option<String>,
        amount: Option<u32>,
    ) -> PyResult<String> {
        let params = ActionParams {
            value,
            direction: self::direction(direction.as_deref())?,
            amount,
        };
        cup::check_request(&action, &params).map_err(|e| errors::value(e.to_string()))?;
        self.with(py, |inner| async move {
            let mut s = inner.lock().await;
            let r = s
                .action(&element_id, &action, &params)
                .await
                .map_err(errors::session)?;
            to_json(&r)
        })
    }

    /// Presses a key combo; the result as JSON.
    fn press(&self, py: Python<'_>, keys: String) -> PyResult<String> {
        self.with(py, |inner| async move {
            let mut s = inner.lock().await;
            let r = s.press(&keys).await.map_err(errors::session)?;
            to_json(&r)
        })
    }

    /// Opens an app by (fuzzy) name and waits for its window; the result
    /// as JSON (a success only once the window is seen).
    fn open_app(&self, py: Python<'_>, name: String) -> PyResult<String> {
        if name.trim().is_empty() {
            return Err(errors::value(
                "App name must not be empty; give the name of an installed app, e.g. open_app(\"calculator\")",
            ));
        }
        self.with(py, |inner| async move {
            let mut s = inner.lock().await;
            let launched = s.open_app(&name).await.map_err(errors::session)?;
            to_json(&ActionResult::launched(&launched))
        })
    }

    /// Searches the latest snapshot (taking a foreground one first when
    /// there is none, in the same call); matching nodes (without children)
    /// as JSON, best first.
    #[pyo3(signature = (query=None, role=None, name=None, state=None, limit=5))]
    fn find(
        &self,
        py: Python<'_>,
        query: Option<String>,
        role: Option<String>,
        name: Option<String>,
        state: Option<String>,
        limit: usize,
    ) -> PyResult<String> {
        let q = find_query(query, role, name, state, limit)?;
        self.with(py, |inner| async move {
            let mut s = inner.lock().await;
            if s.last().is_none() {
                s.snapshot(&SnapshotRequest::default())
                    .await
                    .map_err(errors::session)?;
            }
            let nodes = s.find(&q).map_err(errors::session)?;
            to_json(&nodes)
        })
    }

    /// Waits: with `until="load"` until the page has loaded, with a
    /// search (query, role, name, state) until an element matches, each
    /// for `timeout_ms` at most (snapshots taken meanwhile are kept: the
    /// ids are the last one's); with neither, a pause of `ms`. JSON
    /// `{"ms": waited, "element": the match or null}`; a timeout raises
    /// CupError saying what it last saw.
    #[pyo3(signature = (until=None, query=None, role=None, name=None, state=None, timeout_ms=5000, ms=None))]
    #[allow(clippy::too_many_arguments)]
    fn wait(
        &self,
        py: Python<'_>,
        until: Option<String>,
        query: Option<String>,
        role: Option<String>,
        name: Option<String>,
        state: Option<String>,
        timeout_ms: u64,
        ms: Option<u64>,
    ) -> PyResult<String> {
        let plan = bindings::wait_plan(until.as_deref(), query, role, name, state, ms)
            .map_err(errors::value)?;
        if !(100..=60_000).contains(&timeout_ms) {
            return Err(errors::value(format!(
                "wait: timeout_ms {timeout_ms} is out of range: give 100 to 60000"
            )));
        }
        let timeout = std::time::Duration::from_millis(timeout_ms);
        self.with(py, |inner| async move {
            let mut s = inner.lock().await;
            bindings::wait(&mut s, &plan, timeout)
                .await
                .map_err(errors::session)
        })
    }

    /// Runs batch steps (a JSON array) and returns their results as JSON.
    fn batch(&self, py: Python<'_>, steps: &str) -> PyResult<String> {
        let steps: Vec<serde_json::Value> = serde_json::from_str(steps)
            .map_err(|e| errors::value(format!("batch: the steps must be a list of dicts: {e}")))?;
        self.with(py, |inner| async move {
            let mut s = inner.lock().await;
            let results = s.batch(&steps).await;
            to_json(&results)
        })
    }

    /// A PNG of the whole screen, or of `region` (x, y, w, h).
    #[pyo3(signature = (region=None))]
    fn screenshot<'py>(
        &self,
        py: Python<'py>,
        region: Option<(i64, i64, i64, i64)>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let target = match region {
            None => ShotTarget::Screen,
            Some((x, y, w, h)) => {
                if w <= 0 || h <= 0 {
                    return Err(errors::value(format!(
                        "region {w}x{h}: width and height must be positive"
                    )));
                }
                ShotTarget::Region(Rect::new(x, y, w.unsigned_abs(), h.unsigned_abs()))
            }
        };
        let png = self.with(py, |inner| async move {
            let mut s = inner.lock().await;
            Ok(s.screenshot(&target).await.map_err(errors::session)?.png)
        })?;
        Ok(PyBytes::new(py, &png))
    }

    /// More items of a clipped container of the latest snapshot.
    #[pyo3(signature = (element_id, direction=None, offset=None, limit=None))]
    fn page(
        &self,
        py: Python<'_>,
        element_id: String,
        direction: Option<String>,
        offset: Option<usize>,
        limit: Option<usize>,
    ) -> PyResult<String> {
        let req = PageRequest {
            direction: direction
                .as_deref()
                .map(|d| word("direction", d, "up, down, left, right"))
                .transpose()?,
            offset,
            limit,
            ..PageRequest::default()
        };
        self.with(py, |inner| async move {
            let mut s = inner.lock().await;
            s.page(&element_id, &req).map_err(errors::session)
        })
    }

    /// Screen width, height and scale.
    fn screen_info(&self, py: Python<'_>) -> PyResult<(i64, i64, f64)> {
        self.with(py, |inner| async move {
            let s = inner.lock().await;
            let i = s
                .adapter()
                .screen()
                .await
                .map_err(|e| errors::session(e.into()))?;
            Ok((i.width, i.height, i.scale))
        })
    }

    /// The top-level windows (title, pid, foreground, bounds) as JSON.
    fn windows(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |inner| async move {
            let s = inner.lock().await;
            let w = s
                .adapter()
                .windows()
                .await
                .map_err(|e| errors::session(e.into()))?;
            to_json(&w.into_iter().map(|w| w.info).collect::<Vec<_>>())
        })
    }
}
