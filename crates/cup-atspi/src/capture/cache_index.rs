//! One application's `Cache.GetItems` answer, indexed by object and by
//! parent, and the answers read ahead of a capture ([`ReadAhead`]).

use std::collections::{HashMap, HashSet};

use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use crate::atspi_calls::{CacheEntry, ObjRef};
use crate::facts::Extents;

/// Cached structure of one application, by object.
///
/// Built on every capture of a GTK or LibreOffice app (5,000 items for a
/// GTK 4 folder view): children are kept by item index and looked up by
/// index, so a node's children cost no hashing, and objects are hashed
/// with FxHash (an object's key is the app's bus name and a path it gave,
/// not input an attacker chooses to collide).
#[derive(Debug, Default)]
pub struct CacheIndex {
    pub(super) items: Vec<CacheEntry>,
    pub(super) by_obj: FxHashMap<ObjRef, usize>,
    /// Cached children of each item, by item index, in index order.
    kids: Vec<Vec<usize>>,
    /// Cached children of parents the cache does not list (the app's
    /// root, when it is not an item itself), in index order.
    orphans: FxHashMap<ObjRef, Vec<usize>>,
}

impl CacheIndex {
    /// Indexes the items of one `GetItems` answer.
    pub fn new(items: Vec<CacheEntry>) -> Self {
        let mut by_obj =
            FxHashMap::with_capacity_and_hasher(items.len(), rustc_hash::FxBuildHasher);
        for (i, e) in items.iter().enumerate() {
            by_obj.insert(e.obj.clone(), i);
        }
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
        let mut orphans: FxHashMap<ObjRef, Vec<usize>> = FxHashMap::default();
        for (i, e) in items.iter().enumerate() {
            match by_obj.get(&e.parent) {
                Some(&p) => kids[p].push(i),
                None => orphans.entry(e.parent.clone()).or_default().push(i),
            }
        }
        let order = |list: &mut Vec<usize>| list.sort_unstable_by_key(|&k| (items[k].index, k));
        kids.iter_mut().for_each(order);
        orphans.values_mut().for_each(order);
        CacheIndex {
            items,
            by_obj,
            kids,
            orphans,
        }
    }

    /// `true` when the cache lists `root` and, below it, at least every
    /// child of every node: a node may list more children than it counts
    /// (GTK 4.8 keeps a replaced widget's accessible in its cache beside
    /// the new one, at the same index), which the capture settles with one
    /// `GetChildren` of that node; but no node misses a child, which only
    /// a walk of the tree would create. A node `left_bare` allows that lists
    /// none of its children counts as whole: its subtree is left uncreated
    /// on purpose (GTK 4's rows off screen: `gtk4_rows`).
    pub fn lists_every_child(
        &self,
        root: &ObjRef,
        left_bare: impl Fn(&CacheEntry) -> bool,
    ) -> bool {
        self.by_obj.contains_key(root)
            && self.depth_first(root, |i, listed| {
                if listed.is_empty() && left_bare(&self.items[i]) {
                    return Some(false);
                }
                let count = usize::try_from(self.items[i].child_count).ok()?;
                (listed.len() >= count).then_some(true)
            })
    }

    /// The items below `root`, in tree order, that `is_row` takes, that
    /// count children and list none (their subtrees were never created).
    pub fn unrealized(&self, root: &ObjRef, is_row: impl Fn(&CacheEntry) -> bool) -> Vec<usize> {
        let mut out = Vec::new();
        self.depth_first(root, |i, listed| {
            if listed.is_empty() && self.items[i].child_count > 0 && is_row(&self.items[i]) {
                out.push(i);
            }
            Some(true)
        });
        out
    }

    /// Visits the items below `root` (inclusive) in tree order, each once
    /// (an item's parent may list it again in a broken answer): `visit`
    /// gets an item and its listed children, and says whether to go below
    /// it, or `None` to stop. `false` when stopped.
    fn depth_first(
        &self,
        root: &ObjRef,
        mut visit: impl FnMut(usize, &[usize]) -> Option<bool>,
    ) -> bool {
        let Some(&root) = self.by_obj.get(root) else {
            return true;
        };
        let mut stack = vec![root];
        let mut seen = vec![false; self.items.len()];
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            let listed = &self.kids[i];
            match visit(i, listed) {
                None => return false,
                Some(true) => stack.extend(listed.iter().rev()),
                Some(false) => {}
            }
        }
        true
    }

    /// How many items the cache lists below `root`, `root` included (0
    /// when it does not list `root`).
    pub(super) fn count_below(&self, root: &ObjRef) -> usize {
        let mut n = 0;
        self.depth_first(root, |_, _| {
            n += 1;
            Some(true)
        });
        n
    }

    /// The cached children of `obj` when the cache lists all of them.
    pub(super) fn complete_children(&self, obj: &ObjRef) -> Option<&[usize]> {
        let i = *self.by_obj.get(obj)?;
        let listed = self.kids[i].as_slice();
        (usize::try_from(self.items[i].child_count).ok()? == listed.len()).then_some(listed)
    }

    /// The children of `obj` the cache lists, in index order (all of them
    /// or not).
    pub(super) fn listed_children(&self, obj: &ObjRef) -> &[usize] {
        match self.by_obj.get(obj) {
            Some(&i) => &self.kids[i],
            None => self.orphans.get(obj).map_or(&[][..], Vec::as_slice),
        }
    }

    /// The entries of `obj`'s children, in order, when the cache lists all
    /// of them (an application's frames: `obj` is its root).
    pub fn children(&self, obj: &ObjRef) -> Option<Vec<&CacheEntry>> {
        self.complete_children(obj)
            .map(|kids| kids.iter().map(|&i| &self.items[i]).collect())
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the cache listed nothing.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// Apps whose shown frames [`ReadAhead`] remembers.
const MAX_APPS: usize = 256;

/// How long a structure read ahead stays usable: it serves the capture of
/// the snapshot whose window listing read it, never a later one.
const AHEAD_MAX_AGE: Duration = Duration::from_millis(1500);

/// The structure of the apps a snapshot is about to capture, read while it
/// lists the windows.
///
/// A snapshot lists the windows (the registry, X11, each app's frames)
/// before it knows which one to capture, then reads the chosen app's
/// `Cache.GetItems`. The app that was captured last is most likely captured
/// again, so the listing asks it for `GetItems` instead of its frames: the
/// answer lists the frames too (the app's root and its children, with role,
/// states and name), and the capture starts with the structure in hand.
/// Only apps whose cache lists their whole tree in one cheap answer are
/// asked (GTK 2 and 3).
#[derive(Debug, Default)]
pub struct ReadAhead {
    /// Bus names of the apps the last capture read.
    captured: Mutex<HashSet<String>>,
    /// Indexes read by the listing in progress (or just done).
    read: Mutex<HashMap<String, (Instant, Arc<CacheIndex>)>>,
    /// Extents of the frames read by that listing (screen coordinates).
    frames: Mutex<HashMap<ObjRef, (Instant, Extents)>>,
    /// The frames each app showed at the last listing.
    shown: Mutex<HashMap<String, Vec<ObjRef>>>,
}

/// What a listing read ahead for one capture.
#[derive(Debug, Default)]
pub struct ReadAheadFor {
    /// Structure of each app, by bus name.
    pub indexes: HashMap<String, Arc<CacheIndex>>,
    /// Screen extents of its frames (a GTK 3 frame's take several X
    /// round trips: read once per snapshot).
    pub frame_extents: HashMap<ObjRef, Extents>,
}

impl ReadAhead {
    /// Whether the listing should read the structure of the app on `bus`.
    pub fn wanted(&self, bus: &str) -> bool {
        self.captured.lock().is_ok_and(|c| c.contains(bus))
    }

    /// Whether the last capture read any app, all of them satisfying
    /// `test`.
    pub fn captured_all(&self, test: impl Fn(&str) -> bool) -> bool {
        self.captured
            .lock()
            .is_ok_and(|c| !c.is_empty() && c.iter().all(|bus| test(bus)))
    }

    /// Keeps an index the listing read.
    pub fn put(&self, bus: &str, index: CacheIndex) {
        if let Ok(mut read) = self.read.lock() {
            read.insert(bus.to_owned(), (Instant::now(), Arc::new(index)));
        }
    }

    /// Remembers the frames the app on `bus` shows (at most
    /// `MAX_APPS` apps are remembered: apps come and go).
    pub fn remember_frames(&self, bus: &str, frames: Vec<ObjRef>) {
        if let Ok(mut shown) = self.shown.lock() {
            if shown.len() >= MAX_APPS && !shown.contains_key(bus) {
                shown.clear();
            }
            shown.insert(bus.to_owned(), frames);
        }
    }

    /// The frames the app on `bus` showed at the last listing.
    pub fn last_frames(&self, bus: &str) -> Vec<ObjRef> {
        self.shown
            .lock()
            .ok()
            .and_then(|s| s.get(bus).cloned())
            .unwrap_or_default()
    }

    /// Keeps the screen extents of a frame the listing read from a cache.
    pub fn put_frame(&self, frame: &ObjRef, extents: Extents) {
        if let Ok(mut frames) = self.frames.lock() {
            frames.insert(frame.clone(), (Instant::now(), extents));
        }
    }

    /// Forgets what an earlier listing read.
    pub fn clear(&self) {
        if let Ok(mut read) = self.read.lock() {
            read.clear();
        }
        if let Ok(mut frames) = self.frames.lock() {
            frames.clear();
        }
    }

    /// The app on `bus` need not be read ahead by the next listing (its
    /// window was walked: see `small_windows`).
    pub fn forget(&self, bus: &str) {
        if let Ok(mut c) = self.captured.lock() {
            c.remove(bus);
        }
    }

    /// Takes what was read fresh for the apps on `buses` (it serves one
    /// capture) and remembers `buses` as the apps captured last.
    pub fn take(&self, buses: &HashSet<String>) -> ReadAheadFor {
        if let Ok(mut c) = self.captured.lock() {
            c.clone_from(buses);
        }
        let fresh = |at: &Instant| at.elapsed() < AHEAD_MAX_AGE;
        let indexes = self
            .read
            .lock()
            .map(|mut read| {
                read.drain()
                    .filter(|(bus, (at, _))| buses.contains(bus) && fresh(at))
                    .map(|(bus, (_, index))| (bus, index))
                    .collect()
            })
            .unwrap_or_default();
        let frame_extents = self
            .frames
            .lock()
            .map(|mut frames| {
                frames
                    .drain()
                    .filter(|(obj, (at, _))| buses.contains(&obj.bus) && fresh(at))
                    .map(|(obj, (_, e))| (obj, e))
                    .collect()
            })
            .unwrap_or_default();
        ReadAheadFor {
            indexes,
            frame_extents,
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use atspi::{InterfaceSet, Role, StateSet};

    /// A frame `path` on bus `:1.3`, named as its path (the capture's tests
    /// set role and name where they matter).
    pub(in crate::capture) fn entry(
        path: &str,
        parent: &str,
        index: i32,
        child_count: i32,
    ) -> CacheEntry {
        CacheEntry {
            obj: ObjRef::new(":1.3", path),
            parent: ObjRef::new(":1.3", parent),
            index,
            child_count,
            interfaces: InterfaceSet::empty(),
            name: path.to_owned(),
            role: Role::Frame,
            description: String::new(),
            states: StateSet::empty(),
        }
    }

    const ROOT: &str = "/org/a11y/atspi/accessible/root";

    #[test]
    fn children_in_index_order_only_when_complete() {
        let index = CacheIndex::new(vec![
            entry("/b", ROOT, 1, 0),
            entry(ROOT, "/null", -1, 2),
            entry("/a", ROOT, 0, 0),
        ]);
        let root = ObjRef::new(":1.3", ROOT);
        let names: Vec<&str> = index
            .children(&root)
            .expect("complete")
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(names, ["/a", "/b"]);
        assert!(index.lists_every_child(&root, |_| false));

        let partial = CacheIndex::new(vec![entry(ROOT, "/null", -1, 2), entry("/a", ROOT, 0, 0)]);
        assert!(partial.children(&root).is_none());
        assert!(!partial.lists_every_child(&root, |_| false));
    }

    /// GTK 4.8's cache in Nautilus 43 (500 files): a filler counting 3
    /// children listed 4, a panel and a label both at index 0. The cache
    /// misses nothing a walk would create (no realization), though the
    /// node's children are not known from it alone.
    #[test]
    fn a_stale_extra_child_is_not_a_missing_one() {
        let index = CacheIndex::new(vec![
            entry(ROOT, "/null", -1, 1),
            entry("/filler", ROOT, 0, 3),
            entry("/panel", "/filler", 0, 1),
            entry("/panel-kid", "/panel", 0, 0),
            entry("/label", "/filler", 0, 0),
            entry("/button", "/filler", 1, 0),
            entry("/gizmo", "/filler", 2, 0),
        ]);
        let root = ObjRef::new(":1.3", ROOT);
        assert!(index.lists_every_child(&root, |_| false));
        assert!(index
            .complete_children(&ObjRef::new(":1.3", "/filler"))
            .is_none());
        // A node missing a child below the stale one still needs a walk.
        let missing = CacheIndex::new(vec![
            entry(ROOT, "/null", -1, 1),
            entry("/filler", ROOT, 0, 3),
            entry("/panel", "/filler", 0, 2),
            entry("/panel-kid", "/panel", 0, 0),
            entry("/label", "/filler", 0, 0),
            entry("/button", "/filler", 1, 0),
            entry("/gizmo", "/filler", 2, 0),
        ]);
        assert!(!missing.lists_every_child(&root, |_| false));
        // An unknown count (-1) is not a complete list.
        let unknown = CacheIndex::new(vec![entry(ROOT, "/null", -1, -1)]);
        assert!(!unknown.lists_every_child(&root, |_| false));
    }

    fn with_role(mut e: CacheEntry, role: Role) -> CacheEntry {
        e.role = role;
        e
    }

    /// A list of three rows, the second one's subtree never created.
    #[test]
    fn rows_left_bare_count_as_whole_and_are_found() {
        let index = CacheIndex::new(vec![
            entry(ROOT, "/null", -1, 1),
            entry("/list", ROOT, 0, 3),
            with_role(entry("/row0", "/list", 0, 1), Role::ListItem),
            entry("/label0", "/row0", 0, 0),
            with_role(entry("/row1", "/list", 1, 1), Role::ListItem),
            with_role(entry("/row2", "/list", 2, 1), Role::ListItem),
            entry("/label2", "/row2", 0, 0),
        ]);
        let root = ObjRef::new(":1.3", ROOT);
        let is_row = |e: &CacheEntry| e.role == Role::ListItem;
        assert!(!index.lists_every_child(&root, |_| false));
        assert!(index.lists_every_child(&root, is_row));
        let bare: Vec<&str> = index
            .unrealized(&root, is_row)
            .into_iter()
            .map(|i| index.items[i].obj.path.as_str())
            .collect();
        assert_eq!(bare, ["/row1"]);
        // A row that counts no children is not waiting for any.
        let empty = CacheIndex::new(vec![
            entry(ROOT, "/null", -1, 1),
            with_role(entry("/row", ROOT, 0, 0), Role::ListItem),
        ]);
        assert!(empty.unrealized(&root, is_row).is_empty());
        // Another role left bare is still a missing child.
        let label = CacheIndex::new(vec![entry(ROOT, "/null", -1, 1), entry("/box", ROOT, 0, 2)]);
        assert!(!label.lists_every_child(&root, is_row));
        // Items listed under two parents (a broken answer) end the walk.
        let cycle = CacheIndex::new(vec![entry(ROOT, "/a", 0, 1), entry("/a", ROOT, 0, 1)]);
        assert!(cycle.lists_every_child(&root, is_row));
    }

    #[test]
    fn read_ahead_serves_only_the_apps_captured_next() {
        let ahead = ReadAhead::default();
        assert!(!ahead.wanted(":1.3"));
        ahead.put(":1.3", CacheIndex::default());
        ahead.put(":1.4", CacheIndex::default());
        let buses: HashSet<String> = [":1.3".to_owned()].into();
        let frame = |bus: &str| ObjRef::new(bus, "/org/a11y/atspi/accessible/1");
        let e = Extents {
            x: 1,
            y: 2,
            w: 3,
            h: 4,
        };
        ahead.put_frame(&frame(":1.3"), e);
        ahead.put_frame(&frame(":1.4"), e);
        let got = ahead.take(&buses);
        assert_eq!(got.indexes.keys().collect::<Vec<_>>(), [":1.3"]);
        assert_eq!(
            got.frame_extents.keys().collect::<Vec<_>>(),
            [&frame(":1.3")]
        );
        // Taken once; the captured app is wanted by the next listing.
        let again = ahead.take(&buses);
        assert!(again.indexes.is_empty() && again.frame_extents.is_empty());
        assert!(ahead.wanted(":1.3"));
        assert!(!ahead.wanted(":1.4"));
        // The frames an app showed, for the next listing to ask early.
        ahead.remember_frames(":1.3", vec![frame(":1.3")]);
        assert_eq!(ahead.last_frames(":1.3"), [frame(":1.3")]);
        assert!(ahead.last_frames(":1.4").is_empty());
    }
}
