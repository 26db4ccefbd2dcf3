//! Rows scrolled off screen in a list, tree or tree table.
//!
//! A list widget that keeps a window of rows (Thunderbird's message list
//! keeps 55 of a folder's 200, 42 of them below the screen, each a row of
//! 12 nodes) says which are on screen: the toolkit drops SHOWING from a
//! row scrolled away while it stays VISIBLE. Such a row is read itself —
//! its name, states, bounds and actions, so the compact text counts it
//! below the list's fold and `page` lists it — but what it holds is not:
//! its cells, labels and buttons keep the names and roles the structure
//! gave them, without bounds, actions or text. On Thunderbird's Inbox that
//! is 462 of 762 nodes, about 1,250 of 2,095 reads. A snapshot after the
//! list is scrolled reads the rows then on screen whole.
//!
//! Only widget lists count (a list box, a tree, a tree table): a page's
//! tables and lists below the fold stay whole, as the page detail reads
//! them. A toolkit that never says SHOWING (GTK 4, read top-down by
//! [`super::unallocated`]) has no row that qualifies: its list is not
//! SHOWING either.

use crate::facts::{AtspiRole, AtspiState, StateSet};

/// Whether `row`, a child of a `container` of role `role` and states
/// `container_states`, is a row scrolled off screen: the container is a
/// widget list on screen, and the row is visible but not on screen.
pub(super) fn scrolled_away(role: AtspiRole, container_states: StateSet, row: StateSet) -> bool {
    matches!(
        role,
        AtspiRole::ListBox | AtspiRole::Tree | AtspiRole::TreeTable
    ) && container_states.contains(AtspiState::Showing)
        && row.contains(AtspiState::Visible)
        && !row.contains(AtspiState::Showing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_visible_row_off_screen_in_a_list_on_screen_is_away() {
        let on = StateSet::new(AtspiState::Visible | AtspiState::Showing);
        let off = StateSet::new(AtspiState::Visible);
        for role in [AtspiRole::TreeTable, AtspiRole::Tree, AtspiRole::ListBox] {
            assert!(scrolled_away(role, on, off), "{role:?}");
            assert!(!scrolled_away(role, on, on), "{role:?}: on screen");
        }
    }

    #[test]
    fn lists_off_screen_pages_and_silent_toolkits_keep_their_rows() {
        let on = StateSet::new(AtspiState::Visible | AtspiState::Showing);
        let off = StateSet::new(AtspiState::Visible);
        // The list itself is off screen (or its toolkit never says
        // SHOWING, as GTK 4).
        assert!(!scrolled_away(AtspiRole::TreeTable, off, off));
        // A page's table and list below the fold.
        assert!(!scrolled_away(AtspiRole::Table, on, off));
        assert!(!scrolled_away(AtspiRole::List, on, off));
        // A row neither visible nor showing is left out elsewhere.
        assert!(!scrolled_away(AtspiRole::ListBox, on, StateSet::empty()));
    }
}
