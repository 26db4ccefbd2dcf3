//! What LibreOffice's tree says wrong, put right after it is mapped
//! (LibreOffice 7.4 with its GTK 3 plugin, the one Debian 12 and OSWorld
//! run):
//!
//! - **A ghost menu bar.** Beside the GTK menu bar a person uses, the
//!   window's own (VCL) menu bar stays in the tree, SHOWING, with the same
//!   menus at nearly the same places; its menus offer no action but
//!   `select`, and nothing of it is drawn. Kept, every menu would be
//!   listed twice (11 lines, about 230 tokens in each LibreOffice
//!   window) and an agent could pick the copy that does nothing.
//! - **The Name Box.** Calc's box for going to a cell by its address has
//!   no name, no description and no label relation; it is the first
//!   text box of the "Formula Tool Bar". It is named "Name Box" (the
//!   name LibreOffice's own help gives it), and `nameFrom` says `app`.

use cup_protocol::{Action, Node, Role};

use crate::mapping;

/// The toolbar that holds Calc's Name Box (English UI).
const FORMULA_BAR: &str = "Formula Tool Bar";

/// Puts right what LibreOffice's tree says wrong, in one window.
pub(super) fn put_right(window: &mut Node) {
    drop_ghost_menu_bars(window);
    name_the_name_box(window);
}

/// The names of a menu bar's menus, and whether any of them opens.
fn menus_of(bar: &Node) -> (Vec<&str>, bool) {
    let menus: Vec<&Node> = bar
        .children
        .iter()
        .filter(|c| matches!(c.role, Role::Menu | Role::MenuItem))
        .collect();
    let opens = menus.iter().any(|m| {
        m.actions
            .iter()
            .any(|a| matches!(a, Action::Click | Action::Expand))
    });
    (menus.iter().map(|m| m.name.as_str()).collect(), opens)
}

fn menu_bars<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
    for c in &n.children {
        if c.role == Role::MenuBar {
            out.push(c);
        } else {
            menu_bars(c, out);
        }
    }
}

/// Removes each menu bar none of whose menus opens when another menu bar
/// of the window has the same menus, and does open them.
fn drop_ghost_menu_bars(window: &mut Node) {
    let mut bars = Vec::new();
    menu_bars(window, &mut bars);
    let live: Vec<Vec<&str>> = bars
        .iter()
        .map(|b| menus_of(b))
        .filter(|(names, opens)| *opens && !names.is_empty())
        .map(|(names, _)| names)
        .collect();
    let ghosts: Vec<String> = bars
        .iter()
        .filter(|b| {
            let (names, opens) = menus_of(b);
            !opens && !names.is_empty() && live.contains(&names)
        })
        .map(|b| b.id.clone())
        .collect();
    if !ghosts.is_empty() {
        tracing::debug!(
            ?ghosts,
            "menu bars that only repeat the one in use left out"
        );
        remove(window, &ghosts);
    }
}

fn remove(n: &mut Node, ids: &[String]) {
    n.children.retain(|c| !ids.contains(&c.id));
    for c in &mut n.children {
        remove(c, ids);
    }
}

/// Names the first unnamed text box of Calc's formula toolbar.
fn name_the_name_box(n: &mut Node) {
    if n.role == Role::Toolbar && n.name == FORMULA_BAR {
        if let Some(b) = first_text_box(n).filter(|b| b.name.is_empty()) {
            b.name = "Name Box".to_owned();
            if let Some(linux) = b.platform.linux.as_mut() {
                linux
                    .extra
                    .insert(mapping::NAME_FROM.to_owned(), "app".into());
            }
        }
        return;
    }
    for c in &mut n.children {
        name_the_name_box(c);
    }
}

fn first_text_box(n: &mut Node) -> Option<&mut Node> {
    for c in &mut n.children {
        if c.role == Role::TextBox {
            return Some(c);
        }
        if let Some(b) = first_text_box(c) {
            return Some(b);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use cup_protocol::node::{PlatformData, PlatformLinux};
    use cup_protocol::{Action, Node, Role};

    fn menu(id: &str, name: &str, actions: &[Action]) -> Node {
        let mut m = Node::new(id, Role::Menu, name);
        m.actions = actions.to_vec();
        m
    }

    fn bar(id: &str, first: usize, actions: &[Action]) -> Node {
        let mut b = Node::new(id, Role::MenuBar, "");
        b.children = ["File", "Edit", "View"]
            .iter()
            .enumerate()
            .map(|(i, name)| menu(&format!("e{}", first + i), name, actions))
            .collect();
        b
    }

    /// Calc's window as LibreOffice 7.4 (GTK 3 plugin) gives it: the
    /// GTK menu bar, then the VCL one under the root pane.
    fn calc() -> Node {
        let mut w = Node::new("e0", Role::Window, "small.csv - LibreOffice Calc");
        let mut gtk = Node::new("e1", Role::Group, "");
        gtk.children = vec![bar("e2", 3, &[Action::Click, Action::Select])];
        let mut pane = Node::new("e6", Role::Generic, "small.csv - LibreOffice Calc");
        let mut formula = Node::new("e11", Role::Toolbar, super::FORMULA_BAR);
        let mut combo = Node::new("e12", Role::Group, "");
        let mut field = Node::new("e13", Role::TextBox, "");
        field.value = Some("A1".into());
        field.platform = PlatformData {
            linux: Some(PlatformLinux::default()),
            ..PlatformData::default()
        };
        combo.children = vec![field, Node::new("e14", Role::Button, "")];
        formula.children = vec![combo, Node::new("e15", Role::TextBox, "")];
        pane.children = vec![bar("e7", 8, &[Action::Select]), formula];
        w.children = vec![gtk, pane];
        w
    }

    fn ids(n: &Node, out: &mut Vec<String>) {
        out.push(n.id.clone());
        for c in &n.children {
            ids(c, out);
        }
    }

    #[test]
    fn the_ghost_menu_bar_goes_and_the_name_box_is_named() {
        let mut w = calc();
        super::put_right(&mut w);
        let mut all = Vec::new();
        ids(&w, &mut all);
        assert!(all.contains(&"e2".to_owned()), "{all:?}");
        assert!(
            !all.iter()
                .any(|i| ["e7", "e8", "e9", "e10"].contains(&i.as_str())),
            "{all:?}"
        );
        let pane = &w.children[1];
        let field = &pane.children[0].children[0].children[0];
        assert_eq!(field.name, "Name Box");
        assert_eq!(
            field
                .platform
                .linux
                .as_ref()
                .map(|l| &l.extra[crate::mapping::NAME_FROM]),
            Some(&serde_json::Value::from("app"))
        );
        // Only the first text box: the input line keeps its own.
        assert_eq!(pane.children[0].children[1].name, "");
    }

    #[test]
    fn a_menu_bar_of_its_own_or_the_only_one_stays() {
        // The only menu bar stays, even when its menus only select.
        let mut w = Node::new("e0", Role::Window, "w");
        w.children = vec![bar("e1", 2, &[Action::Select])];
        super::put_right(&mut w);
        assert_eq!(w.children.len(), 1);
        // Two menu bars with different menus both stay.
        let mut other = bar("e5", 6, &[Action::Select]);
        other.children[0].name = "Datei".into();
        let mut w = Node::new("e0", Role::Window, "w");
        w.children = vec![bar("e1", 2, &[Action::Click]), other];
        super::put_right(&mut w);
        assert_eq!(w.children.len(), 2);
        // A formula toolbar's named box keeps its name.
        let mut w = calc();
        w.children[1].children[1].children[0].children[0].name = "Position".into();
        super::put_right(&mut w);
        assert_eq!(
            w.children[1].children[0].children[0].children[0].name,
            "Position"
        );
    }
}
