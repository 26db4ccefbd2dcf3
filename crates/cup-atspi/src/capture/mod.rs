//! Tree capture over AT-SPI: structure first (one `Cache.GetItems` per app
//! where the toolkit implements it, else a level-by-level walk with every
//! call of a level in flight at once), then the per-node details (extents,
//! actions, value, text, attributes) all pipelined, over a direct socket
//! to each app where it offers one (see [`Links`]).
//! Everything runs against one deadline and one node cap; when either is hit
//! the capture returns what it has and says so.
//!
//! This module runs a capture; `structure` reads the windows' structure,
//! `details` the per-node reads, `assemble` maps the result to CUP.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use atspi::{Interface, InterfaceSet, Role as AtspiRole, State as AtspiState, StateSet};
use cup::{Capture, CaptureLimits, Partial};
use cup_protocol::Node;
use futures::channel::mpsc::UnboundedSender;
use futures::stream::{self, StreamExt};
use tokio::time::{timeout_at, Instant};

use crate::atspi_calls::{self as calls, CacheEntry, ObjRef};
use crate::facts::{Extents, RawNode, RawTree, RawValue};
use crate::mapping::{self, MapContext};
use crate::peers::Links;

/// How long an application gets to list its windows before it counts as
/// busy or hung (its windows then come from the display server alone).
pub const FRAMES_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(1000);

mod assemble;
mod cache_index;
mod details;
mod gtk4_rows;
mod labels;
mod managed;
mod menus;
mod office;
mod rows;
mod small_windows;
mod stale_rows;
mod statics;
mod structure;
mod unallocated;
mod vcl_offset;
mod warm;

use assemble::{build, managed_notes, raw_tree, scrolled_notes, window_without_tree};
pub use cache_index::{CacheIndex, ReadAhead, ReadAheadFor};
use details::{collect_details, extents_top_down, is_gtk4, read_one, wants, Got, Job, Want};
use statics::Statics;
use structure::structure;

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

/// The extents offset of a window whose place is unknown: its nodes'
/// extents are dropped instead of offset (see [`Target::unplaced`]).
pub(crate) const UNPLACED: (i64, i64) = (i64::MIN, i64::MIN);

/// A window to capture.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// The AT-SPI frame (or dialog, window) of the window; `None` for a
    /// window without an accessibility tree.
    pub frame: Option<ObjRef>,
    /// Title and screen rectangle from X11, used for windows without a tree
    /// and to turn window-relative extents (GTK4) into screen coordinates.
    pub title: String,
    /// Where the window's window-relative (0, 0) is on screen: its X11
    /// origin, or under Wayland the compositor's rectangle less the
    /// client-side shadow.
    pub origin: (i64, i64),
    /// Every extent of the window is window-relative (a native Wayland
    /// client), not only GTK 4's.
    pub relative: bool,
    /// Nobody knows where the window is, and why (a Wayland popup the
    /// compositor does not list; a compositor that tells no window
    /// positions): its nodes get no bounds.
    pub unplaced: Option<String>,
    /// X11 rectangle.
    pub rect: Option<cup_protocol::Rect>,
    /// Process id.
    pub pid: Option<u32>,
    /// The places of the popup windows the app has mapped now (X11
    /// override-redirect windows), where the display server tells them:
    /// a GTK 2 menu whose items lie in none is closed, whatever places
    /// GAIL still answers for them (the capture's `menus` module).
    pub popups: Option<Vec<cup_protocol::Rect>>,
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
    /// What was read of a container that manages its descendants (it is
    /// never asked for its children: see [`managed`]).
    shown: Option<managed::Shown>,
    /// Its name came from the label that labels it (see [`labels`]).
    labelled: bool,
    /// It is a row scrolled off screen in a list, tree or tree table
    /// ([`rows::scrolled_away`]): its own details are read, not those of
    /// what it holds.
    away: bool,
    /// It lies inside such a row: its details are not read.
    beyond: bool,
}

/// Per-app facts learned once and kept across captures.
#[derive(Debug, Default)]
pub struct AppFacts {
    no_cache: Mutex<HashSet<String>>,
    toolkits: Mutex<HashMap<String, (String, String)>>,
    statics: Statics,
    /// Pid behind each unique bus name (a unique name is never reused).
    pids: Mutex<HashMap<String, u32>>,
    /// Program (`/proc/PID/comm`) behind each unique bus name, read once
    /// with its pid.
    programs: Mutex<HashMap<String, String>>,
    /// Structures read ahead by the window listing of a snapshot.
    pub ahead: ReadAhead,
    /// Gecko apps whose web content was read once (see [`warm`]).
    warm: warm::Warmed,
    /// Cells of tables that manage their descendants (see [`managed`]).
    cells: managed::CellCache,
    /// How large each window is against its app (see [`small_windows`]).
    sizes: small_windows::Sizes,
}

impl AppFacts {
    /// Toolkit name and version of the app on `bus`, when a capture learned
    /// them.
    pub fn toolkit(&self, bus: &str) -> Option<(String, String)> {
        self.toolkits.lock().ok()?.get(bus).cloned()
    }

    /// Remembers the toolkit (name, version) of the app on `bus`.
    pub fn put_toolkit(&self, bus: &str, toolkit: (String, String)) {
        if let Ok(mut m) = self.toolkits.lock() {
            m.insert(bus.to_owned(), toolkit);
        }
    }

    /// The pid of the app on `bus`, when known.
    pub fn pid(&self, bus: &str) -> Option<u32> {
        self.pids.lock().ok()?.get(bus).copied()
    }

    /// Remembers the pid of the app on `bus` (forgetting all once there
    /// are `MAX_APPS_REMEMBERED`: apps come and go).
    pub fn put_pid(&self, bus: &str, pid: u32) {
        if let Ok(mut m) = self.pids.lock() {
            if m.len() >= MAX_APPS_REMEMBERED {
                m.clear();
            }
            m.insert(bus.to_owned(), pid);
        }
        let program = std::fs::read_to_string(format!("/proc/{pid}/comm"));
        if let (Ok(mut m), Ok(program)) = (self.programs.lock(), program) {
            if m.len() >= MAX_APPS_REMEMBERED {
                m.clear();
            }
            m.insert(bus.to_owned(), program.trim().to_owned());
        }
    }

    /// Whether the app on `bus` is known to be a GTK 2 or 3 app (one that
    /// answers on one thread, with an X round trip per extents read).
    pub fn is_gtk_before_4(&self, bus: &str) -> bool {
        self.toolkit(bus)
            .is_some_and(|(name, version)| crate::facts::is_gtk_before_4(&name, &version))
    }

    /// Whether cup's capture of the app on `bus` should busy-poll for its
    /// replies (see `wire::busy::helps`): known from its toolkit
    /// and its program (both learned once per app).
    pub fn busy_poll_helps(&self, bus: &str) -> bool {
        let Some((name, version)) = self.toolkit(bus) else {
            return false;
        };
        let program = self.programs.lock().ok().and_then(|m| m.get(bus).cloned());
        crate::wire::busy::helps(&name, &version, program.as_deref())
    }

    /// Whether the app on `bus` is known to be a GTK 4 app.
    pub fn is_gtk4(&self, bus: &str) -> bool {
        self.toolkit(bus)
            .is_some_and(|(name, version)| crate::facts::is_gtk4(&name, &version))
    }
}

struct Walk<'a> {
    links: &'a Links,
    statics: &'a Statics,
    cells: &'a managed::CellCache,
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
    /// Nodes inside rows scrolled off screen, whose details were not read.
    beyond: usize,
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
    /// Apps one of whose windows was walked for being small, and apps one
    /// of whose windows came from `GetItems` (see [`small_windows`]).
    walked_small: HashSet<String>,
    from_cache: HashSet<String>,
    /// Extents of a managed table's cells, known from their rows and
    /// columns (see [`managed::grid_extents`]).
    grid_extents: HashMap<ObjRef, Extents>,
    /// Extents of GTK 4 rows read while their subtrees were created (see
    /// [`gtk4_rows`]): the top-down pass takes them.
    row_extents: HashMap<ObjRef, Extents>,
    /// `Accessible` properties of a managed table's cells, known without a
    /// read (see [`managed::addressed`]).
    known_props: HashMap<ObjRef, calls::AccessibleProps>,
    /// GTK 2 menu items waiting for their menu's probe ([`menus`]).
    menus: menus::Holds,
    /// Items of closed GTK 2 menus given their menu's extents.
    closed_items: usize,
    /// The popup windows mapped by the apps captured, where the display
    /// server tells them ([`Target::popups`]).
    popups: Option<Vec<cup_protocol::Rect>>,
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
        self.queue_reads(i, None);
    }

    /// Node `i` is in the tree, and its extents are known (`placed`):
    /// queue its other reads (see [`menus`]).
    fn accept_placed(&mut self, i: usize, placed: Extents) {
        self.queue_reads(i, Some(placed));
    }

    fn queue_reads(&mut self, i: usize, placed: Option<Extents>) {
        let Some(queue) = &self.queue else { return };
        if self.nodes[i].beyond {
            self.beyond += 1;
            return;
        }
        let keep = Statics::keeps_actions(&self.nodes[i].toolkit, self.nodes[i].role);
        let coord = calls::coord_type(is_gtk4(&self.nodes[i]));
        for want in wants(&self.nodes[i]) {
            if self.defer_extents && want == Want::Extents {
                continue;
            }
            if want == Want::Extents {
                if let Some(e) = placed {
                    self.known.push((i, Some(Got::Extents(Some(e)))));
                    continue;
                }
                if let Some(e) = self.grid_extents.remove(&self.nodes[i].obj) {
                    self.known.push((i, Some(Got::Extents(Some(e)))));
                    continue;
                }
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

/// Captures `targets`; ids are pre-order across them. With `record`, the
/// raw facts of every captured window come back too (`--native-dump`).
///
/// A capture that finds a Gecko app's (Firefox, Thunderbird) web content
/// not sent yet is read again until it settles (module `warm`), once per app:
/// Gecko sends its content processes' facts (names from content, bounds,
/// actions, text) to the accessibility bus only once a client first asks
/// for each kind.
pub async fn capture(
    links: &Links,
    targets: &[Target],
    limits: &CaptureLimits,
    ctx: &MapContext,
    facts: &AppFacts,
    unresponsive: &HashSet<u32>,
    record: bool,
) -> (Capture, Option<Vec<RawTree>>) {
    let once = || capture_once(links, targets, limits, ctx, facts, unresponsive, record);
    let (capture, raws, gecko) = once().await;
    let cold = facts.warm.first_time(gecko);
    if cold.is_empty() {
        return (capture, raws);
    }
    let (mut capture, raws, unsent) = warm::settle(&cold, (capture, raws), once).await;
    if !unsent.is_empty() {
        // The content process never answered: the next capture asks again,
        // and this one says what it lacks.
        facts.warm.forget(&unsent);
        let reason = format!(
            "web content not sent by {} within {} ms (the page may still be loading): snapshot again",
            unsent.join(", "),
            warm::SETTLE_MAX.as_millis()
        );
        let partial = match capture.partial.take() {
            Some(p) => Partial {
                reason: format!("{}; {reason}", p.reason),
                missing: p.missing + unsent.len(),
            },
            None => Partial {
                reason,
                missing: unsent.len(),
            },
        };
        mark_partial(&mut capture.tree, &partial);
        capture.partial = Some(partial);
    }
    (capture, raws)
}

/// Says on each window root, under `platform.linux.partial` (the schema's
/// escape hatch), that the capture is partial and why.
fn mark_partial(tree: &mut [Node], partial: &Partial) {
    let mark = serde_json::json!({ "reason": partial.reason, "missing": partial.missing });
    for root in tree {
        root.platform
            .linux
            .get_or_insert_with(Default::default)
            .extra
            .insert("partial".to_owned(), mark.clone());
    }
}

/// One capture of `targets`; also names the Gecko apps whose web content
/// is not sent yet ([`warm::not_sent`]).
async fn capture_once(
    links: &Links,
    targets: &[Target],
    limits: &CaptureLimits,
    ctx: &MapContext,
    facts: &AppFacts,
    unresponsive: &HashSet<u32>,
    record: bool,
) -> (Capture, Option<Vec<RawTree>>, HashSet<String>) {
    let started = Instant::now();
    let deadline = started + limits.deadline;
    // Permits for detail reads: few while the structure is read, all once
    // it is (see DETAILS_WHILE_WALKING). The semaphore is fair, so reads
    // still go out in the order they were queued.
    let permits = tokio::sync::Semaphore::new(DETAILS_WHILE_WALKING);
    let mut walk = Walk {
        links,
        statics: &facts.statics,
        cells: &facts.cells,
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
        beyond: 0,
        known: Vec::new(),
        version: String::new(),
        gtk4: false,
        defer_extents: false,
        ahead: ReadAheadFor::default(),
        walked_small: HashSet::new(),
        from_cache: HashSet::new(),
        grid_extents: HashMap::new(),
        row_extents: HashMap::new(),
        known_props: HashMap::new(),
        menus: menus::Holds::default(),
        closed_items: 0,
        popups: None,
    };
    let mut roots: Vec<Option<usize>> = Vec::new();
    let mut gecko_roots: Vec<(String, usize)> = Vec::new();
    // Chromium/Electron apps showing no web content yet (see below).
    let mut chromium_dark: HashSet<String> = HashSet::new();
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
    let one_thread = !buses.is_empty() && buses.iter().all(|b| facts.busy_poll_helps(b));
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
    let mut labelled = Vec::new();
    let walking = async {
        for target in targets {
            let Some(frame) = &target.frame else {
                roots.push(None);
                if let Some(pid) = target.pid.filter(|p| unresponsive.contains(p)) {
                    hung.push(pid);
                    notes.push(format!(
                        "window '{}' (pid {pid}) did not answer over AT-SPI within {} ms (busy or hung); its tree is missing — try again, or check the app",
                        target.title,
                        FRAMES_TIMEOUT.as_millis()
                    ));
                    continue;
                }
                let why = target
                    .pid
                    .and_then(crate::advice::for_pid)
                    .unwrap_or("the app may not support AT-SPI");
                notes.push(format!(
                    "window '{}'{} exposes no accessibility tree; {why}",
                    target.title,
                    target
                        .pid
                        .map(|p| format!(" (pid {p})"))
                        .unwrap_or_default()
                ));
                continue;
            };
            let (toolkit, version) = toolkits.get(&frame.bus).cloned().unwrap_or_default();
            walk.gtk4 = crate::facts::is_gtk4(&toolkit, &version);
            if let Some(why) = &target.unplaced {
                notes.push(format!(
                    "window '{}' has no known place on the screen ({why}): its elements have no bounds; act on them through their actions",
                    target.title
                ));
            }
            let offset = if target.unplaced.is_some() {
                UNPLACED
            } else if walk.gtk4 || target.relative {
                target.origin
            } else {
                (0, 0)
            };
            walk.version.clone_from(&version);
            if let Some(popups) = &target.popups {
                walk.popups
                    .get_or_insert_with(Vec::new)
                    .extend_from_slice(popups);
            }
            let root = structure(&mut walk, frame, offset, &toolkit, facts).await;
            let deferred = std::mem::take(&mut walk.defer_extents);
            roots.push(root);
            if let (true, Some(r)) = (deferred, root) {
                top_down.push(r);
            }
            if let (true, Some(r)) = (mapping::is_gecko(&toolkit), root) {
                gecko_roots.push((frame.bus.clone(), r));
            }
            if toolkit.eq_ignore_ascii_case("chromium") {
                if let Some(r) = root {
                    if !subtree(&walk.nodes, r)
                        .any(|i| walk.nodes[i].role == AtspiRole::DocumentWeb)
                    {
                        // Chromium turns its renderers' accessibility on
                        // when a client first reads its tree (with the
                        // bus's IsEnabled set): read again, like Gecko's
                        // lazy facts, once per app (`warm`).
                        chromium_dark.insert(frame.bus.clone());
                        notes.push(format!(
                            "'{}' is a Chromium/Electron window that exposes no web content over AT-SPI; restart it with --force-renderer-accessibility (or capture the page with --platform web)",
                            target.title
                        ));
                    }
                }
            }
        }
        // An app only whose small windows were walked is not read ahead
        // by the next listing.
        for bus in walk.walked_small.difference(&walk.from_cache) {
            facts.ahead.forget(bus);
        }
        // GTK 2's menus: open or closed? (Before the queued reads all go
        // out, so the probes do not wait behind them.)
        menus::probe(&mut walk).await;
        // Every structure is read: the queued detail reads all go out.
        walk.release_details();
        // GTK 4 windows' extents, top-down, all windows at once (after the
        // structures, so no window's walk waits for another's extents).
        // Unnamed controls named by their labels: asked beside the
        // detail reads.
        let ((passes, top_down_time), named) = futures::join!(
            async {
                let began = Instant::now();
                let passes =
                    futures::future::join_all(top_down.iter().map(|&r| extents_top_down(&walk, r)))
                        .await;
                (passes, began.elapsed())
            },
            labels::read_labels(links, walk.statics, &walk.nodes, deadline)
        );
        labelled = named;
        // Rows that kept their place from before a scroll (GTK 4.8).
        let mut passes = passes;
        for (pass, &r) in passes.iter_mut().zip(&top_down) {
            stale_rows::settle(&walk, r, pass).await;
        }
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
                elapsed_ms = top_down_time.as_secs_f64() * 1e3,
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
    let mut details = collect_details(walk.nodes.len(), results);
    // LibreOffice's own widgets, placed where they are drawn.
    vcl_offset::put_right(links, walk.statics, &walk.nodes, &mut details, deadline).await;
    for (i, name) in labelled {
        walk.nodes[i].name = name;
        walk.nodes[i].labelled = true;
    }
    // Gecko apps whose web content Gecko has not sent yet (see `warm`).
    let gecko: HashSet<String> = gecko_roots
        .iter()
        .filter(|(_, r)| {
            let empty_frame = subtree(&walk.nodes, *r).any(|i| {
                let n = &walk.nodes[i];
                n.role == AtspiRole::InternalFrame
                    && warm::frame_empty(
                        n.states.contains(AtspiState::Showing),
                        n.children.len(),
                        n.child_count,
                    )
            });
            empty_frame
                || subtree(&walk.nodes, *r)
                    .filter(|&i| walk.nodes[i].role == AtspiRole::DocumentWeb)
                    .any(|doc| {
                        let controls: Vec<usize> = subtree(&walk.nodes, doc)
                            .filter(|&i| warm::is_control(walk.nodes[i].role))
                            .collect();
                        warm::not_sent(&warm::DocFacts {
                            showing: walk.nodes[doc].states.contains(AtspiState::Showing),
                            placed: details[doc].extents.is_some_and(|e| e.w > 0 && e.h > 0),
                            controls: controls.len(),
                            controls_with_actions: controls
                                .iter()
                                .filter(|&&i| !details[i].actions.is_empty())
                                .count(),
                        })
                    })
        })
        .map(|(bus, _)| bus.clone())
        .chain(chromium_dark)
        .collect();
    let timed_out_details = details.iter().filter(|d| d.timed_out).count();
    tracing::debug!(
        nodes = walk.nodes.len(),
        reads = walk.queued,
        by_kind = ?walk.by_kind,
        beyond_rows = walk.beyond,
        extents_inherited = inherited,
        known_actions = known_count,
        closed_menu_items = walk.closed_items,
        structure_ms = structured.as_secs_f64() * 1e3,
        details_ms = (started.elapsed() - structured).as_secs_f64() * 1e3,
        "capture phases"
    );

    // Assemble: pre-order ids across windows.
    let mut tree = Vec::new();
    let mut refs = HashMap::new();
    let mut next_id = 0usize;
    let mut raws = record.then(Vec::new);
    for (target, root) in targets.iter().zip(&roots) {
        match root {
            Some(r) => {
                if let Some(raws) = &mut raws {
                    let mut raw_id = next_id;
                    raws.push(raw_tree(&walk.nodes, &details, *r, &mut raw_id));
                }
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
                office::put_right(&mut node);
                tree.push(node);
            }
            None => tree.push(window_without_tree(target, &mut next_id)),
        }
    }

    managed_notes(&tree, &mut notes);
    scrolled_notes(&tree, &mut notes);
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
        // The envelope says so too.
        mark_partial(&mut tree, p);
    }
    let capture = Capture {
        tree,
        refs,
        partial,
        notes,
        tools: Vec::new(),
        revision: None,
    };
    (capture, raws, gecko)
}

fn subtree(nodes: &[Skel], root: usize) -> impl Iterator<Item = usize> + '_ {
    let mut stack = vec![root];
    std::iter::from_fn(move || {
        let i = stack.pop()?;
        stack.extend(nodes[i].children.iter().rev());
        Some(i)
    })
}

/// `true` when the frame is a visible top-level window.
pub fn is_showing(states: StateSet) -> bool {
    states.contains(AtspiState::Showing) || states.contains(AtspiState::Visible)
}
