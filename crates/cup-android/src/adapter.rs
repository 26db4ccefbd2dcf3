//! [`AndroidAdapter`]: cup's [`Adapter`] for a phone over adb. A capture
//! is one UI dump (every window's root when the device gives them), the
//! foreground app from `dumpsys window`, and the screen from `wm`; actions
//! are `input` commands planned by [`crate::plan`], and their effect is
//! what a dump read after them shows against the one before
//! ([`cup::tree_diff`]).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use base64::Engine as _;
use cup::adapter::{
    Adapter, AdapterError, AppEntry, Capture, CaptureLimits, Check, Launched, Monitor, ScreenInfo,
    Shot, ShotTarget, WindowHandle,
};
use cup::input::{Gesture, Point};
use cup::{ActionParams, ActionResult, Target};
use cup_protocol::keys::Combo;
use cup_protocol::{Action, PlatformId, Rect, WindowInfo};
use tokio::sync::OnceCell;

use crate::adb::{quote, AdbError, AdbServer};
use crate::device::{Phone, DUMP, QUICK};
use crate::dump::parse;
use crate::facts::{Device, Dump, NativeDump};
use crate::map::{map, windows, WindowSummary};
use crate::plan::{self, Plan, Step};

/// ADBKeyBoard, the input method that types any text sent to it by
/// broadcast: package `com.android.adbkeyboard`, service `AdbIME`
/// (senzhk/ADBKeyBoard `AndroidManifest.xml`); action `ADB_INPUT_B64`,
/// string extra `msg`, decoded with `Base64.DEFAULT` and committed to the
/// focused field (`AdbIME.java`).
pub const ADB_KEYBOARD: &str = "com.android.adbkeyboard/.AdbIME";

/// How long ADBKeyBoard is given to be bound after `ime set`.
const IME_BIND: Duration = Duration::from_secs(3);

/// Whether `ime list -a -s` (every installed input method, one id a line;
/// without `-a` only the enabled ones) lists ADBKeyBoard.
fn lists_adb_keyboard(imes: &str) -> bool {
    imes.lines().any(|l| l.trim() == ADB_KEYBOARD)
}

/// How long after an action the screen is given before it is read again.
const SETTLE: Duration = Duration::from_millis(400);

/// A dump listed by `windows` is reused by the capture that follows
/// within this time.
const FRESH: Duration = Duration::from_secs(3);

/// One read of the device: what was asked and what it said.
#[derive(Debug, Clone)]
struct Read {
    at: Instant,
    native: NativeDump,
    dump: Dump,
    windows: Vec<WindowSummary>,
}

/// Which windows a capture covers.
#[derive(Debug, Clone, PartialEq)]
enum Scope {
    /// The foreground app's.
    Foreground,
    /// Every window of the dump.
    All,
    /// These (indices of the dump's roots).
    These(Vec<usize>),
}

/// The last capture: its read, the windows it covered and its tree.
#[derive(Debug, Clone)]
struct Last {
    read: Read,
    scope: Scope,
    capture: Capture,
    limits: CaptureLimits,
}

/// Android over adb.
#[derive(Debug)]
pub struct AndroidAdapter {
    server: AdbServer,
    serial: Option<String>,
    phone: OnceCell<Phone>,
    device: Mutex<Option<Device>>,
    pending: Mutex<Option<Read>>,
    last: Mutex<Option<Last>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn adb_error(e: AdbError) -> AdapterError {
    match e {
        AdbError::NoServer(m) => AdapterError::Unavailable(m),
        AdbError::Device(m) => AdapterError::Unavailable(m),
        other => AdapterError::Platform(other.to_string()),
    }
}

/// A display name of a package: its last segment that is not a generic
/// word (`com.google.android.apps.maps` → `maps`).
pub fn app_name(package: &str) -> String {
    package
        .rsplit('.')
        .find(|s| !matches!(*s, "android" | "app" | "apps" | "mobile" | "com" | "google"))
        .unwrap_or(package)
        .to_owned()
}

/// The handle of a window of the dump.
fn handle(w: &WindowSummary, pid: Option<u32>) -> WindowHandle {
    WindowHandle {
        info: WindowInfo {
            title: w.title.clone(),
            pid: pid.map(i64::from),
            foreground: w.foreground,
            bounds: w.bounds,
            url: None,
            extra: serde_json::Map::new(),
        },
        native: format!("w{}", w.index),
    }
}

impl AndroidAdapter {
    /// The adapter of the device `serial` (else `ANDROID_SERIAL`, else the
    /// only device) behind `server`. Nothing is connected until first use.
    pub fn new(server: AdbServer, serial: Option<String>) -> Self {
        AndroidAdapter {
            server,
            serial,
            phone: OnceCell::new(),
            device: Mutex::new(None),
            pending: Mutex::new(None),
            last: Mutex::new(None),
        }
    }

    async fn phone(&self) -> Result<&Phone, AdapterError> {
        self.phone
            .get_or_try_init(|| Phone::open(self.server.clone(), self.serial.as_deref()))
            .await
            .map_err(adb_error)
    }

    async fn device(&self) -> Result<Device, AdapterError> {
        if let Some(d) = lock(&self.device).clone() {
            return Ok(d);
        }
        let d = self.phone().await?.device().await.map_err(adb_error)?;
        *lock(&self.device) = Some(d.clone());
        Ok(d)
    }

    /// Reads the screen: the foreground app and a UI dump.
    async fn read(&self, deadline: Duration) -> Result<Read, AdapterError> {
        let phone = self.phone().await?;
        let device = self.device().await?;
        // Two streams at once through the server: the dump takes its
        // seconds on a phone, the focus query need not wait for it.
        let (focus, xml) = tokio::join!(phone.focus(), phone.dump(deadline));
        let (focus, xml) = (focus.map_err(adb_error)?, xml.map_err(adb_error)?);
        let dump = parse(&xml).map_err(|e| AdapterError::Platform(e.to_string()))?;
        let windows = windows(&dump, focus.as_ref());
        Ok(Read {
            at: Instant::now(),
            native: NativeDump {
                platform: "android".into(),
                source: "recorded by cup snapshot --native-dump".into(),
                device,
                rotation: dump.rotation,
                focus,
                xml,
            },
            dump,
            windows,
        })
    }

    fn size(&self, read: &Read) -> (u32, u32) {
        read.dump
            .size
            .unwrap_or_else(|| read.native.device.size_at(read.dump.rotation))
    }

    /// Maps the windows `scope` names and keeps the read as the last
    /// capture.
    fn keep(&self, read: Read, scope: Scope, limits: &CaptureLimits) -> Capture {
        let chosen: Vec<WindowSummary> = read
            .windows
            .iter()
            .filter(|w| match &scope {
                Scope::Foreground => w.foreground,
                Scope::All => true,
                Scope::These(these) => these.contains(&w.index),
            })
            .cloned()
            .collect();
        let capture = map(&read.dump, &chosen, limits);
        *lock(&self.last) = Some(Last {
            read,
            scope,
            capture: capture.clone(),
            limits: limits.clone(),
        });
        capture
    }

    /// Runs the steps of a plan. Text outside `input text`'s reach goes
    /// through ADBKeyBoard, whose presence is checked before anything is
    /// done, so a refusal types nothing. Each shell step is first fitted to
    /// the phone's Android version ([`plan::for_sdk`]), all before the
    /// first runs.
    async fn perform(&self, plan: &Plan) -> Result<(), AdapterError> {
        let phone = self.phone().await?;
        let mut steps = Vec::with_capacity(plan.steps.len());
        for step in &plan.steps {
            steps.push(match step {
                Step::Shell(cmd) => Step::Shell(
                    plan::for_sdk(cmd, phone.sdk).map_err(|e| AdapterError::Unsupported(e.0))?,
                ),
                Step::Unicode(t) => Step::Unicode(t.clone()),
            });
        }
        let unicode: Vec<&str> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Unicode(t) => Some(t.as_str()),
                Step::Shell(_) => None,
            })
            .collect();
        let mut restore = None;
        if !unicode.is_empty() {
            let imes = phone
                .read("ime list -a -s", QUICK)
                .await
                .map_err(adb_error)?;
            if !lists_adb_keyboard(&imes) {
                let chars: String = unicode.concat().chars().take(12).collect();
                return Err(AdapterError::Unsupported(format!(
                    "Android's `input text` types ASCII only and this text has other characters ({chars}); install ADBKeyBoard (package com.android.adbkeyboard) on the device so cup can type them exactly; nothing was typed"
                )));
            }
            let current = phone
                .read("settings get secure default_input_method", QUICK)
                .await
                .map_err(adb_error)?;
            let current = current.trim().to_owned();
            if current != ADB_KEYBOARD {
                // `ime enable` answers `Input method …: now enabled` or
                // `…: already enabled for user #0`; an IME the system does
                // not know gives `Unknown input method … cannot be
                // enabled` (exit 255 on recent Androids, 0 before), which
                // `run` turns into an error.
                phone
                    .run(&format!("ime enable {ADB_KEYBOARD}"), QUICK)
                    .await
                    .map_err(adb_error)?;
                phone
                    .run(&format!("ime set {ADB_KEYBOARD}"), QUICK)
                    .await
                    .map_err(adb_error)?;
                restore = Some(current).filter(|c| !c.is_empty() && c != "null");
            }
        }
        let mut result = if unicode.is_empty() {
            Ok(())
        } else {
            self.ime_ready(phone).await
        };
        if result.is_ok() {
            for step in &steps {
                let done = match step {
                    Step::Shell(cmd) => phone.run(cmd, QUICK).await.map(|_| ()),
                    Step::Unicode(text) => {
                        let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
                        phone
                            .run(
                                &format!("am broadcast -a ADB_INPUT_B64 --es msg {}", quote(&b64)),
                                QUICK,
                            )
                            .await
                            .map(|_| ())
                    }
                };
                if let Err(e) = done {
                    result = Err(adb_error(e));
                    break;
                }
            }
        }
        if let Some(ime) = restore {
            if let Err(e) = phone.run(&format!("ime set {}", quote(&ime)), QUICK).await {
                tracing::warn!("could not switch the keyboard back to {ime}: {e}");
            }
        }
        result
    }

    /// Waits until ADBKeyBoard is bound: `ime set` returns before the
    /// system binds the method, and a broadcast sent before then is lost
    /// without a word (`Broadcast completed: result=0` either way).
    async fn ime_ready(&self, phone: &Phone) -> Result<(), AdapterError> {
        let until = Instant::now() + IME_BIND;
        loop {
            match phone.ime_bound(ADB_KEYBOARD).await.map_err(adb_error)? {
                Some(true) => return Ok(()),
                // A dump that does not say: give it a moment and go on.
                None => {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    return Ok(());
                }
                Some(false) if Instant::now() >= until => {
                    return Err(AdapterError::Platform(format!(
                        "ADBKeyBoard was selected but the system had not bound it after {} s (dumpsys input_method: mBoundToMethod=false); nothing was typed; retry, or check the keyboard in the phone's settings",
                        IME_BIND.as_secs()
                    )))
                }
                Some(false) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Runs `plan`, reads the screen again and reports what changed
    /// against the last capture (read first when there is none).
    async fn acted(
        &self,
        plan: Plan,
        refs: &HashMap<String, String>,
        target: Option<&str>,
    ) -> Result<ActionResult, AdapterError> {
        let before = lock(&self.last).clone();
        let before = match before {
            Some(b) => b,
            None => {
                let read = self.read(DUMP).await?;
                self.keep(read, Scope::Foreground, &CaptureLimits::default());
                lock(&self.last).clone().ok_or_else(|| {
                    AdapterError::Platform("the screen read before the action was lost".into())
                })?
            }
        };
        self.perform(&plan).await?;
        if plan.steps.is_empty() {
            return Ok(ActionResult::observed(
                plan.message,
                cup::Effect::NoChange,
                Vec::new(),
            ));
        }
        // Windows come and go with actions: a capture of some windows is
        // compared with the foreground's after.
        let scope = match before.scope {
            Scope::All => Scope::All,
            Scope::Foreground | Scope::These(_) => Scope::Foreground,
        };
        // A second, longer look when the first saw nothing: an app that
        // starts an animation or a network call answers later.
        let mut seen = (cup::Effect::NoChange, Vec::new());
        for wait in [SETTLE, SETTLE * 2] {
            tokio::time::sleep(wait).await;
            let read = match self.read(DUMP).await {
                Ok(r) => r,
                Err(e) => {
                    return Ok(ActionResult::observed(
                        format!(
                            "{}; the screen could not be read after it: {e}",
                            plan.message
                        ),
                        cup::Effect::Unverified,
                        Vec::new(),
                    ))
                }
            };
            let after = self.keep(read, scope.clone(), &before.limits);
            seen = cup::tree_diff::observe(&before.capture, &after, refs, target);
            if seen.0 == cup::Effect::Confirmed {
                break;
            }
        }
        let (effect, changes) = seen;
        Ok(ActionResult::observed(plan.message, effect, changes))
    }

    /// The screen size of the last read, else asked.
    async fn screen_size(&self) -> Result<(u32, u32), AdapterError> {
        if let Some(last) = lock(&self.last).as_ref() {
            return Ok(self.size(&last.read));
        }
        let device = self.device().await?;
        let rotation = self.phone().await?.rotation().await;
        Ok(device.size_at(rotation))
    }
}

#[async_trait]
impl Adapter for AndroidAdapter {
    fn platform(&self) -> PlatformId {
        PlatformId::Android
    }

    async fn screen(&self) -> Result<ScreenInfo, AdapterError> {
        let (w, h) = self.screen_size().await?;
        let scale = self.device().await?.scale();
        let rect = Rect::new(0, 0, u64::from(w), u64::from(h));
        Ok(ScreenInfo {
            width: i64::from(w),
            height: i64::from(h),
            scale,
            monitors: vec![Monitor {
                name: "display 0".into(),
                rect,
                primary: true,
                scale,
            }],
        })
    }

    async fn windows(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        let read = self.read(DUMP).await?;
        let phone = self.phone().await?;
        let mut out = Vec::new();
        for w in &read.windows {
            let pid = if w.foreground {
                phone.pid(&w.package).await
            } else {
                None
            };
            out.push(handle(w, pid));
        }
        *lock(&self.pending) = Some(read);
        Ok(out)
    }

    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError> {
        Ok(None)
    }

    async fn capture(
        &self,
        windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError> {
        let pending = lock(&self.pending)
            .take()
            .filter(|r| r.at.elapsed() < FRESH);
        let read = match pending {
            Some(r) => r,
            // A dump cannot come back in parts: it waits for the app to
            // be idle, up to the longer of the limit and 20 s.
            None => self.read(limits.deadline.max(DUMP)).await?,
        };
        let wanted: Vec<usize> = windows
            .iter()
            .filter_map(|w| w.native.strip_prefix('w')?.parse().ok())
            .collect();
        let scope = if wanted.is_empty() {
            Scope::Foreground
        } else if read.windows.iter().all(|w| wanted.contains(&w.index)) {
            Scope::All
        } else {
            Scope::These(wanted)
        };
        Ok(self.keep(read, scope, limits))
    }

    async fn act(
        &self,
        target: &Target<'_>,
        action: Action,
        params: &ActionParams,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let size = self.screen_size().await?;
        let plan = plan::action(target.id, target.node, action, params, size)
            .map_err(|e| AdapterError::Unsupported(e.0))?;
        self.acted(plan, refs, Some(target.id)).await
    }

    async fn press(
        &self,
        combo: &Combo,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let cmd = plan::press(combo).map_err(|e| AdapterError::Invalid(e.0))?;
        let plan = Plan {
            steps: vec![Step::Shell(cmd)],
            message: format!("Pressed {combo}"),
        };
        self.acted(plan, refs, None).await
    }

    async fn screenshot(&self, target: &ShotTarget) -> Result<Shot, AdapterError> {
        let png = self
            .phone()
            .await?
            .screencap(None)
            .await
            .map_err(adb_error)?;
        let region = match target {
            ShotTarget::Screen | ShotTarget::FullPage | ShotTarget::Monitor(0) => None,
            ShotTarget::Monitor(i) => {
                return Err(AdapterError::Invalid(format!(
                    "there is no display {i}; this phone has display 0"
                )))
            }
            ShotTarget::Region(r) => Some(*r),
            ShotTarget::Window(w) => {
                let last = lock(&self.last).clone();
                let found = last.and_then(|l| {
                    l.read
                        .windows
                        .iter()
                        .find(|s| format!("w{}", s.index) == *w || s.title == *w || s.package == *w)
                        .and_then(|s| s.bounds)
                });
                Some(found.ok_or_else(|| {
                    AdapterError::NotFound(format!(
                        "no window {w} in the last snapshot; take a snapshot and use a title it lists"
                    ))
                })?)
            }
        };
        match region {
            Some(r) => cup::screenshot::crop_png(&png, r),
            None => {
                let (_, w, h) = cup::image::rgb_from_png(&png).map_err(|e| {
                    AdapterError::Platform(format!("the screenshot does not decode: {e}"))
                })?;
                Ok(Shot {
                    png,
                    width: w,
                    height: h,
                    x: 0,
                    y: 0,
                })
            }
        }
    }

    async fn input(
        &self,
        gesture: &Gesture,
        refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let plan = plan::gesture(gesture).map_err(|e| AdapterError::Unsupported(e.0))?;
        self.acted(plan, refs, None).await
    }

    async fn cursor(&self) -> Result<Point, AdapterError> {
        Err(AdapterError::Unsupported(
            "a touch screen has no pointer position; use the elements' bounds".into(),
        ))
    }

    async fn apps(&self) -> Result<Vec<AppEntry>, AdapterError> {
        let phone = self.phone().await?;
        let launchables = phone.launchables().await.map_err(adb_error)?;
        let focus = phone.focus().await.map_err(adb_error)?;
        let mut out = Vec::new();
        for (package, _) in launchables {
            let front = focus.as_ref().is_some_and(|f| f.package == package);
            let pids = if front {
                phone.pid(&package).await.into_iter().collect()
            } else {
                Vec::new()
            };
            out.push(AppEntry {
                name: app_name(&package),
                windows: if front {
                    vec![package.clone()]
                } else {
                    Vec::new()
                },
                id: package,
                pids,
                installed: true,
            });
        }
        Ok(out)
    }

    async fn check(&self) -> Vec<Check> {
        let mut out = Vec::new();
        let server = self.server.version().await;
        out.push(Check {
            name: "adb server".into(),
            ok: server.is_ok(),
            detail: match &server {
                Ok(v) => format!("protocol version {v} on {}", self.server.addr),
                Err(e) => e.to_string(),
            },
            fix: if server.is_ok() {
                String::new()
            } else {
                "install adb (Debian: apt install adb) and run `adb start-server`".into()
            },
        });
        if server.is_err() {
            return out;
        }
        let phone = self.phone().await;
        out.push(Check {
            name: "device".into(),
            ok: phone.is_ok(),
            detail: match &phone {
                Ok(p) => format!(
                    "{} {}{}{}",
                    p.serial,
                    p.model,
                    p.sdk.map(|s| format!(" API {s}")).unwrap_or_default(),
                    if p.v2 { " (shell v2: exit codes)" } else { " (no shell v2: output only)" }
                ),
                Err(e) => e.to_string(),
            },
            fix: if phone.is_ok() {
                String::new()
            } else {
                "connect a phone with USB debugging on (or `adb connect HOST:PORT`) and accept its prompt".into()
            },
        });
        let Ok(phone) = phone else {
            return out;
        };
        let device = self.device().await;
        out.push(Check {
            name: "screen".into(),
            ok: device.is_ok(),
            detail: match &device {
                Ok(d) => format!(
                    "{}x{} at {} dpi (scale {})",
                    d.width,
                    d.height,
                    d.density,
                    d.scale()
                ),
                Err(e) => e.to_string(),
            },
            fix: if device.is_ok() {
                String::new()
            } else {
                "unlock the phone and retry".into()
            },
        });
        let imes = phone
            .read("ime list -a -s", QUICK)
            .await
            .unwrap_or_default();
        let keyboard = lists_adb_keyboard(&imes);
        out.push(Check {
            name: "text beyond ASCII".into(),
            ok: true,
            detail: if keyboard {
                "ADBKeyBoard is installed: any text is typed exactly".into()
            } else {
                "ADBKeyBoard is not installed: text with characters outside ASCII is refused (ASCII is typed with `input text`)".into()
            },
            fix: String::new(),
        });
        out
    }

    fn native_dump(&self) -> Option<serde_json::Value> {
        let last = lock(&self.last);
        serde_json::to_value(&last.as_ref()?.read.native).ok()
    }

    async fn open_app(&self, name: &str) -> Result<Launched, AdapterError> {
        let phone = self.phone().await?;
        let apps: Vec<cup::apps::App> = phone
            .launchables()
            .await
            .map_err(adb_error)?
            .into_iter()
            .map(|(package, _)| cup::apps::App {
                name: app_name(&package),
                target: package,
            })
            .collect();
        let app = cup::installed::pick(name, &apps)?;
        let package = app.target.clone();
        phone.launch(&package).await.map_err(adb_error)?;
        let until = Instant::now() + Duration::from_secs(15);
        let mut window = None;
        while Instant::now() < until {
            let focus = phone.focus().await.map_err(adb_error)?;
            if focus.as_ref().is_some_and(|f| f.package == package) {
                let pid = phone.pid(&package).await;
                let (w, h) = self.screen_size().await?;
                window = Some(WindowHandle {
                    info: WindowInfo {
                        title: package.clone(),
                        pid: pid.map(i64::from),
                        foreground: true,
                        bounds: Some(Rect::new(0, 0, u64::from(w), u64::from(h))),
                        url: None,
                        extra: serde_json::Map::new(),
                    },
                    native: String::new(),
                });
                break;
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        let pid = window
            .as_ref()
            .and_then(|w| w.info.pid)
            .and_then(|p| u32::try_from(p).ok())
            .unwrap_or(0);
        Ok(Launched {
            name: package,
            pid,
            window,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_get_short_names() {
        assert_eq!(app_name("com.google.android.apps.maps"), "maps");
        assert_eq!(app_name("com.android.settings"), "settings");
        assert_eq!(app_name("com.whatsapp"), "whatsapp");
    }
}
