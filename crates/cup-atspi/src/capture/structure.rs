//! The structure of a window: from `Cache.GetItems` where the toolkit
//! serves it (realizing GTK 4's accessibles first), else walked level by
//! level with `GetChildren`; nodes that are not rendered are left out.

use super::gtk4_rows;
use super::managed;
use super::menus;
use super::*;

/// Levels of a window below its frame whose children are always asked
/// for, whatever the cache says.
const VERIFIED_DEPTH: usize = 2;

/// Reads the structure below `frame` into `walk.nodes`; returns the index
/// of the frame.
pub(super) async fn structure(
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
    // A window known to hold few of its app's items is walked (GTK 4's
    // cache is read whole: it creates what it lists).
    let small = !walk.gtk4 && facts.sizes.walk(frame);
    if small {
        walk.walked_small.insert(frame.bus.clone());
    }
    let mut cache = Arc::new(CacheIndex::default());
    if let Some(ahead) = walk.ahead.indexes.get(&frame.bus) {
        tracing::debug!(items = ahead.len(), "Cache.GetItems read ahead");
        cache = ahead.clone();
    } else if small {
        tracing::debug!(frame = %frame.path, "a small window of its app: walked");
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
                    if !cache.lists_every_child(frame, |e| gtk4_rows::may_stay_bare(&cache, e)) {
                        if let Some(realized) = gtk4_rows::realize(walk, frame).await {
                            cache = Arc::new(realized);
                        }
                    }
                    let (shown, read) = gtk4_rows::realize_shown_rows(walk, frame, &cache).await;
                    if let Some(shown) = shown {
                        cache = Arc::new(shown);
                    }
                    walk.row_extents.extend(read);
                    walk.defer_extents =
                        cache.lists_every_child(frame, |e| gtk4_rows::may_stay_bare(&cache, e));
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
    if !cache.items.is_empty() && !walk.gtk4 {
        facts.sizes.learn(frame, &cache);
        if !small {
            walk.from_cache.insert(frame.bus.clone());
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
pub(super) async fn children_of<K>(
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
        shown: None,
        labelled: false,
        beyond: false,
        away: false,
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
        // Containers that manage their descendants: read what is on screen.
        let mut managing: Vec<usize> = Vec::new();
        while let Some(p) = stack.pop() {
            if walk.nodes[p].depth >= walk.limits.max_depth {
                continue;
            }
            let obj = &walk.nodes[p].obj;
            // The top of a window is asked for its children even when the
            // cache lists them all: a few calls that keep a stale cache
            // from hiding the window (LibreOffice's cache once listed a
            // tooltip as the only child of the panel that holds its root
            // pane, and the whole document went missing).
            let complete =
                walk.nodes[p].depth > VERIFIED_DEPTH && cache.complete_children(obj).is_some();
            // A node read outside the cache that reported no children (a
            // tree view's cell) is a leaf: no GetChildren. (A cached node
            // with none is complete.)
            if !complete && walk.nodes[p].child_count == 0 {
                continue;
            }
            // A GTK 4 row off screen that may stay bare and whose subtree
            // was never created (`gtk4_rows`) stays without children:
            // asking would create them.
            if !complete
                && walk.gtk4
                && cache.listed_children(obj).is_empty()
                && cache
                    .by_obj
                    .get(obj)
                    .is_some_and(|&i| gtk4_rows::may_stay_bare(cache, &cache.items[i]))
            {
                continue;
            }
            // Never asked for its children: it would create them all.
            if managed::manages(
                walk.nodes[p].states,
                walk.nodes[p].interfaces,
                walk.nodes[p].child_count,
            ) {
                managing.push(p);
                continue;
            }
            let listed = cache.listed_children(obj);
            if !complete {
                ask.push((p, obj.clone()));
            }
            let no_reads = HashMap::new();
            let taken: Vec<usize> = listed
                .iter()
                .filter_map(|&i| {
                    let c = &cache.items[i].obj;
                    attach(walk, p, (c, Some(i)), cache, &no_reads, offset, toolkit)
                })
                .collect();
            if !complete {
                early.extend(taken.iter().map(|&c| (walk.nodes[c].obj.clone(), (c, p))));
            }
            walk.nodes[p].children.clone_from(&taken);
            stack.extend(taken.into_iter().rev());
        }
        if ask.is_empty() && managing.is_empty() {
            return;
        }
        let views = futures::future::join_all(managing.iter().map(|&p| {
            let n = &walk.nodes[p];
            let conn = walk.links.to(&n.obj.bus);
            let obj = n.obj.clone();
            let (interfaces, count) = (n.interfaces, n.child_count);
            let coord = calls::coord_type(is_gtk4(n));
            let deadline = walk.deadline;
            let cells = walk.cells;
            async move {
                let view = managed::visible_children(
                    &conn, cells, &obj, interfaces, count, coord, deadline,
                )
                .await;
                (p, view)
            }
        }));
        let (mut lists, views) = futures::join!(children_of(walk.links, walk.deadline, ask), views);
        for (p, view) in views {
            tracing::debug!(role = ?walk.nodes[p].role, children = view.children.len(), shown = ?view.shown, "managed descendants: on screen only");
            let toolkit = walk.nodes[p].toolkit.clone();
            same_kind(walk, &view.cells, &toolkit).await;
            same_names(walk, &view.cells, &view.addresses, &toolkit).await;
            walk.grid_extents.extend(view.extents);
            walk.nodes[p].shown = Some(view.shown);
            lists.push((p, Some(view.children)));
        }
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
                        let cached = cache.by_obj.get(c).copied();
                        let got = attach(walk, p, (c, cached), cache, &fetched, offset, toolkit);
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

/// A table's cells are all of one kind: the first one's role and
/// interfaces are read and known for the rest (two calls instead of two
/// per cell), where the toolkit's kinds are kept ([`Statics`]).
async fn same_kind(walk: &Walk<'_>, cells: &[ObjRef], toolkit: &str) {
    let Some(first) = cells.first() else { return };
    if cells.len() < 2 || !Statics::keeps(toolkit) || walk.statics.get(first).kind.is_some() {
        return;
    }
    let conn = walk.links.to(&first.bus);
    let kind = timeout_at(walk.deadline, async {
        tokio::try_join!(calls::role(&conn, first), calls::interfaces(&conn, first))
    })
    .await;
    if let Ok(Ok((role, interfaces))) = kind {
        for c in cells {
            walk.statics.put_kind(c, role, interfaces);
        }
    }
}

/// A spreadsheet's cells named by their addresses: the first one is read,
/// and when it is named so, the others' names are not read
/// ([`managed::addressed`]).
async fn same_names(walk: &mut Walk<'_>, cells: &[ObjRef], addresses: &[String], toolkit: &str) {
    let Some(first) = cells.first() else { return };
    if cells.len() < 2 {
        return;
    }
    let conn = walk.links.to(&first.bus);
    let get_all = calls::get_all_safe(toolkit);
    let props = timeout_at(
        walk.deadline,
        calls::accessible_props(&conn, first, get_all),
    )
    .await;
    if let Ok(Ok(props)) = props {
        let known = managed::addressed(cells, addresses, &props);
        walk.known_props.extend(known);
        walk.known_props.insert(first.clone(), props);
    }
}

/// Takes object `c` as a child of node `p`: from the cache (`cached`: its
/// item there), or from `fetched` (read outside it). `None` when it is left out: unrendered, or
/// past the node cap or unread (counted as truncated). The caller sets
/// `p`'s children.
fn attach(
    walk: &mut Walk<'_>,
    p: usize,
    (c, cached): (&ObjRef, Option<usize>),
    cache: &CacheIndex,
    fetched: &HashMap<ObjRef, Option<usize>>,
    offset: (i64, i64),
    toolkit: &str,
) -> Option<usize> {
    if c.is_null() {
        return None;
    }
    let depth = walk.nodes[p].depth + 1;
    // A toolbar's Selection (LibreOffice's) only moves its highlight: its
    // buttons are clicked, never chosen.
    let selectable = walk.nodes[p].interfaces.contains(Interface::Selection)
        && walk.nodes[p].role != AtspiRole::ToolBar;
    let node = match cached {
        Some(i) if unrendered(cache.items[i].states) => return None,
        Some(i) if walk.room() => Some(push_cached(
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
            let (parent, child) = (&walk.nodes[p], &walk.nodes[n]);
            let away = rows::scrolled_away(parent.role, parent.states, child.states);
            walk.nodes[n].beyond = parent.beyond || parent.away;
            walk.nodes[n].away = away;
            let parent = &walk.nodes[p];
            if menus::waits(
                parent.role,
                walk.menus.is_held(p),
                &parent.toolkit,
                &parent.toolkit_version,
            ) {
                walk.menus.hold(p, n);
            } else {
                walk.accept(n);
            }
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
    let known_props = &walk.known_props;
    let read: Vec<Option<NodeRead>> = stream::iter(objs.iter().cloned().map(|obj| async move {
        let conn = links.to(&obj.bus);
        let props = known_props.get(&obj).cloned();
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
            let props = async {
                match props {
                    Some(known) => calls::CallResult::Ok(known),
                    None => calls::accessible_props(&conn, &obj, get_all).await,
                }
            };
            tokio::try_join!(kind, calls::states(&conn, &obj), props)
        };
        timeout_at(deadline, all).await.ok().and_then(Result::ok)
    }))
    .buffered(CONCURRENCY)
    .collect()
    .await;
    let mut out = Vec::with_capacity(objs.len());
    // Objects that no longer answer, or say they are gone: a remembered
    // cell among them is asked for again next time.
    let mut gone = HashSet::new();
    for (obj, r) in objs.iter().zip(read) {
        match r {
            Some(((_, _), states, _)) if states.contains(AtspiState::Defunct) => {
                gone.insert(obj.clone());
                out.push(None);
            }
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
                    shown: None,
                    labelled: false,
                    beyond: false,
                    away: false,
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
                } else {
                    gone.insert(obj.clone());
                }
                walk.truncated += 1;
                out.push(None);
            }
        }
    }
    walk.cells.forget(&gone);
    out
}
