//! Changes-only snapshots (`since`): a snapshot that says only what
//! changed since an earlier one of the same session.
//!
//! Two steps, both pure:
//!
//! - [`stabilize`] gives each element of a new capture the id it had in
//!   the earlier snapshot (matched by its native reference, else by its
//!   place: its parent's key, role, name and rank among its like
//!   siblings), and an element the earlier one lacked a fresh id past
//!   every id the chain has used. So ids stay stable across a chain of
//!   `since` snapshots and an id never names two elements.
//! - [`changes`] compares the compact lines of the two snapshots by id and
//!   keeps, of the new text, the header, a summary, the lines of elements
//!   that appeared or changed (name, value, states, bounds, actions: any
//!   part of the line) and their ancestors' lines, which place them; the
//!   elements that went are listed by id in the header. Every line is
//!   still compact text that `cup_protocol::compact::parse` reads.

use std::collections::{HashMap, HashSet};

use cup_protocol::Node;

/// Each node's key (by id): its native reference, else its place.
fn keys(tree: &[Node], refs: &HashMap<String, String>) -> HashMap<String, String> {
    fn walk(
        nodes: &[Node],
        parent: &str,
        refs: &HashMap<String, String>,
        out: &mut HashMap<String, String>,
    ) {
        let mut ranks: HashMap<(String, &str), usize> = HashMap::new();
        for node in nodes {
            let role = node.role.to_string();
            let rank = ranks.entry((role.clone(), node.name.as_str())).or_insert(0);
            let key = match refs.get(&node.id).filter(|r| !r.is_empty()) {
                Some(native) => format!("n:{native}"),
                None => format!("{parent}/{role}:{}#{rank}", node.name),
            };
            *rank += 1;
            walk(&node.children, &key, refs, out);
            out.insert(node.id.clone(), key);
        }
    }
    let mut out = HashMap::new();
    walk(tree, "", refs, &mut out);
    out
}

/// The number in an id `eN`.
fn number(id: &str) -> Option<u64> {
    id.strip_prefix('e')?.parse().ok()
}

/// The next free id number after every id of `tree`.
pub fn next_free(tree: &[Node]) -> u64 {
    let mut max = None;
    let mut stack: Vec<&Node> = tree.iter().collect();
    while let Some(node) = stack.pop() {
        max = max.max(number(&node.id));
        stack.extend(node.children.iter());
    }
    max.map_or(0, |m| m + 1)
}

/// Renames the nodes of a new capture (`tree`, `refs`) after the earlier
/// snapshot's (`base`, `base_refs`): an element both have keeps the
/// earlier id; any other gets `e{next}`, and `next` moves past it. `next`
/// must be past every id the chain used (see [`next_free`]).
pub fn stabilize(
    base: &[Node],
    base_refs: &HashMap<String, String>,
    next: &mut u64,
    tree: &mut [Node],
    refs: &mut HashMap<String, String>,
) {
    let by_key: HashMap<String, String> = keys(base, base_refs)
        .into_iter()
        .map(|(id, key)| (key, id))
        .collect();
    let new_keys = keys(tree, refs);
    let mut used: HashSet<String> = HashSet::new();
    let mut renamed: HashMap<String, String> = HashMap::new();
    // Pre-order, so fresh ids read top to bottom.
    let mut order = Vec::new();
    let mut stack: Vec<&Node> = tree.iter().rev().collect();
    while let Some(node) = stack.pop() {
        order.push(node.id.clone());
        stack.extend(node.children.iter().rev());
    }
    for id in order {
        let earlier = new_keys
            .get(&id)
            .and_then(|k| by_key.get(k))
            .filter(|old| !used.contains(*old))
            .cloned();
        let new_id = earlier.unwrap_or_else(|| {
            let fresh = format!("e{next}");
            *next += 1;
            fresh
        });
        used.insert(new_id.clone());
        renamed.insert(id, new_id);
    }
    fn rename(nodes: &mut [Node], renamed: &HashMap<String, String>) {
        for node in nodes {
            if let Some(id) = renamed.get(&node.id) {
                node.id.clone_from(id);
            }
            rename(&mut node.children, renamed);
        }
    }
    rename(tree, &renamed);
    *refs = std::mem::take(refs)
        .into_iter()
        .filter_map(|(id, native)| renamed.get(&id).map(|new| (new.clone(), native)))
        .collect();
}

/// A node line of compact text: its depth, id and the line as written.
struct Line<'a> {
    depth: usize,
    id: &'a str,
    text: &'a str,
}

/// The header lines (up to the blank line) and the node lines of a
/// compact text; fold, clip and budget lines are left out.
fn split(text: &str) -> (Vec<&str>, Vec<Line<'_>>) {
    let mut header = Vec::new();
    let mut lines = Vec::new();
    let mut body = false;
    for raw in text.lines() {
        if !body {
            if raw.is_empty() {
                body = true;
            } else {
                header.push(raw);
            }
            continue;
        }
        let trimmed = raw.trim_start_matches(' ');
        let depth = (raw.len() - trimmed.len()) / 2;
        let Some(rest) = trimmed.strip_prefix('[') else {
            continue;
        };
        let Some((id, _)) = rest.split_once(']') else {
            continue;
        };
        if number(id).is_none() {
            continue;
        }
        lines.push(Line {
            depth,
            id,
            text: raw,
        });
    }
    (header, lines)
}

/// A node line without its indentation and id.
fn body(line: &str) -> &str {
    line.trim_start_matches(' ')
        .split_once("] ")
        .map_or("", |(_, b)| b)
}

/// What [`changes`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// The changes-only compact text.
    pub text: String,
    /// Ids of elements whose line changed.
    pub changed: Vec<String>,
    /// Ids of elements that appeared.
    pub added: Vec<String>,
    /// Ids of elements that went.
    pub gone: Vec<String>,
}

/// Compares `before` and `after` (compact texts of the same chain, so of
/// stable ids, rendered with the same options and no cap) and writes what
/// changed as compact text: `after`'s header with `summary`'s line, the
/// ids that went, then the lines of the elements that appeared or
/// changed under their ancestors' lines. Nothing changed: one line,
/// `# {nothing}`.
pub fn changes(before: &str, after: &str, summary: &str, nothing: &str) -> Changes {
    let (_, old) = split(before);
    let old: HashMap<&str, &str> = old.iter().map(|l| (l.id, body(l.text))).collect();
    let (header, new) = split(after);
    let mut out = Changes::default();
    let mut marked = vec![false; new.len()];
    let mut present: HashSet<&str> = HashSet::new();
    for (i, line) in new.iter().enumerate() {
        present.insert(line.id);
        match old.get(line.id) {
            Some(was) if *was == body(line.text) => {}
            Some(_) => {
                out.changed.push(line.id.to_owned());
                marked[i] = true;
            }
            None => {
                out.added.push(line.id.to_owned());
                marked[i] = true;
            }
        }
    }
    let (_, old_lines) = split(before);
    out.gone = old_lines
        .iter()
        .filter(|l| !present.contains(l.id))
        .map(|l| l.id.to_owned())
        .collect();
    if out.changed.is_empty() && out.added.is_empty() && out.gone.is_empty() {
        out.text = format!("# {nothing}\n");
        return out;
    }
    // Each marked line with the ancestors it needs (the nearest earlier
    // line of each smaller depth), in the text's order.
    let mut keep = vec![false; new.len()];
    for i in (0..new.len()).filter(|&i| marked[i]) {
        keep[i] = true;
        let mut depth = new[i].depth;
        for j in (0..i).rev() {
            if depth == 0 {
                break;
            }
            if new[j].depth < depth {
                keep[j] = true;
                depth = new[j].depth;
            }
        }
    }
    let mut text = String::new();
    // The title line, then the summary, then the rest of the header.
    let mut rest = header.iter();
    if let Some(title) = rest.next() {
        text.push_str(title);
        text.push('\n');
    }
    text.push_str("# ");
    text.push_str(summary);
    text.push_str(&format!(
        ": {} changed, {} appeared, {} went (ancestors shown to place them; the rest as before)\n",
        out.changed.len(),
        out.added.len(),
        out.gone.len()
    ));
    if !out.gone.is_empty() {
        text.push_str("# went: ");
        text.push_str(&out.gone.join(" "));
        text.push('\n');
    }
    for line in rest.filter(|l| !l.contains(" nodes (")) {
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    for (line, _) in new.iter().zip(&keep).filter(|(_, k)| **k) {
        text.push_str(line.text);
        text.push('\n');
    }
    out.text = text;
    out
}

/// `text` cut to `max_chars` characters (0: no cap) at a line's end, with
/// the protocol's truncation line saying how to see the rest.
pub fn cap(text: String, max_chars: usize) -> String {
    if max_chars == 0 || text.chars().count() <= max_chars {
        return text;
    }
    let notice = format!(
        "{} — the changes exceed {max_chars} characters; take a whole snapshot (without since) and use page or find.\n",
        cup_protocol::compact::TRUNCATION_MARK
    );
    let budget = max_chars.saturating_sub(notice.chars().count());
    let byte_limit = text
        .char_indices()
        .nth(budget)
        .map_or(text.len(), |(i, _)| i);
    let cut = text[..byte_limit].rfind('\n').map_or(0, |i| i + 1);
    let mut out = text[..cut].to_owned();
    out.push_str(&notice);
    out
}

/// [`cap`] in tokens: `text` cut at a line so that it and the notice cost
/// at most `budget.max` tokens.
pub fn cap_tokens(text: String, budget: cup_protocol::compact::TokenBudget) -> String {
    if (budget.count)(&text) <= budget.max {
        return text;
    }
    let notice = format!(
        "{} — the changes exceed {} tokens; take a whole snapshot (without since) and use page or find.\n",
        cup_protocol::compact::TOKEN_CUT_MARK,
        budget.max
    );
    let room = budget.max.saturating_sub((budget.count)(&notice));
    let (mut used, mut end) = (0usize, 0usize);
    for line in text.split_inclusive('\n') {
        let c = (budget.count)(line);
        if used + c > room {
            break;
        }
        used += c;
        end += line.len();
    }
    // Lines counted apart may cost a token less than together: check.
    while end > 0 && (budget.count)(&text[..end]) + (budget.count)(&notice) > budget.max {
        end = text[..end - 1].rfind('\n').map_or(0, |i| i + 1);
    }
    let mut out = text[..end].to_owned();
    out.push_str(&notice);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::{Node, Role};

    fn node(id: &str, role: Role, name: &str, children: Vec<Node>) -> Node {
        let mut n = Node::new(id, role, name);
        n.children = children;
        n
    }

    fn refs(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn elements_keep_their_ids_and_new_ones_get_fresh_ids() {
        let base = vec![node(
            "e0",
            Role::Window,
            "W",
            vec![
                node("e1", Role::Button, "A", vec![]),
                node("e2", Role::Button, "B", vec![]),
            ],
        )];
        let base_refs = refs(&[("e0", "w"), ("e1", "a"), ("e2", "b")]);
        // A new button first: pre-order ids shift in the capture.
        let mut tree = vec![node(
            "e0",
            Role::Window,
            "W",
            vec![
                node("e1", Role::Button, "New", vec![]),
                node("e2", Role::Button, "A", vec![]),
                node("e3", Role::Button, "B", vec![]),
            ],
        )];
        let mut new_refs = refs(&[("e0", "w"), ("e1", "n"), ("e2", "a"), ("e3", "b")]);
        let mut next = 5;
        stabilize(&base, &base_refs, &mut next, &mut tree, &mut new_refs);
        let ids: Vec<&str> = tree[0].children.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["e5", "e1", "e2"]);
        assert_eq!(next, 6);
        assert_eq!(new_refs.get("e5").map(String::as_str), Some("n"));
        assert_eq!(new_refs.get("e1").map(String::as_str), Some("a"));
        assert_eq!(new_refs.len(), 4);
    }

    #[test]
    fn elements_without_a_reference_are_matched_by_their_place() {
        let base = vec![node(
            "e0",
            Role::Window,
            "W",
            vec![
                node("e1", Role::Text, "x", vec![]),
                node("e2", Role::Text, "x", vec![]),
            ],
        )];
        let base_refs = refs(&[("e0", "w")]);
        let mut tree = base.clone();
        let mut new_refs = base_refs.clone();
        let mut next = 3;
        stabilize(&base, &base_refs, &mut next, &mut tree, &mut new_refs);
        let ids: Vec<&str> = tree[0].children.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["e1", "e2"]);
        assert_eq!(next, 3);
    }

    const BEFORE: &str = "# CUP 0.1.0 | linux | 100x100\n# 4 nodes (4 before pruning)\n\n[e0] win \"W\"\n  [e1] grp \"G\"\n    [e2] btn \"A\" [clk]\n  [e3] btn \"B\" [clk]\n";

    #[test]
    fn a_change_comes_with_its_ancestors_and_what_went_is_named() {
        let after = "# CUP 0.1.0 | linux | 100x100\n# 4 nodes (4 before pruning)\n\n[e0] win \"W\"\n  [e1] grp \"G\"\n    [e2] btn \"A\" {foc} [clk]\n  [e4] btn \"C\" [clk]\n";
        let c = changes(BEFORE, after, "changes since s1 (this is s2)", "none");
        assert_eq!(c.changed, ["e2"]);
        assert_eq!(c.added, ["e4"]);
        assert_eq!(c.gone, ["e3"]);
        assert_eq!(
            c.text,
            "# CUP 0.1.0 | linux | 100x100\n# changes since s1 (this is s2): 1 changed, 1 appeared, 1 went (ancestors shown to place them; the rest as before)\n# went: e3\n\n[e0] win \"W\"\n  [e1] grp \"G\"\n    [e2] btn \"A\" {foc} [clk]\n  [e4] btn \"C\" [clk]\n"
        );
        let doc = cup_protocol::compact::parse(&c.text).expect("the protocol's parser reads it");
        assert_eq!(doc.nodes().count(), 4);
    }

    #[test]
    fn nothing_changed_is_one_line() {
        let c = changes(BEFORE, BEFORE, "s", "no change since s1 (this is s2)");
        assert_eq!(c.text, "# no change since s1 (this is s2)\n");
        assert!(c.changed.is_empty() && c.added.is_empty() && c.gone.is_empty());
    }

    #[test]
    fn the_cap_cuts_at_a_line_and_says_so() {
        let text = "# head\n\n".to_owned() + &"[e1] btn \"A\"\n".repeat(100);
        let out = cap(text.clone(), 300);
        assert!(out.chars().count() <= 300, "{out}");
        assert!(
            out.contains(cup_protocol::compact::TRUNCATION_MARK),
            "{out}"
        );
        assert_eq!(cap(text.clone(), 0), text);
    }
}
