//! LibreOffice's own widgets, placed where they are drawn.
//!
//! LibreOffice 7.4 with its GTK 3 plugin (what Debian 12 and OSWorld run)
//! draws its toolbars, rulers, documents and sheets itself (VCL), inside a
//! GTK window whose menu bar is GTK's. VCL places its widgets from the
//! window's top, not from below that menu bar: every one of them says it
//! is the menu bar's height (25 px) higher than where it is drawn. Writer's
//! "New" button said 61,52 44x35 and is drawn at 61,77; its centre fell on
//! the menu bar, over "File". The widgets LibreOffice builds with GTK (the
//! sidebar's, the text box of a toolbar's combo box, dialogs) are placed
//! right, even inside VCL's.
//!
//! The shift shows in the tree: VCL's root pane says it lies at its GTK
//! container's size but not at its place. Under such a root, a node GTK
//! made says so in its attributes (`toolkit: gtk`); VCL's say nothing of
//! it. VCL's nodes are moved by the shift, those with only VCL's above
//! them up to the root: what GTK placed is right, and so is what VCL
//! draws inside a GTK widget (Impress's slide layouts in the sidebar).
//! Whether a node is GTK's is read once per object (kept with its other
//! static facts); a sheet's cells and a document's paragraphs are placed
//! as their table or document is, and are not asked.

use std::collections::HashMap;

use futures::stream::{self, StreamExt};
use tokio::time::{timeout_at, Instant};

use super::details::Details;
use super::statics::Statics;
use super::{Skel, CONCURRENCY};
use crate::atspi_calls::{self as calls, ObjRef};
use crate::facts::{AtspiRole, Extents};
use crate::peers::Links;

/// Who made a node under a shifted root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Maker {
    Vcl,
    Gtk,
    /// Placed as its parent is (see [`placed_as_parent`]).
    AsParent,
    /// To be asked.
    Ask,
}

impl Maker {
    fn of(vcl: bool) -> Maker {
        if vcl {
            Maker::Vcl
        } else {
            Maker::Gtk
        }
    }
}

/// The shift of a VCL root pane's content: its GTK container's place less
/// its own, when both have the same size and a place (VCL's root pane
/// fills its container); `None` when it lies where it should.
pub(super) fn shift(container: Extents, root: Extents) -> Option<(i32, i32)> {
    if container.is_unplaced() || root.is_unplaced() {
        return None;
    }
    if (container.w, container.h) != (root.w, root.h) || container.w <= 0 || container.h <= 0 {
        return None;
    }
    let d = (
        container.x.checked_sub(root.x)?,
        container.y.checked_sub(root.y)?,
    );
    (d != (0, 0)).then_some(d)
}

/// Whether a node under a shifted root is placed by VCL from the window's
/// top (so it is to be moved): `own` is whether VCL made it, `above`
/// whether its parent is so placed; `None` when not known. Only VCL's
/// widgets all the way up to the root are: a GTK widget is placed right,
/// and so is whatever VCL draws inside one (Impress's slide layouts, a
/// VCL list in a GTK sidebar panel, said where they are drawn).
pub(super) fn shifted(own: Option<bool>, above: Option<bool>, root: bool) -> Option<bool> {
    if root {
        return Some(true);
    }
    match (own, above) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

/// `e` moved by `d`.
pub(super) fn moved(e: Extents, d: (i32, i32)) -> Extents {
    Extents {
        x: e.x.saturating_add(d.0),
        y: e.y.saturating_add(d.1),
        ..e
    }
}

/// `true` for the attributes of a node GTK made (LibreOffice's own say
/// nothing of a toolkit).
pub(super) fn made_by_gtk(attributes: &HashMap<String, String>) -> bool {
    attributes
        .get("toolkit")
        .is_some_and(|t| t.eq_ignore_ascii_case("gtk"))
}

/// The extents read of node `i`.
fn extents(details: &[Details], i: usize) -> Option<Extents> {
    details.get(i).and_then(|d| d.extents)
}

/// `true` when the children of a node of `role` are placed as it is: a
/// table's cells, a document's paragraphs and shapes.
fn placed_as_parent(role: AtspiRole) -> bool {
    matches!(
        role,
        AtspiRole::Table
            | AtspiRole::TableCell
            | AtspiRole::DocumentText
            | AtspiRole::DocumentSpreadsheet
            | AtspiRole::DocumentPresentation
            | AtspiRole::DocumentFrame
            | AtspiRole::Paragraph
            | AtspiRole::Heading
            | AtspiRole::Ruler
    )
}

/// Moves the extents of LibreOffice's VCL-drawn nodes to where they are
/// drawn (see the module). Reads the attributes of the nodes under a
/// shifted root whose maker is not known yet, at once, by `deadline`; a
/// node whose answer did not come is left where it said (and asked again
/// next time).
pub(super) async fn put_right(
    links: &Links,
    statics: &Statics,
    nodes: &[Skel],
    details: &mut [Details],
    deadline: Instant,
) {
    // Most captures have no root pane: the parent is looked for only
    // when there is one.
    let roots: Vec<(usize, (i32, i32))> = (0..nodes.len())
        .filter(|&i| nodes[i].role == AtspiRole::RootPane && Statics::keeps(&nodes[i].toolkit))
        .filter_map(|i| {
            let p = nodes.iter().position(|n| n.children.contains(&i))?;
            Some((i, shift(extents(details, p)?, extents(details, i)?)?))
        })
        .collect();
    for (root, d) in roots {
        // Top-down, parents first: each node, its parent and its maker.
        let mut order: Vec<(usize, usize, Maker)> = Vec::new();
        let mut stack = vec![(root, root)];
        while let Some((i, p)) = stack.pop() {
            let m = if i == root {
                Maker::Vcl
            } else if placed_as_parent(nodes[p].role) {
                Maker::AsParent
            } else if let Some(gtk) = statics.get(&nodes[i].obj).made_by_gtk {
                Maker::of(!gtk)
            } else if !details[i].attributes.is_empty() {
                Maker::of(!made_by_gtk(&details[i].attributes))
            } else {
                Maker::Ask
            };
            order.push((i, p, m));
            // What GTK placed is right, and so is what is placed inside
            // it (see `shifted`): nothing below to move or ask.
            if m != Maker::Gtk {
                stack.extend(nodes[i].children.iter().rev().map(|&c| (c, i)));
            }
        }
        // Only a node with a place needs its maker, or one whose children
        // are placed as it is.
        let ask: Vec<(usize, ObjRef)> = order
            .iter()
            .enumerate()
            .filter(|(_, &(i, _, m))| {
                m == Maker::Ask
                    && (extents(details, i).is_some_and(|e| !e.is_unplaced())
                        || placed_as_parent(nodes[i].role))
            })
            .map(|(k, &(i, _, _))| (k, nodes[i].obj.clone()))
            .collect();
        let asked = ask.len();
        let began = Instant::now();
        let answers: Vec<(usize, Option<bool>)> =
            stream::iter(ask.into_iter().map(|(k, obj)| async move {
                let conn = links.to(&obj.bus);
                let attrs = timeout_at(deadline, calls::attributes(&conn, &obj))
                    .await
                    .ok()
                    .and_then(Result::ok);
                let gtk = attrs.map(|a| made_by_gtk(&a));
                if let Some(gtk) = gtk {
                    statics.put_made_by_gtk(&obj, gtk);
                }
                (k, gtk)
            }))
            .buffer_unordered(CONCURRENCY)
            .collect()
            .await;
        for (k, gtk) in answers {
            if let (Some(gtk), Some(entry)) = (gtk, order.get_mut(k)) {
                entry.2 = Maker::of(!gtk);
            }
        }
        // Whether each node is placed from the window's top, parents
        // first; then those that are move.
        let mut from_top: HashMap<usize, bool> = HashMap::new();
        let mut moved_count = 0usize;
        for &(i, p, m) in &order {
            let above = from_top.get(&p).copied();
            let own = match m {
                Maker::Vcl => Some(true),
                Maker::Gtk => Some(false),
                Maker::AsParent => above,
                Maker::Ask => None,
            };
            let Some(placed) = shifted(own, above, i == root) else {
                continue;
            };
            from_top.insert(i, placed);
            if let Some(e) = details[i].extents.filter(|e| placed && !e.is_unplaced()) {
                details[i].extents = Some(moved(e, d));
                moved_count += 1;
            }
        }
        tracing::debug!(
            dx = d.0,
            dy = d.1,
            moved = moved_count,
            asked,
            asked_ms = began.elapsed().as_secs_f64() * 1e3,
            "VCL's widgets moved to where they are drawn"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(x: i32, y: i32, w: i32, h: i32) -> Extents {
        Extents { x, y, w, h }
    }

    #[test]
    fn a_root_pane_above_its_container_gives_the_shift() {
        // Writer: the GTK box under the menu bar, and VCL's root pane.
        assert_eq!(
            shift(ext(57, 75, 1805, 955), ext(57, 50, 1805, 955)),
            Some((0, 25))
        );
        // In place, or another size: nothing to move.
        assert_eq!(shift(ext(57, 75, 1805, 955), ext(57, 75, 1805, 955)), None);
        assert_eq!(shift(ext(57, 75, 1805, 955), ext(57, 50, 1805, 980)), None);
        assert_eq!(
            shift(ext(i32::MIN, i32::MIN, 1805, 955), ext(57, 50, 1805, 955)),
            None
        );
        assert_eq!(shift(ext(0, 0, 0, 0), ext(5, 5, 0, 0)), None);
    }

    #[test]
    fn only_vcl_all_the_way_up_is_moved() {
        assert_eq!(shifted(None, None, true), Some(true));
        // A VCL toolbar under the root pane, its VCL button.
        assert_eq!(shifted(Some(true), Some(true), false), Some(true));
        // A GTK text box in a VCL toolbar item: right as it is.
        assert_eq!(shifted(Some(false), Some(true), false), Some(false));
        // A VCL list inside a GTK sidebar panel: right as it is.
        assert_eq!(shifted(Some(true), Some(false), false), Some(false));
        // Not known: left where it said.
        assert_eq!(shifted(None, Some(true), false), None);
        assert_eq!(shifted(Some(true), None, false), None);
    }

    #[test]
    fn moving_keeps_the_size() {
        assert_eq!(moved(ext(61, 52, 44, 35), (0, 25)), ext(61, 77, 44, 35));
        assert_eq!(
            moved(ext(i32::MAX - 1, 0, 1, 1), (5, 0)),
            ext(i32::MAX, 0, 1, 1)
        );
    }

    #[test]
    fn gtk_says_it_made_a_node() {
        let gtk: HashMap<String, String> = [("toolkit".to_owned(), "gtk".to_owned())].into();
        let vcl: HashMap<String, String> = [("page-number".to_owned(), "1".to_owned())].into();
        assert!(made_by_gtk(&gtk));
        assert!(!made_by_gtk(&vcl));
        assert!(!made_by_gtk(&HashMap::new()));
    }
}
