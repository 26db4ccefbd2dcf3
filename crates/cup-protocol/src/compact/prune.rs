//! Pruning: which nodes of the raw tree the compact text shows, and which
//! children of a scroll container (or of the screen) lie outside its
//! viewport. The raw tree is never modified; the result borrows from it.
//!
//! Order of the compact rules for each child of a container:
//! 1. hoist: an unnamed `generic`, `region` or `group` without a meaningful
//!    action is replaced by its children (recursively);
//! 2. skip: chrome roles, zero size, offscreen without a meaningful action,
//!    unnamed `img`, unnamed `text`, a `text` that is the only child of a
//!    named parent and repeats its name (D14) — the node and its subtree
//!    are dropped; a sole child with its parent's role and name and no
//!    action (D14) is hoisted like a wrapper;
//! 3. clip: a child with bounds entirely outside the viewport is counted, by
//!    direction, instead of shown;
//! 4. the child is pruned recursively; an unnamed structural container
//!    without a meaningful action that ends with exactly one child and no
//!    clipped or folded ones is replaced by that child;
//! 5. fold (D13): below a closed container that can be opened ([`opener`]),
//!    below a node that is itself off screen without bounds
//!    ([`is_placeless`]), or below a list, table, grid or tree, a child whose lines would all be nodes off screen
//!    without bounds (none focused, no clip hint) is counted instead of
//!    shown. `compact` and `minimal` only;
//! 6. drop (D20): an unnamed container left with nothing below it, without
//!    a meaningful action, a value or a state, is left out.

use crate::compact::runs;
use crate::node::{Node, Rect};
use crate::vocab::{Action, Direction, Role, State};

/// How much of the tree to show.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Detail {
    /// All pruning rules, viewport clipping and hints (default; alias
    /// `standard`).
    #[default]
    Compact,
    /// Every node, no pruning and no clipping.
    Full,
    /// Only nodes with a meaningful action and their ancestors.
    Minimal,
    /// The whole page: the compact rules without the viewport's (nothing
    /// is clipped by the screen or a scroll container, offscreen items are
    /// kept). What a reader of the whole document gets, and the same
    /// content other tools' whole-page snapshots hold.
    Page,
}

impl Detail {
    /// Lowercase name.
    pub const fn name(self) -> &'static str {
        match self {
            Detail::Compact => "compact",
            Detail::Full => "full",
            Detail::Minimal => "minimal",
            Detail::Page => "page",
        }
    }
}

impl std::fmt::Display for Detail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Detail {
    type Err = crate::vocab::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "compact" | "standard" => Ok(Detail::Compact),
            "full" => Ok(Detail::Full),
            "minimal" => Ok(Detail::Minimal),
            "page" => Ok(Detail::Page),
            _ => Err(crate::vocab::UnknownWord {
                kind: "detail level",
                value: s.to_owned(),
                expected: "compact (alias standard), full, minimal, page".to_owned(),
            }),
        }
    }
}

/// Children of a container hidden by its viewport, counted by direction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clipped {
    /// Items above the viewport.
    pub up: usize,
    /// Items below the viewport.
    pub down: usize,
    /// Items left of the viewport.
    pub left: usize,
    /// Items right of the viewport.
    pub right: usize,
}

impl Clipped {
    /// All hidden items.
    pub fn total(&self) -> usize {
        self.up + self.down + self.left + self.right
    }

    /// Hidden items in one direction.
    pub fn get(&self, dir: Direction) -> usize {
        match dir {
            Direction::Up => self.up,
            Direction::Down => self.down,
            Direction::Left => self.left,
            Direction::Right => self.right,
        }
    }

    /// Adds `n` hidden items in one direction.
    pub fn add(&mut self, dir: Direction, n: usize) {
        match dir {
            Direction::Up => self.up += n,
            Direction::Down => self.down += n,
            Direction::Left => self.left += n,
            Direction::Right => self.right += n,
        }
    }
}

/// Children folded into one line because they have no place on screen
/// (D13): the items of a closed container, or the content of a node that is
/// itself off screen without bounds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Folded {
    /// Folded items (children as the compact text would show them, D6).
    pub items: usize,
    /// The action that opens the closed container (`expand`, else
    /// `click`); `None` when the items are folded below a node that is off
    /// screen without bounds.
    pub open: Option<Action>,
}

/// A node kept by pruning, with its kept children and what its viewport hid.
#[derive(Debug, Clone)]
pub struct Pruned<'a> {
    /// The raw node.
    pub node: &'a Node,
    /// Kept children.
    pub children: Vec<Pruned<'a>>,
    /// Children hidden outside the viewport.
    pub clipped: Clipped,
    /// Children folded because they have no place on screen (D13).
    pub folded: Folded,
    /// Children left out, from the end, to fit the character budget
    /// (see [`super::render::fit_budget`]).
    pub budget_cut: usize,
    /// The `page` offset of the first item left out by the budget;
    /// `None` when `page` does not list it (offscreen text: `find` gets
    /// it).
    pub budget_offset: Option<usize>,
    /// For a `text` node, the text of the run it heads when adjacent runs
    /// of one block were joined into its line (D16); `None` otherwise.
    pub joined: Option<String>,
    /// The name is left off the line: the lines below say it whole (D17).
    pub name_below: bool,
}

impl Pruned<'_> {
    /// Number of nodes in this pruned subtree.
    pub fn len(&self) -> usize {
        1 + self.children.iter().map(Pruned::len).sum::<usize>()
    }

    /// Always `false`: a pruned subtree holds at least its root.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// Prunes `roots` for `detail`. With `Detail::Compact`, `screen` is the
/// viewport of the roots' descendants (roots themselves are never clipped).
pub fn prune(roots: &[Node], detail: Detail, screen: Option<Rect>) -> Vec<Pruned<'_>> {
    prune_folding(roots, detail, screen, true)
}

/// [`prune`], with D13's folding (`fold`) or without it: the rules as they
/// were before D13, for measuring what folding saves (the benchmark's
/// token rows). Everything else is the same.
pub fn prune_folding(
    roots: &[Node],
    detail: Detail,
    screen: Option<Rect>,
    fold: bool,
) -> Vec<Pruned<'_>> {
    prune_folding_in(roots, detail, screen, fold, false)
}

/// [`prune_folding`]; with `flat` (the web, D16) a text reached through
/// hoisted wrappers is its container's only child only when the container
/// has no other item (D14), so that the runs of a paragraph stay whole for
/// joining.
pub fn prune_folding_in(
    roots: &[Node],
    detail: Detail,
    screen: Option<Rect>,
    fold: bool,
    flat: bool,
) -> Vec<Pruned<'_>> {
    match detail {
        Detail::Full => roots.iter().map(keep_all).collect(),
        Detail::Minimal => roots
            .iter()
            .filter_map(|r| keep_actionable(r, fold))
            .collect(),
        Detail::Compact => {
            let mut out = Vec::new();
            for_each_item_in(None, roots, flat, &mut |child, _parent| {
                out.push(prune_kept_folding(child, screen, fold, flat));
            });
            out
        }
        Detail::Page => {
            let mut out = Vec::new();
            walk_items(
                None,
                roots,
                item_count(None, roots, flat),
                (Viewport::Ignored, flat),
                &mut |child, _| {
                    out.push(prune_page(child, flat));
                },
            );
            out
        }
    }
}

/// Whether the viewport's rules apply (clipping, dropping offscreen items).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Viewport {
    Applied,
    Ignored,
}

/// Prunes a kept node with the compact rules but no viewport
/// ([`Detail::Page`]).
fn prune_page(node: &Node, flat: bool) -> Pruned<'_> {
    let mut children = Vec::new();
    walk_items(
        Some(node),
        &node.children,
        item_count(Some(node), &node.children, flat),
        (Viewport::Ignored, flat),
        &mut |child, _| children.push(prune_page(child, flat)),
    );
    collapse(node, children, Clipped::default(), Folded::default(), flat)
}

fn keep_all(node: &Node) -> Pruned<'_> {
    Pruned {
        node,
        children: node.children.iter().map(keep_all).collect(),
        clipped: Clipped::default(),
        folded: Folded::default(),
        budget_cut: 0,
        budget_offset: None,
        joined: None,
        name_below: false,
    }
}

fn keep_actionable(node: &Node, folding: bool) -> Option<Pruned<'_>> {
    let mut fold = Fold::of(node, folding);
    let children: Vec<_> = node
        .children
        .iter()
        .filter_map(|c| keep_actionable(c, folding))
        .filter(|child| !fold.takes(child))
        .collect();
    let folded = fold.folded();
    (node.has_meaningful_action() || !children.is_empty() || folded.items > 0).then_some(Pruned {
        node,
        children,
        clipped: Clipped::default(),
        folded,
        budget_cut: 0,
        budget_offset: None,
        joined: None,
        name_below: false,
    })
}

/// `true` for wrappers the compact text replaces by their children, among
/// the children of `parent` (`None` at the top): an unnamed generic,
/// region or group that does not act, or an unnamed window that does not
/// act inside another node (Qt gives some of its container widgets the
/// window role, and VLC's player controls sat under three bare `win`
/// lines). A window at the top stays (it is what a snapshot lists).
pub fn is_hoisted(node: &Node, parent: Option<&Node>) -> bool {
    node.name.is_empty()
        && !node.has_meaningful_action()
        && (matches!(node.role, Role::Generic | Role::Region | Role::Group)
            || (parent.is_some() && node.role == Role::Window))
}

/// Whether `node` is skipped wherever it stands: a chrome role, an
/// unnamed icon or text (but not a canvas whose text was read from its
/// pixels), zero size.
fn skipped_anywhere(node: &Node) -> bool {
    matches!(
        node.role,
        Role::ScrollBar | Role::Separator | Role::TitleBar | Role::Tooltip | Role::Status
    ) || (matches!(node.role, Role::Img | Role::Text)
        && node.name.is_empty()
        && !node.children.iter().any(Node::is_from_pixels))
        || node.bounds.is_some_and(|b| b.is_empty())
}

fn is_skipped(node: &Node, parent: Option<&Node>, siblings: usize, viewport: Viewport) -> bool {
    skipped_anywhere(node)
        || (node.role == Role::Text
            && siblings == 1
            && parent.is_some_and(|p| repeats(&p.name, &node.name) && !named_by_content(p)))
        || (viewport == Viewport::Applied
            && node.has_state(State::Offscreen)
            && !holds_action(node, parent))
}

/// Whether an offscreen node is kept by rule 9: it acts itself, or (D19)
/// it holds something that acts and has a place, as a list item below the
/// fold holds its link, or it is an item of a closed container, which D13
/// counts on the container's fold line (GIMP's "Dynamics Options":
/// `2 items in closed button: expand to open`). Elsewhere a wrapper whose
/// acting content has no place on screen at all (Firefox's hidden menu bar
/// and its menus) goes with it.
fn holds_action(node: &Node, parent: Option<&Node>) -> bool {
    let in_closed = parent.is_some_and(|p| opener(p).is_some());
    node.has_meaningful_action()
        || node
            .iter()
            .any(|n| n.has_meaningful_action() && (in_closed || n.bounds.is_some()))
}

/// How many of `children` count as siblings for D14's "only child": all
/// but those skipped wherever they stand ([`skipped_anywhere`]). GTK 4's
/// list row holds an icon beside its label.
fn sibling_count(children: &[Node]) -> usize {
    children.iter().filter(|c| !skipped_anywhere(c)).count()
}

/// The sibling count a walk starts with among `parent`'s `children`:
/// [`sibling_count`], or with `flat` (D16) the items found through
/// hoisted wrappers too.
fn item_count(parent: Option<&Node>, children: &[Node], flat: bool) -> usize {
    if !flat {
        return sibling_count(children);
    }
    children
        .iter()
        .map(|c| {
            if is_hoisted(c, parent) || wraps_itself(c) {
                item_count(Some(c), &c.children, true)
            } else {
                usize::from(!skipped_anywhere(c))
            }
        })
        .sum()
}

/// Whether `node`, a sole child, is its parent again (D14): the same role
/// and name, no action of its own. It is hoisted: GTK 4's grid cell holds
/// its label's cell (Nautilus's `cel "a.txt"` twice per file, the inner
/// one over an icon and the label); what is below it is shown as its
/// parent's, where the label repeating the name is dropped in turn.
pub(crate) fn is_parent_again(node: &Node, parent: Option<&Node>) -> bool {
    !node.name.is_empty()
        && !node.has_meaningful_action()
        && parent.is_some_and(|p| p.role == node.role && p.name == node.name)
}

/// Whether `node` is only a wrapper around itself (D14): no action of
/// its own, one child with its role and name, and no state the child
/// does not have. It is hoisted and the child, the one that acts, stays:
/// GTK 4's menu button (`btn "Main Menu"`) around its toggle button
/// (`btn "Main Menu" [clk]`).
pub(crate) fn wraps_itself(node: &Node) -> bool {
    let [child] = node.children.as_slice() else {
        return false;
    };
    !node.name.is_empty()
        && !node.has_meaningful_action()
        && child.role == node.role
        && child.name == node.name
        && node.states.iter().all(|s| child.states.contains(s))
}

/// Whether a sole `text` child named `text` only repeats its parent's
/// name `parent` (D14): the parent's name holds it (case and surrounding
/// space aside). A document whose only paragraph is what the user typed
/// keeps that paragraph.
fn repeats(parent: &str, text: &str) -> bool {
    let parent = parent.trim();
    !parent.is_empty() && parent.to_lowercase().contains(&text.trim().to_lowercase())
}

/// Whether `children[i]` is a control's label beside it (D14): a `text`
/// with nothing below it, no action and no state, whose words (case,
/// white space and a closing colon aside) are the name of the control
/// just before or after it. The control's line says them: Chromium's
/// `<label>Full name <input></label>` read `txt "Full name"` beside
/// `tbx "Full name"`, Thunderbird's set-up form `txt "Email address*"`
/// after `tbx "Email address*"`.
fn labels_neighbour(children: &[Node], i: usize) -> bool {
    let Some(text) = children.get(i) else {
        return false;
    };
    if text.role != Role::Text
        || !text.children.is_empty()
        || text.has_meaningful_action()
        || !text.states.is_empty()
    {
        return false;
    }
    // Most texts stand beside no control: only then are names compared.
    let beside = [i.checked_sub(1), i.checked_add(1)];
    let mut controls = beside
        .into_iter()
        .flatten()
        .filter_map(|j| children.get(j))
        .filter(|c| c.has_meaningful_action())
        .peekable();
    if controls.peek().is_none() {
        return false;
    }
    let words = label_words(&text.name);
    !words.is_empty() && controls.any(|c| label_words(&c.name) == words)
}

/// A label's words, squashed, without the colon that ends them.
fn label_words(name: &str) -> String {
    let squashed = runs::squash(name);
    squashed.strip_suffix(':').unwrap_or(&squashed).to_owned()
}

/// Whether `node` is named by its content (D14 gives way to D17): the
/// names of its topmost named descendants, two or more, say its name
/// whole, in order (case and white space aside). Its only text then keeps
/// its line, so that the lines below say the name and D17 leaves it off
/// the node's own line; dropping the text would leave a name made of the
/// children's words over lines repeating most of them (Thunderbird's
/// message cell "Sender 7 <...> 11/23/23, 05:13 Message menu Message
/// number 7 Message not starred" over its sender, date, buttons and the
/// subject's text).
fn named_by_content(node: &Node) -> bool {
    let own = runs::squash(&node.name);
    if own.is_empty() {
        return false;
    }
    let mut said = String::new();
    let mut lines = 0usize;
    let mut stack: Vec<&Node> = node.children.iter().rev().collect();
    while let Some(n) = stack.pop() {
        if skipped_anywhere(n) {
            continue;
        }
        if n.name.trim().is_empty() {
            stack.extend(n.children.iter().rev());
            continue;
        }
        said.push_str(&runs::squash(&n.name));
        lines += 1;
        if said.len() > own.len() || !own.starts_with(said.as_str()) {
            return false;
        }
    }
    lines >= 2 && said == own
}

/// Whether two names have the same words (case and white space aside).
fn same_words(a: &str, b: &str) -> bool {
    runs::squash(a) == runs::squash(b)
}

fn is_structural(role: Role) -> bool {
    matches!(
        role,
        Role::Region
            | Role::Document
            | Role::Main
            | Role::Complementary
            | Role::Navigation
            | Role::Search
            | Role::Banner
            | Role::ContentInfo
            | Role::Form
    )
}

/// The viewport a node imposes on its children: a scroll container with
/// bounds narrows the inherited one.
pub fn child_viewport(node: &Node, inherited: Option<Rect>) -> Option<Rect> {
    match node.bounds {
        Some(b) if node.actions.contains(&Action::Scroll) => {
            Some(inherited.map_or(b, |v| b.intersect(&v)))
        }
        _ => inherited,
    }
}

/// Where `bounds` lies when entirely outside `viewport` (touching edges count
/// as outside); `None` when it overlaps.
pub fn clip_direction(bounds: &Rect, viewport: &Rect) -> Option<Direction> {
    if bounds.bottom() <= viewport.y {
        Some(Direction::Up)
    } else if bounds.y >= viewport.bottom() {
        Some(Direction::Down)
    } else if bounds.right() <= viewport.x {
        Some(Direction::Left)
    } else if bounds.x >= viewport.right() {
        Some(Direction::Right)
    } else {
        None
    }
}

/// Calls `visit(child, parent)` for every item the compact text would show
/// among `children` of `parent`: hoisted wrappers are flattened and skipped
/// nodes left out. Clipping is up to the caller.
pub fn for_each_item<'a>(
    parent: Option<&'a Node>,
    children: &'a [Node],
    visit: &mut dyn FnMut(&'a Node, Option<&'a Node>),
) {
    for_each_item_in(parent, children, false, visit);
}

/// [`for_each_item`]; with `flat` (the web, D16) as
/// [`prune_folding_in`] counts a sole text.
pub fn for_each_item_in<'a>(
    parent: Option<&'a Node>,
    children: &'a [Node],
    flat: bool,
    visit: &mut dyn FnMut(&'a Node, Option<&'a Node>),
) {
    walk_items(
        parent,
        children,
        item_count(parent, children, flat),
        (Viewport::Applied, flat),
        visit,
    );
}

fn walk_items<'a>(
    parent: Option<&'a Node>,
    children: &'a [Node],
    siblings: usize,
    (viewport, flat): (Viewport, bool),
    visit: &mut dyn FnMut(&'a Node, Option<&'a Node>),
) {
    for (i, child) in children.iter().enumerate() {
        if labels_neighbour(children, i) {
            continue;
        }
        if is_hoisted(child, parent)
            || (siblings == 1 && is_parent_again(child, parent))
            || wraps_itself(child)
        {
            // The promoted children keep the container as their parent; the
            // sibling count of the redundant-text rule is the wrapper's.
            // With `flat`, the container's count of items holds.
            let inner = if flat {
                siblings
            } else {
                sibling_count(&child.children)
            };
            walk_items(parent, &child.children, inner, (viewport, flat), visit);
        } else if !is_skipped(child, parent, siblings, viewport) {
            visit(child, parent);
        }
    }
}

/// Prunes a node that survived hoisting and skipping, below a viewport.
pub fn prune_kept(node: &Node, viewport: Option<Rect>) -> Pruned<'_> {
    prune_kept_folding(node, viewport, true, false)
}

/// [`prune_kept`]; with `flat` as [`prune_folding_in`].
pub fn prune_kept_in(node: &Node, viewport: Option<Rect>, flat: bool) -> Pruned<'_> {
    prune_kept_folding(node, viewport, true, flat)
}

fn prune_kept_folding(
    node: &Node,
    viewport: Option<Rect>,
    folding: bool,
    flat: bool,
) -> Pruned<'_> {
    let inner = child_viewport(node, viewport);
    let mut children = Vec::new();
    let mut clipped = Clipped::default();
    let mut fold = Fold::of(node, folding);
    for_each_item_in(Some(node), &node.children, flat, &mut |child, _| {
        let dir = inner
            .zip(child.bounds)
            .and_then(|(v, b)| clip_direction(&b, &v));
        match dir {
            Some(d) => clipped.add(d, 1),
            None => {
                let kept = prune_kept_folding(child, inner, folding, flat);
                if !fold.takes(&kept) && !is_empty_container(&kept) {
                    children.push(kept);
                }
            }
        }
    });
    collapse(node, children, clipped, fold.folded(), flat)
}

/// D20: an unnamed container left with nothing below its line (no child
/// kept, hidden or folded), without a meaningful action, a value or a
/// state, says nothing, and is left out: Firefox's empty toolbar and its
/// empty alert region, Thunderbird's spacers in its toolbar's list, each a
/// bare line (`[e32] tlbr`, `[e16] li`). Not a list, table, grid, tree or
/// tab list: an empty one says there is nothing in it (no result found), and
/// one that manages its items may hold none on screen (a note then names
/// it: scroll it, or use find).
fn is_empty_container(p: &Pruned<'_>) -> bool {
    let n = p.node;
    p.children.is_empty()
        && p.clipped.total() == 0
        && p.folded.items == 0
        && n.name.trim().is_empty()
        && n.value.as_deref().is_none_or(str::is_empty)
        && n.states.is_empty()
        && !n.has_meaningful_action()
        && (is_structural(n.role)
            || matches!(
                n.role,
                Role::Toolbar
                    | Role::MenuBar
                    | Role::Menu
                    | Role::Row
                    | Role::ListItem
                    | Role::Alert
                    | Role::Group
                    | Role::Generic
            ))
}

/// `true` for a node off screen without bounds: no place on screen at all
/// (D13).
pub fn is_placeless(node: &Node) -> bool {
    node.bounds.is_none() && node.has_state(State::Offscreen)
}

/// The action that opens `node` when it is a closed container (D13): a
/// menu, menu item or combobox, or a node that can `expand` or is
/// `collapsed`, that is not `expanded`. `expand` when it has it, else
/// `click`; `None` when it is not a closed container or offers neither.
/// A tab not selected whose content has no place on screen at all (GTK's
/// notebook pages, held by their tab: GIMP's docks) is one too, opened by
/// `select` (else `click`); and a button holding only menu items without
/// a place on screen (the popup menu of LibreOffice's sidebar "Menu"
/// button), opened by `click`.
pub fn opener(node: &Node) -> Option<Action> {
    if is_closed_tab(node) {
        return [Action::Select, Action::Click]
            .into_iter()
            .find(|a| node.actions.contains(a));
    }
    if is_closed_menu_button(node) {
        return node
            .actions
            .contains(&Action::Click)
            .then_some(Action::Click);
    }
    let container = matches!(node.role, Role::Menu | Role::MenuItem | Role::Combobox)
        || node.actions.contains(&Action::Expand)
        || node.has_state(State::Collapsed);
    if !container || node.has_state(State::Expanded) {
        return None;
    }
    [Action::Expand, Action::Click]
        .into_iter()
        .find(|a| node.actions.contains(a))
}

/// A tab, not selected, holding content none of which has a place on
/// screen: the page of a notebook tab not shown.
fn is_closed_tab(node: &Node) -> bool {
    node.role == Role::Tab
        && !node.has_state(State::Selected)
        && holds_only_placeless(node, |_| true)
}

/// A button, not expanded, holding only menu parts none of which has a
/// place on screen: its popup menu, closed.
fn is_closed_menu_button(node: &Node) -> bool {
    node.role == Role::Button
        && !node.has_state(State::Expanded)
        && holds_only_placeless(node, |c| {
            matches!(
                c.role,
                Role::MenuItem
                    | Role::MenuItemCheckbox
                    | Role::MenuItemRadio
                    | Role::Menu
                    | Role::Separator
            )
        })
}

/// Whether `node` has children, every one of them `of` the kind asked and
/// without a place on screen ([`is_placeless`]).
fn holds_only_placeless(node: &Node, of: impl Fn(&Node) -> bool) -> bool {
    !node.children.is_empty() && node.children.iter().all(|c| of(c) && is_placeless(c))
}

/// Which children of one node fold (D13), and how many did.
struct Fold {
    /// `None`: nothing folds below this node; else the opening action, as
    /// in [`Folded::open`].
    mode: Option<Option<Action>>,
    items: usize,
}

impl Fold {
    fn of(node: &Node, folding: bool) -> Fold {
        if !folding {
            return Fold {
                mode: None,
                items: 0,
            };
        }
        let mode = match opener(node) {
            Some(action) => Some(Some(action)),
            // A list, table, grid or tree keeps only its items with a
            // place on screen: GTK 4 gives the items it has not laid out
            // no bounds (Nautilus's 500 files: 12 on screen, 488 counted).
            None => (is_placeless(node)
                || matches!(
                    node.role,
                    Role::List | Role::Table | Role::Grid | Role::Tree
                ))
            .then_some(None),
        };
        Fold { mode, items: 0 }
    }

    /// Counts `child` as folded when nothing of it has a place on screen:
    /// the child is off screen without bounds, unfocused, and shows no
    /// children and no clip hint of its own (its content, placeless too,
    /// was folded below it already).
    fn takes(&mut self, child: &Pruned<'_>) -> bool {
        let folds = self.mode.is_some()
            && is_placeless(child.node)
            && !child.node.has_state(State::Focused)
            && child.children.is_empty()
            && child.clipped.total() == 0;
        if folds {
            self.items += 1;
        }
        folds
    }

    fn folded(&self) -> Folded {
        Folded {
            items: self.items,
            open: self.mode.flatten(),
        }
    }
}

/// The kept node with its kept children, or its only child in its place
/// when it is an unnamed structural wrapper with nothing hidden; with
/// `flat` (the web, D18) also a list item, cell, row header, generic or
/// group that does not act and only holds one line, unnamed or named as
/// that line is.
fn collapse<'a>(
    node: &'a Node,
    mut children: Vec<Pruned<'a>>,
    clipped: Clipped,
    folded: Folded,
    flat: bool,
) -> Pruned<'a> {
    let holder = |only: &Pruned<'_>| {
        flat && matches!(
            node.role,
            Role::ListItem | Role::Cell | Role::RowHeader | Role::Generic | Role::Group
        ) && only.children.is_empty()
            && only.node.role != node.role
            && (node.name.is_empty() || same_words(&node.name, &only.node.name))
            && node.states.iter().all(|s| only.node.states.contains(s))
    };
    if children.len() == 1
        && clipped.total() == 0
        && folded.items == 0
        && !node.has_meaningful_action()
        && ((node.name.is_empty() && is_structural(node.role)) || holder(&children[0]))
    {
        if let Some(only) = children.pop() {
            return only;
        }
    }
    Pruned {
        node,
        children,
        clipped,
        folded,
        budget_cut: 0,
        budget_offset: None,
        joined: None,
        name_below: false,
    }
}
