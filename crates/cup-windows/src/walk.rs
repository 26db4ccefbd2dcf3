//! The walk of one window's element tree, generic over the reads it needs
//! ([`Reads`]), so its deadline, retry and cap paths are tested with a
//! scripted provider on any OS.
//!
//! The fast path is one cross-process round trip: the window's root with
//! its whole subtree cached ([`Reads::fetch`] answers `subtree: true`),
//! then cached reads in process. A provider that cannot cache a subtree
//! (Wine's cache requests take no tree scope) answers `false`, and the walk
//! fetches each element's children with their properties, one round trip
//! an element. Transient provider errors (`E_FAIL`,
//! `UIA_E_ELEMENTNOTAVAILABLE` while the app rebuilds a view) are retried
//! within the deadline; a subtree that still fails is cut and says why.

use std::thread;
use std::time::{Duration, Instant};

use crate::facts::{Element, NativeNode, WindowFacts, WindowTree};

/// How a read failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Worth another try (the provider was busy or rebuilding).
    #[error("{0}")]
    Transient(String),
    /// Will not succeed (element gone, call not implemented, access
    /// denied).
    #[error("{0}")]
    Failed(String),
    /// UI Automation's own time-out (`UIA_E_TIMEOUT`): the provider took
    /// longer than the transaction time-out cup sets. Not retried: a
    /// window's whole subtree that timed out is read element by element.
    #[error("{0}")]
    TimedOut(String),
}

/// `UIA_E_ELEMENTNOTAVAILABLE`.
pub const UIA_E_ELEMENTNOTAVAILABLE: u32 = 0x8004_0201;
/// `E_FAIL`.
pub const E_FAIL: u32 = 0x8000_4005;
/// `UIA_E_TIMEOUT`.
pub const UIA_E_TIMEOUT: u32 = 0x8013_1505;
/// `RPC_E_CALL_REJECTED` (the app's thread is busy).
pub const RPC_E_CALL_REJECTED: u32 = 0x8001_0001;
/// `RPC_E_SERVERCALL_RETRYLATER`.
pub const RPC_E_SERVERCALL_RETRYLATER: u32 = 0x8001_010A;

/// Classifies a failed call's HRESULT; `what` names the call.
pub fn classify(hresult: u32, what: &str) -> ReadError {
    let text = format!(
        "{what} failed: HRESULT 0x{hresult:08X}{}",
        hresult_name(hresult)
    );
    match hresult {
        UIA_E_TIMEOUT => ReadError::TimedOut(text),
        UIA_E_ELEMENTNOTAVAILABLE | E_FAIL | RPC_E_CALL_REJECTED | RPC_E_SERVERCALL_RETRYLATER => {
            ReadError::Transient(text)
        }
        _ => ReadError::Failed(text),
    }
}

/// The name of a common HRESULT (` (E_NOTIMPL)`), empty when unknown.
pub fn hresult_name(hresult: u32) -> &'static str {
    match hresult {
        0x8000_4001 => " (E_NOTIMPL)",
        0x8000_4002 => " (E_NOINTERFACE)",
        0x8000_4003 => " (E_POINTER)",
        E_FAIL => " (E_FAIL)",
        0x8007_0005 => " (E_ACCESSDENIED)",
        0x8007_0057 => " (E_INVALIDARG)",
        UIA_E_ELEMENTNOTAVAILABLE => " (UIA_E_ELEMENTNOTAVAILABLE)",
        0x8004_0200 => " (UIA_E_ELEMENTNOTENABLED)",
        0x8004_0202 => " (UIA_E_NOCLICKABLEPOINT)",
        0x8004_0204 => " (UIA_E_NOTSUPPORTED)",
        UIA_E_TIMEOUT => " (UIA_E_TIMEOUT)",
        RPC_E_CALL_REJECTED => " (RPC_E_CALL_REJECTED)",
        RPC_E_SERVERCALL_RETRYLATER => " (RPC_E_SERVERCALL_RETRYLATER)",
        0x8001_0108 => " (RPC_E_DISCONNECTED)",
        0x8007_06BA => " (RPC_S_SERVER_UNAVAILABLE)",
        _ => "",
    }
}

/// The reads a walk makes.
pub trait Reads {
    /// A provider's element handle (a cached `IUIAutomationElement`).
    type Element;

    /// One round trip: the root element of window `hwnd` with its
    /// properties cached, and its subtree too when `subtree` is answered
    /// `true`.
    fn fetch(&mut self, hwnd: i64) -> Result<(Self::Element, bool), ReadError>;

    /// One round trip: the root element of window `hwnd` with its own
    /// properties only, and the reads that follow fetch element by element
    /// ([`Reads::fetch_children`] with element-scope requests): the way
    /// on when a whole subtree timed out.
    fn fetch_root(&mut self, hwnd: i64) -> Result<Self::Element, ReadError>;

    /// The cached facts of `element`.
    fn facts(&mut self, element: &Self::Element) -> Element;

    /// The cached children of an element of a fetched subtree.
    fn cached_children(&mut self, element: &Self::Element)
        -> Result<Vec<Self::Element>, ReadError>;

    /// One round trip: the children of `element`, their properties cached.
    fn fetch_children(&mut self, element: &Self::Element) -> Result<Vec<Self::Element>, ReadError>;
}

/// The limits of one window's walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkLimits {
    /// At most this many elements.
    pub max_nodes: usize,
    /// Elements deeper than this are not read (root = 0).
    pub max_depth: usize,
    /// When the walk must stop.
    pub deadline: Instant,
    /// Tries of a transiently failing call, the first included.
    pub tries: u32,
    /// Wait between tries.
    pub retry_wait: Duration,
}

/// The time a walk goes by: the system's ([`SystemClock`]), or in tests
/// one that moves only as a scripted provider's round trips take time, so
/// deadlines are tested without racing the machine's load.
trait Clock {
    /// The time now.
    fn now(&self) -> Instant;
    /// Waits `d`.
    fn sleep(&self, d: Duration);
}

/// The system's clock.
#[derive(Debug, Clone, Copy)]
struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn sleep(&self, d: Duration) {
        thread::sleep(d);
    }
}

/// Calls `call` until it succeeds, fails for good, runs out of tries or
/// the deadline would pass during the next wait.
pub fn with_retries<T>(
    limits: &WalkLimits,
    call: impl FnMut() -> Result<T, ReadError>,
) -> Result<T, ReadError> {
    retry_on(&SystemClock, limits, call)
}

/// [`with_retries`] by `clock`.
fn retry_on<T>(
    clock: &impl Clock,
    limits: &WalkLimits,
    mut call: impl FnMut() -> Result<T, ReadError>,
) -> Result<T, ReadError> {
    let mut tries = 0;
    loop {
        tries += 1;
        match call() {
            Ok(v) => return Ok(v),
            Err(ReadError::Transient(why))
                if tries < limits.tries.max(1)
                    && clock.now() + limits.retry_wait < limits.deadline =>
            {
                tracing::debug!(%why, tries, "retrying a UIA read");
                clock.sleep(limits.retry_wait);
            }
            Err(e) => return Err(e),
        }
    }
}

struct Walk<'a, R: Reads, C: Clock> {
    reads: &'a mut R,
    clock: &'a C,
    limits: WalkLimits,
    subtree: bool,
    count: usize,
    stop: Option<String>,
}

impl<R: Reads, C: Clock> Walk<'_, R, C> {
    fn node(&mut self, element: &R::Element, depth: usize) -> NativeNode {
        self.count += 1;
        let mut node = NativeNode {
            element: self.reads.facts(element),
            children: Vec::new(),
            cut: None,
        };
        if depth >= self.limits.max_depth || self.stop.is_some() {
            return node;
        }
        if !self.subtree && self.clock.now() >= self.limits.deadline {
            self.stop = Some(format!("deadline reached after {} elements", self.count));
            return node;
        }
        let (clock, limits) = (self.clock, self.limits);
        let children = if self.subtree {
            retry_on(clock, &limits, || self.reads.cached_children(element))
        } else {
            retry_on(clock, &limits, || self.reads.fetch_children(element))
        };
        let children = match children {
            Ok(c) => c,
            Err(e) => {
                node.cut = Some(e.to_string());
                return node;
            }
        };
        for child in &children {
            if self.count >= self.limits.max_nodes {
                self.stop = Some(format!(
                    "element limit of {} reached",
                    self.limits.max_nodes
                ));
                break;
            }
            if self.stop.is_some() {
                break;
            }
            let c = self.node(child, depth + 1);
            node.children.push(c);
        }
        node
    }
}

/// Walks window `window`'s tree within `limits`. Never fails: a window
/// that cannot be read has no root and an error; one cut short has the
/// nodes read so far and says why.
pub fn walk<R: Reads>(reads: &mut R, window: &WindowFacts, limits: WalkLimits) -> WindowTree {
    walk_on(&SystemClock, reads, window, limits)
}

/// [`walk`] by `clock`.
fn walk_on<R: Reads>(
    clock: &impl Clock,
    reads: &mut R,
    window: &WindowFacts,
    limits: WalkLimits,
) -> WindowTree {
    let fetched = retry_on(clock, &limits, || reads.fetch(window.hwnd));
    // A whole subtree that timed out (a large browser or editor window)
    // is read element by element instead, within the deadline and the
    // element cap: a partial tree rather than none.
    let fetched = match fetched {
        Err(ReadError::TimedOut(why)) => {
            tracing::debug!(%why, "the subtree timed out; reading element by element");
            retry_on(clock, &limits, || reads.fetch_root(window.hwnd)).map(|root| (root, false))
        }
        other => other,
    };
    let (root, subtree) = match fetched {
        Ok(f) => f,
        Err(e) => {
            return WindowTree {
                window: window.clone(),
                root: None,
                error: Some(e.to_string()),
            }
        }
    };
    let mut w = Walk {
        reads,
        clock,
        limits,
        subtree,
        count: 0,
        stop: None,
    };
    let node = w.node(&root, 0);
    WindowTree {
        window: window.clone(),
        root: Some(node),
        error: w.stop,
    }
}

/// Searches the tree under `root` breadth first for the element whose
/// runtime id is `id` (an element that moved: a sibling was inserted
/// before it, a list scrolled), reading at most `limit` elements, a round
/// trip each ([`Reads::fetch_children`]).
pub fn find_runtime_id<R: Reads>(
    reads: &mut R,
    root: R::Element,
    id: &[i32],
    limit: usize,
) -> Option<R::Element> {
    if id.is_empty() {
        return None;
    }
    let mut queue = std::collections::VecDeque::from([root]);
    let mut read = 0;
    while let Some(el) = queue.pop_front() {
        read += 1;
        if reads.facts(&el).runtime_id == id {
            return Some(el);
        }
        if read >= limit {
            return None;
        }
        queue.extend(reads.fetch_children(&el).unwrap_or_default());
    }
    None
}

/// How long a Chromium or Electron window gets to build its web tree
/// before the second walk ([`wants_second_walk`]).
pub const SECOND_WALK_AFTER: Duration = Duration::from_millis(300);

/// Whether a window's first walk found a Chromium or Electron window
/// (Chrome, Edge, VS Code, Teams: class `Chrome_WidgetWin_1`) that has not
/// built its web content yet: Chromium builds that tree only once an
/// assistive client shows up, so the first read has the browser frame
/// (its tool bar, its tabs) and no document. The window is walked again
/// once, [`SECOND_WALK_AFTER`] later (the reference SDK does the same).
pub fn wants_second_walk(tree: &WindowTree) -> bool {
    fn any(n: &NativeNode, f: &dyn Fn(&Element) -> bool) -> bool {
        f(&n.element) || n.children.iter().any(|c| any(c, f))
    }
    let Some(root) = &tree.root else { return false };
    let chromium = tree.window.class_name == "Chrome_WidgetWin_1"
        || root.element.class_name == "Chrome_WidgetWin_1";
    if !chromium || any(root, &|e| e.control_type == crate::control::ct::DOCUMENT) {
        return false;
    }
    let chrome_only = any(root, &|e| {
        matches!(
            e.control_type,
            crate::control::ct::TOOL_BAR | crate::control::ct::TAB_ITEM
        )
    });
    root.count() < 30 || chrome_only
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_element_that_moved_is_found_by_its_runtime_id() {
        let mut s = Script::wide(3);
        s.children.insert(2, vec![20, 21]);
        assert_eq!(find_runtime_id(&mut s, 0, &[42, 21], 100), Some(21));
        assert_eq!(find_runtime_id(&mut s, 0, &[42, 99], 100), None);
        assert_eq!(find_runtime_id(&mut s, 0, &[], 100), None);
        // The search reads at most `limit` elements.
        assert_eq!(find_runtime_id(&mut s, 0, &[42, 21], 3), None);
    }

    #[test]
    fn a_chromium_window_without_its_document_is_walked_again() {
        let node = |ct: i32, class: &str, children: Vec<NativeNode>| NativeNode {
            element: Element {
                control_type: ct,
                class_name: class.into(),
                ..Element::default()
            },
            children,
            cut: None,
        };
        let tree = |root: NativeNode, class: &str| WindowTree {
            window: WindowFacts {
                class_name: class.into(),
                ..WindowFacts::default()
            },
            root: Some(root),
            error: None,
        };
        let frame = |with_document: bool| {
            let mut kids = vec![
                node(crate::control::ct::TOOL_BAR, "", vec![]),
                node(crate::control::ct::TAB_ITEM, "", vec![]),
            ];
            if with_document {
                kids.push(node(crate::control::ct::DOCUMENT, "", vec![]));
            }
            node(crate::control::ct::PANE, "Chrome_WidgetWin_1", kids)
        };
        assert!(wants_second_walk(&tree(frame(false), "Chrome_WidgetWin_1")));
        assert!(!wants_second_walk(&tree(frame(true), "Chrome_WidgetWin_1")));
        // Not Chromium: never.
        assert!(!wants_second_walk(&tree(
            node(crate::control::ct::PANE, "Notepad", vec![]),
            "Notepad"
        )));
        // No tree at all: nothing to poke.
        let none = WindowTree {
            window: WindowFacts::default(),
            root: None,
            error: Some("gone".into()),
        };
        assert!(!wants_second_walk(&none));
    }
    use std::cell::Cell;
    use std::collections::HashMap;
    use std::rc::Rc;

    /// A deadline for the walks whose deadline is not under test: ample
    /// on the busiest machine, so only what they check can fail them.
    const AMPLE: u64 = 60_000;

    /// A clock that stands still but for the time the script's round trips
    /// and the walk's waits take: a walk's deadline is met or missed the
    /// same way on an idle machine and a busy one.
    #[derive(Clone)]
    struct FakeClock(Rc<Cell<Instant>>);

    impl Default for FakeClock {
        fn default() -> Self {
            FakeClock(Rc::new(Cell::new(Instant::now())))
        }
    }

    impl Clock for FakeClock {
        fn now(&self) -> Instant {
            self.0.get()
        }

        fn sleep(&self, d: Duration) {
            self.0.set(self.0.get() + d);
        }
    }

    /// A scripted provider: a tree of numbered elements, whether subtrees
    /// can be cached, per-element failures to play once or always, and a
    /// cost per round trip, spent on its clock.
    #[derive(Default)]
    struct Script {
        children: HashMap<u32, Vec<u32>>,
        subtree: bool,
        fail_once: HashMap<u32, ReadError>,
        fail_always: HashMap<u32, ReadError>,
        fetch_fails: Vec<ReadError>,
        round_trip: Duration,
        round_trips: u32,
        clock: FakeClock,
    }

    impl Script {
        fn wide(n: u32) -> Script {
            let mut s = Script::default();
            s.children.insert(0, (1..=n).collect());
            s
        }

        fn answer(&mut self, e: u32) -> Result<Vec<u32>, ReadError> {
            if let Some(err) = self.fail_always.get(&e) {
                return Err(err.clone());
            }
            if let Some(err) = self.fail_once.remove(&e) {
                return Err(err);
            }
            Ok(self.children.get(&e).cloned().unwrap_or_default())
        }
    }

    impl Reads for Script {
        type Element = u32;

        fn fetch(&mut self, _hwnd: i64) -> Result<(u32, bool), ReadError> {
            self.round_trips += 1;
            self.clock.sleep(self.round_trip);
            if !self.fetch_fails.is_empty() {
                return Err(self.fetch_fails.remove(0));
            }
            Ok((0, self.subtree))
        }

        fn fetch_root(&mut self, _hwnd: i64) -> Result<u32, ReadError> {
            self.round_trips += 1;
            self.subtree = false;
            Ok(0)
        }

        fn facts(&mut self, e: &u32) -> Element {
            Element {
                runtime_id: vec![42, i32::try_from(*e).unwrap_or(0)],
                name: format!("n{e}"),
                ..Element::default()
            }
        }

        fn cached_children(&mut self, e: &u32) -> Result<Vec<u32>, ReadError> {
            assert!(self.subtree, "cached reads only of a cached subtree");
            self.answer(*e)
        }

        fn fetch_children(&mut self, e: &u32) -> Result<Vec<u32>, ReadError> {
            assert!(!self.subtree, "a cached subtree needs no more round trips");
            self.round_trips += 1;
            self.clock.sleep(self.round_trip);
            self.answer(*e)
        }
    }

    fn limits(ms: u64) -> WalkLimits {
        WalkLimits {
            max_nodes: 10_000,
            max_depth: 999,
            deadline: Instant::now() + Duration::from_millis(ms),
            tries: 3,
            retry_wait: Duration::from_millis(5),
        }
    }

    fn names(n: &NativeNode) -> Vec<String> {
        let mut out = vec![n.element.name.clone()];
        for c in &n.children {
            out.extend(names(c));
        }
        out
    }

    fn window() -> WindowFacts {
        WindowFacts {
            hwnd: 7,
            title: "App".into(),
            ..WindowFacts::default()
        }
    }

    #[test]
    fn a_cached_subtree_is_one_round_trip() {
        let mut s = Script::wide(3);
        s.children.insert(2, vec![20, 21]);
        s.subtree = true;
        let t = walk(&mut s, &window(), limits(AMPLE));
        let root = t.root.expect("root");
        assert_eq!(names(&root), ["n0", "n1", "n2", "n20", "n21", "n3"]);
        assert_eq!((s.round_trips, t.error), (1, None));
    }

    #[test]
    fn without_subtree_caching_each_element_is_fetched() {
        let mut s = Script::wide(3);
        s.children.insert(2, vec![20, 21]);
        let t = walk(&mut s, &window(), limits(AMPLE));
        assert_eq!(names(&t.root.expect("root")).len(), 6);
        assert_eq!(s.round_trips, 1 + 6);
    }

    #[test]
    fn transient_errors_are_retried_and_lasting_ones_cut_the_subtree() {
        let mut s = Script::wide(3);
        s.children.insert(1, vec![10]);
        s.children.insert(3, vec![30]);
        s.subtree = true;
        s.fail_once.insert(1, classify(E_FAIL, "GetCachedChildren"));
        s.fail_always
            .insert(3, classify(UIA_E_ELEMENTNOTAVAILABLE, "GetCachedChildren"));
        s.fetch_fails
            .push(classify(RPC_E_CALL_REJECTED, "BuildUpdatedCache"));
        let t = walk(&mut s, &window(), limits(AMPLE));
        let root = t.root.expect("root");
        assert_eq!(names(&root), ["n0", "n1", "n10", "n2", "n3"]);
        let cut = root.children[2].cut.as_deref().expect("n3 is cut");
        assert!(
            cut.contains("0x80040201 (UIA_E_ELEMENTNOTAVAILABLE)"),
            "{cut}"
        );
    }

    #[test]
    fn a_subtree_that_timed_out_is_read_element_by_element() {
        let mut s = Script::wide(3);
        s.children.insert(2, vec![20, 21]);
        s.subtree = true;
        s.fetch_fails
            .push(classify(UIA_E_TIMEOUT, "BuildUpdatedCache"));
        let t = walk(&mut s, &window(), limits(AMPLE));
        assert_eq!(names(&t.root.expect("root")).len(), 6);
        // The timed-out fetch, the root alone, then one per element.
        assert_eq!(s.round_trips, 1 + 1 + 6);
        // And within the element cap, a partial tree that says so.
        let mut s = Script::wide(50);
        s.subtree = true;
        s.fetch_fails
            .push(classify(UIA_E_TIMEOUT, "BuildUpdatedCache"));
        let mut l = limits(AMPLE);
        l.max_nodes = 10;
        let t = walk(&mut s, &window(), l);
        assert!(t.root.is_some());
        assert!(
            t.error
                .as_deref()
                .is_some_and(|e| e.contains("element limit")),
            "{t:?}"
        );
    }

    #[test]
    fn a_failed_fetch_leaves_the_window_without_a_tree_and_says_why() {
        let mut s = Script::wide(1);
        s.fetch_fails
            .push(classify(0x8000_4001, "ElementFromHandle"));
        let t = walk(&mut s, &window(), limits(AMPLE));
        assert!(t.root.is_none());
        assert_eq!(
            t.error.as_deref(),
            Some("ElementFromHandle failed: HRESULT 0x80004001 (E_NOTIMPL)")
        );
        assert_eq!(s.round_trips, 1, "E_NOTIMPL is not retried");
    }

    #[test]
    fn the_element_limit_cuts_a_huge_list() {
        let mut s = Script::wide(10_000);
        s.subtree = true;
        let mut l = limits(AMPLE);
        l.max_nodes = 500;
        let t = walk(&mut s, &window(), l);
        assert_eq!(t.root.expect("root").count(), 500);
        assert_eq!(t.error.as_deref(), Some("element limit of 500 reached"));
    }

    #[test]
    fn a_slow_provider_stops_at_the_deadline_with_what_it_read() {
        // 200 elements fetched one by one at 10 ms a round trip, on the
        // script's clock: 2 s to read all, against a 150 ms deadline.
        let mut s = Script::wide(200);
        s.round_trip = Duration::from_millis(10);
        let clock = s.clock.clone();
        let start = clock.now();
        let mut l = limits(AMPLE);
        l.deadline = start + Duration::from_millis(150);
        let t = walk_on(&clock, &mut s, &window(), l);
        let took = clock.now() - start;
        // Stopped at the deadline, at most one round trip past it.
        assert!(
            took >= Duration::from_millis(150) && took <= Duration::from_millis(160),
            "{took:?}"
        );
        let read = t.root.expect("root").count();
        assert!(read > 1 && read < 200, "{read}");
        let e = t.error.expect("cut by the deadline");
        assert!(e.starts_with("deadline reached after"), "{e}");
    }

    #[test]
    fn depth_limits_what_is_read() {
        let mut s = Script::wide(2);
        s.children.insert(1, vec![10]);
        s.children.insert(10, vec![100]);
        let mut l = limits(AMPLE);
        l.max_depth = 1;
        let t = walk(&mut s, &window(), l);
        assert_eq!(names(&t.root.expect("root")), ["n0", "n1", "n2"]);
        assert_eq!(
            s.round_trips,
            1 + 1,
            "children of depth-1 elements are not fetched"
        );
    }
}
