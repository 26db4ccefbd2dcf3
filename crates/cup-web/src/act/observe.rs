//! What an action changed: the element's and the page's observable state,
//! read before and polled after (bounded, no fixed sleep), and compared.

use std::time::Duration;

use cup::Change;
use serde_json::Value;
use tokio::time::Instant;

use super::element::Element;

/// Longest wait for an effect to show.
const SETTLE: Duration = Duration::from_millis(800);

/// After the first change, how long more changes may keep coming.
const QUIET: Duration = Duration::from_millis(60);

/// Reads an element's observable state (called on the element).
pub(super) const ELEMENT_PROBE: &str = r"function() {
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
pub(super) const PAGE_PROBE: &str = r"(() => {
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

/// Polls the element and the page until something differs from `before`
/// (then waits [`QUIET`] for follow-ups) or [`SETTLE`] passes.
pub(super) async fn observe(
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

pub(super) fn diff_element(id: &str, before: &Value, after: &Value) -> Vec<Change> {
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

pub(super) fn diff_page(before: &Value, after: &Value) -> Vec<Change> {
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
