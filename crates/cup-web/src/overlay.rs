//! The visual layer on the web: the agent cursor, click ripple, focus and
//! highlight rectangles drawn as a page overlay, so a headless or remote
//! browser shows them in its screenshots and screencasts.
//!
//! One host element (`<cup-overlay>`, fixed over the whole viewport, never
//! hit by the pointer, at the highest z-index and, as a manual popover, in
//! the page's top layer: above modal dialogs and full-screen elements,
//! raised again when one opens after it) is appended to the foreground
//! page's `document.documentElement` while something is shown,
//! and removed when every layer is hidden: the page, and its screenshots,
//! are then exactly as without it. The host holds a closed shadow root
//! with one child per layer (a `<canvas>` for a picture, a bordered
//! `<div>` for a rectangle). The script runs in an isolated world of its
//! own (`Page.createIsolatedWorld`): the host element is shared with the
//! page, but the closed root, and the state of the layers, are only
//! reachable from that world. Styles are set through the CSSOM (inline,
//! `!important`), which a page's Content Security Policy does not block.
//!
//! Each operation is one `Runtime.callFunctionOn` in that world (a
//! picture's pixels travel, as base64 RGBA, only when its key differs from
//! what the layer shows). An isolated world dies with its document: a call
//! that finds its context gone makes a new world and runs again there.
//! Every half second (or sooner when the page stops being visible or
//! focused) the overlay looks up the foreground page again, as the adapter
//! does, and moves there, taking the host off the page it leaves.
//!
//! Coordinates are the adapter's screen pixels: device pixels of the
//! viewport (CSS pixels times `devicePixelRatio`); a picture is shown one
//! to one in device pixels.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use base64::Engine as _;
use cup::visual::{Layer, Overlay, Sprite};
use cup::{AdapterError, Point};
use cup_protocol::Rect;
use serde_json::{json, Value};
use tokio::sync::Mutex;

use crate::adapter::adapter_error;
use crate::browser::Browser;
use crate::cdp::{context_gone, exception_text, CdpError};
use crate::endpoint::Endpoint;

/// Longest one overlay operation may take (a page that is busy or
/// loading answers late; the cursor then skips a frame).
pub const OVERLAY_TIMEOUT: Duration = Duration::from_secs(3);

/// How long the foreground page found is trusted before it is looked up
/// again.
const RECHECK: Duration = Duration::from_millis(500);

/// Longest the host may take to leave a page the overlay moves away from.
const LEAVE_TIMEOUT: Duration = Duration::from_millis(500);

/// Name of the overlay's isolated world (as DevTools lists it).
const WORLD: &str = "cup-overlay";

/// Defines `globalThis.__cupOverlay(command)` in the isolated world: the
/// host, its closed shadow root and the layers live in this closure only.
const SETUP: &str = r#"
if (!globalThis.__cupOverlay) {
  const HTML = 'http://www.w3.org/1999/xhtml';
  const Z = {cursor: '4', ripple: '3', focus: '2', highlight: '1'};
  const layers = new Map();
  let host = null;
  let root = null;
  const css = (el, props) => {
    for (const k in props) el.style.setProperty(k, props[k], 'important');
  };
  const make = () => {
    host = document.createElementNS(HTML, 'cup-overlay');
    css(host, {all: 'initial', display: 'block', position: 'fixed', inset: '0',
      margin: '0', padding: '0', border: '0', width: 'auto', height: 'auto',
      overflow: 'hidden', 'pointer-events': 'none', 'z-index': '2147483647',
      background: 'transparent', opacity: '1', transform: 'none', filter: 'none',
      contain: 'strict'});
    root = host.attachShadow({mode: 'closed'});
    layers.clear();
    if (typeof host.showPopover === 'function') host.popover = 'manual';
  };
  // In the top layer (a manual popover) the host is above modal dialogs
  // and full-screen elements too; one opened after it goes above it, so
  // it is raised again at the next drawing.
  let raise = false;
  const opened = (e) => {
    if (e.target !== host && (e.type !== 'toggle' || e.newState === 'open')) raise = true;
  };
  document.addEventListener('toggle', opened, true);
  document.addEventListener('fullscreenchange', opened, true);
  const attach = () => {
    const top = document.documentElement;
    if (!top) throw new Error('the page has no document element yet');
    if (host.parentNode !== top || top.lastElementChild !== host) top.appendChild(host);
    if (host.popover !== 'manual' || !host.isConnected) return;
    try {
      if (raise && host.matches(':popover-open')) host.hidePopover();
      raise = false;
      if (!host.matches(':popover-open')) host.showPopover();
    } catch (e) {
      // Not in the top layer (e.g. a document that is not fully active):
      // the z-index still puts it above the page's own content.
    }
  };
  const layer = (name, tag) => {
    if (!host) make();
    let l = layers.get(name);
    if (l && l.tag !== tag) {
      l.el.remove();
      l = null;
    }
    if (!l) {
      const el = document.createElementNS(HTML, tag);
      css(el, {all: 'initial', display: 'none', position: 'absolute', left: '0', top: '0',
        'pointer-events': 'none', 'z-index': Z[name] || '0', 'box-sizing': 'border-box',
        'image-rendering': 'pixelated'});
      root.appendChild(el);
      l = {tag, el, key: null, ctx: null, on: false};
      layers.set(name, l);
    }
    return l;
  };
  const bytes = (b64) => {
    if (typeof Uint8Array.fromBase64 === 'function') {
      const u = Uint8Array.fromBase64(b64);
      return new Uint8ClampedArray(u.buffer, u.byteOffset, u.length);
    }
    const s = atob(b64);
    const a = new Uint8ClampedArray(s.length);
    for (let i = 0; i < s.length; i++) a[i] = s.charCodeAt(i);
    return a;
  };
  const px = (n) => n + 'px';
  const show = (c, dpr) => {
    const l = layer(c.layer, 'canvas');
    if (l.key !== c.key) {
      if (typeof c.rgba !== 'string') return false;
      const data = bytes(c.rgba);
      if (data.length !== c.w * c.h * 4) {
        throw new Error('picture of ' + data.length + ' bytes for ' + c.w + 'x' + c.h + ' pixels');
      }
      l.el.width = c.w;
      l.el.height = c.h;
      l.ctx = l.ctx || l.el.getContext('2d');
      l.ctx.putImageData(new ImageData(data, c.w, c.h), 0, 0);
      l.key = c.key;
    }
    css(l.el, {left: px((c.x - c.hx) / dpr), top: px((c.y - c.hy) / dpr),
      width: px(c.w / dpr), height: px(c.h / dpr), display: 'block'});
    l.on = true;
    return true;
  };
  const frame = (c, dpr) => {
    const l = layer(c.layer, 'div');
    css(l.el, {left: px(c.x / dpr), top: px(c.y / dpr), width: px(c.w / dpr),
      height: px(c.h / dpr), border: px(c.t / dpr) + ' solid rgb(' + c.rgb.join(',') + ')',
      display: 'block'});
    l.on = true;
  };
  const hide = (l) => {
    l.on = false;
    l.el.style.setProperty('display', 'none', 'important');
  };
  globalThis.__cupOverlay = (c) => {
    const dpr = window.devicePixelRatio || 1;
    let done = true;
    if (c.op === 'show') done = show(c, dpr);
    else if (c.op === 'frame') frame(c, dpr);
    else if (c.op === 'hide') { const l = layers.get(c.layer); if (l) hide(l); }
    else if (c.op === 'remove') { for (const l of layers.values()) hide(l); }
    const on = [];
    for (const [name, l] of layers) if (l.on) on.push(name);
    if (on.length === 0) {
      if (host) host.remove();
    } else {
      attach();
    }
    return {need: !done, on, visible: document.visibilityState === 'visible',
      focused: document.hasFocus()};
  };
}
"#;

/// One operation, in a world where `SETUP` ran.
const OP: &str =
    "function (c) { const f = globalThis.__cupOverlay; return f ? f(c) : {setup: true}; }";

/// The overlay of a browser: drawn on its foreground page.
#[derive(Debug)]
pub struct WebOverlay {
    endpoint: Endpoint,
    state: Mutex<State>,
    scale: f64,
    attended: bool,
}

/// Where the overlay is.
#[derive(Debug)]
struct State {
    /// The connection (the adapter's, or one of the overlay's own after
    /// it closed).
    browser: Arc<Browser>,
    /// The page drawn on (target id).
    current: Option<String>,
    /// The overlay's world in each page it has drawn on.
    places: HashMap<String, Place>,
    /// When the foreground page was last looked up (`None`: look again).
    checked: Option<Instant>,
    /// How foreground the current page said it was (visible 2, focused 1)
    /// in its last answer: less means another page may have come forward.
    score: Option<u8>,
}

/// The overlay's isolated world in one page.
#[derive(Debug, Default)]
struct Place {
    /// Its execution context (`None`: to be made).
    context: Option<i64>,
    /// Key of the picture each layer holds (as far as cup knows).
    keys: HashMap<Layer, u64>,
    /// Layers that may be on screen (a superset: a layer is added before
    /// it is shown, taken out when the page says it is hidden).
    shown: HashSet<Layer>,
}

/// How a call into the overlay's world failed.
enum Failure {
    /// The world is gone (the page navigated or reloaded).
    Gone,
    /// Anything else.
    Error(AdapterError),
}

fn layer_named(name: &str) -> Option<Layer> {
    Layer::ALL.into_iter().find(|l| l.name() == name)
}

fn cdp_failure(e: CdpError) -> Failure {
    match e {
        CdpError::Protocol { ref message, .. } if context_gone(message) => Failure::Gone,
        CdpError::Protocol { .. } => Failure::Error(AdapterError::Platform(format!(
            "the page refused the overlay ({e}); take a snapshot to check the page is still open, then try again"
        ))),
        CdpError::Timeout { .. } => Failure::Error(AdapterError::Unavailable(format!(
            "the page did not draw the overlay ({e}); it may be busy or loading, try again"
        ))),
        other => Failure::Error(adapter_error(other)),
    }
}

/// Calls `declaration` with `command` in execution context `context` of
/// `page`.
async fn call_in(
    browser: &Browser,
    page: &str,
    context: i64,
    declaration: &str,
    command: &Value,
) -> Result<Value, Failure> {
    let r = browser
        .call(
            page,
            "Runtime.callFunctionOn",
            json!({
                "functionDeclaration": declaration,
                "executionContextId": context,
                "arguments": [{"value": command}],
                "returnByValue": true,
                "silent": true,
            }),
        )
        .await
        .map_err(cdp_failure)?;
    if let Some(line) = exception_text(&r) {
        if context_gone(&line) {
            return Err(Failure::Gone);
        }
        return Err(Failure::Error(AdapterError::Platform(format!(
            "the overlay's script failed in the page: {line}; take a snapshot to check the page, then try again"
        ))));
    }
    Ok(r.get("result")
        .and_then(|v| v.get("value"))
        .cloned()
        .unwrap_or(Value::Null))
}

/// A new isolated world in the main frame of `page`: its context id.
async fn new_world(browser: &Browser, page: &str) -> Result<i64, AdapterError> {
    crate::walker::world::isolated_world(browser, page, page, WORLD)
        .await
        .map_err(|e| match e {
            CdpError::Protocol { .. } => AdapterError::Platform(format!(
                "cannot make the overlay's script world in the page ({e}); wait for the page to load and try again"
            )),
            other => adapter_error(other),
        })
}

/// Runs `command` in the overlay's world of `page`, making the world
/// first when there is none and `revive` is set. `None`: the world is
/// gone and was not made again (so nothing of the overlay is left there).
async fn run(
    browser: &Browser,
    page: &str,
    place: &mut Place,
    command: &Value,
    revive: bool,
) -> Result<Option<Value>, AdapterError> {
    if let Some(d) = browser.dialog(page).await {
        return Err(AdapterError::Unavailable(format!(
            "a JavaScript {d} dialog blocks the page, so the overlay cannot be drawn; press escape to dismiss it or enter to accept it"
        )));
    }
    let mut setup = false;
    for _ in 0..3 {
        let context = match place.context {
            Some(c) => c,
            None if revive => {
                let c = new_world(browser, page).await?;
                place.context = Some(c);
                place.keys.clear();
                setup = true;
                c
            }
            None => return Ok(None),
        };
        let declaration = if setup {
            format!("function (c) {{ {SETUP}\n return globalThis.__cupOverlay(c); }}")
        } else {
            OP.to_owned()
        };
        match call_in(browser, page, context, &declaration, command).await {
            Ok(v) if v.get("setup").and_then(Value::as_bool) == Some(true) => setup = true,
            Ok(v) => return Ok(Some(v)),
            Err(Failure::Gone) => {
                place.context = None;
                place.keys.clear();
                setup = false;
                if !revive {
                    place.shown.clear();
                    return Ok(None);
                }
            }
            Err(Failure::Error(e)) => return Err(e),
        }
    }
    Err(AdapterError::Unavailable(
        "the page kept navigating while cup drew its overlay; try again once it has loaded".into(),
    ))
}

/// Draws `command` on `layer` of `page` (one call; two when the page
/// asks for the picture's pixels cup thought it had): the page's answer.
async fn draw_on(
    st: &mut State,
    page: &str,
    layer: Layer,
    command: &Value,
    picture: Option<&Sprite>,
) -> Result<Value, AdapterError> {
    let browser = Arc::clone(&st.browser);
    let place = st.places.entry(page.to_owned()).or_default();
    place.shown.insert(layer);
    let encode =
        |s: &Sprite| Value::String(base64::engine::general_purpose::STANDARD.encode(&s.rgba));
    let wants = |v: &Value| v.get("need").and_then(Value::as_bool) == Some(true);
    let mut command = command.clone();
    if let Some(s) = picture {
        if place.keys.get(&layer) != Some(&s.key) {
            command["rgba"] = encode(s);
        }
    }
    let mut answer = run(&browser, page, place, &command, true).await?;
    if let (Some(s), Some(v)) = (picture, &answer) {
        if wants(v) {
            command["rgba"] = encode(s);
            answer = run(&browser, page, place, &command, true).await?;
        }
    }
    match answer {
        Some(v) if !wants(&v) => {
            match picture {
                Some(s) => place.keys.insert(layer, s.key),
                None => place.keys.remove(&layer),
            };
            Ok(v)
        }
        Some(_) => Err(AdapterError::Platform(
            "the page did not take the overlay's picture; try again".into(),
        )),
        None => Err(AdapterError::Unavailable(
            "the page's overlay is gone (it navigated); try again".into(),
        )),
    }
}

impl State {
    /// Takes in the page's answer: which layers it shows, and whether it
    /// is still as much in the foreground (`false`: less than it said
    /// before, so another page may have come to the front).
    fn note(&mut self, page: &str, answer: &Value) -> bool {
        if let Some(place) = self.places.get_mut(page) {
            if let Some(on) = answer.get("on").and_then(Value::as_array) {
                place.shown = on
                    .iter()
                    .filter_map(Value::as_str)
                    .filter_map(layer_named)
                    .collect();
            }
        }
        let flag = |k: &str| answer.get(k).and_then(Value::as_bool).unwrap_or(false);
        let score = u8::from(flag("visible")) * 2 + u8::from(flag("focused"));
        let dropped = self.score.is_some_and(|s| score < s);
        if dropped {
            self.checked = None;
        }
        self.score = Some(score);
        !dropped
    }
}

impl WebOverlay {
    /// The overlay of the browser at `endpoint`, drawn over `browser`'s
    /// connection; `page` (the foreground page now) gives the device
    /// scale.
    ///
    /// # Errors
    ///
    /// When the browser or the page does not answer.
    pub async fn open(
        endpoint: Endpoint,
        browser: Arc<Browser>,
        page: &str,
    ) -> Result<WebOverlay, AdapterError> {
        let version = browser
            .cdp()
            .call(None, "Browser.getVersion", json!({}))
            .await
            .map_err(adapter_error)?;
        let headless = ["product", "userAgent"].iter().any(|k| {
            version
                .get(*k)
                .and_then(Value::as_str)
                .is_some_and(|s| s.contains("Headless"))
        });
        let view = crate::capture::viewport(&browser, page)
            .await
            .map_err(adapter_error)?;
        Ok(WebOverlay {
            endpoint,
            state: Mutex::new(State {
                browser,
                current: None,
                places: HashMap::new(),
                checked: None,
                score: None,
            }),
            scale: if view.dpr.is_finite() && view.dpr > 0.0 {
                view.dpr
            } else {
                1.0
            },
            attended: !headless,
        })
    }

    /// The page to draw on: the foreground one (looked up again when the
    /// last look is old or the page answered it is no longer in front).
    /// Moving to another page takes the overlay off the one left.
    async fn follow(&self, st: &mut State) -> Result<String, AdapterError> {
        if !st.browser.cdp().is_open() {
            st.browser = Arc::new(
                Browser::connect(&self.endpoint)
                    .await
                    .map_err(adapter_error)?,
            );
            st.checked = None;
        }
        if let (Some(page), Some(at)) = (&st.current, st.checked) {
            if at.elapsed() < RECHECK {
                return Ok(page.clone());
            }
        }
        let browser = Arc::clone(&st.browser);
        let pages = browser.pages().await.map_err(adapter_error)?;
        let i = browser.foreground(&pages).await.ok_or_else(|| {
            AdapterError::NotFound(format!(
                "the browser at {} has no open page to draw on; open one (cup browser start URL)",
                self.endpoint.describe()
            ))
        })?;
        let page = pages[i].id.clone();
        st.places.retain(|id, _| pages.iter().any(|p| &p.id == id));
        st.checked = Some(Instant::now());
        let left = st.current.replace(page.clone()).filter(|old| *old != page);
        if let Some(old) = left {
            st.score = None;
            if let Some(place) = st.places.get_mut(&old) {
                if !place.shown.is_empty() {
                    let remove = json!({"op": "remove"});
                    let leave = run(&browser, &old, place, &remove, false);
                    match tokio::time::timeout(LEAVE_TIMEOUT, leave).await {
                        Ok(Ok(_)) => place.shown.clear(),
                        Ok(Err(e)) => tracing::debug!(error = %e, "overlay: leaving a page"),
                        Err(_) => tracing::debug!("overlay: leaving a page took too long"),
                    }
                }
            }
        }
        Ok(page)
    }

    /// Draws `command` on `layer` in the foreground page; `picture`'s
    /// pixels go along when the layer may not hold them yet. When the
    /// page answers it has gone to the back, the foreground is looked up
    /// at once and the drawing moves there.
    async fn draw(
        &self,
        layer: Layer,
        command: &Value,
        picture: Option<&Sprite>,
    ) -> Result<(), AdapterError> {
        let mut st = self.state.lock().await;
        let mut page = self.follow(&mut st).await?;
        // Once more on another page: the one drawn on went to the back,
        // or failed (closed) while another came to the front.
        for last in [false, true] {
            let failed = match draw_on(&mut st, &page, layer, command, picture).await {
                Ok(answer) if st.note(&page, &answer) => return Ok(()),
                Ok(_) => None,
                Err(e) => {
                    st.checked = None;
                    Some(e)
                }
            };
            let front = if last {
                None
            } else {
                Some(self.follow(&mut st).await?).filter(|f| *f != page)
            };
            match (front, failed) {
                (Some(f), _) => page = f,
                (None, Some(e)) => return Err(e),
                (None, None) => return Ok(()),
            }
        }
        Ok(())
    }

    async fn within<T>(
        &self,
        what: &str,
        op: impl std::future::Future<Output = Result<T, AdapterError>>,
    ) -> Result<T, AdapterError> {
        tokio::time::timeout(OVERLAY_TIMEOUT, op)
            .await
            .unwrap_or_else(|_| {
                Err(AdapterError::Unavailable(format!(
                    "the page did not {what} within {} s (busy or loading); try again",
                    OVERLAY_TIMEOUT.as_secs()
                )))
            })
    }

    async fn hide_now(&self, layer: Layer) -> Result<(), AdapterError> {
        let mut st = self.state.lock().await;
        let Some(page) = st.current.clone() else {
            return Ok(());
        };
        let browser = Arc::clone(&st.browser);
        let Some(place) = st.places.get_mut(&page) else {
            return Ok(());
        };
        if !place.shown.contains(&layer) {
            return Ok(());
        }
        let command = json!({"op": "hide", "layer": layer.name()});
        match run(&browser, &page, place, &command, false).await? {
            Some(v) => {
                st.note(&page, &v);
            }
            None => place.shown.clear(),
        }
        Ok(())
    }
}

#[async_trait]
impl Overlay for WebOverlay {
    async fn show(&self, layer: Layer, sprite: Arc<Sprite>, at: Point) -> Result<(), AdapterError> {
        if sprite.width == 0 || sprite.height == 0 {
            return self.hide(layer).await;
        }
        let command = json!({
            "op": "show",
            "layer": layer.name(),
            "key": sprite.key.to_string(),
            "x": at.x,
            "y": at.y,
            "hx": sprite.hot_x,
            "hy": sprite.hot_y,
            "w": sprite.width,
            "h": sprite.height,
        });
        self.within(
            "draw the agent cursor",
            self.draw(layer, &command, Some(&sprite)),
        )
        .await
    }

    async fn frame(
        &self,
        layer: Layer,
        rect: Rect,
        colour: [u8; 3],
        thickness: u32,
    ) -> Result<(), AdapterError> {
        if rect.w == 0 || rect.h == 0 || thickness == 0 {
            return self.hide(layer).await;
        }
        let command = json!({
            "op": "frame",
            "layer": layer.name(),
            "x": rect.x,
            "y": rect.y,
            "w": rect.w,
            "h": rect.h,
            "t": thickness,
            "rgb": colour,
        });
        self.within("draw the rectangle", self.draw(layer, &command, None))
            .await
    }

    async fn hide(&self, layer: Layer) -> Result<(), AdapterError> {
        self.within("hide the overlay", self.hide_now(layer)).await
    }

    async fn attended(&self) -> bool {
        self.attended
    }

    fn scale(&self) -> f64 {
        self.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_by_name() {
        for l in Layer::ALL {
            assert_eq!(layer_named(l.name()), Some(l));
        }
        assert_eq!(layer_named("nope"), None);
    }

    #[test]
    fn gone_contexts() {
        assert!(context_gone("Cannot find context with specified id"));
        assert!(context_gone("Execution context was destroyed."));
        assert!(!context_gone("Object reference chain is too long"));
    }
}
