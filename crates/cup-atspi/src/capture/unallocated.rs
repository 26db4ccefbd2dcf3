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

use std::collections::VecDeque;
use std::future::Future;

use futures::stream::{FuturesUnordered, StreamExt};

use crate::facts::Extents;

/// What became of one node's extents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// Read: the extents, or `None` when the call failed.
    Read(Option<Extents>),
    /// Not read: an ancestor is unallocated, and these are its extents.
    Inherited(Extents),
    /// The read ran out of time.
    TimedOut,
}

/// Reads the extents of the nodes under `root` that `wants` them, at most
/// `concurrency` calls at once. Below a node that `gates`, a node's extents
/// are asked only after that node came back allocated; below one that does
/// not, they are asked at once, with its own (a guess that it is allocated,
/// which costs calls when wrong, never correctness: every answer is a
/// read). `children(i)` lists node `i`'s children; `read(i)` reads node
/// `i`'s extents (`None`: out of time).
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
    let mut out = Vec::new();
    let mut backlog = VecDeque::new();
    let mut inflight = FuturesUnordered::new();
    // Walks the subtree of `start` (inclusive when `include_start`) down to
    // the nodes whose extents must be read, or whose extents are inherited
    // from `unallocated`.
    let visit = |start: usize,
                 include_start: bool,
                 unallocated: Option<Extents>,
                 out: &mut Vec<(usize, Outcome)>,
                 backlog: &mut VecDeque<usize>| {
        let mut stack: Vec<usize> = if include_start {
            vec![start]
        } else {
            children(start).iter().rev().copied().collect()
        };
        while let Some(i) = stack.pop() {
            if let Some(e) = unallocated {
                if wants(i) {
                    out.push((i, Outcome::Inherited(e)));
                }
            } else if wants(i) {
                backlog.push_back(i);
                if gates(i) {
                    continue;
                }
            }
            stack.extend(children(i).iter().rev().copied());
        }
    };
    visit(root, true, None, &mut out, &mut backlog);
    loop {
        while inflight.len() < concurrency.max(1) {
            let Some(i) = backlog.pop_front() else { break };
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
        out.push((i, outcome));
        if !gates(i) {
            // Its subtree was visited when it was queued.
            continue;
        }
        let unallocated = match outcome {
            Outcome::Read(Some(e)) if e.is_unallocated() => Some(e),
            _ => None,
        };
        visit(i, false, unallocated, &mut out, &mut backlog);
    }
    out
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
}
