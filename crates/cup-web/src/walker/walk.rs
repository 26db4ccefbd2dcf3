//! A whole walk decoded: the compact columns of a [`RawWalk`] read into
//! plain nodes in pre-order ([`WalkNode`]) with each node's children.

use super::RawWalk;

/// A box in CSS px from quantized x, y, w, h (`None`: w or h below 0).
#[allow(clippy::cast_precision_loss)] // screen coordinates are far below 2^52
pub(super) fn boxed(b: &[i64], scale: f64) -> Option<(f64, f64, f64, f64)> {
    (b[2] >= 0 && b[3] >= 0).then(|| {
        (
            b[0] as f64 / scale,
            b[1] as f64 / scale,
            b[2] as f64 / scale,
            b[3] as f64 / scale,
        )
    })
}

/// Why a walker answer cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WalkError {
    /// Not the walker's JSON.
    #[error("the page walker's answer is not readable: {0}")]
    Parse(String),
    /// Columns of different lengths or indices out of range.
    #[error("the page walker's answer is inconsistent: {0}")]
    Inconsistent(String),
}

/// One node of a decoded walk.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WalkNode {
    /// Parent index (`None` for the root).
    pub parent: Option<usize>,
    /// Chromium role name.
    pub role: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Value.
    pub value: String,
    /// State bits.
    pub flags: u32,
    /// Heading / tree / list level.
    pub level: u32,
    /// Stable id in its frame (0: generated content).
    pub id: i64,
    /// Border box in CSS px, viewport-relative.
    pub bounds: Option<(f64, f64, f64, f64)>,
    /// Tag name (empty for text).
    pub tag: String,
    /// Attributes passed on (type, role, onclick, ARIA properties).
    pub attrs: Vec<(String, String)>,
    /// Placeholder.
    pub placeholder: Option<String>,
    /// URL (links, images, the document).
    pub url: Option<String>,
    /// Range minimum.
    pub valuemin: Option<f64>,
    /// Range maximum.
    pub valuemax: Option<f64>,
    /// An iframe's content box offset from its border box.
    pub frame_offset: Option<(f64, f64)>,
}

/// A decoded walk: nodes in pre-order and each node's children.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Walk {
    /// The walker's generation of this walk.
    pub gen: u64,
    /// The nodes, pre-order (the document first).
    pub nodes: Vec<WalkNode>,
    /// Children of each node, in order.
    pub children: Vec<Vec<usize>>,
    /// Viewport scroll offset, CSS px.
    pub scroll: (f64, f64),
    /// Changes whenever the walk does (a decode, a splice, a patch that
    /// changed a row or the scroll), and never comes back: two walks with
    /// one revision are one walk, and a tree built from it can be reused.
    pub rev: u64,
    /// The last patches that changed rows and nothing else (not the
    /// scroll): the revision each was applied to and the rows it changed,
    /// oldest first, at most 8 (`PATCHES_KEPT`). A splice or a new walk
    /// clears them. A tree built at one of those revisions is brought up
    /// to date by mapping those rows again ([`Walk::rows_since`]).
    pub patches: std::collections::VecDeque<(u64, Vec<usize>)>,
}

/// Patches a walk remembers (see [`Walk::patches`]).
pub(super) const PATCHES_KEPT: usize = 8;

impl Walk {
    /// The rows changed since revision `rev` by patches alone (sorted,
    /// without repeats), or `None` when the walk changed otherwise since
    /// (a splice, a scroll, a new walk) or `rev` is too old.
    pub fn rows_since(&self, rev: u64) -> Option<Vec<usize>> {
        if rev == self.rev {
            return Some(Vec::new());
        }
        let from = self.patches.iter().position(|(r, _)| *r == rev)?;
        let mut rows: Vec<usize> = self
            .patches
            .iter()
            .skip(from)
            .flat_map(|(_, rows)| rows.iter().copied())
            .collect();
        rows.sort_unstable();
        rows.dedup();
        Some(rows)
    }
}

/// A revision no walk had before.
pub(super) fn fresh_rev() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

pub(super) fn col<T: Copy + Default>(v: &[T], i: usize) -> T {
    v.get(i).copied().unwrap_or_default()
}

impl RawWalk {
    fn string(&self, i: u32) -> Result<&str, WalkError> {
        self.strings
            .get(i as usize)
            .map(String::as_str)
            .ok_or_else(|| WalkError::Inconsistent(format!("string {i} of {}", self.strings.len())))
    }

    /// The plain nodes of this walk.
    ///
    /// # Errors
    ///
    /// [`WalkError::Inconsistent`] when columns disagree.
    pub fn decode(&self) -> Result<Walk, WalkError> {
        self.decode_rows(false)
    }

    /// The rows of this walk; with `forest` there may be several at depth
    /// 0 (the rows of a splice), each with no parent.
    pub(super) fn decode_rows(&self, forest: bool) -> Result<Walk, WalkError> {
        let n = self.count;
        if self.depth.len() != n
            || self.role.len() != n
            || self.name.len() != n
            || self.flags.len() != n
            || self.id.len() != n
            || self.bounds.len() != 4 * n
        {
            return Err(WalkError::Inconsistent(format!(
                "{n} nodes but columns of {} depths, {} roles, {} names, {} flags, {} ids, {} bounds",
                self.depth.len(),
                self.role.len(),
                self.name.len(),
                self.flags.len(),
                self.id.len(),
                self.bounds.len()
            )));
        }
        let scale = if self.scale > 0.0 { self.scale } else { 1.0 };
        let mut nodes = Vec::with_capacity(n);
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut stack: Vec<usize> = Vec::new();
        let mut id = 0i64;
        for i in 0..n {
            let d = self.depth[i] as usize;
            if d > stack.len() {
                return Err(WalkError::Inconsistent(format!(
                    "node {i} at depth {d} under depth {}",
                    stack.len()
                )));
            }
            stack.truncate(d);
            let parent = stack.last().copied();
            if let Some(p) = parent {
                children[p].push(i);
            } else if i > 0 && !forest {
                return Err(WalkError::Inconsistent(format!(
                    "a second root at node {i}"
                )));
            }
            stack.push(i);
            id += self.id[i];
            let bounds = boxed(&self.bounds[4 * i..4 * i + 4], scale);
            nodes.push(WalkNode {
                parent,
                role: self.string(self.role[i])?.to_owned(),
                name: self.string(self.name[i])?.to_owned(),
                flags: self.flags[i],
                id,
                bounds,
                tag: self.string(col(&self.tag, i))?.to_owned(),
                ..WalkNode::default()
            });
        }
        let len = nodes.len();
        let node = |i: u32| -> Result<usize, WalkError> {
            let i = i as usize;
            if i < len {
                Ok(i)
            } else {
                Err(WalkError::Inconsistent(format!("node {i} of {len}")))
            }
        };
        for p in self.desc.chunks_exact(2) {
            let i = node(p[0])?;
            nodes[i].description = self.string(p[1])?.to_owned();
        }
        for p in self.value.chunks_exact(2) {
            let i = node(p[0])?;
            nodes[i].value = self.string(p[1])?.to_owned();
        }
        for p in self.level.chunks_exact(2) {
            let i = node(p[0])?;
            nodes[i].level = p[1];
        }
        let x = &self.extra;
        for p in x.placeholder.chunks_exact(2) {
            let i = node(p[0])?;
            nodes[i].placeholder = Some(self.string(p[1])?.to_owned());
        }
        for p in x.url.chunks_exact(2) {
            let i = node(p[0])?;
            nodes[i].url = Some(self.string(p[1])?.to_owned());
        }
        for (pairs, min) in [(&x.valuemin, true), (&x.valuemax, false)] {
            for p in pairs.chunks_exact(2) {
                let Some(i) = p[0] else { continue };
                let i = node(i as u32)?;
                if min {
                    nodes[i].valuemin = p[1];
                } else {
                    nodes[i].valuemax = p[1];
                }
            }
        }
        for p in x.valuetext.chunks_exact(2) {
            let i = node(p[0])?;
            let text = self.string(p[1])?.to_owned();
            nodes[i].attrs.push(("aria-valuetext".into(), text));
        }
        for p in x.frames.chunks_exact(3) {
            let i = node(p[0] as u32)?;
            nodes[i].frame_offset = Some((p[1], p[2]));
        }
        for p in x.attrs.chunks_exact(3) {
            let i = node(p[0])?;
            let (k, v) = (self.string(p[1])?.to_owned(), self.string(p[2])?.to_owned());
            nodes[i].attrs.push((k, v));
        }
        let scroll = (col(&self.viewport, 3), col(&self.viewport, 4));
        Ok(Walk {
            gen: self.gen,
            nodes,
            children,
            scroll,
            rev: fresh_rev(),
            patches: std::collections::VecDeque::new(),
        })
    }
}
