//! Keys on macOS, decided without the OS: a combo as virtual key codes
//! (`kVK_*`, the ANSI layout's positions) with Core Graphics' modifier
//! flags, typed text as chunks for `CGEventKeyboardSetUnicodeString`, and a
//! menu item's `AXMenuItemCmdChar`/`AXMenuItemCmdModifiers` as a shortcut.

use cup_protocol::keys::{Combo, Key, Modifier, NamedKey};

/// `kCGEventFlagMaskShift`.
pub const FLAG_SHIFT: u64 = 0x0002_0000;
/// `kCGEventFlagMaskControl`.
pub const FLAG_CONTROL: u64 = 0x0004_0000;
/// `kCGEventFlagMaskAlternate` (option).
pub const FLAG_OPTION: u64 = 0x0008_0000;
/// `kCGEventFlagMaskCommand`.
pub const FLAG_COMMAND: u64 = 0x0010_0000;

/// One key event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stroke {
    /// `CGKeyCode`.
    pub code: u16,
    /// Down (else up).
    pub down: bool,
    /// Modifier flags held during it.
    pub flags: u64,
}

/// The strokes of a combo as posted to one process: only the keys that
/// are not modifiers, each carrying the modifiers' flags. A modifier's own
/// key event posted to a process arrives as a stray keyDown with no
/// characters (some views beep); through the HID tap the modifiers' own
/// events are kept (they move the system's modifier state).
pub fn for_process(strokes: &[Stroke]) -> Vec<Stroke> {
    const MODIFIER_CODES: [u16; 9] = [0x37, 0x36, 0x38, 0x3C, 0x3A, 0x3D, 0x3B, 0x3E, 0x3F];
    strokes
        .iter()
        .filter(|s| !MODIFIER_CODES.contains(&s.code))
        .copied()
        .collect()
}

/// The key-ups that release what `sent` (the strokes posted so far) left
/// down, last pressed first: posted when a combo stops part-way (an event
/// that could not be made), so no key — Cmd above all — stays held
/// system-wide.
pub fn release_after(sent: &[Stroke]) -> Vec<Stroke> {
    let mut down: Vec<u16> = Vec::new();
    for s in sent {
        if s.down {
            down.push(s.code);
        } else {
            down.retain(|c| *c != s.code);
        }
    }
    down.iter()
        .rev()
        .map(|&code| Stroke {
            code,
            down: false,
            flags: 0,
        })
        .collect()
}

/// A key cup cannot press.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);

/// The key code of a character on the ANSI layout (`kVK_ANSI_*`), and
/// whether it needs shift (upper-case letters).
pub fn char_code(c: char) -> Option<(u16, bool)> {
    let shifted = c.is_ascii_uppercase();
    let code = match c.to_ascii_lowercase() {
        'a' => 0x00,
        's' => 0x01,
        'd' => 0x02,
        'f' => 0x03,
        'h' => 0x04,
        'g' => 0x05,
        'z' => 0x06,
        'x' => 0x07,
        'c' => 0x08,
        'v' => 0x09,
        'b' => 0x0B,
        'q' => 0x0C,
        'w' => 0x0D,
        'e' => 0x0E,
        'r' => 0x0F,
        'y' => 0x10,
        't' => 0x11,
        '1' => 0x12,
        '2' => 0x13,
        '3' => 0x14,
        '4' => 0x15,
        '6' => 0x16,
        '5' => 0x17,
        '=' => 0x18,
        '9' => 0x19,
        '7' => 0x1A,
        '-' => 0x1B,
        '8' => 0x1C,
        '0' => 0x1D,
        ']' => 0x1E,
        'o' => 0x1F,
        'u' => 0x20,
        '[' => 0x21,
        'i' => 0x22,
        'p' => 0x23,
        'l' => 0x25,
        'j' => 0x26,
        '\'' => 0x27,
        'k' => 0x28,
        ';' => 0x29,
        '\\' => 0x2A,
        ',' => 0x2B,
        '/' => 0x2C,
        'n' => 0x2D,
        'm' => 0x2E,
        '.' => 0x2F,
        '`' => 0x32,
        ' ' => 0x31,
        _ => return None,
    };
    Some((code, shifted))
}

/// The key code of a named key (`kVK_*`).
pub fn named_code(k: NamedKey) -> Option<u16> {
    use NamedKey as N;
    Some(match k {
        N::Enter => 0x24,
        N::Tab => 0x30,
        N::Space => 0x31,
        N::Backspace => 0x33,
        N::Escape => 0x35,
        N::Delete => 0x75,
        N::Insert => 0x72,
        N::Home => 0x73,
        N::End => 0x77,
        N::PageUp => 0x74,
        N::PageDown => 0x79,
        N::Left => 0x7B,
        N::Right => 0x7C,
        N::Down => 0x7D,
        N::Up => 0x7E,
        N::F1 => 0x7A,
        N::F2 => 0x78,
        N::F3 => 0x63,
        N::F4 => 0x76,
        N::F5 => 0x60,
        N::F6 => 0x61,
        N::F7 => 0x62,
        N::F8 => 0x64,
        N::F9 => 0x65,
        N::F10 => 0x6D,
        N::F11 => 0x67,
        N::F12 => 0x6F,
        N::F13 => 0x69,
        N::F14 => 0x6B,
        N::F15 => 0x71,
        N::F16 => 0x6A,
        N::F17 => 0x40,
        N::F18 => 0x4F,
        N::F19 => 0x50,
        N::F20 => 0x5A,
        N::Kp0 => 0x52,
        N::Kp1 => 0x53,
        N::Kp2 => 0x54,
        N::Kp3 => 0x55,
        N::Kp4 => 0x56,
        N::Kp5 => 0x57,
        N::Kp6 => 0x58,
        N::Kp7 => 0x59,
        N::Kp8 => 0x5B,
        N::Kp9 => 0x5C,
        N::KpEnter => 0x4C,
        N::KpAdd => 0x45,
        N::KpSubtract => 0x4E,
        N::KpMultiply => 0x43,
        N::KpDivide => 0x4B,
        N::KpDecimal => 0x41,
        N::KpEqual => 0x51,
        N::CapsLock => 0x39,
        _ => return None,
    })
}

fn modifier(m: Modifier) -> (u16, u64) {
    match m {
        Modifier::Ctrl => (0x3B, FLAG_CONTROL),
        Modifier::Alt => (0x3A, FLAG_OPTION),
        Modifier::Shift => (0x38, FLAG_SHIFT),
        Modifier::Meta => (0x37, FLAG_COMMAND),
    }
}

/// The key events of `combo`: modifiers down in order, each key down and
/// up with the modifiers' flags, modifiers up in reverse.
///
/// # Errors
///
/// A key with no key code on macOS (say which, and that text goes through
/// `type`).
pub fn combo_strokes(combo: &Combo) -> Result<Vec<Stroke>, KeyError> {
    let mut out = Vec::new();
    let mut flags = 0u64;
    for m in &combo.modifiers {
        let (code, flag) = modifier(*m);
        flags |= flag;
        out.push(Stroke {
            code,
            down: true,
            flags,
        });
    }
    for k in &combo.keys {
        let (code, shift) = match k {
            Key::Char(c) => char_code(*c).ok_or_else(|| {
                KeyError(format!(
                    "'{c}' has no key on the ANSI layout; type it with the type action instead"
                ))
            })?,
            Key::Named(n) => (
                named_code(*n).ok_or_else(|| {
                    KeyError(format!(
                        "the {} key does not exist on a Mac keyboard",
                        n.name()
                    ))
                })?,
                false,
            ),
        };
        let f = if shift { flags | FLAG_SHIFT } else { flags };
        out.push(Stroke {
            code,
            down: true,
            flags: f,
        });
        out.push(Stroke {
            code,
            down: false,
            flags: f,
        });
    }
    for m in combo.modifiers.iter().rev() {
        let (code, flag) = modifier(*m);
        flags &= !flag;
        out.push(Stroke {
            code,
            down: false,
            flags,
        });
    }
    Ok(out)
}

/// The CG flags of modifiers held during a pointer gesture.
pub fn flags(mods: &[Modifier]) -> u64 {
    mods.iter().fold(0, |f, m| f | modifier(*m).1)
}

/// `text` as the UTF-16 strings of its key events
/// (`CGEventKeyboardSetUnicodeString`): one character each, a surrogate
/// pair kept whole. Several frameworks read only the first character of
/// an event's string (GPUI/Zed, some AppKit views: a 20-unit chunk came out
/// as its first character), and both peers that run on macOS send one
/// character per event.
pub fn text_chunks(text: &str) -> Vec<Vec<u16>> {
    text.chars()
        .map(|c| {
            let mut buf = [0u16; 2];
            c.encode_utf16(&mut buf).to_vec()
        })
        .collect()
}

/// `kVK_Return`.
pub const KEY_RETURN: u16 = 0x24;
/// `kVK_Tab`.
pub const KEY_TAB: u16 = 0x30;

/// One step of typing text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// UTF-16 units for one key event's `CGEventKeyboardSetUnicodeString`.
    Text(Vec<u16>),
    /// A key pressed and released (Return for a line break, Tab).
    Key(u16),
}

/// `text` as typing steps: line breaks (`\n`, `\r\n`, `\r`) as Return,
/// tabs as Tab, everything else as Unicode chunks ([`text_chunks`]), code
/// point for code point, never normalized.
pub fn typing(text: &str) -> Vec<Typed> {
    let mut out = Vec::new();
    let mut run = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let key = match c {
            '\n' => Some(KEY_RETURN),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                Some(KEY_RETURN)
            }
            '\t' => Some(KEY_TAB),
            _ => None,
        };
        match key {
            Some(k) => {
                out.extend(text_chunks(&run).into_iter().map(Typed::Text));
                run.clear();
                out.push(Typed::Key(k));
            }
            None => run.push(c),
        }
    }
    out.extend(text_chunks(&run).into_iter().map(Typed::Text));
    out
}

/// A menu item's shortcut from `AXMenuItemCmdChar` and
/// `AXMenuItemCmdModifiers` (1 shift, 2 option, 4 control, 8 no command):
/// `cmd+shift+s`.
pub fn shortcut_text(ch: &str, mods: i64) -> String {
    let mut parts: Vec<String> = Vec::new();
    if mods & 4 != 0 {
        parts.push("ctrl".into());
    }
    if mods & 2 != 0 {
        parts.push("alt".into());
    }
    if mods & 1 != 0 {
        parts.push("shift".into());
    }
    if mods & 8 == 0 {
        parts.push("cmd".into());
    }
    parts.push(ch.trim().to_lowercase());
    parts.join("+")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combos_hold_their_modifiers() {
        let c = cup_protocol::keys::parse_combo("cmd+shift+s").expect("combo");
        let s = combo_strokes(&c).expect("strokes");
        let codes: Vec<(u16, bool)> = s.iter().map(|s| (s.code, s.down)).collect();
        assert_eq!(
            codes,
            [
                (0x37, true),
                (0x38, true),
                (0x01, true),
                (0x01, false),
                (0x38, false),
                (0x37, false)
            ]
        );
        assert_eq!(s[2].flags, FLAG_COMMAND | FLAG_SHIFT);
        assert_eq!(s[5].flags, 0);
        let e = cup_protocol::keys::parse_combo("escape").expect("combo");
        assert_eq!(combo_strokes(&e).expect("escape")[0].code, 0x35);
        let f = cup_protocol::keys::parse_combo("f24").expect("combo");
        assert!(combo_strokes(&f).is_err());
    }

    #[test]
    fn text_chunks_keep_surrogate_pairs_whole() {
        let text = "a😀".repeat(8);
        let chunks = text_chunks(&text);
        assert_eq!(chunks.len(), 16, "one character per event");
        assert!(chunks.iter().all(|c| c.len() <= 2));
        for c in &chunks {
            assert!(String::from_utf16(c).is_ok(), "a chunk split a pair");
        }
        let back: String = chunks.iter().map(|c| String::from_utf16_lossy(c)).collect();
        assert_eq!(back, text);
        assert!(text_chunks("").is_empty());
    }

    #[test]
    fn typing_sends_line_breaks_and_tabs_as_keys() {
        let steps = typing("a\r\nb\tc\u{301}\n");
        let utf16 = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
        assert_eq!(
            steps,
            [
                Typed::Text(utf16("a")),
                Typed::Key(KEY_RETURN),
                Typed::Text(utf16("b")),
                Typed::Key(KEY_TAB),
                Typed::Text(utf16("c")),
                Typed::Text(utf16("\u{301}")),
                Typed::Key(KEY_RETURN),
            ]
        );
        assert!(typing("").is_empty());
    }

    #[test]
    fn a_combo_posted_to_a_process_is_its_keys_with_the_flags() {
        let c = cup_protocol::keys::parse_combo("cmd+shift+s").expect("combo");
        let strokes = combo_strokes(&c).expect("strokes");
        let posted = for_process(&strokes);
        assert_eq!(
            posted.iter().map(|s| (s.code, s.down)).collect::<Vec<_>>(),
            vec![(0x01, true), (0x01, false)]
        );
        assert!(posted.iter().all(|s| s.flags == FLAG_COMMAND | FLAG_SHIFT));
        let plain = cup_protocol::keys::parse_combo("escape").expect("combo");
        let plain = combo_strokes(&plain).expect("strokes");
        assert_eq!(for_process(&plain), plain);
    }

    #[test]
    fn keys_left_down_are_released_last_first() {
        let c = cup_protocol::keys::parse_combo("cmd+shift+s").expect("combo");
        let strokes = combo_strokes(&c).expect("strokes");
        // Stopped after cmd and shift went down.
        let up = release_after(&strokes[..2]);
        assert_eq!(
            up.iter().map(|s| (s.code, s.down)).collect::<Vec<_>>(),
            vec![(strokes[1].code, false), (strokes[0].code, false)]
        );
        // The whole combo leaves nothing down.
        assert!(release_after(&strokes).is_empty());
    }

    #[test]
    fn menu_shortcuts() {
        assert_eq!(shortcut_text("S", 0), "cmd+s");
        assert_eq!(shortcut_text("S", 1), "shift+cmd+s");
        assert_eq!(shortcut_text("Q", 2 | 4), "ctrl+alt+cmd+q");
        assert_eq!(shortcut_text("F", 8), "f");
    }
}
