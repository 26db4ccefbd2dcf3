//! Paging through the children of a container whose viewport hides some of
//! them, without scrolling the real UI: the items come from the captured
//! tree.
//!
//! ```text
//! # page e0 | items 6-10 of 20 | lst "Items"
//!
//! [e6] li "Item 6"
//! ...
//!
//! # 10 more — page(element_id='e0', direction='down')
//! # 5 before — page(element_id='e0', direction='up')
//! ```

use std::fmt::Write as _;

use crate::compact::line::LineStyle;
use crate::compact::prune::{
    child_viewport, clip_direction, for_each_item_in, prune_kept_in, Clipped,
};
use crate::compact::render::{cap, joins_runs, push_pruned, MAX_OUTPUT_CHARS};
use crate::compact::runs::join_text_runs;
use crate::compact::text::{self, NAME_MAX};
use crate::envelope::Envelope;
use crate::node::{Node, Rect};
use crate::vocab::{Action, Direction};

/// Page size when neither a limit is given nor any item is visible.
pub const DEFAULT_PAGE_SIZE: usize = 20;

/// What to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRequest {
    /// Move forward (`down`/`right`) or back (`up`/`left`) from the previous
    /// page of this container, or start past the visible items.
    pub direction: Option<Direction>,
    /// Zero-based index of the first item; wins over `direction`.
    pub offset: Option<usize>,
    /// Items per page; default: as many as are visible (or 20).
    pub limit: Option<usize>,
    /// Character cap of the text (`0` = none).
    pub max_chars: usize,
}

impl Default for PageRequest {
    fn default() -> Self {
        PageRequest {
            direction: None,
            offset: None,
            limit: None,
            max_chars: MAX_OUTPUT_CHARS,
        }
    }
}

/// A page of items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The compact text.
    pub text: String,
    /// Index of the first item shown (the cursor for the next call).
    pub offset: usize,
    /// Index after the last item shown.
    pub end: usize,
    /// Number of items of the container.
    pub total: usize,
}

/// Why a page cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PageError {
    /// No node has this id.
    #[error(
        "element '{0}' not found in the current snapshot; take a new snapshot and use an id from it"
    )]
    NotFound(String),
    /// The node has nothing to page through.
    #[error("element '{0}' has no child items to page through; page a container whose hint says 'more items'")]
    NoItems(String),
    /// The offset lies past the last item.
    #[error("offset {offset} is past the last item of '{id}' (it has {total}); use an offset below {total}")]
    OffsetOutOfRange {
        /// Container id.
        id: String,
        /// Requested offset.
        offset: usize,
        /// Item count.
        total: usize,
    },
}

/// Finds `id` and the viewport its children are clipped against.
fn locate<'a>(
    nodes: &'a [Node],
    id: &str,
    inherited: Option<Rect>,
) -> Option<(&'a Node, Option<Rect>)> {
    nodes.iter().find_map(|n| {
        let inner = child_viewport(n, inherited);
        if n.id == id {
            Some((n, inner))
        } else {
            locate(&n.children, id, inner)
        }
    })
}

/// One page of the items of container `id`. `cursor` is the offset of the
/// previous page of the same container in this snapshot, if any.
pub fn page(
    env: &Envelope,
    id: &str,
    req: &PageRequest,
    cursor: Option<usize>,
) -> Result<Page, PageError> {
    let (container, viewport) = locate(&env.tree, id, Some(env.screen.rect()))
        .ok_or_else(|| PageError::NotFound(id.to_owned()))?;

    let mut items: Vec<(&Node, Option<Direction>)> = Vec::new();
    let mut clipped = Clipped::default();
    let joins = joins_runs(env);
    for_each_item_in(
        Some(container),
        &container.children,
        joins,
        &mut |child, _| {
            let dir = viewport
                .zip(child.bounds)
                .and_then(|(v, b)| clip_direction(&b, &v));
            if let Some(d) = dir {
                clipped.add(d, 1);
            }
            items.push((child, dir));
        },
    );
    let total = items.len();
    if total == 0 {
        return Err(PageError::NoItems(id.to_owned()));
    }
    let visible = total - clipped.total();
    let size = req.limit.filter(|&l| l > 0).unwrap_or(if visible > 0 {
        visible
    } else {
        DEFAULT_PAGE_SIZE
    });
    let horizontal = clipped.left + clipped.right > clipped.up + clipped.down;
    let (forward, back) = if horizontal {
        (Direction::Right, Direction::Left)
    } else {
        (Direction::Down, Direction::Up)
    };

    // `up`/`left` go back, `down`/`right` forward, whatever the axis.
    let wants_back = matches!(req.direction, Some(Direction::Up | Direction::Left));
    let start = match (req.offset, req.direction, cursor) {
        (Some(offset), _, _) if offset >= total => {
            return Err(PageError::OffsetOutOfRange {
                id: id.to_owned(),
                offset,
                total,
            });
        }
        (Some(offset), _, _) => offset,
        (None, Some(_), Some(c)) if wants_back => c.saturating_sub(size),
        (None, Some(_), Some(c)) => (c + size)
            .min(total.saturating_sub(size))
            .max(c.min(total - 1)),
        (None, Some(_), None) if wants_back => {
            let after_last_back = items
                .iter()
                .rposition(|(_, d)| *d == Some(back))
                .map_or(0, |i| i + 1);
            after_last_back.saturating_sub(size)
        }
        // First call forward (or without direction): the first item past the
        // visible ones.
        _ => items
            .iter()
            .position(|(_, d)| *d == Some(forward))
            .or_else(|| items.iter().rposition(|(_, d)| d.is_none()).map(|i| i + 1))
            .unwrap_or(0)
            .min(total - 1),
    };
    let end = (start + size).min(total);

    let shown: Vec<&Node> = items[start..end].iter().map(|(n, _)| *n).collect();
    let out = render_page(
        container,
        &shown,
        start,
        total,
        (forward, back),
        req.max_chars,
        joins,
    );
    Ok(Page {
        text: out,
        offset: start,
        end,
        total,
    })
}

/// The text of one page: `shown` are the container's items `start`… of
/// `total`, with the hint lines for the items after (`forward`) and
/// before (`back`); cut to `max_chars` (`0`: no cap) at a line. With
/// `joins` (the web), each item's adjacent text runs of one block are one
/// line (D16).
pub fn render_page(
    container: &Node,
    shown: &[&Node],
    start: usize,
    total: usize,
    (forward, back): (Direction, Direction),
    max_chars: usize,
    joins: bool,
) -> String {
    let id = container.id.as_str();
    let end = (start + shown.len()).min(total);
    let mut out = String::new();
    let _ = write!(
        out,
        "# page {id} | items {}-{end} of {total} | {}",
        start + 1,
        container.role.code()
    );
    if !container.name.is_empty() {
        out.push_str(" \"");
        text::push_quoted_body(&mut out, &container.name, NAME_MAX, true);
        out.push('"');
    }
    out.push_str("\n\n");
    let body_start = out.len();
    let mut line_starts = Vec::new();
    for item in shown {
        let mut kept = [prune_kept_in(item, None, joins)];
        if joins {
            join_text_runs(&mut kept);
        }
        push_pruned(&mut out, &kept[0], 0, LineStyle::SPEC, &mut line_starts);
    }
    let remaining = total - end;
    if remaining > 0 || start > 0 || container.actions.contains(&Action::Scroll) {
        out.push('\n');
    }
    if remaining > 0 {
        let _ = writeln!(
            out,
            "# {remaining} more — page(element_id='{id}', direction='{forward}')"
        );
    } else if container.actions.contains(&Action::Scroll) {
        let _ = writeln!(
            out,
            "# last item of the captured tree; the app may load more when scrolled: \
             action(element_id='{id}', action='scroll', direction='{forward}') then snapshot()"
        );
    }
    if start > 0 {
        let _ = writeln!(
            out,
            "# {start} before — page(element_id='{id}', direction='{back}')"
        );
    }
    if max_chars > 0 {
        cap(&mut out, max_chars, body_start, &line_starts);
    }
    out
}
