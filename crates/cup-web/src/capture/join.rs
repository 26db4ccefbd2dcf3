//! The join of the Chromium source, pure: each frame's accessibility
//! nodes with its layout snapshot (tags, attributes, bounds in screen
//! pixels) mapped to CUP nodes, iframe documents hung under their owner
//! elements, the boxes asked for afterwards given to the nodes without
//! one, and the facts a recording capture keeps.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use cup_protocol::{Node, Rect, State};

use super::{node_ref, FrameFacts, NodeKey, PageFacts, Viewport};
use crate::layout::{CssRect, Layout};
use crate::mapping::{self, AxNode, DomInfo};
/// A frame's data for the join.
pub(super) struct Frame {
    /// Target whose session owns this frame's nodes.
    pub(super) target: String,
    pub(super) ax: Vec<AxNode>,
    pub(super) layout: Arc<Layout>,
    /// The target whose snapshot `layout` is.
    pub(super) layout_key: String,
    /// Viewport position of the frame's document origin minus its scroll.
    pub(super) origin: (f64, f64),
}

/// The tree of a page from its frames: the main frame's, with each
/// iframe's document under its owner element. Returns the root and how
/// many nodes the limits left out.
pub(super) fn build_tree(
    page: &str,
    view: Viewport,
    main: &Frame,
    frames_by_owner: &HashMap<(String, i64), Frame>,
    max_depth: usize,
    max_nodes: usize,
) -> (Option<Node>, usize) {
    let mut builder = Builder {
        page,
        view,
        frames_by_owner,
        max_depth,
        max_nodes,
        count: 0,
        cut: 0,
    };
    let mut root = builder.frame_root(main, 0);
    if let Some(r) = root.as_mut() {
        if r.role == cup_protocol::Role::Document && r.bounds.is_none() {
            r.bounds = Some(view.rect());
        }
    }
    (root, builder.cut)
}

fn frame_facts(f: &Frame, owner: Option<(String, i64)>) -> FrameFacts {
    FrameFacts {
        target: f.target.clone(),
        layout: f.layout_key.clone(),
        owner,
        origin: f.origin,
        ax: f.ax.clone(),
    }
}

/// The facts of a capture, copied out of its frames (only when asked).
pub(super) fn page_facts(
    page: &str,
    view: Viewport,
    main: &Frame,
    frames_by_owner: &HashMap<(String, i64), Frame>,
) -> PageFacts {
    let mut facts = PageFacts {
        page: page.to_owned(),
        viewport: Some(view),
        ..PageFacts::default()
    };
    facts.frames.push(frame_facts(main, None));
    let mut owned: Vec<_> = frames_by_owner.iter().collect();
    owned.sort_by(|a, b| a.0.cmp(b.0));
    for (owner, f) in owned {
        facts.frames.push(frame_facts(f, Some(owner.clone())));
    }
    for f in std::iter::once(main).chain(frames_by_owner.values()) {
        facts
            .layouts
            .entry(f.layout_key.clone())
            .or_insert_with(|| (*f.layout).clone());
    }
    facts
}

/// Gives the nodes without bounds their box from `boxes`, offscreen when
/// it is out of the viewport.
pub(super) fn apply_boxes(root: &mut Node, boxes: &HashMap<String, Rect>, view: Viewport) {
    if boxes.is_empty() {
        return;
    }
    let viewport = view.rect();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.bounds.is_none() {
            if let Some(r) = boxes.get(&n.id) {
                n.bounds = Some(*r);
                if r.intersect(&viewport).is_empty() && !n.states.contains(&State::Offscreen) {
                    n.states.push(State::Offscreen);
                    n.states.sort_by_key(|s| s.name());
                }
            }
        }
        stack.extend(n.children.iter_mut());
    }
}

struct Builder<'a> {
    page: &'a str,
    view: Viewport,
    frames_by_owner: &'a HashMap<(String, i64), Frame>,
    max_depth: usize,
    max_nodes: usize,
    count: usize,
    cut: usize,
}

impl Builder<'_> {
    fn frame_root(&mut self, frame: &Frame, depth: usize) -> Option<Node> {
        let by_id: HashMap<&str, &AxNode> = frame.ax.iter().map(|n| (n.id.as_str(), n)).collect();
        let children: HashSet<&str> = frame
            .ax
            .iter()
            .flat_map(|n| n.child_ids.iter().map(String::as_str))
            .collect();
        let root = frame
            .ax
            .iter()
            .find(|n| !children.contains(n.id.as_str()))?;
        let mut out = self.build(frame, &by_id, root, depth);
        match out.len() {
            0 => None,
            1 => out.pop(),
            _ => {
                let mut doc = Node::new("", cup_protocol::Role::Document, "");
                doc.children = out;
                Some(doc)
            }
        }
    }

    fn screen_rect(&self, frame: &Frame, b: CssRect) -> Rect {
        let d = self.view.dpr;
        let x = ((frame.origin.0 + b.x) * d).round();
        let y = ((frame.origin.1 + b.y) * d).round();
        Rect::new(
            x as i64,
            y as i64,
            (b.w * d).round().max(0.0) as u64,
            (b.h * d).round().max(0.0) as u64,
        )
    }

    /// The CUP nodes for `ax`: itself, or its children when it is skipped.
    fn build(
        &mut self,
        frame: &Frame,
        by_id: &HashMap<&str, &AxNode>,
        ax: &AxNode,
        depth: usize,
    ) -> Vec<Node> {
        let dom = ax.backend_id.and_then(|b| frame.layout.nodes.get(&b));
        let info = dom.map(|d| DomInfo {
            tag: &d.tag,
            attrs: &d.attrs,
            bounds: d.bounds.map(|b| self.screen_rect(frame, b)),
            scrollable: d.scrollable,
        });
        let mapped = mapping::map(ax, info.as_ref());
        let child_depth = if mapped.is_some() { depth + 1 } else { depth };
        let mut kids = Vec::new();
        // A text field's inner editor and text repeat its value.
        let text_field = dom.is_some_and(|d| {
            d.tag == "textarea"
                || (d.tag == "input"
                    && !d.attrs.iter().any(|(k, v)| {
                        k == "type"
                            && matches!(
                                v.to_ascii_lowercase().as_str(),
                                "date" | "datetime-local" | "time" | "month" | "week"
                            )
                    }))
        });
        if text_field && mapped.is_some() {
            // Nothing below it.
        } else if child_depth <= self.max_depth {
            for id in &ax.child_ids {
                if let Some(child) = by_id.get(id.as_str()) {
                    kids.extend(self.build(frame, by_id, child, child_depth));
                }
            }
            // An iframe's document hangs under its owner element.
            if let Some(b) = ax.backend_id {
                if let Some(sub) = self.frames_by_owner.get(&(frame.target.clone(), b)) {
                    if let Some(doc) = self.frame_root(sub, child_depth) {
                        kids.push(doc);
                    }
                }
            }
        } else {
            self.cut += ax.child_ids.len();
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
            if b.intersect(&self.view.rect()).is_empty() {
                node.states.push(State::Offscreen);
                node.states.sort_by_key(|s| s.name());
            }
        }
        node.id = ax
            .backend_id
            .map(|b| node_ref(self.page, &frame.target, &NodeKey::Backend(b)))
            .unwrap_or_default();
        node.children = kids;
        vec![node]
    }
}
