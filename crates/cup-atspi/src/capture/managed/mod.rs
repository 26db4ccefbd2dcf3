//! Containers that manage their descendants: AT-SPI's MANAGES_DESCENDANTS,
//! or a child count no walk can take (LibreOffice Calc's sheet reports
//! 2,147,483,647 children). Asking such a container for its children makes
//! the app create every one of them — Calc grew by about 50 MB/s at 90 %
//! CPU until it was killed — so cup never does: it reads what is on screen.
//! A table's visible rows and columns are found from the cells at its
//! corners (`GetAccessibleAtPoint`, then each cell's row and column), and
//! only those cells are asked for (`GetAccessibleAt`); any other managing
//! container is probed at points over its area. The capture's note says
//! what was read and how to reach the rest. A container that counts only
//! a few children (a small table, a short list) has no model to make:
//! it is read whole.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use futures::stream::{self, StreamExt};
use tokio::time::{timeout_at, Instant};

use crate::atspi_actions::index_in_parent;
use crate::atspi_calls::{self as calls, Caller, ObjRef};
use crate::facts::{AtspiRole, AtspiState, Extents, Interface, InterfaceSet, StateSet};

/// A child count above which a container is read like one that manages
/// its descendants, whatever its states say.
pub(super) const HUGE_CHILDREN: i32 = 5_000;
/// Rows of a table read at most (a screen shows far fewer).
const MAX_ROWS: i32 = 200;
/// Cells of a table read at most.
const MAX_CELLS: i32 = 2_000;
/// Points probed at most in a container that is no table.
const MAX_PROBES: usize = 160;
/// Vertical step between probed points, in pixels (a list row is taller).
const PROBE_STEP: i32 = 14;
/// Calls in flight at once for one container.
const IN_FLIGHT: usize = 64;

/// Cells remembered at most, across captures.
const CELLS_REMEMBERED: usize = 50_000;

/// The answer of `call` by `deadline`; `None` for a failed or late call.
async fn answer<T>(
    deadline: Instant,
    call: impl std::future::Future<Output = calls::CallResult<T>>,
) -> Option<T> {
    timeout_at(deadline, call).await.ok().and_then(Result::ok)
}

/// A cell of a table: the table and the cell's row and column.
type CellKey = (ObjRef, i32, i32);

/// How long a remembered cell is used. The AT-SPI bridge keeps a
/// transient object it handed out for at least 15 s (its lease, renewed
/// only when the object is handed out again) and then drops it: a cell
/// older than this is asked for again, before its lease can end.
const CELL_FRESH: Duration = Duration::from_secs(12);

/// The cell objects a table gave for each (row, column), kept across
/// captures. LibreOffice creates a new cell object for every
/// `GetAccessibleAt` and never frees it while the document is open (about
/// 7.7 KB each: a snapshot of a full 1920x1080 sheet, 1,305 cells, added
/// about 10 MB to Calc, for good): a cell is asked for again only once
/// [`CELL_FRESH`] has passed, or when its object stops answering. Within
/// a session, Calc then grows by one screen of cells per 12 s of
/// continuous snapshots at most, not by one per snapshot.
///
/// Only tables whose app hands out a new object for every call are read
/// from it: a toolkit that keeps one object per cell (GTK's tree views)
/// gives the same object again, and there a cell's object follows its row
/// when rows are inserted (an expanded tree), so the (row, column) it was
/// remembered at would be stale. A table whose size changed starts over.
#[derive(Debug, Default)]
pub struct CellCache {
    cells: Mutex<HashMap<CellKey, (ObjRef, Instant)>>,
    tables: Mutex<HashMap<ObjRef, TableFacts>>,
    /// Per table, which of [`top_left_probes`] and [`bottom_right_probes`]
    /// found its corner cell last time: tried first next time.
    corners: Mutex<HashMap<ObjRef, [Option<usize>; 2]>>,
}

/// The corners of a table whose cells are looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Corner {
    TopLeft = 0,
    BottomRight = 1,
}

/// What is known of one table's cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TableFacts {
    /// Rows and columns when its cells were remembered.
    size: (i32, i32),
    /// Whether asking again for a cell gives a new object: `None` until
    /// seen.
    makes_new: Option<bool>,
}

/// How a capture uses the cache for one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CacheUse {
    /// Remembered cells are used (the app makes a new object each time).
    Use,
    /// Every cell is asked for (the app keeps its cell objects).
    Skip,
    /// Not known yet: the first cell is asked afresh and compared.
    Probe,
}

impl CellCache {
    /// How to read `table` of `size`: a table whose size changed forgets
    /// its cells.
    fn usage(&self, table: &ObjRef, size: (i32, i32)) -> CacheUse {
        let Ok(mut tables) = self.tables.lock() else {
            return CacheUse::Skip;
        };
        if tables.len() >= CELLS_REMEMBERED {
            tables.clear();
        }
        let facts = tables.entry(table.clone()).or_insert(TableFacts {
            size,
            makes_new: None,
        });
        if facts.size != size {
            facts.size = size;
            drop(tables);
            if let Ok(mut cells) = self.cells.lock() {
                cells.retain(|(t, _, _), _| t != table);
            }
            return self.usage_known(table);
        }
        match facts.makes_new {
            Some(true) => CacheUse::Use,
            Some(false) => CacheUse::Skip,
            None => CacheUse::Probe,
        }
    }

    fn usage_known(&self, table: &ObjRef) -> CacheUse {
        let makes_new = self
            .tables
            .lock()
            .ok()
            .and_then(|t| t.get(table).and_then(|f| f.makes_new));
        match makes_new {
            Some(true) => CacheUse::Use,
            Some(false) => CacheUse::Skip,
            None => CacheUse::Probe,
        }
    }

    /// Records whether `table`'s app gave a new object for a cell asked
    /// for again.
    fn learn(&self, table: &ObjRef, makes_new: bool) {
        if let Ok(mut tables) = self.tables.lock() {
            if let Some(f) = tables.get_mut(table) {
                f.makes_new = Some(makes_new);
            }
        }
    }

    fn get(&self, table: &ObjRef, row: i32, column: i32) -> Option<ObjRef> {
        let cells = self.cells.lock().ok()?;
        let (cell, asked) = cells.get(&(table.clone(), row, column))?;
        (asked.elapsed() < CELL_FRESH).then(|| cell.clone())
    }

    fn put(&self, table: &ObjRef, row: i32, column: i32, cell: &ObjRef) {
        if let Ok(mut cells) = self.cells.lock() {
            if cells.len() >= CELLS_REMEMBERED {
                cells.retain(|_, (_, asked)| asked.elapsed() < CELL_FRESH);
            }
            if cells.len() >= CELLS_REMEMBERED {
                cells.clear();
            }
            cells.insert((table.clone(), row, column), (cell.clone(), Instant::now()));
        }
    }

    /// The probe that found `table`'s `corner` cell last time.
    fn corner_hint(&self, table: &ObjRef, corner: Corner) -> Option<usize> {
        let corners = self.corners.lock().ok()?;
        corners.get(table)?[corner as usize]
    }

    fn set_corner_hint(&self, table: &ObjRef, corner: Corner, probe: usize) {
        if let Ok(mut corners) = self.corners.lock() {
            if corners.len() >= CELLS_REMEMBERED && !corners.contains_key(table) {
                corners.clear();
            }
            corners.entry(table.clone()).or_default()[corner as usize] = Some(probe);
        }
    }

    /// Cells remembered.
    fn len(&self) -> usize {
        self.cells.lock().map(|c| c.len()).unwrap_or(0)
    }

    /// Forgets the cells that did not answer (a closed sheet, a document
    /// reloaded): the next capture asks the table again.
    pub(super) fn forget(&self, gone: &HashSet<ObjRef>) {
        if gone.is_empty() {
            return;
        }
        if let Ok(mut cells) = self.cells.lock() {
            cells.retain(|_, (cell, _)| !gone.contains(cell));
        }
    }
}

/// `true` when asking `states`' node for its children would make the app
/// create them: it says it manages its descendants, or counts more than
/// [`HUGE_CHILDREN`].
///
/// A small container that is no table (at most [`SMALL_LIST`] children it
/// knows of: LibreOffice's 12 slide layouts) is read whole: its children
/// are those on screen, and where the app implements no hit test its items
/// were all lost to the probes.
pub(super) fn manages(states: StateSet, interfaces: InterfaceSet, child_count: i32) -> bool {
    let small_list =
        (0..=SMALL_LIST).contains(&child_count) && !interfaces.contains(Interface::Table);
    (states.contains(AtspiState::ManagesDescendants) && !small_list) || child_count > HUGE_CHILDREN
}

/// Children a managing container that is no table may have and still be
/// read whole.
const SMALL_LIST: i32 = 64;

/// Children (its cells and column headers) a managing table may have and
/// still be read whole, by one `GetChildren`: the app makes at most this
/// many cell objects, which a toolkit that keeps its cells (GTK's tree
/// views) makes once. Finding the cells on screen instead took about 12
/// round trips in turn (its size, the cell at each corner, the cells, the
/// first row's and column's places): 3.5 of gtk3-widget-factory's 7 ms.
/// The cells below the screen come too, offscreen, and fold as a list's
/// rows do.
const SMALL_TABLE: i32 = 64;

/// What was read of one managing container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Shown {
    /// A table: the rows and columns on screen (0-based, inclusive), of
    /// its whole size (rows, columns).
    Table {
        rows: (i32, i32),
        columns: (i32, i32),
        size: (i32, i32),
    },
    /// Items found at points over its area, of `children` it reports.
    Points { found: usize, children: i32 },
    /// Nothing could be read on its place on screen (no answer).
    Nothing { children: i32 },
    /// It has no place on screen (a page not shown): nothing to read and
    /// nothing to say.
    Unplaced,
    /// A small list, read whole: nothing to say.
    Whole,
}

/// A table with this many columns is a spreadsheet's sheet.
const SPREADSHEET_COLUMNS: i32 = 1024;

impl Shown {
    /// `false` when there is nothing to say (it is not on screen).
    pub(super) fn said(&self) -> bool {
        match self {
            Shown::Unplaced | Shown::Whole => false,
            // Every cell was on screen (GIMP's 1×3 grid of brushes).
            Shown::Table {
                rows,
                columns,
                size,
            } => {
                !(rows.0 == 0
                    && columns.0 == 0
                    && i64::from(size.0) == i64::from(rows.1) + 1
                    && i64::from(size.1) == i64::from(columns.1) + 1)
            }
            _ => true,
        }
    }

    /// `true` for a table (whose empty cells the capture leaves out).
    pub(super) fn is_table(&self) -> bool {
        matches!(self, Shown::Table { .. })
    }

    /// The note's words after the container's name: what was read and
    /// how to reach the rest; `empty` cells on screen were left out.
    pub(super) fn describe(&self, empty: usize) -> String {
        match self {
            Shown::Table {
                rows,
                columns,
                size,
            } => format!(
                "manages its {}×{} cells: only those on screen were read (rows {}–{}, columns {}–{}{}); scroll it, {}or use find",
                size.0,
                size.1,
                rows.0 + 1,
                rows.1 + 1,
                column_label(columns.0),
                column_label(columns.1),
                if empty > 0 {
                    format!("; {empty} empty cells left out")
                } else {
                    String::new()
                },
                // A spreadsheet's columns (LibreOffice's 16,384) are
                // reached by address; a list's are not.
                if size.1 >= SPREADSHEET_COLUMNS {
                    "or go to a cell by its address (e.g. the Name Box), "
                } else {
                    ""
                }
            ),
            Shown::Points { found: 0, children } => format!(
                "manages its {} and none was found on screen; scroll it, or use find",
                items(*children)
            ),
            Shown::Points { found, children } => format!(
                "manages its {}: only the {found} on screen were read; scroll it, or use find",
                items(*children)
            ),
            Shown::Nothing { children } => format!(
                "manages its {} and none could be read without making the app create them all; scroll or use find, or act on it by keyboard",
                items(*children)
            ),
            Shown::Unplaced | Shown::Whole => String::new(),
        }
    }
}

/// `true` for a table cell with nothing in it: no text, and a name that is
/// empty or only its address (a spreadsheet names its cells "B2"); not the
/// focused or a selected one, and not a check box (GTK's toggle renderer:
/// a cell with no text that a person ticks, which says so by its `toggle`
/// action, and by CHECKED when ticked; GTK 3 never says CHECKABLE).
pub(super) fn is_empty_cell(
    role: AtspiRole,
    name: &str,
    text: Option<&str>,
    states: StateSet,
    actions: &[String],
) -> bool {
    role == AtspiRole::TableCell
        && text.is_none_or(|t| t.trim().is_empty())
        && (name.trim().is_empty() || is_address(name.trim()))
        && !states.contains(AtspiState::Focused)
        && !states.contains(AtspiState::Selected)
        && !states.contains(AtspiState::Checkable)
        && !states.contains(AtspiState::Checked)
        && !states.contains(AtspiState::Indeterminate)
        && !actions.iter().any(|a| a.eq_ignore_ascii_case("toggle"))
}

/// `true` for a spreadsheet address: 1-3 capital letters, then a row
/// number ("B2", "XFD1048576").
fn is_address(name: &str) -> bool {
    let letters = name.bytes().take_while(u8::is_ascii_uppercase).count();
    let digits = &name[letters..];
    (1..=3).contains(&letters)
        && !digits.is_empty()
        && digits.len() <= 7
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0')
}

/// "items", or "N items" when the count is known.
fn items(count: i32) -> String {
    if count >= 0 {
        format!("{count} items")
    } else {
        "items".to_owned()
    }
}

/// A spreadsheet's column letters for a 0-based column: 0 → A, 25 → Z,
/// 26 → AA.
pub(super) fn column_label(column: i32) -> String {
    let mut n = i64::from(column.max(0)) + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = u8::try_from((n - 1) % 26).unwrap_or(0);
        out.push(char::from(b'A' + rem));
        n = (n - 1) / 26;
    }
    out.iter().rev().collect()
}

/// Points to probe for the first visible cell, from the top-left corner
/// inwards and downwards (a header row or a border may stand at the very
/// corner).
pub(super) fn top_left_probes(e: Extents) -> Vec<(i32, i32)> {
    let xs = [2, 10, 24];
    let ys = [2, 10, 24, 40, 64];
    ys.iter()
        .flat_map(|&dy| xs.iter().map(move |&dx| (dx, dy)))
        .filter(|&(dx, dy)| dx < e.w && dy < e.h)
        .map(|(dx, dy)| (e.x.saturating_add(dx), e.y.saturating_add(dy)))
        .collect()
}

/// Points to probe for the last visible cell, from the bottom-right corner
/// inwards and upwards (a scroll bar or a part-shown row may stand there).
pub(super) fn bottom_right_probes(e: Extents) -> Vec<(i32, i32)> {
    let xs = [3, 12, 24];
    let ys = [3, 12, 24, 40];
    ys.iter()
        .flat_map(|&dy| xs.iter().map(move |&dx| (dx, dy)))
        .filter(|&(dx, dy)| dx < e.w && dy < e.h)
        .map(|(dx, dy)| {
            (
                e.x.saturating_add(e.w).saturating_sub(dx),
                e.y.saturating_add(e.h).saturating_sub(dy),
            )
        })
        .collect()
}

/// Points over the whole area, row by row ([`PROBE_STEP`] apart, at three
/// places across), at most [`MAX_PROBES`].
pub(super) fn area_probes(e: Extents) -> Vec<(i32, i32)> {
    if e.w <= 0 || e.h <= 0 {
        return Vec::new();
    }
    let xs = [8.min(e.w - 1), e.w / 2, (e.w - 8).max(0)];
    let mut out = Vec::new();
    let mut dy = PROBE_STEP / 2;
    while dy < e.h && out.len() < MAX_PROBES {
        for dx in xs {
            let p = (e.x.saturating_add(dx), e.y.saturating_add(dy));
            if !out.contains(&p) {
                out.push(p);
            }
        }
        dy += PROBE_STEP;
    }
    out.truncate(MAX_PROBES);
    out
}

/// The rows and columns to read: from the first visible cell to the last
/// (or, when the last cannot be found — a table shorter than its area —
/// to the table's end), within [`MAX_ROWS`] and [`MAX_CELLS`].
pub(super) fn cell_range(
    first: (i32, i32),
    last: Option<(i32, i32)>,
    size: (i32, i32),
) -> ((i32, i32), (i32, i32)) {
    let (r0, c0) = (first.0.max(0), first.1.max(0));
    let (r_end, c_end) = last.unwrap_or((size.0 - 1, size.1 - 1));
    let c1 = c_end.clamp(c0, (size.1 - 1).max(c0));
    let columns = c1 - c0 + 1;
    let max_rows = (MAX_CELLS / columns.max(1)).clamp(1, MAX_ROWS);
    let r1 = r_end.clamp(r0, (size.0 - 1).max(r0)).min(r0 + max_rows - 1);
    let c1 = c1.min(c0 + MAX_CELLS - 1);
    ((r0, r1), (c0, c1))
}

/// What was read of one managing container.
#[derive(Debug)]
pub(super) struct View {
    /// Its children on screen, in reading order.
    pub(super) children: Vec<ObjRef>,
    /// What they are (for the note).
    pub(super) shown: Shown,
    /// The table's cells among them (all of one kind: their role and
    /// interfaces are read once, from the first).
    pub(super) cells: Vec<ObjRef>,
    /// The cells' extents, from the rows' and columns' places (read from
    /// the first row's and the first column's cells, not from each).
    pub(super) extents: Vec<(ObjRef, Extents)>,
    /// Each cell's spreadsheet address (`B12`), in the order of `cells`.
    pub(super) addresses: Vec<String>,
}

impl View {
    fn empty(shown: Shown) -> View {
        View {
            children: Vec::new(),
            shown,
            cells: Vec::new(),
            extents: Vec::new(),
            addresses: Vec::new(),
        }
    }
}

/// The extents of every cell of a `rows` × `columns` grid (row-major,
/// `None` where no cell came), from the first row's cells (each column's
/// left and width) and the first column's (each row's top and height).
pub(super) fn grid_extents(
    cells: &[Option<ObjRef>],
    columns: usize,
    first_row: &[Option<Extents>],
    first_column: &[Option<Extents>],
) -> Vec<(ObjRef, Extents)> {
    let mut out = Vec::with_capacity(cells.len());
    if columns == 0 {
        return out;
    }
    for (i, cell) in cells.iter().enumerate() {
        let (r, c) = (i / columns, i % columns);
        let (Some(cell), Some(Some(col)), Some(Some(row))) =
            (cell, first_row.get(c), first_column.get(r))
        else {
            continue;
        };
        if col.is_unplaced() || row.is_unplaced() {
            continue;
        }
        out.push((
            cell.clone(),
            Extents {
                x: col.x,
                w: col.w,
                y: row.y,
                h: row.h,
            },
        ));
    }
    out
}

/// The children on screen of the managing container `obj` (extents in
/// `coord` coordinates), in reading order: a table's column headers, then
/// its cells row by row; else the items found at points over its area.
pub(super) async fn visible_children(
    conn: &impl Caller,
    cache: &CellCache,
    obj: &ObjRef,
    interfaces: InterfaceSet,
    child_count: i32,
    coord: u32,
    deadline: Instant,
) -> View {
    let nothing = Shown::Nothing {
        children: child_count,
    };
    if !interfaces.contains(Interface::Component) {
        return View::empty(nothing);
    }
    let table = interfaces.contains(Interface::Table);
    // Its place, a table's size and (where the cache did not say, as GTK's
    // does not for a container that manages its descendants) its child
    // count, at once.
    let (area, size, count) = futures::join!(
        answer(deadline, calls::extents(conn, obj, coord)),
        async {
            if table {
                answer(deadline, calls::table_size(conn, obj)).await
            } else {
                None
            }
        },
        async {
            if child_count < 0 {
                answer(
                    deadline,
                    calls::property::<i32>(conn, obj, "org.a11y.atspi.Accessible", "ChildCount"),
                )
                .await
            } else {
                Some(child_count)
            }
        },
    );
    let Some(area) = area else {
        return View::empty(nothing);
    };
    if area.w <= 0 || area.h <= 0 || area.is_unplaced() {
        return View::empty(Shown::Unplaced);
    }
    let size = size.filter(|s| s.0 > 0 && s.1 > 0);
    // A small table is read whole (see `SMALL_TABLE`).
    if let Some(size) = size.filter(|_| count.is_some_and(|n| (1..=SMALL_TABLE).contains(&n))) {
        if let Some(children) = answer(deadline, calls::children(conn, obj)).await {
            return View {
                children,
                shown: Shown::Table {
                    rows: (0, size.0 - 1),
                    columns: (0, size.1 - 1),
                    size,
                },
                cells: Vec::new(),
                extents: Vec::new(),
                addresses: Vec::new(),
            };
        }
    }
    if let Some(size) = size {
        if let Some(view) = table_children(conn, cache, obj, area, size, coord, deadline).await {
            return view;
        }
    } else if !table {
        // A list the cache did not count for: a small one is read whole
        // (see `manages`).
        if count.is_some_and(|n| (0..=SMALL_LIST).contains(&n)) {
            let children = answer(deadline, calls::children(conn, obj))
                .await
                .unwrap_or_default();
            return View {
                children,
                shown: Shown::Whole,
                cells: Vec::new(),
                extents: Vec::new(),
                addresses: Vec::new(),
            };
        }
    }
    let probes = area_probes(area);
    let found: Vec<Option<ObjRef>> = stream::iter(probes.into_iter().map(|p| async move {
        answer(deadline, calls::accessible_at_point(conn, obj, p, coord))
            .await
            .flatten()
    }))
    .buffered(IN_FLIGHT)
    .collect()
    .await;
    let mut seen = HashSet::new();
    let children: Vec<ObjRef> = found
        .into_iter()
        .flatten()
        .filter(|c| c != obj && seen.insert(c.clone()))
        .collect();
    let shown = Shown::Points {
        found: children.len(),
        children: child_count,
    };
    View {
        children,
        shown,
        cells: Vec::new(),
        extents: Vec::new(),
        addresses: Vec::new(),
    }
}

/// The row and column of the cell at each of `probes` (`None` for a
/// header, a point outside every cell, or no answer by `deadline`), the
/// probes asked all at once: the objects at the points, then each one's
/// index, then each index's row and column.
async fn cells_at(
    conn: &impl Caller,
    table: &ObjRef,
    probes: &[(i32, i32)],
    coord: u32,
    deadline: Instant,
) -> Vec<Option<(i32, i32)>> {
    let found: Vec<Option<ObjRef>> = stream::iter(probes.iter().copied().map(|p| async move {
        answer(deadline, calls::accessible_at_point(conn, table, p, coord))
            .await
            .flatten()
            .filter(|c| c != table)
    }))
    .buffered(IN_FLIGHT)
    .collect()
    .await;
    let indices: Vec<Option<i32>> = stream::iter(
        found
            .into_iter()
            .map(|c| async move { answer(deadline, index_in_parent(conn, &c?)).await }),
    )
    .buffered(IN_FLIGHT)
    .collect()
    .await;
    stream::iter(indices.into_iter().map(|i| async move {
        let (row, column) = answer(deadline, calls::table_position(conn, table, i?)).await?;
        (row >= 0 && column >= 0).then_some((row, column))
    }))
    .buffered(IN_FLIGHT)
    .collect()
    .await
}

/// The row and column of the first cell found at `probes` (a header or a
/// point outside every cell is passed over). The probe that found it last
/// time is asked alone first, else the first probe (a table's corner is
/// most often right there); only when that misses are the others asked,
/// together. An app that makes a new object for every cell it hands out
/// (LibreOffice) so makes one, not one a probe.
async fn cell_at(
    conn: &impl Caller,
    cache: &CellCache,
    table: &ObjRef,
    (probes, corner): (Vec<(i32, i32)>, Corner),
    coord: u32,
    deadline: Instant,
) -> Option<(i32, i32)> {
    let first = cache
        .corner_hint(table, corner)
        .filter(|&i| i < probes.len())
        .unwrap_or(0);
    let alone = cells_at(conn, table, probes.get(first..=first)?, coord, deadline).await;
    if let Some(Some(at)) = alone.first() {
        return Some(*at);
    }
    let rest: Vec<usize> = (0..probes.len()).filter(|&i| i != first).collect();
    let points: Vec<(i32, i32)> = rest.iter().map(|&i| probes[i]).collect();
    let found = cells_at(conn, table, &points, coord, deadline).await;
    let (i, at) = rest
        .into_iter()
        .zip(found)
        .find_map(|(i, at)| Some((i, at?)))?;
    cache.set_corner_hint(table, corner, i);
    Some(at)
}

/// A table's visible cells (and its column headers); `None` when no cell
/// could be found on screen (then its area is probed instead).
async fn table_children(
    conn: &impl Caller,
    cache: &CellCache,
    table: &ObjRef,
    area: Extents,
    size: (i32, i32),
    coord: u32,
    deadline: Instant,
) -> Option<View> {
    let (first, last) = futures::join!(
        cell_at(
            conn,
            cache,
            table,
            (top_left_probes(area), Corner::TopLeft),
            coord,
            deadline
        ),
        cell_at(
            conn,
            cache,
            table,
            (bottom_right_probes(area), Corner::BottomRight),
            coord,
            deadline
        ),
    );
    let first = first?;
    let (rows, columns) = cell_range(first, last, size);
    let mut usage = cache.usage(table, size);
    if usage == CacheUse::Probe {
        // Asked again for a cell it gave before: the same object (the app
        // keeps its cells) or a new one (it makes one per call). The last
        // cell on screen is asked, not the first: LibreOffice keeps one
        // object, the cursor's cell (A1 at first), and makes the others.
        let (r, c) = (rows.1, columns.1);
        if let Some(known) = cache.get(table, r, c) {
            let again = answer(deadline, calls::table_cell(conn, table, r, c))
                .await
                .flatten();
            if let Some(again) = again {
                let makes_new = again != known;
                cache.learn(table, makes_new);
                cache.put(table, r, c, &again);
                usage = if makes_new {
                    CacheUse::Use
                } else {
                    CacheUse::Skip
                };
            }
        }
    }
    let use_cache = usage != CacheUse::Skip;
    let headers = stream::iter((columns.0..=columns.1).map(|c| async move {
        answer(deadline, calls::column_header(conn, table, c))
            .await
            .flatten()
    }))
    .buffered(IN_FLIGHT)
    .collect::<Vec<Option<ObjRef>>>();
    let cells = stream::iter(
        (rows.0..=rows.1)
            .flat_map(|r| (columns.0..=columns.1).map(move |c| (r, c)))
            .map(|(r, c)| async move {
                if let Some(known) = cache.get(table, r, c).filter(|_| use_cache) {
                    return Some(known);
                }
                let cell = answer(deadline, calls::table_cell(conn, table, r, c))
                    .await
                    .flatten()?;
                cache.put(table, r, c, &cell);
                Some(cell)
            }),
    )
    .buffered(IN_FLIGHT)
    .collect::<Vec<Option<ObjRef>>>();
    let (headers, cells) = futures::join!(headers, cells);
    tracing::debug!(
        ?usage,
        cells = cells.len(),
        remembered = cache.len(),
        "table cells"
    );
    // Where the rows and columns are: the first row's and the first
    // column's cells.
    let width = usize::try_from(columns.1 - columns.0 + 1).unwrap_or(0);
    let read_extents = |cell: Option<ObjRef>| async move {
        let cell = cell?;
        answer(deadline, calls::extents(conn, &cell, coord)).await
    };
    let first_row = stream::iter(cells.iter().take(width).cloned().map(read_extents))
        .buffered(IN_FLIGHT)
        .collect::<Vec<Option<Extents>>>();
    let first_column = stream::iter(
        cells
            .iter()
            .step_by(width.max(1))
            .cloned()
            .map(read_extents),
    )
    .buffered(IN_FLIGHT)
    .collect::<Vec<Option<Extents>>>();
    let (first_row, first_column) = futures::join!(first_row, first_column);
    let extents = grid_extents(&cells, width, &first_row, &first_column);
    let mut seen = HashSet::new();
    let headers: Vec<ObjRef> = headers
        .into_iter()
        .flatten()
        .filter(|c| c != table && seen.insert(c.clone()))
        .collect();
    let places = (rows.0..=rows.1).flat_map(|r| (columns.0..=columns.1).map(move |c| (r, c)));
    let (cells, addresses): (Vec<ObjRef>, Vec<String>) = cells
        .into_iter()
        .zip(places)
        .filter_map(|(cell, (r, c))| Some((cell?, address(r, c))))
        .filter(|(c, _)| c != table && seen.insert(c.clone()))
        .unzip();
    let children = headers.iter().chain(&cells).cloned().collect();
    Some(View {
        children,
        shown: Shown::Table {
            rows,
            columns,
            size,
        },
        cells,
        extents,
        addresses,
    })
}

/// The spreadsheet address of the cell at `row`, `column` (0-based):
/// `A1`, `AB12`.
pub(super) fn address(row: i32, column: i32) -> String {
    format!("{}{}", column_label(column), i64::from(row) + 1)
}

/// The `Accessible` properties of a table's cells known without reading
/// them: LibreOffice names each cell by its address and gives it no
/// description and no children, and reading them took 1,395 calls a
/// snapshot of a full sheet. `first` is what the first cell (`addresses[0]`)
/// answered; only when it is exactly that are the others taken to be the
/// same (a table whose cells say their content is read cell by cell).
pub(super) fn addressed(
    cells: &[ObjRef],
    addresses: &[String],
    first: &calls::AccessibleProps,
) -> Vec<(ObjRef, calls::AccessibleProps)> {
    let by_address = addresses.first().is_some_and(|a| *a == first.name)
        && first.description.is_empty()
        && first.child_count == 0;
    if !by_address {
        return Vec::new();
    }
    cells
        .iter()
        .zip(addresses)
        .skip(1)
        .map(|(c, a)| {
            (
                c.clone(),
                calls::AccessibleProps {
                    name: a.clone(),
                    description: String::new(),
                    child_count: 0,
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests;
