//! A whole dump mapped: every element through [`super::map_element`]
//! with its parent's context, pointless wrappers pruned, ids `e0`, `e1`,
//! ... in pre-order with their [`ElementRef`]s, within the node, depth and
//! time limits.

use std::collections::HashMap;
use std::time::Instant;

use cup_protocol::{Node, Role, State};

use super::{map_element, Context};
use crate::facts::{NativeDump, ScreenFacts, WdaElement};
use crate::refs::ElementRef;

/// Limits of one mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// At most this many nodes.
    pub max_nodes: usize,
    /// Nodes deeper than this are left out (root = 0).
    pub max_depth: usize,
    /// Elements not reached by then are left out.
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: usize::MAX,
            max_depth: usize::MAX,
            deadline: None,
        }
    }
}

/// A mapped element before pruning and ids.
struct Proto {
    node: Node,
    path: Vec<usize>,
    element_type: String,
    children: Vec<Proto>,
}

impl Proto {
    fn count(&self) -> usize {
        1 + self.children.iter().map(Proto::count).sum::<usize>()
    }

    /// An `Other` that says nothing of its own.
    fn pointless(&self) -> bool {
        let n = &self.node;
        self.element_type == "Other"
            && n.role == Role::Generic
            && n.name.is_empty()
            && n.value.is_none()
            && n.actions.is_empty()
            && n.states.iter().all(|s| *s == State::Offscreen)
    }
}

struct Builder<'a> {
    screen: &'a ScreenFacts,
    deadline: Option<Instant>,
    late: usize,
}

impl Builder<'_> {
    fn build(&mut self, el: &WdaElement, path: Vec<usize>, ctx: &Context<'_>) -> Option<Proto> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.late += 1;
            return None;
        }
        let node = map_element(el, ctx, self.screen);
        let inner = Context {
            parent_type: &el.element_type,
            parent_role: Some(node.role),
        };
        let mut children = Vec::new();
        for (i, c) in el.children.iter().enumerate() {
            let mut p = path.clone();
            p.push(i);
            children.extend(self.build(c, p, &inner));
        }
        Some(Proto {
            node,
            path,
            element_type: el.element_type.clone(),
            children,
        })
    }
}

/// Pruning (module doc): the proto itself, its only child, or nothing.
fn prune(mut p: Proto) -> Option<Proto> {
    p.children = std::mem::take(&mut p.children)
        .into_iter()
        .filter_map(prune)
        .collect();
    if p.pointless() && p.children.len() <= 1 {
        return p.children.pop();
    }
    if p.element_type == "Window" && p.node.name.is_empty() && p.children.is_empty() {
        return None;
    }
    Some(p)
}

struct Emitter {
    limits: Limits,
    next: usize,
    refs: HashMap<String, String>,
    cut_nodes: usize,
    cut_subtrees: usize,
}

impl Emitter {
    fn emit(&mut self, p: Proto, depth: usize) -> Option<Node> {
        if self.next >= self.limits.max_nodes {
            self.cut_nodes += p.count();
            self.cut_subtrees += 1;
            return None;
        }
        let Proto {
            mut node,
            path,
            element_type,
            children,
        } = p;
        node.id = format!("e{}", self.next);
        self.next += 1;
        self.refs.insert(
            node.id.clone(),
            ElementRef { path, element_type }.to_string(),
        );
        if depth < self.limits.max_depth {
            for c in children {
                node.children.extend(self.emit(c, depth + 1));
            }
        }
        Some(node)
    }
}

/// A dump's tree as CUP: one root (the application), ids `e0`, `e1`, ...
/// in pre-order, each id's [`ElementRef`] in `refs`, and what the limits
/// left out in `partial`.
pub fn capture(dump: &NativeDump, limits: &Limits) -> cup::Capture {
    let mut builder = Builder {
        screen: &dump.screen,
        deadline: limits.deadline,
        late: 0,
    };
    let root = builder.build(&dump.tree, Vec::new(), &Context::default());
    let root = root.map(|mut r| {
        r.children = std::mem::take(&mut r.children)
            .into_iter()
            .filter_map(prune)
            .collect();
        r
    });
    let mut emitter = Emitter {
        limits: *limits,
        next: 0,
        refs: HashMap::new(),
        cut_nodes: 0,
        cut_subtrees: 0,
    };
    let tree: Vec<Node> = root.and_then(|r| emitter.emit(r, 0)).into_iter().collect();
    let mut reasons = Vec::new();
    if emitter.cut_subtrees > 0 {
        reasons.push(format!(
            "node cap of {} reached ({} elements left out)",
            limits.max_nodes, emitter.cut_nodes
        ));
    }
    if builder.late > 0 {
        reasons.push(format!(
            "the capture deadline passed while mapping ({} subtrees left out)",
            builder.late
        ));
    }
    cup::Capture {
        tree,
        refs: emitter.refs,
        partial: (!reasons.is_empty()).then(|| cup::Partial {
            reason: reasons.join("; "),
            missing: emitter.cut_subtrees + builder.late,
        }),
        notes: Vec::new(),
        tools: Vec::new(),
        revision: None,
    }
}
