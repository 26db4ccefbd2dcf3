//! Tree capture over AT-SPI: structure first (one `Cache.GetItems` per app
//! where the toolkit implements it, else a level-by-level walk with every
//! call of a level in flight at once), then the per-node details (extents,
//! actions, value, text, attributes) all pipelined, over a direct socket
//! to each app where it offers one (see [`Links`]).
//! Everything runs against one deadline and one node cap; when either is hit
//! the capture returns what it has and says so.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use atspi::{Interface, InterfaceSet, Role as AtspiRole, State as AtspiState, StateSet};
use cup::{Capture, CaptureLimits, Partial};
use cup_protocol::Node;
use futures::channel::mpsc::UnboundedSender;
use futures::stream::{self, StreamExt};
use tokio::time::{timeout_at, Instant};

use crate::atspi_calls::{self as calls, CacheEntry, ObjRef};
use crate::links::Links;
use crate::mapping::{self, MapContext};
use crate::raw::{Extents, RawNode, RawValue};

mod cache_index;
mod statics;
mod unallocated;

pub use cache_index::{CacheIndex, ReadAhead, ReadAheadFor};
use statics::Statics;

/// Calls in flight at once on the accessibility bus.
const CONCURRENCY: usize = 256;
/// Apps whose pids [`AppFacts`] keeps.
const MAX_APPS_REMEMBERED: usize = 1024;
/// Detail reads (extents, values, text...) in flight at once while the
/// structure is still being read. An app answers its calls in the order
/// they come, one per main-loop iteration, so a structure call
/// (`GetChildren` of a node the cache leaves out, the role and states of
/// its children) sent after 150 detail reads waits for all of them, and
/// the next level of the walk waits for it: on gtk3-widget-factory three
/// such levels stood behind the reads of the rest of the window. With a
/// short queue the structure calls go through almost at once while the
/// app still always has reads to answer; once the structure is read, the
/// remaining reads go out together. A window walked level by level (no
/// cache: Qt) lifts the limit at once: there every level is a round trip
/// through the bus, and the reads fill the app's idle time in between
/// (Qt 5 calculator: about 12 % slower with the limit).
const DETAILS_WHILE_WALKING: usize = 16;
/// Characters read from a `Text` interface.
const TEXT_MAX: i32 = 2000;

/// A window to capture.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// The AT-SPI frame (or dialog, window) of the window; `None` for a
    /// window without an accessibility tree.
    pub frame: Option<ObjRef>,
    /// Title and screen rectangle from X11, used for windows without a tree
    /// and to turn window-relative extents (GTK4) into screen coordinates.
    pub title: String,
    /// X11 origin of the window.
    pub origin: (i64, i64),
    /// X11 rectangle.
    pub rect: Option<cup_protocol::Rect>,
    /// Process id.
    pub pid: Option<u32>,
}

/// Structure of one node before its details are read.
#[derive(Debug, Clone)]
struct Skel {
    obj: ObjRef,
    role: AtspiRole,
    name: String,
    description: String,
    states: StateSet,
    interfaces: InterfaceSet,
    depth: usize,
    children: Vec<usize>,
    /// The child count the toolkit reported (-1: not read).
    child_count: i32,
    parent_selectable: bool,
    /// Extents offset (GTK4 window-relative extents).
    offset: (i64, i64),
    toolkit: String,
    toolkit_version: String,
}

/// Per-app facts learned once and kept across captures.
#[derive(Debug, Default)]
pub struct AppFacts {
    no_cache: Mutex<HashSet<String>>,
    toolkits: Mutex<HashMap<String, (String, String)>>,
    statics: Statics,
    /// Pid behind each unique bus name (a unique name is never reused).
    pids: Mutex<HashMap<String, u32>>,
    /// Structures read ahead by the window listing of a snapshot.
    pub ahead: ReadAhead,
}

impl AppFacts {
    /// Toolkit name and version of the app on `bus`, when a capture learned
    /// them.
    pub fn toolkit(&self, bus: &str) -> Option<(String, String)> {
        self.toolkits.lock().ok()?.get(bus).cloned()
    }

    /// The pid of the app on `bus`, when known.
    pub fn pid(&self, bus: &str) -> Option<u32> {
        self.pids.lock().ok()?.get(bus).copied()
    }

    /// Remembers the pid of the app on `bus` (forgetting all once there
    /// are [`MAX_APPS_REMEMBERED`]: apps come and go).
    pub fn put_pid(&self, bus: &str, pid: u32) {
        if let Ok(mut m) = self.pids.lock() {
            if m.len() >= MAX_APPS_REMEMBERED {
                m.clear();
            }
            m.insert(bus.to_owned(), pid);
        }
    }

    /// Whether the app on `bus` is known to be a GTK 2 or 3 app (one that
    /// answers on one thread, with an X round trip per extents read).
    pub fn is_gtk_before_4(&self, bus: &str) -> bool {
        self.toolkit(bus)
            .is_some_and(|(name, version)| crate::raw::is_gtk_before_4(&name, &version))
    }

    /// Whether the app on `bus` is known to be a GTK 4 app.
    pub fn is_gtk4(&self, bus: &str) -> bool {
        self.toolkit(bus)
            .is_some_and(|(name, version)| crate::raw::is_gtk4(&name, &version))
    }
}

struct Walk<'a> {
    links: &'a Links,
    statics: &'a Statics,
    /// Permits of the detail reads (see [`DETAILS_WHILE_WALKING`]).
    permits: &'a tokio::sync::Semaphore,
    /// The limit on detail reads is lifted.
    released: bool,
    deadline: Instant,
    limits: &'a CaptureLimits,
    nodes: Vec<Skel>,
    truncated: usize,
    timed_out: bool,
    /// Detail reads start as soon as a node joins the tree, while the
    /// structure is still being read.
    queue: Option<UnboundedSender<Job>>,
    queued: usize,
    /// Reads queued by kind (extents, actions, value, text, attributes).
    by_kind: [usize; 5],
    /// Details known without a read ([`Statics`]).
    known: Vec<(usize, Option<Got>)>,
    /// Toolkit version of the window being walked (reads are planned as
    /// nodes join, so it must be known then).
    version: String,
    /// The window is GTK 4's: when its structure comes from the cache,
    /// extents are read top-down after it (see [`unallocated`]).
    gtk4: bool,
    /// Extents are read top-down after the walk, not as nodes join: set
    /// for a GTK 4 window whose structure came in one `Cache.GetItems`
    /// (when the structure is walked level by level, the reads start as
    /// nodes join instead, or they would wait for the whole walk).
    defer_extents: bool,
    /// What the window listing read ahead.
    ahead: ReadAheadFor,
}

impl Walk<'_> {
    /// Lifts the limit on detail reads in flight (once).
    fn release_details(&mut self) {
        if !self.released {
            self.permits
                .add_permits(CONCURRENCY - DETAILS_WHILE_WALKING);
            self.released = true;
        }
    }

    fn room(&self) -> bool {
        self.nodes.len() < self.limits.max_nodes
    }

    /// Node `i` is in the tree: queue its detail reads.
    fn accept(&mut self, i: usize) {
        let Some(queue) = &self.queue else { return };
        let keep = Statics::keeps(&self.nodes[i].toolkit);
        let coord = calls::coord_type(is_gtk4(&self.nodes[i]));
        for want in wants(&self.nodes[i]) {
            if self.defer_extents && want == Want::Extents {
                continue;
            }
            if want == Want::Extents {
                if let Some(e) = self.ahead.frame_extents.remove(&self.nodes[i].obj) {
                    self.known.push((i, Some(Got::Extents(Some(e)))));
                    continue;
                }
            }
            if want == Want::Actions && keep {
                if let Some(actions) = self.statics.get(&self.nodes[i].obj).actions {
                    self.known.push((i, Some(Got::Actions(actions))));
                    continue;
                }
            }
            if queue
                .unbounded_send(Job {
                    node: i,
                    obj: self.nodes[i].obj.clone(),
                    want,
                    get_all: calls::get_all_safe(&self.nodes[i].toolkit),
                    keep,
                    coord,
                })
                .is_ok()
            {
                self.queued += 1;
                if let Some(n) = self.by_kind.get_mut(want as usize) {
                    *n += 1;
                }
            }
        }
    }
}

/// Captures `targets`; ids are pre-order across them.
pub async fn capture(
    links: &Links,
    targets: &[Target],
    limits: &CaptureLimits,
    ctx: &MapContext,
    facts: &AppFacts,
    unresponsive: &HashSet<u32>,
) -> Capture {
    let started = Instant::now();
    let deadline = started + limits.deadline;
    // Permits for detail reads: few while the structure is read, all once
    // it is (see DETAILS_WHILE_WALKING). The semaphore is fair, so reads
    // still go out in the order they were queued.
    let permits = tokio::sync::Semaphore::new(DETAILS_WHILE_WALKING);
    let mut walk = Walk {
        links,
        statics: &facts.statics,
        permits: &permits,
        released: false,
        deadline,
        limits,
        nodes: Vec::new(),
        truncated: 0,
        timed_out: false,
        queue: None,
        queued: 0,
        by_kind: [0; 5],
        known: Vec::new(),
        version: String::new(),
        gtk4: false,
        defer_extents: false,
        ahead: ReadAheadFor::default(),
    };
    let mut roots: Vec<Option<usize>> = Vec::new();
    let mut hung: Vec<u32> = Vec::new();
    let mut notes = Vec::new();
    // Extents read top-down (GTK 4 windows), and how many were inherited.
    let mut gated: Vec<(usize, Option<Got>)> = Vec::new();
    let mut inherited = 0usize;
    // Roots of the GTK 4 windows whose extents are read top-down.
    let mut top_down: Vec<usize> = Vec::new();

    // Toolkit of every app involved (one call each, cached across captures).
    let buses: HashSet<String> = targets
        .iter()
        .filter_map(|t| t.frame.as_ref().map(|f| f.bus.clone()))
        .collect();
    let unknown: Vec<String> = {
        let known = facts
            .toolkits
            .lock()
            .map(|m| m.keys().cloned().collect::<HashSet<_>>())
            .unwrap_or_default();
        buses
            .iter()
            .filter(|b| !known.contains(*b))
            .cloned()
            .collect()
    };
    walk.ahead = facts.ahead.take(&buses);
    // Direct sockets to the apps involved (opened once, kept).
    let bus_list: Vec<String> = buses.iter().cloned().collect();
    let _ = timeout_at(deadline, links.open(&bus_list)).await;
    let found = futures::future::join_all(unknown.iter().map(|bus| async move {
        let root = ObjRef::new(bus.clone(), "/org/a11y/atspi/accessible/root");
        (
            bus.clone(),
            timeout_at(deadline, calls::toolkit(&links.to(bus), &root))
                .await
                .ok()
                .and_then(Result::ok)
                .unwrap_or_default(),
        )
    }))
    .await;
    if let Ok(mut m) = facts.toolkits.lock() {
        m.extend(found);
    }
    let toolkits = facts.toolkits.lock().map(|m| m.clone()).unwrap_or_default();
    // Apps that answer on one thread, with an X round trip per extents
    // read, answer sooner when cup polls for their replies than when it
    // sleeps (see wire::BusyPoll).
    let one_thread = !buses.is_empty() && buses.iter().all(|b| facts.is_gtk_before_4(b));
    let _busy = crate::wire::BusyPoll::start(
        deadline.saturating_duration_since(Instant::now()),
        one_thread,
    );

    let (queue, jobs) = futures::channel::mpsc::unbounded::<Job>();
    walk.queue = Some(queue.clone());
    let reads = jobs
        .map(|job| {
            let permits = &permits;
            async move {
                let _permit = permits.acquire().await.ok();
                read_one(links, &facts.statics, deadline, job).await
            }
        })
        .buffer_unordered(CONCURRENCY)
        .collect::<Vec<_>>();
    let walking = async {
        for target in targets {
            let Some(frame) = &target.frame else {
                roots.push(None);
                if let Some(pid) = target.pid.filter(|p| unresponsive.contains(p)) {
                    hung.push(pid);
                    notes.push(format!(
                        "window '{}' (pid {pid}) did not answer over AT-SPI within {} ms (busy or hung); its tree is missing — try again, or check the app",
                        target.title,
                        crate::adapter::FRAMES_TIMEOUT.as_millis()
                    ));
                    continue;
                }
                notes.push(format!(
                    "window '{}'{} exposes no accessibility tree; the app may not support AT-SPI",
                    target.title,
                    target
                        .pid
                        .map(|p| format!(" (pid {p})"))
                        .unwrap_or_default()
                ));
                continue;
            };
            let (toolkit, version) = toolkits.get(&frame.bus).cloned().unwrap_or_default();
            walk.gtk4 = crate::raw::is_gtk4(&toolkit, &version);
            let offset = if walk.gtk4 { target.origin } else { (0, 0) };
            walk.version.clone_from(&version);
            let root = structure(&mut walk, frame, offset, &toolkit, facts).await;
            let deferred = std::mem::take(&mut walk.defer_extents);
            roots.push(root);
            if let (true, Some(r)) = (deferred, root) {
                top_down.push(r);
            }
            if toolkit.eq_ignore_ascii_case("chromium") {
                if let Some(r) = root {
                    if !subtree(&walk.nodes, r)
                        .any(|i| walk.nodes[i].role == AtspiRole::DocumentWeb)
                    {
                        notes.push(format!(
                            "'{}' is a Chromium/Electron window that exposes no web content over AT-SPI; restart it with --force-renderer-accessibility (or capture the page with --platform web)",
                            target.title
                        ));
                    }
                }
            }
        }
        // Every structure is read: the queued detail reads all go out.
        walk.release_details();
        // GTK 4 windows' extents, top-down, all windows at once (after the
        // structures, so no window's walk waits for another's extents).
        let began = Instant::now();
        let passes =
            futures::future::join_all(top_down.iter().map(|&r| extents_top_down(&walk, r))).await;
        for (i, outcome) in passes.into_iter().flatten() {
            let got = match outcome {
                unallocated::Outcome::Read(e) => {
                    walk.by_kind[Want::Extents as usize] += 1;
                    Some(Got::Extents(e))
                }
                unallocated::Outcome::Inherited(e) => {
                    inherited += 1;
                    Some(Got::Extents(Some(e)))
                }
                unallocated::Outcome::TimedOut => {
                    walk.by_kind[Want::Extents as usize] += 1;
                    None
                }
            };
            gated.push((i, got));
        }
        if !top_down.is_empty() {
            tracing::debug!(
                windows = top_down.len(),
                elapsed_ms = began.elapsed().as_secs_f64() * 1e3,
                "extents top-down"
            );
        }
        // No more nodes: the reads finish what is queued.
        walk.queue = None;
        drop(queue);
        started.elapsed()
    };
    let (structured, mut results) = futures::join!(walking, reads);
    results.extend(gated);
    let known = std::mem::take(&mut walk.known);
    let known_count = known.len();
    results.extend(known);
    let details = collect_details(walk.nodes.len(), results);
    let timed_out_details = details.iter().filter(|d| d.timed_out).count();
    tracing::debug!(
        nodes = walk.nodes.len(),
        reads = walk.queued,
        by_kind = ?walk.by_kind,
        extents_inherited = inherited,
        known_actions = known_count,
        structure_ms = structured.as_secs_f64() * 1e3,
        details_ms = (started.elapsed() - structured).as_secs_f64() * 1e3,
        "capture phases"
    );

    // Assemble: pre-order ids across windows.
    let mut tree = Vec::new();
    let mut refs = HashMap::new();
    let mut next_id = 0usize;
    for (target, root) in targets.iter().zip(&roots) {
        match root {
            Some(r) => {
                let mut node = build(&walk.nodes, &details, *r, ctx, &mut next_id, &mut refs);
                if matches!(
                    node.role,
                    cup_protocol::Role::Generic
                        | cup_protocol::Role::Group
                        | cup_protocol::Role::Region
                        | cup_protocol::Role::Application
                ) {
                    // A Qt top-level widget is a "filler": it is the window.
                    node.role = cup_protocol::Role::Window;
                }
                if node.name.is_empty() {
                    // GTK leaves many frames unnamed; the X11 title names the window.
                    node.name = mapping::text::cap(target.title.trim(), mapping::text::NAME_MAX);
                }
                tree.push(node);
            }
            None => tree.push(window_without_tree(target, &mut next_id)),
        }
    }

    let mut reasons = Vec::new();
    if walk.timed_out || timed_out_details > 0 {
        reasons.push(format!(
            "deadline of {} ms reached",
            limits.deadline.as_millis()
        ));
    }
    if walk.truncated > 0 && !walk.room() {
        reasons.push(format!("node cap of {} reached", limits.max_nodes));
    }
    if !hung.is_empty() {
        let pids: Vec<String> = hung.iter().map(u32::to_string).collect();
        reasons.push(format!("app pid {} did not answer", pids.join(", ")));
    }
    let partial = (!reasons.is_empty()).then(|| Partial {
        reason: format!("{} after {} nodes", reasons.join(" and "), walk.nodes.len()),
        missing: walk.truncated + timed_out_details + hung.len(),
    });
    if let Some(p) = &partial {
        // The envelope says so too: on each window root, under
        // `platform.linux.partial` (the schema's escape hatch).
        let mark = serde_json::json!({ "reason": p.reason, "missing": p.missing });
        for root in &mut tree {
            root.platform
                .linux
                .get_or_insert_with(Default::default)
                .extra
                .insert("partial".to_owned(), mark.clone());
        }
    }
    Capture {
        tree,
        refs,
        partial,
        notes,
        tools: Vec::new(),
    }
}

fn subtree(nodes: &[Skel], root: usize) -> impl Iterator<Item = usize> + '_ {
    let mut stack = vec![root];
    std::iter::from_fn(move || {
        let i = stack.pop()?;
        stack.extend(nodes[i].children.iter().rev());
        Some(i)
    })
}

/// Reads the structure below `frame` into `walk.nodes`; returns the index
/// of the frame.
async fn structure(
    walk: &mut Walk<'_>,
    frame: &ObjRef,
    offset: (i64, i64),
    toolkit: &str,
    facts: &AppFacts,
) -> Option<usize> {
    let skip_cache = facts
        .no_cache
        .lock()
        .map(|s| s.contains(&frame.bus))
        .unwrap_or(false);
    let mut cache = Arc::new(CacheIndex::default());
    if let Some(ahead) = walk.ahead.indexes.get(&frame.bus) {
        tracing::debug!(items = ahead.len(), "Cache.GetItems read ahead");
        cache = ahead.clone();
    } else if !skip_cache {
        let asked = Instant::now();
        match timeout_at(
            walk.deadline,
            calls::cache_items(&walk.links.to(&frame.bus), &frame.bus),
        )
        .await
        {
            Ok(Ok(items)) => {
                tracing::debug!(
                    items = items.len(),
                    elapsed_ms = asked.elapsed().as_secs_f64() * 1e3,
                    "Cache.GetItems"
                );
                cache = Arc::new(CacheIndex::new(items));
                if walk.gtk4 {
                    if !cache.covers(frame) {
                        if let Some(realized) = realize_gtk4(walk, frame).await {
                            cache = Arc::new(realized);
                        }
                    }
                    walk.defer_extents = cache.covers(frame);
                }
            }
            Ok(Err(e)) => {
                // GTK's bridge offers the cache only once an event listener
                // is registered (the adapter registers one on connecting),
                // so a miss now may be a hit on the next capture.
                tracing::debug!(bus = %frame.bus, error = %e, "no Cache.GetItems; walking");
                if !calls::is_missing_method(&e) {
                    if let Ok(mut s) = facts.no_cache.lock() {
                        s.insert(frame.bus.clone());
                    }
                }
            }
            Err(_) => {
                walk.timed_out = true;
                return None;
            }
        }
    }
    if cache.items.is_empty() {
        // Walked level by level: see DETAILS_WHILE_WALKING.
        walk.release_details();
    }
    let root = match cache.by_obj.get(frame) {
        Some(&i) => push_cached(walk, &cache.items[i], 0, false, offset, toolkit),
        None => fetch_nodes(walk, std::slice::from_ref(frame), 0, offset, toolkit)
            .await
            .into_iter()
            .next()
            .flatten()?,
    };
    walk.accept(root);
    grow(walk, vec![root], &cache, offset, toolkit).await;
    Some(root)
}

/// `GetChildren` of every object at once (bounded concurrency), each
/// answer with its key, in the order they arrive; `None` for a failed or
/// late call.
async fn children_of<K>(
    links: &Links,
    deadline: Instant,
    objs: impl IntoIterator<Item = (K, ObjRef)>,
) -> Vec<(K, Option<Vec<ObjRef>>)> {
    stream::iter(objs.into_iter().map(|(key, obj)| async move {
        let conn = links.to(&obj.bus);
        let list = timeout_at(deadline, calls::children(&conn, &obj))
            .await
            .ok()
            .and_then(Result::ok);
        (key, list)
    }))
    .buffer_unordered(CONCURRENCY)
    .collect()
    .await
}

/// GTK 4 puts an accessible on the bus only once something asks for it:
/// the `Cache.GetItems` of an app nobody has read yet lists a handful of
/// items. Asking for the children of every node below `frame` (a level's
/// calls at once) creates them all, and a second `GetItems` then lists the
/// whole tree: one call per node instead of the six a walk makes (children,
/// role, states, interfaces, name, description). Returns the new cache, or
/// `None` when the second `GetItems` fails.
async fn realize_gtk4(walk: &Walk<'_>, frame: &ObjRef) -> Option<CacheIndex> {
    let links = walk.links;
    let deadline = walk.deadline;
    let began = Instant::now();
    let mut frontier = vec![frame.clone()];
    let (mut asked, mut depth) = (0usize, 0usize);
    while !frontier.is_empty()
        && depth < walk.limits.max_depth
        && asked < walk.limits.max_nodes
        && Instant::now() < deadline
    {
        asked += frontier.len();
        let lists = children_of(links, deadline, frontier.into_iter().map(|o| ((), o))).await;
        frontier = lists
            .into_iter()
            .filter_map(|((), list)| list)
            .flatten()
            .filter(|c| !c.is_null())
            .collect();
        depth += 1;
    }
    let items = timeout_at(
        deadline,
        calls::cache_items(&links.to(&frame.bus), &frame.bus),
    )
    .await
    .ok()
    .and_then(Result::ok)?;
    tracing::debug!(
        children_calls = asked,
        items = items.len(),
        elapsed_ms = began.elapsed().as_secs_f64() * 1e3,
        "GTK 4 accessibles created, Cache.GetItems again"
    );
    Some(CacheIndex::new(items))
}

/// A node that is neither VISIBLE nor SHOWING (a closed menu or popover,
/// a hidden page, window buttons a toolkit does not draw) is not part of the
/// rendered UI: it is left out with its subtree. (Windows themselves are
/// always captured.)
/// The capture always has the states it read (a node whose states cannot
/// be read is not captured), so an empty set is a real answer: Chromium
/// reports none at all for views it does not draw.
fn unrendered(states: StateSet) -> bool {
    !is_showing(states)
}

fn push_cached(
    walk: &mut Walk<'_>,
    e: &CacheEntry,
    depth: usize,
    parent_selectable: bool,
    offset: (i64, i64),
    toolkit: &str,
) -> usize {
    walk.nodes.push(Skel {
        obj: e.obj.clone(),
        role: e.role,
        name: e.name.clone(),
        description: e.description.clone(),
        states: e.states,
        interfaces: e.interfaces,
        depth,
        children: Vec::new(),
        child_count: e.child_count,
        parent_selectable,
        offset,
        toolkit: toolkit.to_owned(),
        toolkit_version: walk.version.clone(),
    });
    walk.nodes.len() - 1
}

/// Grows the tree down from `frontier`. What the cache lists is taken at
/// once, as deep as it goes (its nodes' detail reads start while the rest
/// is asked for); the nodes it lists incompletely are then asked for their
/// children, every `GetChildren` of a round in flight at once, and the
/// children the cache does not know are read (role, states, interfaces,
/// name) in one concurrent batch; their subtrees make the next round.
/// The answer orders a node's children; a child the cache listed early
/// that the answer leaves out is dropped (its reads were wasted). A
/// window's frame often is such a node: waiting for its `GetChildren`
/// before taking the cached children kept the app idle for 0.4-4.7 ms.
async fn grow(
    walk: &mut Walk<'_>,
    mut frontier: Vec<usize>,
    cache: &CacheIndex,
    offset: (i64, i64),
    toolkit: &str,
) {
    while !frontier.is_empty() {
        if Instant::now() >= walk.deadline {
            walk.timed_out = true;
            walk.truncated += frontier.len();
            return;
        }
        // The cached part below the frontier, depth first.
        let mut ask = Vec::new();
        // Children taken from an incomplete cached list: node and parent.
        let mut early: HashMap<ObjRef, (usize, usize)> = HashMap::new();
        let mut stack: Vec<usize> = frontier.into_iter().rev().collect();
        while let Some(p) = stack.pop() {
            if walk.nodes[p].depth >= walk.limits.max_depth {
                continue;
            }
            let obj = &walk.nodes[p].obj;
            let complete = cache.complete_children(obj).is_some();
            // A node read outside the cache that reported no children (a
            // tree view's cell) is a leaf: no GetChildren. (A cached node
            // with none is complete.)
            if !complete && walk.nodes[p].child_count == 0 {
                continue;
            }
            let listed: Vec<ObjRef> = cache
                .listed_children(obj)
                .iter()
                .map(|&i| cache.items[i].obj.clone())
                .collect();
            if !complete {
                ask.push((p, obj.clone()));
            }
            let no_reads = HashMap::new();
            let taken: Vec<usize> = listed
                .iter()
                .filter_map(|c| attach(walk, p, c, cache, &no_reads, offset, toolkit))
                .collect();
            if !complete {
                early.extend(taken.iter().map(|&c| (walk.nodes[c].obj.clone(), (c, p))));
            }
            walk.nodes[p].children.clone_from(&taken);
            stack.extend(taken.into_iter().rev());
        }
        if ask.is_empty() {
            return;
        }
        let mut lists = children_of(walk.links, walk.deadline, ask).await;
        lists.sort_by_key(|(p, _)| *p);

        // Children the cache does not know: read them all at once.
        let mut unknown: Vec<ObjRef> = Vec::new();
        for (_, list) in &lists {
            for c in list.iter().flatten() {
                if !c.is_null() && !cache.by_obj.contains_key(c) {
                    unknown.push(c.clone());
                }
            }
        }
        let fetched: HashMap<ObjRef, Option<usize>> = if unknown.is_empty() {
            HashMap::new()
        } else {
            let got = fetch_nodes(walk, &unknown, 0, offset, toolkit).await;
            unknown.into_iter().zip(got).collect()
        };

        let mut next = Vec::new();
        for (p, list) in lists {
            let Some(list) = list else {
                if Instant::now() >= walk.deadline {
                    walk.timed_out = true;
                }
                // No answer: the children the cache listed stay.
                early.retain(|_, (_, parent)| *parent != p);
                continue;
            };
            // Children taken early keep their node (and subtree); the
            // answer gives the order and the rest.
            let mut children = Vec::with_capacity(list.len());
            for c in &list {
                match early.remove(c) {
                    Some((n, _)) => children.push(n),
                    None => {
                        let got = attach(walk, p, c, cache, &fetched, offset, toolkit);
                        next.extend(got);
                        children.extend(got);
                    }
                }
            }
            // A child the cache listed that the answer leaves out is not
            // in the tree (its node stays unreferenced).
            walk.nodes[p].children = children;
        }
        frontier = next;
    }
}

/// Takes object `c` as a child of node `p`: from the cache, or from
/// `fetched` (read outside it). `None` when it is left out: unrendered, or
/// past the node cap or unread (counted as truncated). The caller sets
/// `p`'s children.
fn attach(
    walk: &mut Walk<'_>,
    p: usize,
    c: &ObjRef,
    cache: &CacheIndex,
    fetched: &HashMap<ObjRef, Option<usize>>,
    offset: (i64, i64),
    toolkit: &str,
) -> Option<usize> {
    if c.is_null() {
        return None;
    }
    let depth = walk.nodes[p].depth + 1;
    let selectable = walk.nodes[p].interfaces.contains(Interface::Selection);
    let node = match cache.by_obj.get(c) {
        Some(&i) if unrendered(cache.items[i].states) => return None,
        Some(&i) if walk.room() => Some(push_cached(
            walk,
            &cache.items[i],
            depth,
            selectable,
            offset,
            toolkit,
        )),
        Some(_) => None,
        None => fetched.get(c).copied().flatten(),
    };
    match node {
        Some(n) if unrendered(walk.nodes[n].states) => None,
        Some(n) => {
            walk.nodes[n].depth = depth;
            walk.nodes[n].parent_selectable = selectable;
            walk.accept(n);
            Some(n)
        }
        None => {
            walk.truncated += 1;
            None
        }
    }
}

/// What [`fetch_nodes`] reads of one node: role and interfaces, states,
/// properties.
type NodeRead = ((AtspiRole, InterfaceSet), StateSet, calls::AccessibleProps);

/// Reads role, states, interfaces, name and description of `objs` at once
/// (role and interfaces of a GTK object only the first time: [`Statics`]).
async fn fetch_nodes(
    walk: &mut Walk<'_>,
    objs: &[ObjRef],
    depth: usize,
    offset: (i64, i64),
    toolkit: &str,
) -> Vec<Option<usize>> {
    let links = walk.links;
    let statics = walk.statics;
    let deadline = walk.deadline;
    let get_all = calls::get_all_safe(toolkit);
    let keep = Statics::keeps(toolkit);
    let read: Vec<Option<NodeRead>> = stream::iter(objs.iter().cloned().map(|obj| async move {
        let conn = links.to(&obj.bus);
        let known = if keep { statics.get(&obj).kind } else { None };
        let kind = async {
            if let Some(kind) = known {
                return calls::CallResult::Ok(kind);
            }
            let kind = tokio::try_join!(calls::role(&conn, &obj), calls::interfaces(&conn, &obj))?;
            if keep {
                statics.put_kind(&obj, kind.0, kind.1);
            }
            Ok(kind)
        };
        let all = async {
            tokio::try_join!(
                kind,
                calls::states(&conn, &obj),
                calls::accessible_props(&conn, &obj, get_all)
            )
        };
        timeout_at(deadline, all).await.ok().and_then(Result::ok)
    }))
    .buffered(CONCURRENCY)
    .collect()
    .await;
    let mut out = Vec::with_capacity(objs.len());
    for (obj, r) in objs.iter().zip(read) {
        match r {
            Some(((role, interfaces), states, props)) if walk.room() => {
                walk.nodes.push(Skel {
                    obj: obj.clone(),
                    role,
                    name: props.name,
                    description: props.description,
                    states,
                    interfaces,
                    depth,
                    children: Vec::new(),
                    child_count: props.child_count,
                    parent_selectable: false,
                    offset,
                    toolkit: toolkit.to_owned(),
                    toolkit_version: walk.version.clone(),
                });
                out.push(Some(walk.nodes.len() - 1));
            }
            Some(_) => {
                walk.truncated += 1;
                out.push(None);
            }
            None => {
                if Instant::now() >= deadline {
                    walk.timed_out = true;
                }
                walk.truncated += 1;
                out.push(None);
            }
        }
    }
    out
}

/// Details of one node.
#[derive(Debug, Clone, Default)]
struct Details {
    extents: Option<Extents>,
    actions: Vec<String>,
    value: Option<RawValue>,
    text: Option<String>,
    attributes: HashMap<String, String>,
    timed_out: bool,
}

enum Got {
    Extents(Option<Extents>),
    Actions(Vec<String>),
    Value(Option<RawValue>),
    Text(Option<String>),
    Attributes(HashMap<String, String>),
}

/// Reads the extents of the window under `root` top-down (see
/// [`unallocated`]): nodes under a widget GTK 4 did not allocate inherit
/// its empty extents instead of being asked.
async fn extents_top_down(walk: &Walk<'_>, root: usize) -> Vec<(usize, unallocated::Outcome)> {
    let nodes = &walk.nodes;
    let links = walk.links;
    let deadline = walk.deadline;
    unallocated::read_top_down(
        root,
        |i| nodes[i].children.as_slice(),
        |i| wants(&nodes[i]).contains(&Want::Extents),
        |i| mapping::gtk4_may_be_unallocated(nodes[i].role),
        |i| {
            let obj = nodes[i].obj.clone();
            let conn = links.to(&obj.bus);
            async move {
                timeout_at(deadline, calls::extents(&conn, &obj, calls::COORD_WINDOW))
                    .await
                    .ok()
                    .map(Result::ok)
            }
        },
        CONCURRENCY,
    )
    .await
}

/// One optional read of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Extents,
    Actions,
    Value,
    Text,
    Attributes,
}

/// The reads the mapping of node `n` uses.
fn wants(n: &Skel) -> Vec<Want> {
    let mut out = Vec::with_capacity(3);
    // GTK 4's Action interface on every widget says nothing.
    let interfaces = if is_gtk4(n) && !mapping::gtk4_may_have_actions(n.role, n.states) {
        n.interfaces
            .iter()
            .filter(|i| *i != Interface::Action)
            .collect()
    } else {
        n.interfaces
    };
    if n.interfaces.contains(Interface::Component)
        && !mapping::bounds_unused(n.role, &n.name, interfaces)
    {
        out.push(Want::Extents);
    }
    if interfaces.contains(Interface::Action)
        && mapping::needs_actions(n.role, n.states, &n.toolkit)
        && (!is_gtk4(n) || mapping::gtk4_names_actions(n.role))
    {
        out.push(Want::Actions);
    }
    if n.interfaces.contains(Interface::Value) {
        out.push(Want::Value);
    }
    if mapping::needs_text(n.role, n.interfaces)
        && (n.name.trim().is_empty() || mapping::kinds::is_text_input(mapping::native_role(n.role)))
    {
        out.push(Want::Text);
    }
    if mapping::needs_attributes(n.role, &n.toolkit, &n.toolkit_version) {
        out.push(Want::Attributes);
    }
    out
}

/// GTK 4 gives every widget the Action interface, mostly empty.
fn is_gtk4(n: &Skel) -> bool {
    crate::raw::is_gtk4(&n.toolkit, &n.toolkit_version)
}

/// A queued read.
struct Job {
    /// Index of the node.
    node: usize,
    obj: ObjRef,
    want: Want,
    /// Properties may be read with one `GetAll` ([`calls::get_all_safe`]).
    get_all: bool,
    /// The action names read are kept ([`Statics`]).
    keep: bool,
    /// Coordinate type of `GetExtents`: window-relative on GTK 4.
    coord: u32,
}

/// Runs one read under the deadline.
async fn read_one(
    links: &Links,
    statics: &Statics,
    deadline: Instant,
    job: Job,
) -> (usize, Option<Got>) {
    let Job {
        node: i,
        obj,
        want,
        get_all,
        keep,
        coord,
    } = job;
    let conn = &links.to(&obj.bus);
    let obj = &obj;
    let got = match want {
        Want::Extents => timeout_at(deadline, calls::extents(conn, obj, coord))
            .await
            .map(|r| Got::Extents(r.ok())),
        Want::Actions => timeout_at(deadline, calls::action_names(conn, obj))
            .await
            .map(|r| {
                if let (true, Ok(names)) = (keep, &r) {
                    statics.put_actions(obj, names);
                }
                Got::Actions(r.unwrap_or_default())
            }),
        Want::Value => timeout_at(deadline, calls::value(conn, obj, get_all))
            .await
            .map(|r| Got::Value(r.ok())),
        Want::Text => timeout_at(deadline, calls::text(conn, obj, TEXT_MAX))
            .await
            .map(|r| Got::Text(r.ok())),
        Want::Attributes => timeout_at(deadline, calls::attributes(conn, obj))
            .await
            .map(|r| Got::Attributes(r.unwrap_or_default())),
    };
    (i, got.ok())
}

/// Details per node from the reads' results.
fn collect_details(count: usize, results: Vec<(usize, Option<Got>)>) -> Vec<Details> {
    let mut out = vec![Details::default(); count];
    for (i, got) in results {
        let Some(d) = out.get_mut(i) else { continue };
        match got {
            None => d.timed_out = true,
            Some(Got::Extents(e)) => d.extents = e,
            Some(Got::Actions(a)) => d.actions = a,
            Some(Got::Value(v)) => d.value = v,
            Some(Got::Text(t)) => d.text = t,
            Some(Got::Attributes(a)) => d.attributes = a,
        }
    }
    out
}

fn raw_node(s: &Skel, d: &Details) -> RawNode {
    let mut raw = RawNode::new(s.role);
    raw.name = s.name.clone();
    raw.description = s.description.clone();
    raw.states = s.states;
    raw.interfaces = s.interfaces;
    raw.extents = d.extents.map(|e| {
        if e.is_unplaced() {
            return e;
        }
        Extents {
            x: e.x.saturating_add(i32::try_from(s.offset.0).unwrap_or(0)),
            y: e.y.saturating_add(i32::try_from(s.offset.1).unwrap_or(0)),
            ..e
        }
    });
    raw.action_names = d.actions.clone();
    raw.value = d.value.clone();
    raw.text = d.text.clone();
    raw.attributes = d.attributes.clone();
    raw.parent_selectable = s.parent_selectable;
    raw.bus_name = s.obj.bus.clone();
    raw.path = s.obj.path.clone();
    raw.toolkit = s.toolkit.clone();
    raw.toolkit_version = s.toolkit_version.clone();
    raw
}

fn build(
    nodes: &[Skel],
    details: &[Details],
    i: usize,
    ctx: &MapContext,
    next_id: &mut usize,
    refs: &mut HashMap<String, String>,
) -> Node {
    let id = format!("e{next_id}");
    *next_id += 1;
    refs.insert(id.clone(), nodes[i].obj.key());
    let mut node = mapping::map_node(&raw_node(&nodes[i], &details[i]), ctx).into_node(id);
    node.children = nodes[i]
        .children
        .iter()
        .map(|&c| build(nodes, details, c, ctx, next_id, refs))
        .collect();
    if node.name.is_empty() && mapping::kinds::names_from_content(node.role) {
        node.name = mapping::text::name_from_content(&node.children);
    }
    node
}

fn window_without_tree(target: &Target, next_id: &mut usize) -> Node {
    let mut n = Node::new(
        format!("e{next_id}"),
        cup_protocol::Role::Window,
        target.title.clone(),
    );
    *next_id += 1;
    n.bounds = target.rect;
    n
}

/// `true` when the frame is a visible top-level window.
pub fn is_showing(states: StateSet) -> bool {
    states.contains(AtspiState::Showing) || states.contains(AtspiState::Visible)
}
