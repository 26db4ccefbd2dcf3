//! The words of an element: its name (label, WDA's `name` unless it
//! looks like an identifier, a static text's value, a placeholder) and its
//! value (masked for secure fields, none when it only shows its
//! placeholder).

use cup_protocol::text::{cap, one_line, NAME_MAX, VALUE_MAX};

use super::{is_text_input, nonempty, MASK};
use crate::facts::WdaElement;

/// Whether `s` looks like a developer's identifier rather than words for
/// people: no spaces, ASCII, and a `_`, `.`, `:` or `/`, a lowercase start
/// with a capital after its second letter (`loginButton`, not `iPhone`),
/// three or more camel-case words (`TabBarItemTitle`, not `AirDrop`), or
/// hyphens without capitals (`btn-login`, not `Wi-Fi`).
pub fn identifier_like(s: &str) -> bool {
    let s = s.trim();
    if s.is_empty() || s.chars().any(|c| c.is_whitespace() || !c.is_ascii()) {
        return false;
    }
    let lower_start = s.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    let capital_inside = s.chars().skip(2).any(|c| c.is_ascii_uppercase());
    let humps = s
        .as_bytes()
        .windows(2)
        .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        .count();
    let no_capitals = !s.chars().any(|c| c.is_ascii_uppercase());
    s.contains(['_', '.', ':', '/'])
        || (lower_start && capital_inside)
        || humps >= 2
        || (s.contains('-') && no_capitals)
}

/// The name of `el`: its label, else WDA's `name` unless it looks like an
/// identifier, else a static text's value, else a text input's
/// placeholder.
pub fn name(el: &WdaElement) -> String {
    let ty = el.element_type.as_str();
    let found = nonempty(el.label.as_deref())
        .or_else(|| nonempty(el.name.as_deref()).filter(|n| !identifier_like(n)))
        .or_else(|| {
            (ty == "StaticText")
                .then(|| nonempty(el.value.as_deref()))
                .flatten()
        })
        .or_else(|| {
            is_text_input(ty)
                .then(|| nonempty(el.placeholder_value.as_deref()))
                .flatten()
        })
        .unwrap_or("");
    one_line(found, NAME_MAX)
}

/// Whether WDA's value of a text input is its placeholder (WDA reports
/// the placeholder as the value of an empty field).
fn shows_placeholder(el: &WdaElement) -> bool {
    nonempty(el.value.as_deref()).is_some()
        && el.value.as_deref().map(str::trim) == nonempty(el.placeholder_value.as_deref())
}

/// The value of `el` (named `name`): a text input's text (masked for
/// secure fields, absent when it only shows its placeholder), a slider's
/// or progress indicator's value, other elements' value when it says more
/// than their name. Switches, check boxes and selected buttons say theirs
/// in states.
pub fn value(el: &WdaElement, name: &str) -> Option<String> {
    let raw = el.value.as_deref().filter(|v| !v.trim().is_empty())?;
    match el.element_type.as_str() {
        "SecureTextField" => (!shows_placeholder(el)).then(|| MASK.to_owned()),
        "TextField" | "TextView" | "SearchField" => {
            (!shows_placeholder(el)).then(|| cap(raw, VALUE_MAX))
        }
        "Switch" | "Toggle" | "CheckBox" | "RadioButton" | "StaticText" => None,
        "Button" if raw.trim() == "1" => None,
        _ => {
            let v = one_line(raw, VALUE_MAX);
            (v != name).then_some(v)
        }
    }
}
