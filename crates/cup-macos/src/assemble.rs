//! Native trees of a capture → CUP nodes with pre-order ids across
//! windows and their references. The walk has applied the limits; what it
//! could not read makes the capture partial, with its reasons.

use std::collections::HashMap;

use cup::{Capture, Partial};
use cup_protocol::Node;

use crate::facts::{NativeNode, WindowTree};
use crate::mapping::{map_element, Context, MapContext};
use crate::refs::ElementRef;
use crate::screen::Layout;

struct Builder<'a> {
    layout: &'a Layout,
    next: usize,
    refs: HashMap<String, String>,
}

impl Builder<'_> {
    fn node(
        &mut self,
        native: &NativeNode,
        family: Context<'_>,
        window: (i32, u32),
        path: &mut Vec<usize>,
    ) -> Node {
        let el = &native.element;
        let id = format!("e{}", self.next);
        self.next += 1;
        let r = ElementRef {
            pid: window.0,
            window: window.1,
            path: path.clone(),
            role: el.role.clone(),
        };
        self.refs.insert(id.clone(), r.to_string());
        let ctx = MapContext {
            layout: self.layout,
            family,
        };
        let mut node = map_element(el, &ctx);
        node.id = id;
        let child_family = Context {
            parent_role: &el.role,
            parent_subrole: el.subrole.as_deref().unwrap_or(""),
        };
        for (i, child) in native.children.iter().enumerate() {
            path.push(i);
            let c = self.node(child, child_family, window, path);
            path.pop();
            node.children.push(c);
        }
        node
    }
}

/// Builds the capture of `trees` (in order) on the displays of `layout`;
/// `partial` and `missing` are what the walk could not read.
pub fn assemble(
    trees: &[WindowTree],
    layout: &Layout,
    partial: Vec<String>,
    missing: usize,
) -> Capture {
    let mut b = Builder {
        layout,
        next: 0,
        refs: HashMap::new(),
    };
    let mut tree = Vec::new();
    for t in trees {
        let Some(root) = &t.root else { continue };
        let mut path = Vec::new();
        tree.push(b.node(
            root,
            Context::default(),
            (t.window.pid, t.window.number),
            &mut path,
        ));
    }
    Capture {
        tree,
        refs: b.refs,
        partial: (!partial.is_empty()).then(|| Partial {
            reason: partial.join("; "),
            missing: missing.max(1),
        }),
        notes: Vec::new(),
        tools: Vec::new(),
        revision: None,
    }
}
