//! `NativeSession`: one cup Session (adapter, latest snapshot, ids) behind
//! a lock, so concurrent calls from several async tasks run one after the
//! other on the session's I/O thread while JavaScript's thread goes on.

use std::str::FromStr;
use std::sync::Arc;

use cup::{ActionParams, ActionResult, CaptureLimits, ShotTarget, SnapshotRequest};
use cup_protocol::compact::{Detail, PageRequest, MAX_OUTPUT_CHARS};
use cup_protocol::{PlatformId, Rect, Scope};
use cup_tools::bindings;
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use tokio::sync::Mutex;

use crate::engine::Engine;
use crate::errors;
use crate::fed::{FedAdapter, Feed};
use crate::to_json;

/// Parses a word of a closed set (cup's message as `InvalidArg`).
pub fn word<T: FromStr>(what: &str, v: &str, expected: &str) -> napi::Result<T> {
    bindings::word(what, v, expected).map_err(errors::invalid)
}

/// A snapshot request from the options, checked.
fn request(o: SnapshotOptions) -> napi::Result<(SnapshotRequest, bool)> {
    let with_envelope = o.envelope.unwrap_or(false);
    let scope: Scope = word(
        "scope",
        o.scope.as_deref().unwrap_or("foreground"),
        "overview, foreground, desktop, full",
    )?;
    let detail: Detail = word(
        "detail",
        o.detail.as_deref().unwrap_or("compact"),
        "compact (or standard), full, minimal, page",
    )?;
    let mut limits = CaptureLimits {
        max_depth: o.max_depth.map_or(999, |d| d as usize),
        ..CaptureLimits::default()
    };
    if let Some(n) = o.max_nodes {
        limits.max_nodes = n as usize;
    }
    if let Some(ms) = o.timeout_ms {
        limits.deadline = std::time::Duration::from_millis(u64::from(ms));
    }
    Ok((
        SnapshotRequest {
            scope,
            app: o.app,
            detail,
            max_chars: o.max_chars.map_or(MAX_OUTPUT_CHARS, |c| c as usize),
            max_tokens: o.max_tokens.map_or(0, |t| t as usize),
            ocr: o
                .ocr
                .as_deref()
                .map_or(Ok(cup::OcrMode::Auto), str::parse)
                .map_err(errors::invalid)?,
            limits,
            since: o.since,
            bounds: o.bounds.unwrap_or(true),
        },
        with_envelope,
    ))
}

/// Where a session works: this machine's desktop or a browser.
#[napi(object)]
#[derive(Debug, Default)]
pub struct Where {
    /// `desktop` (default), this machine's OS name, `web`, `android` or
    /// `ios`.
    pub platform: Option<String>,
    /// A browser's DevTools address (`http://host:port` or its `ws://`
    /// URL).
    pub cdp_url: Option<String>,
    /// DevTools host (default `$CUP_CDP_HOST`, else 127.0.0.1).
    pub cdp_host: Option<String>,
    /// DevTools port (default `$CUP_CDP_PORT`, else 9222).
    pub cdp_port: Option<u32>,
    /// Android: the device's adb serial (default `$ANDROID_SERIAL`, else
    /// the only device connected).
    pub serial: Option<String>,
    /// iOS: WebDriverAgent's URL (default `$CUP_WDA_URL`, else
    /// `http://127.0.0.1:8100`).
    pub wda_url: Option<String>,
}

/// What a snapshot captures and how it is written.
#[napi(object)]
#[derive(Debug, Default)]
pub struct SnapshotOptions {
    /// overview, foreground (default), desktop or full.
    pub scope: Option<String>,
    /// A window title (part of it) for scope full.
    pub app: Option<String>,
    /// Tree depth (default 999).
    pub max_depth: Option<u32>,
    /// compact (default; or standard), full, minimal, page.
    pub detail: Option<String>,
    /// Character cap of the compact text (default 40,000; 0: none).
    pub max_chars: Option<u32>,
    /// Node cap of the capture.
    pub max_nodes: Option<u32>,
    /// The capture's deadline in milliseconds.
    pub timeout_ms: Option<u32>,
    /// Only what changed since this snapshot ("last" or an id).
    pub since: Option<String>,
    /// `false`: the lines leave their bounds off (act by id only).
    pub bounds: Option<bool>,
    /// Budget in o200k tokens (at least 100): lines are kept by need (the
    /// focus, the screen, what acts, landmarks, headings) and the rest
    /// left out with a note saying so; `maxChars` then does not apply.
    pub max_tokens: Option<u32>,
    /// When windows are read from their pixels: `auto` (windows without
    /// a tree; default), `always`, `never`.
    pub ocr: Option<String>,
    /// Also return the envelope as JSON (it costs a serialization of the
    /// whole tree: asked only when the caller wants the envelope).
    pub envelope: Option<bool>,
}

/// A snapshot: its compact text and its envelope (JSON).
#[napi(object)]
#[derive(Debug)]
pub struct Snapshot {
    /// The compact text.
    pub text: String,
    /// The envelope, JSON, when asked for.
    pub envelope: Option<String>,
}

/// A session on this machine's desktop or on a browser.
#[napi]
#[derive(Debug)]
pub struct NativeSession {
    engine: Arc<Engine>,
    inner: Arc<Mutex<cup::Session>>,
    platform: &'static str,
    /// The facts of a JavaScript adapter's session.
    fed: Option<FedAdapter>,
}

impl NativeSession {
    /// Takes a snapshot (a JavaScript adapter's facts set first, under the
    /// same lock, when given).
    async fn take(
        &self,
        (req, with_envelope): (SnapshotRequest, bool),
        feed: Option<(FedAdapter, Feed)>,
    ) -> napi::Result<Snapshot> {
        self.with(|inner| async move {
            let mut s = inner.lock().await;
            if let Some((fed, feed)) = feed {
                fed.set(feed);
            }
            let snap = s.snapshot(&req).await.map_err(errors::session)?;
            Ok(Snapshot {
                text: snap.text.clone(),
                envelope: with_envelope.then(|| to_json(&snap.envelope)).transpose()?,
            })
        })
        .await
    }

    /// Runs `f` with the session locked, on the I/O thread.
    async fn with<T, F, Fut>(&self, f: F) -> napi::Result<T>
    where
        T: Send + 'static,
        F: FnOnce(Arc<Mutex<cup::Session>>) -> Fut,
        Fut: std::future::Future<Output = napi::Result<T>> + Send + 'static,
    {
        let fut = f(Arc::clone(&self.inner));
        self.engine.run(fut).await
    }
}

#[napi]
impl NativeSession {
    /// A session (nothing is connected before the first call).
    #[napi(factory)]
    pub fn open(at: Option<Where>) -> napi::Result<Self> {
        let at = at.unwrap_or_default();
        let cdp_port = at
            .cdp_port
            .map(|p| {
                u16::try_from(p)
                    .map_err(|_| errors::invalid(format!("cdpPort {p}: a TCP port is 1 to 65535")))
            })
            .transpose()?;
        let target = cup_tools::Target {
            platform: at.platform,
            cdp_port,
            cdp_host: at.cdp_host,
            cdp_url: at.cdp_url,
            ax_source: None,
            serial: at.serial,
            wda_url: at.wda_url,
        };
        let adapter = target.adapter().map_err(errors::invalid)?;
        Ok(NativeSession {
            engine: Arc::new(Engine::start()?),
            inner: Arc::new(Mutex::new(cup::Session::new(adapter))),
            platform: target.platform_name(),
            fed: None,
        })
    }

    /// A session over a platform written in JavaScript: its facts come
    /// with each [`NativeSession::snapshot_fed`].
    #[napi(factory)]
    pub fn fed(platform: String) -> napi::Result<Self> {
        let id: PlatformId = word(
            "platformName",
            &platform,
            "windows, macos, linux, web, android, ios",
        )?;
        let adapter = FedAdapter::new(id);
        Ok(NativeSession {
            engine: Arc::new(Engine::start()?),
            inner: Arc::new(Mutex::new(cup::Session::new(Box::new(adapter.clone())))),
            platform: id.name(),
            fed: Some(adapter),
        })
    }

    /// A snapshot of a JavaScript adapter's session from its facts (JSON:
    /// `{ screen: [w, h, scale], windows, desktop?, tree }`): cup numbers
    /// the ids, builds the envelope and the compact text, and keeps it
    /// for find, page and the ids' references.
    #[napi]
    pub async fn snapshot_fed(
        &self,
        feed: String,
        options: Option<SnapshotOptions>,
    ) -> napi::Result<Snapshot> {
        let Some(fed) = self.fed.clone() else {
            return Err(errors::invalid(
                "this session's platform is cup's own; call snapshot()",
            ));
        };
        let feed = Feed::parse(&feed)
            .map_err(|e| errors::invalid(format!("the adapter's facts are not valid CUP: {e}")))?;
        self.take(request(options.unwrap_or_default())?, Some((fed, feed)))
            .await
    }

    /// The native reference of an id of the latest snapshot (a JavaScript
    /// adapter's own id for it).
    #[napi]
    pub async fn ref_of(&self, id: String) -> napi::Result<String> {
        self.with(|inner| async move {
            let s = inner.lock().await;
            let last = s.last().ok_or_else(|| {
                errors::invalid("no snapshot yet; call snapshot() first")
            })?;
            last.refs.get(&id).cloned().ok_or_else(|| {
                errors::invalid(format!(
                    "element '{id}' not found in the current snapshot; take a new snapshot and use its ids"
                ))
            })
        })
        .await
    }

    /// `linux`, `windows`, `macos` or `web`.
    #[napi(getter)]
    pub fn platform_name(&self) -> &'static str {
        self.platform
    }

    /// Whether [`NativeSession::close`] was called.
    #[napi(getter)]
    pub fn closed(&self) -> bool {
        self.engine.is_closed()
    }

    /// Ends the session: its thread stops and its connections close; a
    /// call in progress and every later call reject.
    #[napi]
    pub async fn close(&self) -> napi::Result<()> {
        let engine = Arc::clone(&self.engine);
        tokio::task::spawn_blocking(move || engine.close())
            .await
            .map_err(|e| errors::failure(format!("closing the session failed: {e}")))
    }

    /// Captures and keeps a snapshot.
    #[napi]
    pub async fn snapshot(&self, options: Option<SnapshotOptions>) -> napi::Result<Snapshot> {
        self.take(request(options.unwrap_or_default())?, None).await
    }

    /// Whether a snapshot was taken (cheaper than [`NativeSession::last_envelope`]).
    #[napi]
    pub async fn has_snapshot(&self) -> napi::Result<bool> {
        self.with(|inner| async move { Ok(inner.lock().await.last().is_some()) })
            .await
    }

    /// The latest snapshot's envelope (JSON), if any.
    #[napi]
    pub async fn last_envelope(&self) -> napi::Result<Option<String>> {
        self.with(|inner| async move {
            let s = inner.lock().await;
            s.last().map(|l| to_json(&l.envelope)).transpose()
        })
        .await
    }

    /// Performs a CUP action on an element of the latest snapshot; the
    /// result with the observed effect (JSON).
    #[napi]
    pub async fn action(
        &self,
        element_id: String,
        action: String,
        value: Option<String>,
        direction: Option<String>,
        amount: Option<u32>,
    ) -> napi::Result<String> {
        let params = ActionParams {
            value,
            direction: bindings::direction(direction.as_deref()).map_err(errors::invalid)?,
            amount,
        };
        cup::check_request(&action, &params).map_err(|e| errors::invalid(e.to_string()))?;
        self.with(|inner| async move {
            let mut s = inner.lock().await;
            let r = s
                .action(&element_id, &action, &params)
                .await
                .map_err(errors::session)?;
            to_json(&r)
        })
        .await
    }

    /// Presses a key combo; the result (JSON).
    #[napi]
    pub async fn press(&self, keys: String) -> napi::Result<String> {
        cup_protocol::parse_combo(&keys)
            .map_err(|e| errors::invalid(format!("keys {keys:?}: {e}")))?;
        self.with(|inner| async move {
            let mut s = inner.lock().await;
            let r = s.press(&keys).await.map_err(errors::session)?;
            to_json(&r)
        })
        .await
    }

    /// Opens an app by (fuzzy) name and waits for its window; the result
    /// (JSON), a success only once the window is seen.
    #[napi]
    pub async fn open_app(&self, name: String) -> napi::Result<String> {
        if name.trim().is_empty() {
            return Err(errors::invalid(
                "App name must not be empty; give the name of an installed app, e.g. openApp(\"calculator\")",
            ));
        }
        self.with(|inner| async move {
            let mut s = inner.lock().await;
            let launched = s.open_app(&name).await.map_err(errors::session)?;
            to_json(&ActionResult::launched(&launched))
        })
        .await
    }

    /// Searches the latest snapshot (taking a foreground one first when
    /// there is none); matching nodes without children (JSON), best first.
    #[napi]
    pub async fn find(
        &self,
        query: Option<String>,
        role: Option<String>,
        name: Option<String>,
        state: Option<String>,
        limit: Option<u32>,
    ) -> napi::Result<String> {
        let q = bindings::find_query(query, role, name, state, limit.map_or(5, |l| l as usize))
            .map_err(errors::invalid)?;
        self.with(|inner| async move {
            let mut s = inner.lock().await;
            if s.last().is_none() {
                s.snapshot(&SnapshotRequest::default())
                    .await
                    .map_err(errors::session)?;
            }
            let nodes = s.find(&q).map_err(errors::session)?;
            to_json(&nodes)
        })
        .await
    }

    /// Waits: with `until = "load"` until the page has loaded, with a
    /// search until an element matches, each for `timeout_ms` at most
    /// (default 5,000; the snapshots taken meanwhile are kept); with
    /// neither, a pause of `ms`. JSON `{"ms", "element"}`; a timeout
    /// rejects with what it last saw.
    #[napi]
    #[allow(clippy::too_many_arguments)]
    pub async fn wait(
        &self,
        until: Option<String>,
        query: Option<String>,
        role: Option<String>,
        name: Option<String>,
        state: Option<String>,
        timeout_ms: Option<u32>,
        ms: Option<u32>,
    ) -> napi::Result<String> {
        let plan = bindings::wait_plan(
            until.as_deref(),
            query,
            role,
            name,
            state,
            ms.map(u64::from),
        )
        .map_err(errors::invalid)?;
        let timeout_ms = timeout_ms.unwrap_or(5000);
        if !(100..=60_000).contains(&timeout_ms) {
            return Err(errors::invalid(format!(
                "wait: timeoutMs {timeout_ms} is out of range: give 100 to 60000"
            )));
        }
        let timeout = std::time::Duration::from_millis(u64::from(timeout_ms));
        self.with(|inner| async move {
            let mut s = inner.lock().await;
            bindings::wait(&mut s, &plan, timeout)
                .await
                .map_err(errors::session)
        })
        .await
    }

    /// Runs batch steps (a JSON array); their results (JSON).
    #[napi]
    pub async fn batch(&self, steps: String) -> napi::Result<String> {
        let steps: Vec<serde_json::Value> = serde_json::from_str(&steps).map_err(|e| {
            errors::invalid(format!("batch: the steps must be a list of objects: {e}"))
        })?;
        self.with(|inner| async move {
            let mut s = inner.lock().await;
            let results = s.batch(&steps).await;
            to_json(&results)
        })
        .await
    }

    /// A PNG of the whole screen, or of `region` `[x, y, w, h]`.
    #[napi]
    pub async fn screenshot(&self, region: Option<Vec<f64>>) -> napi::Result<Buffer> {
        let target = match region.as_deref() {
            None => ShotTarget::Screen,
            Some(&[x, y, w, h]) => {
                let whole = [x, y, w, h]
                    .iter()
                    .all(|v| v.is_finite() && v.fract() == 0.0);
                if !whole || w <= 0.0 || h <= 0.0 {
                    return Err(errors::invalid(format!(
                        "region {x},{y} {w}x{h}: whole pixels, width and height positive"
                    )));
                }
                ShotTarget::Region(Rect::new(x as i64, y as i64, w as u64, h as u64))
            }
            Some(other) => {
                return Err(errors::invalid(format!(
                    "region has {} numbers; give x, y, width and height",
                    other.len()
                )))
            }
        };
        let png = self
            .with(|inner| async move {
                let mut s = inner.lock().await;
                Ok(s.screenshot(&target).await.map_err(errors::session)?.png)
            })
            .await?;
        Ok(png.into())
    }

    /// More items of a clipped container of the latest snapshot.
    #[napi]
    pub async fn page(
        &self,
        element_id: String,
        direction: Option<String>,
        offset: Option<u32>,
        limit: Option<u32>,
    ) -> napi::Result<String> {
        let req = PageRequest {
            direction: direction
                .as_deref()
                .map(|d| word("direction", d, "up, down, left, right"))
                .transpose()?,
            offset: offset.map(|o| o as usize),
            limit: limit.map(|l| l as usize),
            ..PageRequest::default()
        };
        self.with(|inner| async move {
            let mut s = inner.lock().await;
            s.page(&element_id, &req).map_err(errors::session)
        })
        .await
    }

    /// Screen width, height and scale.
    #[napi]
    pub async fn screen_info(&self) -> napi::Result<Vec<f64>> {
        self.with(|inner| async move {
            let s = inner.lock().await;
            let i = s
                .adapter()
                .screen()
                .await
                .map_err(|e| errors::session(e.into()))?;
            Ok(vec![i.width as f64, i.height as f64, i.scale])
        })
        .await
    }

    /// The top-level windows (title, pid, foreground, bounds), JSON.
    #[napi]
    pub async fn windows(&self) -> napi::Result<String> {
        self.with(|inner| async move {
            let s = inner.lock().await;
            let w = s
                .adapter()
                .windows()
                .await
                .map_err(|e| errors::session(e.into()))?;
            to_json(&w.into_iter().map(|w| w.info).collect::<Vec<_>>())
        })
        .await
    }
}
