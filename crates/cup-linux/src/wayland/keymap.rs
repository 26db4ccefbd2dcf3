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
//! The keymap is self-contained (its own types and compat sections, no
//! `include`), so any client compiles it without the XKB data files.
//! Keycodes stay below 256 (X11's limit, which Xwayland clients keep):
//! at most [`MAX_KEYSYMS`] keysyms a keymap; longer texts are typed in
//! [`chunks`].

use std::collections::HashSet;
use std::fmt::Write as _;
use std::ops::Range;

use crate::input::keysym::{keysym_char, xk, Keysym};

/// The most keysyms (besides the modifier keys) one keymap holds.
pub const MAX_KEYSYMS: usize = 200;

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
    keysym: Keysym,
    name: &'static str,
    real: &'static str,
    mask: u32,
    virtual_mod: Option<&'static str>,
}

/// The modifier keys, at evdev keycodes 1.. in this order.
const MODIFIER_KEYS: [ModifierKey; 8] = [
    ModifierKey {
        keysym: xk::SHIFT_L,
        name: "Shift_L",
        real: "Shift",
        mask: mask::SHIFT,
        virtual_mod: None,
    },
    ModifierKey {
        keysym: xk::SHIFT_R,
        name: "Shift_R",
        real: "Shift",
        mask: mask::SHIFT,
        virtual_mod: None,
    },
    ModifierKey {
        keysym: xk::CONTROL_L,
        name: "Control_L",
        real: "Control",
        mask: mask::CONTROL,
        virtual_mod: None,
    },
    ModifierKey {
        keysym: xk::CONTROL_R,
        name: "Control_R",
        real: "Control",
        mask: mask::CONTROL,
        virtual_mod: None,
    },
    ModifierKey {
        keysym: xk::ALT_L,
        name: "Alt_L",
        real: "Mod1",
        mask: mask::MOD1,
        virtual_mod: Some("Alt"),
    },
    ModifierKey {
        keysym: xk::ALT_R,
        name: "Alt_R",
        real: "Mod1",
        mask: mask::MOD1,
        virtual_mod: Some("Alt"),
    },
    ModifierKey {
        keysym: xk::SUPER_L,
        name: "Super_L",
        real: "Mod4",
        mask: mask::MOD4,
        virtual_mod: Some("Super"),
    },
    ModifierKey {
        keysym: xk::SUPER_R,
        name: "Super_R",
        real: "Mod4",
        mask: mask::MOD4,
        virtual_mod: Some("Super"),
    },
];

/// Number of modifier keys (evdev keycodes `1..=MODIFIERS`).
const MODIFIERS: u32 = MODIFIER_KEYS.len() as u32;

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
            .filter(|&k| !is_modifier(k) && seen.insert(k))
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

    /// The non-modifier keysyms, in keycode order.
    pub fn keysyms(&self) -> &[Keysym] {
        &self.keysyms
    }

    /// The evdev keycode (what `zwp_virtual_keyboard_v1.key` sends) of
    /// `keysym`, if the keymap has it.
    pub fn keycode(&self, keysym: Keysym) -> Option<u32> {
        if let Some(i) = MODIFIER_KEYS.iter().position(|m| m.keysym == keysym) {
            return u32::try_from(i).ok().map(|i| i + 1);
        }
        let i = self.keysyms.iter().position(|&k| k == keysym)?;
        u32::try_from(i).ok().map(|i| MODIFIERS + 1 + i)
    }

    /// Whether every keysym of `keysyms` has a key here.
    pub fn contains_all(&self, keysyms: &[Keysym]) -> bool {
        keysyms.iter().all(|&k| self.keycode(k).is_some())
    }

    /// The highest XKB keycode of the keymap.
    fn max_xkb_keycode(&self) -> u32 {
        let count = u32::try_from(self.keysyms.len()).unwrap_or(u32::MAX);
        EVDEV_OFFSET + MODIFIERS + count
    }

    /// The keymap as XKB text (`xkb_v1` format), NUL-terminated as the
    /// `keymap` request wants it.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(2048 + 40 * self.keysyms.len());
        out.push_str("xkb_keymap {\n");

        // Keycodes: <M1>.. for the modifier keys, <K1>.. for the keysyms.
        let _ = write!(
            out,
            "xkb_keycodes \"cup\" {{\n    minimum = {};\n    maximum = {};\n",
            EVDEV_OFFSET,
            self.max_xkb_keycode().max(EVDEV_OFFSET + MODIFIERS),
        );
        for i in 1..=MODIFIERS {
            let _ = writeln!(out, "    <M{i}> = {};", EVDEV_OFFSET + i);
        }
        for (i, code) in (1..).zip(EVDEV_OFFSET + MODIFIERS + 1..=self.max_xkb_keycode()) {
            let _ = writeln!(out, "    <K{i}> = {code};");
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
        for (i, m) in (1..).zip(&MODIFIER_KEYS) {
            let _ = writeln!(out, "    key <M{i}> {{ [ {} ] }};", m.name);
        }
        for (i, &k) in (1..).zip(&self.keysyms) {
            let _ = writeln!(
                out,
                "    key <K{i}> {{ type = \"ONE_LEVEL\", [ {} ] }};",
                keysym_name(k)
            );
        }
        for real in ["Shift", "Control", "Mod1", "Mod4"] {
            let keys: Vec<String> = (1..)
                .zip(&MODIFIER_KEYS)
                .filter(|(_, m)| m.real == real)
                .map(|(i, _)| format!("<M{i}>"))
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
/// non-modifier keysyms each (at least one keysym a range), so each range
/// is typed with one keymap.
pub fn chunks(keysyms: &[Keysym], max: usize) -> Vec<Range<usize>> {
    let max = max.max(1);
    let mut out = Vec::new();
    let mut start = 0;
    let mut distinct = HashSet::new();
    for (i, &k) in keysyms.iter().enumerate() {
        if is_modifier(k) || distinct.contains(&k) {
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
    use crate::input::keysym::char_keysym;

    fn keysyms_of(text: &str) -> Vec<Keysym> {
        text.chars()
            .map(|c| char_keysym(c).unwrap_or_else(|| panic!("{c:?}")))
            .collect()
    }

    #[test]
    fn keycodes_follow_the_modifier_keys() {
        let map = Keymap::new(keysyms_of("hello"));
        assert_eq!(map.keysyms(), &[0x68, 0x65, 0x6c, 0x6f]);
        assert_eq!(map.keycode(xk::SHIFT_L), Some(1));
        assert_eq!(map.keycode(xk::SUPER_R), Some(8));
        assert_eq!(map.keycode(0x68), Some(9));
        assert_eq!(map.keycode(0x6f), Some(12));
        assert_eq!(map.keycode(0x61), None);
        assert!(map.contains_all(&[0x68, xk::CONTROL_L]));
        assert!(!map.contains_all(&[0x68, 0x61]));
    }

    #[test]
    fn modifiers_are_never_keysym_keys() {
        let map = Keymap::new([xk::CONTROL_L, 0x74, xk::SHIFT_L]);
        assert_eq!(map.keysyms(), &[0x74]);
        assert_eq!(map.keycode(xk::CONTROL_L), Some(3));
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
        assert!(
            text.contains("    minimum = 8;\n    maximum = 19;\n"),
            "{text}"
        );
        assert!(text.contains("    <M1> = 9;\n"));
        assert!(text.contains("    <M8> = 16;\n"));
        assert!(text.contains("    <K1> = 17;\n    <K2> = 18;\n    <K3> = 19;\n"));
        assert!(!text.contains("<K4>"));
        assert!(text.contains("key <K1> { type = \"ONE_LEVEL\", [ U00E9 ] };"));
        assert!(text.contains("key <K2> { type = \"ONE_LEVEL\", [ U65E5 ] };"));
        assert!(text.contains("key <K3> { type = \"ONE_LEVEL\", [ 0x0000ff0d ] };"));
        assert!(text.contains("key <M3> { [ Control_L ] };"));
        assert!(text.contains("interpret Control_L { action = SetMods(modifiers = Control); };"));
        assert!(text.contains(
            "interpret Alt_L { virtualModifier = Alt; action = SetMods(modifiers = Mod1); };"
        ));
        assert!(text.contains("modifier_map Shift { <M1>, <M2> };"));
        assert!(text.contains("modifier_map Control { <M3>, <M4> };"));
        assert!(text.contains("modifier_map Mod1 { <M5>, <M6> };"));
        assert!(text.contains("modifier_map Mod4 { <M7>, <M8> };"));
        assert!(!text.contains("include"));
        // Balanced braces, one NUL at the very end.
        assert_eq!(text.matches('{').count(), text.matches('}').count());
        assert_eq!(text.matches('\0').count(), 1);
    }

    #[test]
    fn an_empty_keymap_still_has_the_modifiers() {
        let text = Keymap::new([]).text();
        assert!(text.contains("maximum = 16;"));
        assert!(text.contains("key <M7> { [ Super_L ] };"));
        assert!(!text.contains("<K1>"));
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
        assert_eq!(map.keysyms().len(), distinct(&keysyms).len());
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
        assert_eq!(map.keycode(many[MAX_KEYSYMS - 1]), Some(MODIFIERS + 200));
        assert_eq!(map.keycode(many[MAX_KEYSYMS]), None);
    }

    #[test]
    fn extended_merges_while_it_fits() {
        let map = Keymap::new(keysyms_of("hello"));
        let more = map.extended(&keysyms_of("world"));
        assert_eq!(more.keysyms(), &keysyms_of("helowrd")[..]);
        // Already-held keysyms keep their keycodes.
        assert_eq!(more.keycode(0x68), map.keycode(0x68));

        let full = Keymap::new((0..200).map(|i| 0x0100_4e00 + i));
        let needed = keysyms_of("abc");
        let fresh = full.extended(&needed);
        assert_eq!(fresh.keysyms(), &needed[..]);
    }

    #[test]
    fn chunks_split_at_the_distinct_limit() {
        assert!(chunks(&[], 3).is_empty());
        let keys = keysyms_of("aabbccdda");
        assert_eq!(chunks(&keys, 3), vec![0..6, 6..9]);
        assert_eq!(chunks(&keys, 4), vec![0..9]);
        assert_eq!(chunks(&keys, 1), vec![0..2, 2..4, 4..6, 6..8, 8..9]);
        // Modifiers never count.
        let combo = [xk::CONTROL_L, 0x61, xk::SHIFT_L, 0x62];
        assert_eq!(chunks(&combo, 2), vec![0..4]);
        // Every chunk fits a keymap.
        let long: Vec<Keysym> = (0..450).map(|i| 0x0100_4e00 + i % 430).collect();
        let parts = chunks(&long, MAX_KEYSYMS);
        assert_eq!(parts.len(), 3);
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
