//! CUP ids that stay with their element from one snapshot to the next.
//!
//! A capture's nodes carry native references (`page/target/frame:id`,
//! stable while the element lives). [`IdMemory`] remembers which `eN` each
//! reference had in the last capture: a node seen again gets its old id, a
//! new node the next unused number, and the ids of removed nodes are not
//! given out again while the page goes on. When nothing of the last capture
//! is left (another page, a navigation), numbering starts again at `e0`.
//! Nodes without a native reference (CSS generated content) are known by
//! their parent's reference and their place among its children.

use std::collections::HashMap;

use cup_protocol::Node;
use rustc_hash::{FxHashMap, FxHashSet};

/// The ids of the last capture, by native reference (hashed with FxHash:
/// a page of 20,000 nodes looks up and stores 20,000 references of about
/// 40 bytes on every capture, and SipHash made that a fifth of cup's CPU).
#[derive(Debug, Default)]
pub struct IdMemory {
    ids: FxHashMap<String, usize>,
    next: usize,
}

impl IdMemory {
    /// Gives every node of `roots` (one tree per captured page) its CUP id,
    /// moving each node's native reference into `refs` (id → reference).
    pub fn number(&mut self, roots: &mut [Node], refs: &mut HashMap<String, String>) {
        let old = std::mem::take(&mut self.ids);
        self.ids.reserve(old.len());
        let mut pass = Pass {
            old: &old,
            used: FxHashSet::default(),
            fresh: Vec::new(),
            ids: &mut self.ids,
            refs,
        };
        for (i, root) in roots.iter_mut().enumerate() {
            pass.walk(root, "", 0, &mut vec![i]);
        }
        let Pass {
            fresh,
            refs,
            used,
            ids,
            ..
        } = pass;
        let mut next = if used.is_empty() { 0 } else { self.next };
        // New nodes are numbered in tree order after every kept one.
        for (node_path, key) in fresh {
            let n = next;
            next += 1;
            if let Some(node) = at_path(roots, &node_path) {
                set_id(node, n, refs);
            }
            if let Some(key) = key {
                ids.insert(key, n);
            }
        }
        self.next = next;
    }
}

/// The key a node is remembered by: its native reference, or for a node
/// without one its parent's key and its place (`None` under a node with no
/// key either).
fn key_of(node: &Node, parent: &str, place: usize) -> Option<String> {
    if !node.id.is_empty() {
        Some(node.id.clone())
    } else if !parent.is_empty() {
        Some(format!("{parent}#{place}"))
    } else {
        None
    }
}

/// Where a node is: the index of its root, then child indices.
type NodePath = Vec<usize>;

/// What numbering one capture needs as it goes.
struct Pass<'a> {
    /// The ids of the last capture.
    old: &'a FxHashMap<String, usize>,
    /// Numbers given out in this capture.
    used: FxHashSet<usize>,
    /// Nodes to number after the walk (not known, or known twice).
    fresh: Vec<(NodePath, Option<String>)>,
    /// The ids of this capture.
    ids: &'a mut FxHashMap<String, usize>,
    refs: &'a mut HashMap<String, String>,
}

impl Pass<'_> {
    fn walk(&mut self, node: &mut Node, parent: &str, place: usize, path: &mut NodePath) {
        let key = key_of(node, parent, place);
        let known = key
            .as_ref()
            .and_then(|k| self.old.get(k).copied())
            .filter(|n| self.used.insert(*n));
        // A fresh node takes its place in tree order now; its key follows
        // once its children no longer need it.
        let slot = self.fresh.len();
        match known {
            Some(n) => set_id(node, n, self.refs),
            None => self.fresh.push((path.clone(), None)),
        }
        {
            let own = key.as_deref().unwrap_or_default();
            for (i, child) in node.children.iter_mut().enumerate() {
                path.push(i);
                self.walk(child, own, i, path);
                path.pop();
            }
        }
        match known {
            Some(n) => {
                if let Some(k) = key {
                    self.ids.insert(k, n);
                }
            }
            None => {
                if let Some(f) = self.fresh.get_mut(slot) {
                    f.1 = key;
                }
            }
        }
    }
}

fn set_id(node: &mut Node, n: usize, refs: &mut HashMap<String, String>) {
    let id = format!("e{n}");
    let native = std::mem::replace(&mut node.id, id.clone());
    if !native.is_empty() {
        refs.insert(id, native);
    }
}

fn at_path<'a>(roots: &'a mut [Node], path: &[usize]) -> Option<&'a mut Node> {
    let (first, rest) = path.split_first()?;
    let mut node = roots.get_mut(*first)?;
    for i in rest {
        node = node.children.get_mut(*i)?;
    }
    Some(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::Role;

    fn node(native: &str, kids: Vec<Node>) -> Node {
        let mut n = Node::new(native, Role::Generic, native);
        n.children = kids;
        n
    }

    /// (CUP id, name) in pre-order.
    fn ids(roots: &[Node]) -> Vec<(String, String)> {
        fn go(n: &Node, out: &mut Vec<(String, String)>) {
            out.push((n.id.clone(), n.name.clone()));
            n.children.iter().for_each(|c| go(c, out));
        }
        let mut out = Vec::new();
        roots.iter().for_each(|r| go(r, &mut out));
        out
    }

    fn page(kids: Vec<Node>) -> Vec<Node> {
        vec![node("p/t/f:1", kids)]
    }

    fn number(
        mem: &mut IdMemory,
        mut roots: Vec<Node>,
    ) -> (Vec<(String, String)>, HashMap<String, String>) {
        let mut refs = HashMap::new();
        mem.number(&mut roots, &mut refs);
        (ids(&roots), refs)
    }

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn a_first_capture_is_numbered_in_tree_order_with_its_references() {
        let mut mem = IdMemory::default();
        let (got, refs) = number(
            &mut mem,
            page(vec![
                node("p/t/f:2", vec![node("p/t/f:3", vec![])]),
                node("p/t/f:4", vec![]),
            ]),
        );
        assert_eq!(
            got,
            pairs(&[
                ("e0", "p/t/f:1"),
                ("e1", "p/t/f:2"),
                ("e2", "p/t/f:3"),
                ("e3", "p/t/f:4")
            ])
        );
        assert_eq!(refs.get("e2").map(String::as_str), Some("p/t/f:3"));
        assert_eq!(refs.len(), 4);
    }

    #[test]
    fn kept_nodes_keep_their_ids_and_new_ones_take_new_numbers() {
        let mut mem = IdMemory::default();
        number(
            &mut mem,
            page(vec![node("p/t/f:2", vec![]), node("p/t/f:4", vec![])]),
        );
        // A node added before the others, one removed.
        let (got, refs) = number(
            &mut mem,
            page(vec![node("p/t/f:9", vec![]), node("p/t/f:4", vec![])]),
        );
        assert_eq!(
            got,
            pairs(&[("e0", "p/t/f:1"), ("e3", "p/t/f:9"), ("e2", "p/t/f:4")])
        );
        assert_eq!(refs.get("e3").map(String::as_str), Some("p/t/f:9"));
        assert!(!refs.contains_key("e1"), "the removed node's id is gone");
        // The removed node's number is not given out again.
        let (got, _) = number(
            &mut mem,
            page(vec![
                node("p/t/f:9", vec![]),
                node("p/t/f:4", vec![]),
                node("p/t/f:10", vec![]),
            ]),
        );
        assert_eq!(
            got,
            pairs(&[
                ("e0", "p/t/f:1"),
                ("e3", "p/t/f:9"),
                ("e2", "p/t/f:4"),
                ("e4", "p/t/f:10")
            ])
        );
    }

    #[test]
    fn another_page_starts_again_at_e0() {
        let mut mem = IdMemory::default();
        number(
            &mut mem,
            page(vec![node("p/t/f:2", vec![]), node("p/t/f:3", vec![])]),
        );
        let (got, _) = number(
            &mut mem,
            vec![node("q/t/f:1", vec![node("q/t/f:2", vec![])])],
        );
        assert_eq!(got, pairs(&[("e0", "q/t/f:1"), ("e1", "q/t/f:2")]));
    }

    #[test]
    fn a_reference_twice_in_one_capture_gets_two_ids() {
        let mut mem = IdMemory::default();
        number(&mut mem, page(vec![node("p/t/f:2", vec![])]));
        let (got, refs) = number(
            &mut mem,
            page(vec![node("p/t/f:2", vec![]), node("p/t/f:2", vec![])]),
        );
        assert_eq!(
            got,
            pairs(&[("e0", "p/t/f:1"), ("e1", "p/t/f:2"), ("e2", "p/t/f:2")])
        );
        assert_eq!(refs.len(), 3);
    }

    #[test]
    fn generated_content_keeps_its_id_by_its_place() {
        let mut mem = IdMemory::default();
        let pseudo = |name: &str| Node::new("", Role::Text, name);
        number(
            &mut mem,
            page(vec![node("p/t/f:2", vec![pseudo("→"), pseudo("!")])]),
        );
        let (got, refs) = number(
            &mut mem,
            page(vec![
                node("p/t/f:5", vec![]),
                node("p/t/f:2", vec![pseudo("→"), pseudo("!")]),
            ]),
        );
        assert_eq!(
            got,
            pairs(&[
                ("e0", "p/t/f:1"),
                ("e4", "p/t/f:5"),
                ("e1", "p/t/f:2"),
                ("e2", "→"),
                ("e3", "!")
            ])
        );
        assert!(!refs.contains_key("e2"), "no native reference to act on");
    }
}
