//! One application's `Cache.GetItems` answer, indexed by object and by
//! parent, and the answers read ahead of a capture ([`ReadAhead`]).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use crate::atspi_calls::{CacheEntry, ObjRef};
use crate::facts::Extents;

/// Cached structure of one application, by object.
#[derive(Debug, Default)]
pub struct CacheIndex {
    pub(super) items: Vec<CacheEntry>,
    pub(super) by_obj: HashMap<ObjRef, usize>,
    /// Cached children of each parent, in index order.
    kids: HashMap<ObjRef, Vec<usize>>,
}

impl CacheIndex {
    /// Indexes the items of one `GetItems` answer.
    pub fn new(items: Vec<CacheEntry>) -> Self {
        let mut by_obj = HashMap::with_capacity(items.len());
        let mut kids: HashMap<ObjRef, Vec<(i32, usize)>> = HashMap::new();
        for (i, e) in items.iter().enumerate() {
            by_obj.insert(e.obj.clone(), i);
            kids.entry(e.parent.clone()).or_default().push((e.index, i));
        }
        let kids = kids
            .into_iter()
            .map(|(parent, mut list)| {
                list.sort_unstable();
                (parent, list.into_iter().map(|(_, i)| i).collect())
            })
            .collect();
        CacheIndex {
            items,
            by_obj,
            kids,
        }
    }

    /// `true` when the cache lists `root` and, below it, at least every
    /// child of every node: a node may list more children than it counts
    /// (GTK 4.8 keeps a replaced widget's accessible in its cache beside
    /// the new one, at the same index), which the capture settles with one
    /// `GetChildren` of that node; but no node misses a child, which only
    /// a walk of the tree would create.
    pub fn lists_every_child(&self, root: &ObjRef) -> bool {
        let mut stack = vec![root];
        while let Some(obj) = stack.pop() {
            let Some(&i) = self.by_obj.get(obj) else {
                return false;
            };
            let listed = self.listed_children(obj);
            match usize::try_from(self.items[i].child_count) {
                Ok(count) if listed.len() >= count => {
                    stack.extend(listed.iter().map(|&k| &self.items[k].obj));
                }
                _ => return false,
            }
        }
        true
    }

    /// The cached children of `obj` when the cache lists all of them.
    pub(super) fn complete_children(&self, obj: &ObjRef) -> Option<&[usize]> {
        let item = &self.items[*self.by_obj.get(obj)?];
        let listed = self.kids.get(obj).map_or(&[][..], Vec::as_slice);
        (usize::try_from(item.child_count).ok()? == listed.len()).then_some(listed)
    }

    /// The children of `obj` the cache lists, in index order (all of them
    /// or not).
    pub(super) fn listed_children(&self, obj: &ObjRef) -> &[usize] {
        self.kids.get(obj).map_or(&[][..], Vec::as_slice)
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
mod tests {
    use super::*;
    use atspi::{InterfaceSet, Role, StateSet};

    fn entry(path: &str, parent: &str, index: i32, child_count: i32) -> CacheEntry {
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
        assert!(index.lists_every_child(&root));

        let partial = CacheIndex::new(vec![entry(ROOT, "/null", -1, 2), entry("/a", ROOT, 0, 0)]);
        assert!(partial.children(&root).is_none());
        assert!(!partial.lists_every_child(&root));
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
        assert!(index.lists_every_child(&root));
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
        assert!(!missing.lists_every_child(&root));
        // An unknown count (-1) is not a complete list.
        let unknown = CacheIndex::new(vec![entry(ROOT, "/null", -1, -1)]);
        assert!(!unknown.lists_every_child(&root));
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
