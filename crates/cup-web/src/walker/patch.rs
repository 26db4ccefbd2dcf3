//! A decoded walk brought up to date: a [`Patch`] changes the state
//! bits and values of its rows, a [`Splice`] puts the subtrees walked
//! again in place of their old rows and then every box.

use serde_json::Value;

use super::walk::{boxed, col};
use super::{Patch, Splice, Walk, WalkError, WalkNode};

impl Walk {
    /// Applies `patch` (made against this walk's generation).
    ///
    /// # Errors
    ///
    /// [`WalkError::Inconsistent`] when it was made against another walk
    /// or names rows this walk does not have (nothing is changed then).
    pub fn apply(&mut self, patch: &Patch) -> Result<(), WalkError> {
        if patch.patch != self.gen || patch.count != self.nodes.len() {
            return Err(WalkError::Inconsistent(format!(
                "a patch of generation {} ({} nodes) for the walk of generation {} ({} nodes)",
                patch.patch,
                patch.count,
                self.gen,
                self.nodes.len()
            )));
        }
        let rows = state_rows(&patch.rows, self.nodes.len())?;
        let scroll = (col(&patch.viewport, 3), col(&patch.viewport, 4));
        let scrolled = scroll != self.scroll;
        let mut changed = Vec::new();
        for (i, f, v) in rows {
            let node = &mut self.nodes[i];
            if node.flags != f || node.value != v {
                changed.push(i);
            }
            node.flags = f;
            v.clone_into(&mut node.value);
        }
        self.gen = patch.gen;
        self.scroll = scroll;
        if scrolled {
            self.patches.clear();
        } else if !changed.is_empty() {
            if self.patches.len() == super::walk::PATCHES_KEPT {
                self.patches.pop_front();
            }
            self.patches.push_back((self.rev, changed.clone()));
        }
        if scrolled || !changed.is_empty() {
            self.rev = super::walk::fresh_rev();
        }
        Ok(())
    }

    /// Applies `splice` (made against this walk's generation).
    ///
    /// # Errors
    ///
    /// [`WalkError::Inconsistent`] when it was made against another walk
    /// or does not fit it (the walk is then left half-changed: drop it).
    pub fn splice(&mut self, splice: &Splice) -> Result<(), WalkError> {
        let bad = |what: String| WalkError::Inconsistent(what);
        if splice.splice != self.gen || splice.base != self.nodes.len() {
            return Err(bad(format!(
                "a splice of generation {} ({} nodes) for the walk of generation {} ({} nodes)",
                splice.splice,
                splice.base,
                self.gen,
                self.nodes.len()
            )));
        }
        let fresh = splice.walk.decode_rows(true)?.nodes;
        let mut taken = 0usize;
        for part in splice.parts.chunks(4) {
            let [at, remove, add, parent] = part else {
                return Err(bad(format!("a splice part {part:?}")));
            };
            let index =
                |v: i64| usize::try_from(v).map_err(|_| bad(format!("a splice part {part:?}")));
            let (at, remove, add, parent) =
                (index(*at)?, index(*remove)?, index(*add)?, index(*parent)?);
            let end = at + remove;
            if end > self.nodes.len() || parent >= at || taken + add > fresh.len() {
                return Err(bad(format!(
                    "a splice part {part:?} of a walk of {} nodes ({} new rows)",
                    self.nodes.len(),
                    fresh.len()
                )));
            }
            for n in &mut self.nodes[end..] {
                if let Some(p) = n.parent.as_mut() {
                    if *p >= end {
                        *p = *p + add - remove;
                    }
                }
            }
            let rows = fresh[taken..taken + add].iter().map(|n| WalkNode {
                parent: Some(n.parent.map_or(parent, |r| at + r - taken)),
                ..n.clone()
            });
            self.nodes.splice(at..end, rows);
            taken += add;
        }
        if taken != fresh.len() || self.nodes.len() != splice.count {
            return Err(bad(format!(
                "a splice of {} new rows, {taken} placed, {} nodes for {}",
                fresh.len(),
                self.nodes.len(),
                splice.count
            )));
        }
        let n = self.nodes.len();
        let mut children = vec![Vec::new(); n];
        for (i, node) in self.nodes.iter().enumerate() {
            if let Some(p) = node.parent {
                if p >= i {
                    return Err(bad(format!("node {i} under node {p}")));
                }
                children[p].push(i);
            }
        }
        self.children = children;
        for (i, f, v) in state_rows(&splice.rows, n)? {
            self.nodes[i].flags = f;
            v.clone_into(&mut self.nodes[i].value);
        }
        for r in splice.names.chunks(3) {
            let (Some(i), Some(name), Some(desc)) = (
                r.first()
                    .and_then(Value::as_u64)
                    .and_then(|i| usize::try_from(i).ok())
                    .filter(|i| *i < n),
                r.get(1).and_then(Value::as_str),
                r.get(2).and_then(Value::as_str),
            ) else {
                return Err(bad(format!("a splice name {r:?}")));
            };
            name.clone_into(&mut self.nodes[i].name);
            desc.clone_into(&mut self.nodes[i].description);
        }
        if splice.bounds.len() != 4 * n {
            return Err(bad(format!(
                "{} box values for {n} nodes",
                splice.bounds.len()
            )));
        }
        let scale = if splice.walk.scale > 0.0 {
            splice.walk.scale
        } else {
            1.0
        };
        for (node, b) in self.nodes.iter_mut().zip(splice.bounds.chunks_exact(4)) {
            node.bounds = boxed(b, scale);
        }
        self.gen = splice.gen;
        self.scroll = (col(&splice.viewport, 3), col(&splice.viewport, 4));
        self.rev = super::walk::fresh_rev();
        self.patches.clear();
        Ok(())
    }
}

/// A patch's or splice's rows: node index, state bits, value.
fn state_rows(rows: &[Value], n: usize) -> Result<Vec<(usize, u32, &str)>, WalkError> {
    let mut out = Vec::with_capacity(rows.len() / 3);
    for r in rows.chunks(3) {
        let (Some(i), Some(f), Some(v)) = (
            r.first().and_then(Value::as_u64),
            r.get(1).and_then(Value::as_u64),
            r.get(2).and_then(Value::as_str),
        ) else {
            return Err(WalkError::Inconsistent(format!("a patch row {r:?}")));
        };
        let i = usize::try_from(i).unwrap_or(usize::MAX);
        if i >= n {
            return Err(WalkError::Inconsistent(format!("a patch of node {i}")));
        }
        out.push((i, u32::try_from(f).unwrap_or(0), v));
    }
    Ok(out)
}
