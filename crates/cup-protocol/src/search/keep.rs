//! A tree cut down to the elements a query matches and the ancestors that
//! lead to them (the `query` filter of `snapshot` and `get_window_state`):
//! an agent sees where each match sits without the rest of the window.

use std::collections::HashSet;

use crate::node::Node;

use super::{find, FindQuery, SearchError, DEFAULT_LIMIT};

/// Most matches kept when the query sets no limit.
pub const KEEP_LIMIT: usize = 25;

/// `tree` with only the nodes matching `query` (with their subtrees) and
/// their ancestors; the number of matches. Ids are unchanged.
///
/// # Errors
///
/// [`SearchError::NoCriteria`] for an empty query.
pub fn keep_matches(tree: &[Node], query: &FindQuery) -> Result<(Vec<Node>, usize), SearchError> {
    let mut q = query.clone();
    if q.limit == 0 || q.limit == DEFAULT_LIMIT {
        q.limit = KEEP_LIMIT;
    }
    let ids: HashSet<String> = find(tree, &q)?
        .into_iter()
        .map(|m| m.node.id.clone())
        .collect();
    let kept = tree.iter().filter_map(|n| cut(n, &ids)).collect();
    Ok((kept, ids.len()))
}

fn cut(node: &Node, ids: &HashSet<String>) -> Option<Node> {
    if ids.contains(&node.id) {
        return Some(node.clone());
    }
    let children: Vec<Node> = node.children.iter().filter_map(|c| cut(c, ids)).collect();
    if children.is_empty() {
        return None;
    }
    let mut kept = node.clone_without_children();
    kept.children = children;
    Some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Role;

    #[test]
    fn matches_keep_their_ancestors_and_nothing_else() {
        let mut save = Node::new("e2", Role::Button, "Save");
        save.children.push(Node::new("e3", Role::Img, "disk"));
        let mut bar = Node::new("e1", Role::Toolbar, "Tools");
        bar.children.push(save);
        bar.children.push(Node::new("e4", Role::Button, "Open"));
        let mut win = Node::new("e0", Role::Window, "Editor");
        win.children.push(bar);
        win.children.push(Node::new("e5", Role::Text, "status"));
        let q = FindQuery {
            query: Some("save button".into()),
            ..FindQuery::default()
        };
        let (kept, n) = keep_matches(&[win], &q).unwrap_or_default();
        assert_eq!(n, 1);
        let ids: Vec<&str> = kept
            .iter()
            .flat_map(|r| r.iter())
            .map(|n| n.id.as_str())
            .collect();
        assert_eq!(ids, vec!["e0", "e1", "e2", "e3"]);
    }
}
