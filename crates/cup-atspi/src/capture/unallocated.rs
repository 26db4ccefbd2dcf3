//! Top-down extents for GTK 4 windows.
//!
//! GTK 4 never reports SHOWING; a widget it has not allocated (a list row
//! scrolled out of a `GtkListView`, the whole subtree under it) answers
//! `GetExtents` with an empty rectangle at its parent's origin. GTK 4
//! allocates children inside their parent's allocation, so every
//! descendant of an unallocated widget is unallocated too: its extents are
//! known without asking. Reading the extents of a row's subtree only once
//! the row came back allocated skips those calls — on gtk4-demo about 240
//! of 440, each a round trip through GTK's main loop. Only the widgets a
//! container may leave unallocated while they exist (list, grid and tree
//! rows and cells) hold their subtree back; every other read goes out at
//! once, so the pass costs a round trip per row level, not per tree level.
//!
//! A list view keeps a widget for many more rows than it shows (Nautilus's
//! grid: one per file, 500 rows, 16 on screen), and the rows it allocates
//! are the ones in view: one run, in the list's order. So past
//! [`PROBE_FROM`] such rows under one parent, one row in [`PROBE_EVERY`]
//! is read first (and the last); the rows between the probe before the
//! first allocated one and the probe after the last allocated one are then
//! read, and the rest, outside two unallocated probes, take a probe's
//! empty extents. Where no probe comes back allocated (a run shorter than
//! the probes' spacing) or a probe has no answer, every row is read, as
//! below fewer rows.

use std::collections::{HashMap, VecDeque};
use std::future::Future;

use futures::stream::{FuturesUnordered, StreamExt};

use crate::facts::Extents;

/// Rows that hold their subtree back, under one parent, from which they
/// are probed before they are read (see the module's documentation).
pub const PROBE_FROM: usize = 64;

/// One row in this many is probed.
pub const PROBE_EVERY: usize = 8;

/// What became of one node's extents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// Read: the extents, or `None` when the call failed.
    Read(Option<Extents>),
    /// Not read: an ancestor is unallocated, or the node lies outside the
    /// run of allocated rows its siblings' probes found; these are the
    /// empty extents it takes.
    Inherited(Extents),
    /// The read ran out of time.
    TimedOut,
}

/// What a probe found.
#[derive(Debug, Clone, Copy)]
enum Probe {
    Pending,
    Allocated,
    Unallocated(Extents),
    /// Failed or late: the run cannot be told.
    Unknown,
}

/// Many rows of one parent, probed before they are read.
struct Rows {
    /// The rows, in the parent's order.
    kids: Vec<usize>,
    /// Positions in `kids` that are probed, ascending (the first and last
    /// among them).
    probes: Vec<usize>,
    found: Vec<Probe>,
    pending: usize,
}

impl Rows {
    fn new(kids: Vec<usize>) -> Self {
        let n = kids.len();
        let mut probes: Vec<usize> = (0..n).step_by(PROBE_EVERY).collect();
        if probes.last() != Some(&(n - 1)) {
            probes.push(n - 1);
        }
        let pending = probes.len();
        Rows {
            kids,
            found: vec![Probe::Pending; probes.len()],
            probes,
            pending,
        }
    }

    /// Once every probe answered: the rows to read (positions), and those
    /// that take an unallocated probe's extents.
    fn settle(&self) -> (Vec<usize>, Vec<(usize, Extents)>) {
        let probed = |pos: &usize| self.probes.binary_search(pos).is_ok();
        let all_rest = || {
            (
                (0..self.kids.len()).filter(|p| !probed(p)).collect(),
                Vec::new(),
            )
        };
        if self
            .found
            .iter()
            .any(|f| matches!(f, Probe::Unknown | Probe::Pending))
        {
            return all_rest();
        }
        let allocated = |f: &Probe| matches!(f, Probe::Allocated);
        let (Some(first), Some(last)) = (
            self.found.iter().position(allocated),
            self.found.iter().rposition(allocated),
        ) else {
            return all_rest();
        };
        // Between the unallocated probes around the run: read. Outside
        // them: the nearer unallocated probe's extents.
        let low = first.checked_sub(1);
        let high = (last + 1 < self.probes.len()).then_some(last + 1);
        let extents_of = |j: usize| match self.found[j] {
            Probe::Unallocated(e) => Some(e),
            _ => None,
        };
        let mut read = Vec::new();
        let mut inherit = Vec::new();
        for pos in (0..self.kids.len()).filter(|p| !probed(p)) {
            let outside = match (low, high) {
                (Some(l), _) if pos < self.probes[l] => extents_of(l),
                (_, Some(h)) if pos > self.probes[h] => extents_of(h),
                _ => None,
            };
            match outside {
                Some(e) => inherit.push((pos, e)),
                None => read.push(pos),
            }
        }
        (read, inherit)
    }
}

/// The traversal's state: what is queued, what is known, which rows are
/// probed.
struct State {
    out: Vec<(usize, Outcome)>,
    backlog: VecDeque<usize>,
    groups: Vec<Rows>,
    /// Probed node: its group and the probe's place in it.
    probe_of: HashMap<usize, (usize, usize)>,
}

/// Reads the extents of the nodes under `root` that `wants` them, at most
/// `concurrency` calls at once. Below a node that `gates`, a node's extents
/// are asked only after that node came back allocated; below one that does
/// not, they are asked at once, with its own (a guess that it is allocated,
/// which costs calls when wrong, never correctness: every answer is a
/// read). Many siblings that gate are probed first (see the module's
/// documentation). `children(i)` lists node `i`'s children; `read(i)`
/// reads node `i`'s extents (`None`: out of time).
pub async fn read_top_down<'a, C, W, G, R, F>(
    root: usize,
    children: C,
    wants: W,
    gates: G,
    read: R,
    concurrency: usize,
) -> Vec<(usize, Outcome)>
where
    C: Fn(usize) -> &'a [usize],
    W: Fn(usize) -> bool,
    G: Fn(usize) -> bool,
    R: Fn(usize) -> F,
    F: Future<Output = Option<Option<Extents>>>,
{
    let mut st = State {
        out: Vec::new(),
        backlog: VecDeque::new(),
        groups: Vec::new(),
        probe_of: HashMap::new(),
    };
    // Walks the subtree of `start` (inclusive when `include_start`) down to
    // the nodes whose extents must be read, or whose extents are inherited
    // from `unallocated`.
    let visit =
        |start: usize, include_start: bool, unallocated: Option<Extents>, st: &mut State| {
            let mut stack: Vec<usize> = Vec::new();
            let push_children = |i: usize, stack: &mut Vec<usize>, st: &mut State| {
                let kids = children(i);
                let rows: Vec<usize> = if unallocated.is_none() {
                    kids.iter()
                        .copied()
                        .filter(|&k| wants(k) && gates(k))
                        .collect()
                } else {
                    Vec::new()
                };
                if rows.len() < PROBE_FROM {
                    stack.extend(kids.iter().rev().copied());
                    return;
                }
                stack.extend(
                    kids.iter()
                        .rev()
                        .copied()
                        .filter(|&k| !(wants(k) && gates(k))),
                );
                let group = Rows::new(rows);
                let g = st.groups.len();
                for (j, &pos) in group.probes.iter().enumerate() {
                    let node = group.kids[pos];
                    st.probe_of.insert(node, (g, j));
                    st.backlog.push_back(node);
                }
                st.groups.push(group);
            };
            if include_start {
                stack.push(start);
            } else {
                push_children(start, &mut stack, st);
            }
            while let Some(i) = stack.pop() {
                if let Some(e) = unallocated {
                    if wants(i) {
                        st.out.push((i, Outcome::Inherited(e)));
                    }
                } else if wants(i) {
                    st.backlog.push_back(i);
                    if gates(i) {
                        continue;
                    }
                }
                push_children(i, &mut stack, st);
            }
        };
    visit(root, true, None, &mut st);
    let mut inflight = FuturesUnordered::new();
    loop {
        while inflight.len() < concurrency.max(1) {
            let Some(i) = st.backlog.pop_front() else {
                break;
            };
            let reading = read(i);
            inflight.push(async move { (i, reading.await) });
        }
        let Some((i, got)) = inflight.next().await else {
            break;
        };
        let outcome = match got {
            Some(extents) => Outcome::Read(extents),
            None => Outcome::TimedOut,
        };
        st.out.push((i, outcome));
        if let Some((g, j)) = st.probe_of.remove(&i) {
            st.groups[g].found[j] = match outcome {
                Outcome::Read(Some(e)) if e.is_unallocated() => Probe::Unallocated(e),
                Outcome::Read(Some(_)) => Probe::Allocated,
                _ => Probe::Unknown,
            };
            st.groups[g].pending -= 1;
            if st.groups[g].pending == 0 {
                let (to_read, to_inherit) = st.groups[g].settle();
                let kids = std::mem::take(&mut st.groups[g].kids);
                st.backlog.extend(to_read.into_iter().map(|pos| kids[pos]));
                for (pos, e) in to_inherit {
                    st.out.push((kids[pos], Outcome::Inherited(e)));
                    visit(kids[pos], false, Some(e), &mut st);
                }
            }
        }
        if !gates(i) {
            // Its subtree was visited when it was queued.
            continue;
        }
        let unallocated = match outcome {
            Outcome::Read(Some(e)) if e.is_unallocated() => Some(e),
            _ => None,
        };
        visit(i, false, unallocated, &mut st);
    }
    st.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(x: i32, y: i32, w: i32, h: i32) -> Extents {
        Extents { x, y, w, h }
    }

    /// 0 ─┬─ 1 (allocated) ── 2
    ///    └─ 3 (0x0) ─┬─ 4 ── 5
    ///                └─ 6 (no extents wanted) ── 7
    fn tree() -> Vec<Vec<usize>> {
        vec![
            vec![1, 3],
            vec![2],
            vec![],
            vec![4, 6],
            vec![5],
            vec![],
            vec![7],
            vec![],
        ]
    }

    fn extents_of(i: usize) -> Extents {
        match i {
            3 => e(0, 51, 0, 0),
            _ => e(10, 10, 100, 20),
        }
    }

    fn run(wants: impl Fn(usize) -> bool) -> (Vec<(usize, Outcome)>, Vec<usize>) {
        run_gated(wants, |_| true)
    }

    fn run_gated(
        wants: impl Fn(usize) -> bool,
        gates: impl Fn(usize) -> bool,
    ) -> (Vec<(usize, Outcome)>, Vec<usize>) {
        let kids = tree();
        let asked = std::sync::Mutex::new(Vec::new());
        let out = futures::executor::block_on(read_top_down(
            0,
            |i| kids[i].as_slice(),
            wants,
            gates,
            |i| {
                asked.lock().map(|mut a| a.push(i)).ok();
                async move { Some(Some(extents_of(i))) }
            },
            2,
        ));
        let mut asked = asked.into_inner().unwrap_or_default();
        asked.sort_unstable();
        (out, asked)
    }

    #[test]
    fn descendants_of_an_unallocated_node_are_not_asked() {
        let (mut out, asked) = run(|i| i != 6);
        assert_eq!(asked, vec![0, 1, 2, 3]);
        out.sort_by_key(|(i, _)| *i);
        let inherited = Outcome::Inherited(e(0, 51, 0, 0));
        assert_eq!(
            out,
            vec![
                (0, Outcome::Read(Some(extents_of(0)))),
                (1, Outcome::Read(Some(extents_of(1)))),
                (2, Outcome::Read(Some(extents_of(2)))),
                (3, Outcome::Read(Some(extents_of(3)))),
                (4, inherited),
                (5, inherited),
                (7, inherited),
            ]
        );
    }

    #[test]
    fn nodes_without_extents_pass_the_gate_to_their_children() {
        // The root wants none: its children are read straight away.
        let (out, asked) = run(|i| i != 0);
        assert_eq!(asked, vec![1, 2, 3]);
        // 1, 2, 3 read; 4, 5, 6, 7 inherited.
        assert_eq!(out.len(), 7);
    }

    #[test]
    fn below_a_node_that_does_not_gate_reads_go_out_at_once() {
        // Only 3 gates: 0, 1, 2, 3 are asked without waiting; 3 comes back
        // unallocated, so 4, 5, 7 inherit.
        let (out, asked) = run_gated(|i| i != 6, |i| i == 3);
        assert_eq!(asked, vec![0, 1, 2, 3]);
        assert_eq!(out.len(), 7);
        assert!(out.contains(&(5, Outcome::Inherited(e(0, 51, 0, 0)))));
        // Nothing gates: every node is read, each answer its own.
        let (out, asked) = run_gated(|i| i != 6, |_| false);
        assert_eq!(asked, vec![0, 1, 2, 3, 4, 5, 7]);
        assert_eq!(out.len(), 7);
        assert!(out.contains(&(5, Outcome::Read(Some(extents_of(5))))));
    }

    #[test]
    fn a_failed_or_timed_out_read_does_not_gate() {
        let kids = tree();
        let out = futures::executor::block_on(read_top_down(
            0,
            |i| kids[i].as_slice(),
            |_| true,
            |_| true,
            |i| async move {
                match i {
                    0 => None,
                    3 => Some(None),
                    _ => Some(Some(extents_of(i))),
                }
            },
            8,
        ));
        assert_eq!(out.len(), 8);
        assert!(out.contains(&(0, Outcome::TimedOut)));
        assert!(out.contains(&(3, Outcome::Read(None))));
        assert!(out.contains(&(5, Outcome::Read(Some(extents_of(5))))));
    }

    /// A list (node 0) of `n` rows (1..=n), each with one child (n+1..);
    /// the rows at positions in `shown` allocated, the rest answering an
    /// empty rectangle at the list's origin.
    fn list(n: usize) -> Vec<Vec<usize>> {
        let mut kids = vec![(1..=n).collect::<Vec<_>>()];
        kids.extend((1..=n).map(|r| vec![n + r]));
        kids.extend((0..n).map(|_| Vec::new()));
        kids
    }

    fn read_list(
        n: usize,
        answer: impl Fn(usize) -> Option<Option<Extents>>,
    ) -> (Vec<(usize, Outcome)>, Vec<usize>) {
        let kids = list(n);
        let asked = std::sync::Mutex::new(Vec::new());
        let out = futures::executor::block_on(read_top_down(
            0,
            |i| kids[i].as_slice(),
            |_| true,
            |i| (1..=n).contains(&i),
            |i| {
                asked.lock().map(|mut a| a.push(i)).ok();
                let got = answer(i);
                async move { got }
            },
            16,
        ));
        let mut asked = asked.into_inner().unwrap_or_default();
        asked.sort_unstable();
        (out, asked)
    }

    fn row_answer(
        n: usize,
        shown: std::ops::Range<usize>,
    ) -> impl Fn(usize) -> Option<Option<Extents>> {
        move |i| {
            let row = if i > n { i - n } else { i };
            let pos = row.wrapping_sub(1);
            Some(Some(if i == 0 {
                e(0, 0, 400, 800)
            } else if shown.contains(&pos) {
                e(0, 20 * i32::try_from(pos).unwrap_or(0), 400, 20)
            } else {
                e(0, 0, 0, 0)
            }))
        }
    }

    /// The positions of the rows `asked` holds (a list of `n` rows).
    fn rows_in(asked: &[usize], n: usize) -> Vec<usize> {
        asked
            .iter()
            .filter(|&&i| (1..=n).contains(&i))
            .map(|i| i - 1)
            .collect()
    }

    /// The positions of the rows whose children `asked` holds.
    fn children_in(asked: &[usize], n: usize) -> Vec<usize> {
        asked
            .iter()
            .filter(|&&i| i > n)
            .map(|i| i - n - 1)
            .collect()
    }

    #[test]
    fn many_rows_are_probed_and_only_the_run_read() {
        // 100 rows, 40..56 on screen: probes at 0, 8, ..., 96 and 99; the
        // first allocated probe is 40, the last 48: rows 33..=55 are read
        // (between the probes at 32 and 56), the rest inherit.
        let n = 100;
        let (out, asked) = read_list(n, row_answer(n, 40..56));
        assert_eq!(out.len(), 1 + 2 * n, "every node has an outcome");
        let rows_asked = rows_in(&asked, n);
        let mut expected: Vec<usize> = (0..n)
            .step_by(PROBE_EVERY)
            .chain([n - 1])
            .chain(33..56)
            .collect();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(rows_asked, expected);
        // The children asked are those of the allocated rows only.
        let children_asked = children_in(&asked, n);
        assert_eq!(children_asked, (40..56).collect::<Vec<_>>());
        // A row outside the run and its child take the empty extents.
        let of = |i: usize| out.iter().find(|(k, _)| *k == i).map(|(_, o)| *o);
        assert_eq!(of(11), Some(Outcome::Inherited(e(0, 0, 0, 0))));
        assert_eq!(of(n + 11), Some(Outcome::Inherited(e(0, 0, 0, 0))));
        assert_eq!(of(41), Some(Outcome::Read(Some(e(0, 800, 400, 20)))));
        // Every row in the run came back read, allocated.
        for pos in 40..56 {
            assert!(matches!(of(pos + 1), Some(Outcome::Read(Some(x))) if !x.is_unallocated()));
        }
    }

    #[test]
    fn a_run_the_probes_miss_or_a_probe_without_answer_reads_every_row() {
        let n = 100;
        // Three rows on screen, between two probes.
        let (_, asked) = read_list(n, row_answer(n, 41..44));
        let rows_asked = rows_in(&asked, n).len();
        assert_eq!(rows_asked, n);
        // A probe times out: every row is read, the run's children too.
        let base = row_answer(n, 40..56);
        let (out, asked) = read_list(n, move |i| if i == 9 { None } else { base(i) });
        let rows_asked = rows_in(&asked, n).len();
        assert_eq!(rows_asked, n);
        assert!(out.contains(&(9, Outcome::TimedOut)));
        assert_eq!(out.len(), 1 + 2 * n);
    }

    #[test]
    fn few_rows_are_all_read_at_once() {
        let n = PROBE_FROM - 1;
        let (out, asked) = read_list(n, row_answer(n, 10..20));
        let rows_asked = rows_in(&asked, n).len();
        assert_eq!(rows_asked, n);
        assert_eq!(out.len(), 1 + 2 * n);
    }

    #[test]
    fn a_run_at_the_start_or_the_end_is_found() {
        let n = 200;
        for shown in [0..30, 170..200] {
            let (out, asked) = read_list(n, row_answer(n, shown.clone()));
            assert_eq!(out.len(), 1 + 2 * n);
            let children_asked = children_in(&asked, n);
            assert_eq!(children_asked, shown.clone().collect::<Vec<_>>());
            let rows_asked = rows_in(&asked, n).len();
            assert!(rows_asked < 80, "{shown:?}: {rows_asked} rows asked");
        }
    }
}
