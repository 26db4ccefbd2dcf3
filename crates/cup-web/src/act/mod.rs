//! Actions on page elements and key presses, each reporting what it
//! observed: the element's state (value, checked, selected, expanded,
//! focus, scroll, connected) and the page's (URL, title, focused element,
//! open dialogs, content size) are read before, then polled after the
//! action with a short bounded settle — no fixed sleeps — and compared.

mod dialog;
mod element;
pub(crate) mod gesture;
mod observe;

use std::time::Duration;

use cup::{ActionParams, ActionResult, AdapterError, Effect};
use cup_protocol::{Action, Combo, Direction, Modifier};
use serde_json::{json, Value};
use tokio::time::Instant;

use crate::adapter::adapter_error;
use crate::browser::Browser;
use crate::capture::{parse_ref, NodeKey};
use crate::keys;

use dialog::{dialog_closed, dialog_opened, opened_dialog};
use element::{platform, Element};
use observe::{diff_element, diff_page, observe};

/// How long a long press holds.
const LONG_PRESS: Duration = Duration::from_millis(800);

/// What the action did (before observing).
struct Done {
    message: String,
    /// Nothing was done because the element is already in the asked state.
    already: bool,
}

impl Done {
    fn new(message: impl Into<String>) -> Done {
        Done {
            message: message.into(),
            already: false,
        }
    }
}

/// Presses `combo` through `target`'s session: modifiers down, keys, up.
pub(crate) async fn press_keys(
    browser: &Browser,
    target: &str,
    combo: &Combo,
) -> Result<(), AdapterError> {
    let el = Element {
        browser,
        page: target.to_owned(),
        frame: target.to_owned(),
        backend: 0,
    };
    let mut held: Vec<Modifier> = Vec::new();
    for m in &combo.modifiers {
        held.push(*m);
        let def = keys::modifier_def(*m);
        el.call(
            "Input.dispatchKeyEvent",
            json!({"type": "rawKeyDown", "key": def.key, "code": def.code,
                   "windowsVirtualKeyCode": def.vk, "modifiers": keys::modifier_mask(&held),
                   "location": def.location}),
        )
        .await?;
    }
    let mask = keys::modifier_mask(&combo.modifiers);
    let command = keys::editing_command(combo);
    for k in &combo.keys {
        let def = keys::key_def(k, &combo.modifiers);
        el.key(&def, mask, command).await?;
    }
    for m in combo.modifiers.iter().rev() {
        held.retain(|h| h != m);
        let def = keys::modifier_def(*m);
        el.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": def.key, "code": def.code,
                   "windowsVirtualKeyCode": def.vk, "modifiers": keys::modifier_mask(&held),
                   "location": def.location}),
        )
        .await?;
    }
    Ok(())
}

const SET_VALUE: &str = r"function(v) {
  const proto = Object.getPrototypeOf(this);
  const d = Object.getOwnPropertyDescriptor(proto, 'value');
  if (this.isContentEditable && !('value' in this)) { this.textContent = v; }
  else if (d && d.set) { d.set.call(this, v); } else { this.value = v; }
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return (typeof this.value === 'string') ? this.value : this.innerText;
}";

const SELECT_ALL: &str = r"function() {
  this.focus();
  if (typeof this.select === 'function' && typeof this.value === 'string') { this.select(); return true; }
  const s = this.ownerDocument.getSelection(); const r = this.ownerDocument.createRange();
  r.selectNodeContents(this); s.removeAllRanges(); s.addRange(r); return true;
}";

const SELECT_OPTION: &str = r"function(wanted) {
  const sel = this.tagName === 'OPTION' ? this.closest('select') : this;
  if (!sel || sel.tagName !== 'SELECT') return {error: 'not a drop-down'};
  const opts = Array.from(sel.options);
  let i = this.tagName === 'OPTION' ? opts.indexOf(this)
        : opts.findIndex(o => o.label === wanted || o.text.trim() === wanted || o.value === wanted);
  if (i < 0) { const w = String(wanted).toLowerCase();
    i = opts.findIndex(o => o.text.trim().toLowerCase() === w || o.value.toLowerCase() === w); }
  if (i < 0) return {error: 'no option ' + JSON.stringify(wanted) + '; options: ' + opts.map(o => JSON.stringify(o.text.trim())).join(', ')};
  if (sel.selectedIndex === i) return {already: opts[i].text.trim()};
  sel.selectedIndex = i;
  sel.dispatchEvent(new Event('input', {bubbles: true}));
  sel.dispatchEvent(new Event('change', {bubbles: true}));
  return {selected: opts[i].text.trim()};
}";

const READ_TEXT: &str =
    r"function() { return (typeof this.value === 'string') ? this.value : this.innerText; }";

/// Performs `verb` on the element of `native` and reports what it saw.
pub(crate) async fn act(
    browser: &Browser,
    id: &str,
    native: &str,
    node: &cup_protocol::Node,
    verb: Action,
    params: &ActionParams,
) -> Result<ActionResult, AdapterError> {
    let tag = tag_of(node);
    let tag = tag.as_deref();
    let (page, frame, key) = parse_ref(native).ok_or_else(|| {
        AdapterError::NotFound(format!(
            "{id} has no page element behind it; take a new snapshot"
        ))
    })?;
    if let Some(d) = browser.dialog(page).await {
        if verb == Action::Dismiss {
            browser
                .close_dialog(page, false)
                .await
                .map_err(adapter_error)?;
            return Ok(dialog_closed(&d, false));
        }
        return Err(AdapterError::Invalid(format!(
            "a JavaScript {d} dialog blocks the page; press escape to dismiss it or enter to accept it first"
        )));
    }
    // A walker id is looked up in cup's world of its frame (the page runs
    // no script while a dialog is open: asked after the check above).
    let backend = match key {
        NodeKey::Backend(b) => b,
        NodeKey::Walker { frame: f, id: w } => {
            crate::walker::world::find(browser, frame, &f, w, node)
                .await
                .map_err(adapter_error)?
                .ok_or_else(|| {
                    AdapterError::NotFound(format!(
                        "{id} is no longer on the page (it changed or navigated since the snapshot); take a new snapshot"
                    ))
                })?
        }
    };
    let el = Element {
        browser,
        page: page.to_owned(),
        frame: frame.to_owned(),
        backend,
    };
    let before = el.state().await;
    if before.get("connected") != Some(&Value::Bool(true)) {
        return Err(AdapterError::NotFound(format!(
            "{id} is no longer on the page; take a new snapshot"
        )));
    }
    let page_before = el.page_state().await;
    // An alert opened by the action blocks the page (and the input call
    // that caused it) until it is closed: watch for one meanwhile.
    let done = tokio::select! {
        done = perform(&el, tag, verb, params, &before) => done?,
        d = opened_dialog(browser, page) => return Ok(dialog_opened(verb.name(), &d)),
    };
    if let Some(d) = browser.dialog(page).await {
        return Ok(dialog_opened(verb.name(), &d));
    }
    let (after, page_after) = observe(&el, &before, &page_before, done.already).await;
    let mut changes = diff_element(id, &before, &after);
    changes.extend(diff_page(&page_before, &page_after));
    // Focus leaving for the page body (a click on a disabled control blurs
    // the last one) is listed but is no evidence the action did anything.
    let evidence = changes
        .iter()
        .any(|c| !(c.target == "focus" && c.after.as_deref().is_none_or(|a| a == "body")));
    let effect = if evidence {
        Effect::Confirmed
    } else if page_after.is_null() {
        Effect::Unverified
    } else {
        Effect::NoChange
    };
    let mut message = done.message;
    if matches!(verb, Action::Type | Action::SetValue) {
        let wanted = params.value.clone().unwrap_or_default();
        let got = el.run(READ_TEXT, &[]).await.ok();
        match got.as_ref().and_then(Value::as_str) {
            Some(g) if g == wanted => message.push_str(" (reads back exactly)"),
            Some(g) => message.push_str(&format!(" (reads back {g:?})")),
            None => {}
        }
    }
    if effect == Effect::NoChange && !done.already {
        message.push_str("; nothing changed on the page");
    }
    Ok(ActionResult::observed(message, effect, changes))
}

async fn perform(
    el: &Element<'_>,
    tag: Option<&str>,
    verb: Action,
    params: &ActionParams,
    before: &Value,
) -> Result<Done, AdapterError> {
    let flag = |k: &str| before.get(k).and_then(Value::as_str).map(str::to_owned);
    match verb {
        Action::Click | Action::Toggle => {
            el.click("left", 1).await?;
            Ok(Done::new(if verb == Action::Click {
                "Clicked"
            } else {
                "Toggled"
            }))
        }
        Action::DoubleClick => {
            el.click("left", 2).await?;
            Ok(Done::new("Double-clicked"))
        }
        Action::RightClick => {
            el.click("right", 1).await?;
            Ok(Done::new("Right-clicked"))
        }
        Action::LongPress => {
            let at = el.centre().await?;
            el.mouse("mouseMoved", at, "none", 0, json!({})).await?;
            el.mouse("mousePressed", at, "left", 1, json!({})).await?;
            tokio::time::sleep(LONG_PRESS).await;
            el.mouse("mouseReleased", at, "left", 1, json!({})).await?;
            Ok(Done::new("Long-pressed"))
        }
        Action::Focus => {
            el.focus().await?;
            Ok(Done::new("Focused"))
        }
        Action::Type => {
            let text = params.value.clone().unwrap_or_default();
            el.run(SELECT_ALL, &[]).await?;
            if text.is_empty() {
                el.call(
                    "Input.dispatchKeyEvent",
                    json!({"type": "rawKeyDown", "key": "Delete", "code": "Delete", "windowsVirtualKeyCode": 46}),
                )
                .await?;
                el.call(
                    "Input.dispatchKeyEvent",
                    json!({"type": "keyUp", "key": "Delete", "code": "Delete", "windowsVirtualKeyCode": 46}),
                )
                .await?;
            } else {
                el.call("Input.insertText", json!({"text": text})).await?;
            }
            Ok(Done::new(format!("Typed {text:?}")))
        }
        Action::SetValue => {
            let v = params.value.clone().unwrap_or_default();
            el.run(SET_VALUE, &[json!(v)]).await?;
            Ok(Done::new(format!("Set the value to {v:?}")))
        }
        Action::Select => {
            if matches!(tag, Some("select" | "option")) {
                let wanted = params.value.clone().unwrap_or_default();
                if tag == Some("select") && wanted.is_empty() {
                    return Err(AdapterError::Invalid(
                        "select on a drop-down needs a value: the option's label or value".into(),
                    ));
                }
                let r = el.run(SELECT_OPTION, &[json!(wanted)]).await?;
                if let Some(e) = r.get("error").and_then(Value::as_str) {
                    return Err(AdapterError::Invalid(e.to_owned()));
                }
                if let Some(a) = r.get("already").and_then(Value::as_str) {
                    return Ok(Done {
                        message: format!("{a:?} is already selected"),
                        already: true,
                    });
                }
                let s = r
                    .get("selected")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                return Ok(Done::new(format!("Selected {s:?}")));
            }
            if before.get("selected") == Some(&Value::Bool(true))
                || flag("ariaSelected").as_deref() == Some("true")
            {
                return Ok(Done {
                    message: "Already selected".into(),
                    already: true,
                });
            }
            el.click("left", 1).await?;
            Ok(Done::new("Selected"))
        }
        Action::Expand | Action::Collapse => {
            let want = verb == Action::Expand;
            if flag("expanded").as_deref() == Some(if want { "true" } else { "false" }) {
                return Ok(Done {
                    message: format!("Already {}", if want { "expanded" } else { "collapsed" }),
                    already: true,
                });
            }
            el.click("left", 1).await?;
            Ok(Done::new(if want { "Expanded" } else { "Collapsed" }))
        }
        Action::Scroll => {
            let dir = params.direction.unwrap_or(Direction::Down);
            let amount = f64::from(params.amount.unwrap_or(3)) * 100.0;
            let (dx, dy) = match dir {
                Direction::Up => (0.0, -amount),
                Direction::Down => (0.0, amount),
                Direction::Left => (-amount, 0.0),
                Direction::Right => (amount, 0.0),
            };
            let at = el.centre().await?;
            el.mouse(
                "mouseWheel",
                at,
                "none",
                0,
                json!({"deltaX": dx, "deltaY": dy}),
            )
            .await?;
            Ok(Done::new(format!("Scrolled {dir}")))
        }
        Action::Increment | Action::Decrement => {
            el.focus().await?;
            let key = if verb == Action::Increment {
                "up"
            } else {
                "down"
            };
            let combo = cup_protocol::parse_combo(key).map_err(platform)?;
            press_keys(el.browser, &el.frame, &combo).await?;
            Ok(Done::new(if verb == Action::Increment {
                "Incremented"
            } else {
                "Decremented"
            }))
        }
        Action::Dismiss => {
            let combo = cup_protocol::parse_combo("escape").map_err(platform)?;
            if before.get("open") == Some(&Value::Bool(true)) {
                el.focus().await.ok();
            }
            press_keys(el.browser, &el.frame, &combo).await?;
            Ok(Done::new("Dismissed (Escape)"))
        }
    }
}

/// Presses `combo` on the foreground page and reports what changed on it.
pub(crate) async fn press(
    browser: &Browser,
    page: &str,
    combo: &Combo,
) -> Result<ActionResult, AdapterError> {
    let el = Element {
        browser,
        page: page.to_owned(),
        frame: page.to_owned(),
        backend: 0,
    };
    if let Some(d) = browser.dialog(page).await {
        let plain = combo.modifiers.is_empty() && combo.keys.len() == 1;
        let key = combo.keys.first();
        let accept = match key {
            Some(cup_protocol::Key::Named(cup_protocol::NamedKey::Escape)) if plain => false,
            Some(cup_protocol::Key::Named(
                cup_protocol::NamedKey::Enter | cup_protocol::NamedKey::KpEnter,
            )) if plain => true,
            _ => {
                return Err(AdapterError::Invalid(format!(
                    "a JavaScript {d} dialog blocks the page; press escape to dismiss it or enter to accept it"
                )))
            }
        };
        browser
            .close_dialog(page, accept)
            .await
            .map_err(adapter_error)?;
        return Ok(dialog_closed(&d, accept));
    }
    let before = el.page_state().await;
    tokio::select! {
        r = press_keys(browser, page, combo) => r?,
        d = opened_dialog(browser, page) => return Ok(dialog_opened(&format!("Pressed {combo}"), &d)),
    }
    if let Some(d) = browser.dialog(page).await {
        return Ok(dialog_opened(&format!("Pressed {combo}"), &d));
    }
    let start = Instant::now();
    let mut after = el.page_state().await;
    while after == before && start.elapsed() < Duration::from_millis(300) {
        tokio::time::sleep(Duration::from_millis(20)).await;
        after = el.page_state().await;
    }
    let changes = diff_page(&before, &after);
    let effect = if changes.is_empty() {
        // Keys often change nothing the page exposes (a caret move).
        Effect::Unverified
    } else {
        Effect::Confirmed
    };
    Ok(ActionResult::observed(
        format!("Pressed {combo}"),
        effect,
        changes,
    ))
}

/// The tag of a node from `platform.web.tagName`.
pub(crate) fn tag_of(node: &cup_protocol::Node) -> Option<String> {
    node.platform.web.as_ref().and_then(|w| w.tag_name.clone())
}
