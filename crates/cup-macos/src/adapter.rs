//! [`MacAdapter`]: cup's [`Adapter`] over the OS layer. A capture walks
//! apps in parallel on its own threads under the capture's deadline; an
//! action runs on one blocking thread from finding its element to the end
//! of its watch (AX elements and the observer's run loop stay on the thread
//! that made them). Everything it decides, it decides with the crate's
//! platform-independent code.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use cup::native::NativeStore;
use cup::refs::{parse_ref, window_ref};
use cup::{
    ActionParams, ActionResult, Adapter, AdapterError, AppEntry, Capture, CaptureLimits, Check,
    Effect, Gesture, Launched, Point, ScreenInfo, Shot, ShotTarget, Target, WindowHandle,
};
use cup_protocol::keys::{parse_combo, Combo};
use cup_protocol::{Action, PlatformId, Rect};

use crate::act::{changes, describe, plan, Observed, Plan};
use crate::apps::{self, App};
use crate::assemble::assemble;
use crate::events::event_changes;
use crate::facts::{NativeDump, WindowFacts};
use crate::keys::{combo_strokes, flags, typing};
use crate::os::input::{self, Delivery};
use crate::os::{act as os_act, ax, cg, launch, observe, shot as os_shot};
use crate::pointer::{self, mouse_events};
use crate::refs::ElementRef;
use crate::screen::Layout;
use crate::shot::{compose, packed, pieces, span};
use crate::toplevel::{
    app_windows, foreground, handle, parse_native, pointer_route, window_at, PointerRoute,
};
use crate::walk::{walk, Plan as WalkPlan};

/// How long an action's effect is watched for.
const SETTLE: Duration = Duration::from_millis(600);
/// The longest an action may take, watch included.
const ACT_DEADLINE: Duration = Duration::from_secs(10);
/// Apps walked at once.
const WALK_THREADS: usize = 4;
/// How long a long press holds the button.
const LONG_PRESS: Duration = Duration::from_millis(800);

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AdapterError> {
    cup::blocking::run("a macOS call", f).await
}

/// An action's blocking work, within [`ACT_DEADLINE`].
async fn acting<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, AdapterError> + Send + 'static,
) -> Result<T, AdapterError> {
    match tokio::time::timeout(ACT_DEADLINE, blocking(f)).await {
        Ok(r) => r?,
        Err(_) => Err(AdapterError::Platform(format!(
            "the app did not finish the action within {} s (it may be hung); check it with list_windows",
            ACT_DEADLINE.as_secs()
        ))),
    }
}

/// Where keys for process `pid` go: to the process (background
/// delivery: the frontmost app stays put), or through the HID tap when
/// `CUP_MACOS_INPUT=hid` (for surfaces that ignore events posted to their
/// process: games, some OpenGL views).
fn delivery(pid: i32) -> Delivery {
    match std::env::var("CUP_MACOS_INPUT") {
        Ok(v) if v.eq_ignore_ascii_case("hid") => Delivery::Hid,
        _ if pid > 0 => Delivery::Pid(pid),
        _ => Delivery::Hid,
    }
}

/// Pointer events are posted to the process only when asked
/// (`CUP_MACOS_INPUT=pid`); by default they go through the HID tap
/// ([`PointerRoute`]).
fn pid_pointer() -> bool {
    std::env::var("CUP_MACOS_INPUT").is_ok_and(|v| v.eq_ignore_ascii_case("pid"))
}

/// How pointer events at `pos` for an element of app `pid` go: refused
/// when another app's window is on top there.
fn pointer_to(pid: i32, pos: (f64, f64)) -> Result<Delivery, AdapterError> {
    let all = cg::windows();
    match pointer_route(pid_pointer(), Some(pid), window_at(&all, pos.0, pos.1)) {
        PointerRoute::Hid => Ok(Delivery::Hid),
        PointerRoute::Process(p) => Ok(Delivery::Pid(p)),
        PointerRoute::Covered { by } => Err(AdapterError::Invalid(format!(
            "the element's window is covered at its centre by a window of {by}; focus its window first (the focus action on the window), then try again"
        ))),
    }
}

/// The app windows as an action watches them: number and title.
fn watched(all: &[WindowFacts]) -> Vec<(i64, String)> {
    app_windows(all)
        .iter()
        .map(|w| (i64::from(w.number), w.title.clone()))
        .collect()
}

fn input_error(e: String) -> AdapterError {
    AdapterError::Platform(e)
}

/// What an action is judged by, read now.
fn observe_now(
    reads: &ax::AxReads,
    pid: i32,
    target: Option<&ax::Element>,
    layout: &Layout,
) -> Observed {
    Observed {
        target: target.and_then(|el| os_act::refresh(reads, el)),
        windows: watched(&cg::windows()),
        focus: os_act::focus(reads, pid).map(|f| describe(&f, layout)),
    }
}

/// Watches app `pid` for the effect of an action performed by `act`
/// (after the observer is registered), re-reading the target, the focus
/// and the windows every 60 ms for up to [`SETTLE`] and collecting the
/// app's AX notifications; `confirmed` only when something changed.
fn watch(
    id: &str,
    pid: i32,
    target: Option<&ax::Element>,
    layout: &Layout,
    act: impl FnOnce() -> Result<String, AdapterError>,
) -> Result<ActionResult, AdapterError> {
    let reads = ax::AxReads::new();
    let before = observe_now(&reads, pid, target, layout);
    let observer = observe::Observer::start(pid, target.cloned())
        .map_err(|e| tracing::debug!("no AX notifications for this action: {e}"))
        .ok();
    let message = act()?;
    let end = Instant::now() + SETTLE;
    let mut events = Vec::new();
    loop {
        match &observer {
            Some(o) => o.pump(Duration::from_millis(60)),
            None => std::thread::sleep(Duration::from_millis(60)),
        }
        if let Some(o) = &observer {
            events.extend(o.take());
        }
        let after = observe_now(&reads, pid, target, layout);
        let seen = cup::merge(
            changes(id, &before, &after, layout),
            event_changes(id, &events, layout),
        );
        if !seen.is_empty() {
            return Ok(ActionResult::observed(
                message,
                Effect::Confirmed,
                cup::condense(seen, Some(id)),
            ));
        }
        if Instant::now() >= end {
            return Ok(ActionResult::observed(
                message,
                Effect::NoChange,
                Vec::new(),
            ));
        }
    }
}

fn escape() -> Result<Vec<crate::keys::Stroke>, AdapterError> {
    let c = parse_combo("escape").map_err(|e| AdapterError::Invalid(e.to_string()))?;
    combo_strokes(&c).map_err(|e| AdapterError::Invalid(e.0))
}

/// Performs `plan` on `el` (of app `pid`) and says what was done.
fn perform(el: &ax::Element, pid: i32, plan: &Plan) -> Result<String, AdapterError> {
    let to = delivery(pid);
    match plan {
        Plan::FocusAndType { text, replace, at } => {
            if os_act::set_focused(el).is_err() {
                // Views that refuse AXFocused take a click.
                if let Some(pos) = at {
                    input::mouse(
                        &pointer::click(*pos, cup::Button::Left, 1),
                        0,
                        pointer_to(pid, *pos)?,
                    )
                    .map_err(input_error)?;
                }
            }
            if *replace {
                let all = parse_combo("cmd+a").map_err(|e| AdapterError::Invalid(e.to_string()))?;
                input::keys(
                    &combo_strokes(&all).map_err(|e| AdapterError::Invalid(e.0))?,
                    to,
                )
                .map_err(input_error)?;
            }
            input::typing(&typing(text), to, Duration::ZERO).map_err(input_error)?;
            Ok(format!("Typed {} characters", text.chars().count()))
        }
        Plan::Click { x, y, right, count } => {
            let button = if *right {
                cup::Button::Right
            } else {
                cup::Button::Left
            };
            input::mouse(
                &pointer::click((*x, *y), button, *count),
                0,
                pointer_to(pid, (*x, *y))?,
            )
            .map_err(input_error)?;
            Ok(match (count, right) {
                (_, true) => "Right-clicked its centre".into(),
                (2, _) => "Double-clicked its centre".into(),
                _ => "Clicked its centre".into(),
            })
        }
        Plan::Hold { x, y } => {
            input::mouse(
                &pointer::hold((*x, *y), LONG_PRESS),
                0,
                pointer_to(pid, (*x, *y))?,
            )
            .map_err(input_error)?;
            Ok("Pressed and held its centre".into())
        }
        Plan::Wheel {
            x,
            y,
            direction,
            notches,
        } => {
            input::mouse(
                &pointer::wheel((*x, *y), *direction, *notches),
                0,
                pointer_to(pid, (*x, *y))?,
            )
            .map_err(input_error)?;
            Ok(format!("Scrolled {} {notches} lines", direction.name()))
        }
        Plan::Escape => {
            input::keys(&escape()?, to).map_err(input_error)?;
            Ok("Pressed escape".into())
        }
        ax_plan => os_act::perform(el, pid, ax_plan).map_err(AdapterError::Platform),
    }
}

/// The macOS adapter.
#[derive(Debug, Default)]
pub struct MacAdapter {
    last: NativeStore<NativeDump>,
}

impl MacAdapter {
    /// An adapter; it makes no call until asked.
    pub fn new() -> Self {
        Self::default()
    }

    /// The native facts of the last capture (`cup snapshot --native-dump`).
    pub fn last_dump(&self) -> Option<NativeDump> {
        self.last.last()
    }

    async fn layout(&self) -> Result<Layout, AdapterError> {
        Ok(Layout::new(&blocking(cg::screen).await?))
    }

    /// The front-most app window's process (0: none).
    async fn front_pid(&self) -> Result<i32, AdapterError> {
        blocking(|| foreground(&cg::windows()).map_or(0, |w| w.pid)).await
    }

    async fn shoot_region(&self, layout: &Layout, region: Rect) -> Result<Shot, AdapterError> {
        let parts = pieces(layout, region).map_err(AdapterError::Invalid)?;
        let (w, h) = (
            u32::try_from(region.w).unwrap_or(0),
            u32::try_from(region.h).unwrap_or(0),
        );
        let png = blocking(move || -> Result<Vec<u8>, String> {
            let mut got = Vec::new();
            for p in parts {
                let px = os_shot::capture(
                    os_shot::Source::Display {
                        id: p.display,
                        rect: p.source,
                        width: p.width,
                        height: p.height,
                    },
                    Duration::from_secs(10),
                )?;
                got.push((p, px));
            }
            cup::image::png_from_bgra(&compose(w, h, &got), w, h)
        })
        .await?
        .map_err(AdapterError::Platform)?;
        Ok(Shot {
            png,
            width: w,
            height: h,
            x: region.x,
            y: region.y,
        })
    }
}

#[async_trait]
impl Adapter for MacAdapter {
    fn platform(&self) -> PlatformId {
        PlatformId::Macos
    }

    async fn screen(&self) -> Result<ScreenInfo, AdapterError> {
        Ok(self.layout().await?.screen_info())
    }

    async fn windows(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        let (all, screen) = blocking(|| (cg::windows(), cg::screen())).await?;
        let layout = Layout::new(&screen);
        let front = foreground(&all).map(|w| w.number);
        Ok(app_windows(&all)
            .iter()
            .map(|w| handle(w, Some(w.number) == front, &layout))
            .collect())
    }

    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError> {
        let (owner, screen) = blocking(|| (cg::desktop_owner(), cg::screen())).await?;
        let layout = Layout::new(&screen);
        Ok(owner.map(|pid| {
            let w = WindowFacts {
                number: 0,
                pid,
                owner: "Finder".into(),
                title: "Desktop".into(),
                ..WindowFacts::default()
            };
            handle(&w, false, &layout)
        }))
    }

    async fn capture(
        &self,
        windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError> {
        let start = Instant::now();
        let mut wanted = Vec::new();
        for w in windows {
            let (number, pid) = window_ref(&w.native, "a macOS window reference", parse_native)?;
            wanted.push((number, pid, w.info.title.clone()));
        }
        let plan = WalkPlan {
            max_nodes: limits.max_nodes,
            max_depth: limits.max_depth,
            deadline: start + limits.deadline,
            per_app: limits.deadline,
            threads: WALK_THREADS,
        };
        let (walked, screen) = blocking(move || {
            let all = cg::windows();
            let facts: Vec<WindowFacts> = wanted
                .into_iter()
                .map(|(number, pid, title)| {
                    all.iter()
                        .find(|w| w.number == number && number != 0)
                        .cloned()
                        .unwrap_or(WindowFacts {
                            number,
                            pid,
                            title,
                            ..WindowFacts::default()
                        })
                })
                .collect();
            (walk(&facts, |_| ax::AxReads::new(), plan), cg::screen())
        })
        .await?;
        let walked = walked.map_err(AdapterError::Unavailable)?;
        let layout = Layout::new(&screen);
        let capture = assemble(&walked.trees, &layout, walked.partial, walked.missing);
        self.last.keep(NativeDump {
            platform: "macos".into(),
            source: "recorded by cup snapshot --native-dump".into(),
            screen,
            trees: walked.trees,
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
        let id = target.id.to_owned();
        let (value, direction, amount) = (params.value.clone(), params.direction, params.amount);
        acting(move || {
            let layout = Layout::new(&cg::screen());
            let reads = ax::AxReads::new();
            let (el, facts) =
                os_act::locate(&reads, &r, &cg::windows()).map_err(AdapterError::NotFound)?;
            let plan = plan(&facts, &layout, action, value.as_deref(), direction, amount)
                .map_err(|e| AdapterError::Unsupported(e.0))?;
            watch(&id, r.pid, Some(&el), &layout, || {
                perform(&el, r.pid, &plan)
            })
        })
        .await
    }

    async fn press(
        &self,
        combo: &Combo,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let strokes = combo_strokes(combo).map_err(|e| AdapterError::Invalid(e.0))?;
        let pid = self.front_pid().await?;
        let message = format!("Pressed {combo}");
        acting(move || {
            let layout = Layout::new(&cg::screen());
            watch("focus", pid, None, &layout, || {
                input::keys(&strokes, delivery(pid)).map_err(input_error)?;
                Ok(message)
            })
        })
        .await
    }

    async fn screenshot(&self, target: &ShotTarget) -> Result<Shot, AdapterError> {
        let layout = self.layout().await?;
        let region = match target {
            ShotTarget::Screen | ShotTarget::FullPage => span(&layout).ok_or_else(|| {
                AdapterError::Unavailable("macOS lists no display (is the screen asleep?)".into())
            })?,
            ShotTarget::Monitor(i) => {
                layout.displays.get(*i).map(|d| d.pixels).ok_or_else(|| {
                    AdapterError::Invalid(format!(
                        "there is no display {i}; this Mac has {}",
                        layout.displays.len()
                    ))
                })?
            }
            ShotTarget::Region(r) => *r,
            ShotTarget::Window(w) => {
                let all = self.windows().await?;
                let (found, bounds) = cup::screenshot::window(&all, w)?;
                let (number, _) = parse_native(&found.native).unwrap_or((0, 0));
                let (wd, ht) = (
                    u32::try_from(bounds.w).unwrap_or(0),
                    u32::try_from(bounds.h).unwrap_or(0),
                );
                // The PNG's own size is reported: a window across displays
                // of different scales is rendered at its backing scale,
                // which may differ from the bounds' size asked for.
                let (png, width, height) = blocking(move || -> Result<_, String> {
                    let px = os_shot::capture(
                        os_shot::Source::Window {
                            number,
                            width: wd,
                            height: ht,
                        },
                        Duration::from_secs(10),
                    )?;
                    let png = cup::image::png_from_bgra(&packed(&px), px.width, px.height)?;
                    Ok((png, px.width, px.height))
                })
                .await?
                .map_err(AdapterError::Platform)?;
                return Ok(Shot {
                    png,
                    width,
                    height,
                    x: bounds.x,
                    y: bounds.y,
                });
            }
        };
        self.shoot_region(&layout, region).await
    }

    async fn input(
        &self,
        gesture: &Gesture,
        _refs: &HashMap<String, String>,
    ) -> Result<ActionResult, AdapterError> {
        let g = gesture.clone();
        let message = gesture.to_string();
        acting(move || {
            let all = cg::windows();
            let layout = Layout::new(&cg::screen());
            let front = foreground(&all).map_or(0, |w| w.pid);
            if let Gesture::Type { text, delay } = &g {
                return watch("focus", front, None, &layout, || {
                    input::typing(&typing(text), delivery(front), *delay).map_err(input_error)?;
                    Ok(format!("Typed {} characters", text.chars().count()))
                });
            }
            let pointer_at = input::cursor().unwrap_or((0.0, 0.0));
            let events = mouse_events(&g, &layout, pointer_at).map_err(AdapterError::Invalid)?;
            let held = match &g {
                Gesture::Click { modifiers, .. }
                | Gesture::Drag { modifiers, .. }
                | Gesture::Scroll { modifiers, .. } => flags(modifiers),
                _ => 0,
            };
            // The process under the gesture's first point takes it; a
            // move is the real pointer's.
            let (to, pid) = match (&g, events.first()) {
                (Gesture::Move { .. }, _) | (_, None) => (Delivery::Hid, front),
                (_, Some(first)) => {
                    let at = window_at(&all, first.at.0, first.at.1);
                    let pid = at.map_or(front, |w| w.pid);
                    match pointer_route(pid_pointer(), None, at) {
                        PointerRoute::Process(p) => (Delivery::Pid(p), p),
                        PointerRoute::Hid | PointerRoute::Covered { .. } => (Delivery::Hid, pid),
                    }
                }
            };
            watch("focus", pid, None, &layout, || {
                input::mouse(&events, held, to).map_err(input_error)?;
                Ok(message)
            })
        })
        .await
    }

    async fn cursor(&self) -> Result<Point, AdapterError> {
        let layout = self.layout().await?;
        let (x, y) = blocking(input::cursor).await?.ok_or_else(|| {
            AdapterError::Platform("Core Graphics gave no pointer position".into())
        })?;
        let (px, py) = layout.to_pixel(x, y);
        Ok(Point::new(px.floor() as i64, py.floor() as i64))
    }

    async fn apps(&self) -> Result<Vec<AppEntry>, AdapterError> {
        let (installed, running) = blocking(|| {
            let home = std::env::var("HOME").ok();
            (
                apps::installed(&apps::app_dirs(home.as_deref())),
                app_windows(&cg::windows()),
            )
        })
        .await?;
        let mut out = cup::installed::entries(&installed);
        for w in running {
            let pid = u32::try_from(w.pid).ok();
            let entry = out.iter_mut().find(|e| {
                apps::is_owner(
                    &App {
                        name: e.name.clone(),
                        target: String::new(),
                    },
                    &w.owner,
                )
            });
            match entry {
                Some(e) => {
                    if let Some(p) = pid.filter(|p| !e.pids.contains(p)) {
                        e.pids.push(p);
                    }
                    e.windows.push(w.title.clone());
                }
                None => out.push(AppEntry {
                    name: w.owner.clone(),
                    id: w.owner.clone(),
                    pids: pid.into_iter().collect(),
                    windows: vec![w.title.clone()],
                    installed: false,
                }),
            }
        }
        Ok(out)
    }

    async fn check(&self) -> Vec<Check> {
        self.check_prompting(false).await
    }

    async fn check_prompting(&self, prompt: bool) -> Vec<Check> {
        let Ok((ax_ok, rec_ok)) = blocking(move || {
            let ax_ok = cg::accessibility_trusted(prompt);
            let mut rec_ok = cg::screen_recording_allowed();
            if prompt && !rec_ok {
                rec_ok = cg::request_screen_recording();
            }
            (ax_ok, rec_ok)
        })
        .await
        else {
            return Vec::new();
        };
        let grantee = "the grant belongs to the app that started cup (your terminal, IDE or agent host), not to cup itself; restart that app after granting";
        vec![
            Check {
                name: "accessibility".into(),
                ok: ax_ok,
                detail: if ax_ok {
                    "granted: cup can read and act on apps".into()
                } else {
                    "not granted: cup cannot read other apps' trees nor act on them".into()
                },
                fix: if ax_ok {
                    String::new()
                } else {
                    format!("System Settings > Privacy & Security > Accessibility: turn on the app that runs cup; {grantee}")
                },
            },
            Check {
                name: "screen recording".into(),
                ok: rec_ok,
                // CGPreflightScreenCaptureAccess answers for the app that
                // runs cup as of that app's start: a grant (or a removal)
                // since then may not show until it restarts; a screenshot
                // (ScreenCaptureKit's error -3801 or not) is the final word.
                detail: if rec_ok {
                    "granted (as macOS reports it for the app that runs cup, since that app started): screenshots and window titles".into()
                } else {
                    "not granted as of the start of the app that runs cup (a grant given since shows after restarting it; try a screenshot to be sure): no screenshots, and windows have no titles in the window list"
                        .into()
                },
                fix: if rec_ok {
                    String::new()
                } else {
                    format!("System Settings > Privacy & Security > Screen & System Audio Recording: turn on the app that runs cup; {grantee}")
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
        let installed = blocking(|| {
            let home = std::env::var("HOME").ok();
            apps::installed(&apps::app_dirs(home.as_deref()))
        })
        .await?;
        let app = cup::installed::pick(name, &installed)?;
        let before: Vec<WindowFacts> = blocking(|| app_windows(&cg::windows())).await?;
        let mine = |w: &WindowFacts| apps::is_owner(&app, &w.owner);
        let was_running = before.iter().any(&mine);
        let (target, args) = (app.target.clone(), args.to_vec());
        blocking(move || launch::open(&target, &args))
            .await?
            .map_err(AdapterError::Platform)?;
        // A running app is only brought to the front: its window is the
        // answer unless a new one appears soon.
        let wait = if was_running {
            Duration::from_secs(2)
        } else {
            Duration::from_secs(20)
        };
        let end = Instant::now() + wait;
        loop {
            let (now, screen) = blocking(|| (app_windows(&cg::windows()), cg::screen())).await?;
            let layout = Layout::new(&screen);
            let fresh = now
                .iter()
                .find(|w| mine(w) && !before.iter().any(|b| b.number == w.number));
            let found = fresh.or_else(|| {
                (was_running && Instant::now() >= end)
                    .then(|| now.iter().find(|w| mine(w)))
                    .flatten()
            });
            if let Some(w) = found {
                return Ok(Launched {
                    name: app.name.clone(),
                    pid: u32::try_from(w.pid).unwrap_or(0),
                    window: Some(handle(w, true, &layout)),
                });
            }
            if Instant::now() >= end {
                return Err(AdapterError::Platform(format!(
                    "opened '{}' but no window of it appeared within {} s; it may run in the menu bar only, or wait for a sign-in",
                    app.name,
                    wait.as_secs()
                )));
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }
}
