//! The compact text of an envelope: header, indented node lines, fold lines
//! (D13), clip hints and the character cap.

use std::fmt::Write as _;

use crate::compact::budget::{self, TokenBudget};
use crate::compact::line::{push_line_as, LineStyle};
use crate::compact::prune::{prune_folding_in, Clipped, Detail, Folded, Pruned};
use crate::compact::runs::{join_text_runs, name_from_lines_below};
use crate::compact::text::{self, WINDOW_TITLE_MAX};
use crate::envelope::{Envelope, PlatformId, Screen, WindowInfo};
use crate::node::Node;
use crate::vocab::Direction;

/// Default cap on the compact text, in characters.
pub const MAX_OUTPUT_CHARS: usize = 40_000;

/// Title shown for a window without one.
pub const UNTITLED: &str = "(untitled)";

/// Options of [`render`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// Pruning level.
    pub detail: Detail,
    /// Cap in characters, hint included; `0` means no cap.
    pub max_chars: usize,
    /// Extra header lines (without `# `), e.g. a note that a capture is
    /// partial; printed after the node count.
    pub notes: Vec<String>,
    /// Bounds on the lines of actionable nodes, as the spec puts them
    /// (default); `false` leaves them out for agents that act by id only.
    pub bounds: bool,
    /// A budget in tokens (`max_tokens`): lines are kept by need until it
    /// is spent (see [`crate::compact::budget`]); `max_chars` then does
    /// not apply.
    pub tokens: Option<TokenBudget>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            detail: Detail::Compact,
            max_chars: MAX_OUTPUT_CHARS,
            notes: Vec::new(),
            bounds: true,
            tokens: None,
        }
    }
}

/// Renders `env` as compact text. The window list of `env.windows` (if any)
/// goes into the header.
pub fn render(env: &Envelope, opts: &RenderOptions) -> String {
    render_folding(env, opts, true)
}

/// [`render`] with D13's folding or without it (as before D13): what the
/// benchmark compares to say what folding saves.
pub fn render_folding(env: &Envelope, opts: &RenderOptions, fold: bool) -> String {
    let screen = (opts.detail == Detail::Compact).then(|| env.screen.rect());
    let joins = joins_runs(env) && opts.detail != Detail::Full;
    let mut pruned = prune_folding_in(&env.tree, opts.detail, screen, fold, joins);
    if joins {
        join_text_runs(&mut pruned);
    }
    if opts.detail != Detail::Full {
        name_from_lines_below(&mut pruned);
    }
    let style = LineStyle {
        no_bounds: !opts.bounds,
        ..line_style(opts.detail)
    };
    let write = |pruned: &[Pruned<'_>]| {
        let shown: usize = pruned.iter().map(Pruned::len).sum();
        let mut out = String::with_capacity(64 + shown * 48);
        push_header(&mut out, env, shown, env.node_count(), &opts.notes);
        out.push('\n');
        let body_start = out.len();
        let mut line_starts = Vec::with_capacity(shown);
        for p in pruned {
            push_pruned(&mut out, p, 0, style, &mut line_starts);
        }
        (out, body_start, line_starts)
    };
    if let Some(tokens) = opts.tokens {
        return render_to_tokens(env, opts, pruned, style, joins, screen, tokens);
    }
    let (mut out, mut body_start, mut line_starts) = write(&pruned);
    if opts.max_chars > 0 {
        let over = out.chars().count().saturating_sub(opts.max_chars);
        if over > 0 && fit_budget(&mut pruned, over + BUDGET_SLACK, style, joins) {
            // A name said by lines the budget left out is shown again.
            if opts.detail != Detail::Full {
                name_from_lines_below(&mut pruned);
            }
            (out, body_start, line_starts) = write(&pruned);
        }
        cap(&mut out, opts.max_chars, body_start, &line_starts);
    }
    out
}

/// [`render_folding`] within a token budget: lines kept by need (see
/// [`budget::fit`]).
fn render_to_tokens(
    env: &Envelope,
    opts: &RenderOptions,
    mut pruned: Vec<Pruned<'_>>,
    style: LineStyle,
    joins: bool,
    screen: Option<crate::node::Rect>,
    tokens: TokenBudget,
) -> String {
    // The viewport that ranks lines: the screen's, at every detail.
    let viewport = screen.or_else(|| Some(env.screen.rect()));
    let mut line = String::new();
    let mut line_cost = |p: &Pruned<'_>, depth: usize| {
        line.clear();
        push_own_line(&mut line, p, depth, style);
        push_hints(&mut line, p, depth);
        (tokens.count)(&line)
    };
    let mut write = |pruned: &[Pruned<'_>], dropped: Option<budget::Dropped>| {
        let mut notes = opts.notes.clone();
        let mut pruned = pruned.to_vec();
        if let Some(dropped) = dropped {
            notes.push(budget::budget_note(tokens, dropped));
            // A name said by lines the budget left out is shown again.
            if opts.detail != Detail::Full {
                name_from_lines_below(&mut pruned);
            }
        }
        let shown: usize = pruned.iter().map(Pruned::len).sum();
        let mut out = String::with_capacity(64 + shown * 48);
        push_header(&mut out, env, shown, env.node_count(), &notes);
        out.push('\n');
        for p in &pruned {
            push_pruned(&mut out, p, 0, style, &mut Vec::new());
        }
        out
    };
    budget::fit(
        &mut pruned,
        tokens,
        viewport,
        joins,
        &mut line_cost,
        &mut write,
    )
    .0
}

/// Whether adjacent text runs of one block are joined into one line (D16):
/// on the web, where a browser splits a paragraph into a text node per
/// inline run.
pub(crate) fn joins_runs(env: &Envelope) -> bool {
    env.platform == PlatformId::Web
}

/// How lines look at `detail` (D16: `page` shows whole names and says
/// `offscreen` only where it matters to acting).
pub(crate) fn line_style(detail: Detail) -> LineStyle {
    if detail == Detail::Page {
        LineStyle::PAGE
    } else {
        LineStyle::SPEC
    }
}

/// Items a container keeps when the character budget leaves out the rest.
pub const BUDGET_KEEP: usize = 10;
/// Characters asked of [`fit_budget`] beyond the excess: the header's
/// node count shrinks and the fold line is added.
const BUDGET_SLACK: usize = 200;

/// The characters of `p`'s lines at `depth` (children and hint lines
/// included).
fn text_len(p: &Pruned<'_>, depth: usize, style: LineStyle) -> usize {
    let mut out = String::new();
    push_pruned(&mut out, p, depth, style, &mut Vec::new());
    out.chars().count()
}

/// Makes room for `need` characters by leaving out the last items of the
/// containers with the longest lists of items (a sheet's cells, a list of
/// 500 files, a page's paragraphs), largest first, each keeping at least
/// [`BUDGET_KEEP`]: what comes after them in the tree (toolbars, a status
/// bar) stays, where cutting the text at its end would drop it. Each such
/// container says how many items it left out and where `page` shows them.
/// `true` when anything was left out.
/// `style` and `joins` are the render's (D16).
pub fn fit_budget(pruned: &mut [Pruned<'_>], need: usize, style: LineStyle, joins: bool) -> bool {
    // Every container with more than BUDGET_KEEP children, by its path
    // of child indexes, with the characters of its items past the kept.
    fn candidates(
        p: &Pruned<'_>,
        depth: usize,
        style: LineStyle,
        path: &mut Vec<usize>,
        out: &mut Vec<(Vec<usize>, usize, Vec<usize>)>,
    ) {
        if p.children.len() > BUDGET_KEEP {
            let sizes: Vec<usize> = p
                .children
                .iter()
                .map(|c| text_len(c, depth + 1, style))
                .collect();
            let spare: usize = sizes[BUDGET_KEEP..].iter().sum();
            out.push((path.clone(), spare, sizes));
        }
        for (i, c) in p.children.iter().enumerate() {
            path.push(i);
            candidates(c, depth + 1, style, path, out);
            path.pop();
        }
    }
    fn at<'p, 'a>(roots: &'p mut [Pruned<'a>], path: &[usize]) -> &'p mut Pruned<'a> {
        let (first, rest) = path.split_first().expect("a path names a root");
        let mut node = &mut roots[*first];
        for &i in rest {
            node = &mut node.children[i];
        }
        node
    }
    let mut found = Vec::new();
    for (i, r) in pruned.iter().enumerate() {
        candidates(r, 0, style, &mut vec![i], &mut found);
    }
    // Deepest containers first among equals would change nothing: the
    // largest lists go first, and a container inside one already cut is
    // left alone (its own path may be gone).
    found.sort_by_key(|c| std::cmp::Reverse(c.1));
    let mut freed = 0usize;
    let mut cut_paths: Vec<Vec<usize>> = Vec::new();
    for (path, _, sizes) in found {
        if freed >= need {
            break;
        }
        if cut_paths
            .iter()
            .any(|c| path.starts_with(c) || c.starts_with(&path))
        {
            continue;
        }
        let node = at(pruned, &path);
        let mut keep = sizes.len();
        while keep > BUDGET_KEEP && freed < need {
            keep -= 1;
            freed += sizes[keep];
        }
        let cut = node.children.len() - keep;
        if cut > 0 {
            // Where `page` finds the first item left out: its index among
            // the container's items as `page` counts them.
            let first = node.children[keep].node.id.clone();
            node.budget_offset =
                Some(budget::page_offset(node.node, &first, joins).unwrap_or(keep));
            node.children.truncate(keep);
            node.budget_cut = cut;
            cut_paths.push(path);
        }
    }
    !cut_paths.is_empty()
}

/// Writes the `# CUP ...` header lines (without the blank line after them).
pub fn push_header(out: &mut String, env: &Envelope, shown: usize, total: usize, notes: &[String]) {
    push_title_line(out, &env.version, env.platform.name(), &env.screen);
    if let Some(name) = env
        .app
        .as_ref()
        .and_then(|a| a.name.as_deref())
        .filter(|n| !n.is_empty())
    {
        out.push_str("# app: ");
        text::push_plain(out, name);
        out.push('\n');
    }
    let _ = writeln!(out, "# {shown} nodes ({total} before pruning)");
    for note in notes {
        out.push_str("# ");
        text::push_plain(out, note);
        out.push('\n');
    }
    if let Some(tools) = env.tools.as_ref().filter(|t| !t.is_empty()) {
        let k = tools.len();
        let _ = writeln!(
            out,
            "# {k} WebMCP tool{} available",
            if k == 1 { "" } else { "s" }
        );
    }
    if let Some(windows) = env.windows.as_ref().filter(|w| !w.is_empty()) {
        push_window_list(out, windows);
    }
}

/// `# CUP {version} | {platform} | {w}x{h}`.
pub fn push_title_line(out: &mut String, version: &str, platform: &str, screen: &Screen) {
    out.push_str("# CUP ");
    text::push_plain(out, version);
    let _ = writeln!(out, " | {platform} | {}x{}", screen.w, screen.h);
}

fn push_window_list(out: &mut String, windows: &[WindowInfo]) {
    let _ = writeln!(out, "# --- {} open windows ---", windows.len());
    for w in windows {
        out.push_str("#   ");
        if w.title.is_empty() {
            out.push_str(UNTITLED);
        } else {
            text::push_plain(out, text::cut(&w.title, WINDOW_TITLE_MAX).0);
        }
        if w.foreground {
            out.push_str(" [fg]");
        }
        out.push('\n');
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

pub(crate) fn push_pruned(
    out: &mut String,
    p: &Pruned<'_>,
    depth: usize,
    style: LineStyle,
    line_starts: &mut Vec<usize>,
) {
    line_starts.push(out.len());
    push_own_line(out, p, depth, style);
    for child in &p.children {
        push_pruned(out, child, depth + 1, style, line_starts);
    }
    push_hints(out, p, depth);
}

/// `p`'s own line, indented for `depth`.
fn push_own_line(out: &mut String, p: &Pruned<'_>, depth: usize, style: LineStyle) {
    indent(out, depth);
    let name = match &p.joined {
        Some(joined) => joined.as_str(),
        None if p.name_below => "",
        None => &p.node.name,
    };
    push_line_as(out, p.node, name, style);
    out.push('\n');
}

/// The hint lines after `p`'s children: folded, clipped and budget lines.
fn push_hints(out: &mut String, p: &Pruned<'_>, depth: usize) {
    if p.folded.items > 0 {
        indent(out, depth + 1);
        push_fold_line(out, p.node, &p.folded);
        out.push('\n');
    }
    if p.clipped.total() > 0 {
        indent(out, depth + 1);
        push_clip_hint(out, &p.node.id, &p.clipped);
        out.push('\n');
    }
    if p.budget_cut > 0 {
        indent(out, depth + 1);
        push_budget_line(out, &p.node.id, p.budget_offset, p.budget_cut);
        out.push('\n');
    }
}

/// The line after a container whose last items the character budget left
/// out ([`fit_budget`]):
///
/// ```text
/// # 612 more items left out to fit the budget — page(element_id='e802', offset=300)
/// ```
pub fn push_budget_line(out: &mut String, id: &str, offset: Option<usize>, cut: usize) {
    let s = if cut == 1 { "" } else { "s" };
    match offset {
        Some(offset) => {
            let _ = write!(
                out,
                "# {cut} more item{s} left out to fit the budget — page(element_id='{id}', offset={offset})"
            );
        }
        None => {
            let _ = write!(
                out,
                "# {cut} more item{s} left out to fit the budget — find(name=...) gets them"
            );
        }
    }
}

/// The word a clip hint uses for a direction.
pub fn direction_word(dir: Direction) -> &'static str {
    match dir {
        Direction::Up => "above",
        Direction::Down => "below",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

/// `# 3 more items — 1 above: page(element_id='e0', direction='up'); ...`
pub fn push_clip_hint(out: &mut String, id: &str, clipped: &Clipped) {
    let total = clipped.total();
    let _ = write!(
        out,
        "# {total} more item{} —",
        if total == 1 { "" } else { "s" }
    );
    let mut first = true;
    for dir in Direction::ALL {
        let n = clipped.get(dir);
        if n == 0 {
            continue;
        }
        out.push_str(if first { " " } else { "; " });
        first = false;
        let _ = write!(
            out,
            "{n} {}: page(element_id='{id}', direction='{dir}')",
            direction_word(dir)
        );
    }
}

/// The fold line of D13, for the items of `container` that have no place
/// on screen:
///
/// ```text
/// # 12 items in closed menu e17: click to open
/// # 3 offscreen items without bounds under e40 — detail='full' shows them
/// ```
pub fn push_fold_line(out: &mut String, container: &Node, folded: &Folded) {
    let n = folded.items;
    let id = &container.id;
    match folded.open {
        Some(action) => {
            // Short: it is read on every snapshot, once per closed menu
            // (10 tokens fewer than the tool-call form, which an agent
            // does not need to act on the id just before it).
            let _ = write!(
                out,
                "# {n} item{} in closed {} {id}: {action} to open",
                if n == 1 { "" } else { "s" },
                container.role
            );
        }
        None => {
            let _ = write!(
                out,
                "# {n} offscreen item{} without bounds under {id} — detail='full' shows {}",
                if n == 1 { "" } else { "s" },
                if n == 1 { "it" } else { "them" }
            );
        }
    }
}

/// First line of the truncation notice.
pub const TRUNCATION_MARK: &str = "# OUTPUT TRUNCATED";

/// Cuts `out` to at most `max_chars` characters, notice included, at a line
/// boundary. The header (everything before byte `body_start`) is never cut,
/// even when it alone exceeds the cap.
pub fn cap(out: &mut String, max_chars: usize, body_start: usize, line_starts: &[usize]) {
    if out.len() <= max_chars || out.chars().count() <= max_chars {
        return;
    }
    let total = line_starts.len();
    let notice = |kept: usize| {
        format!(
            "\n{TRUNCATION_MARK} — showing {kept} of {total} nodes (limit {max_chars} characters).\n\
             # Use find(name=...) to locate specific elements instead.\n\
             # Or use snapshot_app(app='<title>') to target a specific window.\n"
        )
    };
    // The notice is longest with the most digits; reserve for that.
    let reserve = notice(total).chars().count();
    let budget = max_chars.saturating_sub(reserve);
    let byte_limit = out.char_indices().nth(budget).map_or(out.len(), |(i, _)| i);
    let cut_at = out[..byte_limit]
        .rfind('\n')
        .map_or(0, |i| i + 1)
        .max(body_start);
    let kept = line_starts.partition_point(|&s| s < cut_at);
    out.truncate(cut_at);
    out.push_str(&notice(kept));
}
