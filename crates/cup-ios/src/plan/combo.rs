//! Keys: device buttons (`home`, `volume_up`, `volume_down`) pressed,
//! everything else iOS can take typed through `/wda/keys`.

use cup_protocol::keys::{Combo, Key, NamedKey};

use super::{keys, press_button, Plan, PlanError, Step};
const KEYS_ACCEPTED: &str =
    "home, volume_up, volume_down, enter, backspace, tab, space or one character, without modifiers";

/// The plan of pressing `combo`: device buttons and typed keys.
///
/// # Errors
///
/// Modifiers, or a key iOS has no way to press over WDA.
pub fn key_combo(combo: &Combo) -> Result<Plan, PlanError> {
    let refuse = || {
        PlanError::Unsupported(format!(
            "iOS cannot press {combo} over WebDriverAgent; it takes {KEYS_ACCEPTED}"
        ))
    };
    if !combo.modifiers.is_empty() || combo.keys.is_empty() {
        return Err(refuse());
    }
    let mut steps = Vec::new();
    let mut typed = String::new();
    let flush = |typed: &mut String, steps: &mut Vec<Step>| {
        if !typed.is_empty() {
            steps.push(Step::Call(keys(typed)));
            typed.clear();
        }
    };
    for key in &combo.keys {
        let button = match key {
            Key::Named(NamedKey::Home) => Some("home"),
            Key::Named(NamedKey::VolumeUp) => Some("volumeup"),
            Key::Named(NamedKey::VolumeDown) => Some("volumedown"),
            _ => None,
        };
        if let Some(b) = button {
            flush(&mut typed, &mut steps);
            steps.push(Step::Call(press_button(b)));
            continue;
        }
        typed.push(match key {
            Key::Named(NamedKey::Enter | NamedKey::KpEnter) => '\n',
            Key::Named(NamedKey::Backspace) => '\u{8}',
            Key::Named(NamedKey::Tab) => '\t',
            Key::Named(NamedKey::Space) => ' ',
            Key::Char(c) => *c,
            Key::Named(_) => return Err(refuse()),
        });
    }
    flush(&mut typed, &mut steps);
    Ok(Plan {
        steps,
        message: format!("Pressed {combo}"),
    })
}
