//! GTK 4 rows that kept the place they had before a scroll.
//!
//! GTK 4.8's list and grid views keep a widget per row (Nautilus's grid:
//! one per file) and allocate those in view. A row scrolled out of view is
//! hidden but keeps its last allocation, and its accessible answers it: after
//! a scroll through a 500-file folder, 236 cells said they were on screen,
//! several on each place (`note-000.txt` and `note-220.txt` both at
//! 266,71), with the same states as the rows really shown.
//!
//! The rows really shown are one run in the list's order, none overlapping
//! another. Where two rows of one list overlap, the list is asked what is
//! drawn there (`GetAccessibleAtPoint`, which GTK 4 answers with the
//! deepest widget at the point); the row holding it is shown, and so is the
//! run of placed rows around it, in order, as long as none overlaps one
//! already in the run. The other rows of the list take an empty rectangle, their
//! subtrees too: off screen, without bounds. Without an answer nothing
//! changes.

use super::unallocated::Outcome;
use super::*;

/// Rows of one list: each row's node and what its extents came to.
pub(super) struct List {
    pub(super) parent: usize,
    pub(super) rows: Vec<(usize, Option<Extents>)>,
}

/// The placed rows' extents of `list` (`None`: not placed).
fn placed(e: Option<Extents>) -> Option<Extents> {
    e.filter(|e| !e.is_unallocated())
}

/// The overlap of two rectangles, when they share some area.
fn overlap(a: Extents, b: Extents) -> Option<Extents> {
    let (x0, y0) = (a.x.max(b.x), a.y.max(b.y));
    let x1 = a.x.saturating_add(a.w).min(b.x.saturating_add(b.w));
    let y1 = a.y.saturating_add(a.h).min(b.y.saturating_add(b.h));
    (x1 > x0 && y1 > y0).then(|| Extents {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    })
}

/// Where two placed rows of the list overlap (rows a view lays out never
/// do), the first such place.
fn repeated(rows: &[(usize, Option<Extents>)]) -> Option<Extents> {
    let placed: Vec<Extents> = rows.iter().filter_map(|(_, e)| placed(*e)).collect();
    placed
        .iter()
        .enumerate()
        .find_map(|(k, &a)| placed[k + 1..].iter().find_map(|&b| overlap(a, b)))
}

/// Whether two placed rows of the list overlap.
pub(super) fn has_repeats(rows: &[(usize, Option<Extents>)]) -> bool {
    repeated(rows).is_some()
}

/// Positions (in `rows`) of the placed rows outside the run around the row
/// at `shown`: the run grows both ways over placed rows while none
/// overlaps a row already in it.
pub(super) fn outside_run(rows: &[(usize, Option<Extents>)], shown: usize) -> Vec<usize> {
    let Some(first) = rows.get(shown).and_then(|(_, e)| placed(*e)) else {
        return Vec::new();
    };
    let mut run = vec![first];
    let mut fits = |e: Extents| {
        let free = run.iter().all(|&r| overlap(r, e).is_none());
        if free {
            run.push(e);
        }
        free
    };
    let (mut lo, mut hi) = (shown, shown);
    let mut grow_down = true;
    let mut grow_up = true;
    while grow_down || grow_up {
        if grow_down {
            match lo
                .checked_sub(1)
                .and_then(|p| placed(rows[p].1).map(|e| (p, e)))
            {
                Some((p, e)) if fits(e) => lo = p,
                _ => grow_down = false,
            }
        }
        if grow_up {
            match rows.get(hi + 1).and_then(|(_, e)| placed(*e)) {
                Some(e) if fits(e) => hi += 1,
                _ => grow_up = false,
            }
        }
    }
    (0..rows.len())
        .filter(|&p| (p < lo || p > hi) && placed(rows[p].1).is_some())
        .collect()
}

/// Settles the lists of `outcomes` (a GTK 4 window's top-down extents)
/// whose rows repeat a place: the rows not really shown, and their
/// subtrees, take an empty rectangle.
pub(super) async fn settle(walk: &Walk<'_>, root: usize, outcomes: &mut [(usize, Outcome)]) {
    let nodes = &walk.nodes;
    let at: HashMap<usize, usize> = outcomes
        .iter()
        .enumerate()
        .map(|(k, (i, _))| (*i, k))
        .collect();
    let extents_of = |i: usize| match at.get(&i).map(|&k| outcomes[k].1) {
        Some(Outcome::Read(e)) => e,
        Some(Outcome::Inherited(e)) => Some(e),
        _ => None,
    };
    let mut lists = Vec::new();
    let mut parent_of: HashMap<usize, usize> = HashMap::new();
    let mut stack = vec![root];
    while let Some(i) = stack.pop() {
        let kids = &nodes[i].children;
        for &k in kids {
            parent_of.insert(k, i);
        }
        stack.extend(kids.iter().copied());
        let rows: Vec<(usize, Option<Extents>)> = kids
            .iter()
            .filter(|&&k| mapping::gtk4_may_be_unallocated(nodes[k].role))
            .map(|&k| (k, extents_of(k)))
            .collect();
        if rows.len() > 1 && has_repeats(&rows) {
            lists.push(List { parent: i, rows });
        }
    }
    for list in lists {
        let Some(place) = repeated(&list.rows) else {
            continue;
        };
        let parent = &nodes[list.parent].obj;
        let conn = walk.links.to(&parent.bus);
        let centre = (place.x + place.w / 2, place.y + place.h / 2);
        let hit = timeout_at(
            walk.deadline,
            calls::accessible_at_point(&conn, parent, centre, calls::COORD_WINDOW),
        )
        .await;
        let Ok(Ok(Some(hit))) = hit else { continue };
        // The row holding what is drawn there.
        let Some(mut i) = (0..nodes.len()).find(|&i| nodes[i].obj == hit) else {
            continue;
        };
        while parent_of.get(&i).is_some_and(|&p| p != list.parent) {
            i = parent_of[&i];
        }
        let Some(shown) = list.rows.iter().position(|(r, _)| *r == i) else {
            continue;
        };
        let stale = outside_run(&list.rows, shown);
        tracing::debug!(
            rows = list.rows.len(),
            stale = stale.len(),
            "GTK 4 rows that kept a place from before a scroll"
        );
        for p in stale {
            let (row, e) = list.rows[p];
            let empty = Extents {
                x: e.map_or(0, |e| e.x),
                y: e.map_or(0, |e| e.y),
                w: 0,
                h: 0,
            };
            let mut below = vec![row];
            while let Some(n) = below.pop() {
                if let Some(&k) = at.get(&n) {
                    outcomes[k].1 = Outcome::Inherited(empty);
                }
                below.extend(nodes[n].children.iter().copied());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(x: i32, y: i32) -> Option<Extents> {
        Some(Extents { x, y, w: 10, h: 10 })
    }

    const GONE: Option<Extents> = Some(Extents {
        x: 0,
        y: 0,
        w: 0,
        h: 0,
    });

    #[test]
    fn overlaps_are_told() {
        let apart = [(1, e(0, 0)), (2, e(10, 0)), (3, GONE), (4, GONE)];
        assert!(!has_repeats(&apart));
        assert!(has_repeats(&[(1, e(0, 0)), (2, e(10, 0)), (3, e(0, 0))]));
        // Half a row apart (a row kept from before a short scroll).
        let half = [(1, e(0, 0)), (2, e(0, 5))];
        assert!(has_repeats(&half));
        let expected = Extents {
            x: 0,
            y: 5,
            w: 10,
            h: 5,
        };
        assert_eq!(repeated(&half), Some(expected));
    }

    /// Rows 0-1 kept the places rows 4-5 now have; row 2 is not placed.
    #[test]
    fn the_run_around_the_shown_row_stays_and_the_rest_goes() {
        let rows = [
            (10, e(0, 0)),
            (11, e(10, 0)),
            (12, GONE),
            (13, e(0, -10)),
            (14, e(0, 0)),
            (15, e(10, 0)),
            (16, GONE),
        ];
        assert_eq!(outside_run(&rows, 4), vec![0, 1]);
        // Seen from the stale side, the others go: the answer decides.
        assert_eq!(outside_run(&rows, 0), vec![3, 4, 5]);
        // A run stops where a row overlaps one in it, even a neighbour.
        let tight = [(1, e(0, 0)), (2, e(10, 0)), (3, e(0, 0)), (4, e(10, 10))];
        assert_eq!(outside_run(&tight, 3), vec![0]);
        // Nothing placed at the position given: nothing goes.
        assert!(outside_run(&rows, 2).is_empty());
    }
}
