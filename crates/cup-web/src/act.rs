//! Actions on page elements and key presses, each reporting what it
//! observed: the element's state (value, checked, selected, expanded,
//! focus, scroll, connected) and the page's (URL, title, focused element,
//! open dialogs, content size) are read before, then polled after the
//! action with a short bounded settle — no fixed sleeps — and compared.

use std::time::Duration;

use cup::{ActionParams, ActionResult, AdapterError, Change, Effect};
use cup_protocol::{Action, Combo, Direction, Modifier};
use serde_json::{json, Value};
use tokio::time::Instant;

use crate::adapter::adapter_error;
use crate::browser::Browser;
use crate::capture::parse_ref;
use crate::keys;

/// Longest wait for an effect to show.
const SETTLE: Duration = Duration::from_millis(800);

/// After the first change, how long more changes may keep coming.
const QUIET: Duration = Duration::from_millis(60);

/// How long a long press holds.
const LONG_PRESS: Duration = Duration::from_millis(800);

/// Reads an element's observable state (called on the element).
const ELEMENT_PROBE: &str = r"function() {
  const el = this, d = el.ownerDocument;
  let a = d.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  const attr = n => el.getAttribute ? el.getAttribute(n) : null;
  return {
    connected: el.isConnected,
    value: (typeof el.value === 'string') ? el.value : (el.isContentEditable ? el.innerText : null),
    checked: ('checked' in el) ? !!el.checked : null,
    indeterminate: el.indeterminate === true,
    selected: ('selected' in el) ? !!el.selected : null,
    selectedIndex: ('selectedIndex' in el) ? el.selectedIndex : null,
    expanded: attr('aria-expanded') ?? (el.tagName === 'DETAILS' ? String(el.open) : null),
    pressed: attr('aria-pressed'),
    ariaChecked: attr('aria-checked'),
    ariaSelected: attr('aria-selected'),
    open: (el.tagName === 'DIALOG' || el.tagName === 'DETAILS') ? !!el.open : null,
    disabled: !!el.disabled,
    focused: a === el,
    name: (el.getAttribute && el.getAttribute('aria-label')) || (el.innerText || '').slice(0, 120),
    scroll: [Math.round(el.scrollLeft || 0), Math.round(el.scrollTop || 0)]
  };
}";

/// Reads the page's observable state.
const PAGE_PROBE: &str = r"(() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  const describe = e => !e || e === document.body ? 'body' :
    (e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
     ((e.getAttribute('aria-label') || e.name) ? '[' + (e.getAttribute('aria-label') || e.name) + ']' : ''));
  return {
    url: location.href,
    title: document.title,
    focus: describe(a),
    focusValue: !a ? null : a.isContentEditable ? a.innerText :
      (a.tagName === 'TEXTAREA' || (a.tagName === 'INPUT' &&
        !['checkbox', 'radio', 'button', 'submit', 'reset', 'color', 'file', 'image'].includes(a.type)))
      ? a.value : null,
    selection: (a && typeof a.selectionStart === 'number') ? [a.selectionStart, a.selectionEnd]
               : String(document.getSelection() || '').length,
    dialogs: document.querySelectorAll('dialog[open]').length,
    elements: document.getElementsByTagName('*').length,
    text: document.body ? document.body.innerText.length : 0,
    scroll: [Math.round(scrollX), Math.round(scrollY)]
  };
})()";

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

/// An element of a page: which target's session holds it, and its node.
struct Element<'a> {
    browser: &'a Browser,
    page: String,
    frame: String,
    backend: i64,
}

fn platform(e: impl std::fmt::Display) -> AdapterError {
    AdapterError::Platform(e.to_string())
}

impl Element<'_> {
    async fn call(&self, method: &str, params: Value) -> Result<Value, AdapterError> {
        self.browser
            .call(&self.frame, method, params)
            .await
            .map_err(adapter_error)
    }

    async fn object(&self) -> Result<String, AdapterError> {
        let r = self
            .call("DOM.resolveNode", json!({"backendNodeId": self.backend}))
            .await
            .map_err(|_| {
                AdapterError::NotFound(
                    "the element is gone from the page; take a new snapshot".to_owned(),
                )
            })?;
        r.get("object")
            .and_then(|o| o.get("objectId"))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| {
                AdapterError::NotFound("the element is gone; take a new snapshot".into())
            })
    }

    /// Calls `function` on the element with `args`; returns its value.
    async fn run(&self, function: &str, args: &[Value]) -> Result<Value, AdapterError> {
        let object = self.object().await?;
        let arguments: Vec<Value> = args.iter().map(|a| json!({"value": a})).collect();
        let r = self
            .call(
                "Runtime.callFunctionOn",
                json!({"objectId": object, "functionDeclaration": function,
                       "arguments": arguments, "returnByValue": true, "awaitPromise": true}),
            )
            .await?;
        if let Some(ex) = r.get("exceptionDetails") {
            let text = ex
                .get("exception")
                .and_then(|e| e.get("description"))
                .and_then(Value::as_str)
                .unwrap_or("exception");
            return Err(AdapterError::Platform(format!(
                "the page threw: {}",
                text.lines().next().unwrap_or(text)
            )));
        }
        Ok(r.get("result")
            .and_then(|r| r.get("value"))
            .cloned()
            .unwrap_or(Value::Null))
    }

    async fn state(&self) -> Value {
        self.run(ELEMENT_PROBE, &[])
            .await
            .unwrap_or_else(|_| json!({"connected": false}))
    }

    async fn page_state(&self) -> Value {
        self.browser
            .evaluate(&self.page, PAGE_PROBE)
            .await
            .unwrap_or(Value::Null)
    }

    /// Scrolls the element into view and returns the centre of its first
    /// content quad (viewport CSS pixels of its frame).
    async fn centre(&self) -> Result<(f64, f64), AdapterError> {
        let _ = self
            .call(
                "DOM.scrollIntoViewIfNeeded",
                json!({"backendNodeId": self.backend}),
            )
            .await;
        let quads = self
            .call("DOM.getContentQuads", json!({"backendNodeId": self.backend}))
            .await
            .map_err(|_| {
                AdapterError::Platform(
                    "the element has no box on the page (hidden or not rendered); it cannot be clicked"
                        .to_owned(),
                )
            })?;
        let quad = quads
            .get("quads")
            .and_then(Value::as_array)
            .and_then(|q| q.first())
            .and_then(Value::as_array)
            .ok_or_else(|| {
                AdapterError::Platform(
                    "the element has no visible box; it cannot be clicked".into(),
                )
            })?;
        let n = |i: usize| quad.get(i).and_then(Value::as_f64).unwrap_or(0.0);
        Ok((
            (n(0) + n(2) + n(4) + n(6)) / 4.0,
            (n(1) + n(3) + n(5) + n(7)) / 4.0,
        ))
    }

    async fn mouse(
        &self,
        kind: &str,
        (x, y): (f64, f64),
        button: &str,
        clicks: u32,
        extra: Value,
    ) -> Result<(), AdapterError> {
        let mut params = json!({"type": kind, "x": x, "y": y, "button": button,
                                "clickCount": clicks, "pointerType": "mouse"});
        if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        self.call("Input.dispatchMouseEvent", params)
            .await
            .map(|_| ())
    }

    async fn click(&self, button: &str, count: u32) -> Result<(), AdapterError> {
        let at = self.centre().await?;
        self.mouse("mouseMoved", at, "none", 0, json!({})).await?;
        for i in 1..=count {
            self.mouse("mousePressed", at, button, i, json!({})).await?;
            self.mouse("mouseReleased", at, button, i, json!({}))
                .await?;
        }
        Ok(())
    }

    async fn key(
        &self,
        def: &keys::KeyDef,
        mask: i64,
        command: Option<&str>,
    ) -> Result<(), AdapterError> {
        let mut down = json!({
            "type": if def.text.is_some() { "keyDown" } else { "rawKeyDown" },
            "key": def.key, "code": def.code, "windowsVirtualKeyCode": def.vk,
            "nativeVirtualKeyCode": def.vk, "modifiers": mask, "location": def.location,
        });
        if let Some(t) = &def.text {
            down["text"] = json!(t);
            down["unmodifiedText"] = json!(t);
        }
        if let Some(c) = command {
            down["commands"] = json!([c]);
        }
        self.call("Input.dispatchKeyEvent", down).await?;
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": def.key, "code": def.code,
                   "windowsVirtualKeyCode": def.vk, "nativeVirtualKeyCode": def.vk,
                   "modifiers": mask, "location": def.location}),
        )
        .await
        .map(|_| ())
    }

    async fn focus(&self) -> Result<(), AdapterError> {
        self.call("DOM.focus", json!({"backendNodeId": self.backend}))
            .await
            .map(|_| ())
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
    tag: Option<&str>,
    verb: Action,
    params: &ActionParams,
) -> Result<ActionResult, AdapterError> {
    let (page, frame, backend) = parse_ref(native).ok_or_else(|| {
        AdapterError::NotFound(format!(
            "{id} has no page element behind it; take a new snapshot"
        ))
    })?;
    let el = Element {
        browser,
        page: page.to_owned(),
        frame: frame.to_owned(),
        backend,
    };
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

/// Waits until a JavaScript dialog is open on `page`.
async fn opened_dialog(browser: &Browser, page: &str) -> String {
    loop {
        if let Some(d) = browser.dialog(page).await {
            return d;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn dialog_opened(what: &str, dialog: &str) -> ActionResult {
    ActionResult::observed(
        format!("{what}: the page opened a JavaScript {dialog} dialog; press escape to dismiss it or enter to accept it"),
        Effect::Confirmed,
        vec![Change {
            target: "page".into(),
            field: "dialog".into(),
            before: None,
            after: Some(dialog.to_owned()),
        }],
    )
}

fn dialog_closed(dialog: &str, accepted: bool) -> ActionResult {
    ActionResult::observed(
        format!(
            "{} the JavaScript {dialog} dialog",
            if accepted { "Accepted" } else { "Dismissed" }
        ),
        Effect::Confirmed,
        vec![Change {
            target: "page".into(),
            field: "dialog".into(),
            before: Some(dialog.to_owned()),
            after: None,
        }],
    )
}

/// Polls the element and the page until something differs from `before`
/// (then waits [`QUIET`] for follow-ups) or [`SETTLE`] passes.
async fn observe(
    el: &Element<'_>,
    before: &Value,
    page_before: &Value,
    already: bool,
) -> (Value, Value) {
    let start = Instant::now();
    let mut step = Duration::from_millis(10);
    let deadline = start + if already { Duration::ZERO } else { SETTLE };
    loop {
        let (after, page_after) = tokio::join!(el.state(), el.page_state());
        let changed = after != *before || page_after != *page_before;
        if changed {
            tokio::time::sleep(QUIET).await;
            let (after, page_after) = tokio::join!(el.state(), el.page_state());
            return (after, page_after);
        }
        if Instant::now() >= deadline {
            return (after, page_after);
        }
        tokio::time::sleep(step).await;
        step = (step * 2).min(Duration::from_millis(100));
    }
}

fn show(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

fn diff_element(id: &str, before: &Value, after: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    if after.get("connected") != Some(&Value::Bool(true)) {
        out.push(Change {
            target: id.to_owned(),
            field: "element".into(),
            before: Some("on the page".into()),
            after: Some("removed".into()),
        });
        return out;
    }
    let mut states_before = Vec::new();
    let mut states_after = Vec::new();
    let states = [
        ("checked", "checked"),
        ("indeterminate", "mixed"),
        ("selected", "selected"),
        ("focused", "focused"),
        ("disabled", "disabled"),
        ("open", "open"),
    ];
    for (key, name) in states {
        let b = before.get(key) == Some(&Value::Bool(true));
        let a = after.get(key) == Some(&Value::Bool(true));
        if a != b {
            if a {
                states_after.push(format!("+{name}"));
            } else {
                states_after.push(format!("-{name}"));
            }
            states_before.push(String::new());
        }
    }
    for (key, name) in [
        ("expanded", "expanded"),
        ("pressed", "pressed"),
        ("ariaChecked", "checked"),
        ("ariaSelected", "selected"),
    ] {
        let b = show(before.get(key));
        let a = show(after.get(key));
        if a != b {
            let on = a.as_deref() == Some("true");
            states_after.push(format!("{}{name}", if on { '+' } else { '-' }));
        }
    }
    if !states_after.is_empty() {
        out.push(Change {
            target: id.to_owned(),
            field: "states".into(),
            before: None,
            after: Some(states_after.join(",")),
        });
    }
    for (key, field) in [
        ("value", "value"),
        ("selectedIndex", "selection"),
        ("name", "name"),
        ("scroll", "scroll"),
    ] {
        let b = show(before.get(key));
        let a = show(after.get(key));
        if a != b {
            out.push(Change {
                target: id.to_owned(),
                field: field.into(),
                before: b,
                after: a,
            });
        }
    }
    out
}

fn diff_page(before: &Value, after: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    if before.is_null() || after.is_null() {
        return out;
    }
    for (key, target, field) in [
        ("url", "page", "url"),
        ("title", "page", "title"),
        ("focus", "focus", "focus"),
        ("focusValue", "focus", "value"),
        ("selection", "focus", "selection"),
        ("dialogs", "page", "dialogs"),
        ("elements", "page", "elements"),
        ("text", "page", "text length"),
        ("scroll", "page", "scroll"),
    ] {
        let b = show(before.get(key));
        let a = show(after.get(key));
        if a != b {
            out.push(Change {
                target: target.into(),
                field: field.into(),
                before: b,
                after: a,
            });
        }
    }
    out
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
