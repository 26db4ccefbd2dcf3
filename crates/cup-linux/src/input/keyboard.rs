//! Keyboard input through XTest: key combos and text. Keysyms the keymap
//! lacks are written for the time of the action onto spare keycodes
//! (`ChangeKeyboardMapping`), and the original (empty) rows written back
//! afterwards, also when the action fails.

use std::collections::HashMap;

use cup_protocol::{Combo, Key, Modifier};

use super::held::Held;
use super::keymap::{modifier_keycode, Keycode, Level, Place, Plan, Route};
use super::keysym::{self, Keysym};
use super::link::{Link, Maps};
use super::InputError;

/// The keysym of a combo key.
pub(crate) fn key_keysym(key: Key) -> Result<Keysym, InputError> {
    match key {
        Key::Named(named) => Ok(keysym::named_keysym(named)),
        Key::Char(c) => keysym::char_keysym(c).ok_or(InputError::Untypable { code: u32::from(c) }),
    }
}

/// The keycode of a modifier.
pub(crate) fn modifier_key(maps: &Maps, modifier: Modifier) -> Result<Keycode, InputError> {
    modifier_keycode(&maps.keymap, &maps.modmap, modifier)
        .ok_or(InputError::NoModifierKey { modifier })
}

/// Presses `combo`: its modifiers down in order, each key pressed and
/// released in order (with the Shift / level-3 / Mode_switch its keysym
/// needs), the modifiers released in reverse. Modifiers the user holds are
/// released first and pressed again afterwards.
pub(crate) fn press(
    link: &mut Link,
    combo: &Combo,
    settle: std::time::Duration,
) -> Result<(), InputError> {
    let maps = link.maps()?;
    let modifiers = combo
        .modifiers
        .iter()
        .map(|&m| modifier_key(&maps, m))
        .collect::<Result<Vec<_>, _>>()?;
    let keysyms = combo
        .keys
        .iter()
        .map(|&k| key_keysym(k))
        .collect::<Result<Vec<_>, _>>()?;
    let plan = Plan::new(&maps.keymap, &maps.shifters, &keysyms);
    let mut held = Held::new(link, settle);
    let mask = held.release_user_modifiers(&maps, false)?;
    let borrowed = borrow_spares(&mut held, &maps, &plan.remap, || {
        format!("pressing {combo}")
    })?;
    for &kc in &modifiers {
        held.key_down(kc)?;
    }
    for &(_, route) in &plan.strokes {
        let place = place_of(route, &borrowed)?;
        stroke(&mut held, &maps, place, mask)?;
    }
    for &kc in modifiers.iter().rev() {
        held.key_up(kc)?;
    }
    held.finish()
}

/// Types `text`: `\n` (and `\r`, `\r\n`) as Return, `\t` as Tab, every
/// other character through its keysym. The user's held modifiers and Caps
/// Lock are lifted for the time of typing.
pub(crate) fn type_text(
    link: &mut Link,
    text: &str,
    settle: std::time::Duration,
    gate: Option<super::ReadGate>,
) -> Result<(), InputError> {
    let keysyms = text_keysyms(text)?;
    if keysyms.is_empty() {
        return Ok(());
    }
    let maps = link.maps()?;
    let plan = Plan::new(&maps.keymap, &maps.shifters, &keysyms);
    let spares = maps.keymap.spare_keycodes(&maps.modmap);
    let mut held = Held::new(link, settle).with_gate(gate);
    let caps_matters = keysyms.iter().any(|&k| {
        let (lower, upper) = keysym::keysym_case(k);
        lower != upper
    });
    let mask = held.release_user_modifiers(&maps, caps_matters)?;
    if plan.remap.len() <= spares.len() {
        let borrowed = borrow_spares(&mut held, &maps, &plan.remap, || {
            format!("typing {}", keysym::describe(plan.remap[0]))
        })?;
        for &(_, route) in &plan.strokes {
            stroke(&mut held, &maps, place_of(route, &borrowed)?, mask)?;
        }
        return held.finish();
    }
    // More distinct missing characters than spare keycodes: type in
    // batches, each with its own remap, clients settling in between.
    if spares.is_empty() {
        return Err(InputError::NoSpareKeycode {
            what: format!("typing {}", keysym::describe(plan.remap[0])),
        });
    }
    let mut borrowed: HashMap<usize, Keycode> = HashMap::new();
    for &(_, route) in &plan.strokes {
        if let Route::Remap(index) = route {
            if !borrowed.contains_key(&index) {
                if borrowed.len() == spares.len() {
                    held.settle()?;
                    borrowed.clear();
                }
                let kc = spares[borrowed.len()];
                held.remap(&maps.keymap, &[(kc, plan.remap[index])])?;
                borrowed.insert(index, kc);
            }
        }
        stroke(&mut held, &maps, place_of(route, &borrowed)?, mask)?;
    }
    held.finish()
}

/// The keysyms of `text`; `\r\n` is one Return.
pub(crate) fn text_keysyms(text: &str) -> Result<Vec<Keysym>, InputError> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        out.push(keysym::char_keysym(c).ok_or(InputError::Untypable { code: u32::from(c) })?);
    }
    Ok(out)
}

/// Writes every keysym of `remap` onto its own spare keycode; `what`
/// names the action when there are too few.
fn borrow_spares(
    held: &mut Held<'_>,
    maps: &Maps,
    remap: &[Keysym],
    what: impl FnOnce() -> String,
) -> Result<HashMap<usize, Keycode>, InputError> {
    if remap.is_empty() {
        return Ok(HashMap::new());
    }
    let spares = maps.keymap.spare_keycodes(&maps.modmap);
    if spares.len() < remap.len() {
        return Err(InputError::NoSpareKeycode { what: what() });
    }
    let assignments: Vec<(Keycode, Keysym)> =
        spares.iter().copied().zip(remap.iter().copied()).collect();
    held.remap(&maps.keymap, &assignments)?;
    Ok(assignments
        .iter()
        .enumerate()
        .map(|(i, &(kc, _))| (i, kc))
        .collect())
}

fn place_of(route: Route, borrowed: &HashMap<usize, Keycode>) -> Result<Place, InputError> {
    match route {
        Route::Key(place) => Ok(place),
        Route::Remap(index) => borrowed
            .get(&index)
            .map(|&keycode| Place {
                keycode,
                level: Level::Base,
                keypad: false,
            })
            .ok_or_else(|| InputError::Worker("a remapped key has no keycode".to_owned())),
    }
}

/// Presses and releases one key with the modifiers its level needs
/// (`mask`: the modifier state left after lifting the user's).
fn stroke(held: &mut Held<'_>, maps: &Maps, place: Place, mask: u16) -> Result<(), InputError> {
    let num_lock = maps.shifters.num_lock_mask != 0 && mask & maps.shifters.num_lock_mask != 0;
    let shift = place.level.shift() != (num_lock && place.keypad);
    let mut extra: Vec<Keycode> = Vec::with_capacity(2);
    let shifters = &maps.shifters;
    for (needed, key) in [
        (shift, shifters.shift),
        (place.level.level3(), shifters.level3),
        (place.level.group2(), shifters.mode_switch),
    ] {
        if let (true, Some(kc)) = (needed, key) {
            if !held.holds(kc) {
                extra.push(kc);
            }
        }
    }
    // A combo's own Shift stays held for a key that needs no Shift, as asked.
    for &kc in &extra {
        held.key_down(kc)?;
    }
    held.key_down(place.keycode)?;
    held.key_up(place.keycode)?;
    for &kc in extra.iter().rev() {
        held.key_up(kc)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_keysyms_map_newlines_and_tabs() {
        assert_eq!(
            text_keysyms("a\r\nb\n\t\ré").ok(),
            Some(vec![
                0x61,
                keysym::xk::RETURN,
                0x62,
                keysym::xk::RETURN,
                keysym::xk::TAB,
                keysym::xk::RETURN,
                0xe9
            ])
        );
        assert!(matches!(
            text_keysyms("a\u{1}"),
            Err(InputError::Untypable { code: 1 })
        ));
        assert_eq!(text_keysyms("").ok(), Some(vec![]));
    }
}
