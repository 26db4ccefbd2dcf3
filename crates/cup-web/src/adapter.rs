//! [`WebAdapter`]: cup's [`Adapter`] for a Chromium browser over CDP.
//! Windows are the browser's page targets (the foreground one is focused
//! and visible); the screen is the foreground page's viewport; node bounds
//! are viewport-relative screen pixels.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use cup::{
    ActionParams, ActionResult, Adapter, AdapterError, Capture, CaptureLimits, Monitor, Partial,
    ScreenInfo, Shot, ShotTarget, Target, WindowHandle,
};
use cup_protocol::keys::Combo;
use cup_protocol::{Action, PlatformId, WindowInfo};
use tokio::sync::Mutex;

use crate::browser::Browser;
use crate::capture::{self, capture_page};
use crate::cdp::CdpError;
use crate::endpoint::Endpoint;
use crate::screenshot::{self, Area};

/// The web adapter.
#[derive(Debug)]
pub struct WebAdapter {
    endpoint: Endpoint,
    browser: Mutex<Option<Arc<Browser>>>,
    /// Where cup left the pointer, per page (the browser does not say).
    pointer: std::sync::Mutex<HashMap<String, cup::Point>>,
    /// Keep the native facts of captures (`--native-dump`).
    record: std::sync::atomic::AtomicBool,
    /// The native facts of the last capture, when recorded.
    native: std::sync::Mutex<Option<serde_json::Value>>,
    /// The visual layer's page overlay (made on first use).
    overlay: Mutex<Option<Arc<crate::overlay::WebOverlay>>>,
    /// Where captures read the accessibility facts.
    source: capture::AxSource,
    /// Repeated walker captures re-read only what changed.
    incremental: bool,
    /// The CUP ids of the last capture (kept by the next one).
    ids: std::sync::Mutex<crate::ids::IdMemory>,
}

pub(crate) fn adapter_error(e: CdpError) -> AdapterError {
    match e {
        CdpError::Connect { .. } | CdpError::Closed(_) => AdapterError::Unavailable(e.to_string()),
        _ => AdapterError::Platform(e.to_string()),
    }
}

impl WebAdapter {
    /// An adapter for the browser at `endpoint` (connected on first use).
    pub fn new(endpoint: Endpoint) -> WebAdapter {
        WebAdapter {
            endpoint,
            browser: Mutex::new(None),
            pointer: std::sync::Mutex::new(HashMap::new()),
            record: std::sync::atomic::AtomicBool::new(false),
            native: std::sync::Mutex::new(None),
            overlay: Mutex::new(None),
            source: capture::AxSource::default(),
            ids: std::sync::Mutex::default(),
            incremental: !std::env::var("CUP_WEB_INCREMENTAL").is_ok_and(|v| {
                matches!(
                    v.trim().to_ascii_lowercase().as_str(),
                    "0" | "off" | "false" | "no"
                )
            }),
        }
    }

    /// The same adapter with incremental walker captures on (the default;
    /// `CUP_WEB_INCREMENTAL=0` turns them off) or off (every capture walks
    /// every frame whole).
    #[must_use]
    pub fn with_incremental(mut self, on: bool) -> WebAdapter {
        self.incremental = on;
        self
    }

    /// The same adapter reading pages from `source` (cup's walker by
    /// default; Chromium's `getFullAXTree` with [`capture::AxSource::Chromium`]).
    #[must_use]
    pub fn with_ax_source(mut self, source: capture::AxSource) -> WebAdapter {
        self.source = source;
        self
    }

    /// Where captures read the accessibility facts.
    pub fn ax_source(&self) -> capture::AxSource {
        self.source
    }

    /// The browser connection (made, or made again after the browser
    /// closed it).
    ///
    /// # Errors
    ///
    /// [`AdapterError::Unavailable`] when no browser answers.
    pub async fn browser(&self) -> Result<Arc<Browser>, AdapterError> {
        let mut slot = self.browser.lock().await;
        if let Some(b) = slot.as_ref() {
            if b.cdp().is_open() {
                return Ok(Arc::clone(b));
            }
        }
        let b = Arc::new(
            Browser::connect(&self.endpoint)
                .await
                .map_err(adapter_error)?,
        );
        *slot = Some(Arc::clone(&b));
        Ok(b)
    }

    /// Runs a page primitive (JavaScript, text, DOM query) in the page
    /// whose title, URL or target id contains `page`, else the foreground
    /// one.
    ///
    /// # Errors
    ///
    /// No such page, the page's exception, or the browser's error.
    pub async fn page_script(
        &self,
        page: Option<&str>,
        script: &crate::PageScript,
    ) -> Result<serde_json::Value, AdapterError> {
        let (browser, fg) = self.foreground_page().await?;
        let target = match page {
            None => fg,
            Some(wanted) => page_matching(&browser, wanted).await?,
        };
        crate::script::run(&browser, &target, script).await
    }

    async fn foreground_page(&self) -> Result<(Arc<Browser>, String), AdapterError> {
        let browser = self.browser().await?;
        let pages = browser.pages().await.map_err(adapter_error)?;
        let i = browser.foreground(&pages).await.ok_or_else(|| {
            AdapterError::NotFound(format!(
                "the browser at {} has no open page; open one (cup browser start URL)",
                self.endpoint.describe()
            ))
        })?;
        Ok((browser, pages[i].id.clone()))
    }
}

/// `name` as a URL to open: with a scheme as given, a bare host or path
/// (`example.org/x`, `localhost:8080`) as `http(s)://`; `None` for words.
fn page_url(name: &str) -> Option<String> {
    let n = name.trim();
    if n.is_empty() || n.contains(char::is_whitespace) {
        return None;
    }
    if n.contains("://") || n.starts_with("about:") || n.starts_with("data:") {
        return Some(n.to_owned());
    }
    let host = n.split('/').next().unwrap_or_default();
    let local = host.starts_with("localhost") || host.starts_with("127.");
    if local {
        return Some(format!("http://{n}"));
    }
    (host.contains('.') && !host.ends_with('.')).then(|| format!("https://{n}"))
}

/// The page whose target id is `wanted`, or whose title or URL contains it.
async fn page_matching(browser: &Browser, wanted: &str) -> Result<String, AdapterError> {
    let lower = wanted.to_lowercase();
    let pages = browser.pages().await.map_err(adapter_error)?;
    pages
        .iter()
        .find(|p| p.id == wanted)
        .or_else(|| {
            pages.iter().find(|p| {
                p.title.to_lowercase().contains(&lower) || p.url.to_lowercase().contains(&lower)
            })
        })
        .map(|p| p.id.clone())
        .ok_or_else(|| {
            AdapterError::NotFound(format!(
                "no page matches {wanted:?}; open pages: {}",
                pages
                    .iter()
                    .map(|p| format!("{:?}", p.title))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

/// A page showing a JavaScript dialog answers no command until it is
/// closed: say so at once instead of waiting for a timeout.
async fn blocked_by_dialog(browser: &Browser, page: &str) -> Result<(), AdapterError> {
    match browser.dialog(page).await {
        Some(d) => Err(AdapterError::Unavailable(format!(
            "a JavaScript {d} dialog blocks the page; press escape to dismiss it or enter to accept it"
        ))),
        None => Ok(()),
    }
}

#[async_trait]
impl Adapter for WebAdapter {
    fn record_native(&self, on: bool) {
        self.record.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    fn native_dump(&self) -> Option<serde_json::Value> {
        self.native.lock().ok().and_then(|n| n.clone())
    }

    fn platform(&self) -> PlatformId {
        PlatformId::Web
    }

    async fn screen(&self) -> Result<ScreenInfo, AdapterError> {
        let (browser, page) = self.foreground_page().await?;
        blocked_by_dialog(&browser, &page).await?;
        let view = capture::viewport(&browser, &page)
            .await
            .map_err(adapter_error)?;
        let rect = view.rect();
        Ok(ScreenInfo {
            width: i64::try_from(rect.w).unwrap_or(i64::MAX),
            height: i64::try_from(rect.h).unwrap_or(i64::MAX),
            scale: view.dpr,
            monitors: vec![Monitor {
                name: "viewport".into(),
                rect,
                primary: true,
                scale: view.dpr,
            }],
        })
    }

    async fn windows(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        let browser = self.browser().await?;
        let pages = browser.pages().await.map_err(adapter_error)?;
        let fg = browser.foreground(&pages).await;
        Ok(pages
            .iter()
            .enumerate()
            .map(|(i, p)| WindowHandle {
                info: WindowInfo {
                    title: if p.title.is_empty() {
                        p.url.clone()
                    } else {
                        p.title.clone()
                    },
                    pid: None,
                    foreground: Some(i) == fg,
                    bounds: None,
                    url: Some(p.url.clone()),
                    extra: serde_json::Map::new(),
                },
                native: p.id.clone(),
            })
            .collect())
    }

    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError> {
        Ok(None)
    }

    async fn input(
        &self,
        gesture: &cup::Gesture,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let (browser, page) = self.foreground_page().await?;
        let last = self.pointer.lock().ok().and_then(|m| m.get(&page).copied());
        let result = crate::act::gesture::perform(&browser, &page, gesture, last).await?;
        let end = match gesture {
            cup::Gesture::Click { at, .. } => Some(*at),
            cup::Gesture::Down { at, .. }
            | cup::Gesture::Up { at, .. }
            | cup::Gesture::Scroll { at, .. } => *at,
            cup::Gesture::Drag { path, .. } => path.last().copied(),
            cup::Gesture::Move { to } => Some(*to),
            cup::Gesture::Type { .. } => None,
        };
        if let (Some(end), Ok(mut m)) = (end, self.pointer.lock()) {
            m.insert(page, end);
        }
        Ok(result)
    }

    /// On the web, the running "apps" are the browser's pages.
    async fn apps(&self) -> Result<Vec<cup::AppEntry>, AdapterError> {
        Ok(self
            .windows()
            .await?
            .into_iter()
            .map(|w| cup::AppEntry {
                name: w.info.title.clone(),
                id: w.info.url.clone().unwrap_or_default(),
                pids: Vec::new(),
                windows: vec![w.info.title],
                installed: false,
            })
            .collect())
    }

    async fn cursor(&self) -> Result<cup::Point, AdapterError> {
        let (_, page) = self.foreground_page().await?;
        self.pointer
            .lock()
            .ok()
            .and_then(|m| m.get(&page).copied())
            .ok_or_else(|| {
                AdapterError::NotFound(
                    "cup has not placed the pointer on this page yet (a browser does not report it); move_cursor or click first".into(),
                )
            })
    }

    async fn check(&self) -> Vec<cup::Check> {
        let fix = format!(
            "start a browser with remote debugging (cup browser start URL), or point --cdp-url at one; tried {}",
            self.endpoint.describe()
        );
        let reached = match self.foreground_page().await {
            Ok((browser, page)) => Ok(format!(
                "{} answers; foreground page {page}, {} page(s)",
                self.endpoint.describe(),
                browser.pages().await.map(|p| p.len()).unwrap_or(0)
            )),
            Err(e) => Err(e.to_string()),
        };
        vec![match reached {
            Ok(detail) => cup::Check {
                name: "browser (DevTools protocol)".into(),
                ok: true,
                detail,
                fix: String::new(),
            },
            Err(detail) => cup::Check {
                name: "browser (DevTools protocol)".into(),
                ok: false,
                detail,
                fix,
            },
        }]
    }

    /// On the web, "apps" are pages: opens `name` (a URL, or a host such
    /// as `example.org`) in a new tab and waits until it has loaded.
    async fn open_app(&self, name: &str) -> Result<cup::Launched, AdapterError> {
        let url = page_url(name).ok_or_else(|| {
            AdapterError::Invalid(format!(
                "{name:?} is not a web address; on the web, open a URL such as https://example.org"
            ))
        })?;
        let browser = self.browser().await?;
        let created = browser
            .cdp()
            .call(
                None,
                "Target.createTarget",
                serde_json::json!({ "url": url }),
            )
            .await
            .map_err(adapter_error)?;
        let id = created
            .get("targetId")
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| AdapterError::Platform("the browser opened no tab".into()))?
            .to_owned();
        let pid = browser
            .cdp()
            .call(None, "SystemInfo.getProcessInfo", serde_json::json!({}))
            .await
            .ok()
            .and_then(|info| {
                info.get("processInfo")?
                    .as_array()?
                    .iter()
                    .find(|p| p.get("type").and_then(serde_json::Value::as_str) == Some("browser"))?
                    .get("id")?
                    .as_u64()
            })
            .and_then(|p| u32::try_from(p).ok())
            .unwrap_or(0);
        // Loaded: the document is complete (script answers again).
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(15);
        let mut window = None;
        while tokio::time::Instant::now() < deadline {
            let ready = browser
                .evaluate(&id, "document.readyState")
                .await
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned));
            if ready.as_deref() == Some("complete") {
                let pages = browser.pages().await.map_err(adapter_error)?;
                window = pages.iter().find(|p| p.id == id).map(|p| WindowHandle {
                    info: WindowInfo {
                        title: if p.title.is_empty() {
                            p.url.clone()
                        } else {
                            p.title.clone()
                        },
                        pid: Some(i64::from(pid)),
                        foreground: true,
                        bounds: None,
                        url: Some(p.url.clone()),
                        extra: serde_json::Map::new(),
                    },
                    native: p.id.clone(),
                });
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        Ok(cup::Launched {
            name: url,
            pid,
            window,
        })
    }

    async fn capture(
        &self,
        windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError> {
        let browser = self.browser().await?;
        let mut out = Capture::default();
        let mut roots = Vec::new();
        let mut next = 0usize;
        let mut missing = 0usize;
        let mut reasons = Vec::new();
        let started = tokio::time::Instant::now();
        let record = self.record.load(std::sync::atomic::Ordering::Relaxed);
        let mut pages = Vec::new();
        // The capture's revision: every page's build number, folded (None
        // when a page's tree was not kept).
        let mut revision = Some(windows.len() as u64);
        for w in windows {
            blocked_by_dialog(&browser, &w.native).await?;
            let left = limits.deadline.saturating_sub(started.elapsed());
            let read = capture_page(
                &browser,
                &w.native,
                self.source,
                self.incremental,
                limits.max_depth,
                limits.max_nodes.saturating_sub(next),
                record,
            );
            match tokio::time::timeout(left, read).await {
                Ok(Ok((page, _view))) => {
                    revision = revision
                        .zip(page.revision)
                        .map(|(r, p)| r.wrapping_mul(0x0100_0000_01b3) ^ p);
                    pages.extend(page.facts.map(|f| *f));
                    if let Some(root) = page.root {
                        next += root.subtree_len();
                        roots.push(root);
                    }
                    out.notes.extend(page.notes);
                    out.tools.extend(page.tools);
                    if page.cut > 0 {
                        missing += 1;
                        reasons.push(format!(
                            "{} nodes over the limits (max {} nodes, depth {})",
                            page.cut, limits.max_nodes, limits.max_depth
                        ));
                    }
                }
                Ok(Err(e)) => {
                    if windows.len() == 1 {
                        return Err(adapter_error(e));
                    }
                    missing += 1;
                    reasons.push(format!("page {:?}: {e}", w.info.title));
                }
                Err(_) => {
                    missing += 1;
                    reasons.push(format!(
                        "page {:?} did not answer within the {} ms deadline",
                        w.info.title,
                        limits.deadline.as_millis()
                    ));
                }
            }
        }
        match self.ids.lock() {
            Ok(mut ids) => ids.number(&mut roots, &mut out.refs),
            Err(poisoned) => poisoned.into_inner().number(&mut roots, &mut out.refs),
        }
        out.tree = roots;
        out.revision = revision.filter(|_| missing == 0);
        if missing > 0 {
            out.partial = Some(Partial {
                reason: reasons.join("; "),
                missing,
            });
        }
        if record {
            let dump = crate::dump::NativeDump {
                platform: "web".into(),
                source: String::new(),
                ids: out
                    .refs
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
                pages,
            };
            if let Ok(mut n) = self.native.lock() {
                *n = serde_json::to_value(&dump).ok();
            }
        }
        Ok(out)
    }

    async fn act(
        &self,
        target: &Target<'_>,
        action: Action,
        params: &ActionParams,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let browser = self.browser().await?;
        crate::act::act(
            &browser,
            target.id,
            target.native,
            target.node,
            action,
            params,
        )
        .await
    }

    async fn press(
        &self,
        combo: &Combo,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let (browser, page) = self.foreground_page().await?;
        crate::act::press(&browser, &page, combo).await
    }

    /// The page overlay: drawn in the foreground page (it follows the
    /// foreground as it changes), made on first use, the same one after.
    async fn overlay(&self) -> Result<Arc<dyn cup::visual::Overlay>, AdapterError> {
        let mut slot = self.overlay.lock().await;
        if let Some(o) = slot.as_ref() {
            return Ok(o.clone());
        }
        let (browser, page) = self.foreground_page().await?;
        blocked_by_dialog(&browser, &page).await?;
        let made = Arc::new(
            crate::overlay::WebOverlay::open(self.endpoint.clone(), browser, &page).await?,
        );
        *slot = Some(made.clone());
        Ok(made)
    }

    async fn screenshot(&self, target: &ShotTarget) -> Result<Shot, AdapterError> {
        let (browser, fg) = self.foreground_page().await?;
        let (page, area) = match target {
            ShotTarget::Screen | ShotTarget::Monitor(0) => (fg, Area::Viewport),
            ShotTarget::Monitor(i) => {
                return Err(AdapterError::Invalid(format!(
                    "there is no monitor {i} on the web: the page's viewport is monitor 0"
                )))
            }
            ShotTarget::Region(r) => (fg, Area::Region(*r)),
            ShotTarget::FullPage => (fg, Area::FullPage),
            ShotTarget::Window(wanted) => (page_matching(&browser, wanted).await?, Area::Viewport),
        };
        blocked_by_dialog(&browser, &page).await?;
        let view = capture::viewport(&browser, &page)
            .await
            .map_err(adapter_error)?;
        screenshot::take(&browser, &page, view, area).await
    }
}

#[cfg(test)]
mod tests {
    use super::page_url;

    #[test]
    fn addresses_to_open() {
        assert_eq!(page_url("https://a.b/c").as_deref(), Some("https://a.b/c"));
        assert_eq!(
            page_url("example.org").as_deref(),
            Some("https://example.org")
        );
        assert_eq!(
            page_url("localhost:8080/x").as_deref(),
            Some("http://localhost:8080/x")
        );
        assert_eq!(page_url("about:blank").as_deref(), Some("about:blank"));
        assert_eq!(page_url("calculator"), None);
        assert_eq!(page_url("widget factory"), None);
    }
}
