//! The CUP tree of a page from its frames' walks: each walk mapped node
//! by node through the shared mapping, bounds in screen pixels, iframe
//! documents under their owner elements, within the node and depth
//! limits.

use std::collections::HashMap;

use cup_protocol::{Node, Rect, Role, State};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{flag, RawWalk, Walk};
use crate::capture::{node_ref, NodeKey, Viewport};
use crate::mapping::{self, DomInfo};

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
        let mapped = self.rows().map_row(f, walk, i, origin, guard);
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
        node.children = kids;
        vec![node]
    }

    fn rows(&self) -> Rows<'_> {
        Rows {
            page: self.page,
            frames: self.frames,
            view: self.view,
            viewport: self.viewport,
        }
    }
}

/// What mapping one row of a walk needs: the page, its frames and its
/// viewport.
pub(crate) struct Rows<'a> {
    pub(crate) page: &'a str,
    pub(crate) frames: &'a [FrameWalk],
    pub(crate) view: Viewport,
    pub(crate) viewport: Rect,
}

impl Rows<'_> {
    fn screen_rect(&self, origin: (f64, f64), b: (f64, f64, f64, f64)) -> Rect {
        let d = self.view.dpr;
        Rect::new(
            ((origin.0 + b.0) * d).round() as i64,
            ((origin.1 + b.1) * d).round() as i64,
            (b.2 * d).round().max(0.0) as u64,
            (b.3 * d).round().max(0.0) as u64,
        )
    }

    /// Row `i` of frame `f`'s walk (its document at `origin`, `guard`
    /// frames deep) as a CUP node without children: `None` when the
    /// mapping leaves it out (its children then hang from its parent).
    pub(crate) fn map_row(
        &self,
        f: usize,
        walk: &Walk,
        i: usize,
        origin: (f64, f64),
        guard: usize,
    ) -> Option<Node> {
        let w = &walk.nodes[i];
        let ax = w.ax_node();
        // An option of a closed <select> has no box of its own; Chromium
        // lays it out as 0x0 at the origin. No bounds, not an empty box,
        // so the compact text keeps its line (zero-size boxes are dropped).
        let bounds = w
            .bounds
            .filter(|b| !(w.tag == "option" && b.2 <= 0.0 && b.3 <= 0.0))
            .map(|b| self.screen_rect(origin, b));
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
        let mut node = mapping::map(&ax, Some(&dom))?;
        if i == 0 && guard == 0 {
            // The page's document is the viewport.
            node.bounds = Some(self.viewport);
        }
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
        Some(node)
    }
}
