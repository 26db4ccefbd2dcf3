//! XKB keymaps for the virtual keyboard (pure): text that gives each needed
//! keysym a keycode of its own, as `wtype` does.
//!
//! A Wayland virtual keyboard sends keycodes, and every client turns them
//! into keysyms through the keymap the keyboard uploaded. So instead of
//! finding a key of some layout that types a character, [`Keymap`] makes
//! one: a key per keysym, each at level 1 (no Shift needed), plus the
//! modifier keys (`Shift_L`, `Control_L`, `Alt_L`, `Super_L` and their
//! right twins) bound to the real modifiers so that combos work.
//!
//! The modifier keys, the letters, digits and punctuation of the US
//! layout and the named keys (Escape, BackSpace, the arrows, F1–F12, …)
//! sit at their US keycodes in every keymap cup uploads ([`US_KEYS`]);
//! other keysyms take the codes the US layout leaves free. GTK 3 matches
//! its key bindings (BackSpace, Ctrl+A, the arrows) by keycode through the
//! keymap it started with (a US one) and does not look again when a new
//! keymap arrives: measured on sway, BackSpace and Ctrl+A did nothing in a
//! GTK 3 entry until they came at the US codes.
//!
//! The keymap is self-contained (its own types and compat sections, no
//! `include`), so any client compiles it without the XKB data files.
//! Keycodes stay below 256 (X11's limit, which Xwayland clients keep):
//! at most [`MAX_KEYSYMS`] keysyms a keymap; longer texts are typed in
//! [`chunks`].

use std::collections::HashSet;
use std::fmt::Write as _;
use std::ops::Range;

use crate::keysym::{keysym_char, xk, Keysym};

/// The most keysyms besides the modifier and US keys one keymap holds
/// (the free keycodes below 248).
pub const MAX_KEYSYMS: usize = 140;

/// Offset between evdev keycodes (what the virtual keyboard sends) and XKB
/// keycodes (what the keymap names).
pub const EVDEV_OFFSET: u32 = 8;

/// Modifier masks of the real modifiers, as `modifiers` requests send them.
pub mod mask {
    /// `Shift`.
    pub const SHIFT: u32 = 1 << 0;
    /// `Control`.
    pub const CONTROL: u32 = 1 << 2;
    /// `Mod1` (Alt).
    pub const MOD1: u32 = 1 << 3;
    /// `Mod4` (Super).
    pub const MOD4: u32 = 1 << 6;
}

/// A modifier key of every keymap: keysym, name, real modifier, mask,
/// virtual modifier.
struct ModifierKey {
    /// Its evdev keycode (the US keyboard's).
    code: u32,
    keysym: Keysym,
    name: &'static str,
    real: &'static str,
    mask: u32,
    virtual_mod: Option<&'static str>,
}

/// The modifier keys, at their US evdev keycodes.
const MODIFIER_KEYS: [ModifierKey; 8] = [
    ModifierKey {
        code: 42,
        keysym: xk::SHIFT_L,
        name: "Shift_L",
        real: "Shift",
        mask: mask::SHIFT,
        virtual_mod: None,
    },
    ModifierKey {
        code: 54,
        keysym: xk::SHIFT_R,
        name: "Shift_R",
        real: "Shift",
        mask: mask::SHIFT,
        virtual_mod: None,
    },
    ModifierKey {
        code: 29,
        keysym: xk::CONTROL_L,
        name: "Control_L",
        real: "Control",
        mask: mask::CONTROL,
        virtual_mod: None,
    },
    ModifierKey {
        code: 97,
        keysym: xk::CONTROL_R,
        name: "Control_R",
        real: "Control",
        mask: mask::CONTROL,
        virtual_mod: None,
    },
    ModifierKey {
        code: 56,
        keysym: xk::ALT_L,
        name: "Alt_L",
        real: "Mod1",
        mask: mask::MOD1,
        virtual_mod: Some("Alt"),
    },
    ModifierKey {
        code: 100,
        keysym: xk::ALT_R,
        name: "Alt_R",
        real: "Mod1",
        mask: mask::MOD1,
        virtual_mod: Some("Alt"),
    },
    ModifierKey {
        code: 125,
        keysym: xk::SUPER_L,
        name: "Super_L",
        real: "Mod4",
        mask: mask::MOD4,
        virtual_mod: Some("Super"),
    },
    ModifierKey {
        code: 126,
        keysym: xk::SUPER_R,
        name: "Super_R",
        real: "Mod4",
        mask: mask::MOD4,
        virtual_mod: Some("Super"),
    },
];

/// The keys of the US layout at level 1, by evdev keycode: every keymap
/// has them there (see the module's documentation).
pub const US_KEYS: [(u32, Keysym); 78] = [
    (1, xk::ESCAPE),
    (2, 0x31),
    (3, 0x32),
    (4, 0x33),
    (5, 0x34),
    (6, 0x35),
    (7, 0x36),
    (8, 0x37),
    (9, 0x38),
    (10, 0x39),
    (11, 0x30),
    (12, 0x2d),
    (13, 0x3d),
    (14, xk::BACKSPACE),
    (15, xk::TAB),
    (16, 0x71),
    (17, 0x77),
    (18, 0x65),
    (19, 0x72),
    (20, 0x74),
    (21, 0x79),
    (22, 0x75),
    (23, 0x69),
    (24, 0x6f),
    (25, 0x70),
    (26, 0x5b),
    (27, 0x5d),
    (28, xk::RETURN),
    (30, 0x61),
    (31, 0x73),
    (32, 0x64),
    (33, 0x66),
    (34, 0x67),
    (35, 0x68),
    (36, 0x6a),
    (37, 0x6b),
    (38, 0x6c),
    (39, 0x3b),
    (40, 0x27),
    (41, 0x60),
    (43, 0x5c),
    (44, 0x7a),
    (45, 0x78),
    (46, 0x63),
    (47, 0x76),
    (48, 0x62),
    (49, 0x6e),
    (50, 0x6d),
    (51, 0x2c),
    (52, 0x2e),
    (53, 0x2f),
    (57, xk::SPACE),
    (59, xk::F1),
    (60, xk::F1 + 1),
    (61, xk::F1 + 2),
    (62, xk::F1 + 3),
    (63, xk::F1 + 4),
    (64, xk::F1 + 5),
    (65, xk::F1 + 6),
    (66, xk::F1 + 7),
    (67, xk::F1 + 8),
    (68, xk::F1 + 9),
    (87, xk::F1 + 10),
    (88, xk::F1 + 11),
    (96, xk::KP_ENTER),
    (99, xk::PRINT),
    (102, xk::HOME),
    (103, xk::UP),
    (104, xk::PRIOR),
    (105, xk::LEFT),
    (106, xk::RIGHT),
    (107, xk::END),
    (108, xk::DOWN),
    (109, xk::NEXT),
    (110, xk::INSERT),
    (111, xk::DELETE),
    (119, xk::PAUSE),
    (127, xk::MENU),
];

/// The highest evdev keycode a keymap uses (XKB keycode 255, X11's
/// limit, which Xwayland clients keep).
const MAX_CODE: u32 = 255 - EVDEV_OFFSET;

/// The US key of `keysym`, if it is one.
fn us_code(keysym: Keysym) -> Option<u32> {
    US_KEYS.iter().find(|(_, k)| *k == keysym).map(|(c, _)| *c)
}

/// The evdev keycodes neither a modifier nor a US key takes, ascending:
/// where the other keysyms go.
fn free_codes() -> &'static [u32] {
    static FREE: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    FREE.get_or_init(|| {
        (1..=MAX_CODE)
            .filter(|c| {
                !MODIFIER_KEYS.iter().any(|m| m.code == *c) && !US_KEYS.iter().any(|(u, _)| u == c)
            })
            .collect()
    })
}

/// The modifier mask a keysym sets while its key is down: `0` for keysyms
/// that are not one of the keymap's modifier keys.
pub fn modifier_mask(keysym: Keysym) -> u32 {
    MODIFIER_KEYS
        .iter()
        .find(|m| m.keysym == keysym)
        .map_or(0, |m| m.mask)
}

/// Whether `keysym` is one of the modifier keys every keymap holds.
pub fn is_modifier(keysym: Keysym) -> bool {
    modifier_mask(keysym) != 0
}

/// A generated keymap: the modifier keys, then one key per keysym.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    /// The non-modifier keysyms, in keycode order, without repeats.
    keysyms: Vec<Keysym>,
}

impl Keymap {
    /// A keymap for `keysyms` (repeats and modifier keysyms dropped, the
    /// modifier keys are always there). At most [`MAX_KEYSYMS`] are kept;
    /// split longer sets with [`chunks`] first.
    pub fn new(keysyms: impl IntoIterator<Item = Keysym>) -> Keymap {
        let mut seen = HashSet::new();
        let keysyms = keysyms
            .into_iter()
            .filter(|&k| !is_modifier(k) && us_code(k).is_none() && seen.insert(k))
            .take(MAX_KEYSYMS)
            .collect();
        Keymap { keysyms }
    }

    /// The keymap that holds both this keymap's keysyms and `needed`, when
    /// they fit in one; else a keymap of `needed` alone.
    #[must_use]
    pub fn extended(&self, needed: &[Keysym]) -> Keymap {
        let merged = Keymap::new(self.keysyms.iter().chain(needed).copied());
        if needed.iter().all(|&k| merged.keycode(k).is_some()) {
            merged
        } else {
            Keymap::new(needed.iter().copied())
        }
    }

    /// The keysyms besides the modifier and US keys, in keycode order.
    #[cfg(test)]
    pub fn keysyms(&self) -> &[Keysym] {
        &self.keysyms
    }

    /// The evdev keycode (what `zwp_virtual_keyboard_v1.key` sends) of
    /// `keysym`, if the keymap has it.
    pub fn keycode(&self, keysym: Keysym) -> Option<u32> {
        if let Some(m) = MODIFIER_KEYS.iter().find(|m| m.keysym == keysym) {
            return Some(m.code);
        }
        if let Some(code) = us_code(keysym) {
            return Some(code);
        }
        let i = self.keysyms.iter().position(|&k| k == keysym)?;
        free_codes().get(i).copied()
    }

    /// Whether every keysym of `keysyms` has a key here.
    pub fn contains_all(&self, keysyms: &[Keysym]) -> bool {
        keysyms.iter().all(|&k| self.keycode(k).is_some())
    }

    /// Every key of the keymap: evdev keycode, keysym, ascending by code.
    fn keys(&self) -> Vec<(u32, Keysym)> {
        let mut keys: Vec<(u32, Keysym)> = MODIFIER_KEYS
            .iter()
            .map(|m| (m.code, m.keysym))
            .chain(US_KEYS.iter().copied())
            .chain(
                free_codes()
                    .iter()
                    .copied()
                    .zip(self.keysyms.iter().copied()),
            )
            .collect();
        keys.sort_unstable();
        keys
    }

    /// The highest XKB keycode of the keymap.
    fn max_xkb_keycode(&self) -> u32 {
        self.keys()
            .last()
            .map_or(EVDEV_OFFSET, |(c, _)| c + EVDEV_OFFSET)
    }

    /// The keymap as XKB text (`xkb_v1` format), NUL-terminated as the
    /// `keymap` request wants it.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(2048 + 40 * self.keysyms.len());
        out.push_str("xkb_keymap {\n");

        // Keycodes: <C{evdev code}> for every key.
        let keys = self.keys();
        let _ = write!(
            out,
            "xkb_keycodes \"cup\" {{\n    minimum = {};\n    maximum = {};\n",
            EVDEV_OFFSET,
            self.max_xkb_keycode(),
        );
        for (code, _) in &keys {
            let _ = writeln!(out, "    <C{code}> = {};", code + EVDEV_OFFSET);
        }
        out.push_str("};\n");

        // Types: one level is all any key has.
        out.push_str(
            "xkb_types \"cup\" {\n    virtual_modifiers Alt,Super;\n    \
             type \"ONE_LEVEL\" {\n        modifiers = none;\n        \
             level_name[Level1] = \"Any\";\n    };\n};\n",
        );

        // Compat: the modifier keys set their modifier while down.
        out.push_str("xkb_compatibility \"cup\" {\n    virtual_modifiers Alt,Super;\n");
        for m in &MODIFIER_KEYS {
            let _ = write!(out, "    interpret {} {{ ", m.name);
            if let Some(v) = m.virtual_mod {
                let _ = write!(out, "virtualModifier = {v}; ");
            }
            let _ = writeln!(out, "action = SetMods(modifiers = {}); }};", m.real);
        }
        out.push_str("};\n");

        // Symbols.
        out.push_str("xkb_symbols \"cup\" {\n");
        for (code, keysym) in &keys {
            match MODIFIER_KEYS.iter().find(|m| m.code == *code) {
                Some(m) => {
                    let _ = writeln!(out, "    key <C{code}> {{ [ {} ] }};", m.name);
                }
                None => {
                    let _ = writeln!(
                        out,
                        "    key <C{code}> {{ type = \"ONE_LEVEL\", [ {} ] }};",
                        keysym_name(*keysym)
                    );
                }
            }
        }
        for real in ["Shift", "Control", "Mod1", "Mod4"] {
            let keys: Vec<String> = MODIFIER_KEYS
                .iter()
                .filter(|m| m.real == real)
                .map(|m| format!("<C{}>", m.code))
                .collect();
            let _ = writeln!(out, "    modifier_map {real} {{ {} }};", keys.join(", "));
        }
        out.push_str("};\n};\n");
        out.push('\0');
        out
    }
}

/// The name of `keysym` in keymap text: `U+XXXX` form (`U00E9`, `U65E5`)
/// for character keysyms, which both xkbcommon and Xlib read back as the
/// keysym itself (Latin-1 ones as the code point, others as Unicode
/// keysyms); hex (`0x0000ff0d`) for all others.
pub fn keysym_name(keysym: Keysym) -> String {
    match keysym_char(keysym) {
        Some(_) if keysym == xk::EURO_SIGN => format!("0x{keysym:08x}"),
        Some(c) => format!("U{:04X}", u32::from(c)),
        None => format!("0x{keysym:08x}"),
    }
}

/// Splits a key sequence into consecutive ranges of at most `max` distinct
/// keysyms besides the modifier and US keys each (at least one keysym a
/// range), so each range is typed with one keymap.
pub fn chunks(keysyms: &[Keysym], max: usize) -> Vec<Range<usize>> {
    let max = max.max(1);
    let mut out = Vec::new();
    let mut start = 0;
    let mut distinct = HashSet::new();
    for (i, &k) in keysyms.iter().enumerate() {
        if is_modifier(k) || us_code(k).is_some() || distinct.contains(&k) {
            continue;
        }
        if distinct.len() == max {
            out.push(start..i);
            start = i;
            distinct.clear();
        }
        distinct.insert(k);
    }
    if start < keysyms.len() {
        out.push(start..keysyms.len());
    }
    out
}

/// The distinct keysyms of `keysyms`, in first-seen order.
pub fn distinct(keysyms: &[Keysym]) -> Vec<Keysym> {
    let mut seen = HashSet::new();
    keysyms
        .iter()
        .copied()
        .filter(|&k| seen.insert(k))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keysym::char_keysym;

    fn keysyms_of(text: &str) -> Vec<Keysym> {
        text.chars()
            .map(|c| char_keysym(c).unwrap_or_else(|| panic!("{c:?}")))
            .collect()
    }

    #[test]
    fn us_keys_keep_their_codes_and_others_take_free_ones() {
        // "hello" is all US keys: nothing extra, each at its US code.
        let map = Keymap::new(keysyms_of("hello"));
        assert!(map.keysyms().is_empty());
        assert_eq!(map.keycode(0x68), Some(35));
        assert_eq!(map.keycode(0x61), Some(30));
        assert_eq!(map.keycode(xk::BACKSPACE), Some(14));
        assert_eq!(map.keycode(xk::LEFT), Some(105));
        assert_eq!(map.keycode(xk::SHIFT_L), Some(42));
        assert_eq!(map.keycode(xk::CONTROL_L), Some(29));
        assert_eq!(map.keycode(xk::SUPER_R), Some(126));
        // Others go to the first free codes, in order.
        let more = Keymap::new(keysyms_of("Hé日"));
        assert_eq!(more.keysyms(), &keysyms_of("Hé日")[..]);
        let free = free_codes();
        assert_eq!(more.keycode(0x48), Some(free[0]));
        assert_eq!(more.keycode(0xe9), Some(free[1]));
        assert_eq!(more.keycode(0x0100_65e5), Some(free[2]));
        assert_eq!(more.keycode(0x0100_65e6), None);
        assert!(more.contains_all(&[0x68, xk::CONTROL_L, 0xe9]));
        assert!(!more.contains_all(&[0x68, 0x0100_65e6]));
        // No code is taken twice, none by two kinds of key.
        let mut codes: Vec<u32> = more.keys().iter().map(|(c, _)| *c).collect();
        let n = codes.len();
        codes.dedup();
        assert_eq!(codes.len(), n);
        assert!(free.iter().all(|c| {
            !US_KEYS.iter().any(|(u, _)| u == c) && !MODIFIER_KEYS.iter().any(|m| m.code == *c)
        }));
        assert!(free.len() >= MAX_KEYSYMS, "{} free codes", free.len());
    }

    #[test]
    fn modifiers_are_never_keysym_keys() {
        let map = Keymap::new([xk::CONTROL_L, 0x0100_65e5, xk::SHIFT_L]);
        assert_eq!(map.keysyms(), &[0x0100_65e5]);
        assert_eq!(modifier_mask(xk::CONTROL_L), mask::CONTROL);
        assert_eq!(modifier_mask(xk::SHIFT_R), mask::SHIFT);
        assert_eq!(modifier_mask(xk::ALT_L), mask::MOD1);
        assert_eq!(modifier_mask(xk::SUPER_L), mask::MOD4);
        assert_eq!(modifier_mask(0x74), 0);
        assert!(!is_modifier(xk::RETURN));
    }

    #[test]
    fn text_of_a_small_keymap() {
        let text = Keymap::new(keysyms_of("é日\n")).text();
        assert!(text.ends_with("};\n};\n\0"), "{text}");
        assert!(text.starts_with("xkb_keymap {\nxkb_keycodes \"cup\" {\n"));
        let free = free_codes();
        assert!(
            text.contains(&format!(
                "    minimum = 8;\n    maximum = {};\n",
                free[1].max(127) + 8
            )),
            "{text}"
        );
        assert!(text.contains("    <C1> = 9;\n"));
        assert!(text.contains("    <C29> = 37;\n"));
        assert!(text.contains("key <C29> { [ Control_L ] };"));
        assert!(text.contains("key <C30> { type = \"ONE_LEVEL\", [ U0061 ] };"));
        assert!(text.contains("key <C14> { type = \"ONE_LEVEL\", [ 0x0000ff08 ] };"));
        assert!(text.contains("key <C28> { type = \"ONE_LEVEL\", [ 0x0000ff0d ] };"));
        assert!(text.contains(&format!(
            "key <C{}> {{ type = \"ONE_LEVEL\", [ U00E9 ] }};",
            free[0]
        )));
        assert!(text.contains(&format!(
            "key <C{}> {{ type = \"ONE_LEVEL\", [ U65E5 ] }};",
            free[1]
        )));
        assert!(text.contains("interpret Control_L { action = SetMods(modifiers = Control); };"));
        assert!(text.contains(
            "interpret Alt_L { virtualModifier = Alt; action = SetMods(modifiers = Mod1); };"
        ));
        assert!(text.contains("modifier_map Shift { <C42>, <C54> };"));
        assert!(text.contains("modifier_map Control { <C29>, <C97> };"));
        assert!(text.contains("modifier_map Mod1 { <C56>, <C100> };"));
        assert!(text.contains("modifier_map Mod4 { <C125>, <C126> };"));
        assert!(!text.contains("include"));
        // Balanced braces, one NUL at the very end.
        assert_eq!(text.matches('{').count(), text.matches('}').count());
        assert_eq!(text.matches('\0').count(), 1);
    }

    #[test]
    fn an_empty_keymap_still_has_the_modifiers_and_us_keys() {
        let text = Keymap::new([]).text();
        assert!(text.contains("maximum = 135;"), "{text}");
        assert!(text.contains("key <C125> { [ Super_L ] };"));
        assert!(text.contains("key <C111> { type = \"ONE_LEVEL\", [ 0x0000ffff ] };"));
    }

    #[test]
    fn keysym_names() {
        assert_eq!(keysym_name(0x61), "U0061");
        assert_eq!(keysym_name(0x20), "U0020");
        assert_eq!(keysym_name(0xe9), "U00E9");
        assert_eq!(keysym_name(0x0100_2713), "U2713");
        assert_eq!(keysym_name(0x0101_f44d), "U1F44D");
        assert_eq!(keysym_name(xk::RETURN), "0x0000ff0d");
        assert_eq!(keysym_name(xk::XF86_AUDIO_MUTE), "0x1008ff12");
        assert_eq!(keysym_name(xk::EURO_SIGN), "0x000020ac");
    }

    #[test]
    fn every_code_point_of_complex_text_is_its_own_key() {
        // Skin tone modifier, combining accent, right-to-left letters.
        let keysyms = keysyms_of("👍🏽 e\u{301} שלום");
        let map = Keymap::new(keysyms.iter().copied());
        assert!(map.contains_all(&keysyms));
        let others = distinct(&keysyms)
            .into_iter()
            .filter(|k| us_code(*k).is_none())
            .count();
        assert_eq!(map.keysyms().len(), others);
        let text = map.text();
        for name in ["U1F44D", "U1F3FD", "U0301", "U05E9", "U05DD"] {
            assert!(text.contains(name), "{name}");
        }
    }

    #[test]
    fn keycodes_stay_below_256() {
        let many: Vec<Keysym> = (0..1000).map(|i| 0x0100_4e00 + i).collect();
        let map = Keymap::new(many.iter().copied());
        assert_eq!(map.keysyms().len(), MAX_KEYSYMS);
        assert!(map.max_xkb_keycode() < 256);
        assert_eq!(
            map.keycode(many[MAX_KEYSYMS - 1]),
            free_codes().get(MAX_KEYSYMS - 1).copied()
        );
        assert_eq!(map.keycode(many[MAX_KEYSYMS]), None);
    }

    #[test]
    fn extended_merges_while_it_fits() {
        let map = Keymap::new(keysyms_of("HELLO"));
        let more = map.extended(&keysyms_of("WORLD"));
        assert_eq!(more.keysyms(), &keysyms_of("HELOWRD")[..]);
        // Already-held keysyms keep their keycodes.
        assert_eq!(more.keycode(0x48), map.keycode(0x48));

        let full = Keymap::new((0..200).map(|i| 0x0100_4e00 + i));
        let needed = keysyms_of("ABC");
        let fresh = full.extended(&needed);
        assert_eq!(fresh.keysyms(), &needed[..]);
    }

    #[test]
    fn chunks_split_at_the_distinct_limit() {
        assert!(chunks(&[], 3).is_empty());
        let keys = keysyms_of("AABBCCDDA");
        assert_eq!(chunks(&keys, 3), vec![0..6, 6..9]);
        assert_eq!(chunks(&keys, 4), vec![0..9]);
        assert_eq!(chunks(&keys, 1), vec![0..2, 2..4, 4..6, 6..8, 8..9]);
        // Modifiers and US keys never count.
        let combo = [xk::CONTROL_L, 0x41, xk::SHIFT_L, 0x42, 0x61, xk::BACKSPACE];
        assert_eq!(chunks(&combo, 2), vec![0..6]);
        // Every chunk fits a keymap.
        let long: Vec<Keysym> = (0..450).map(|i| 0x0100_4e00 + i % 430).collect();
        let parts = chunks(&long, MAX_KEYSYMS);
        assert_eq!(parts.len(), 4);
        assert_eq!(parts.first().map(|r| r.start), Some(0));
        assert_eq!(parts.last().map(|r| r.end), Some(450));
        for part in parts {
            let map = Keymap::new(long[part.clone()].iter().copied());
            assert!(map.contains_all(&long[part]));
        }
    }

    #[test]
    fn distinct_keeps_first_seen_order() {
        assert_eq!(distinct(&keysyms_of("abca")), keysyms_of("abc"));
    }
}
