//! The token budget (`max_tokens`): which lines of a compact text stay
//! when the whole would cost more tokens than the agent allows.
//!
//! Lines are kept whole, in this order of need, each with the lines of its
//! ancestors that place it: the windows' own lines, the focused element,
//! what is on screen, what can be acted on, landmarks and headings, then
//! the rest in document order. A container that loses items says how many
//! and where `page` shows them; the header says what the budget left out.
//! The token counter is the caller's (`cup` counts o200k): this crate has
//! no tokenizer.

use crate::compact::prune::{for_each_item_in, Pruned};
use crate::node::{Node, Rect};
use crate::vocab::{Role, State};

/// A budget in tokens, and the counter that measures text against it.
#[derive(Clone, Copy)]
pub struct TokenBudget {
    /// The most tokens the text may cost, header and notes included.
    pub max: usize,
    /// Tokens of a text.
    pub count: fn(&str) -> usize,
}

impl std::fmt::Debug for TokenBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenBudget")
            .field("max", &self.max)
            .finish_non_exhaustive()
    }
}

impl PartialEq for TokenBudget {
    /// Budgets are equal by their size: a counter is a function of text.
    fn eq(&self, other: &Self) -> bool {
        self.max == other.max
    }
}

impl Eq for TokenBudget {}

/// The smallest budget cup accepts: a header and a window line.
pub const MIN_TOKENS: usize = 100;

/// Why a line is kept, most needed first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Need {
    /// A window's own line, or the focused element.
    Anchor,
    /// On screen.
    Visible,
    /// Can be acted on.
    Actionable,
    /// A landmark or a heading: where an agent looks next.
    Landmark,
    /// Anything else.
    Rest,
}

fn need(node: &Node, root: bool, screen: Option<Rect>) -> Need {
    if root || node.has_state(State::Focused) {
        return Need::Anchor;
    }
    let on_screen = |b: &Rect| screen.is_some_and(|s| !s.intersect(b).is_empty());
    if !node.has_state(State::Offscreen) && node.bounds.as_ref().is_some_and(on_screen) {
        return Need::Visible;
    }
    if node.has_meaningful_action() {
        return Need::Actionable;
    }
    if matches!(
        node.role,
        Role::Heading
            | Role::Banner
            | Role::Main
            | Role::Navigation
            | Role::Complementary
            | Role::ContentInfo
            | Role::Form
            | Role::Region
            | Role::Search
    ) {
        return Need::Landmark;
    }
    Need::Rest
}

/// One line of the pruned tree, in document order.
struct Item {
    parent: Option<usize>,
    need: Need,
    /// Tokens of its own line and hint lines.
    cost: usize,
    /// Unnamed, does not act, has children: a line that says nothing
    /// without theirs.
    bare: bool,
}

fn flatten(
    p: &Pruned<'_>,
    parent: Option<usize>,
    depth: usize,
    screen: Option<Rect>,
    line_cost: &mut dyn FnMut(&Pruned<'_>, usize) -> usize,
    out: &mut Vec<Item>,
) {
    let me = out.len();
    out.push(Item {
        parent,
        need: need(p.node, parent.is_none(), screen),
        cost: line_cost(p, depth),
        bare: parent.is_some()
            && !p.children.is_empty()
            && p.node.name.is_empty()
            && p.joined.is_none()
            && !p.node.has_meaningful_action()
            && !p.node.has_state(State::Focused),
    });
    for c in &p.children {
        flatten(c, Some(me), depth + 1, screen, line_cost, out);
    }
}

/// The lines of `roots` (pre-order over every root) that fit `avail`
/// tokens, by need and then document order, each with its ancestors.
fn choose(items: &[Item], avail: usize) -> Vec<bool> {
    let mut keep = vec![false; items.len()];
    let mut used = 0usize;
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (items[i].need, i));
    let mut chain = Vec::new();
    for i in order {
        if keep[i] {
            continue;
        }
        chain.clear();
        let mut cost = 0usize;
        let mut at = Some(i);
        while let Some(j) = at.filter(|&j| !keep[j]) {
            chain.push(j);
            cost += items[j].cost;
            at = items[j].parent;
        }
        // Windows' own lines are kept whatever they cost: without them
        // nothing is placed.
        if used + cost <= avail || items[i].need == Need::Anchor && items[i].parent.is_none() {
            used += cost;
            for &j in &chain {
                keep[j] = true;
            }
        }
    }
    // A wrapper kept for its need alone whose lines below all went says
    // nothing: it goes too (children come after their parent, so going
    // backwards a chain of them goes).
    let mut kept_below = vec![0usize; items.len()];
    for i in (0..items.len()).rev() {
        if keep[i] && items[i].bare && kept_below[i] == 0 {
            keep[i] = false;
        }
        if let Some(p) = items[i].parent.filter(|_| keep[i]) {
            kept_below[p] += 1;
        }
    }
    keep
}

/// What [`fit`] left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Lines left out.
    pub lines: usize,
    /// Lines there were.
    pub of: usize,
}

/// Keeps the lines of `pruned` marked in `keep` (pre-order), marking each
/// container that lost items with their count and `page` offset.
fn retain(pruned: &mut Vec<Pruned<'_>>, keep: &[bool], joins: bool) {
    fn go(p: &mut Pruned<'_>, keep: &[bool], next: &mut usize, joins: bool) {
        *next += 1;
        let mut first_gone: Option<String> = None;
        let mut gone = 0usize;
        let children = std::mem::take(&mut p.children);
        for mut c in children {
            if keep[*next] {
                go(&mut c, keep, next, joins);
                p.children.push(c);
            } else {
                *next += c.len();
                gone += 1;
                first_gone.get_or_insert_with(|| c.node.id.clone());
            }
        }
        if let Some(first) = first_gone {
            p.budget_cut += gone;
            p.budget_offset = page_offset(p.node, &first, joins);
        }
    }
    let mut next = 0usize;
    for p in pruned.iter_mut() {
        go(p, keep, &mut next, joins);
    }
}

/// Fits `pruned` to `budget`: `render` writes the whole text of a pruned
/// tree with the given header notes; `line_cost` counts the tokens of one
/// pruned line (and its hint lines) at a depth. Leaves `pruned` as kept
/// and returns the text and what was left out. The text never costs more
/// than `budget.max` unless the header alone does.
pub fn fit<'a>(
    pruned: &mut Vec<Pruned<'a>>,
    budget: TokenBudget,
    screen: Option<Rect>,
    joins: bool,
    line_cost: &mut dyn FnMut(&Pruned<'_>, usize) -> usize,
    render: &mut dyn FnMut(&[Pruned<'a>], Option<Dropped>) -> String,
) -> (String, Dropped) {
    let whole = render(pruned, None);
    let total: usize = pruned.iter().map(Pruned::len).sum();
    if (budget.count)(&whole) <= budget.max {
        return (
            whole,
            Dropped {
                lines: 0,
                of: total,
            },
        );
    }
    let mut items = Vec::with_capacity(total);
    for p in pruned.iter() {
        flatten(p, None, 0, screen, line_cost, &mut items);
    }
    let body: usize = items.iter().map(|i| i.cost).sum();
    let overhead = (budget.count)(&whole).saturating_sub(body);
    let original = pruned.clone();
    // The text of the lines that `avail` tokens of lines buy, and its cost.
    let mut attempt = |avail: usize| {
        let keep = choose(&items, avail);
        let mut kept = original.clone();
        retain(&mut kept, &keep, joins);
        let dropped = Dropped {
            lines: keep.iter().filter(|k| !**k).count(),
            of: total,
        };
        let text = render(&kept, Some(dropped));
        let cost = (budget.count)(&text);
        (kept, dropped, text, cost)
    };
    // Fold lines and the note cost tokens the lines' own count leaves
    // out: lower the lines' share until the whole fits, then bisect
    // toward the most that fits.
    let (mut lo, mut hi) = (None, body);
    let mut avail = budget.max.saturating_sub(overhead).min(body);
    let mut best = None;
    for _ in 0..8 {
        let (kept, dropped, text, cost) = attempt(avail);
        if cost <= budget.max {
            lo = Some(avail);
            best = Some((kept, dropped, text));
            break;
        }
        hi = avail;
        let over = cost - budget.max;
        if avail == 0 {
            break;
        }
        avail = avail.saturating_sub(over + over / 4 + 8);
    }
    let Some(mut lo) = lo else {
        // Only the windows' own lines are left and they cost too much:
        // cut whole lines from the end.
        let (kept, dropped, text, _) = attempt(0);
        *pruned = kept;
        return (cut_to(&text, budget), dropped);
    };
    let close = (budget.max / 50).max(8);
    for _ in 0..6 {
        if hi <= lo + close {
            break;
        }
        let mid = lo + (hi - lo) / 2;
        let (kept, dropped, text, cost) = attempt(mid);
        if cost <= budget.max {
            lo = mid;
            best = Some((kept, dropped, text));
        } else {
            hi = mid;
        }
    }
    let (kept, dropped, text) = best.expect("a fitting attempt was kept");
    *pruned = kept;
    (text, dropped)
}

/// Where `page` on `container` finds the item that holds `id`: its index
/// among the container's items as `page` counts them (`flat`: the web's
/// D16 counting); `None` when none holds it.
pub fn page_offset(container: &Node, id: &str, flat: bool) -> Option<usize> {
    let (mut index, mut offset) = (0usize, None);
    for_each_item_in(
        Some(container),
        &container.children,
        flat,
        &mut |item, _| {
            if offset.is_none() && (item.id == id || item.iter().any(|n| n.id == id)) {
                offset = Some(index);
            }
            index += 1;
        },
    );
    offset
}

/// First line of the notice that ends a text cut to its token budget.
pub const TOKEN_CUT_MARK: &str = "# OUTPUT CUT TO THE TOKEN BUDGET";

/// `text` cut at a line so that it and the notice cost at most
/// `budget.max` tokens; the header (the `# ` lines before the first blank
/// line) is never cut.
fn cut_to(text: &str, budget: TokenBudget) -> String {
    let notice = format!(
        "{TOKEN_CUT_MARK} (max_tokens {}) — find(name=...) locates the rest\n",
        budget.max
    );
    let header_end = text.find("\n\n").map_or(0, |i| i + 2);
    let room = budget.max.saturating_sub((budget.count)(&notice));
    let mut used = (budget.count)(&text[..header_end]);
    let mut end = header_end;
    for line in text[header_end..].split_inclusive('\n') {
        let c = (budget.count)(line);
        if used + c > room {
            break;
        }
        used += c;
        end += line.len();
    }
    // Lines counted apart may cost a token less than together: check.
    while end > header_end && (budget.count)(&text[..end]) + (budget.count)(&notice) > budget.max {
        end = text[..end - 1]
            .rfind('\n')
            .map_or(0, |i| i + 1)
            .max(header_end);
    }
    let mut out = text[..end].to_string();
    out.push_str(&notice);
    out
}

/// The header note of a text the budget cut (short: it is paid for out
/// of the budget; docs/compact-format.md says what is kept first).
pub fn budget_note(budget: TokenBudget, dropped: Dropped) -> String {
    format!(
        "max_tokens {}: {} of {} lines left out (page or find gets them)",
        budget.max, dropped.lines, dropped.of
    )
}
