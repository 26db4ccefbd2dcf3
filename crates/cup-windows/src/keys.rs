//! Key combos and text as `SendInput` keyboard events, in plain data: the
//! virtual-key codes, the extended-key flag, and UTF-16 units for
//! `KEYEVENTF_UNICODE` (a character outside the BMP is two events, its
//! surrogate pair, as Windows wants).

use cup_protocol::keys::{Combo, Key, Modifier, NamedKey};

/// One keyboard event of `SendInput`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyEvent {
    /// A virtual key going down or up.
    Vk {
        /// `VK_*` code.
        vk: u16,
        /// `KEYEVENTF_EXTENDEDKEY` (right-hand Ctrl/Alt, arrows, navigation
        /// block, numpad Enter and /, the Windows keys).
        extended: bool,
        /// Released (`KEYEVENTF_KEYUP`).
        up: bool,
    },
    /// A UTF-16 code unit typed (`KEYEVENTF_UNICODE`, `wScan` = unit).
    Unit {
        /// The unit.
        unit: u16,
        /// Released.
        up: bool,
    },
}

/// `VK_*` codes cup uses.
#[allow(missing_docs)]
pub mod vk {
    pub const BACK: u16 = 0x08;
    pub const TAB: u16 = 0x09;
    pub const RETURN: u16 = 0x0D;
    pub const SHIFT: u16 = 0x10;
    pub const CONTROL: u16 = 0x11;
    pub const MENU: u16 = 0x12;
    pub const PAUSE: u16 = 0x13;
    pub const CAPITAL: u16 = 0x14;
    pub const ESCAPE: u16 = 0x1B;
    pub const SPACE: u16 = 0x20;
    pub const PRIOR: u16 = 0x21;
    pub const NEXT: u16 = 0x22;
    pub const END: u16 = 0x23;
    pub const HOME: u16 = 0x24;
    pub const LEFT: u16 = 0x25;
    pub const UP: u16 = 0x26;
    pub const RIGHT: u16 = 0x27;
    pub const DOWN: u16 = 0x28;
    pub const SNAPSHOT: u16 = 0x2C;
    pub const INSERT: u16 = 0x2D;
    pub const DELETE: u16 = 0x2E;
    pub const LWIN: u16 = 0x5B;
    pub const APPS: u16 = 0x5D;
    pub const SLEEP: u16 = 0x5F;
    pub const NUMPAD0: u16 = 0x60;
    pub const MULTIPLY: u16 = 0x6A;
    pub const ADD: u16 = 0x6B;
    pub const SUBTRACT: u16 = 0x6D;
    pub const DECIMAL: u16 = 0x6E;
    pub const DIVIDE: u16 = 0x6F;
    pub const F1: u16 = 0x70;
    pub const NUMLOCK: u16 = 0x90;
    pub const SCROLL: u16 = 0x91;
    pub const OEM_NEC_EQUAL: u16 = 0x92;
    pub const BROWSER_BACK: u16 = 0xA6;
    pub const BROWSER_FORWARD: u16 = 0xA7;
    pub const BROWSER_REFRESH: u16 = 0xA8;
    pub const BROWSER_HOME: u16 = 0xAC;
    pub const VOLUME_MUTE: u16 = 0xAD;
    pub const VOLUME_DOWN: u16 = 0xAE;
    pub const VOLUME_UP: u16 = 0xAF;
    pub const MEDIA_NEXT_TRACK: u16 = 0xB0;
    pub const MEDIA_PREV_TRACK: u16 = 0xB1;
    pub const MEDIA_STOP: u16 = 0xB2;
    pub const MEDIA_PLAY_PAUSE: u16 = 0xB3;
}

/// Why a combo cannot be pressed on Windows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);

fn modifier_vk(m: Modifier) -> (u16, bool) {
    match m {
        Modifier::Ctrl => (vk::CONTROL, false),
        Modifier::Alt => (vk::MENU, false),
        Modifier::Shift => (vk::SHIFT, false),
        Modifier::Meta => (vk::LWIN, true),
    }
}

/// The virtual key of a named key, and whether it is an extended key.
pub fn named_vk(k: NamedKey) -> Option<(u16, bool)> {
    use NamedKey as N;
    let plain = |v: u16| Some((v, false));
    let ext = |v: u16| Some((v, true));
    match k {
        N::Enter => plain(vk::RETURN),
        N::Tab => plain(vk::TAB),
        N::Space => plain(vk::SPACE),
        N::Backspace => plain(vk::BACK),
        N::Delete => ext(vk::DELETE),
        N::Escape => plain(vk::ESCAPE),
        N::Insert => ext(vk::INSERT),
        N::Home => ext(vk::HOME),
        N::End => ext(vk::END),
        N::PageUp => ext(vk::PRIOR),
        N::PageDown => ext(vk::NEXT),
        N::Up => ext(vk::UP),
        N::Down => ext(vk::DOWN),
        N::Left => ext(vk::LEFT),
        N::Right => ext(vk::RIGHT),
        N::F1
        | N::F2
        | N::F3
        | N::F4
        | N::F5
        | N::F6
        | N::F7
        | N::F8
        | N::F9
        | N::F10
        | N::F11
        | N::F12
        | N::F13
        | N::F14
        | N::F15
        | N::F16
        | N::F17
        | N::F18
        | N::F19
        | N::F20
        | N::F21
        | N::F22
        | N::F23
        | N::F24 => {
            let n: u16 = k.name()[1..].parse().ok()?;
            plain(vk::F1 + n - 1)
        }
        N::Kp0 | N::Kp1 | N::Kp2 | N::Kp3 | N::Kp4 | N::Kp5 | N::Kp6 | N::Kp7 | N::Kp8 | N::Kp9 => {
            let n: u16 = k.name()[3..].parse().ok()?;
            plain(vk::NUMPAD0 + n)
        }
        N::KpEnter => ext(vk::RETURN),
        N::KpAdd => plain(vk::ADD),
        N::KpSubtract => plain(vk::SUBTRACT),
        N::KpMultiply => plain(vk::MULTIPLY),
        N::KpDivide => ext(vk::DIVIDE),
        N::KpDecimal => plain(vk::DECIMAL),
        N::KpEqual => plain(vk::OEM_NEC_EQUAL),
        N::Menu => ext(vk::APPS),
        N::CapsLock => plain(vk::CAPITAL),
        N::NumLock => ext(vk::NUMLOCK),
        N::ScrollLock => plain(vk::SCROLL),
        N::Print => ext(vk::SNAPSHOT),
        N::Pause => plain(vk::PAUSE),
        N::VolumeUp => ext(vk::VOLUME_UP),
        N::VolumeDown => ext(vk::VOLUME_DOWN),
        N::VolumeMute => ext(vk::VOLUME_MUTE),
        N::MediaPlayPause => ext(vk::MEDIA_PLAY_PAUSE),
        N::MediaNext => ext(vk::MEDIA_NEXT_TRACK),
        N::MediaPrevious => ext(vk::MEDIA_PREV_TRACK),
        N::MediaStop => ext(vk::MEDIA_STOP),
        N::BrowserBack => ext(vk::BROWSER_BACK),
        N::BrowserForward => ext(vk::BROWSER_FORWARD),
        N::BrowserRefresh => ext(vk::BROWSER_REFRESH),
        N::BrowserHome => ext(vk::BROWSER_HOME),
        N::Sleep => ext(vk::SLEEP),
        // No virtual key on Windows (the hardware handles them).
        N::BrightnessUp | N::BrightnessDown | N::Power => None,
    }
}

/// The virtual key of a character key in a combo: letters and digits
/// are their own VK codes (`ctrl+a` is VK 'A' with Ctrl whatever the
/// layout types); other characters need the layout (`VkKeyScanW`), which
/// `layout` answers as `(vk, shift_state)`.
pub fn char_vk(c: char, layout: &dyn Fn(char) -> Option<(u16, u8)>) -> Option<(u16, u8)> {
    if c.is_ascii_alphabetic() {
        return Some((c.to_ascii_uppercase() as u16, 0));
    }
    if c.is_ascii_digit() {
        return Some((c as u16, 0));
    }
    layout(c)
}

fn down(vk: u16, extended: bool) -> KeyEvent {
    KeyEvent::Vk {
        vk,
        extended,
        up: false,
    }
}

fn up(vk: u16, extended: bool) -> KeyEvent {
    KeyEvent::Vk {
        vk,
        extended,
        up: true,
    }
}

/// The events of `combo`: modifiers down in order, each key down and up,
/// modifiers up in reverse. A character the layout types only with Shift
/// (`ctrl+plus` on a US layout) gets Shift too, unless already held.
pub fn combo_events(
    combo: &Combo,
    layout: &dyn Fn(char) -> Option<(u16, u8)>,
) -> Result<Vec<KeyEvent>, KeyError> {
    let mut mods: Vec<(u16, bool)> = combo.modifiers.iter().map(|m| modifier_vk(*m)).collect();
    let mut keys: Vec<(u16, bool)> = Vec::new();
    for k in &combo.keys {
        let (v, ext) = match k {
            Key::Named(n) => named_vk(*n).ok_or_else(|| {
                KeyError(format!(
                    "the key '{}' has no virtual key on Windows; press another key",
                    n.name()
                ))
            })?,
            Key::Char(c) => {
                let (v, shift) = char_vk(*c, layout).ok_or_else(|| {
                    KeyError(format!(
                        "no key of this keyboard layout types '{c}'; use type_text for text, or name the key"
                    ))
                })?;
                let extra = [(1, vk::SHIFT), (2, vk::CONTROL), (4, vk::MENU)];
                for (bit, m) in extra {
                    if shift & bit != 0 && !mods.iter().any(|(x, _)| *x == m) {
                        mods.push((m, false));
                    }
                }
                (v, false)
            }
        };
        keys.push((v, ext));
    }
    let mut out: Vec<KeyEvent> = mods.iter().map(|(v, e)| down(*v, *e)).collect();
    for (v, e) in &keys {
        out.push(down(*v, *e));
        out.push(up(*v, *e));
    }
    out.extend(mods.iter().rev().map(|(v, e)| up(*v, *e)));
    Ok(out)
}

/// The events that type `text` exactly, whatever the layout and Caps
/// Lock: every character as its UTF-16 units (`KEYEVENTF_UNICODE`);
/// newline (`\n`, `\r\n`, `\r`) as Enter and tab as Tab, which apps read
/// as keys, not characters.
pub fn text_events(text: &str) -> Vec<KeyEvent> {
    let mut out = Vec::with_capacity(text.len() * 2);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.extend([down(vk::RETURN, false), up(vk::RETURN, false)]);
            }
            '\n' => out.extend([down(vk::RETURN, false), up(vk::RETURN, false)]),
            '\t' => out.extend([down(vk::TAB, false), up(vk::TAB, false)]),
            c => {
                let mut buf = [0_u16; 2];
                let units = c.encode_utf16(&mut buf);
                // Down of each unit, then their ups: a surrogate pair is
                // delivered as one WM_CHAR pair.
                for u in units.iter() {
                    out.push(KeyEvent::Unit {
                        unit: *u,
                        up: false,
                    });
                }
                for u in units.iter() {
                    out.push(KeyEvent::Unit { unit: *u, up: true });
                }
            }
        }
    }
    out
}

/// Splits `events` into the batches of one `SendInput` call each, at most
/// `max` events and never between the down of a character's units and
/// their ups (a split pair would arrive as two broken halves).
pub fn batches(events: &[KeyEvent], max: usize) -> Vec<&[KeyEvent]> {
    let max = max.max(4);
    let mut out = Vec::new();
    let mut start = 0;
    while start < events.len() {
        let mut end = (start + max).min(events.len());
        // Do not end inside a character: the batch must end after an up
        // whose next event is not an up of the same character.
        while end < events.len() && end > start + 1 {
            let prev_up = matches!(
                events[end - 1],
                KeyEvent::Unit { up: true, .. } | KeyEvent::Vk { up: true, .. }
            );
            let next_up = matches!(events[end], KeyEvent::Unit { up: true, .. });
            if prev_up && !next_up {
                break;
            }
            end -= 1;
        }
        out.push(&events[start..end]);
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::keys::parse_combo;

    fn us(c: char) -> Option<(u16, u8)> {
        match c {
            '+' => Some((0xBB, 1)),
            '=' => Some((0xBB, 0)),
            '/' => Some((0xBF, 0)),
            _ => None,
        }
    }

    fn vks(events: &[KeyEvent]) -> Vec<(u16, bool, bool)> {
        events
            .iter()
            .map(|e| match e {
                KeyEvent::Vk { vk, extended, up } => (*vk, *extended, *up),
                KeyEvent::Unit { .. } => panic!("a unit in a combo"),
            })
            .collect()
    }

    #[test]
    fn combos_hold_modifiers_around_their_keys() {
        let c = parse_combo("ctrl+shift+s").expect("combo");
        assert_eq!(
            vks(&combo_events(&c, &us).expect("events")),
            vec![
                (vk::CONTROL, false, false),
                (vk::SHIFT, false, false),
                (b'S' as u16, false, false),
                (b'S' as u16, false, true),
                (vk::SHIFT, false, true),
                (vk::CONTROL, false, true),
            ]
        );
    }

    #[test]
    fn navigation_keys_and_the_windows_key_are_extended() {
        let c = parse_combo("meta+left").expect("combo");
        let e = vks(&combo_events(&c, &us).expect("events"));
        assert_eq!(e[0], (vk::LWIN, true, false));
        assert_eq!(e[1], (vk::LEFT, true, false));
        let c = parse_combo("delete").expect("combo");
        assert_eq!(
            vks(&combo_events(&c, &us).expect("events"))[0],
            (vk::DELETE, true, false)
        );
        let c = parse_combo("f5").expect("combo");
        assert_eq!(
            vks(&combo_events(&c, &us).expect("events"))[0],
            (0x74, false, false)
        );
        let c = parse_combo("kp_7").expect("combo");
        assert_eq!(
            vks(&combo_events(&c, &us).expect("events"))[0],
            (0x67, false, false)
        );
    }

    #[test]
    fn a_shifted_character_gets_shift_from_the_layout() {
        let c = parse_combo("ctrl+plus").expect("combo");
        let e = vks(&combo_events(&c, &us).expect("events"));
        assert_eq!(e[0], (vk::CONTROL, false, false));
        assert_eq!(e[1], (vk::SHIFT, false, false));
        assert_eq!(e[2], (0xBB, false, false));
        assert_eq!(e.last(), Some(&(vk::CONTROL, false, true)));
    }

    #[test]
    fn a_character_off_the_layout_is_refused_with_advice() {
        let c = parse_combo("ctrl+é").expect("combo");
        let e = combo_events(&c, &us).expect_err("no key types é here");
        assert!(e.0.contains("type_text"), "{e}");
        let c = parse_combo("brightness_up").expect("combo");
        assert!(combo_events(&c, &us).is_err());
    }

    #[test]
    fn text_is_utf16_units_with_surrogate_pairs_and_keys_for_newline_and_tab() {
        let e = text_events("é😀\r\nx\t");
        let unit = |u: u16, up: bool| KeyEvent::Unit { unit: u, up };
        assert_eq!(
            e,
            vec![
                unit(0xE9, false),
                unit(0xE9, true),
                unit(0xD83D, false),
                unit(0xDE00, false),
                unit(0xD83D, true),
                unit(0xDE00, true),
                KeyEvent::Vk {
                    vk: vk::RETURN,
                    extended: false,
                    up: false
                },
                KeyEvent::Vk {
                    vk: vk::RETURN,
                    extended: false,
                    up: true
                },
                unit(u16::from(b'x'), false),
                unit(u16::from(b'x'), true),
                KeyEvent::Vk {
                    vk: vk::TAB,
                    extended: false,
                    up: false
                },
                KeyEvent::Vk {
                    vk: vk::TAB,
                    extended: false,
                    up: true
                },
            ]
        );
    }

    #[test]
    fn batches_never_split_a_character() {
        let text = "a😀b👩‍👩‍👧c".repeat(40);
        let events = text_events(&text);
        for max in [4, 5, 7, 64] {
            let parts = batches(&events, max);
            assert_eq!(parts.iter().map(|p| p.len()).sum::<usize>(), events.len());
            for p in &parts {
                assert!(p.len() <= max.max(4), "{max}: {}", p.len());
                let downs = p
                    .iter()
                    .filter(|e| matches!(e, KeyEvent::Unit { up: false, .. }))
                    .count();
                let ups = p
                    .iter()
                    .filter(|e| matches!(e, KeyEvent::Unit { up: true, .. }))
                    .count();
                assert_eq!(downs, ups, "{max}: a batch ends inside a character");
            }
        }
    }
}
