//! CUP keys → DOM key events for `Input.dispatchKeyEvent`: the `key` and
//! `code` values, the Windows virtual key code Chromium needs, the text a
//! key types, and the editing command a shortcut stands for (a key event
//! alone does not select all in Chromium).

use cup_protocol::{Combo, Key, Modifier, NamedKey};

/// One key as `Input.dispatchKeyEvent` wants it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyDef {
    /// DOM `key` (`Enter`, `a`, `A`, `ArrowUp`).
    pub key: String,
    /// DOM `code` (`Enter`, `KeyA`, `Digit1`, `Numpad0`).
    pub code: String,
    /// Windows virtual key code.
    pub vk: i64,
    /// Text it types (none for non-printing keys or with ctrl/alt/meta).
    pub text: Option<String>,
    /// Keypad location (3) or standard (0).
    pub location: i64,
}

/// The CDP modifier mask: alt 1, ctrl 2, meta 4, shift 8.
pub fn modifier_mask(mods: &[Modifier]) -> i64 {
    mods.iter()
        .map(|m| match m {
            Modifier::Alt => 1,
            Modifier::Ctrl => 2,
            Modifier::Meta => 4,
            Modifier::Shift => 8,
        })
        .fold(0, |a, b| a | b)
}

/// The key definition of a modifier itself (pressed alone or held).
pub fn modifier_def(m: Modifier) -> KeyDef {
    let (key, code, vk) = match m {
        Modifier::Alt => ("Alt", "AltLeft", 18),
        Modifier::Ctrl => ("Control", "ControlLeft", 17),
        Modifier::Meta => ("Meta", "MetaLeft", 91),
        Modifier::Shift => ("Shift", "ShiftLeft", 16),
    };
    KeyDef {
        key: key.into(),
        code: code.into(),
        vk,
        text: None,
        location: 1,
    }
}

fn named(k: NamedKey) -> KeyDef {
    use NamedKey as N;
    let def = |key: &str, code: &str, vk: i64, text: Option<&str>| KeyDef {
        key: key.into(),
        code: code.into(),
        vk,
        text: text.map(str::to_owned),
        location: if code.starts_with("Numpad") { 3 } else { 0 },
    };
    match k {
        N::Enter => def("Enter", "Enter", 13, Some("\r")),
        N::Tab => def("Tab", "Tab", 9, None),
        N::Space => def(" ", "Space", 32, Some(" ")),
        N::Backspace => def("Backspace", "Backspace", 8, None),
        N::Delete => def("Delete", "Delete", 46, None),
        N::Escape => def("Escape", "Escape", 27, None),
        N::Insert => def("Insert", "Insert", 45, None),
        N::Home => def("Home", "Home", 36, None),
        N::End => def("End", "End", 35, None),
        N::PageUp => def("PageUp", "PageUp", 33, None),
        N::PageDown => def("PageDown", "PageDown", 34, None),
        N::Up => def("ArrowUp", "ArrowUp", 38, None),
        N::Down => def("ArrowDown", "ArrowDown", 40, None),
        N::Left => def("ArrowLeft", "ArrowLeft", 37, None),
        N::Right => def("ArrowRight", "ArrowRight", 39, None),
        N::Kp0 | N::Kp1 | N::Kp2 | N::Kp3 | N::Kp4 | N::Kp5 | N::Kp6 | N::Kp7 | N::Kp8 | N::Kp9 => {
            let d = k.name().trim_start_matches("kp_").to_owned();
            let n: i64 = d.parse().unwrap_or(0);
            KeyDef {
                key: d.clone(),
                code: format!("Numpad{d}"),
                vk: 96 + n,
                text: Some(d),
                location: 3,
            }
        }
        N::KpEnter => def("Enter", "NumpadEnter", 13, Some("\r")),
        N::KpAdd => def("+", "NumpadAdd", 107, Some("+")),
        N::KpSubtract => def("-", "NumpadSubtract", 109, Some("-")),
        N::KpMultiply => def("*", "NumpadMultiply", 106, Some("*")),
        N::KpDivide => def("/", "NumpadDivide", 111, Some("/")),
        N::KpDecimal => def(".", "NumpadDecimal", 110, Some(".")),
        N::KpEqual => def("=", "NumpadEqual", 187, Some("=")),
        N::Menu => def("ContextMenu", "ContextMenu", 93, None),
        N::CapsLock => def("CapsLock", "CapsLock", 20, None),
        N::NumLock => def("NumLock", "NumLock", 144, None),
        N::ScrollLock => def("ScrollLock", "ScrollLock", 145, None),
        N::Print => def("PrintScreen", "PrintScreen", 44, None),
        N::Pause => def("Pause", "Pause", 19, None),
        N::VolumeUp => def("AudioVolumeUp", "AudioVolumeUp", 175, None),
        N::VolumeDown => def("AudioVolumeDown", "AudioVolumeDown", 174, None),
        N::VolumeMute => def("AudioVolumeMute", "AudioVolumeMute", 173, None),
        N::MediaPlayPause => def("MediaPlayPause", "MediaPlayPause", 179, None),
        N::MediaNext => def("MediaTrackNext", "MediaTrackNext", 176, None),
        N::MediaPrevious => def("MediaTrackPrevious", "MediaTrackPrevious", 177, None),
        N::MediaStop => def("MediaStop", "MediaStop", 178, None),
        N::BrowserBack => def("BrowserBack", "BrowserBack", 166, None),
        N::BrowserForward => def("BrowserForward", "BrowserForward", 167, None),
        N::BrowserRefresh => def("BrowserRefresh", "BrowserRefresh", 168, None),
        N::BrowserHome => def("BrowserHome", "BrowserHome", 172, None),
        N::BrightnessUp => def("BrightnessUp", "BrightnessUp", 0, None),
        N::BrightnessDown => def("BrightnessDown", "BrightnessDown", 0, None),
        N::Sleep => def("Standby", "Sleep", 95, None),
        N::Power => def("Power", "Power", 0, None),
        other => {
            // Function keys.
            let n: i64 = other.name().trim_start_matches('f').parse().unwrap_or(1);
            KeyDef {
                key: format!("F{n}"),
                code: format!("F{n}"),
                vk: 111 + n,
                text: None,
                location: 0,
            }
        }
    }
}

/// US-layout shifted characters and their base key.
const SHIFTED: &[(char, char)] = &[
    ('!', '1'),
    ('@', '2'),
    ('#', '3'),
    ('$', '4'),
    ('%', '5'),
    ('^', '6'),
    ('&', '7'),
    ('*', '8'),
    ('(', '9'),
    (')', '0'),
    ('_', '-'),
    ('+', '='),
    ('{', '['),
    ('}', ']'),
    ('|', '\\'),
    (':', ';'),
    ('"', '\''),
    ('<', ','),
    ('>', '.'),
    ('?', '/'),
    ('~', '`'),
];

fn punctuation(c: char) -> Option<(&'static str, i64)> {
    Some(match c {
        '-' => ("Minus", 189),
        '=' => ("Equal", 187),
        '[' => ("BracketLeft", 219),
        ']' => ("BracketRight", 221),
        '\\' => ("Backslash", 220),
        ';' => ("Semicolon", 186),
        '\'' => ("Quote", 222),
        ',' => ("Comma", 188),
        '.' => ("Period", 190),
        '/' => ("Slash", 191),
        '`' => ("Backquote", 192),
        _ => return None,
    })
}

/// The definition of a character key; `shift` says whether Shift is held
/// (a held Shift types the upper case of a letter).
pub fn char_def(c: char, shift: bool) -> KeyDef {
    let base = SHIFTED.iter().find(|(s, _)| *s == c).map_or(c, |(_, b)| *b);
    let (code, vk) = if base.is_ascii_alphabetic() {
        (
            format!("Key{}", base.to_ascii_uppercase()),
            i64::from(u32::from(base.to_ascii_uppercase())),
        )
    } else if base.is_ascii_digit() {
        (format!("Digit{base}"), i64::from(u32::from(base)))
    } else if base == ' ' {
        ("Space".into(), 32)
    } else if let Some((code, vk)) = punctuation(base) {
        (code.into(), vk)
    } else {
        (String::new(), 0)
    };
    let typed = if shift && c.is_ascii_lowercase() {
        c.to_ascii_uppercase()
    } else {
        c
    };
    KeyDef {
        key: typed.to_string(),
        code,
        vk,
        text: Some(typed.to_string()),
        location: 0,
    }
}

/// The definition of `key` with `mods` held: no text when ctrl, alt or
/// meta is held (a shortcut types nothing).
pub fn key_def(key: &Key, mods: &[Modifier]) -> KeyDef {
    let shift = mods.contains(&Modifier::Shift);
    let mut def = match key {
        Key::Char(c) => char_def(*c, shift),
        Key::Named(n) => named(*n),
    };
    if mods
        .iter()
        .any(|m| matches!(m, Modifier::Ctrl | Modifier::Alt | Modifier::Meta))
    {
        def.text = None;
    }
    def
}

/// The editing command Chromium needs for a shortcut (sent as
/// `commands`), e.g. ctrl+a → `selectAll`.
pub fn editing_command(combo: &Combo) -> Option<&'static str> {
    let ctrl =
        combo.modifiers.contains(&Modifier::Ctrl) || combo.modifiers.contains(&Modifier::Meta);
    let shift = combo.modifiers.contains(&Modifier::Shift);
    if !ctrl || combo.keys.len() != 1 {
        return None;
    }
    Some(match combo.keys.first()? {
        Key::Char('a') => "selectAll",
        Key::Char('c') => "copy",
        Key::Char('x') => "cut",
        Key::Char('v') => "paste",
        Key::Char('z') if shift => "redo",
        Key::Char('z') => "undo",
        Key::Char('y') => "redo",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use cup_protocol::parse_combo;

    use super::*;

    #[test]
    fn characters_named_keys_and_commands() {
        let a = char_def('a', false);
        assert_eq!((a.key.as_str(), a.code.as_str(), a.vk), ("a", "KeyA", 65));
        assert_eq!(char_def('a', true).text.as_deref(), Some("A"));
        let bang = char_def('!', false);
        assert_eq!((bang.code.as_str(), bang.vk), ("Digit1", 49));
        let e = char_def('é', false);
        assert_eq!((e.text.as_deref(), e.vk), (Some("é"), 0));
        let up = key_def(&Key::Named(NamedKey::Up), &[]);
        assert_eq!((up.key.as_str(), up.vk), ("ArrowUp", 38));
        let f24 = key_def(&Key::Named(NamedKey::F24), &[]);
        assert_eq!((f24.key.as_str(), f24.vk), ("F24", 135));
        let kp = key_def(&Key::Named(NamedKey::Kp7), &[]);
        assert_eq!((kp.code.as_str(), kp.vk, kp.location), ("Numpad7", 103, 3));
        let ctrl_a = key_def(&Key::Char('a'), &[Modifier::Ctrl]);
        assert_eq!(ctrl_a.text, None);
        assert_eq!(modifier_mask(&[Modifier::Ctrl, Modifier::Shift]), 10);
        let combo = parse_combo("ctrl+a").expect("combo");
        assert_eq!(editing_command(&combo), Some("selectAll"));
        let combo = parse_combo("ctrl+shift+z").expect("combo");
        assert_eq!(editing_command(&combo), Some("redo"));
        assert_eq!(editing_command(&parse_combo("a").expect("combo")), None);
    }
}
