//! Keycodes lent to keysyms the keymap lacks (pure: the planning and the
//! record, no X11 calls).
//!
//! A keysym that no key of the layout produces (`ï` on a US keymap, `東`,
//! an emoji, a combining mark) is typed by writing it onto an empty
//! ("spare") keycode. A client translates a key event with the keymap it
//! has fetched when it handles the event, so the binding must hold from
//! before the client notices the change until after it has read the last
//! event that uses it. cup therefore does not take a binding back after the
//! keys: it stays, as a *lease* recorded on the root window
//! ([`PROPERTY`]) with the time it was last used, and:
//!
//! * a later call (of any cup process on the display) that needs the same
//!   keysym finds it on the keymap and changes nothing;
//! * a lease is taken back (its row emptied) or lent to another keysym only
//!   once [`InputOptions::lease_hold`](super::InputOptions::lease_hold) has
//!   passed since its last use, lazily, when a call changes the keymap
//!   anyway — never while an event that uses it may still be unread;
//! * every keysym a call needs is bound in one change, on a contiguous
//!   block of keycodes where one exists (one `MappingNotify`).

use super::keymap::{self, Keycode, Keymap, Modmap};
use super::keysym::{Keysym, NO_SYMBOL};

/// The root window property holding the leases: `CARDINAL`/32, the words
/// of [`Leases::encode`].
pub const PROPERTY: &str = "_CUP_KEY_LEASES";

/// Version word at the start of the property.
const VERSION: u32 = 1;

/// One lent keycode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease {
    /// The keycode, empty before the lease.
    pub keycode: Keycode,
    /// The keysym written on it.
    pub keysym: Keysym,
    /// When a key event last used it (milliseconds since the Unix epoch).
    pub used_ms: u64,
}

/// The leases of a display.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Leases {
    list: Vec<Lease>,
}

impl Leases {
    /// Reads the property's words; anything not of this version (or cut
    /// short) reads as no leases.
    pub fn decode(words: &[u32]) -> Leases {
        let mut list = Vec::new();
        if words.first() != Some(&VERSION) {
            return Leases { list };
        }
        for chunk in words[1..].chunks_exact(4) {
            let Ok(keycode) = Keycode::try_from(chunk[0]) else {
                continue;
            };
            list.push(Lease {
                keycode,
                keysym: chunk[1],
                used_ms: (u64::from(chunk[2]) << 32) | u64::from(chunk[3]),
            });
        }
        list.sort_by_key(|l| l.keycode);
        list.dedup_by_key(|l| l.keycode);
        Leases { list }
    }

    /// The property's words.
    pub fn encode(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(1 + 4 * self.list.len());
        out.push(VERSION);
        for l in &self.list {
            out.extend([
                u32::from(l.keycode),
                l.keysym,
                u32::try_from(l.used_ms >> 32).unwrap_or(u32::MAX),
                u32::try_from(l.used_ms & 0xffff_ffff).unwrap_or(u32::MAX),
            ]);
        }
        out
    }

    /// Drops leases whose keycode no longer carries the lent row (the
    /// keymap was replaced, e.g. by `setxkbmap`): they are not cup's to
    /// take back.
    pub fn keep_valid(&mut self, keymap: &Keymap) {
        self.list
            .retain(|l| keymap.is_lent_row(l.keycode, l.keysym));
    }

    /// The lease of `keycode`.
    pub fn get(&self, keycode: Keycode) -> Option<&Lease> {
        self.list.iter().find(|l| l.keycode == keycode)
    }

    /// Every lease, by keycode.
    pub fn iter(&self) -> impl Iterator<Item = &Lease> {
        self.list.iter()
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Notes that the leased `keycodes` were used at `now_ms`; returns
    /// whether any of them is a lease.
    pub fn touch(&mut self, keycodes: &[Keycode], now_ms: u64) -> bool {
        let mut any = false;
        for l in &mut self.list {
            if keycodes.contains(&l.keycode) {
                l.used_ms = l.used_ms.max(now_ms);
                any = true;
            }
        }
        any
    }

    /// Applies a change: its bindings become leases used at `now_ms`, its
    /// restored keycodes stop being leases.
    pub fn apply(&mut self, change: &Change, now_ms: u64) {
        self.list
            .retain(|l| !change.restore.contains(&l.keycode) && !change.binds(l.keycode));
        self.list
            .extend(change.bind.iter().map(|&(keycode, keysym)| Lease {
                keycode,
                keysym,
                used_ms: now_ms,
            }));
        self.list.sort_by_key(|l| l.keycode);
    }
}

/// One change of the keymap: keycodes to write a keysym onto, and leased
/// keycodes to empty again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Change {
    /// (keycode, keysym), ascending by keycode.
    pub bind: Vec<(Keycode, Keysym)>,
    /// Keycodes whose row goes back to empty, ascending.
    pub restore: Vec<Keycode>,
}

impl Change {
    /// Whether nothing changes.
    pub fn is_empty(&self) -> bool {
        self.bind.is_empty() && self.restore.is_empty()
    }

    /// Whether `keycode` gets a keysym.
    pub fn binds(&self, keycode: Keycode) -> bool {
        self.bind.iter().any(|&(kc, _)| kc == keycode)
    }

    /// The rows to write, as runs of consecutive keycodes: (first keycode,
    /// its keysyms per keycode times the run's length); a restored keycode
    /// gets the empty row. `keymap` gives the row width.
    pub fn runs(&self, keymap: &Keymap) -> Vec<(Keycode, Vec<Keysym>)> {
        let rows: Vec<(Keycode, Keysym)> = self
            .bind
            .iter()
            .copied()
            .chain(self.restore.iter().map(|&kc| (kc, NO_SYMBOL)))
            .collect();
        keymap::runs(&rows)
            .into_iter()
            .map(|(first, keysyms)| {
                let rows = keysyms.iter().flat_map(|&k| keymap.remap_row(k)).collect();
                (first, rows)
            })
            .collect()
    }
}

/// What a call asks of the keymap.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    /// Keysyms to bind, in the order they are first typed.
    pub wanted: &'a [Keysym],
    /// Keycodes this call has used or will use: never taken.
    pub in_use: &'a [Keycode],
    /// Leased keycodes whose events are known to be read (the client
    /// answered a ping after them): may be taken at once.
    pub read: &'a [Keycode],
    /// Now, in milliseconds since the Unix epoch.
    pub now_ms: u64,
    /// How long after its last use a lease may be taken.
    pub hold_ms: u64,
    /// When empty keycodes and leases past their hold are too few: how
    /// long after its last use a lease may be taken all the same (the
    /// oldest first).
    pub short_hold_ms: u64,
}

/// Plans the change that binds as many of `ask.wanted` as keycodes allow
/// (the first ones first): empty keycodes and leases past their hold (or
/// known read), a contiguous block where one is long enough, the highest
/// first; when those are too few, also leases past the short hold, the
/// least recently used first. Leases past their hold that are not reused
/// are restored in the same change.
pub fn plan(keymap: &Keymap, modmap: &Modmap, leases: &Leases, ask: Ask<'_>) -> Change {
    let takable = |l: &Lease| {
        !ask.in_use.contains(&l.keycode)
            && (ask.read.contains(&l.keycode)
                || l.used_ms.saturating_add(ask.hold_ms) <= ask.now_ms)
    };
    let mut candidates: Vec<Keycode> = keymap
        .spare_keycodes(modmap)
        .into_iter()
        .filter(|kc| !ask.in_use.contains(kc))
        .chain(leases.iter().filter(|l| takable(l)).map(|l| l.keycode))
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    if candidates.len() < ask.wanted.len() {
        let mut older: Vec<&Lease> = leases
            .iter()
            .filter(|l| {
                !ask.in_use.contains(&l.keycode)
                    && !candidates.contains(&l.keycode)
                    && l.used_ms.saturating_add(ask.short_hold_ms) <= ask.now_ms
            })
            .collect();
        older.sort_by_key(|l| (l.used_ms, l.keycode));
        let short = ask.wanted.len() - candidates.len();
        candidates.extend(older.iter().take(short).map(|l| l.keycode));
        candidates.sort_unstable();
    }
    let n = ask.wanted.len().min(candidates.len());
    let chosen = pick_block(&candidates, n);
    let bind: Vec<(Keycode, Keysym)> = chosen
        .iter()
        .copied()
        .zip(ask.wanted.iter().copied())
        .collect();
    let restore: Vec<Keycode> = leases
        .iter()
        .filter(|l| takable(l) && !chosen.contains(&l.keycode))
        .map(|l| l.keycode)
        .collect();
    let mut change = Change { bind, restore };
    change.bind.sort_unstable();
    change
}

/// `n` keycodes of `candidates` (ascending) in as few runs of consecutive
/// keycodes as possible: the highest run long enough, else the longest
/// runs; ascending.
pub fn pick_block(candidates: &[Keycode], n: usize) -> Vec<Keycode> {
    if n == 0 {
        return Vec::new();
    }
    let mut runs: Vec<Vec<Keycode>> = Vec::new();
    for &kc in candidates {
        match runs.last_mut() {
            Some(run)
                if run
                    .last()
                    .is_some_and(|&l| u16::from(l) + 1 == u16::from(kc)) =>
            {
                run.push(kc);
            }
            _ => runs.push(vec![kc]),
        }
    }
    if let Some(run) = runs.iter().rev().find(|r| r.len() >= n) {
        return run[run.len() - n..].to_vec();
    }
    // Longest first; among equals the highest.
    runs.sort_by(|a, b| b.len().cmp(&a.len()).then(b[0].cmp(&a[0])));
    let mut out: Vec<Keycode> = Vec::with_capacity(n);
    for run in runs {
        let take = (n - out.len()).min(run.len());
        out.extend_from_slice(&run[run.len() - take..]);
        if out.len() == n {
            break;
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keycodes 8–20: 8–10 and 15 used by the layout, 11–14 and 16–20
    /// empty; 20 is a modifier's.
    fn keymap() -> (Keymap, Modmap) {
        let mut rows: Vec<Vec<Keysym>> = vec![vec![]; 13];
        for kc in [8usize, 9, 10, 15] {
            rows[kc - 8] = vec![0x61 + kc as u32, 0x41 + kc as u32];
        }
        let refs: Vec<&[Keysym]> = rows.iter().map(Vec::as_slice).collect();
        let mut flat = vec![0u8; 8];
        flat[7] = 20;
        (Keymap::from_rows(8, &refs), Modmap::new(1, &flat))
    }

    fn ask<'a>(wanted: &'a [Keysym], in_use: &'a [Keycode], now_ms: u64) -> Ask<'a> {
        Ask {
            wanted,
            in_use,
            read: &[],
            now_ms,
            hold_ms: 5_000,
            short_hold_ms: 500,
        }
    }

    #[test]
    fn the_record_reads_back_and_drops_what_it_cannot_read() {
        let mut leases = Leases::default();
        leases.apply(
            &Change {
                bind: vec![(200, 0xef), (201, 0x0100_6771)],
                restore: vec![],
            },
            0x1_2345_6789,
        );
        let words = leases.encode();
        assert_eq!(words[0], VERSION);
        assert_eq!(Leases::decode(&words), leases);
        assert!(Leases::decode(&[]).is_empty());
        assert!(Leases::decode(&[99, 200, 0xef, 0, 0]).is_empty());
        // A cut-off lease and an impossible keycode are left out.
        assert_eq!(Leases::decode(&[VERSION, 300, 0xef, 0, 0, 200]).len(), 0);
    }

    #[test]
    fn only_rows_that_still_carry_the_lent_keysym_are_leases() {
        let (keymap, _) = keymap();
        let mut leases = Leases::decode(&[VERSION, 11, 0xef, 0, 1, 9, 0x6a, 0, 1]);
        // Keycode 11 is empty (someone reset it), 9 holds the layout's row.
        leases.keep_valid(&keymap);
        assert!(leases.is_empty());
        // As written, and as the server reads it back (group 2 filled in).
        for row in [&[0xef, 0xef][..], &[0xef, 0xef, 0xef, 0xef, 0, 0, 0]] {
            let lent = Keymap::from_rows(8, &[&[], &[], &[], row]);
            let mut leases = Leases::decode(&[VERSION, 11, 0xef, 0, 1]);
            leases.keep_valid(&lent);
            assert_eq!(leases.len(), 1, "{row:x?}");
        }
        // Another keysym on the keycode, or more on it, is not the lease.
        for row in [
            &[0xe9, 0xe9][..],
            &[0xef, 0xcf],
            &[0xef, 0xef, 0xef, 0xef, 0x20ac],
        ] {
            let other = Keymap::from_rows(8, &[&[], &[], &[], row]);
            let mut leases = Leases::decode(&[VERSION, 11, 0xef, 0, 1]);
            leases.keep_valid(&other);
            assert!(leases.is_empty(), "{row:x?}");
        }
    }

    #[test]
    fn a_call_binds_its_keysyms_in_one_block_highest_first() {
        let (keymap, modmap) = keymap();
        let change = plan(
            &keymap,
            &modmap,
            &Leases::default(),
            ask(&[0xef, 0xe9, 0xfc], &[], 1_000),
        );
        // 16–19 is the highest run of three (20 is a modifier's).
        assert_eq!(change.bind, vec![(17, 0xef), (18, 0xe9), (19, 0xfc)]);
        assert!(change.restore.is_empty());
        assert_eq!(change.runs(&keymap).len(), 1);
        // Five: no run is long enough; the longest runs (16–19, then 14).
        let change = plan(
            &keymap,
            &modmap,
            &Leases::default(),
            ask(&[1, 2, 3, 4, 5], &[], 1_000),
        );
        let kcs: Vec<Keycode> = change.bind.iter().map(|b| b.0).collect();
        assert_eq!(kcs, vec![14, 16, 17, 18, 19]);
        assert_eq!(change.runs(&keymap).len(), 2);
    }

    #[test]
    fn a_lease_is_taken_back_or_lent_again_only_after_its_hold() {
        let (keymap, modmap) = keymap();
        // 11–14 and 16–19 are lent (the rows say so after the change).
        let mut leases = Leases::default();
        let all: Vec<(Keycode, Keysym)> = [11u8, 12, 13, 14, 16, 17, 18, 19]
            .iter()
            .map(|&kc| (kc, 0x100 + u32::from(kc)))
            .collect();
        let change = Change {
            bind: all.clone(),
            restore: vec![],
        };
        leases.apply(&change, 10_000);
        let mut rows: Vec<Vec<Keysym>> = (8..=20).map(|kc| keymap.row(kc).to_vec()).collect();
        for &(kc, ks) in &all {
            rows[usize::from(kc) - 8] = keymap.remap_row(ks);
        }
        let refs: Vec<&[Keysym]> = rows.iter().map(Vec::as_slice).collect();
        let lent = Keymap::from_rows(8, &refs);
        leases.keep_valid(&lent);
        assert_eq!(leases.len(), 8);
        // Within the short hold: nothing is free, nothing is restored.
        let early = plan(&lent, &modmap, &leases, ask(&[0xef], &[], 10_300));
        assert!(early.is_empty(), "{early:?}");
        // Within the hold, past the short one: the lowest of the equally
        // old is lent again; none is restored.
        let short = plan(&lent, &modmap, &leases, ask(&[0xef], &[], 12_000));
        assert_eq!(short.bind, vec![(11, 0xef)], "{short:?}");
        assert!(short.restore.is_empty());
        // Past the hold: one is lent again, the others are restored in the
        // same change, except those the call uses.
        let late = plan(&lent, &modmap, &leases, ask(&[0xef], &[19], 20_000));
        assert_eq!(late.bind, vec![(18, 0xef)]);
        assert_eq!(late.restore, vec![11, 12, 13, 14, 16, 17]);
        // Short of keycodes: leases past the short hold are lent again,
        // the least recently used first; younger ones never.
        let mut aged = leases.clone();
        assert!(aged.touch(&[11, 12, 13, 14, 16, 17], 11_000));
        let short = plan(&lent, &modmap, &aged, ask(&[1, 2, 3], &[], 11_400));
        let kcs: Vec<Keycode> = short.bind.iter().map(|b| b.0).collect();
        assert_eq!(kcs, vec![18, 19], "only the two used at 10 s: {short:?}");
        assert!(short.restore.is_empty());
        let none = plan(&lent, &modmap, &aged, ask(&[1], &[], 11_400));
        assert_eq!(none.bind, vec![(18, 1)], "{none:?}");
        assert!(plan(&lent, &modmap, &aged, ask(&[1], &[18, 19], 11_400)).is_empty());
        // Known read (a ping answered after them): takable at once.
        let read = plan(
            &lent,
            &modmap,
            &leases,
            Ask {
                read: &[12],
                ..ask(&[0xef], &[], 12_000)
            },
        );
        assert_eq!(read.bind, vec![(12, 0xef)]);
        assert!(read.restore.is_empty());
        // Applying the change updates the record.
        leases.apply(&late, 20_000);
        assert_eq!(leases.len(), 2);
        assert_eq!(leases.get(18).map(|l| l.keysym), Some(0xef));
        assert!(leases.touch(&[19], 25_000));
        assert_eq!(leases.get(19).map(|l| l.used_ms), Some(25_000));
        assert!(!leases.touch(&[8], 25_000));
    }

    #[test]
    fn runs_join_binds_and_restores_of_consecutive_keycodes() {
        let (keymap, _) = keymap();
        let change = Change {
            bind: vec![(12, 0xef), (13, 0xe9)],
            restore: vec![14, 17],
        };
        let runs = change.runs(&keymap);
        let width = keymap.remap_row(0).len();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].0, 12);
        assert_eq!(runs[0].1.len(), 3 * width);
        assert_eq!(runs[0].1[0], 0xef);
        assert_eq!(runs[0].1[2 * width], NO_SYMBOL);
        assert_eq!(runs[1], (17, vec![NO_SYMBOL; width]));
    }

    #[test]
    fn picks_are_exact_at_the_edges() {
        assert!(pick_block(&[1, 2, 3], 0).is_empty());
        assert_eq!(pick_block(&[1, 2, 3, 7, 8], 2), vec![7, 8]);
        assert_eq!(pick_block(&[1, 2, 3, 7, 8], 3), vec![1, 2, 3]);
        assert_eq!(pick_block(&[1, 2, 3, 7, 8], 5), vec![1, 2, 3, 7, 8]);
        assert_eq!(pick_block(&[250, 251, 254, 255], 2), vec![254, 255]);
    }
}
