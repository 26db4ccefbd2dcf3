//! The tree handed back: each node's raw facts mapped to CUP, ids in
//! pre-order, refs kept.

use super::details::Details;
use super::*;

fn raw_node(s: &Skel, d: &Details) -> RawNode {
    let mut raw = RawNode::new(s.role);
    raw.name = s.name.clone();
    raw.description = s.description.clone();
    raw.states = s.states;
    raw.interfaces = s.interfaces;
    raw.extents = d.extents.filter(|_| s.offset != UNPLACED).map(|e| {
        if e.is_unplaced() {
            return e;
        }
        Extents {
            x: e.x.saturating_add(i32::try_from(s.offset.0).unwrap_or(0)),
            y: e.y.saturating_add(i32::try_from(s.offset.1).unwrap_or(0)),
            ..e
        }
    });
    raw.action_names = d.actions.clone();
    raw.value = d.value.clone();
    raw.text = d.text.clone();
    raw.attributes = d.attributes.clone();
    raw.parent_selectable = s.parent_selectable;
    raw.bus_name = s.obj.bus.clone();
    raw.path = s.obj.path.clone();
    raw.toolkit = s.toolkit.clone();
    raw.toolkit_version = s.toolkit_version.clone();
    raw
}

/// The raw facts of the subtree [`build`] maps, with the same ids (`next_id`
/// as `build` was given it).
pub(super) fn raw_tree(
    nodes: &[Skel],
    details: &[Details],
    i: usize,
    next_id: &mut usize,
) -> RawTree {
    let id = format!("e{next_id}");
    *next_id += 1;
    RawTree {
        id,
        raw: raw_node(&nodes[i], &details[i]),
        children: nodes[i]
            .children
            .iter()
            .map(|&c| raw_tree(nodes, details, c, next_id))
            .collect(),
    }
}

pub(super) fn build(
    nodes: &[Skel],
    details: &[Details],
    i: usize,
    ctx: &MapContext,
    next_id: &mut usize,
    refs: &mut HashMap<String, String>,
) -> Node {
    let id = format!("e{next_id}");
    *next_id += 1;
    refs.insert(id.clone(), nodes[i].obj.key());
    let mut node = mapping::map_node(&raw_node(&nodes[i], &details[i]), ctx).into_node(id);
    node.children = nodes[i]
        .children
        .iter()
        .map(|&c| build(nodes, details, c, ctx, next_id, refs))
        .collect();
    if node.name.is_empty() && mapping::kinds::names_from_content(node.role) {
        node.name = mapping::text::name_from_content(&node.children);
    }
    if let Some(value) = mapping::text::value_from_selection(&node) {
        node.value = Some(value);
    }
    node
}

pub(super) fn window_without_tree(target: &Target, next_id: &mut usize) -> Node {
    let mut n = Node::new(
        format!("e{next_id}"),
        cup_protocol::Role::Window,
        target.title.clone(),
    );
    *next_id += 1;
    n.bounds = target.rect;
    n
}
