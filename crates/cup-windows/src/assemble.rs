//! Native trees of a capture → CUP nodes with pre-order ids across
//! windows, their references, and the limits (depth, node count) that make
//! a capture partial.

use std::collections::HashMap;

use cup::{Capture, Partial};
use cup_protocol::{Node, Rect};

use crate::facts::{NativeNode, WindowTree};
use crate::mapping::{map_element, Context, MapContext};
use crate::refs::ElementRef;

/// Limits of the assembly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Nodes deeper than this are left out (window root = 0).
    pub max_depth: usize,
    /// At most this many nodes over all windows.
    pub max_nodes: usize,
}

struct Builder<'a> {
    monitors: &'a [Rect],
    limits: Limits,
    next: usize,
    refs: HashMap<String, String>,
    cut_count: usize,
    cut_native: Vec<String>,
}

impl Builder<'_> {
    fn node(
        &mut self,
        native: &NativeNode,
        family: Context,
        hwnd: i64,
        path: &mut Vec<usize>,
        depth: usize,
    ) -> Option<Node> {
        if self.next >= self.limits.max_nodes {
            self.cut_count += native.count();
            return None;
        }
        let ctx = MapContext {
            monitors: self.monitors,
            family,
        };
        let el = &native.element;
        let id = format!("e{}", self.next);
        self.next += 1;
        let r = ElementRef {
            hwnd,
            path: path.clone(),
            runtime_id: el.runtime_id.clone(),
            control_type: el.control_type,
        };
        self.refs.insert(id.clone(), r.to_string());
        let mut node = map_element(el, &ctx);
        node.id = id;
        if let Some(why) = &native.cut {
            self.cut_native.push(why.clone());
        }
        if depth >= self.limits.max_depth {
            return Some(node);
        }
        let child_family = Context {
            parent_type: el.control_type,
            grandparent_type: family.parent_type,
        };
        for (i, child) in native.children.iter().enumerate() {
            path.push(i);
            let built = self.node(child, child_family, hwnd, path, depth + 1);
            path.pop();
            match built {
                Some(c) => node.children.push(c),
                None => {
                    // The node cap: the rest of the siblings are cut too.
                    self.cut_count += native.children[i + 1..]
                        .iter()
                        .map(NativeNode::count)
                        .sum::<usize>();
                    break;
                }
            }
        }
        Some(node)
    }
}

/// Builds the capture of `trees` (in order). A window whose tree is
/// missing or cut makes the capture partial, with its reason.
pub fn assemble(trees: &[WindowTree], monitors: &[Rect], limits: Limits) -> Capture {
    let mut b = Builder {
        monitors,
        limits,
        next: 0,
        refs: HashMap::new(),
        cut_count: 0,
        cut_native: Vec::new(),
    };
    let mut tree = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    let mut missing = 0;
    for t in trees {
        if let Some(e) = &t.error {
            reasons.push(format!("window '{}': {e}", t.window.title));
            missing += 1;
        }
        let Some(root) = &t.root else { continue };
        let mut path = Vec::new();
        match b.node(root, Context::default(), t.window.hwnd, &mut path, 0) {
            Some(n) => tree.push(n),
            None => break,
        }
    }
    if b.cut_count > 0 {
        reasons.push(format!(
            "node limit of {} reached ({} more left out)",
            limits.max_nodes, b.cut_count
        ));
        missing += 1;
    }
    if b.cut_native.len() == 1 {
        reasons.push(format!("a subtree could not be read: {}", b.cut_native[0]));
        missing += 1;
    } else if !b.cut_native.is_empty() {
        reasons.push(format!(
            "{} subtrees could not be read (first: {})",
            b.cut_native.len(),
            b.cut_native[0]
        ));
        missing += b.cut_native.len();
    }
    Capture {
        tree,
        refs: b.refs,
        partial: (!reasons.is_empty()).then(|| Partial {
            reason: reasons.join("; "),
            missing,
        }),
        notes: Vec::new(),
        tools: Vec::new(),
        revision: None,
    }
}
