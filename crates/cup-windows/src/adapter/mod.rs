//! [`WindowsAdapter`]: cup's [`Adapter`] over the OS layer. COM runs on
//! the pool's MTA workers, each call within a deadline; Win32 reads run on
//! tokio's blocking pool. Everything it decides, it decides with the
//! crate's platform-independent code.
//!
//! The trait's methods are short here and hand over to one submodule per
//! concern: `capture` (windows walked on the pool), `actions` (element
//! actions, key combinations and gestures, refused first when their
//! window runs elevated), `watch` (an action's effect: observed before,
//! watched after), `shot` (screenshots), `launch` (apps listed and
//! opened) and `check` (the adapter's checks).

mod actions;
mod capture;
mod check;
mod launch;
mod shot;
mod watch;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use cup::native::NativeStore;
use cup::{
    ActionParams, ActionResult, Adapter, AdapterError, AppEntry, Capture, CaptureLimits, Check,
    Gesture, Launched, Point, ScreenInfo, Shot, ShotTarget, Target, WindowHandle,
};
use cup_protocol::keys::Combo;
use cup_protocol::{Action, PlatformId};

use crate::facts::NativeDump;
use crate::os::uia::Uia;
use crate::os::win32;
use crate::pool::{Pool, PoolError};
use crate::screen::screen_info;
use crate::toplevel::app_windows;

/// How long an action's effect is watched for.
const SETTLE: Duration = Duration::from_millis(600);
/// Deadline of one element action's COM calls.
const ACT_DEADLINE: Duration = Duration::from_secs(5);
/// Keyboard events per `SendInput` call.
const KEY_BATCH: usize = 64;

fn pool_error(e: PoolError) -> AdapterError {
    AdapterError::Platform(format!("UI Automation: {e}"))
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AdapterError> {
    cup::blocking::run("a Win32 call", move || {
        // Coordinates in physical pixels, whatever the host process set.
        win32::thread_dpi_aware();
        f()
    })
    .await
}

/// The Windows adapter.
#[derive(Debug)]
pub struct WindowsAdapter {
    pool: Arc<Pool<Uia>>,
    last: NativeStore<NativeDump>,
}

impl Default for WindowsAdapter {
    fn default() -> Self {
        Self::new()
    }
}

impl WindowsAdapter {
    /// Makes the process per-monitor DPI aware and starts no thread yet.
    pub fn new() -> Self {
        if let Err(e) = win32::dpi_aware() {
            tracing::info!("{e} (another awareness is already set; coordinates follow it)");
        }
        WindowsAdapter {
            pool: Arc::new(Pool::new("cup-uia", 8, Uia::new)),
            last: NativeStore::new(),
        }
    }

    /// The native facts of the last capture (`cup snapshot --native-dump`).
    pub fn last_dump(&self) -> Option<NativeDump> {
        self.last.last()
    }
}

#[async_trait]
impl Adapter for WindowsAdapter {
    fn platform(&self) -> PlatformId {
        PlatformId::Windows
    }

    async fn screen(&self) -> Result<ScreenInfo, AdapterError> {
        Ok(screen_info(&blocking(win32::screen).await?))
    }

    async fn windows(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        blocking(|| {
            let fg = win32::foreground();
            app_windows(&win32::top_level(true), fg)
        })
        .await
    }

    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError> {
        let list = blocking(win32::desktop_list).await?;
        Ok(list.map(|h| WindowHandle {
            info: cup_protocol::WindowInfo {
                title: "Desktop".into(),
                pid: None,
                foreground: false,
                bounds: None,
                url: None,
                extra: serde_json::Map::new(),
            },
            native: format!("hwnd:{h}"),
        }))
    }

    async fn capture(
        &self,
        windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError> {
        self.capture_windows(windows, limits).await
    }

    async fn act(
        &self,
        target: &Target<'_>,
        action: Action,
        params: &ActionParams,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        self.act_on(target, action, params).await
    }

    async fn press(
        &self,
        combo: &Combo,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        self.press_combo(combo).await
    }

    async fn screenshot(&self, target: &ShotTarget) -> Result<Shot, AdapterError> {
        self.take_screenshot(target).await
    }

    async fn input(
        &self,
        gesture: &Gesture,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        self.send_gesture(gesture).await
    }

    async fn cursor(&self) -> Result<Point, AdapterError> {
        let p = blocking(win32::cursor).await?.ok_or_else(|| {
            AdapterError::Platform("GetCursorPos failed (no input desktop)".into())
        })?;
        Ok(Point::new(p.0, p.1))
    }

    async fn apps(&self) -> Result<Vec<AppEntry>, AdapterError> {
        self.list_apps().await
    }

    async fn check(&self) -> Vec<Check> {
        self.run_checks().await
    }

    fn native_dump(&self) -> Option<serde_json::Value> {
        self.last.json()
    }

    async fn open_app(&self, name: &str) -> Result<Launched, AdapterError> {
        self.open_app_with(name, &[]).await
    }

    async fn open_app_with(&self, name: &str, args: &[String]) -> Result<Launched, AdapterError> {
        self.launch_app(name, args).await
    }
}
