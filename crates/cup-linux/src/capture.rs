//! Tree capture over AT-SPI: structure first (one `Cache.GetItems` per app
//! where the toolkit implements it, else a level-by-level walk with every
//! call of a level in flight at once), then the per-node details (extents,
//! actions, value, text, attributes) all pipelined on one connection.
//! Everything runs against one deadline and one node cap; when either is hit
//! the capture returns what it has and says so.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use atspi::zbus::Connection;
use atspi::{Interface, InterfaceSet, Role as AtspiRole, State as AtspiState, StateSet};
use cup::{Capture, CaptureLimits, Partial};
use cup_protocol::Node;
use futures::stream::{self, StreamExt};
use tokio::time::{timeout_at, Instant};

use crate::atspi_calls::{self as calls, CacheEntry, ObjRef};
use crate::mapping::{self, MapContext};
use crate::raw::{Extents, RawNode, RawValue};

/// Calls in flight at once on the accessibility bus.
const CONCURRENCY: usize = 256;
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
    parent_selectable: bool,
    /// Extents offset (GTK4 window-relative extents).
    offset: (i64, i64),
    toolkit: String,
}

/// Per-app facts learned once and kept across captures.
#[derive(Debug, Default)]
pub struct AppFacts {
    no_cache: Mutex<HashSet<String>>,
    toolkits: Mutex<HashMap<String, (String, String)>>,
}

struct Walk<'a> {
    conn: &'a Connection,
    deadline: Instant,
    limits: &'a CaptureLimits,
    nodes: Vec<Skel>,
    truncated: usize,
    timed_out: bool,
}

impl Walk<'_> {
    fn room(&self) -> bool {
        self.nodes.len() < self.limits.max_nodes
    }
}

/// Captures `targets`; ids are pre-order across them.
pub async fn capture(
    conn: &Connection,
    targets: &[Target],
    limits: &CaptureLimits,
    ctx: &MapContext,
    facts: &AppFacts,
) -> Capture {
    let deadline = Instant::now() + limits.deadline;
    let mut walk = Walk {
        conn,
        deadline,
        limits,
        nodes: Vec::new(),
        truncated: 0,
        timed_out: false,
    };
    let mut roots: Vec<Option<usize>> = Vec::new();
    let mut notes = Vec::new();

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
    let found = futures::future::join_all(unknown.iter().map(|bus| async move {
        let root = ObjRef::new(bus.clone(), "/org/a11y/atspi/accessible/root");
        (
            bus.clone(),
            timeout_at(deadline, calls::toolkit(conn, &root))
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

    for target in targets {
        let Some(frame) = &target.frame else {
            roots.push(None);
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
        let offset = if toolkit.eq_ignore_ascii_case("gtk") && version.starts_with('4') {
            target.origin
        } else {
            (0, 0)
        };
        let root = structure(&mut walk, frame, offset, &toolkit, facts).await;
        roots.push(root);
        if toolkit.eq_ignore_ascii_case("chromium") {
            if let Some(r) = root {
                if !subtree(&walk.nodes, r).any(|i| walk.nodes[i].role == AtspiRole::DocumentWeb) {
                    notes.push(format!(
                        "'{}' is a Chromium/Electron window that exposes no web content over AT-SPI; restart it with --force-renderer-accessibility (or capture the page with --platform web)",
                        target.title
                    ));
                }
            }
        }
    }

    let details = read_details(conn, &walk.nodes, deadline).await;
    let timed_out_details = details.iter().filter(|d| d.timed_out).count();

    // Assemble: pre-order ids across windows.
    let mut tree = Vec::new();
    let mut refs = HashMap::new();
    let mut next_id = 0usize;
    for (target, root) in targets.iter().zip(&roots) {
        match root {
            Some(r) => tree.push(build(
                &walk.nodes,
                &details,
                *r,
                ctx,
                &mut next_id,
                &mut refs,
            )),
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
    let partial = (!reasons.is_empty()).then(|| Partial {
        reason: format!("{} after {} nodes", reasons.join(" and "), walk.nodes.len()),
        missing: walk.truncated + timed_out_details,
    });
    Capture {
        tree,
        refs,
        partial,
        notes,
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
    let cached = facts
        .no_cache
        .lock()
        .map(|s| s.contains(&frame.bus))
        .unwrap_or(false);
    if !cached {
        match timeout_at(walk.deadline, calls::cache_items(walk.conn, &frame.bus)).await {
            Ok(Ok(items)) if items.iter().any(|e| e.obj == *frame) => {
                return Some(from_cache(walk, frame, items, offset, toolkit).await);
            }
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                tracing::debug!(bus = %frame.bus, error = %e, "no Cache.GetItems; walking");
                if let Ok(mut s) = facts.no_cache.lock() {
                    s.insert(frame.bus.clone());
                }
            }
            Err(_) => {
                walk.timed_out = true;
                return None;
            }
        }
    }
    let root = fetch_nodes(walk, std::slice::from_ref(frame), 0, offset, toolkit)
        .await
        .into_iter()
        .next()
        .flatten()?;
    expand(walk, vec![root], offset, toolkit).await;
    Some(root)
}

/// Builds the frame's subtree from cache items; nodes whose cached children
/// are incomplete are completed by a walk.
async fn from_cache(
    walk: &mut Walk<'_>,
    frame: &ObjRef,
    items: Vec<CacheEntry>,
    offset: (i64, i64),
    toolkit: &str,
) -> usize {
    let mut kids: HashMap<ObjRef, Vec<(i32, usize)>> = HashMap::new();
    let mut by_obj: HashMap<ObjRef, usize> = HashMap::new();
    for (i, e) in items.iter().enumerate() {
        by_obj.insert(e.obj.clone(), i);
        kids.entry(e.parent.clone()).or_default().push((e.index, i));
    }
    for list in kids.values_mut() {
        list.sort_unstable();
    }
    // Depth-first from the frame over the cache.
    let root_item = by_obj.get(frame).copied().unwrap_or(0);
    let mut incomplete = Vec::new();
    let root = push_cached(walk, &items[root_item], 0, false, offset, toolkit);
    let mut stack = vec![(root_item, root)];
    while let Some((item, node)) = stack.pop() {
        let e = &items[item];
        let depth = walk.nodes[node].depth;
        let listed = kids.get(&e.obj).map_or(&[][..], Vec::as_slice);
        if depth >= walk.limits.max_depth {
            walk.truncated += listed.len();
            continue;
        }
        if usize::try_from(e.child_count).is_ok_and(|n| n > listed.len()) {
            incomplete.push(node);
            continue;
        }
        let selectable = e.interfaces.contains(Interface::Selection);
        let mut children = Vec::with_capacity(listed.len());
        for &(_, child_item) in listed {
            if !walk.room() {
                walk.truncated += 1;
                continue;
            }
            let c = push_cached(
                walk,
                &items[child_item],
                depth + 1,
                selectable,
                offset,
                toolkit,
            );
            children.push((child_item, c));
        }
        walk.nodes[node].children = children.iter().map(|&(_, c)| c).collect();
        stack.extend(children.into_iter().rev());
    }
    if !incomplete.is_empty() {
        expand(walk, incomplete, offset, toolkit).await;
    }
    root
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
        parent_selectable,
        offset,
        toolkit: toolkit.to_owned(),
    });
    walk.nodes.len() - 1
}

/// Walks down from `frontier` level by level; every call of a level is in
/// flight at once.
async fn expand(walk: &mut Walk<'_>, mut frontier: Vec<usize>, offset: (i64, i64), toolkit: &str) {
    while !frontier.is_empty() {
        if Instant::now() >= walk.deadline {
            walk.timed_out = true;
            walk.truncated += frontier.len();
            return;
        }
        let parents: Vec<usize> = frontier
            .iter()
            .copied()
            .filter(|&p| walk.nodes[p].depth < walk.limits.max_depth)
            .collect();
        let conn = walk.conn;
        let deadline = walk.deadline;
        let jobs: Vec<(usize, ObjRef)> = parents
            .iter()
            .map(|&p| (p, walk.nodes[p].obj.clone()))
            .collect();
        let lists: Vec<(usize, Option<Vec<ObjRef>>)> =
            stream::iter(jobs.into_iter().map(|(p, obj)| async move {
                (
                    p,
                    timeout_at(deadline, calls::children(conn, &obj))
                        .await
                        .ok()
                        .and_then(Result::ok),
                )
            }))
            .buffer_unordered(CONCURRENCY)
            .collect()
            .await;
        let mut next = Vec::new();
        let mut ordered = lists;
        ordered.sort_by_key(|(p, _)| *p);
        for (p, list) in ordered {
            let Some(list) = list else {
                if Instant::now() >= walk.deadline {
                    walk.timed_out = true;
                }
                continue;
            };
            let room = walk.limits.max_nodes.saturating_sub(walk.nodes.len());
            let take: Vec<ObjRef> = list
                .iter()
                .filter(|c| !c.is_null())
                .take(room)
                .cloned()
                .collect();
            walk.truncated += list.len().saturating_sub(take.len());
            let depth = walk.nodes[p].depth + 1;
            let selectable = walk.nodes[p].interfaces.contains(Interface::Selection);
            let fetched = fetch_nodes(walk, &take, depth, offset, toolkit).await;
            let children: Vec<usize> = fetched.into_iter().flatten().collect();
            for &c in &children {
                walk.nodes[c].parent_selectable = selectable;
            }
            walk.nodes[p].children = children.clone();
            next.extend(children);
        }
        frontier = next;
    }
}

/// Reads role, states, interfaces, name and description of `objs` at once.
async fn fetch_nodes(
    walk: &mut Walk<'_>,
    objs: &[ObjRef],
    depth: usize,
    offset: (i64, i64),
    toolkit: &str,
) -> Vec<Option<usize>> {
    let conn = walk.conn;
    let deadline = walk.deadline;
    let read: Vec<Option<(AtspiRole, StateSet, InterfaceSet, calls::AccessibleProps)>> =
        stream::iter(objs.iter().cloned().map(|obj| async move {
            let all = async {
                tokio::try_join!(
                    calls::role(conn, &obj),
                    calls::states(conn, &obj),
                    calls::interfaces(conn, &obj),
                    calls::accessible_props(conn, &obj)
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
            Some((role, states, interfaces, props)) if walk.room() => {
                walk.nodes.push(Skel {
                    obj: obj.clone(),
                    role,
                    name: props.name,
                    description: props.description,
                    states,
                    interfaces,
                    depth,
                    children: Vec::new(),
                    parent_selectable: false,
                    offset,
                    toolkit: toolkit.to_owned(),
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

async fn read_details(conn: &Connection, nodes: &[Skel], deadline: Instant) -> Vec<Details> {
    #[derive(Clone, Copy)]
    enum Want {
        Extents,
        Actions,
        Value,
        Text,
        Attributes,
    }
    let mut jobs = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        if n.interfaces.contains(Interface::Component) {
            jobs.push((i, Want::Extents));
        }
        if n.interfaces.contains(Interface::Action) {
            jobs.push((i, Want::Actions));
        }
        if n.interfaces.contains(Interface::Value) {
            jobs.push((i, Want::Value));
        }
        if n.interfaces.contains(Interface::Text) && mapping::needs_text(n.role, n.interfaces) {
            jobs.push((i, Want::Text));
        }
        if mapping::needs_attributes(n.role, &n.toolkit) {
            jobs.push((i, Want::Attributes));
        }
    }
    let results: Vec<(usize, Option<Got>)> = stream::iter(jobs.into_iter().map(|(i, want)| {
        let obj = &nodes[i].obj;
        async move {
            let got = match want {
                Want::Extents => timeout_at(deadline, calls::extents(conn, obj, 0))
                    .await
                    .map(|r| Got::Extents(r.ok())),
                Want::Actions => timeout_at(deadline, calls::action_names(conn, obj))
                    .await
                    .map(|r| Got::Actions(r.unwrap_or_default())),
                Want::Value => timeout_at(deadline, calls::value(conn, obj))
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
    }))
    .buffer_unordered(CONCURRENCY)
    .collect()
    .await;
    let mut out = vec![Details::default(); nodes.len()];
    for (i, got) in results {
        let d = &mut out[i];
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
    raw.extents = d.extents.map(|e| Extents {
        x: e.x.saturating_add(i32::try_from(s.offset.0).unwrap_or(0)),
        y: e.y.saturating_add(i32::try_from(s.offset.1).unwrap_or(0)),
        ..e
    });
    raw.action_names = d.actions.clone();
    raw.value = d.value.clone();
    raw.text = d.text.clone();
    raw.attributes = d.attributes.clone();
    raw.parent_selectable = s.parent_selectable;
    raw.bus_name = s.obj.bus.clone();
    raw.path = s.obj.path.clone();
    raw.toolkit = s.toolkit.clone();
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
