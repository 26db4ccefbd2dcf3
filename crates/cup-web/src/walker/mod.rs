//! The fast capture path: one injected walker per frame
//! ([`SCRIPT`], run in an isolated world so the page's scripts can neither
//! see nor break it) computes what Chromium's accessibility tree exposes —
//! roles (Chromium's own role strings), names and descriptions (accname),
//! states, values and bounds — in one pass and answers one compact JSON
//! string. This module reads that answer ([`RawWalk`]) and builds the CUP
//! tree from it through the same [`mapping`] the
//! `getFullAXTree` path uses; [`world`] runs it. No I/O here: tested with
//! fixtures on any OS.

pub mod world;

use std::collections::HashMap;

use cup_protocol::{Node, Rect, Role, State};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::capture::{node_ref, NodeKey, Viewport};
use crate::mapping::{self, AxNode, DomInfo};

/// The walker: a JavaScript function expression `(function(options){...})`.
pub const SCRIPT: &str = include_str!("walker.js");

/// State bits of [`RawWalk::flags`] (the walker's `F_*`).
pub mod flag {
    /// Focusable.
    pub const FOCUSABLE: u32 = 1;
    /// Has the focus.
    pub const FOCUSED: u32 = 2;
    /// Disabled.
    pub const DISABLED: u32 = 4;
    /// Read-only.
    pub const READONLY: u32 = 8;
    /// Required.
    pub const REQUIRED: u32 = 16;
    /// Editable text.
    pub const EDITABLE: u32 = 32;
    /// Rich (contenteditable) text.
    pub const RICH: u32 = 64;
    /// Checked.
    pub const CHECKED: u32 = 128;
    /// Mixed.
    pub const MIXED: u32 = 256;
    /// Has a checked state.
    pub const CHECKABLE: u32 = 512;
    /// Selected.
    pub const SELECTED: u32 = 1024;
    /// Has a selected state.
    pub const SELECTABLE: u32 = 2048;
    /// Expanded.
    pub const EXPANDED: u32 = 4096;
    /// Collapsed.
    pub const COLLAPSED: u32 = 8192;
    /// Pressed.
    pub const PRESSED: u32 = 16384;
    /// Pressed: mixed.
    pub const PRESSED_MIXED: u32 = 32768;
    /// A toggle button (aria-pressed).
    pub const TOGGLE: u32 = 65536;
    /// Busy.
    pub const BUSY: u32 = 131_072;
    /// Modal.
    pub const MODAL: u32 = 262_144;
    /// Multi-selectable.
    pub const MULTISELECTABLE: u32 = 524_288;
    /// Multi-line text.
    pub const MULTILINE: u32 = 1_048_576;
    /// Invalid.
    pub const INVALID: u32 = 2_097_152;
    /// An iframe (its document is another frame's walk).
    pub const FRAME: u32 = 4_194_304;
    /// Generated content (no DOM node).
    pub const PSEUDO: u32 = 8_388_608;
    /// Scrolls (overflow with content larger than its box).
    pub const SCROLLABLE: u32 = 33_554_432;
}

/// The walker's answer for one frame, as it sends it (the compact
/// encoding): a string table, pre-order depths, and columns. This is also
/// the native fact `--native-dump` records for the walker path.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RawWalk {
    /// Format version.
    pub v: u32,
    /// Generation: the walker counts its answers (a patch names the one it
    /// changes).
    pub gen: u64,
    /// The frame's document URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// `[innerWidth, innerHeight, devicePixelRatio, scrollX, scrollY]`.
    pub viewport: Vec<f64>,
    /// Number of nodes.
    pub count: usize,
    /// String table (index 0 is the empty string).
    pub strings: Vec<String>,
    /// Pre-order depth of each node (its parent is the last node one
    /// level up).
    pub depth: Vec<u32>,
    /// Role (string index; Chromium's role names).
    pub role: Vec<u32>,
    /// Name (string index).
    pub name: Vec<u32>,
    /// State bits ([`flag`]).
    pub flags: Vec<u32>,
    /// Stable ids, as deltas from the previous node's (0: no DOM node).
    pub id: Vec<i64>,
    /// Border boxes: x, y, w, h per node in units of 1/`scale` CSS px,
    /// viewport-relative; w = h = -1: no box.
    pub bounds: Vec<i64>,
    /// Units of [`RawWalk::bounds`] per CSS px.
    pub scale: f64,
    /// Tag name (string index; 0 for text and generated content).
    pub tag: Vec<u32>,
    /// Sparse: node index, description string index, ...
    pub desc: Vec<u32>,
    /// Sparse: node index, value string index, ...
    pub value: Vec<u32>,
    /// Sparse: node index, level, ...
    pub level: Vec<u32>,
    /// The sparse extras.
    pub extra: Extra,
    /// Nodes the walker could not read (each skipped with its subtree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<u32>,
    /// The first of those errors.
    #[serde(rename = "firstError", skip_serializing_if = "Option::is_none")]
    pub first_error: Option<String>,
    /// Why an incremental read was answered with a whole walk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The walker's own time, ms (`setup`, `walk`, `total`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<Value>,
}

/// Sparse columns of [`RawWalk`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Extra {
    /// node, placeholder string, ...
    pub placeholder: Vec<u32>,
    /// node, URL string (links, images, the document), ...
    pub url: Vec<u32>,
    /// node, minimum, ... (`null` when not a number)
    pub valuemin: Vec<Option<f64>>,
    /// node, maximum, ...
    pub valuemax: Vec<Option<f64>>,
    /// node, value text string, ...
    pub valuetext: Vec<u32>,
    /// iframe node, content left, content top (CSS px from its border
    /// box), ...
    pub frames: Vec<f64>,
    /// node, attribute name string, value string, ... (type, role,
    /// onclick and the ARIA properties read as they are)
    pub attrs: Vec<u32>,
}

/// The walker's answer when only states changed since the walk the reader
/// holds: the changed rows (state bits and value) of that walk.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Patch {
    /// The generation it changes.
    pub patch: u64,
    /// The generation it makes.
    pub gen: u64,
    /// Nodes of the walk (unchanged).
    pub count: usize,
    /// node index, state bits, value, ...
    pub rows: Vec<Value>,
    /// As [`RawWalk::viewport`].
    pub viewport: Vec<f64>,
    /// The walker's own time, ms (`total`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<Value>,
}

/// The walker's answer when nodes were added, removed or changed since the
/// walk the reader holds: the subtrees walked again, put in place of their
/// old rows one after the other, then the rows whose name, states or value
/// changed around them and every box (the layout may have moved anything).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Splice {
    /// The generation it changes.
    pub splice: u64,
    /// The generation it makes.
    pub gen: u64,
    /// Nodes of the walk it changes.
    pub base: usize,
    /// Nodes of the walk it makes.
    pub count: usize,
    /// Per subtree, in order: first row replaced, rows replaced, rows
    /// added, parent row (indices of the walk as the parts before left it).
    pub parts: Vec<i64>,
    /// The rows added, part after part (each part's top rows at depth 0).
    pub walk: RawWalk,
    /// node index, state bits, value, ... (indices of the new walk).
    pub rows: Vec<Value>,
    /// node index, name, description, ...
    pub names: Vec<Value>,
    /// Every node's box, as [`RawWalk::bounds`] (units of 1/`walk.scale`).
    pub bounds: Vec<i64>,
    /// As [`RawWalk::viewport`].
    pub viewport: Vec<f64>,
    /// The walker's own time, ms (`find`, `walk`, `around`, `boxes`,
    /// `total`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<Value>,
}

/// What the walker answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A whole walk.
    Whole(Box<RawWalk>),
    /// Rows changed since the walk the reader holds.
    Patch(Patch),
    /// Subtrees walked again since the walk the reader holds.
    Splice(Box<Splice>),
}

impl Answer {
    /// Reads the walker's JSON string.
    ///
    /// # Errors
    ///
    /// [`WalkError::Parse`] when it is not the walker's JSON.
    pub fn parse(text: &str) -> Result<Answer, WalkError> {
        // A patch is small and says so in its first keys.
        if text.starts_with("{\"v\":1,\"patch\"") {
            serde_json::from_str(text)
                .map(Answer::Patch)
                .map_err(|e| WalkError::Parse(e.to_string()))
        } else if text.starts_with("{\"v\":1,\"splice\"") {
            serde_json::from_str(text)
                .map(|s| Answer::Splice(Box::new(s)))
                .map_err(|e| WalkError::Parse(e.to_string()))
        } else {
            RawWalk::parse(text).map(|w| Answer::Whole(Box::new(w)))
        }
    }
}

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
        for (i, f, v) in rows {
            self.nodes[i].flags = f;
            v.clone_into(&mut self.nodes[i].value);
        }
        self.gen = patch.gen;
        self.scroll = (col(&patch.viewport, 3), col(&patch.viewport, 4));
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

/// A box in CSS px from quantized x, y, w, h (`None`: w or h below 0).
#[allow(clippy::cast_precision_loss)] // screen coordinates are far below 2^52
fn boxed(b: &[i64], scale: f64) -> Option<(f64, f64, f64, f64)> {
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
}

fn col<T: Copy + Default>(v: &[T], i: usize) -> T {
    v.get(i).copied().unwrap_or_default()
}

impl RawWalk {
    /// Reads the walker's JSON string.
    ///
    /// # Errors
    ///
    /// [`WalkError::Parse`] when it is not the walker's JSON.
    pub fn parse(text: &str) -> Result<RawWalk, WalkError> {
        serde_json::from_str(text).map_err(|e| WalkError::Parse(e.to_string()))
    }

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
    fn decode_rows(&self, forest: bool) -> Result<Walk, WalkError> {
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
        })
    }
}

impl WalkNode {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn has(&self, bit: u32) -> bool {
        self.flags & bit != 0
    }

    /// The node as Chromium's `AXNode` would give it (what
    /// [`mapping::map`] reads).
    pub fn ax_node(&self) -> AxNode {
        use flag as F;
        let mut props: Vec<(String, Value)> = Vec::new();
        let mut yes = |k: &str| props.push((k.to_owned(), Value::Bool(true)));
        for (bit, name) in [
            (F::FOCUSABLE, "focusable"),
            (F::FOCUSED, "focused"),
            (F::DISABLED, "disabled"),
            (F::READONLY, "readonly"),
            (F::REQUIRED, "required"),
            (F::BUSY, "busy"),
            (F::MODAL, "modal"),
            (F::MULTISELECTABLE, "multiselectable"),
            (F::MULTILINE, "multiline"),
        ] {
            if self.has(bit) {
                yes(name);
            }
        }
        if self.has(F::SELECTABLE) {
            props.push(("selected".into(), Value::Bool(self.has(F::SELECTED))));
        }
        if self.has(F::INVALID) {
            props.push(("invalid".into(), Value::String("true".into())));
        }
        if self.has(F::EDITABLE) {
            let kind = if self.has(F::RICH) {
                "richtext"
            } else {
                "plaintext"
            };
            props.push(("editable".into(), Value::String(kind.into())));
        }
        if self.has(F::CHECKABLE) || self.has(F::CHECKED) || self.has(F::MIXED) {
            let v = if self.has(F::MIXED) {
                "mixed"
            } else if self.has(F::CHECKED) {
                "true"
            } else {
                "false"
            };
            props.push(("checked".into(), Value::String(v.into())));
        }
        if self.has(F::EXPANDED) {
            props.push(("expanded".into(), Value::Bool(true)));
        } else if self.has(F::COLLAPSED) {
            props.push(("expanded".into(), Value::Bool(false)));
        }
        if self.has(F::TOGGLE) {
            let v = if self.has(F::PRESSED_MIXED) {
                "mixed"
            } else if self.has(F::PRESSED) {
                "true"
            } else {
                "false"
            };
            props.push(("pressed".into(), Value::String(v.into())));
        }
        if self.level > 0 {
            props.push(("level".into(), Value::from(self.level)));
        }
        if let Some(v) = self.valuemin {
            props.push(("valuemin".into(), Value::from(v)));
        }
        if let Some(v) = self.valuemax {
            props.push(("valuemax".into(), Value::from(v)));
        }
        if let Some(u) = &self.url {
            props.push(("url".into(), Value::String(u.clone())));
        }
        // ARIA properties Chromium passes on: keywords lower-cased (as
        // Chromium reports them), free text as written.
        for (attr, prop, keyword) in [
            ("aria-orientation", "orientation", true),
            ("aria-autocomplete", "autocomplete", true),
            ("aria-live", "live", true),
            ("aria-keyshortcuts", "keyshortcuts", false),
            ("aria-roledescription", "roledescription", false),
            ("aria-valuetext", "valuetext", false),
        ] {
            if let Some(v) = self.attr(attr).map(str::trim).filter(|v| !v.is_empty()) {
                let v = if keyword {
                    v.to_ascii_lowercase()
                } else {
                    v.to_owned()
                };
                props.push((prop.to_owned(), Value::String(v)));
            }
        }
        for (attr, prop) in [
            ("aria-posinset", "posinset"),
            ("aria-setsize", "setsize"),
            ("aria-rowindex", "rowindex"),
            ("aria-colindex", "colindex"),
            ("aria-rowcount", "rowcount"),
            ("aria-colcount", "colcount"),
        ] {
            if let Some(v) = self.attr(attr).and_then(|v| v.trim().parse::<i64>().ok()) {
                props.push((prop.to_owned(), Value::from(v)));
            }
        }
        let valued = self.has(F::EDITABLE)
            || matches!(
                self.role.as_str(),
                "slider" | "spinbutton" | "progressbar" | "scrollbar" | "combobox" | "meter"
            );
        AxNode {
            id: String::new(),
            ignored: false,
            role: self.role.clone(),
            name: self.name.clone(),
            description: Some(self.description.clone()).filter(|d| !d.is_empty()),
            value: (valued || !self.value.is_empty()).then(|| self.value.clone()),
            props,
            child_ids: Vec::new(),
            backend_id: None,
        }
    }
}

/// One frame of a page walk, as recorded: whose session holds it, which
/// frame it is, where its document hangs, and the walker's answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WalkFrame {
    /// The target whose session holds the frame.
    pub target: String,
    /// Its frame id.
    pub frame: String,
    /// Index of the parent frame in [`WalkPage::frames`] and the walker id
    /// of the iframe element there; `None` for the main frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<(usize, i64)>,
    /// The walker's answer.
    pub walk: RawWalk,
}

/// Every frame of one page walk: the main frame first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WalkPage {
    /// The page's target id.
    pub page: String,
    /// Its viewport.
    pub viewport: Option<Viewport>,
    /// The frames.
    pub frames: Vec<WalkFrame>,
}

/// The reference a walker node's CUP id holds until numbered: page,
/// frame target, frame id and walker id.
pub fn walker_ref(page: &str, target: &str, frame: &str, id: i64) -> String {
    node_ref(
        page,
        target,
        &NodeKey::Walker {
            frame: frame.to_owned(),
            id,
        },
    )
}

/// Builds the CUP tree of `page`: each frame's walk mapped node by node,
/// iframe documents under their owner elements. Returns the root, how
/// many nodes the limits left out, and notes on frames that could not be
/// read.
pub fn build(
    page: &WalkPage,
    max_depth: usize,
    max_nodes: usize,
) -> (Option<Node>, usize, Vec<String>) {
    let view = page.viewport.unwrap_or(Viewport {
        width: 0.0,
        height: 0.0,
        dpr: 1.0,
    });
    let mut notes = Vec::new();
    let mut frames = Vec::with_capacity(page.frames.len());
    for f in &page.frames {
        let walk = match f.walk.decode() {
            Ok(w) => Some(std::sync::Arc::new(w)),
            Err(e) => {
                notes.push(format!("frame {} was not read: {e}", f.frame));
                None
            }
        };
        frames.push(FrameWalk {
            target: f.target.clone(),
            frame: f.frame.clone(),
            owner: f.owner,
            walk,
        });
    }
    let (root, cut) = build_walks(&page.page, view, &frames, max_depth, max_nodes);
    (root, cut, notes)
}

/// One decoded frame walk and where it hangs (as [`WalkFrame`]).
#[derive(Debug, Clone)]
pub struct FrameWalk {
    /// The target whose session holds the frame.
    pub target: String,
    /// Its frame id.
    pub frame: String,
    /// Parent frame index and the iframe element's walker id there.
    pub owner: Option<(usize, i64)>,
    /// The walk (`None`: not read).
    pub walk: Option<std::sync::Arc<Walk>>,
}

/// Builds the CUP tree of page `page` from decoded frame walks (the main
/// frame first). Returns the root and how many nodes the limits left out.
pub fn build_walks(
    page: &str,
    view: Viewport,
    frames: &[FrameWalk],
    max_depth: usize,
    max_nodes: usize,
) -> (Option<Node>, usize) {
    let mut owned: HashMap<(usize, i64), usize> = HashMap::new();
    for (i, f) in frames.iter().enumerate() {
        if let Some(o) = f.owner {
            owned.insert(o, i);
        }
    }
    let mut b = TreeBuilder {
        page,
        frames,
        owned: &owned,
        view,
        viewport: view.rect(),
        max_depth,
        max_nodes,
        count: 0,
        cut: 0,
    };
    let root = b.frame(0, (0.0, 0.0), 0, 0);
    (root, b.cut)
}

struct TreeBuilder<'a> {
    page: &'a str,
    frames: &'a [FrameWalk],
    owned: &'a HashMap<(usize, i64), usize>,
    view: Viewport,
    viewport: Rect,
    max_depth: usize,
    max_nodes: usize,
    count: usize,
    cut: usize,
}

impl TreeBuilder<'_> {
    /// The document node of frame `f`, its viewport at `origin` (CSS px
    /// of the page's viewport).
    fn frame(&mut self, f: usize, origin: (f64, f64), depth: usize, guard: usize) -> Option<Node> {
        let walk = self.frames.get(f)?.walk.as_deref()?;
        if walk.nodes.is_empty() || guard > 32 {
            return None;
        }
        let mut out = self.node(f, walk, 0, origin, depth, guard);
        match out.len() {
            0 => None,
            1 => out.pop(),
            _ => {
                let mut doc = Node::new("", Role::Document, "");
                doc.children = out;
                Some(doc)
            }
        }
    }

    fn screen_rect(&self, origin: (f64, f64), b: (f64, f64, f64, f64)) -> Rect {
        let d = self.view.dpr;
        Rect::new(
            ((origin.0 + b.0) * d).round() as i64,
            ((origin.1 + b.1) * d).round() as i64,
            (b.2 * d).round().max(0.0) as u64,
            (b.3 * d).round().max(0.0) as u64,
        )
    }

    fn node(
        &mut self,
        f: usize,
        walk: &Walk,
        i: usize,
        origin: (f64, f64),
        depth: usize,
        guard: usize,
    ) -> Vec<Node> {
        let w = &walk.nodes[i];
        let ax = w.ax_node();
        let bounds = w.bounds.map(|b| self.screen_rect(origin, b));
        let attrs: Vec<(String, String)> = w
            .attrs
            .iter()
            .filter(|(k, _)| matches!(k.as_str(), "type" | "role" | "onclick"))
            .cloned()
            .chain(
                w.placeholder
                    .iter()
                    .map(|p| ("placeholder".to_owned(), p.clone())),
            )
            .collect();
        let dom = DomInfo {
            tag: &w.tag,
            attrs: &attrs,
            bounds,
            scrollable: w.has(flag::SCROLLABLE),
        };
        let mut mapped = mapping::map(&ax, Some(&dom));
        if i == 0 && guard == 0 {
            if let Some(n) = mapped.as_mut() {
                // The page's document is the viewport.
                n.bounds = Some(self.viewport);
            }
        }
        let child_depth = if mapped.is_some() { depth + 1 } else { depth };
        let mut kids = Vec::new();
        if child_depth <= self.max_depth {
            for &c in &walk.children[i] {
                kids.extend(self.node(f, walk, c, origin, child_depth, guard));
            }
            if w.has(flag::FRAME) {
                if let Some(&sub) = self.owned.get(&(f, w.id)) {
                    let (ox, oy) = w.frame_offset.unwrap_or((0.0, 0.0));
                    let (bx, by) = w.bounds.map_or((0.0, 0.0), |b| (b.0, b.1));
                    let o = (origin.0 + bx + ox, origin.1 + by + oy);
                    if let Some(doc) = self.frame(sub, o, child_depth, guard + 1) {
                        kids.push(doc);
                    }
                }
            }
        } else {
            self.cut += walk.children[i].len();
        }
        let Some(mut node) = mapped else {
            return kids;
        };
        if self.count >= self.max_nodes {
            self.cut += 1 + kids.iter().map(Node::subtree_len).sum::<usize>();
            return Vec::new();
        }
        self.count += 1;
        if let Some(b) = node.bounds {
            if b.intersect(&self.viewport).is_empty() {
                node.states.push(State::Offscreen);
                node.states.sort_by_key(|s| s.name());
            }
        }
        let frame = &self.frames[f];
        if w.id > 0 {
            node.id = walker_ref(self.page, &frame.target, &frame.frame, w.id);
            if let Some(web) = node.platform.web.as_mut() {
                web.extra.insert("walkerId".into(), Value::from(w.id));
            }
        }
        node.children = kids;
        vec![node]
    }
}

#[cfg(test)]
mod tests;
