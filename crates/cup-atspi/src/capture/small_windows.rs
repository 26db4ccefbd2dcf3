//! A small window of a large app is walked, not read from the app's
//! `Cache.GetItems`.
//!
//! `GetItems` answers every accessible the app's bridge holds, whatever
//! window is captured: LibreOffice's 1,796-1,961 items (1,660 of Writer's
//! are the items of its menus, every one created at start) take it 60-110
//! ms, and a capture of its 14-node Tip of the Day dialog paid all of it
//! (2026-12-01: 61-113 ms a capture). Walking that window level by level
//! asks each node for its states and properties (its role and interfaces
//! are kept across captures for GTK: `Statics`) and each parent for its
//! children: a few calls a node against one `GetItems` of the whole app.
//!
//! So once a `GetItems` has shown how many of the app's items are below a
//! window, the window is walked from then on when they are fewer than one
//! in [`WALK_BELOW`], and the window listing stops reading the app's
//! `GetItems` ahead while only such windows of it are captured. A window
//! met for the first time is read from `GetItems`, as before.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::atspi_calls::ObjRef;

use super::cache_index::CacheIndex;

/// A window is walked when its items are fewer than one in `WALK_BELOW`
/// of its app's.
pub const WALK_BELOW: usize = 8;

/// Windows remembered; past it they are all forgotten (windows come and
/// go, each dialog a new object).
const MAX_WINDOWS: usize = 256;

/// Whether walking a window of `window_items` beats reading an app of
/// `app_items` whole.
pub fn walk_cheaper(window_items: usize, app_items: usize) -> bool {
    window_items > 0 && window_items.saturating_mul(WALK_BELOW) < app_items
}

/// Each window's items and its app's, at the last `GetItems` that listed
/// it.
#[derive(Debug, Default)]
pub struct Sizes {
    windows: Mutex<HashMap<ObjRef, (usize, usize)>>,
}

impl Sizes {
    /// Learns `frame`'s size from an app's `cache`.
    pub fn learn(&self, frame: &ObjRef, cache: &CacheIndex) {
        let below = cache.count_below(frame);
        if let Ok(mut w) = self.windows.lock() {
            if w.len() >= MAX_WINDOWS && !w.contains_key(frame) {
                w.clear();
            }
            w.insert(frame.clone(), (below, cache.items.len()));
        }
    }

    /// Whether `frame` is known to be small for its app: walk it.
    pub fn walk(&self, frame: &ObjRef) -> bool {
        self.windows
            .lock()
            .ok()
            .and_then(|w| w.get(frame).copied())
            .is_some_and(|(below, all)| walk_cheaper(below, all))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::cache_index::tests::entry;

    /// An app with a main window of `main` items and a dialog of 3.
    fn app(main: usize) -> CacheIndex {
        let mut items = vec![
            entry("/main", "/app", 0, 0),
            entry("/dialog", "/app", 1, 0),
            entry("/d1", "/dialog", 0, 0),
            entry("/d2", "/dialog", 1, 0),
        ];
        for i in 1..main {
            let index = i32::try_from(i).unwrap_or(i32::MAX);
            items.push(entry(&format!("/m{i}"), "/main", index, 0));
        }
        CacheIndex::new(items)
    }

    #[test]
    fn walking_wins_only_for_a_small_share() {
        assert!(walk_cheaper(14, 1_796));
        assert!(!walk_cheaper(1_900, 1_961));
        assert!(!walk_cheaper(100, 800), "exactly one in eight");
        assert!(walk_cheaper(99, 800));
        assert!(!walk_cheaper(0, 800), "a window the cache does not list");
    }

    #[test]
    fn a_small_window_is_walked_once_its_size_is_known() {
        let sizes = Sizes::default();
        let dialog = ObjRef::new(":1.3", "/dialog");
        let main = ObjRef::new(":1.3", "/main");
        assert!(!sizes.walk(&dialog), "not known yet");
        let cache = app(100);
        sizes.learn(&dialog, &cache);
        sizes.learn(&main, &cache);
        assert!(sizes.walk(&dialog), "3 of 103 items");
        assert!(!sizes.walk(&main), "100 of 103 items");
        // The app's windows change: the dialog is now most of it.
        let small = app(2);
        sizes.learn(&dialog, &small);
        assert!(!sizes.walk(&dialog));
    }
}
