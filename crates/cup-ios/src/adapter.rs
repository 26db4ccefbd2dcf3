//! [`IosAdapter`]: cup's [`Adapter`] over WebDriverAgent. The screen is the
//! device's (points × scale = pixels); the one window is the app in front;
//! a capture is one JSON source mapped by [`crate::map`]; an action finds
//! its element again in a fresh source, runs its [`crate::plan`] and reads
//! the screen again to report what changed.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use base64::Engine as _;
use cup::{
    ActionParams, ActionResult, Adapter, AdapterError, AppEntry, Capture, CaptureLimits, Check,
    Effect, Gesture, Launched, Monitor, ScreenInfo, Shot, ShotTarget, Target, WindowHandle,
};
use cup_protocol::keys::Combo;
use cup_protocol::{Action, PlatformId, Rect, WindowInfo};
use serde_json::{Map, Value};

use crate::apps;
use crate::client::{WdaClient, WdaError};
use crate::facts::{self, AppFacts, NativeDump, ScreenFacts};
use crate::map::{self, Limits};
use crate::plan::{self, Plan, PlanError, Step};
use crate::refs::{locate, ElementRef};

/// How long WDA's source may take at least (a device often needs seconds
/// for a big screen; its one reply cannot be cut at a deadline).
pub const SOURCE_WAIT: Duration = Duration::from_secs(20);
/// How long a screenshot may take at least (WDA's own limit is 20 s).
pub const SCREENSHOT_WAIT: Duration = Duration::from_secs(30);
/// How long an app launch may take (XCTest waits for the app to settle).
pub const LAUNCH_WAIT: Duration = Duration::from_secs(60);
/// How long a launched app gets to come to the front.
pub const FRONT_WAIT: Duration = Duration::from_secs(10);
/// The wait after an action before the screen is read again (twice that
/// before a second look when nothing changed yet).
pub const SETTLE: Duration = Duration::from_millis(500);

fn plan_error(e: PlanError) -> AdapterError {
    match e {
        PlanError::Unsupported(m) => AdapterError::Unsupported(m),
        PlanError::Invalid(m) => AdapterError::Invalid(m),
    }
}

/// The PNG's width and height (from its IHDR chunk).
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if png.len() < 24 || !png.starts_with(SIGNATURE) || &png[12..16] != b"IHDR" {
        return None;
    }
    let be = |b: &[u8]| -> Option<u32> { Some(u32::from_be_bytes(b.try_into().ok()?)) };
    Some((be(&png[16..20])?, be(&png[20..24])?))
}

/// The screen as cup describes it: pixels, one monitor.
pub fn screen_info(s: &ScreenFacts) -> ScreenInfo {
    let (w, h) = (s.width_pixels(), s.height_pixels());
    ScreenInfo {
        width: w,
        height: h,
        scale: s.scale,
        monitors: vec![Monitor {
            name: "screen".to_owned(),
            rect: Rect::new(
                0,
                0,
                u64::try_from(w).unwrap_or(0),
                u64::try_from(h).unwrap_or(0),
            ),
            primary: true,
            scale: s.scale,
        }],
    }
}

/// The iOS adapter: one WebDriverAgent.
#[derive(Debug)]
pub struct IosAdapter {
    client: WdaClient,
    settle: Duration,
    last: Mutex<Option<NativeDump>>,
    /// Apps seen in front: (display name, bundle id).
    seen: Mutex<Vec<(String, String)>>,
}

impl IosAdapter {
    /// An adapter for the WebDriverAgent at `url` (`http://127.0.0.1:8100`;
    /// see [`crate::DEFAULT_URL`]). No request is made until asked.
    ///
    /// # Errors
    ///
    /// [`AdapterError::Invalid`] when the URL is not `http://HOST[:PORT]`.
    pub fn new(url: &str) -> Result<IosAdapter, AdapterError> {
        Ok(IosAdapter {
            client: WdaClient::new(url)?,
            settle: SETTLE,
            last: Mutex::new(None),
            seen: Mutex::new(Vec::new()),
        })
    }

    /// The same adapter with `timeout` as the deadline of each request
    /// (20 s by default; sources, screenshots and launches get at least
    /// [`SOURCE_WAIT`], [`SCREENSHOT_WAIT`], [`LAUNCH_WAIT`]).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> IosAdapter {
        self.client = self.client.with_timeout(timeout);
        self
    }

    /// The same adapter waiting `settle` after an action before it reads
    /// the screen again ([`SETTLE`] by default).
    #[must_use]
    pub fn with_settle(mut self, settle: Duration) -> IosAdapter {
        self.settle = settle;
        self
    }

    /// WDA's base URL.
    pub fn url(&self) -> &str {
        self.client.url()
    }

    /// The WDA client (its session, raw calls).
    pub fn client(&self) -> &WdaClient {
        &self.client
    }

    /// The native facts of the last capture.
    pub fn last_dump(&self) -> Option<NativeDump> {
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn seen(&self) -> Vec<(String, String)> {
        self.seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn remember(&self, name: &str, bundle: &str) {
        if name.is_empty() || bundle.is_empty() {
            return;
        }
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen.retain(|(_, b)| b != bundle);
        seen.push((name.to_owned(), bundle.to_owned()));
    }

    /// The screen: `/wda/screen`, and `/window/size` where it has no size.
    ///
    /// # Errors
    ///
    /// WDA does not answer, or gives no size.
    pub async fn screen_facts(&self) -> Result<ScreenFacts, AdapterError> {
        let screen = self.client.call(&plan::screen()).await?;
        let window = if ScreenFacts::has_size(&screen) {
            None
        } else {
            Some(self.client.call(&plan::window_size()).await?)
        };
        ScreenFacts::from_replies(&screen, window.as_ref()).map_err(AdapterError::Platform)
    }

    async fn active(&self) -> Result<AppFacts, AdapterError> {
        Ok(AppFacts::from_reply(
            &self.client.call(&plan::active_app()).await?,
        ))
    }

    /// Reads the screen, the source and the app in front.
    ///
    /// # Errors
    ///
    /// WDA does not answer within `wait`, or its source is not a tree.
    pub async fn read(&self, wait: Duration) -> Result<NativeDump, AdapterError> {
        let screen = self.screen_facts().await?;
        let reply = self
            .client
            .call_within(&plan::source(), wait.max(self.client.timeout()))
            .await?;
        let tree = facts::source_tree(reply).map_err(AdapterError::Platform)?;
        let app = match self.active().await {
            Ok(a) => Some(a),
            Err(e) => {
                tracing::debug!("no active app info: {e}");
                None
            }
        };
        let bundle_id = app.map(|a| a.bundle_id).filter(|b| !b.is_empty());
        if let (Some(b), Some(label)) = (&bundle_id, &tree.label) {
            self.remember(label.trim(), b);
        }
        Ok(NativeDump {
            platform: "ios".to_owned(),
            source: format!("recorded by cup from WebDriverAgent at {}", self.url()),
            screen,
            bundle_id,
            tree,
        })
    }

    async fn capture_now(
        &self,
        limits: &CaptureLimits,
    ) -> Result<(NativeDump, Capture), AdapterError> {
        let dump = self.read(limits.deadline.max(SOURCE_WAIT)).await?;
        // WDA's one reply cannot be cut; the deadline bounds the mapping.
        let capture = map::capture(
            &dump,
            &Limits {
                max_nodes: limits.max_nodes,
                max_depth: limits.max_depth,
                deadline: Some(Instant::now() + limits.deadline),
            },
        );
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(dump.clone());
        Ok((dump, capture))
    }

    async fn run(&self, plan: &Plan) -> Result<(), AdapterError> {
        for step in &plan.steps {
            match step {
                Step::Call(c) => {
                    self.client.call(c).await?;
                }
                Step::Wait(d) => tokio::time::sleep(*d).await,
            }
        }
        Ok(())
    }

    /// Reads the screen after an action and reports what changed since
    /// `before`; a second, longer look when nothing changed at first.
    async fn observe(
        &self,
        before: &Capture,
        refs: &HashMap<String, String>,
        target: Option<&str>,
        message: String,
    ) -> ActionResult {
        for (i, wait) in [self.settle, self.settle * 2].into_iter().enumerate() {
            tokio::time::sleep(wait).await;
            let after = match self.capture_now(&CaptureLimits::default()).await {
                Ok((_, c)) => c,
                Err(e) => {
                    return ActionResult::observed(
                        format!("{message}; the screen could not be read after it: {e}"),
                        Effect::Unverified,
                        Vec::new(),
                    )
                }
            };
            let (effect, changes) = cup::tree_diff::observe(before, &after, refs, target);
            if effect == Effect::Confirmed || i == 1 {
                return ActionResult::observed(message, effect, changes);
            }
        }
        ActionResult::observed(message, Effect::NoChange, Vec::new())
    }

    fn title(&self, app: &AppFacts) -> String {
        self.seen()
            .into_iter()
            .find(|(_, b)| *b == app.bundle_id)
            .map(|(n, _)| n)
            .or_else(|| Some(app.name.clone()).filter(|n| !n.is_empty()))
            .or_else(|| Some(app.bundle_id.clone()).filter(|b| !b.is_empty()))
            .unwrap_or_else(|| "iOS".to_owned())
    }

    fn handle(&self, app: &AppFacts, screen: &ScreenFacts) -> WindowHandle {
        let mut extra = Map::new();
        if !app.bundle_id.is_empty() {
            extra.insert("bundleId".into(), Value::from(app.bundle_id.clone()));
        }
        WindowHandle {
            info: WindowInfo {
                title: self.title(app),
                pid: app.pid.map(i64::from),
                foreground: true,
                bounds: screen_info(screen).monitors.first().map(|m| m.rect),
                url: None,
                extra,
            },
            native: format!("ios-app:{}", app.bundle_id),
        }
    }
}

#[async_trait]
impl Adapter for IosAdapter {
    fn platform(&self) -> PlatformId {
        PlatformId::Ios
    }

    async fn screen(&self) -> Result<ScreenInfo, AdapterError> {
        Ok(screen_info(&self.screen_facts().await?))
    }

    async fn windows(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        let app = self.active().await?;
        let screen = self.screen_facts().await?;
        Ok(vec![self.handle(&app, &screen)])
    }

    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError> {
        Ok(None)
    }

    async fn capture(
        &self,
        _windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError> {
        // There is one window: whatever app is in front now.
        Ok(self.capture_now(limits).await?.1)
    }

    async fn act(
        &self,
        target: &Target<'_>,
        action: Action,
        params: &ActionParams,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let r: ElementRef = cup::refs::parse_ref(target.native)?;
        let (dump, before) = self.capture_now(&CaptureLimits::default()).await?;
        let el = locate(&dump.tree, &r, &target.node.name).ok_or_else(|| {
            AdapterError::NotFound(format!(
                "{} ({} \"{}\") is no longer on the screen, or no longer told apart from another like it; take a new snapshot",
                target.id,
                target.node.role.name(),
                target.node.name
            ))
        })?;
        let plan = plan::element(action, el, &dump.screen, params).map_err(plan_error)?;
        self.run(&plan).await?;
        Ok(self
            .observe(&before, refs, Some(target.id), plan.message)
            .await)
    }

    async fn press(
        &self,
        combo: &Combo,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let plan = plan::key_combo(combo).map_err(plan_error)?;
        let (_, before) = self.capture_now(&CaptureLimits::default()).await?;
        self.run(&plan).await?;
        Ok(self.observe(&before, refs, None, plan.message).await)
    }

    async fn input(
        &self,
        gesture: &Gesture,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let (dump, before) = self.capture_now(&CaptureLimits::default()).await?;
        let plan = plan::gesture(gesture, &dump.screen).map_err(plan_error)?;
        self.run(&plan).await?;
        Ok(self.observe(&before, refs, None, plan.message).await)
    }

    async fn screenshot(&self, target: &ShotTarget) -> Result<Shot, AdapterError> {
        if let ShotTarget::Monitor(i) = target {
            if *i > 0 {
                return Err(AdapterError::Invalid(format!(
                    "there is no monitor {i}; an iOS device has one screen, monitor 0"
                )));
            }
        }
        let wait = SCREENSHOT_WAIT.max(self.client.timeout());
        let value = self.client.call_within(&plan::screenshot(), wait).await?;
        let text: String = value
            .as_str()
            .ok_or_else(|| {
                AdapterError::Platform(
                    "WebDriverAgent's screenshot is not base64 text; update WebDriverAgent"
                        .to_owned(),
                )
            })?
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let png = base64::engine::general_purpose::STANDARD
            .decode(text.as_bytes())
            .map_err(|e| {
                AdapterError::Platform(format!("WebDriverAgent's screenshot is not base64: {e}"))
            })?;
        let (width, height) = png_size(&png).ok_or_else(|| {
            AdapterError::Platform(
                "WebDriverAgent's screenshot is not a PNG; set its screenshotQuality to 0 (PNG)"
                    .to_owned(),
            )
        })?;
        let ShotTarget::Region(region) = target else {
            return Ok(Shot {
                png,
                width,
                height,
                x: 0,
                y: 0,
            });
        };
        cup::screenshot::crop_png(&png, *region)
    }

    async fn apps(&self) -> Result<Vec<AppEntry>, AdapterError> {
        // WDA cannot list the installed apps: the one in front is known,
        // and open_app takes Apple's apps by name or any bundle id.
        let app = self.active().await?;
        let title = self.title(&app);
        Ok(vec![AppEntry {
            name: title.clone(),
            id: app.bundle_id.clone(),
            pids: app.pid.into_iter().collect(),
            windows: vec![title],
            installed: true,
        }])
    }

    async fn check(&self) -> Vec<Check> {
        let fix_wda = "start WebDriverAgent on the device (xcodebuild test-without-building -scheme WebDriverAgentRunner …, or go-ios runwda) and forward port 8100 (iproxy 8100 8100, or go-ios forward)".to_owned();
        let status = self.client.call(&plan::status()).await;
        let wda = match &status {
            Ok(v) => {
                let os = |k: &str| v.get("os").and_then(|o| o.get(k)).and_then(Value::as_str);
                let build = v
                    .get("build")
                    .and_then(|b| b.get("version"))
                    .and_then(Value::as_str);
                Check {
                    name: "WebDriverAgent".into(),
                    ok: true,
                    detail: format!(
                        "ready at {} ({} {}{})",
                        self.url(),
                        os("name").unwrap_or("iOS"),
                        os("version").unwrap_or("?"),
                        build.map(|b| format!(", WDA {b}")).unwrap_or_default()
                    ),
                    fix: String::new(),
                }
            }
            Err(e) => Check {
                name: "WebDriverAgent".into(),
                ok: false,
                detail: e.to_string(),
                fix: fix_wda.clone(),
            },
        };
        if status.is_err() {
            let skipped = |name: &str| Check {
                name: name.into(),
                ok: false,
                detail: "not checked: WebDriverAgent does not answer".into(),
                fix: fix_wda.clone(),
            };
            return vec![wda, skipped("session"), skipped("screen")];
        }
        let session = match self.client.session().await {
            Ok(id) => Check {
                name: "session".into(),
                ok: true,
                detail: format!("session {id}"),
                fix: String::new(),
            },
            Err(e) => Check {
                name: "session".into(),
                ok: false,
                detail: e.to_string(),
                fix: "restart WebDriverAgent; another client's stuck session can block new ones"
                    .into(),
            },
        };
        let screen = match self.screen_facts().await {
            Ok(s) => Check {
                name: "screen".into(),
                ok: true,
                detail: format!(
                    "{}x{} pt at {}x ({}x{} px)",
                    s.width_points,
                    s.height_points,
                    s.scale,
                    s.width_pixels(),
                    s.height_pixels()
                ),
                fix: String::new(),
            },
            Err(e) => Check {
                name: "screen".into(),
                ok: false,
                detail: e.to_string(),
                fix: "unlock the device and update WebDriverAgent".into(),
            },
        };
        vec![wda, session, screen]
    }

    fn native_dump(&self) -> Option<Value> {
        serde_json::to_value(self.last_dump()?).ok()
    }

    async fn open_app(&self, name: &str) -> Result<Launched, AdapterError> {
        let (display, bundle) = apps::resolve(name, &self.seen()).ok_or_else(|| {
            AdapterError::NotFound(format!(
                "no app known as '{name}'; give its bundle id (e.g. com.example.app): WebDriverAgent cannot list the installed apps"
            ))
        })?;
        let wait = LAUNCH_WAIT.max(self.client.timeout());
        self.client
            .call_within(&plan::launch(&bundle), wait)
            .await
            .map_err(|e: WdaError| AdapterError::from(e))?;
        let end = Instant::now() + FRONT_WAIT;
        loop {
            let app = self.active().await?;
            if app.bundle_id.eq_ignore_ascii_case(&bundle) {
                let screen = self.screen_facts().await?;
                if !self.seen().iter().any(|(_, b)| *b == bundle) {
                    self.remember(&display, &bundle);
                }
                return Ok(Launched {
                    name: display,
                    pid: app.pid.unwrap_or(0),
                    window: Some(self.handle(&app, &screen)),
                });
            }
            if Instant::now() >= end {
                return Err(AdapterError::Platform(format!(
                    "launched {bundle} but {} is still in front after {} s; take a snapshot to see why (a permission prompt?)",
                    if app.bundle_id.is_empty() { "another app" } else { &app.bundle_id },
                    FRONT_WAIT.as_secs()
                )));
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_sizes_and_screens() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&1170u32.to_be_bytes());
        png.extend_from_slice(&2532u32.to_be_bytes());
        assert_eq!(png_size(&png), Some((1170, 2532)));
        assert_eq!(png_size(b"GIF89a"), None);
        let info = screen_info(&ScreenFacts {
            width_points: 390.0,
            height_points: 844.0,
            scale: 3.0,
        });
        assert_eq!((info.width, info.height, info.scale), (1170, 2532, 3.0));
        assert_eq!(info.monitors[0].rect, Rect::new(0, 0, 1170, 2532));
        assert!(IosAdapter::new("ftp://x").is_err());
    }
}
