//! The walk of the captured windows, generic over the reads it makes
//! ([`Reads`]), so its order, limits, deadlines and partial results are
//! tested with a scripted provider on any OS.
//!
//! - One read per element: `AXUIElementCopyMultipleAttributeValues` of
//!   every attribute the mapping needs, children included ([`Reads::read`]).
//! - Apps are walked in parallel, one task per app, on at most
//!   [`Plan::threads`] threads; the windows of one app are walked in turn
//!   by its task (AX serializes an app's answers anyway).
//! - Each app has a deadline of its own and the capture one over all; the
//!   walkers stop a little before the capture's deadline so what they read
//!   arrives in time. A walker stuck in a call that never returns (the OS
//!   layer bounds each call with `AXUIElementSetMessagingTimeout`; a fake
//!   can hang for good) is left behind: the capture returns at its
//!   deadline with that app marked missing, never hangs.
//! - A node cap shared by all walkers; cycles (an element that is its own
//!   descendant, seen in broken apps) are cut.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::facts::{AxElement, NativeNode, WindowFacts, WindowTree};

/// How a read failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The element no longer exists (`kAXErrorInvalidUIElement`).
    #[error("{0}")]
    Gone(String),
    /// The app did not answer in time (`kAXErrorCannotComplete` after the
    /// messaging timeout): the rest of that app is skipped.
    #[error("{0}")]
    NotAnswering(String),
    /// cup may not read other apps (`kAXErrorAPIDisabled`: no
    /// Accessibility permission): the whole capture fails with this.
    #[error("{0}")]
    Denied(String),
    /// Any other failure.
    #[error("{0}")]
    Failed(String),
}

/// The reads a walk makes; one value per app task, made on its thread.
pub trait Reads {
    /// An element handle (`AXUIElementRef`).
    type Element;

    /// The `AXWindow` element of `window`.
    fn window(&mut self, window: &WindowFacts) -> Result<Self::Element, ReadError>;

    /// One round trip: the element's attributes and its children.
    fn read(
        &mut self,
        element: &Self::Element,
    ) -> Result<(AxElement, Vec<Self::Element>), ReadError>;

    /// A value that is equal for the same element (`CFHash`), for cycles.
    fn identity(&mut self, element: &Self::Element) -> u64;
}

/// The limits of a capture's walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// At most this many elements over all windows.
    pub max_nodes: usize,
    /// Elements deeper than this are not read (window = 0).
    pub max_depth: usize,
    /// When the capture must be back.
    pub deadline: Instant,
    /// The longest one app may take.
    pub per_app: Duration,
    /// Apps walked at once.
    pub threads: usize,
}

/// What the walk read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Walked {
    /// One tree per window, in the order the windows were given; a window
    /// whose app did not answer has no root.
    pub trees: Vec<WindowTree>,
    /// Why the capture is partial (one line per app or limit), if it is.
    pub partial: Vec<String>,
    /// Windows whose tree is missing or cut.
    pub missing: usize,
}

/// Room before the capture's deadline for the walkers' results to arrive.
fn margin(total: Duration) -> Duration {
    (total / 20).min(Duration::from_millis(100))
}

struct Walker<'a, R: Reads> {
    reads: &'a mut R,
    budget: &'a AtomicUsize,
    max_depth: usize,
    stop: Instant,
    /// The identities of the elements from the window down to the one
    /// being read: an element that is its own ancestor is a cycle. Only
    /// the path is checked, since `CFHash` is equal for equal elements but
    /// not unique: two unrelated elements may share one, and a set of
    /// every element seen dropped such a one with its whole subtree.
    path: Vec<u64>,
    /// Set when the walk was cut, and why.
    cut: Option<String>,
    denied: Option<String>,
}

impl<R: Reads> Walker<'_, R> {
    fn take_budget(&self) -> bool {
        self.budget
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
            .is_ok()
    }

    fn node(&mut self, el: &R::Element, depth: usize) -> Option<NativeNode> {
        if self.cut.is_some() {
            return None;
        }
        if Instant::now() >= self.stop {
            self.cut = Some("the deadline passed".into());
            return None;
        }
        if !self.take_budget() {
            self.cut = Some("the node cap was reached".into());
            return None;
        }
        let id = self.reads.identity(el);
        if self.path.contains(&id) {
            // An element that is its own ancestor.
            self.budget.fetch_add(1, Ordering::AcqRel);
            return None;
        }
        let (element, children) = match self.reads.read(el) {
            Ok(r) => r,
            Err(ReadError::Gone(_)) => {
                self.budget.fetch_add(1, Ordering::AcqRel);
                return None;
            }
            Err(ReadError::Denied(why)) => {
                self.denied = Some(why.clone());
                self.cut = Some(why);
                return None;
            }
            Err(ReadError::NotAnswering(why) | ReadError::Failed(why)) => {
                self.cut = Some(why);
                return None;
            }
        };
        let mut node = NativeNode {
            element,
            children: Vec::new(),
            cut: None,
        };
        if depth >= self.max_depth {
            if !children.is_empty() {
                node.cut = Some(format!("deeper than {} levels", self.max_depth));
            }
            return Some(node);
        }
        self.path.push(id);
        for child in &children {
            if let Some(c) = self.node(child, depth + 1) {
                node.children.push(c);
            }
            if self.cut.is_some() {
                node.cut.clone_from(&self.cut);
                break;
            }
        }
        self.path.pop();
        Some(node)
    }
}

/// An app's pid and its windows with their places in the capture.
type AppWindows = (i32, Vec<(usize, WindowFacts)>);

/// What one app's task sends back: per window index, its tree and why it
/// was cut; and whether the app refused cup (no permission).
type AppResult = (Vec<(usize, WindowTree, Option<String>)>, Option<String>);

fn walk_app<R: Reads>(
    reads: &mut R,
    windows: &[(usize, WindowFacts)],
    budget: &AtomicUsize,
    max_depth: usize,
    stop: Instant,
) -> AppResult {
    let mut out = Vec::new();
    let mut denied = None;
    for (i, w) in windows {
        let mut tree = WindowTree {
            window: w.clone(),
            root: None,
        };
        if Instant::now() >= stop {
            out.push((*i, tree, Some("the deadline passed".to_owned())));
            continue;
        }
        let root = match reads.window(w) {
            Ok(r) => r,
            Err(e) => {
                if let ReadError::Denied(why) = &e {
                    denied = Some(why.clone());
                }
                out.push((*i, tree, Some(e.to_string())));
                continue;
            }
        };
        let mut walker = Walker {
            reads: &mut *reads,
            budget,
            max_depth,
            stop,
            path: Vec::new(),
            cut: None,
            denied: None,
        };
        tree.root = walker.node(&root, 0);
        if walker.denied.is_some() {
            denied = walker.denied.take();
        }
        let cut = walker.cut.take();
        out.push((*i, tree, cut));
    }
    (out, denied)
}

/// Walks `windows` (front to back) with a [`Reads`] per app from `reads_for`.
///
/// # Errors
///
/// When cup may not read apps at all (no Accessibility permission): the
/// reason, which says how to grant it.
pub fn walk<R, F>(windows: &[WindowFacts], reads_for: F, plan: Plan) -> Result<Walked, String>
where
    R: Reads,
    F: Fn(i32) -> R + Send + Sync + 'static,
{
    let now = Instant::now();
    let total = plan.deadline.saturating_duration_since(now);
    let stop = plan.deadline - margin(total).min(total);
    // Apps in the order of their front-most window.
    let mut order: Vec<i32> = Vec::new();
    let mut by_app: HashMap<i32, Vec<(usize, WindowFacts)>> = HashMap::new();
    for (i, w) in windows.iter().enumerate() {
        if !by_app.contains_key(&w.pid) {
            order.push(w.pid);
        }
        by_app.entry(w.pid).or_default().push((i, w.clone()));
    }
    let queue: Arc<Mutex<VecDeque<AppWindows>>> = Arc::new(Mutex::new(
        order
            .iter()
            .filter_map(|pid| by_app.remove(pid).map(|w| (*pid, w)))
            .collect(),
    ));
    let apps = queue.lock().unwrap_or_else(PoisonError::into_inner).len();
    let budget = Arc::new(AtomicUsize::new(plan.max_nodes));
    let reads_for = Arc::new(reads_for);
    let (tx, rx) = mpsc::channel::<(i32, AppResult)>();
    let threads = plan.threads.clamp(1, apps.max(1));
    for n in 0..threads {
        let queue = Arc::clone(&queue);
        let budget = Arc::clone(&budget);
        let reads_for = Arc::clone(&reads_for);
        let tx = tx.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("cup-ax-{n}"))
            .spawn(move || loop {
                let next = queue
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .pop_front();
                let Some((pid, wins)) = next else { break };
                let app_stop = stop.min(Instant::now() + plan.per_app);
                let mut reads = reads_for(pid);
                let result = walk_app(&mut reads, &wins, &budget, plan.max_depth, app_stop);
                if tx.send((pid, result)).is_err() {
                    break;
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("cannot start an AX walker thread: {e}");
        }
    }
    drop(tx);
    let mut trees: Vec<Option<(WindowTree, Option<String>)>> = vec![None; windows.len()];
    let mut answered: HashSet<i32> = HashSet::new();
    let mut denied = None;
    while answered.len() < apps {
        let left = plan.deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok((pid, (wins, refused))) => {
                answered.insert(pid);
                if refused.is_some() {
                    denied = refused;
                }
                for (i, tree, cut) in wins {
                    if let Some(slot) = trees.get_mut(i) {
                        *slot = Some((tree, cut));
                    }
                }
            }
            Err(_) => break,
        }
    }
    if let Some(why) = denied {
        if trees.iter().flatten().all(|(t, _)| t.root.is_none()) {
            return Err(why);
        }
    }
    let mut out = Walked::default();
    let mut silent: Vec<String> = Vec::new();
    for (w, slot) in windows.iter().zip(trees) {
        match slot {
            Some((tree, cut)) => {
                if let Some(why) = cut {
                    out.missing += 1;
                    out.partial
                        .push(format!("{} ({}): {why}", w.owner, w.title));
                }
                out.trees.push(tree);
            }
            None => {
                out.missing += 1;
                if !silent.contains(&w.owner) {
                    silent.push(w.owner.clone());
                }
                out.trees.push(WindowTree {
                    window: w.clone(),
                    root: None,
                });
            }
        }
    }
    for app in silent {
        out.partial.push(format!(
            "{app} did not answer within the {} ms deadline",
            total.as_millis()
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Condvar;

    /// A deadline for the walks whose deadline is not under test: ample
    /// on the busiest machine, so only what they check can fail them.
    const AMPLE: u64 = 60_000;

    /// How long a test waits for a walk that must honour a deadline of at
    /// most a second: far longer than a busy machine takes, far shorter
    /// than a walk that misses its deadline (minutes, or never).
    const BOUND: Duration = Duration::from_secs(20);

    /// Runs `f` on a thread of its own and waits at most `bound` for it: a
    /// walk that does not honour its deadline fails the test instead of
    /// hanging it.
    fn within<T: Send + 'static>(bound: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(bound)
            .unwrap_or_else(|e| panic!("the walk did not return within {bound:?}: {e}"))
    }

    /// Where the apps' reads meet: a read waits until reads of two apps
    /// have been under way at once (an app's own reads are made one after
    /// the other by its task), or `wait` has passed. A walk that runs the
    /// apps side by side meets at once; one that runs them in turn waits
    /// the whole `wait` at the first read.
    struct Meet {
        /// Reads under way now, and the most at once so far.
        inside: Mutex<(usize, usize)>,
        met: Condvar,
        wait: Duration,
    }

    impl Meet {
        fn new(wait: Duration) -> Meet {
            Meet {
                inside: Mutex::new((0, 0)),
                met: Condvar::new(),
                wait,
            }
        }

        fn read(&self) {
            let mut inside = self.inside.lock().unwrap_or_else(PoisonError::into_inner);
            inside.0 += 1;
            inside.1 = inside.1.max(inside.0);
            self.met.notify_all();
            let (mut inside, _) = self
                .met
                .wait_timeout_while(inside, self.wait, |(_, most)| *most < 2)
                .unwrap_or_else(PoisonError::into_inner);
            inside.0 -= 1;
        }

        /// The most reads that were under way at once.
        fn most(&self) -> usize {
            self.inside.lock().unwrap_or_else(PoisonError::into_inner).1
        }
    }

    /// A scripted app: a tree of `fanout`-ary levels, each read after the
    /// first `quick` ones taking `delay`; it can hang for good, refuse,
    /// list an ancestor as a child, or meet other apps' reads.
    #[derive(Clone)]
    struct Fake {
        delay: Duration,
        /// Reads that answer at once, before the slow ones.
        quick: usize,
        fanout: usize,
        depth: usize,
        hang: bool,
        denied: bool,
        cycle: bool,
        /// The first two children share one identity.
        collide: bool,
        /// Each read waits there for another app's.
        meet: Option<Arc<Meet>>,
        calls: Arc<AtomicUsize>,
    }

    impl Fake {
        fn new(fanout: usize, depth: usize) -> Fake {
            Fake {
                delay: Duration::ZERO,
                quick: 0,
                fanout,
                depth,
                hang: false,
                denied: false,
                cycle: false,
                collide: false,
                meet: None,
                calls: Arc::new(AtomicUsize::new(0)),
            }
        }
    }

    impl Reads for Fake {
        /// The path of the element from the window.
        type Element = Vec<usize>;

        fn window(&mut self, _: &WindowFacts) -> Result<Vec<usize>, ReadError> {
            if self.denied {
                return Err(ReadError::Denied(
                    "cup is not allowed to use Accessibility".into(),
                ));
            }
            Ok(Vec::new())
        }

        fn read(&mut self, el: &Vec<usize>) -> Result<(AxElement, Vec<Vec<usize>>), ReadError> {
            let call = self.calls.fetch_add(1, Ordering::SeqCst);
            if self.hang {
                loop {
                    std::thread::sleep(Duration::from_secs(3600));
                }
            }
            if let Some(meet) = &self.meet {
                meet.read();
            }
            if call >= self.quick {
                std::thread::sleep(self.delay);
            }
            let mut children: Vec<Vec<usize>> = if el.len() < self.depth {
                (0..self.fanout)
                    .map(|i| {
                        let mut c = el.clone();
                        c.push(i);
                        c
                    })
                    .collect()
            } else {
                Vec::new()
            };
            if self.cycle && el.len() == 1 {
                // The window itself, listed again under its first child.
                children.push(Vec::new());
            }
            let element = AxElement {
                role: if el.is_empty() {
                    "AXWindow"
                } else {
                    "AXButton"
                }
                .into(),
                children_count: children.len(),
                ..AxElement::default()
            };
            Ok((element, children))
        }

        fn identity(&mut self, el: &Vec<usize>) -> u64 {
            if self.collide && el.len() == 1 {
                // Two unrelated siblings with one hash.
                return 99;
            }
            el.iter()
                .fold(7u64, |h, i| h.wrapping_mul(31).wrapping_add(*i as u64 + 1))
        }
    }

    fn window(pid: i32, owner: &str) -> WindowFacts {
        WindowFacts {
            number: u32::try_from(pid).unwrap_or(0) * 10,
            pid,
            owner: owner.into(),
            title: format!("{owner} window"),
            ..WindowFacts::default()
        }
    }

    fn plan(ms: u64) -> Plan {
        Plan {
            max_nodes: 100_000,
            max_depth: 999,
            deadline: Instant::now() + Duration::from_millis(ms),
            per_app: Duration::from_secs(60),
            threads: 8,
        }
    }

    #[test]
    fn a_whole_tree_in_window_order() {
        let windows = [
            window(1, "Finder"),
            window(2, "Safari"),
            window(1, "Finder"),
        ];
        let walked = walk(&windows, |_| Fake::new(3, 3), plan(AMPLE)).expect("walk");
        assert!(walked.partial.is_empty(), "{:?}", walked.partial);
        assert_eq!(walked.trees.len(), 3);
        for (t, w) in walked.trees.iter().zip(&windows) {
            assert_eq!(t.window.pid, w.pid);
            assert_eq!(t.root.as_ref().map(NativeNode::count), Some(1 + 3 + 9 + 27));
        }
    }

    #[test]
    fn the_deadline_is_honoured_with_the_partial_flag() {
        // A slow app of 111,111 elements: 50 read at once, then 2 ms a
        // read: minutes to read all.
        let mut slow = Fake::new(10, 5);
        slow.delay = Duration::from_millis(2);
        slow.quick = 50;
        let start = Instant::now();
        let walked = within(BOUND, move || {
            walk(&[window(1, "Slow")], move |_| slow.clone(), plan(2000))
        })
        .expect("walk");
        let took = start.elapsed();
        // Never sooner: the walker stops 100 ms before the deadline (its
        // margin, room for its answer to arrive on a busy machine) and the
        // app cannot be read whole before; never much later: `within`
        // fails a walk that takes `BOUND`.
        assert!(
            took >= Duration::from_millis(1900),
            "took {took:?} for a 2 s deadline"
        );
        assert_eq!(walked.missing, 1);
        assert!(
            walked.partial[0].contains("the deadline passed"),
            "{:?}",
            walked.partial
        );
        // What was read before the deadline is kept.
        let n = walked.trees[0].root.as_ref().map_or(0, NativeNode::count);
        assert!(n > 20, "{n} elements read");
    }

    #[test]
    fn an_app_that_never_answers_does_not_hang_the_capture() {
        let windows = [window(1, "Hung"), window(2, "Fine")];
        // `within` fails a capture that waits for the hung app.
        let walked = within(BOUND, move || {
            walk(
                &windows,
                |pid| {
                    let mut f = Fake::new(2, 2);
                    f.hang = pid == 1;
                    f
                },
                plan(1000),
            )
        })
        .expect("walk");
        assert!(walked.trees[0].root.is_none());
        assert_eq!(
            walked.trees[1].root.as_ref().map(NativeNode::count),
            Some(7)
        );
        assert_eq!(walked.missing, 1);
        assert!(
            walked
                .partial
                .iter()
                .any(|p| p.contains("Hung did not answer")),
            "{:?}",
            walked.partial
        );
    }

    #[test]
    fn apps_are_walked_in_parallel() {
        // Four apps of 8 reads; a read waits until two apps' reads are
        // under way at once, or for longer than the capture's deadline: a
        // walk of one app after another misses the deadline at its first
        // read.
        let meet = Arc::new(Meet::new(Duration::from_secs(60)));
        let windows: Vec<WindowFacts> = (1..=4).map(|p| window(p, "App")).collect();
        let m = Arc::clone(&meet);
        let walked = walk(
            &windows,
            move |_| {
                let mut f = Fake::new(7, 1);
                f.meet = Some(Arc::clone(&m));
                f
            },
            plan(10_000),
        )
        .expect("walk");
        assert!(walked.partial.is_empty(), "{:?}", walked.partial);
        assert!(meet.most() >= 2, "{} read at once", meet.most());
        for t in &walked.trees {
            assert_eq!(t.root.as_ref().map(NativeNode::count), Some(8));
        }
    }

    #[test]
    fn the_node_cap_is_shared_and_exact() {
        let windows = [window(1, "A"), window(2, "B")];
        let mut p = plan(AMPLE);
        p.max_nodes = 50_000;
        // Two apps of 1 + 10 + 100 + 1,000 + 10,000 + 100,000 elements.
        let walked = walk(&windows, |_| Fake::new(10, 5), p).expect("walk");
        let total: usize = walked
            .trees
            .iter()
            .filter_map(|t| t.root.as_ref())
            .map(NativeNode::count)
            .sum();
        assert_eq!(total, 50_000);
        assert!(walked.partial.iter().any(|p| p.contains("node cap")));
    }

    #[test]
    fn cycles_are_cut_and_depth_is_limited() {
        let mut f = Fake::new(2, 3);
        f.cycle = true;
        let calls = Arc::clone(&f.calls);
        let walked = walk(&[window(1, "Loop")], move |_| f.clone(), plan(AMPLE)).expect("walk");
        assert_eq!(
            walked.trees[0].root.as_ref().map(NativeNode::count),
            Some(15)
        );
        assert_eq!(calls.load(Ordering::SeqCst), 15);
        let mut p = plan(AMPLE);
        p.max_depth = 1;
        let walked = walk(&[window(1, "Deep")], |_| Fake::new(2, 3), p).expect("walk");
        let root = walked.trees[0].root.as_ref().expect("root");
        assert_eq!(root.count(), 3);
        assert!(root.children[0]
            .cut
            .as_deref()
            .is_some_and(|c| c.contains("deeper")));
    }

    #[test]
    fn elements_that_share_a_hash_are_both_kept() {
        let mut f = Fake::new(2, 3);
        f.collide = true;
        let walked = walk(&[window(1, "Twins")], move |_| f.clone(), plan(AMPLE)).expect("walk");
        assert_eq!(
            walked.trees[0].root.as_ref().map(NativeNode::count),
            Some(15),
            "a hash shared by two siblings drops neither"
        );
    }

    #[test]
    fn no_permission_fails_the_capture_with_the_reason() {
        let err = walk(
            &[window(1, "Finder")],
            |_| {
                let mut f = Fake::new(1, 1);
                f.denied = true;
                f
            },
            plan(AMPLE),
        )
        .expect_err("denied");
        assert!(err.contains("Accessibility"), "{err}");
    }
}
