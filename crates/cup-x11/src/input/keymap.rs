//! Keymap planning (pure): which keycode and which shifting modifiers
//! (Shift, level 3, Mode_switch) produce a keysym on a core keyboard
//! mapping, or that the keysym needs a spare keycode lent to it ([`super::lease`]).
//!
//! The core table has `per_keycode` keysyms per keycode. Its columns are, as
//! the X server derives them from XKB: group 1 level 1, group 1 level 2,
//! group 2 level 1, group 2 level 2, group 1 level 3, group 1 level 4. The
//! first four columns are read with the core protocol's rules (a lone
//! keysym fills both groups; an empty second level repeats the first, or
//! holds the uppercase form of a letter).

use std::collections::BTreeMap;

use super::keysym::{self, xk, Keysym, NO_SYMBOL};
use cup_protocol::Modifier;

/// An X11 keycode.
pub type Keycode = u8;

/// The core keyboard mapping (`GetKeyboardMapping` of every keycode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    min_keycode: Keycode,
    per_keycode: u8,
    keysyms: Vec<Keysym>,
}

impl Keymap {
    /// A mapping from `min_keycode` on, `per_keycode` keysyms per keycode.
    pub fn new(min_keycode: Keycode, per_keycode: u8, keysyms: Vec<Keysym>) -> Keymap {
        Keymap {
            min_keycode,
            per_keycode,
            keysyms,
        }
    }

    /// A mapping from rows given per keycode (shorter rows are padded with
    /// `NoSymbol`); for fixtures.
    pub fn from_rows(min_keycode: Keycode, rows: &[&[Keysym]]) -> Keymap {
        let per = rows.iter().map(|r| r.len()).max().unwrap_or(0).max(1);
        let mut keysyms = Vec::with_capacity(per * rows.len());
        for row in rows {
            keysyms.extend_from_slice(row);
            keysyms.extend(std::iter::repeat_n(NO_SYMBOL, per - row.len()));
        }
        Keymap::new(min_keycode, u8::try_from(per).unwrap_or(u8::MAX), keysyms)
    }

    /// The first keycode.
    pub fn min_keycode(&self) -> Keycode {
        self.min_keycode
    }

    /// Keysyms per keycode.
    pub fn per_keycode(&self) -> u8 {
        self.per_keycode
    }

    /// The raw table.
    pub fn keysyms(&self) -> &[Keysym] {
        &self.keysyms
    }

    /// The keysyms of `keycode` (empty outside the table).
    pub fn row(&self, keycode: Keycode) -> &[Keysym] {
        let per = usize::from(self.per_keycode);
        let Some(index) = usize::from(keycode).checked_sub(usize::from(self.min_keycode)) else {
            return &[];
        };
        self.keysyms
            .get(index * per..(index + 1) * per)
            .unwrap_or(&[])
    }

    /// Every keycode of the table, ascending.
    pub fn keycodes(&self) -> impl Iterator<Item = Keycode> + '_ {
        let per = usize::from(self.per_keycode).max(1);
        let count = self.keysyms.len() / per;
        (0..count).filter_map(move |i| u8::try_from(usize::from(self.min_keycode) + i).ok())
    }

    /// Keycodes without any keysym that no modifier uses, highest first:
    /// the ones a temporary remap may borrow.
    pub fn spare_keycodes(&self, modmap: &Modmap) -> Vec<Keycode> {
        let mut out: Vec<Keycode> = self
            .keycodes()
            .filter(|&kc| self.row(kc).iter().all(|&k| k == NO_SYMBOL) && !modmap.contains(kc))
            .collect();
        out.reverse();
        out
    }

    /// Whether `keycode` carries `keysym` as a lent row does (read back:
    /// the server fills group 2 from the two keysyms written, so the rows
    /// are compared as the core protocol reads them).
    pub fn is_lent_row(&self, keycode: Keycode, keysym: Keysym) -> bool {
        let row = self.row(keycode);
        !row.is_empty()
            && effective_levels(row) == effective_levels(&self.remap_row(keysym))
            && row.iter().skip(6).all(|&k| k == NO_SYMBOL)
    }

    /// The row a remap writes to borrow a keycode for `keysym`: the keysym
    /// on both levels of group 1 (so no case rule turns it into another
    /// keysym), nothing else.
    pub fn remap_row(&self, keysym: Keysym) -> Vec<Keysym> {
        let per = usize::from(self.per_keycode).max(2);
        let mut row = vec![NO_SYMBOL; per];
        row[0] = keysym;
        row[1] = keysym;
        row
    }
}

/// The modifier mapping (`GetModifierMapping`): keycodes of Shift, Lock,
/// Control, Mod1 … Mod5.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Modmap {
    keycodes: [Vec<Keycode>; 8],
}

/// Index of the Lock modifier in a [`Modmap`].
pub const LOCK_INDEX: usize = 1;

impl Modmap {
    /// From the reply's flat list, `per_modifier` keycodes per modifier
    /// (0 = unused slot).
    pub fn new(per_modifier: usize, keycodes: &[Keycode]) -> Modmap {
        let mut out = Modmap::default();
        if per_modifier == 0 {
            return out;
        }
        for (index, chunk) in keycodes.chunks(per_modifier).take(8).enumerate() {
            out.keycodes[index] = chunk.iter().copied().filter(|&k| k != 0).collect();
        }
        out
    }

    /// The keycodes of modifier `index` (0 Shift, 1 Lock, 2 Control,
    /// 3–7 Mod1–Mod5).
    pub fn keycodes(&self, index: usize) -> &[Keycode] {
        self.keycodes.get(index).map_or(&[], Vec::as_slice)
    }

    /// The modifier bits `keycode` sets.
    pub fn mask_of(&self, keycode: Keycode) -> u16 {
        self.keycodes
            .iter()
            .enumerate()
            .filter(|(_, kcs)| kcs.contains(&keycode))
            .fold(0, |mask, (i, _)| mask | (1 << i))
    }

    /// Whether any modifier uses `keycode`.
    pub fn contains(&self, keycode: Keycode) -> bool {
        self.mask_of(keycode) != 0
    }

    /// Every keycode of every modifier except Lock, ascending, once.
    pub fn held_modifier_keycodes(&self) -> Vec<Keycode> {
        let mut out: Vec<Keycode> = self
            .keycodes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != LOCK_INDEX)
            .flat_map(|(_, kcs)| kcs.iter().copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The six columns of a row as the core protocol reads them: group 1
/// levels 1–2, group 2 levels 1–2, group 1 levels 3–4.
pub fn effective_levels(row: &[Keysym]) -> [Keysym; 6] {
    let get = |i: usize| row.get(i).copied().unwrap_or(NO_SYMBOL);
    let head: Vec<Keysym> = (0..4).map(get).collect();
    let used = head
        .iter()
        .rposition(|&k| k != NO_SYMBOL)
        .map_or(0, |i| i + 1);
    let mut g = [get(0), get(1), get(2), get(3)];
    match used {
        1 => g = [g[0], NO_SYMBOL, g[0], NO_SYMBOL],
        2 => g = [g[0], g[1], g[0], g[1]],
        _ => {}
    }
    for group in [0, 2] {
        if g[group + 1] == NO_SYMBOL && g[group] != NO_SYMBOL {
            let (lower, upper) = keysym::keysym_case(g[group]);
            if lower != upper {
                g[group] = lower;
                g[group + 1] = upper;
            } else {
                g[group + 1] = g[group];
            }
        }
    }
    [g[0], g[1], g[2], g[3], get(4), get(5)]
}

/// The level of a key a keysym sits on, which decides the modifiers held
/// while the key is pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// No modifier.
    Base,
    /// Shift.
    Shift,
    /// Level 3 (ISO_Level3_Shift, AltGr).
    Level3,
    /// Level 3 and Shift.
    Level3Shift,
    /// Group 2 (Mode_switch).
    Group2,
    /// Group 2 and Shift.
    Group2Shift,
}

impl Level {
    /// In order of preference (fewest modifiers, most common first).
    pub const PREFERENCE: [Level; 6] = [
        Level::Base,
        Level::Shift,
        Level::Level3,
        Level::Level3Shift,
        Level::Group2,
        Level::Group2Shift,
    ];

    /// The column of [`effective_levels`] this level reads.
    pub const fn column(self) -> usize {
        match self {
            Level::Base => 0,
            Level::Shift => 1,
            Level::Group2 => 2,
            Level::Group2Shift => 3,
            Level::Level3 => 4,
            Level::Level3Shift => 5,
        }
    }

    /// Shift is held.
    pub const fn shift(self) -> bool {
        matches!(self, Level::Shift | Level::Level3Shift | Level::Group2Shift)
    }

    /// ISO_Level3_Shift is held.
    pub const fn level3(self) -> bool {
        matches!(self, Level::Level3 | Level::Level3Shift)
    }

    /// Mode_switch is held.
    pub const fn group2(self) -> bool {
        matches!(self, Level::Group2 | Level::Group2Shift)
    }
}

/// Where a keysym sits on the keymap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// The key.
    pub keycode: Keycode,
    /// Its level.
    pub level: Level,
    /// The key's second level is a keypad keysym: Num Lock selects it, so
    /// with Num Lock on, Shift inverts.
    pub keypad: bool,
}

/// The keys that shift levels, found on a keymap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shifters {
    /// A Shift key.
    pub shift: Option<Keycode>,
    /// An ISO_Level3_Shift key that a modifier uses.
    pub level3: Option<Keycode>,
    /// A Mode_switch key that a modifier uses.
    pub mode_switch: Option<Keycode>,
    /// The Caps Lock key.
    pub caps_lock: Option<Keycode>,
    /// The modifier bit of Num Lock (0 when no modifier has it).
    pub num_lock_mask: u16,
}

impl Shifters {
    /// Finds the shifting keys of `keymap`.
    pub fn find(keymap: &Keymap, modmap: &Modmap) -> Shifters {
        let modifier_key = |keysym: Keysym| {
            keymap
                .keycodes()
                .find(|&kc| effective_levels(keymap.row(kc))[0] == keysym && modmap.contains(kc))
        };
        Shifters {
            shift: modifier_keycode(keymap, modmap, Modifier::Shift),
            level3: modifier_key(xk::ISO_LEVEL3_SHIFT),
            mode_switch: modifier_key(xk::MODE_SWITCH),
            caps_lock: modifier_key(xk::CAPS_LOCK),
            num_lock_mask: modifier_key(xk::NUM_LOCK).map_or(0, |kc| modmap.mask_of(kc)),
        }
    }

    fn has(&self, level: Level) -> bool {
        (!level.shift() || self.shift.is_some())
            && (!level.level3() || self.level3.is_some())
            && (!level.group2() || self.mode_switch.is_some())
    }
}

/// The key of a modifier: the first of its keysyms (left before right)
/// that sits on the first level of a key a modifier uses.
pub fn modifier_keycode(keymap: &Keymap, modmap: &Modmap, modifier: Modifier) -> Option<Keycode> {
    keysym::modifier_keysyms(modifier)
        .iter()
        .find_map(|&keysym| {
            keymap
                .keycodes()
                .find(|&kc| effective_levels(keymap.row(kc))[0] == keysym && modmap.contains(kc))
        })
}

/// Where `keysym` (or a legacy alternative of it) sits on `keymap` with the
/// fewest modifiers, counting only levels whose shifting keys exist;
/// `None` when it needs a remap.
pub fn locate(keymap: &Keymap, shifters: &Shifters, keysym: Keysym) -> Option<Place> {
    if keysym == NO_SYMBOL {
        return None;
    }
    let wanted = |k: Keysym| k == keysym || keysym::alternatives(keysym).contains(&k);
    let rows: Vec<(Keycode, [Keysym; 6])> = keymap
        .keycodes()
        .map(|kc| (kc, effective_levels(keymap.row(kc))))
        .collect();
    Level::PREFERENCE
        .iter()
        .filter(|level| shifters.has(**level))
        .find_map(|&level| {
            rows.iter()
                .find(|(_, levels)| wanted(levels[level.column()]))
                .map(|&(keycode, levels)| Place {
                    keycode,
                    level,
                    keypad: keysym::is_keypad(levels[1]),
                })
        })
}

/// How one keysym is produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Route {
    /// A key of the keymap.
    Key(Place),
    /// A spare keycode to be lent to it ([`super::lease`]); the index is
    /// into the plan's remap list.
    Remap(usize),
}

/// The strokes that type a text, and the keysyms that need a remap.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// One stroke per keysym, in order.
    pub strokes: Vec<(Keysym, Route)>,
    /// Keysyms the keymap lacks, each once, in order of first use.
    pub remap: Vec<Keysym>,
}

impl Plan {
    /// Plans `keysyms` on `keymap`.
    pub fn new(keymap: &Keymap, shifters: &Shifters, keysyms: &[Keysym]) -> Plan {
        let mut plan = Plan::default();
        let mut found: BTreeMap<Keysym, Route> = BTreeMap::new();
        for &keysym in keysyms {
            let route = *found.entry(keysym).or_insert_with(|| {
                locate(keymap, shifters, keysym).map_or_else(
                    || {
                        plan.remap.push(keysym);
                        Route::Remap(plan.remap.len() - 1)
                    },
                    Route::Key,
                )
            });
            plan.strokes.push((keysym, route));
        }
        plan
    }
}

/// Contiguous runs of `(keycode, keysym)` assignments, ascending, so each
/// run is one `ChangeKeyboardMapping`.
pub fn runs(assignments: &[(Keycode, Keysym)]) -> Vec<(Keycode, Vec<Keysym>)> {
    let mut sorted = assignments.to_vec();
    sorted.sort_unstable();
    let mut out: Vec<(Keycode, Vec<Keysym>)> = Vec::new();
    for (keycode, keysym) in sorted {
        match out.last_mut() {
            Some((first, syms)) if usize::from(*first) + syms.len() == usize::from(keycode) => {
                syms.push(keysym);
            }
            _ => out.push((keycode, vec![keysym])),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHIFT_KC: Keycode = 50;

    /// A small XKB-style US keymap as Xvfb reports it (7 keysyms per
    /// keycode), with a level-3 key, Mode_switch, a keypad key and empty
    /// keycodes.
    fn us() -> (Keymap, Modmap) {
        let mut rows: Vec<Vec<Keysym>> = vec![vec![]; 256 - 8];
        let mut set = |kc: usize, syms: &[Keysym]| rows[kc - 8] = syms.to_vec();
        set(24, &[0x71, 0x51, 0x71, 0x51]); // q Q q Q
        set(26, &[0x65, 0x45, 0x65, 0x45, xk::EURO_SIGN, 0x45]); // e E e E EuroSign E
        set(36, &[xk::RETURN, NO_SYMBOL, xk::RETURN]);
        set(38, &[0x61, 0x41, 0x61, 0x41]); // a A
        set(48, &[0x27, 0x22, 0x27, 0x22]); // ' "
        set(SHIFT_KC.into(), &[xk::SHIFT_L, NO_SYMBOL, xk::SHIFT_L]);
        set(37, &[xk::CONTROL_L, NO_SYMBOL, xk::CONTROL_L]);
        set(64, &[xk::ALT_L, xk::META_L, xk::ALT_L, xk::META_L]);
        set(66, &[xk::CAPS_LOCK, NO_SYMBOL, xk::CAPS_LOCK]);
        set(77, &[xk::NUM_LOCK, NO_SYMBOL, xk::NUM_LOCK]);
        set(90, &[0xff9e, xk::KP_0, 0xff9e, xk::KP_0]); // KP_Insert KP_0
        set(92, &[xk::ISO_LEVEL3_SHIFT, NO_SYMBOL, xk::ISO_LEVEL3_SHIFT]);
        set(133, &[xk::SUPER_L, NO_SYMBOL, xk::SUPER_L]);
        set(
            134,
            &[0x6f, 0x4f, 0x0100_03c9, 0x0100_03a9], // o O, group 2: ω Ω
        );
        set(203, &[xk::MODE_SWITCH, NO_SYMBOL, xk::MODE_SWITCH]);
        let refs: Vec<&[Keysym]> = rows.iter().map(Vec::as_slice).collect();
        let keymap = Keymap::from_rows(8, &refs);
        let mut flat = vec![0u8; 8 * 2];
        flat[0] = SHIFT_KC; // Shift
        flat[2] = 66; // Lock
        flat[4] = 37; // Control
        flat[6] = 64; // Mod1
        flat[8] = 77; // Mod2
        flat[12] = 133; // Mod4
        flat[14] = 92; // Mod5
        flat[15] = 203; // Mod5
        (keymap, Modmap::new(2, &flat))
    }

    fn place(keycode: Keycode, level: Level) -> Option<Place> {
        Some(Place {
            keycode,
            level,
            keypad: false,
        })
    }

    #[test]
    fn core_rules_fill_levels() {
        assert_eq!(effective_levels(&[0x61]), [0x61, 0x41, 0x61, 0x41, 0, 0]);
        assert_eq!(
            effective_levels(&[xk::RETURN]),
            [xk::RETURN, xk::RETURN, xk::RETURN, xk::RETURN, 0, 0]
        );
        assert_eq!(
            effective_levels(&[xk::RETURN, NO_SYMBOL, xk::RETURN]),
            [xk::RETURN, xk::RETURN, xk::RETURN, xk::RETURN, 0, 0]
        );
        assert_eq!(
            effective_levels(&[0x31, 0x21]),
            [0x31, 0x21, 0x31, 0x21, 0, 0]
        );
        // Three keysyms: the fourth stays empty, then repeats the third.
        assert_eq!(
            effective_levels(&[0x31, 0x21, 0x32]),
            [0x31, 0x21, 0x32, 0x32, 0, 0]
        );
        // An uppercase letter alone is lowercase on level 1.
        assert_eq!(effective_levels(&[0xc9]), [0xe9, 0xc9, 0xe9, 0xc9, 0, 0]);
        assert_eq!(
            effective_levels(&[0x65, 0x45, 0x65, 0x45, xk::EURO_SIGN, 0x45, 0]),
            [0x65, 0x45, 0x65, 0x45, xk::EURO_SIGN, 0x45]
        );
        assert_eq!(effective_levels(&[]), [0; 6]);
    }

    #[test]
    fn locates_levels_with_fewest_modifiers() {
        let (keymap, modmap) = us();
        let s = Shifters::find(&keymap, &modmap);
        assert_eq!(s.shift, Some(SHIFT_KC));
        assert_eq!(s.level3, Some(92));
        assert_eq!(s.mode_switch, Some(203));
        assert_eq!(s.caps_lock, Some(66));
        assert_eq!(s.num_lock_mask, 1 << 4);
        assert_eq!(locate(&keymap, &s, 0x61), place(38, Level::Base));
        assert_eq!(locate(&keymap, &s, 0x41), place(38, Level::Shift));
        assert_eq!(locate(&keymap, &s, 0x22), place(48, Level::Shift));
        assert_eq!(locate(&keymap, &s, xk::RETURN), place(36, Level::Base));
        assert_eq!(locate(&keymap, &s, xk::EURO_SIGN), place(26, Level::Level3));
        // The Unicode keysym of € finds the legacy EuroSign.
        assert_eq!(locate(&keymap, &s, 0x0100_20ac), place(26, Level::Level3));
        assert_eq!(locate(&keymap, &s, 0x0100_03c9), place(134, Level::Group2));
        assert_eq!(
            locate(&keymap, &s, 0x0100_03a9),
            place(134, Level::Group2Shift)
        );
        assert_eq!(
            locate(&keymap, &s, xk::KP_0),
            Some(Place {
                keycode: 90,
                level: Level::Shift,
                keypad: true
            })
        );
        assert_eq!(locate(&keymap, &s, 0xe9), None);
        assert_eq!(locate(&keymap, &s, 0x0100_65e5), None);
        assert_eq!(locate(&keymap, &s, NO_SYMBOL), None);
    }

    #[test]
    fn levels_without_their_key_need_a_remap() {
        let (keymap, modmap) = us();
        let none = Shifters::default();
        assert_eq!(locate(&keymap, &none, 0x41), None);
        assert_eq!(locate(&keymap, &none, xk::EURO_SIGN), None);
        assert_eq!(locate(&keymap, &none, 0x61), place(38, Level::Base));
        // Without Mode_switch in the modifier map, group 2 is unreachable.
        let s = Shifters {
            mode_switch: None,
            ..Shifters::find(&keymap, &modmap)
        };
        assert_eq!(locate(&keymap, &s, 0x0100_03c9), None);
    }

    #[test]
    fn modifier_keys() {
        let (keymap, modmap) = us();
        assert_eq!(modifier_keycode(&keymap, &modmap, Modifier::Ctrl), Some(37));
        assert_eq!(modifier_keycode(&keymap, &modmap, Modifier::Alt), Some(64));
        assert_eq!(
            modifier_keycode(&keymap, &modmap, Modifier::Shift),
            Some(SHIFT_KC)
        );
        assert_eq!(
            modifier_keycode(&keymap, &modmap, Modifier::Meta),
            Some(133)
        );
        // A Super_L key that no modifier uses is no modifier key.
        let bare = Modmap::new(1, &[SHIFT_KC]);
        assert_eq!(modifier_keycode(&keymap, &bare, Modifier::Meta), None);
        assert_eq!(modmap.mask_of(92), 1 << 7);
        assert_eq!(modmap.mask_of(38), 0);
        assert_eq!(
            modmap.held_modifier_keycodes(),
            vec![37, SHIFT_KC, 64, 77, 92, 133, 203]
        );
        assert_eq!(modmap.keycodes(LOCK_INDEX), &[66]);
    }

    #[test]
    fn spare_keycodes_are_empty_and_free_highest_first() {
        let (keymap, _) = us();
        // A modifier on an empty keycode keeps it.
        let modmap = Modmap::new(1, &[255]);
        let spares = keymap.spare_keycodes(&modmap);
        assert_eq!(spares.first(), Some(&254));
        assert!(!spares.contains(&38) && !spares.contains(&255));
        assert_eq!(spares.last(), Some(&8));
        assert_eq!(keymap.row(254), &[0; 6]);
        assert_eq!(keymap.remap_row(0xe9), vec![0xe9, 0xe9, 0, 0, 0, 0]);
        assert_eq!(keymap.row(7), &[] as &[Keysym]);
        assert_eq!(keymap.row(255).len(), 6);
        assert_eq!(keymap.row(0).len(), 0);
    }

    #[test]
    fn plans_text_with_remaps_once_per_keysym() {
        let (keymap, modmap) = us();
        let s = Shifters::find(&keymap, &modmap);
        let text = [0x61, 0xe9, 0x41, 0x0100_65e5, 0xe9, xk::RETURN];
        let plan = Plan::new(&keymap, &s, &text);
        assert_eq!(plan.remap, vec![0xe9, 0x0100_65e5]);
        let routes: Vec<Route> = plan.strokes.iter().map(|s| s.1).collect();
        assert_eq!(
            routes,
            vec![
                Route::Key(Place {
                    keycode: 38,
                    level: Level::Base,
                    keypad: false
                }),
                Route::Remap(0),
                Route::Key(Place {
                    keycode: 38,
                    level: Level::Shift,
                    keypad: false
                }),
                Route::Remap(1),
                Route::Remap(0),
                Route::Key(Place {
                    keycode: 36,
                    level: Level::Base,
                    keypad: false
                }),
            ]
        );
        assert_eq!(Plan::new(&keymap, &s, &[]), Plan::default());
    }

    #[test]
    fn runs_group_contiguous_keycodes() {
        assert_eq!(
            runs(&[(254, 2), (255, 1), (253, 3), (250, 4)]),
            vec![(250, vec![4]), (253, vec![3, 2, 1])]
        );
        assert!(runs(&[]).is_empty());
    }
}
