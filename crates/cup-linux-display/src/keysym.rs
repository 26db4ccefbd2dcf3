//! X11 keysyms (pure): the keysym of a character, of every
//! [`NamedKey`], of the modifiers, and the inverse for character keysyms.
//!
//! A character's keysym: printable Latin-1 (U+0020–U+007E, U+00A0–U+00FF)
//! is its code point; everything else is `0x0100_0000 + code point` (the
//! Unicode keysyms every X client understands). The few legacy keysyms a
//! common keymap holds for a character (`EuroSign`) are alternatives, so the
//! keymap lookup finds them without a remap.

use cup_protocol::{Modifier, NamedKey};

/// An X11 keysym.
pub type Keysym = u32;

/// `NoSymbol`: an empty slot of the keymap.
pub const NO_SYMBOL: Keysym = 0;

/// Keysyms by their X11 names (`keysymdef.h`, `XF86keysym.h`).
#[allow(missing_docs)]
pub mod xk {
    use super::Keysym;

    pub const BACKSPACE: Keysym = 0xff08;
    pub const TAB: Keysym = 0xff09;
    pub const RETURN: Keysym = 0xff0d;
    pub const PAUSE: Keysym = 0xff13;
    pub const SCROLL_LOCK: Keysym = 0xff14;
    pub const ESCAPE: Keysym = 0xff1b;
    pub const HOME: Keysym = 0xff50;
    pub const LEFT: Keysym = 0xff51;
    pub const UP: Keysym = 0xff52;
    pub const RIGHT: Keysym = 0xff53;
    pub const DOWN: Keysym = 0xff54;
    pub const PRIOR: Keysym = 0xff55;
    pub const NEXT: Keysym = 0xff56;
    pub const END: Keysym = 0xff57;
    pub const PRINT: Keysym = 0xff61;
    pub const INSERT: Keysym = 0xff63;
    pub const MENU: Keysym = 0xff67;
    pub const MODE_SWITCH: Keysym = 0xff7e;
    pub const NUM_LOCK: Keysym = 0xff7f;
    pub const KP_ENTER: Keysym = 0xff8d;
    pub const KP_MULTIPLY: Keysym = 0xffaa;
    pub const KP_ADD: Keysym = 0xffab;
    pub const KP_SUBTRACT: Keysym = 0xffad;
    pub const KP_DECIMAL: Keysym = 0xffae;
    pub const KP_DIVIDE: Keysym = 0xffaf;
    pub const KP_0: Keysym = 0xffb0;
    pub const KP_EQUAL: Keysym = 0xffbd;
    pub const F1: Keysym = 0xffbe;
    pub const SHIFT_L: Keysym = 0xffe1;
    pub const SHIFT_R: Keysym = 0xffe2;
    pub const CONTROL_L: Keysym = 0xffe3;
    pub const CONTROL_R: Keysym = 0xffe4;
    pub const CAPS_LOCK: Keysym = 0xffe5;
    pub const SHIFT_LOCK: Keysym = 0xffe6;
    pub const META_L: Keysym = 0xffe7;
    pub const ALT_L: Keysym = 0xffe9;
    pub const ALT_R: Keysym = 0xffea;
    pub const SUPER_L: Keysym = 0xffeb;
    pub const SUPER_R: Keysym = 0xffec;
    pub const DELETE: Keysym = 0xffff;
    pub const ISO_LEVEL3_SHIFT: Keysym = 0xfe03;
    pub const EURO_SIGN: Keysym = 0x20ac;
    pub const SPACE: Keysym = 0x20;

    pub const XF86_MON_BRIGHTNESS_UP: Keysym = 0x1008_ff02;
    pub const XF86_MON_BRIGHTNESS_DOWN: Keysym = 0x1008_ff03;
    pub const XF86_AUDIO_LOWER_VOLUME: Keysym = 0x1008_ff11;
    pub const XF86_AUDIO_MUTE: Keysym = 0x1008_ff12;
    pub const XF86_AUDIO_RAISE_VOLUME: Keysym = 0x1008_ff13;
    pub const XF86_AUDIO_PLAY: Keysym = 0x1008_ff14;
    pub const XF86_AUDIO_STOP: Keysym = 0x1008_ff15;
    pub const XF86_AUDIO_PREV: Keysym = 0x1008_ff16;
    pub const XF86_AUDIO_NEXT: Keysym = 0x1008_ff17;
    pub const XF86_HOME_PAGE: Keysym = 0x1008_ff18;
    pub const XF86_BACK: Keysym = 0x1008_ff26;
    pub const XF86_FORWARD: Keysym = 0x1008_ff27;
    pub const XF86_POWER_OFF: Keysym = 0x1008_ff2a;
    pub const XF86_SLEEP: Keysym = 0x1008_ff2f;
    pub const XF86_RELOAD: Keysym = 0x1008_ff73;
}

/// Offset of the Unicode keysyms.
const UNICODE_OFFSET: u32 = 0x0100_0000;

/// The keysym that types `c`: Latin-1 printables directly, everything else
/// as a Unicode keysym. Control characters get the keysym of the key that
/// produces them (`\n` and `\r` Return, `\t` Tab, backspace, escape,
/// delete); other control characters have none.
pub fn char_keysym(c: char) -> Option<Keysym> {
    let cp = u32::from(c);
    Some(match c {
        '\n' | '\r' => xk::RETURN,
        '\t' => xk::TAB,
        '\u{8}' => xk::BACKSPACE,
        '\u{1b}' => xk::ESCAPE,
        '\u{7f}' => xk::DELETE,
        c if c.is_control() => return None,
        _ if (0x20..=0x7e).contains(&cp) || (0xa0..=0xff).contains(&cp) => cp,
        _ => UNICODE_OFFSET + cp,
    })
}

/// Other keysyms a keymap may hold for the character of `keysym` (legacy
/// keysyms of a Unicode character, and the reverse).
pub fn alternatives(keysym: Keysym) -> &'static [Keysym] {
    const EURO_UNICODE: Keysym = UNICODE_OFFSET + 0x20ac;
    match keysym {
        EURO_UNICODE => &[xk::EURO_SIGN],
        xk::EURO_SIGN => &[EURO_UNICODE],
        _ => &[],
    }
}

/// The character a character keysym types (Latin-1 and Unicode keysyms).
pub fn keysym_char(keysym: Keysym) -> Option<char> {
    match keysym {
        0x20..=0x7e | 0xa0..=0xff => char::from_u32(keysym),
        xk::EURO_SIGN => Some('€'),
        k if k > UNICODE_OFFSET && k <= UNICODE_OFFSET + 0x10_ffff => {
            char::from_u32(k - UNICODE_OFFSET)
        }
        _ => None,
    }
}

/// The lowercase and uppercase forms of a character keysym, as the core
/// protocol uses them to fill an empty second level; `(k, k)` for keysyms
/// without case.
pub fn keysym_case(keysym: Keysym) -> (Keysym, Keysym) {
    let Some(c) = keysym_char(keysym) else {
        return (keysym, keysym);
    };
    fn single(mut chars: impl Iterator<Item = char>) -> Option<char> {
        let first = chars.next()?;
        chars.next().is_none().then_some(first)
    }
    let lower = single(c.to_lowercase())
        .and_then(char_keysym)
        .unwrap_or(keysym);
    let upper = single(c.to_uppercase())
        .and_then(char_keysym)
        .unwrap_or(keysym);
    (lower, upper)
}

/// Whether `keysym` belongs to the keypad (`KP_Space` … `KP_Equal`), whose
/// second level Num Lock selects.
pub fn is_keypad(keysym: Keysym) -> bool {
    (0xff80..=0xffbd).contains(&keysym)
}

/// Lock keys: pressing one toggles a state, so they are never re-pressed.
pub fn is_lock(keysym: Keysym) -> bool {
    matches!(
        keysym,
        xk::CAPS_LOCK | xk::SHIFT_LOCK | xk::NUM_LOCK | xk::SCROLL_LOCK
    )
}

/// The keysym of a named key (the XF86 keysyms for media, browser and
/// system keys).
pub fn named_keysym(key: NamedKey) -> Keysym {
    use NamedKey as K;
    match key {
        K::Enter => xk::RETURN,
        K::Tab => xk::TAB,
        K::Space => xk::SPACE,
        K::Backspace => xk::BACKSPACE,
        K::Delete => xk::DELETE,
        K::Escape => xk::ESCAPE,
        K::Insert => xk::INSERT,
        K::Home => xk::HOME,
        K::End => xk::END,
        K::PageUp => xk::PRIOR,
        K::PageDown => xk::NEXT,
        K::Up => xk::UP,
        K::Down => xk::DOWN,
        K::Left => xk::LEFT,
        K::Right => xk::RIGHT,
        K::F1 => xk::F1,
        K::F2 => xk::F1 + 1,
        K::F3 => xk::F1 + 2,
        K::F4 => xk::F1 + 3,
        K::F5 => xk::F1 + 4,
        K::F6 => xk::F1 + 5,
        K::F7 => xk::F1 + 6,
        K::F8 => xk::F1 + 7,
        K::F9 => xk::F1 + 8,
        K::F10 => xk::F1 + 9,
        K::F11 => xk::F1 + 10,
        K::F12 => xk::F1 + 11,
        K::F13 => xk::F1 + 12,
        K::F14 => xk::F1 + 13,
        K::F15 => xk::F1 + 14,
        K::F16 => xk::F1 + 15,
        K::F17 => xk::F1 + 16,
        K::F18 => xk::F1 + 17,
        K::F19 => xk::F1 + 18,
        K::F20 => xk::F1 + 19,
        K::F21 => xk::F1 + 20,
        K::F22 => xk::F1 + 21,
        K::F23 => xk::F1 + 22,
        K::F24 => xk::F1 + 23,
        K::Kp0 => xk::KP_0,
        K::Kp1 => xk::KP_0 + 1,
        K::Kp2 => xk::KP_0 + 2,
        K::Kp3 => xk::KP_0 + 3,
        K::Kp4 => xk::KP_0 + 4,
        K::Kp5 => xk::KP_0 + 5,
        K::Kp6 => xk::KP_0 + 6,
        K::Kp7 => xk::KP_0 + 7,
        K::Kp8 => xk::KP_0 + 8,
        K::Kp9 => xk::KP_0 + 9,
        K::KpEnter => xk::KP_ENTER,
        K::KpAdd => xk::KP_ADD,
        K::KpSubtract => xk::KP_SUBTRACT,
        K::KpMultiply => xk::KP_MULTIPLY,
        K::KpDivide => xk::KP_DIVIDE,
        K::KpDecimal => xk::KP_DECIMAL,
        K::KpEqual => xk::KP_EQUAL,
        K::Menu => xk::MENU,
        K::CapsLock => xk::CAPS_LOCK,
        K::NumLock => xk::NUM_LOCK,
        K::ScrollLock => xk::SCROLL_LOCK,
        K::Print => xk::PRINT,
        K::Pause => xk::PAUSE,
        K::VolumeUp => xk::XF86_AUDIO_RAISE_VOLUME,
        K::VolumeDown => xk::XF86_AUDIO_LOWER_VOLUME,
        K::VolumeMute => xk::XF86_AUDIO_MUTE,
        K::MediaPlayPause => xk::XF86_AUDIO_PLAY,
        K::MediaNext => xk::XF86_AUDIO_NEXT,
        K::MediaPrevious => xk::XF86_AUDIO_PREV,
        K::MediaStop => xk::XF86_AUDIO_STOP,
        K::BrowserBack => xk::XF86_BACK,
        K::BrowserForward => xk::XF86_FORWARD,
        K::BrowserRefresh => xk::XF86_RELOAD,
        K::BrowserHome => xk::XF86_HOME_PAGE,
        K::BrightnessUp => xk::XF86_MON_BRIGHTNESS_UP,
        K::BrightnessDown => xk::XF86_MON_BRIGHTNESS_DOWN,
        K::Sleep => xk::XF86_SLEEP,
        K::Power => xk::XF86_POWER_OFF,
    }
}

/// The keysyms of a modifier's keys, the preferred (left) one first.
pub fn modifier_keysyms(modifier: Modifier) -> &'static [Keysym] {
    match modifier {
        Modifier::Ctrl => &[xk::CONTROL_L, xk::CONTROL_R],
        Modifier::Alt => &[xk::ALT_L, xk::ALT_R, xk::META_L],
        Modifier::Shift => &[xk::SHIFT_L, xk::SHIFT_R],
        Modifier::Meta => &[xk::SUPER_L, xk::SUPER_R],
    }
}

/// A readable name of a keysym for messages: `U+65E5 '日'`, `0xff0d`.
pub fn describe(keysym: Keysym) -> String {
    match keysym_char(keysym) {
        Some(c) => format!("U+{:04X} {c:?}", u32::from(c)),
        None => format!("keysym {keysym:#x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_is_direct_and_the_rest_unicode() {
        assert_eq!(char_keysym('a'), Some(0x61));
        assert_eq!(char_keysym('A'), Some(0x41));
        assert_eq!(char_keysym(' '), Some(0x20));
        assert_eq!(char_keysym('~'), Some(0x7e));
        assert_eq!(char_keysym('\u{a0}'), Some(0xa0));
        assert_eq!(char_keysym('é'), Some(0xe9));
        assert_eq!(char_keysym('ÿ'), Some(0xff));
        assert_eq!(char_keysym('Ā'), Some(0x0100_0100));
        assert_eq!(char_keysym('✓'), Some(0x0100_2713));
        assert_eq!(char_keysym('日'), Some(0x0100_65e5));
        assert_eq!(char_keysym('😀'), Some(0x0101_f600));
        assert_eq!(char_keysym('€'), Some(0x0100_20ac));
    }

    #[test]
    fn control_characters() {
        assert_eq!(char_keysym('\n'), Some(xk::RETURN));
        assert_eq!(char_keysym('\r'), Some(xk::RETURN));
        assert_eq!(char_keysym('\t'), Some(xk::TAB));
        assert_eq!(char_keysym('\u{8}'), Some(xk::BACKSPACE));
        assert_eq!(char_keysym('\u{1b}'), Some(xk::ESCAPE));
        assert_eq!(char_keysym('\u{7f}'), Some(xk::DELETE));
        assert_eq!(char_keysym('\u{1}'), None);
        assert_eq!(char_keysym('\u{85}'), None);
    }

    #[test]
    fn keysym_char_inverts_char_keysym() {
        for c in ['a', 'Z', ' ', 'é', 'ÿ', '\u{a0}', 'Ā', '✓', '日', '😀'] {
            let k = char_keysym(c).unwrap_or_else(|| panic!("{c:?}"));
            assert_eq!(keysym_char(k), Some(c));
        }
        assert_eq!(keysym_char(xk::RETURN), None);
        assert_eq!(keysym_char(xk::EURO_SIGN), Some('€'));
        assert_eq!(keysym_char(0x0100_0000), None);
        assert_eq!(keysym_char(0x0111_0000), None);
    }

    #[test]
    fn case_pairs() {
        assert_eq!(keysym_case(0x61), (0x61, 0x41));
        assert_eq!(keysym_case(0x41), (0x61, 0x41));
        assert_eq!(keysym_case(0xe9), (0xe9, 0xc9));
        assert_eq!(keysym_case(0x0100_0101), (0x0100_0101, 0x0100_0100));
        assert_eq!(keysym_case(0x31), (0x31, 0x31));
        assert_eq!(keysym_case(xk::RETURN), (xk::RETURN, xk::RETURN));
        // ß uppercases to "SS": no single uppercase keysym.
        assert_eq!(keysym_case(0xdf), (0xdf, 0xdf));
        // ÿ uppercases to Ÿ, outside Latin-1: a Unicode keysym.
        assert_eq!(keysym_case(0xff), (0xff, 0x0100_0178));
    }

    #[test]
    fn every_named_key_has_a_distinct_keysym() {
        let mut seen = std::collections::HashMap::new();
        for &key in NamedKey::ALL {
            let k = named_keysym(key);
            assert_ne!(k, NO_SYMBOL, "{key}");
            if let Some(other) = seen.insert(k, key) {
                panic!("{key} and {other} share keysym {k:#x}");
            }
        }
        assert_eq!(named_keysym(NamedKey::F24), 0xffd5);
        assert_eq!(named_keysym(NamedKey::Kp9), 0xffb9);
        assert_eq!(named_keysym(NamedKey::VolumeUp), 0x1008_ff13);
        assert_eq!(named_keysym(NamedKey::Power), 0x1008_ff2a);
        assert!(is_keypad(named_keysym(NamedKey::KpEnter)));
        assert!(is_keypad(named_keysym(NamedKey::KpEqual)));
        assert!(!is_keypad(named_keysym(NamedKey::Enter)));
    }

    #[test]
    fn modifiers_prefer_the_left_key() {
        assert_eq!(modifier_keysyms(Modifier::Ctrl)[0], xk::CONTROL_L);
        assert_eq!(modifier_keysyms(Modifier::Alt)[0], xk::ALT_L);
        assert_eq!(modifier_keysyms(Modifier::Shift)[0], xk::SHIFT_L);
        assert_eq!(modifier_keysyms(Modifier::Meta)[0], xk::SUPER_L);
    }

    #[test]
    fn alternatives_and_descriptions() {
        assert_eq!(alternatives(0x0100_20ac), &[xk::EURO_SIGN]);
        assert_eq!(alternatives(xk::EURO_SIGN), &[0x0100_20ac]);
        assert!(alternatives(0x61).is_empty());
        assert_eq!(describe(0x0100_65e5), "U+65E5 '日'");
        assert_eq!(describe(xk::RETURN), "keysym 0xff0d");
    }
}
