//! GTK 2's menus: one read tells whether a menu is open.
//!
//! GTK 2 (GAIL, its toolkit name) says SHOWING of no item of a menu, open
//! or closed, so the capture cannot leave a closed menu's items out as it
//! does for GTK 3, Qt and LibreOffice ([`crate::mapping::in_closed_menu`]):
//! it read every item's extents and actions. An item of a closed menu is
//! not mapped, and GAIL answers its extents with the unplaced rectangle
//! (`i32::MIN`); an open menu's items all have their place. GIMP's menu
//! bar holds 667 such items in closed menus, two thirds of its window's
//! nodes: 1,334 of a snapshot's 1,852 reads.
//!
//! So the items of a GTK 2 menu wait (their reads are not queued) while
//! the structure is read; then the first item of each menu is asked for
//! its extents. Placed (or no answer): the menu is open, its items are
//! read as any node, and its submenus are asked next. Unplaced: the menu
//! is closed, and so is every menu under it; all their items take that
//! answer as their extents (what each would have answered) and their other
//! reads go out as usual (their actions, kept across captures).
//!
//! A menu opened and closed again keeps its places: GAIL answers them as
//! if it were still open. Where the display server tells which popup
//! windows are mapped (X11: [`super::Target::popups`]), a placed menu
//! whose first item lies in none of them is closed too.

use std::collections::{HashMap, HashSet};

use tokio::time::timeout_at;

use cup_protocol::Rect;

use super::{calls, is_gtk4, Walk, Want};
use crate::facts::{AtspiRole, Extents};

/// Probes the waiting menus, a level of submenus at a time (every menu of
/// a level at once), and queues their items' reads: see the module. An
/// item whose menu was never probed (the deadline came) is read as any.
pub(super) async fn probe(walk: &mut Walk<'_>) {
    let mut level = walk.menus.roots();
    while !level.is_empty() {
        let probes: Vec<(usize, usize)> = level
            .iter()
            .filter_map(|&m| walk.menus.probe(m).map(|c| (m, c)))
            .collect();
        let answers = futures::future::join_all(probes.iter().map(|&(_, c)| {
            let n = &walk.nodes[c];
            let conn = walk.links.to(&n.obj.bus);
            let obj = n.obj.clone();
            let coord = calls::coord_type(is_gtk4(n));
            let deadline = walk.deadline;
            async move {
                timeout_at(deadline, calls::extents(&conn, &obj, coord))
                    .await
                    .ok()
                    .and_then(Result::ok)
            }
        }))
        .await;
        walk.queued += probes.len();
        if let Some(n) = walk.by_kind.get_mut(Want::Extents as usize) {
            *n += probes.len();
        }
        level = Vec::new();
        for ((menu, first), answer) in probes.into_iter().zip(answers) {
            match answer {
                Some(e) if !is_open(e, walk.popups.as_deref()) => {
                    let closed = walk.menus.close(menu);
                    walk.closed_items += closed.len().saturating_sub(1);
                    for i in closed {
                        walk.accept_placed(i, unplaced(e));
                    }
                }
                _ => {
                    for i in walk.menus.open(menu) {
                        match answer {
                            Some(e) if i == first => walk.accept_placed(i, e),
                            _ => walk.accept(i),
                        }
                        if walk.menus.has_children(i) {
                            level.push(i);
                        }
                    }
                }
            }
        }
    }
    for i in walk.menus.drain() {
        walk.accept(i);
    }
}

/// Whether a menu whose first item answered `first` for its extents is
/// open: placed, and where the popup windows mapped now are known
/// (`popups`), inside one of them. GAIL goes on answering the places a
/// menu's items had after the menu closed (File opened, then closed with
/// Escape), and says SHOWING of none of them either way: only the popup
/// window, unmapped, tells.
fn is_open(first: Extents, popups: Option<&[Rect]>) -> bool {
    if first.is_unplaced() {
        return false;
    }
    let Some(popups) = popups else {
        return true;
    };
    let size = |v: i32| u64::try_from(v).unwrap_or(0);
    let (x, y) = Rect::new(
        i64::from(first.x),
        i64::from(first.y),
        size(first.w),
        size(first.h),
    )
    .center();
    popups
        .iter()
        .any(|r| x >= r.x && y >= r.y && x < r.right() && y < r.bottom())
}

/// What an item of a closed menu is given as its extents: unplaced, its
/// size kept (what GAIL answers once the menu was never opened).
fn unplaced(answer: Extents) -> Extents {
    Extents {
        x: i32::MIN,
        y: i32::MIN,
        ..answer
    }
}

/// Whether the children of a node of role `parent` wait for the menu's
/// probe: the parent is a menu of a GTK 2 app (toolkit `toolkit`, version
/// `version`), or itself waits.
pub(super) fn waits(parent: AtspiRole, parent_waits: bool, toolkit: &str, version: &str) -> bool {
    parent_waits || (parent == AtspiRole::Menu && crate::facts::is_gtk2(toolkit, version))
}

/// The nodes (indexes) that wait, by the node they wait under.
#[derive(Debug, Default)]
pub(super) struct Holds {
    /// Children waiting, in order, by parent.
    by_parent: HashMap<usize, Vec<usize>>,
    /// Every node that waits.
    held: HashSet<usize>,
}

impl Holds {
    /// Node `child` of `parent` waits.
    pub(super) fn hold(&mut self, parent: usize, child: usize) {
        self.by_parent.entry(parent).or_default().push(child);
        self.held.insert(child);
    }

    /// Whether node `i` waits.
    pub(super) fn is_held(&self, i: usize) -> bool {
        self.held.contains(&i)
    }

    /// Whether nothing waits.
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// The menus to probe first: those with waiting children that do not
    /// wait themselves (a menu bar's menus), in index order.
    pub(super) fn roots(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .by_parent
            .keys()
            .copied()
            .filter(|p| !self.held.contains(p))
            .collect();
        out.sort_unstable();
        out
    }

    /// The first waiting child of `menu`: its probe.
    pub(super) fn probe(&self, menu: usize) -> Option<usize> {
        self.by_parent.get(&menu).and_then(|c| c.first().copied())
    }

    /// The waiting children of an open `menu`, which no longer wait (their
    /// own children still do, until their menu is probed).
    pub(super) fn open(&mut self, menu: usize) -> Vec<usize> {
        let children = self.by_parent.remove(&menu).unwrap_or_default();
        for c in &children {
            self.held.remove(c);
        }
        children
    }

    /// Every node waiting under a closed `menu`, at any depth, in pre-order;
    /// none waits any more.
    pub(super) fn close(&mut self, menu: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack: Vec<usize> = self
            .by_parent
            .remove(&menu)
            .unwrap_or_default()
            .into_iter()
            .rev()
            .collect();
        while let Some(i) = stack.pop() {
            self.held.remove(&i);
            out.push(i);
            if let Some(children) = self.by_parent.remove(&i) {
                stack.extend(children.into_iter().rev());
            }
        }
        out
    }

    /// Whether `menu` has waiting children (a submenu to probe next).
    pub(super) fn has_children(&self, menu: usize) -> bool {
        self.by_parent.contains_key(&menu)
    }

    /// Every node still waiting (one whose menu never got probed: past the
    /// deadline), in index order.
    pub(super) fn drain(&mut self) -> Vec<usize> {
        self.by_parent.clear();
        let mut out: Vec<usize> = self.held.drain().collect();
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placed_menu_is_open_only_inside_a_mapped_popup() {
        let at = |x, y| Extents {
            x,
            y,
            w: 314,
            h: 25,
        };
        // GIMP's File menu open: its popup window at 201,127 318x586.
        let file = [Rect::new(201, 127, 318, 586)];
        assert!(is_open(at(203, 130), Some(&file)));
        // Closed again: the same places answered, no popup mapped.
        assert!(!is_open(at(203, 130), Some(&[])));
        // Another popup (a submenu) elsewhere does not hold it.
        assert!(!is_open(
            at(203, 130),
            Some(&[Rect::new(520, 150, 200, 80)])
        ));
        // Without the display's word, a placed menu counts as open.
        assert!(is_open(at(203, 130), None));
        // Unplaced: closed, whatever the display says.
        let never = Extents {
            x: i32::MIN,
            y: i32::MIN,
            w: 1,
            h: 1,
        };
        assert!(!is_open(never, None));
        assert!(!is_open(never, Some(&file)));
        assert!(unplaced(at(203, 130)).is_unplaced());
        assert_eq!(unplaced(at(203, 130)).w, 314);
    }

    #[test]
    fn only_gtk2_menus_hold_their_items() {
        assert!(waits(AtspiRole::Menu, false, "GAIL", "2.24.33"));
        assert!(waits(AtspiRole::Menu, false, "gtk", "2.24.33"));
        assert!(!waits(AtspiRole::Menu, false, "gtk", "3.24.38"));
        assert!(!waits(AtspiRole::Menu, false, "Qt", "5.15.8"));
        assert!(!waits(AtspiRole::MenuBar, false, "GAIL", "2.24.33"));
        assert!(!waits(AtspiRole::MenuItem, false, "GAIL", "2.24.33"));
        // Under a waiting node, whatever it is.
        assert!(waits(AtspiRole::Panel, true, "gtk", "3.24.38"));
    }

    /// A menu bar (0) with File (1: items 2, 3 = submenu with 4, 5) and
    /// Edit (6: item 7).
    fn gimp_like() -> Holds {
        let mut h = Holds::default();
        h.hold(1, 2);
        h.hold(1, 3);
        h.hold(3, 4);
        h.hold(3, 5);
        h.hold(6, 7);
        h
    }

    #[test]
    fn the_menu_bars_menus_are_probed_first_by_their_first_item() {
        let h = gimp_like();
        assert_eq!(h.roots(), vec![1, 6]);
        assert_eq!(h.probe(1), Some(2));
        assert_eq!(h.probe(6), Some(7));
        assert!(h.is_held(4) && !h.is_held(1));
    }

    #[test]
    fn a_closed_menu_closes_its_submenus() {
        let mut h = gimp_like();
        assert_eq!(h.close(1), vec![2, 3, 4, 5]);
        assert_eq!(h.roots(), vec![6]);
        assert_eq!(h.close(6), vec![7]);
        assert!(h.is_empty());
        assert!(h.drain().is_empty());
    }

    #[test]
    fn an_open_menu_releases_its_items_and_its_submenus_wait() {
        let mut h = gimp_like();
        assert_eq!(h.open(1), vec![2, 3]);
        assert!(!h.is_held(3) && h.is_held(4));
        assert!(h.has_children(3) && !h.has_children(2));
        assert_eq!(h.probe(3), Some(4));
        assert_eq!(h.roots(), vec![3, 6]);
        assert_eq!(h.drain(), vec![4, 5, 7]);
        assert!(h.is_empty());
    }
}
