//! GTK 4's accessibles, created where they are on screen.
//!
//! GTK 4 puts an accessible on the bus only once something asks for it:
//! the `Cache.GetItems` of an app nobody has read yet lists a handful of
//! items, and asking a node for its children creates them. Once created,
//! an accessible stays in the cache for as long as its widget lives, and
//! GTK answers `GetItems` with every one of them: its cost follows what was
//! created, not what is shown.
//!
//! A list view keeps a widget per row (Nautilus's grid: 500 files, each a
//! cell with nine widgets below it, 16 cells on screen). Creating every
//! row's subtree made Nautilus's `GetItems` list 5,209 items, 110-160 ms of
//! GTK's main loop a capture, for 4,356 nodes off screen. So rows (list,
//! grid and tree items: `mapping::gtk4_may_be_unallocated`) are created,
//! but not what is below them; a row GTK allocated (on screen) then gets
//! its subtree created, found by probing the rows' extents as the top-down
//! pass does ([`unallocated`]). A row off screen stays in the tree with its
//! own name, states and place and without children, when it has a name of
//! its own (Nautilus's cells: the file's). A row GTK leaves unnamed
//! (gtk4-demo's list: the label is in a child) gets its subtree created
//! wherever it is, so that the capture can name it from its content and
//! `find` reaches it off screen, under a parent of at most
//! [`UNNAMED_ROWS_MAX`] children. Past it an unnamed row too gets its
//! subtree only on screen: a list box keeps a widget for every row of its
//! model, and a view keeps rows it has not named yet (Nautilus's grid while
//! it loads its files, one cell a file), so their subtrees, created once,
//! would be in every `GetItems` after. GTK's list views keep about 200
//! row widgets (Nautilus's list view: 205 for 500 files); gtk4-demo's list
//! holds 117 rows.

use super::structure::children_of;
use super::*;

/// A list, grid or tree row: its subtree is created only where needed.
pub(super) fn is_row(e: &CacheEntry) -> bool {
    mapping::gtk4_may_be_unallocated(e.role)
}

/// Children of one parent past which its unnamed rows off screen keep
/// their subtrees uncreated (see the module).
pub const UNNAMED_ROWS_MAX: usize = 256;

/// A row of `cache` that may stay without its subtree off screen: it names
/// itself, or its parent lists more than [`UNNAMED_ROWS_MAX`] children.
pub(super) fn may_stay_bare(cache: &CacheIndex, e: &CacheEntry) -> bool {
    is_row(e)
        && (!e.name.trim().is_empty() || cache.listed_children(&e.parent).len() > UNNAMED_ROWS_MAX)
}

/// Creates the accessibles below `frame` the way [`realize_shown_rows`]
/// keeps them: every node's children are asked for (a level's calls at
/// once), but not a row's. Returns the app's cache after it.
pub(super) async fn realize(walk: &Walk<'_>, frame: &ObjRef) -> Option<CacheIndex> {
    let began = Instant::now();
    let asked = create_below(walk, vec![frame.clone()], true).await;
    let items = cache_again(walk, frame).await?;
    tracing::debug!(
        children_calls = asked,
        items = items.len(),
        elapsed_ms = began.elapsed().as_secs_f64() * 1e3,
        "GTK 4 accessibles created but rows' subtrees, Cache.GetItems again"
    );
    Some(CacheIndex::new(items))
}

/// Asks every node from `frontier` down for its children, a level's calls
/// at once, which creates them; with `spare_rows`, not a row's (one
/// `GetRole` a child tells rows). Returns the number of `GetChildren`.
async fn create_below(walk: &Walk<'_>, mut frontier: Vec<ObjRef>, spare_rows: bool) -> usize {
    let (links, deadline) = (walk.links, walk.deadline);
    let (mut asked, mut depth) = (0usize, 0usize);
    while !frontier.is_empty()
        && depth < walk.limits.max_depth
        && asked < walk.limits.max_nodes
        && Instant::now() < deadline
    {
        asked += frontier.len();
        let lists = children_of(links, deadline, frontier.into_iter().map(|o| ((), o))).await;
        let kids: Vec<ObjRef> = lists
            .into_iter()
            .filter_map(|((), list)| list)
            .flatten()
            .filter(|c| !c.is_null())
            .collect();
        frontier = if spare_rows {
            let roles = roles_of(links, deadline, &kids).await;
            kids.into_iter()
                .zip(roles)
                .filter(|(_, role)| !role.is_some_and(mapping::gtk4_may_be_unallocated))
                .map(|(obj, _)| obj)
                .collect()
        } else {
            kids
        };
        depth += 1;
    }
    asked
}

/// The app's `Cache.GetItems` again, after accessibles were created.
async fn cache_again(walk: &Walk<'_>, frame: &ObjRef) -> Option<Vec<CacheEntry>> {
    timeout_at(
        walk.deadline,
        calls::cache_items(&walk.links.to(&frame.bus), &frame.bus),
    )
    .await
    .ok()
    .and_then(Result::ok)
}

/// The rows below `frame` whose subtrees were never created and that GTK
/// allocated, or that need not stay bare ([`may_stay_bare`]): their subtrees are
/// created, and the app's cache read again (`None`: no such row, or the
/// second `GetItems` failed). Every row of a parent that holds such a row
/// is probed (the rows on screen among them, created before, show where
/// the run is); the extents read come back too, for the top-down pass to
/// take instead of reading them again.
pub(super) async fn realize_shown_rows(
    walk: &Walk<'_>,
    frame: &ObjRef,
    cache: &CacheIndex,
) -> (Option<CacheIndex>, HashMap<ObjRef, Extents>) {
    let bare = cache.unrealized(frame, is_row);
    if bare.is_empty() {
        return (None, HashMap::new());
    }
    let bare_set: HashSet<usize> = bare.iter().copied().collect();
    let began = Instant::now();
    let (links, deadline) = (walk.links, walk.deadline);
    // The rows of each parent of a bare row, in the parent's order, as a
    // tree for the probing pass: node 0 stands for all, node 1 + g for
    // group g, then the rows.
    let mut parents: Vec<&ObjRef> = Vec::new();
    for &r in &bare {
        let parent = &cache.items[r].parent;
        if !parents.contains(&parent) {
            parents.push(parent);
        }
    }
    let groups: Vec<Vec<usize>> = parents
        .iter()
        .map(|p| {
            cache
                .listed_children(p)
                .iter()
                .copied()
                .filter(|&k| is_row(&cache.items[k]))
                .collect()
        })
        .collect();
    let first_row = 1 + groups.len();
    let row_of: Vec<usize> = groups.iter().flatten().copied().collect();
    let mut tree: Vec<Vec<usize>> = Vec::with_capacity(first_row + row_of.len());
    tree.push((1..first_row).collect());
    let mut next = first_row;
    for g in &groups {
        tree.push((next..next + g.len()).collect());
        next += g.len();
    }
    tree.resize(next, Vec::new());
    let outcomes = unallocated::read_top_down(
        0,
        |i| tree[i].as_slice(),
        |i| i >= first_row,
        |i| i >= first_row,
        |i| {
            let obj = cache.items[row_of[i - first_row]].obj.clone();
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
    .await;
    let mut read = HashMap::new();
    // Rows that need not stay bare, wherever they are, and the rows on
    // screen.
    let mut shown: Vec<ObjRef> = bare
        .iter()
        .filter(|&&r| !may_stay_bare(cache, &cache.items[r]))
        .map(|&r| cache.items[r].obj.clone())
        .collect();
    for (i, outcome) in outcomes {
        let r = row_of[i - first_row];
        if let unallocated::Outcome::Read(Some(e)) = outcome {
            let obj = &cache.items[r].obj;
            read.insert(obj.clone(), e);
            if !e.is_unallocated() && bare_set.contains(&r) && may_stay_bare(cache, &cache.items[r])
            {
                shown.push(obj.clone());
            }
        }
    }
    if shown.is_empty() {
        return (None, read);
    }
    let created = shown.len();
    let asked = create_below(walk, shown, false).await;
    let items = cache_again(walk, frame).await;
    tracing::debug!(
        rows = bare.len(),
        shown = created,
        children_calls = asked,
        items = items.as_ref().map(Vec::len),
        elapsed_ms = began.elapsed().as_secs_f64() * 1e3,
        "GTK 4 rows on screen: subtrees created, Cache.GetItems again"
    );
    (items.map(CacheIndex::new), read)
}

/// `GetRole` of every object at once (`None`: failed or late).
async fn roles_of(links: &Links, deadline: Instant, objs: &[ObjRef]) -> Vec<Option<AtspiRole>> {
    stream::iter(objs.iter().cloned().map(|obj| async move {
        let conn = links.to(&obj.bus);
        timeout_at(deadline, calls::role(&conn, &obj))
            .await
            .ok()
            .and_then(Result::ok)
    }))
    .buffered(CONCURRENCY)
    .collect()
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, parent: &str, role: AtspiRole, name: &str) -> CacheEntry {
        let mut e = cache_index::tests::entry(path, parent, 0, 1);
        e.role = role;
        name.clone_into(&mut e.name);
        e
    }

    /// A list of `rows` list items, the first named `first`.
    fn list(rows: usize, first: &str) -> CacheIndex {
        let mut items = vec![entry("/list", "/null", AtspiRole::List, "")];
        for i in 0..rows {
            let name = if i == 0 { first } else { "" };
            let mut e = entry(&format!("/row{i}"), "/list", AtspiRole::ListItem, name);
            e.index = i32::try_from(i).unwrap_or(i32::MAX);
            items.push(e);
        }
        CacheIndex::new(items)
    }

    #[test]
    fn a_row_that_names_itself_may_stay_bare() {
        let cache = list(3, "note-000.txt");
        assert!(may_stay_bare(&cache, &cache.items[1]));
        assert!(
            !may_stay_bare(&cache, &cache.items[2]),
            "unnamed, short list"
        );
    }

    #[test]
    fn unnamed_rows_stay_bare_only_in_long_lists() {
        let short = list(UNNAMED_ROWS_MAX, "");
        assert!(!may_stay_bare(&short, &short.items[1]));
        let long = list(UNNAMED_ROWS_MAX + 1, "");
        assert!(may_stay_bare(&long, &long.items[1]));
        assert!(may_stay_bare(&long, &long.items[UNNAMED_ROWS_MAX + 1]));
    }

    #[test]
    fn only_rows_stay_bare() {
        let cache = list(UNNAMED_ROWS_MAX + 1, "");
        assert!(!may_stay_bare(&cache, &cache.items[0]), "the list itself");
    }
}
