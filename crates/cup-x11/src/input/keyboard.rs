//! Keyboard input through XTest: key combos and text. Keysyms the keymap
//! lacks are typed on lent keycodes ([`super::lease`], [`super::bind`]):
//! all of a call's at once, the first key only once the client noticed the
//! change ([`super::barrier`]), and never a keycode rebound while an event
//! that uses it may still be unread.

use std::sync::Arc;
use std::time::Duration;

use cup_protocol::{Combo, Key, Modifier};

use super::barrier;
use super::bind;
use super::held::Held;
use super::keymap::{modifier_keycode, Keycode, Plan, Route};
use super::keysym::{self, Keysym};
use super::lease::Leases;
use super::link::{Link, Maps};
use super::InputError;

/// How keys that need a lent keycode are typed (from
/// [`InputOptions`](super::InputOptions)).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lending {
    /// Wait after a keymap change for a client that takes no pings.
    pub notice_gap: Duration,
    /// Longest wait for a ping's answer.
    pub ping_limit: Duration,
    /// How long after its last use a lease may be taken by another call.
    pub hold: Duration,
    /// Without a ping's answer, how long after its last key a keycode
    /// waits before it is lent to another keysym when keycodes run short.
    pub rebind_wait: Duration,
}

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

/// The keycodes a plan's strokes press (where the keymap has them); with
/// `window`, only those of the strokes before the `window`-th distinct
/// keysym that takes a lendable keycode (lent already, or missing): the
/// keys needed soon, at most `window - 1` of them lent.
fn keycodes(leases: &Leases, plan: &Plan, window: Option<usize>) -> Vec<Keycode> {
    let mut out: Vec<Keycode> = Vec::new();
    let mut lendable: Vec<Keysym> = Vec::new();
    for &(keysym, route) in &plan.strokes {
        let takes_one = match route {
            Route::Key(place) => leases.get(place.keycode).is_some(),
            Route::Remap(_) => true,
        };
        if takes_one && !lendable.contains(&keysym) {
            lendable.push(keysym);
            if window.is_some_and(|w| lendable.len() >= w) {
                break;
            }
        }
        if let Route::Key(place) = route {
            out.push(place.keycode);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Makes `keysyms` typable: binds the ones the keymap lacks (as many as
/// keycodes allow) and waits until the client noticed. Every keycode the
/// keysyms use is kept, or with `later` (a next batch: keycodes run
/// short) only those needed soon — before half the lendable keycodes'
/// worth of missing keysyms has come up: a lent keycode needed only later
/// may be lent again now (and lent back when its turn comes); `read`
/// keycodes may be lent again at once. Returns the keymap
/// and the plan on it (a stroke still routed to a remap needs a later
/// batch).
fn ready(
    link: &mut Link,
    keysyms: &[Keysym],
    later: bool,
    read: &[Keycode],
    lending: Lending,
) -> Result<(Arc<Maps>, Plan), InputError> {
    let maps = link.maps()?;
    let plan = Plan::new(&maps.keymap, &maps.shifters, keysyms);
    let leases = bind::leases(link, &maps.keymap)?;
    // Keycodes to lend: the empty ones and the lent ones.
    let lendable = maps.keymap.spare_keycodes(&maps.modmap).len() + leases.len();
    let window = later.then(|| (lendable / 2).max(1));
    let in_use = keycodes(&leases, &plan, window);
    if plan.remap.is_empty() {
        if in_use.iter().any(|&kc| leases.get(kc).is_some()) {
            bind::touch(link, &in_use)?;
        }
        return Ok((maps, plan));
    }
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let change = bind::lend(
        link,
        &plan.remap,
        &in_use,
        read,
        ms(lending.hold),
        ms(lending.rebind_wait),
    )?;
    if !change.bind.is_empty() {
        let notice = barrier::notice(link, lending.notice_gap, lending.ping_limit)?;
        tracing::debug!(
            wanted = plan.remap.len(),
            bound = change.bind.len(),
            restored = change.restore.len(),
            ?notice,
            "lent keycodes"
        );
    }
    let maps = link.maps()?;
    let plan = Plan::new(&maps.keymap, &maps.shifters, keysyms);
    Ok((maps, plan))
}

/// Presses `combo`: its modifiers down in order, each key pressed and
/// released in order (with the Shift / level-3 / Mode_switch its keysym
/// needs), the modifiers released in reverse. Modifiers the user holds are
/// released first and pressed again afterwards.
pub(crate) fn press(link: &mut Link, combo: &Combo, lending: Lending) -> Result<(), InputError> {
    let keysyms = combo
        .keys
        .iter()
        .map(|&k| key_keysym(k))
        .collect::<Result<Vec<_>, _>>()?;
    let (maps, plan) = ready(link, &keysyms, false, &[], lending)?;
    if !plan.remap.is_empty() {
        return Err(InputError::NoSpareKeycode {
            what: format!("pressing {combo}"),
        });
    }
    let modifiers = combo
        .modifiers
        .iter()
        .map(|&m| modifier_key(&maps, m))
        .collect::<Result<Vec<_>, _>>()?;
    let mut held = Held::new(link);
    let mask = held.release_user_modifiers(&maps, false)?;
    for &kc in &modifiers {
        held.key_down(kc)?;
    }
    for &(_, route) in &plan.strokes {
        stroke(&mut held, &maps, route, mask)?;
    }
    for &kc in modifiers.iter().rev() {
        held.key_up(kc)?;
    }
    held.finish()?;
    received(link, lending)
}

/// Returns once the client the keys went to has read them: it answered a
/// ping sent after them (in the order of its event queue), so no key,
/// the last one on a lent keycode included, is still on its way. A
/// client that takes no pings is not waited for (nothing would tell).
fn received(link: &mut Link, lending: Lending) -> Result<(), InputError> {
    let notice = barrier::notice(link, Duration::ZERO, lending.ping_limit)?;
    tracing::debug!(?notice, "keys received");
    Ok(())
}

/// Types `text`: `\n` (and `\r`, `\r\n`) as Return, `\t` as Tab, every
/// other character through its keysym, code point for code point. The
/// user's held modifiers and Caps Lock are lifted for the time of typing.
/// More distinct missing keysyms than keycodes to lend are typed in
/// batches: a keycode of one batch is lent again only once the client
/// answered a ping sent after its keys (else after
/// [`Lending::rebind_wait`]).
pub(crate) fn type_text(link: &mut Link, text: &str, lending: Lending) -> Result<(), InputError> {
    let keysyms = text_keysyms(text)?;
    if keysyms.is_empty() {
        return Ok(());
    }
    let caps_matters = keysyms.iter().any(|&k| {
        let (lower, upper) = keysym::keysym_case(k);
        lower != upper
    });
    let (mut maps, mut plan) = ready(link, &keysyms, false, &[], lending)?;
    let stuck = |plan: &Plan| matches!(plan.strokes.first(), Some((_, Route::Remap(_))));
    if stuck(&plan) {
        // Every keycode to lend carries a keysym this text needs later:
        // lend those again now (they come back when their turn comes).
        (maps, plan) = ready(link, &keysyms, true, &[], lending)?;
    }
    if stuck(&plan) {
        // Every keycode to lend was used within the short hold (by an
        // earlier call): once that has passed, the oldest are free.
        std::thread::sleep(lending.rebind_wait);
        (maps, plan) = ready(link, &keysyms, true, &[], lending)?;
        if stuck(&plan) {
            return Err(InputError::NoSpareKeycode {
                what: format!("typing {}", keysym::describe(keysyms[0])),
            });
        }
    }
    let mut held = Held::new(link);
    let mask = held.release_user_modifiers(&maps, caps_matters)?;
    let mut done = 0;
    let mut typed: Vec<Keycode> = Vec::new();
    loop {
        let mut short = false;
        for &(_, route) in &plan.strokes {
            if let Route::Key(place) = route {
                stroke(&mut held, &maps, route, mask)?;
                typed.push(place.keycode);
                done += 1;
            } else {
                short = true;
                break;
            }
        }
        if !short {
            break;
        }
        // Out of keycodes to lend: those of this call are lent again once
        // the client has read their keys.
        typed.sort_unstable();
        typed.dedup();
        // Out of keycodes: this call's may be lent again once the client
        // has read their keys (a ping answered after them, else after
        // `rebind_wait`).
        barrier::notice(held.link(), lending.rebind_wait, lending.ping_limit)?;
        let (m, p) = ready(held.link(), &keysyms[done..], true, &typed, lending)?;
        if stuck(&p) {
            return Err(InputError::NoSpareKeycode {
                what: format!("typing {}", keysym::describe(keysyms[done])),
            });
        }
        maps = m;
        plan = p;
    }
    held.finish()?;
    received(link, lending)
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

/// Presses and releases one key with the modifiers its level needs
/// (`mask`: the modifier state left after lifting the user's).
fn stroke(held: &mut Held<'_>, maps: &Maps, route: Route, mask: u16) -> Result<(), InputError> {
    let Route::Key(place) = route else {
        return Err(InputError::Worker(
            "a key without a keycode was about to be typed".to_owned(),
        ));
    };
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
