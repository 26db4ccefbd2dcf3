//! Key-combo parsing: `"ctrl+shift+p"`, `"cmd+c"`, `"alt+f4"`, `"ctrl+plus"`
//! into a [`Combo`] of modifiers and keys, with a canonical text form.
//!
//! Syntax: tokens separated by `+`, whitespace around tokens ignored, names
//! case-insensitive (`_`, `-` and spaces inside names are ignored too, so
//! `page_up`, `Page-Up` and `PageUp` are the same key). A token is a
//! modifier, a key name or alias, or a single character. A `+` where a key
//! is expected is the plus key itself: `+`, `ctrl++`.
//!
//! Deviations from the reference SDKs:
//!
//! * `ctrl++s` is ctrl with the keys `+` and `s`; the reference SDKs drop
//!   the `+` and read `ctrl+s`;
//! * `control` is the ctrl modifier; the reference SDKs treat it as a key;
//! * a trailing separator (`ctrl+`) is an error instead of being ignored;
//! * an unknown multi-character key name is an error instead of being
//!   passed through to the platform.

use std::fmt;
use std::str::FromStr;

use unicode_normalization::UnicodeNormalization;

/// A modifier key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Modifier {
    /// Control (`ctrl`, `control`).
    Ctrl,
    /// Alt / Option (`alt`, `option`, `opt`).
    Alt,
    /// Shift.
    Shift,
    /// Meta / Command / Super / Windows (`meta`, `cmd`, `command`, `super`,
    /// `win`, `windows`).
    Meta,
}

impl Modifier {
    /// Every modifier.
    pub const ALL: [Modifier; 4] = [
        Modifier::Ctrl,
        Modifier::Alt,
        Modifier::Shift,
        Modifier::Meta,
    ];

    /// Canonical name.
    pub const fn name(self) -> &'static str {
        match self {
            Modifier::Ctrl => "ctrl",
            Modifier::Alt => "alt",
            Modifier::Shift => "shift",
            Modifier::Meta => "meta",
        }
    }

    /// The modifier called `name` or one of its aliases (`control`, `cmd`,
    /// `win`, `option`, ...), in any case.
    pub fn from_name(name: &str) -> Option<Self> {
        let folded: String = name
            .trim()
            .chars()
            .filter(|c| !matches!(c, '_' | '-' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        Self::from_folded(&folded)
    }

    /// Looks up a modifier name or alias in folded form (lowercase, without
    /// `_`, `-` or spaces).
    fn from_folded(word: &str) -> Option<Self> {
        Some(match word {
            "ctrl" | "control" => Modifier::Ctrl,
            "alt" | "option" | "opt" => Modifier::Alt,
            "shift" => Modifier::Shift,
            "meta" | "cmd" | "command" | "super" | "win" | "windows" => Modifier::Meta,
            _ => return None,
        })
    }
}

impl fmt::Display for Modifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! named_keys {
    ( $( $variant:ident = $name:literal ),+ $(,)? ) => {
        /// A non-character key, with a canonical snake_case name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum NamedKey {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )+
        }

        impl NamedKey {
            /// Every named key.
            pub const ALL: &'static [NamedKey] = &[$(NamedKey::$variant),+];

            /// Canonical snake_case name.
            pub const fn name(self) -> &'static str {
                match self { $(NamedKey::$variant => $name),+ }
            }
        }
    };
}

named_keys! {
    Enter = "enter", Tab = "tab", Space = "space", Backspace = "backspace",
    Delete = "delete", Escape = "escape", Insert = "insert",
    Home = "home", End = "end", PageUp = "pageup", PageDown = "pagedown",
    Up = "up", Down = "down", Left = "left", Right = "right",
    F1 = "f1", F2 = "f2", F3 = "f3", F4 = "f4", F5 = "f5", F6 = "f6",
    F7 = "f7", F8 = "f8", F9 = "f9", F10 = "f10", F11 = "f11", F12 = "f12",
    F13 = "f13", F14 = "f14", F15 = "f15", F16 = "f16", F17 = "f17", F18 = "f18",
    F19 = "f19", F20 = "f20", F21 = "f21", F22 = "f22", F23 = "f23", F24 = "f24",
    Kp0 = "kp_0", Kp1 = "kp_1", Kp2 = "kp_2", Kp3 = "kp_3", Kp4 = "kp_4",
    Kp5 = "kp_5", Kp6 = "kp_6", Kp7 = "kp_7", Kp8 = "kp_8", Kp9 = "kp_9",
    KpEnter = "kp_enter", KpAdd = "kp_add", KpSubtract = "kp_subtract",
    KpMultiply = "kp_multiply", KpDivide = "kp_divide", KpDecimal = "kp_decimal",
    KpEqual = "kp_equal",
    Menu = "menu", CapsLock = "caps_lock", NumLock = "num_lock", ScrollLock = "scroll_lock",
    Print = "print", Pause = "pause",
    VolumeUp = "volume_up", VolumeDown = "volume_down", VolumeMute = "volume_mute",
    MediaPlayPause = "media_play_pause", MediaNext = "media_next",
    MediaPrevious = "media_previous", MediaStop = "media_stop",
    BrowserBack = "browser_back", BrowserForward = "browser_forward",
    BrowserRefresh = "browser_refresh", BrowserHome = "browser_home",
    BrightnessUp = "brightness_up", BrightnessDown = "brightness_down",
    Sleep = "sleep", Power = "power",
}

impl NamedKey {
    /// Looks up a canonical name in folded form (lowercase, without `_`,
    /// `-` or spaces): `kpadd`, `capslock`.
    fn from_folded(word: &str) -> Option<Self> {
        NamedKey::ALL
            .iter()
            .copied()
            .find(|k| k.name().chars().filter(|&c| c != '_').eq(word.chars()))
    }
}

impl fmt::Display for NamedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A non-modifier key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// A key that types one character; ASCII letters are stored lowercase.
    Char(char),
    /// A named key.
    Named(NamedKey),
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Char('+') => f.write_str("plus"),
            Key::Char(c) => write!(f, "{c}"),
            Key::Named(k) => f.write_str(k.name()),
        }
    }
}

/// Key aliases in folded form (lowercase, without `_`, `-` or spaces).
/// Canonical [`NamedKey`] names are looked up separately.
const KEY_ALIASES: &[(&str, Key)] = &[
    ("return", Key::Named(NamedKey::Enter)),
    ("esc", Key::Named(NamedKey::Escape)),
    // A phone's Back button (Android), a browser's back elsewhere.
    ("back", Key::Named(NamedKey::BrowserBack)),
    ("del", Key::Named(NamedKey::Delete)),
    ("bs", Key::Named(NamedKey::Backspace)),
    ("pgup", Key::Named(NamedKey::PageUp)),
    ("pgdn", Key::Named(NamedKey::PageDown)),
    ("pgdown", Key::Named(NamedKey::PageDown)),
    ("plus", Key::Char('+')),
    ("minus", Key::Char('-')),
    ("comma", Key::Char(',')),
    ("period", Key::Char('.')),
    ("slash", Key::Char('/')),
    ("backslash", Key::Char('\\')),
    ("semicolon", Key::Char(';')),
    ("quote", Key::Char('\'')),
    ("apostrophe", Key::Char('\'')),
    ("grave", Key::Char('`')),
    ("backtick", Key::Char('`')),
    ("equal", Key::Char('=')),
    ("equals", Key::Char('=')),
    ("bracketleft", Key::Char('[')),
    ("bracketright", Key::Char(']')),
    ("spacebar", Key::Named(NamedKey::Space)),
    ("arrowup", Key::Named(NamedKey::Up)),
    ("arrowdown", Key::Named(NamedKey::Down)),
    ("arrowleft", Key::Named(NamedKey::Left)),
    ("arrowright", Key::Named(NamedKey::Right)),
    ("ins", Key::Named(NamedKey::Insert)),
    ("printscreen", Key::Named(NamedKey::Print)),
    ("prtsc", Key::Named(NamedKey::Print)),
    ("prtscn", Key::Named(NamedKey::Print)),
    ("apps", Key::Named(NamedKey::Menu)),
    ("contextmenu", Key::Named(NamedKey::Menu)),
    ("break", Key::Named(NamedKey::Pause)),
    ("numpadenter", Key::Named(NamedKey::KpEnter)),
    ("numpadadd", Key::Named(NamedKey::KpAdd)),
    ("numpadsubtract", Key::Named(NamedKey::KpSubtract)),
    ("numpadmultiply", Key::Named(NamedKey::KpMultiply)),
    ("numpaddivide", Key::Named(NamedKey::KpDivide)),
    ("numpaddecimal", Key::Named(NamedKey::KpDecimal)),
    ("numpadequal", Key::Named(NamedKey::KpEqual)),
];

/// Looks up `numpad0`…`numpad9`, `num0`…`num9`.
fn numpad_digit(word: &str) -> Option<Key> {
    const DIGITS: [NamedKey; 10] = [
        NamedKey::Kp0,
        NamedKey::Kp1,
        NamedKey::Kp2,
        NamedKey::Kp3,
        NamedKey::Kp4,
        NamedKey::Kp5,
        NamedKey::Kp6,
        NamedKey::Kp7,
        NamedKey::Kp8,
        NamedKey::Kp9,
    ];
    let digit = word
        .strip_prefix("numpad")
        .or_else(|| word.strip_prefix("num"))?;
    let mut chars = digit.chars();
    let d = chars.next()?.to_digit(10)?;
    if chars.next().is_some() {
        return None;
    }
    DIGITS.get(usize::try_from(d).ok()?).map(|&k| Key::Named(k))
}

/// A parsed key combo: modifiers held while the keys are pressed in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Combo {
    /// Modifiers, in order of first appearance, without duplicates.
    pub modifiers: Vec<Modifier>,
    /// Non-modifier keys, in order; may be empty (a lone modifier).
    pub keys: Vec<Key>,
}

impl fmt::Display for Combo {
    /// The canonical form, e.g. `ctrl+shift+p`, `ctrl+plus`, `meta`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let names = self
            .modifiers
            .iter()
            .map(ToString::to_string)
            .chain(self.keys.iter().map(Key::to_string));
        for name in names {
            if !first {
                f.write_str("+")?;
            }
            first = false;
            f.write_str(&name)?;
        }
        Ok(())
    }
}

impl FromStr for Combo {
    type Err = KeyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_combo(s)
    }
}

/// Errors of [`parse_combo`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// Nothing but whitespace.
    #[error("empty key combo; give keys such as ctrl+s, enter or alt+f4")]
    Empty,
    /// The combo ends with a `+` separator.
    #[error("combo '{combo}' ends with '+'; to press the plus key write {suggestion}")]
    TrailingPlus {
        /// The combo as given.
        combo: String,
        /// The combo with the plus key spelled out, e.g. `ctrl+plus`.
        suggestion: String,
    },
    /// A multi-character token that is no modifier or key name.
    #[error(
        "unknown key '{key}' in combo '{combo}'; use a single character or a key name \
         such as enter, tab, f5, kp_add, plus"
    )]
    UnknownKey {
        /// The token as written.
        key: String,
        /// The combo as given.
        combo: String,
    },
}

/// One token of a combo, as written.
enum Token<'a> {
    /// A `+` where a key was expected: the plus key.
    Plus,
    /// Anything else, trimmed.
    Word(&'a str),
}

/// Splits a combo into tokens (see the module documentation).
fn split(combo: &str) -> Result<Vec<Token<'_>>, KeyError> {
    let trailing = || KeyError::TrailingPlus {
        combo: combo.to_owned(),
        suggestion: format!("{}+plus", combo.trim().trim_end_matches('+').trim_end()),
    };
    let mut tokens = Vec::new();
    let mut rest = combo.trim_start();
    if rest.is_empty() {
        return Err(KeyError::Empty);
    }
    loop {
        // A key token is expected at the start of `rest` (non-empty, no
        // leading whitespace).
        if let Some(after) = rest.strip_prefix('+') {
            tokens.push(Token::Plus);
            rest = after.trim_start();
            // After a literal plus the separator is optional: `ctrl++s`.
            if let Some(after) = rest.strip_prefix('+') {
                rest = after.trim_start();
                if rest.is_empty() {
                    return Err(trailing());
                }
            }
        } else {
            let end = rest.find('+').unwrap_or(rest.len());
            tokens.push(Token::Word(rest[..end].trim_end()));
            rest = &rest[end..];
            if let Some(after) = rest.strip_prefix('+') {
                rest = after.trim_start();
                if rest.is_empty() {
                    return Err(trailing());
                }
            }
        }
        if rest.is_empty() {
            return Ok(tokens);
        }
    }
}

/// Parses a key combo such as `ctrl+shift+p`, `cmd+c`, `alt+f4`, `enter`,
/// `ctrl++` or `super`.
///
/// Modifiers are collected in order of first appearance without duplicates;
/// every other token is a key. A lone modifier is a valid combo with no
/// keys.
///
/// # Errors
///
/// [`KeyError`] for an empty combo, a trailing `+` separator or an unknown
/// multi-character key name.
pub fn parse_combo(combo: &str) -> Result<Combo, KeyError> {
    let mut out = Combo::default();
    for token in split(combo)? {
        let word = match token {
            Token::Plus => {
                out.keys.push(Key::Char('+'));
                continue;
            }
            Token::Word(word) => word,
        };
        let composed: String = word.nfc().collect();
        let mut chars = composed.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            out.keys.push(Key::Char(c.to_ascii_lowercase()));
            continue;
        }
        let folded: String = composed
            .chars()
            .filter(|c| !matches!(c, '_' | '-') && !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        if let Some(m) = Modifier::from_folded(&folded) {
            if !out.modifiers.contains(&m) {
                out.modifiers.push(m);
            }
            continue;
        }
        let key = KEY_ALIASES
            .iter()
            .find(|(alias, _)| *alias == folded)
            .map(|(_, key)| *key)
            .or_else(|| NamedKey::from_folded(&folded).map(Key::Named))
            .or_else(|| numpad_digit(&folded))
            .ok_or_else(|| KeyError::UnknownKey {
                key: word.to_owned(),
                combo: combo.to_owned(),
            })?;
        out.keys.push(key);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use Modifier::{Alt, Ctrl, Meta, Shift};

    fn parse(s: &str) -> Combo {
        parse_combo(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    fn named(k: NamedKey) -> Key {
        Key::Named(k)
    }

    fn combo(modifiers: &[Modifier], keys: &[Key]) -> Combo {
        Combo {
            modifiers: modifiers.to_vec(),
            keys: keys.to_vec(),
        }
    }

    /// The reference SDKs' vectors. `deviates` marks where our result
    /// differs from theirs on purpose (their result in the comment).
    #[test]
    fn reference_vectors() {
        let c = Key::Char;
        let cases: &[(&str, Combo, bool)] = &[
            ("ctrl+s", combo(&[Ctrl], &[c('s')]), false),
            ("ctrl+shift+p", combo(&[Ctrl, Shift], &[c('p')]), false),
            ("enter", combo(&[], &[named(NamedKey::Enter)]), false),
            ("return", combo(&[], &[named(NamedKey::Enter)]), false),
            ("esc", combo(&[], &[named(NamedKey::Escape)]), false),
            ("win+e", combo(&[Meta], &[c('e')]), false),
            ("cmd+c", combo(&[Meta], &[c('c')]), false),
            (" ctrl + s ", combo(&[Ctrl], &[c('s')]), false),
            // Reference: [ctrl], [s] (the plus key is dropped).
            ("ctrl++s", combo(&[Ctrl], &[c('+'), c('s')]), true),
            ("CTRL+S", combo(&[Ctrl], &[c('s')]), false),
            ("super", combo(&[Meta], &[]), false),
            // Reference: [], [control, c] (control is not a modifier there).
            ("control+c", combo(&[Ctrl], &[c('c')]), true),
            ("alt+f4", combo(&[Alt], &[named(NamedKey::F4)]), false),
            ("pgdn", combo(&[], &[named(NamedKey::PageDown)]), false),
        ];
        for (input, want, _deviates) in cases {
            assert_eq!(&parse(input), want, "{input:?}");
        }
        assert_eq!(cases.iter().filter(|c| c.2).count(), 2);
    }

    #[test]
    fn plus_key_forms() {
        let plus = Key::Char('+');
        assert_eq!(parse("ctrl++"), combo(&[Ctrl], &[plus]));
        assert_eq!(parse("+"), combo(&[], &[plus]));
        assert_eq!(parse("ctrl+plus"), combo(&[Ctrl], &[plus]));
        assert_eq!(parse("ctrl + + s"), combo(&[Ctrl], &[plus, Key::Char('s')]));
        assert_eq!(parse("ctrl+++s"), combo(&[Ctrl], &[plus, Key::Char('s')]));
        assert_eq!(parse("shift+minus"), combo(&[Shift], &[Key::Char('-')]));
        assert_eq!(parse("ctrl+-"), combo(&[Ctrl], &[Key::Char('-')]));
    }

    #[test]
    fn modifier_aliases() {
        let cases: &[(&[&str], Modifier)] = &[
            (&["ctrl", "control", "Control", "CTRL"], Ctrl),
            (&["alt", "option", "opt", "Option"], Alt),
            (&["shift", "SHIFT"], Shift),
            (
                &["meta", "cmd", "command", "super", "win", "windows", "Cmd"],
                Meta,
            ),
        ];
        for (aliases, m) in cases {
            for alias in *aliases {
                assert_eq!(parse(alias), combo(&[*m], &[]), "{alias}");
                assert_eq!(
                    parse(&format!("{alias}+x")),
                    combo(&[*m], &[Key::Char('x')]),
                    "{alias}"
                );
            }
        }
    }

    #[test]
    fn modifiers_keep_first_order_without_duplicates() {
        assert_eq!(
            parse("shift+ctrl+cmd+shift+control+a"),
            combo(&[Shift, Ctrl, Meta], &[Key::Char('a')])
        );
        assert_eq!(parse("shift"), combo(&[Shift], &[]));
        assert_eq!(parse("a+ctrl"), combo(&[Ctrl], &[Key::Char('a')]));
    }

    #[test]
    fn several_keys() {
        assert_eq!(parse("a+b"), combo(&[], &[Key::Char('a'), Key::Char('b')]));
        assert_eq!(
            parse("ctrl+k+ctrl+s"),
            combo(&[Ctrl], &[Key::Char('k'), Key::Char('s')])
        );
    }

    #[test]
    fn navigation_and_editing_aliases() {
        let cases: &[(&str, NamedKey)] = &[
            ("return", NamedKey::Enter),
            ("Enter", NamedKey::Enter),
            ("esc", NamedKey::Escape),
            ("escape", NamedKey::Escape),
            ("del", NamedKey::Delete),
            ("bs", NamedKey::Backspace),
            ("pgup", NamedKey::PageUp),
            ("page_up", NamedKey::PageUp),
            ("PageUp", NamedKey::PageUp),
            ("pgdn", NamedKey::PageDown),
            ("pgdown", NamedKey::PageDown),
            ("page-down", NamedKey::PageDown),
            ("spacebar", NamedKey::Space),
            ("space", NamedKey::Space),
            ("arrowup", NamedKey::Up),
            ("ArrowDown", NamedKey::Down),
            ("arrowleft", NamedKey::Left),
            ("arrowright", NamedKey::Right),
            ("ins", NamedKey::Insert),
            ("printscreen", NamedKey::Print),
            ("prtsc", NamedKey::Print),
            ("menu", NamedKey::Menu),
            ("apps", NamedKey::Menu),
            ("contextmenu", NamedKey::Menu),
            ("capslock", NamedKey::CapsLock),
            ("caps_lock", NamedKey::CapsLock),
            ("numlock", NamedKey::NumLock),
            ("scrolllock", NamedKey::ScrollLock),
            ("break", NamedKey::Pause),
            ("tab", NamedKey::Tab),
            ("home", NamedKey::Home),
            ("end", NamedKey::End),
        ];
        for (input, key) in cases {
            assert_eq!(parse(input), combo(&[], &[named(*key)]), "{input}");
        }
    }

    #[test]
    fn punctuation_aliases() {
        let cases: &[(&str, char)] = &[
            ("plus", '+'),
            ("minus", '-'),
            ("comma", ','),
            ("period", '.'),
            ("slash", '/'),
            ("backslash", '\\'),
            ("semicolon", ';'),
            ("quote", '\''),
            ("apostrophe", '\''),
            ("grave", '`'),
            ("backtick", '`'),
            ("equal", '='),
            ("equals", '='),
            ("bracketleft", '['),
            ("bracketright", ']'),
        ];
        for (input, c) in cases {
            assert_eq!(
                parse(&format!("ctrl+{input}")),
                combo(&[Ctrl], &[Key::Char(*c)]),
                "{input}"
            );
        }
    }

    #[test]
    fn function_and_keypad_keys() {
        assert_eq!(parse("F24"), combo(&[], &[named(NamedKey::F24)]));
        assert_eq!(parse("shift+f1"), combo(&[Shift], &[named(NamedKey::F1)]));
        assert!(parse_combo("f25").is_err());
        let kp: &[(&str, NamedKey)] = &[
            ("kp_enter", NamedKey::KpEnter),
            ("kp_add", NamedKey::KpAdd),
            ("kp_subtract", NamedKey::KpSubtract),
            ("kp_multiply", NamedKey::KpMultiply),
            ("kp_divide", NamedKey::KpDivide),
            ("kp_decimal", NamedKey::KpDecimal),
            ("kp_equal", NamedKey::KpEqual),
            ("kp_0", NamedKey::Kp0),
            ("KP_9", NamedKey::Kp9),
            ("kp5", NamedKey::Kp5),
            ("numpad0", NamedKey::Kp0),
            ("Numpad7", NamedKey::Kp7),
            ("num3", NamedKey::Kp3),
            ("NumpadAdd", NamedKey::KpAdd),
            ("numpad_enter", NamedKey::KpEnter),
        ];
        for (input, key) in kp {
            assert_eq!(parse(input), combo(&[], &[named(*key)]), "{input}");
        }
        assert!(parse_combo("numpad10").is_err());
    }

    #[test]
    fn media_and_system_keys() {
        for key in NamedKey::ALL {
            assert_eq!(parse(key.name()), combo(&[], &[named(*key)]), "{key}");
            assert_eq!(
                parse(&key.name().to_uppercase()),
                combo(&[], &[named(*key)]),
                "{key}"
            );
        }
        assert_eq!(NamedKey::ALL.len(), 15 + 24 + 17 + 6 + 15);
    }

    #[test]
    fn unicode_characters() {
        assert_eq!(parse("ctrl+é"), combo(&[Ctrl], &[Key::Char('é')]));
        // Decomposed é (e + combining acute) is one character once composed.
        assert_eq!(parse("ctrl+e\u{301}"), combo(&[Ctrl], &[Key::Char('é')]));
        assert_eq!(parse("日"), combo(&[], &[Key::Char('日')]));
        assert_eq!(parse("alt+Ω"), combo(&[Alt], &[Key::Char('Ω')]));
        assert_eq!(parse("1"), combo(&[], &[Key::Char('1')]));
    }

    #[test]
    fn errors() {
        assert_eq!(parse_combo(""), Err(KeyError::Empty));
        assert_eq!(parse_combo("   "), Err(KeyError::Empty));
        assert_eq!(
            parse_combo("ctrl+").map_err(|e| e.to_string()),
            Err("combo 'ctrl+' ends with '+'; to press the plus key write ctrl+plus".to_owned())
        );
        assert_eq!(
            parse_combo("ctrl+shift + ").map_err(|e| e.to_string()),
            Err(
                "combo 'ctrl+shift + ' ends with '+'; to press the plus key write ctrl+shift+plus"
                    .to_owned()
            )
        );
        assert!(matches!(
            parse_combo("++"),
            Err(KeyError::TrailingPlus { .. })
        ));
        assert_eq!(
            parse_combo("ctrl+foo").map_err(|e| e.to_string()),
            Err(
                "unknown key 'foo' in combo 'ctrl+foo'; use a single character or a key name \
                 such as enter, tab, f5, kp_add, plus"
                    .to_owned()
            )
        );
        assert_eq!(
            parse_combo("ctrl+a b"),
            Err(KeyError::UnknownKey {
                key: "a b".into(),
                combo: "ctrl+a b".into()
            })
        );
        assert!(matches!(
            parse_combo("日本"),
            Err(KeyError::UnknownKey { .. })
        ));
    }

    #[test]
    fn canonical_display() {
        assert_eq!(parse("Control + Shift + P").to_string(), "ctrl+shift+p");
        assert_eq!(parse("ctrl++").to_string(), "ctrl+plus");
        assert_eq!(parse("super").to_string(), "meta");
        assert_eq!(parse("cmd+opt+esc").to_string(), "meta+alt+escape");
        assert_eq!(parse("NumpadAdd").to_string(), "kp_add");
        assert_eq!(
            "alt+F4".parse::<Combo>().map(|c| c.to_string()),
            Ok("alt+f4".to_owned())
        );
    }

    #[test]
    fn display_round_trips_every_named_key_and_modifier() {
        for key in NamedKey::ALL {
            let c = combo(&Modifier::ALL, &[named(*key)]);
            assert_eq!(parse(&c.to_string()), c);
        }
        for ch in [
            '+', '-', ',', '.', '/', '\\', '\'', '`', '=', '[', ']', 'a', '9', 'é', '日',
        ] {
            let c = combo(&[Ctrl], &[Key::Char(ch)]);
            assert_eq!(parse(&c.to_string()), c, "{ch:?}");
        }
    }

    proptest! {
        #[test]
        fn parse_display_parse_is_stable(input in "[ a-zA-Z0-9+_\\-éß日]{0,16}") {
            if let Ok(c) = parse_combo(&input) {
                prop_assert_eq!(parse_combo(&c.to_string()), Ok(c));
            }
        }

        #[test]
        fn never_panics(input in "\\PC{0,24}") {
            let _ = parse_combo(&input);
        }
    }
}
