//! [`WindowsAdapter`]: cup's [`Adapter`] over the OS layer. COM runs on
//! the pool's MTA workers, each call within a deadline; Win32 reads run on
//! tokio's blocking pool. Everything it decides, it decides with the
//! crate's platform-independent code.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use cup::native::NativeStore;
use cup::refs::{parse_ref, window_ref};
use cup::{
    ActionParams, ActionResult, Adapter, AdapterError, AppEntry, Capture, CaptureLimits, Check,
    Effect, Gesture, Launched, Point, ScreenInfo, Shot, ShotTarget, Target, WindowHandle,
};
use cup_protocol::keys::Combo;
use cup_protocol::{Action, PlatformId, Rect};

use crate::act::{changes, plan, Observed, Plan};
use crate::apps::{self, App};
use crate::assemble::{assemble, Limits};
use crate::events::event_changes;
use crate::facts::{NativeDump, WindowTree};
use crate::keys::{combo_events, text_events};
use crate::os::input::{self, layout_key};
use crate::os::uia::{Uia, UiaReads};
use crate::os::{act as os_act, events as os_events, shot, win32};
use crate::pool::{Pool, PoolError};
use crate::refs::ElementRef;
use crate::screen::{ltrb, screen_info};
use crate::toplevel::{app_windows, hwnd_of};
use crate::walk::{walk, WalkLimits};

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

/// An action's watch, started before the action ([`WindowsAdapter::arm`]).
struct Armed {
    target: String,
    done: std::sync::mpsc::Sender<()>,
    watch: tokio::task::JoinHandle<Result<Vec<cup::Change>, PoolError>>,
}

impl Armed {
    /// The action was performed: watches for its effect (up to
    /// [`SETTLE`]) and makes the result, `confirmed` only when one was
    /// seen.
    async fn finish(self, message: String) -> ActionResult {
        self.finish_call(message, false).await
    }

    /// [`Armed::finish`] for an action whose call may still be running
    /// (`running`: past [`crate::act::PATTERN_GRACE`]): no change seen is
    /// then `unverified`, not `no_change`.
    async fn finish_call(self, message: String, running: bool) -> ActionResult {
        let _ = self.done.send(());
        match self.watch.await {
            Ok(Ok(seen)) => {
                let effect = crate::act::effect_of(!seen.is_empty(), running);
                let changes = if seen.is_empty() {
                    Vec::new()
                } else {
                    cup::condense(seen, Some(&self.target))
                };
                ActionResult::observed(message, effect, changes)
            }
            Ok(Err(e)) => ActionResult::observed(
                format!("{message}; its effect could not be read ({e})"),
                Effect::Unverified,
                Vec::new(),
            ),
            Err(e) => ActionResult::observed(
                format!("{message}; its effect could not be read (the watch ended: {e})"),
                Effect::Unverified,
                Vec::new(),
            ),
        }
    }
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

    /// Window `hwnd` drawn by itself (`PrintWindow`, so a covered window
    /// shows its own content), cut to its frame; `None` when it cannot
    /// draw itself (the caller copies the screen instead).
    async fn print_window(&self, hwnd: i64, frame: Rect) -> Result<Option<Shot>, AdapterError> {
        blocking(move || {
            let window = ltrb(win32::window_rect(hwnd)?);
            let cut = crate::screen::frame_in_window(window, frame)?;
            let (w, h) = (i32::try_from(window.w).ok()?, i32::try_from(window.h).ok()?);
            let px = shot::print_window(hwnd, w, h)
                .map_err(|e| tracing::debug!("{e}; the window is copied from the screen"))
                .ok()?;
            let px = crate::screen::crop_bgra(&px, w as u32, cut);
            if crate::screen::is_blank(&px) {
                tracing::debug!("PrintWindow drew nothing; the window is copied from the screen");
                return None;
            }
            let png = cup::image::png_from_bgra(&px, cut.2, cut.3).ok()?;
            Some(Shot {
                png,
                width: cut.2,
                height: cut.3,
                x: frame.x,
                y: frame.y,
            })
        })
        .await
    }

    /// What an action is judged by, read before it: the target (found
    /// from its reference), the focus, the top-level windows.
    async fn observe(&self, r: Option<ElementRef>) -> Observed {
        self.pool
            .run(Duration::from_secs(2), move |uia| Observed {
                target: r.and_then(|r| os_act::locate(uia, &r).ok()).map(|(_, f)| f),
                windows: crate::toplevel::watched(&win32::top_level(false)),
                focus: os_act::focus(uia),
            })
            .await
            .unwrap_or_default()
    }

    /// Starts watching for an action's effect before it is performed: a
    /// worker registers UIA event handlers on window `hwnd` (none when 0)
    /// and finds the target, then waits for [`Armed::finish`]. Dropping
    /// the [`Armed`] (the action failed) stops it.
    async fn arm(&self, target: &str, r: Option<ElementRef>, hwnd: i64, before: Observed) -> Armed {
        let id = target.to_owned();
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let pool = Arc::clone(&self.pool);
        let job = move |uia: &mut Uia| {
            let uia = &*uia;
            let listener = (hwnd != 0)
                .then(|| os_events::Listener::start(uia, hwnd))
                .and_then(|l| {
                    l.map_err(|e| tracing::debug!("no UIA events for this action: {e}"))
                        .ok()
                });
            let found = r
                .and_then(|r| os_act::locate(uia, &r).ok())
                .map(|(el, _)| el);
            let rid = before
                .target
                .as_ref()
                .map(|t| t.runtime_id.clone())
                .unwrap_or_default();
            let _ = ready_tx.send(());
            // Nothing to watch when the action was not performed.
            if done_rx.recv_timeout(ACT_DEADLINE + SETTLE).is_err() {
                return Vec::new();
            }
            let end = Instant::now() + SETTLE;
            let mut events = Vec::new();
            loop {
                match &listener {
                    Some(l) => l.wait(Duration::from_millis(60)),
                    None => std::thread::sleep(Duration::from_millis(60)),
                }
                if let Some(l) = &listener {
                    events.extend(l.take());
                }
                let after = Observed {
                    target: found.as_ref().and_then(|el| os_act::refresh(uia, el)),
                    windows: crate::toplevel::watched(&win32::top_level(false)),
                    focus: os_act::focus(uia),
                };
                let seen = cup::merge(
                    changes(&id, &before, &after),
                    event_changes(&id, &rid, &events),
                );
                if !seen.is_empty() || Instant::now() >= end {
                    tracing::debug!(
                        events = ?events.iter().map(|e| &e.kind).collect::<Vec<_>>(),
                        "UIA events during the action"
                    );
                    return seen;
                }
            }
        };
        let watch = tokio::spawn(async move {
            pool.run(ACT_DEADLINE + SETTLE * 2 + Duration::from_secs(2), job)
                .await
        });
        // Registration is a few cross-process calls; an implementation
        // that takes longer only loses the events.
        let _ = tokio::time::timeout(Duration::from_secs(2), ready_rx).await;
        Armed {
            target: target.to_owned(),
            done: done_tx,
            watch,
        }
    }

    async fn installed(&self) -> Result<Vec<App>, AdapterError> {
        let folder = self
            .pool
            .run(Duration::from_secs(10), |_| win32::apps_folder())
            .await
            .unwrap_or_default();
        blocking(move || installed_apps(folder)).await
    }

    async fn refuse_elevated(&self, hwnd: i64) -> Result<(), AdapterError> {
        let facts = blocking(move || {
            let mut facts = win32::window_facts(win32::hwnd(hwnd));
            win32::add_process(&mut facts, win32::own_token().0);
            facts
        })
        .await?;
        if facts.elevated {
            return Err(AdapterError::Unsupported(format!(
                "'{}' runs at a higher integrity level (as administrator) than cup; Windows (UIPI) blocks cup's input to it — run cup as administrator too",
                facts.title
            )));
        }
        Ok(())
    }

    async fn send_keys(&self, events: Vec<crate::keys::KeyEvent>) -> Result<(), AdapterError> {
        blocking(move || input::keys(&events, KEY_BATCH))
            .await?
            .map_err(AdapterError::Platform)
    }

    async fn send_mouse(&self, gesture: Gesture) -> Result<(), AdapterError> {
        let vs = blocking(|| win32::screen().virtual_screen).await?;
        let events = crate::pointer::mouse_events(&gesture, vs).map_err(AdapterError::Invalid)?;
        for e in events {
            blocking(move || input::mouse(&e))
                .await?
                .map_err(AdapterError::Platform)?;
            if !e.pause.is_zero() {
                tokio::time::sleep(e.pause).await;
            }
        }
        Ok(())
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
        let start = Instant::now();
        let screen = blocking(win32::screen).await?;
        let per_window = limits.deadline.saturating_sub(start.elapsed());
        let mut tasks = tokio::task::JoinSet::new();
        for (i, w) in windows.iter().enumerate() {
            let hwnd = window_ref(&w.native, "a Windows window reference", hwnd_of)?;
            let pool = Arc::clone(&self.pool);
            let (max_nodes, max_depth) = (limits.max_nodes, limits.max_depth);
            let title = w.info.title.clone();
            // The process name was read when the window was listed.
            let app = w
                .info
                .extra
                .get("app")
                .and_then(|a| a.as_str())
                .unwrap_or("")
                .to_owned();
            tasks.spawn(async move {
                let job = pool.run(per_window + Duration::from_millis(200), move |uia| {
                    let mut facts = win32::window_facts(win32::hwnd(hwnd));
                    facts.process_name = app;
                    let deadline = Instant::now() + per_window;
                    let l = WalkLimits {
                        max_nodes,
                        max_depth,
                        deadline,
                        tries: 3,
                        retry_wait: Duration::from_millis(50),
                    };
                    let mut reads = UiaReads {
                        uia,
                        per_element: false,
                    };
                    let first = walk(&mut reads, &facts, l);
                    // Chromium/Electron build their web tree once a client
                    // asks: such a window is walked again, once, a moment
                    // later.
                    if crate::walk::wants_second_walk(&first)
                        && Instant::now() + crate::walk::SECOND_WALK_AFTER < deadline
                    {
                        std::thread::sleep(crate::walk::SECOND_WALK_AFTER);
                        let mut reads = UiaReads {
                            uia,
                            per_element: false,
                        };
                        return walk(&mut reads, &facts, l);
                    }
                    first
                });
                let tree = match job.await {
                    Ok(t) => t,
                    Err(e) => WindowTree {
                        window: crate::facts::WindowFacts {
                            hwnd,
                            title,
                            ..Default::default()
                        },
                        root: None,
                        error: Some(format!("{e} (the app did not answer UI Automation)")),
                    },
                };
                (i, tree)
            });
        }
        let mut trees: Vec<(usize, WindowTree)> = Vec::new();
        while let Some(done) = tasks.join_next().await {
            trees.push(
                done.map_err(|e| AdapterError::Platform(format!("a capture task failed: {e}")))?,
            );
        }
        trees.sort_by_key(|(i, _)| *i);
        let trees: Vec<WindowTree> = trees.into_iter().map(|(_, t)| t).collect();
        let monitors: Vec<Rect> = screen.monitors.iter().map(|m| ltrb(m.rect)).collect();
        let capture = assemble(
            &trees,
            &monitors,
            Limits {
                max_depth: limits.max_depth,
                max_nodes: limits.max_nodes,
            },
        );
        self.last.keep(NativeDump {
            platform: "windows".into(),
            source: "recorded by cup snapshot --native-dump".into(),
            screen,
            foreground: blocking(win32::foreground).await.unwrap_or(0),
            trees,
        });
        Ok(capture)
    }

    async fn act(
        &self,
        target: &Target<'_>,
        action: Action,
        params: &ActionParams,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let r: ElementRef = parse_ref(target.native)?;
        self.refuse_elevated(r.hwnd).await?;
        let before = self.observe(Some(r.clone())).await;
        let facts = before.target.clone().ok_or_else(|| {
            AdapterError::NotFound(
                "the element is no longer where the snapshot saw it; take a new snapshot".into(),
            )
        })?;
        let value = params.value.clone();
        let plan_for = |facts: &crate::facts::Element| {
            plan(
                facts,
                action,
                value.as_deref(),
                params.direction,
                params.amount,
            )
        };
        let planned = plan_for(&facts);
        let (before, facts, planned) = if crate::act::wants_scroll_into_view(&facts, &planned) {
            // A row below a list's fold: scrolled into view, then read
            // again (its place is new) and planned again.
            let rr = r.clone();
            self.pool
                .run(ACT_DEADLINE, move |uia| {
                    let (el, _) = os_act::locate(uia, &rr)?;
                    os_act::scroll_into_view(&el)
                })
                .await
                .map_err(pool_error)?
                .map_err(AdapterError::Unsupported)?;
            let before = self.observe(Some(r.clone())).await;
            let facts = before.target.clone().unwrap_or(facts);
            let planned = plan_for(&facts);
            (before, facts, planned)
        } else {
            (before, facts, planned)
        };
        let plan = planned.map_err(|e| AdapterError::Unsupported(e.0))?;
        let armed = self.arm(target.id, Some(r.clone()), r.hwnd, before).await;
        let message = match plan.clone() {
            Plan::Click { x, y, right, count } => {
                let button = if right {
                    cup::Button::Right
                } else {
                    cup::Button::Left
                };
                let rr = r.clone();
                let clickable = self
                    .pool
                    .run(Duration::from_secs(1), move |uia| {
                        os_act::locate(uia, &rr)
                            .ok()
                            .and_then(|(el, _)| os_act::clickable_point(&el))
                    })
                    .await
                    .ok()
                    .flatten();
                let (x, y) = crate::act::click_point(&facts, (x, y), clickable);
                let hwnd = r.hwnd;
                blocking(move || {
                    win32::raise(hwnd);
                    crate::guard::click_reaches(&win32::top_of(hwnd), &win32::top_at(x, y))
                })
                .await?
                .map_err(AdapterError::Unsupported)?;
                self.send_mouse(Gesture::Click {
                    at: Point::new(x, y),
                    button,
                    count,
                    modifiers: Vec::new(),
                })
                .await?;
                format!("Clicked at {x},{y} (the element offers no pattern for it)")
            }
            Plan::Wheel {
                x,
                y,
                direction,
                notches,
            } => {
                self.send_mouse(Gesture::Scroll {
                    at: Some(Point::new(x, y)),
                    direction,
                    amount: notches,
                    modifiers: Vec::new(),
                })
                .await?;
                format!("Scrolled {} with the wheel", direction.name())
            }
            Plan::FocusAndType { text, replace } => {
                // A window a modal dialog holds disabled is not raised (it
                // would be activated and take no input): refused, naming
                // the dialog.
                let hwnd = r.hwnd;
                blocking(move || match win32::modal_over(hwnd) {
                    Some(dialog) => crate::guard::keys_reach(&win32::top_of(hwnd), &dialog),
                    None => {
                        win32::raise(hwnd);
                        Ok(())
                    }
                })
                .await?
                .map_err(AdapterError::Unsupported)?;
                let rr = r.clone();
                let focused = self
                    .pool
                    .run(ACT_DEADLINE, move |uia| {
                        let (el, _) = os_act::locate(uia, &rr)?;
                        os_act::perform(&el, &Plan::Focus)
                    })
                    .await
                    .map_err(pool_error)?;
                if focused.is_err() {
                    // No SetFocus (Wine): a click at its centre focuses it.
                    if let Some(b) = facts.bounds.filter(|b| !b.is_empty()) {
                        let (x, y) = b.centre();
                        self.send_mouse(Gesture::Click {
                            at: Point::new(x, y),
                            button: cup::Button::Left,
                            count: 1,
                            modifiers: Vec::new(),
                        })
                        .await?;
                    }
                }
                let mut events = Vec::new();
                if replace {
                    let all = cup_protocol::keys::parse_combo("ctrl+a")
                        .map_err(|e| AdapterError::Invalid(e.to_string()))?;
                    events.extend(
                        combo_events(&all, &layout_key).map_err(|e| AdapterError::Invalid(e.0))?,
                    );
                }
                events.extend(text_events(&text));
                // Keys go to the foreground window, whatever it is.
                let hwnd = r.hwnd;
                blocking(move || {
                    crate::guard::keys_reach(
                        &win32::top_of(hwnd),
                        &win32::top_of(win32::foreground()),
                    )
                })
                .await?
                .map_err(AdapterError::Unsupported)?;
                self.send_keys(events).await?;
                format!("Typed {} characters", text.chars().count())
            }
            Plan::Focus if r.path.is_empty() => {
                // The window itself: brought to the front (UIA's SetFocus
                // on a top-level window does the same where it is
                // implemented; Wine's is not), and said so only when it is.
                let hwnd = r.hwnd;
                blocking(move || {
                    win32::raise(hwnd);
                    crate::guard::raised(&win32::top_of(hwnd), &win32::top_of(win32::foreground()))
                })
                .await?
                .map_err(AdapterError::Unsupported)?;
                "Brought the window to the front".to_owned()
            }
            pattern_plan => {
                let rr = r.clone();
                let running = crate::act::still_running(&pattern_plan);
                // The grace counts from the call, not from finding the
                // element: the job says when it has found it.
                let (found_tx, found_rx) = tokio::sync::oneshot::channel::<()>();
                let call = self
                    .pool
                    .run(ACT_DEADLINE + crate::act::PATTERN_GRACE, move |uia| {
                        let (el, _) = os_act::locate(uia, &rr)?;
                        let _ = found_tx.send(());
                        os_act::perform(&el, &pattern_plan)
                    });
                tokio::pin!(call);
                let done = tokio::select! {
                    r = &mut call => Some(r),
                    _ = found_rx => None,
                };
                let done = match done {
                    Some(r) => Some(r),
                    None => tokio::time::timeout(crate::act::PATTERN_GRACE, &mut call)
                        .await
                        .ok(),
                };
                match done {
                    Some(r) => r.map_err(pool_error)?.map_err(AdapterError::Platform)?,
                    // Still in the call: performed, its effect is the
                    // watch's; the worker rejoins when the call returns.
                    None => return Ok(armed.finish_call(running, true).await),
                }
            }
        };
        Ok(armed.finish(message).await)
    }

    async fn press(
        &self,
        combo: &Combo,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let events = combo_events(combo, &layout_key).map_err(|e| AdapterError::Invalid(e.0))?;
        let fg = blocking(win32::foreground).await?;
        if fg != 0 {
            self.refuse_elevated(fg).await?;
        }
        let before = self.observe(None).await;
        let armed = self.arm("focus", None, fg, before).await;
        self.send_keys(events).await?;
        Ok(armed.finish(format!("Pressed {combo}")).await)
    }

    async fn screenshot(&self, target: &ShotTarget) -> Result<Shot, AdapterError> {
        let screen = blocking(win32::screen).await?;
        let rect = match target {
            ShotTarget::Screen | ShotTarget::FullPage => {
                let [x, y, w, h] = screen.virtual_screen;
                Rect::new(
                    i64::from(x),
                    i64::from(y),
                    u64::try_from(w).unwrap_or(0),
                    u64::try_from(h).unwrap_or(0),
                )
            }
            ShotTarget::Monitor(i) => {
                let m = screen.monitors.get(*i).ok_or_else(|| {
                    AdapterError::Invalid(format!(
                        "there is no monitor {i}; this machine has {}",
                        screen.monitors.len()
                    ))
                })?;
                ltrb(m.rect)
            }
            ShotTarget::Region(r) => *r,
            ShotTarget::Window(w) => {
                let all = self.windows().await?;
                let (found, frame) = cup::screenshot::window(&all, w)?;
                if let Some(hwnd) = hwnd_of(&found.native) {
                    if let Some(shot) = self.print_window(hwnd, frame).await? {
                        return Ok(shot);
                    }
                }
                frame
            }
        };
        let (x, y) = (
            i32::try_from(rect.x).unwrap_or(0),
            i32::try_from(rect.y).unwrap_or(0),
        );
        let (w, h) = (
            i32::try_from(rect.w).unwrap_or(0),
            i32::try_from(rect.h).unwrap_or(0),
        );
        let png = blocking(move || {
            let px = shot::grab(x, y, w, h)?;
            cup::image::png_from_bgra(&px, w as u32, h as u32)
        })
        .await?
        .map_err(AdapterError::Platform)?;
        Ok(Shot {
            png,
            width: w as u32,
            height: h as u32,
            x: rect.x,
            y: rect.y,
        })
    }

    async fn input(
        &self,
        gesture: &Gesture,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let fg = blocking(win32::foreground).await?;
        if fg != 0 {
            self.refuse_elevated(fg).await?;
        }
        // A pointer gesture goes to the window where it lands, which need
        // not be the foreground one: UIPI drops input to a window of a
        // higher integrity level silently (SendInput says nothing), so it
        // is refused before.
        if let Some(p) = crate::pointer::landing(gesture) {
            let under = blocking(move || win32::top_at(p.x, p.y).root).await?;
            if under != 0 && under != fg {
                self.refuse_elevated(under).await?;
            }
        }
        let before = self.observe(None).await;
        let armed = self.arm("focus", None, fg, before).await;
        let message = match gesture {
            Gesture::Type { text, delay } => {
                if delay.is_zero() {
                    self.send_keys(text_events(text)).await?;
                } else {
                    for c in text.chars() {
                        self.send_keys(text_events(&c.to_string())).await?;
                        tokio::time::sleep(*delay).await;
                    }
                }
                format!("Typed {} characters", text.chars().count())
            }
            g => {
                let mods: &[cup_protocol::keys::Modifier] = match g {
                    Gesture::Click { modifiers, .. }
                    | Gesture::Drag { modifiers, .. }
                    | Gesture::Scroll { modifiers, .. } => modifiers,
                    _ => &[],
                };
                let held = Combo {
                    modifiers: mods.to_vec(),
                    keys: Vec::new(),
                };
                let downs: Vec<_> =
                    combo_events(&held, &layout_key).map_err(|e| AdapterError::Invalid(e.0))?;
                let half = downs.len() / 2;
                self.send_keys(downs[..half].to_vec()).await?;
                let sent = self.send_mouse(g.clone()).await;
                self.send_keys(downs[half..].to_vec()).await?;
                sent?;
                g.to_string()
            }
        };
        Ok(armed.finish(message).await)
    }

    async fn cursor(&self) -> Result<Point, AdapterError> {
        let p = blocking(win32::cursor).await?.ok_or_else(|| {
            AdapterError::Platform("GetCursorPos failed (no input desktop)".into())
        })?;
        Ok(Point::new(p.0, p.1))
    }

    async fn apps(&self) -> Result<Vec<AppEntry>, AdapterError> {
        let installed = self.installed().await?;
        let running = blocking(|| win32::top_level(true)).await?;
        let mut out = cup::installed::entries(&installed);
        for h in app_windows(&running, 0) {
            let process = h
                .info
                .extra
                .get("app")
                .and_then(|v| v.as_str())
                .unwrap_or("")
                .to_owned();
            let pid = h.info.pid.and_then(|p| u32::try_from(p).ok());
            let stem = process.trim_end_matches(".exe").to_lowercase();
            let entry = out
                .iter_mut()
                .find(|e| !stem.is_empty() && e.id.to_lowercase().contains(&stem));
            match entry {
                Some(e) => {
                    e.pids.extend(pid);
                    e.windows.push(h.info.title.clone());
                }
                None => out.push(AppEntry {
                    name: process.clone(),
                    id: process,
                    pids: pid.into_iter().collect(),
                    windows: vec![h.info.title.clone()],
                    installed: false,
                }),
            }
        }
        Ok(out)
    }

    async fn check(&self) -> Vec<Check> {
        let checks = blocking(|| {
            let (level, ui_access, elevated) = win32::own_token();
            let desk = win32::input_desktop();
            (level, ui_access, elevated, desk)
        })
        .await;
        let Ok((level, ui_access, elevated, desk)) = checks else {
            return Vec::new();
        };
        let uia = self
            .pool
            .run(Duration::from_secs(5), |uia| {
                (uia.subtree, uia.refused.len())
            })
            .await;
        let level_name = match level {
            Some(l) if l >= 0x4000 => "system",
            Some(l) if l >= 0x3000 => "high",
            Some(l) if l >= 0x2000 => "medium",
            Some(_) => "low",
            None => "unknown",
        };
        vec![
            Check {
                name: "ui automation".into(),
                ok: uia.is_ok(),
                detail: match &uia {
                    Ok((subtree, refused)) => format!(
                        "client ready; subtree caching {}; {refused} properties refused",
                        if *subtree {
                            "on"
                        } else {
                            "off (one round trip per element)"
                        }
                    ),
                    Err(e) => e.to_string(),
                },
                fix: if uia.is_ok() {
                    String::new()
                } else {
                    "UI Automation must be available (uiautomationcore.dll); on Wine use version 10 or later".into()
                },
            },
            Check {
                name: "integrity level".into(),
                ok: true,
                detail: format!(
                    "{level_name}{}{}",
                    if elevated { ", elevated" } else { "" },
                    if ui_access { ", UIAccess" } else { "" }
                ),
                fix: String::new(),
            },
            Check {
                name: "elevated apps".into(),
                ok: elevated || ui_access,
                detail: if elevated || ui_access {
                    "cup can drive apps running as administrator".into()
                } else {
                    "apps running as administrator ignore cup's input (UIPI); cup refuses to act on them".into()
                },
                fix: if elevated || ui_access {
                    String::new()
                } else {
                    "run cup as administrator to drive elevated apps".into()
                },
            },
            Check {
                name: "input desktop".into(),
                ok: matches!(&desk, Ok(n) if n.eq_ignore_ascii_case("default")),
                detail: match &desk {
                    Ok(n) => format!("'{n}'"),
                    Err(e) => e.clone(),
                },
                fix: if matches!(&desk, Ok(n) if n.eq_ignore_ascii_case("default")) {
                    String::new()
                } else {
                    "the secure desktop (UAC prompt, lock screen) is showing; no app can be driven until it closes".into()
                },
            },
        ]
    }

    fn native_dump(&self) -> Option<serde_json::Value> {
        self.last.json()
    }

    async fn open_app(&self, name: &str) -> Result<Launched, AdapterError> {
        self.open_app_with(name, &[]).await
    }

    async fn open_app_with(&self, name: &str, args: &[String]) -> Result<Launched, AdapterError> {
        let installed = self.installed().await?;
        let app = cup::installed::pick(name, &installed)?;
        let before: Vec<i64> = self
            .windows()
            .await?
            .iter()
            .filter_map(|w| hwnd_of(&w.native))
            .collect();
        let target = app.target.clone();
        let joined = args
            .iter()
            .map(|a| {
                if a.contains(' ') {
                    format!("\"{a}\"")
                } else {
                    a.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let pid = blocking(move || win32::launch(&target, &joined))
            .await?
            .map_err(AdapterError::Platform)?;
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            let now = self.windows().await?;
            let new = now.into_iter().find(|w| {
                let fresh = hwnd_of(&w.native).is_some_and(|h| !before.contains(&h));
                let mine = pid.is_some_and(|p| w.info.pid == Some(i64::from(p)));
                fresh
                    && (mine
                        || pid.is_none()
                        || apps::score(
                            &app.name,
                            &App {
                                name: w.info.title.clone(),
                                target: String::new(),
                            },
                        ) > 0)
            });
            if let Some(w) = new {
                let wpid = w.info.pid.and_then(|p| u32::try_from(p).ok());
                return Ok(Launched {
                    name: app.name,
                    pid: pid.or(wpid).unwrap_or(0),
                    window: Some(w),
                });
            }
            if Instant::now() >= end {
                return Err(AdapterError::Platform(format!(
                    "started '{}'{} but no window of it appeared within 20 s; it may run in the background or need a sign-in",
                    app.name,
                    pid.map(|p| format!(" (pid {p})")).unwrap_or_default()
                )));
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }
}

/// Start menu shortcuts of all users and this user, then the Apps folder's
/// (packaged apps; the shortcuts again by the same names) and the system's
/// own programs, each name once.
fn installed_apps(folder: Vec<App>) -> Vec<App> {
    let pd = std::env::var("ProgramData").ok();
    let ad = std::env::var("APPDATA").ok();
    let mut out: Vec<App> = apps::start_menu_dirs(pd.as_deref(), ad.as_deref())
        .iter()
        .flat_map(|d| apps::scan(d))
        .collect();
    let system = apps::SYSTEM_PROGRAMS.iter().map(|(name, exe)| App {
        name: (*name).into(),
        target: (*exe).into(),
    });
    for app in folder.into_iter().chain(system) {
        if !out.iter().any(|a| a.name.eq_ignore_ascii_case(&app.name)) {
            out.push(app);
        }
    }
    out
}
