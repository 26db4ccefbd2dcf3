//! D16: on the web, the text runs of one block are one line.
//!
//! A browser splits a paragraph into a text node per inline run: the words
//! around a `<code>`, an `<em>` or a footnote mark each become a `text`
//! node, and each would take a line of its own with an id of its own
//! (`[e95] txt "["`, `[e96] txt "1"`, `[e97] txt "]"`). Adjacent `text`
//! items of one container are joined into the line of the first when they
//! belong to one block: their nearest common ancestor in the raw tree (the
//! container itself, or a wrapper the compact rules hoisted) holds text of
//! its own, as a paragraph does and a `<div>` of paragraphs does not. The
//! raw tree and its ids are untouched; the line keeps the first run's id.
//!
//! After joining, a container whose only item is a text that its own name
//! already holds (case and spaces aside) drops it, as D14 drops a sole
//! text: a table cell named "x or y" over `x`, `or`, `y`.

use std::collections::HashMap;

use crate::compact::prune::{is_hoisted, is_parent_again, wraps_itself, Pruned};
use crate::node::Node;
use crate::vocab::Role;

/// Joins the text runs of every container in `roots` (D16).
pub fn join_text_runs(roots: &mut [Pruned<'_>]) {
    for p in roots {
        join_below(p);
    }
}

fn join_below(p: &mut Pruned<'_>) {
    for c in &mut p.children {
        join_below(c);
    }
    let adjacent = p
        .children
        .windows(2)
        .any(|w| is_run(&w[0]) && is_run(&w[1]) && w[0].node.states == w[1].node.states);
    if adjacent {
        join_children(p);
    }
    // A sole text that the container's name holds repeats it (D14, here
    // after hoisting and joining: the words around a dropped `<code>`).
    if let [only] = p.children.as_slice() {
        if is_run(only)
            && holds(
                &p.node.name,
                only.joined.as_deref().unwrap_or(&only.node.name),
            )
        {
            p.children.clear();
        }
    }
}

fn join_children(p: &mut Pruned<'_>) {
    let chains = chains_of(p.node, &p.children);
    let container = p.node;
    let mut out: Vec<Pruned<'_>> = Vec::with_capacity(p.children.len());
    // The last raw node joined into the run at the end of `out`.
    let mut run_end: Option<&Node> = None;
    for child in std::mem::take(&mut p.children) {
        if let (Some(last), Some(end)) = (out.last_mut(), run_end) {
            if is_run(last)
                && is_run(&child)
                && last.node.states == child.node.states
                && one_block(
                    container,
                    chains.get(&key(end)),
                    chains.get(&key(child.node)),
                )
            {
                let text = last.joined.get_or_insert_with(|| last.node.name.clone());
                text.push(' ');
                text.push_str(&child.node.name);
                run_end = Some(child.node);
                continue;
            }
        }
        run_end = Some(child.node);
        out.push(child);
    }
    p.children = out;
}

/// A line a run can join: a `text` leaf with nothing below it.
fn is_run(p: &Pruned<'_>) -> bool {
    p.node.role == Role::Text
        && !p.node.name.is_empty()
        && p.children.is_empty()
        && p.clipped.total() == 0
        && p.folded.items == 0
        && p.budget_cut == 0
        && !p.node.has_meaningful_action()
}

fn key(node: &Node) -> *const Node {
    node
}

/// For each text item of `children`, the wrappers between `container` and
/// it in the raw tree (outermost first): the compact rules hoisted them.
fn chains_of<'a>(
    container: &'a Node,
    children: &[Pruned<'a>],
) -> HashMap<*const Node, Vec<&'a Node>> {
    let targets: std::collections::HashSet<*const Node> = children
        .iter()
        .filter(|c| is_run(c))
        .map(|c| key(c.node))
        .collect();
    let mut found = HashMap::with_capacity(targets.len());
    let mut stack = Vec::new();
    descend(container, container, &targets, &mut stack, &mut found);
    found
}

fn descend<'a>(
    container: &'a Node,
    node: &'a Node,
    targets: &std::collections::HashSet<*const Node>,
    stack: &mut Vec<&'a Node>,
    found: &mut HashMap<*const Node, Vec<&'a Node>>,
) {
    for child in &node.children {
        if found.len() == targets.len() {
            return;
        }
        if targets.contains(&key(child)) {
            found.insert(key(child), stack.clone());
        } else if is_hoisted(child, Some(node))
            || wraps_itself(child)
            || is_parent_again(child, Some(container))
        {
            stack.push(child);
            descend(container, child, targets, stack, found);
            stack.pop();
        }
    }
}

/// Whether two runs reached through wrapper chains `a` and `b` belong to
/// one block: their nearest common ancestor holds text of its own.
fn one_block(container: &Node, a: Option<&Vec<&Node>>, b: Option<&Vec<&Node>>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return false;
    };
    let common = a
        .iter()
        .zip(b.iter())
        .take_while(|(x, y)| std::ptr::eq(**x, **y))
        .count();
    let ancestor = if common == 0 {
        container
    } else {
        a[common - 1]
    };
    ancestor
        .children
        .iter()
        .any(|c| c.role == Role::Text && !c.name.is_empty())
}

/// D17: a node named by its content whose lines below say that name
/// whole (their names, in order, case and white space aside) leaves its
/// name off its own line: a web `<summary>` button named "source pub fn
/// push(&mut self, value: T) Collapse" over a link `source`, a heading and
/// a text `Collapse`. A field's value counts as said by its line: Gecko
/// names a label by its text and its field's value ("Full name Ada
/// Lovelace" over `tbx "Full name" val="Ada Lovelace"`). A text left
/// with no name so gives its place to its lines (`hoist_said_texts`).
/// The JSON keeps the name; `find` still matches it.
pub fn name_from_lines_below(roots: &mut [Pruned<'_>]) {
    for p in roots.iter_mut() {
        let _ = said_below(p);
    }
    for p in roots {
        hoist_said_texts(p);
    }
}

/// A `text`, group or generic container whose name D17 left off, that
/// does not act and has no state or value, says nothing on its own line:
/// its lines take its place, as an unnamed wrapper's do (Firefox's
/// `<label>` around each field of a form was a bare `txt` line over the
/// field's).
fn hoist_said_texts(p: &mut Pruned<'_>) {
    for c in &mut p.children {
        hoist_said_texts(c);
    }
    if !p.children.iter().any(says_nothing) {
        return;
    }
    let children = std::mem::take(&mut p.children);
    for c in children {
        if says_nothing(&c) {
            p.children.extend(c.children);
        } else {
            p.children.push(c);
        }
    }
}

/// Whether `p`'s line would say nothing: D17 left its name off (which it
/// does only where no hint line follows), and it is a text, a group or a
/// generic container without an action, a state or a value (LibreOffice's
/// sidebar names a panel as the one button it holds: a bare `grp` line).
fn says_nothing(p: &Pruned<'_>) -> bool {
    p.name_below
        && matches!(p.node.role, Role::Text | Role::Group | Role::Generic)
        && !p.node.has_meaningful_action()
        && p.node.states.is_empty()
        && p.node.value.as_deref().is_none_or(str::is_empty)
}

/// What the lines of a subtree say, squashed (no white space, lower
/// case): their names alone, and their names with each line's value
/// after its name; and how many lines say it.
struct Said {
    names: String,
    with_values: String,
    lines: usize,
}

/// What `p`'s lines say; marks `p` [`Pruned::name_below`] when two or
/// more lines below say its name, or its only child's line does, of
/// another role, and `p` does not act itself (a child of the same role
/// repeating it, or one below a node that acts, keeps both names: D14).
fn said_below(p: &mut Pruned<'_>) -> Said {
    p.name_below = false;
    let mut below = Said {
        names: String::new(),
        with_values: String::new(),
        lines: 0,
    };
    for c in &mut p.children {
        let said = said_below(c);
        below.names.push_str(&said.names);
        below.with_values.push_str(&said.with_values);
        below.lines += said.lines;
    }
    let own = match &p.joined {
        Some(joined) => squash(joined),
        None => squash(&p.node.name),
    };
    if own.is_empty() {
        return below;
    }
    // One line of another role saying it, below a node that does not act:
    // a table cell over its checkbox, link or image.
    let one_other = below.lines == 1
        && matches!(p.children.as_slice(), [only] if only.node.role != p.node.role)
        && !p.node.has_meaningful_action();
    if (below.lines >= 2 || one_other)
        && p.joined.is_none()
        && (own == below.names || own == below.with_values)
        && p.clipped.total() == 0
        && p.folded.items == 0
        && p.budget_cut == 0
    {
        p.name_below = true;
        return below;
    }
    let value = p.node.value.as_deref().map(squash).unwrap_or_default();
    Said {
        with_values: format!("{own}{value}"),
        names: own,
        lines: 1,
    }
}

pub(crate) fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `name` holds `text`, case and white space aside.
fn holds(name: &str, text: &str) -> bool {
    let name = squash(name);
    !name.is_empty() && name.contains(&squash(text))
}
