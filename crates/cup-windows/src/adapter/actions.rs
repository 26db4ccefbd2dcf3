//! Acting on Windows: element actions (a UIA pattern, or a click, the
//! wheel or keys where the element offers none), key combinations and
//! gestures, each refused first when its window runs elevated, its effect
//! watched.

use std::time::Duration;

use cup::refs::parse_ref;
use cup::{ActionParams, ActionResult, AdapterError, Gesture, Point, Target};
use cup_protocol::keys::Combo;
use cup_protocol::Action;

use super::{blocking, pool_error, WindowsAdapter, ACT_DEADLINE, KEY_BATCH};
use crate::act::{plan, Plan};
use crate::keys::{combo_events, text_events};
use crate::os::input::{self, layout_key};
use crate::os::{act as os_act, win32};
use crate::refs::ElementRef;

impl WindowsAdapter {
    /// Performs `action` on `target` ([`cup::Adapter::act`]).
    pub(super) async fn act_on(
        &self,
        target: &Target<'_>,
        action: Action,
        params: &ActionParams,
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

    /// Presses `combo` in the foreground window ([`cup::Adapter::press`]).
    pub(super) async fn press_combo(&self, combo: &Combo) -> Result<ActionResult, AdapterError> {
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

    /// Sends a pixel-level gesture ([`cup::Adapter::input`]).
    pub(super) async fn send_gesture(
        &self,
        gesture: &Gesture,
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
