//! The tree handed back: each node's raw facts mapped to CUP, ids in
//! pre-order, refs kept.

use super::details::Details;
use super::*;

fn raw_node(s: &Skel, d: &Details) -> RawNode {
    let mut raw = RawNode::new(s.role);
    raw.name = s.name.clone();
    raw.description = s.description.clone();
    raw.states = s.states;
    raw.interfaces = s.interfaces;
    raw.extents = d.extents.filter(|_| s.offset != UNPLACED).map(|e| {
        if e.is_unplaced() {
            return e;
        }
        Extents {
            x: e.x.saturating_add(i32::try_from(s.offset.0).unwrap_or(0)),
            y: e.y.saturating_add(i32::try_from(s.offset.1).unwrap_or(0)),
            ..e
        }
    });
    raw.action_names = d.actions.clone();
    raw.value = d.value.clone();
    raw.text = d.text.clone();
    raw.attributes = d.attributes.clone();
    raw.parent_selectable = s.parent_selectable;
    raw.bus_name = s.obj.bus.clone();
    raw.path = s.obj.path.clone();
    raw.toolkit = s.toolkit.clone();
    raw.toolkit_version = s.toolkit_version.clone();
    raw
}

/// The raw facts of the subtree [`build`] maps, with the same ids (`next_id`
/// as `build` was given it).
pub(super) fn raw_tree(
    nodes: &[Skel],
    details: &[Details],
    i: usize,
    next_id: &mut usize,
) -> RawTree {
    let id = format!("e{next_id}");
    *next_id += 1;
    RawTree {
        id,
        raw: raw_node(&nodes[i], &details[i]),
        children: shown_children(nodes, details, i)
            .into_iter()
            .map(|c| raw_tree(nodes, details, c, next_id))
            .collect(),
    }
}

pub(super) fn build(
    nodes: &[Skel],
    details: &[Details],
    i: usize,
    ctx: &MapContext,
    next_id: &mut usize,
    refs: &mut HashMap<String, String>,
) -> Node {
    let id = format!("e{next_id}");
    *next_id += 1;
    refs.insert(id.clone(), nodes[i].obj.key());
    let mut node = mapping::map_node(&raw_node(&nodes[i], &details[i]), ctx).into_node(id);
    if nodes[i].labelled && !node.name.is_empty() {
        if let Some(linux) = node.platform.linux.as_mut() {
            linux
                .extra
                .insert(mapping::NAME_FROM.to_owned(), "label".into());
        }
    }
    let shown = shown_children(nodes, details, i);
    let empty = nodes[i].children.len() - shown.len();
    node.children = shown
        .into_iter()
        .map(|c| build(nodes, details, c, ctx, next_id, refs))
        .collect();
    name_only_child(&mut node);
    text_over_tooltip(&mut node);
    name_check_cells(&mut node);
    // GTK's page tab holds its whole page: a tab with controls below it
    // is not named by them (GIMP's Fonts tab came out as "Rescan the
    // installed fonts", its only button).
    let page_tab = node.role == cup_protocol::Role::Tab
        && node.children.iter().any(|c| {
            c.iter()
                .any(|d| mapping::kinds::is_interactive(d.role) || !d.actions.is_empty())
        });
    if node.name.is_empty() && !page_tab && mapping::kinds::names_from_content(node.role) {
        node.name = mapping::text::name_from_content(&node.children);
        if !node.name.is_empty() {
            if let Some(linux) = node.platform.linux.as_mut() {
                linux
                    .extra
                    .insert(mapping::NAME_FROM.to_owned(), "content".into());
            }
        }
    }
    if let Some(shown) = nodes[i].shown.as_ref().filter(|s| s.said()) {
        node.platform
            .linux
            .get_or_insert_with(Default::default)
            .extra
            .insert(MANAGED.to_owned(), shown.describe(empty).into());
    }
    if let Some(value) = mapping::text::value_from_selection(&node) {
        node.value = Some(value);
    }
    node
}

/// The children of node `i` that are captured: all of them, except a
/// managed table's empty cells, which say nothing an address does not
/// (the focused or selected one stays). Left out before ids are given, so
/// ids stay without gaps.
fn shown_children(nodes: &[Skel], details: &[Details], i: usize) -> Vec<usize> {
    let table = nodes[i]
        .shown
        .as_ref()
        .is_some_and(managed::Shown::is_table);
    nodes[i]
        .children
        .iter()
        .copied()
        .filter(|&c| {
            // A container cell (GTK's row of renderers) holds its text
            // in its children.
            !table
                || !nodes[c].children.is_empty()
                || details[c].timed_out
                || !managed::is_empty_cell(
                    nodes[c].role,
                    &nodes[c].name,
                    details[c].text.as_deref(),
                    nodes[c].states,
                    &details[c].actions,
                )
        })
        .collect()
}

/// A table's nameless check-box cells (GTK's toggle renderer: no text, a
/// `toggle` action) are named by the header of their column, the label a
/// person reads above them (`nameFrom` "header"): gtk3-widget-factory's
/// tree view ticks its rows in a column headed "Cool". The column is the
/// header whose span holds the cell's middle.
fn name_check_cells(node: &mut Node) {
    use cup_protocol::{Action, Role};
    let headers: Vec<(i64, i64, String)> = node
        .children
        .iter()
        .filter(|c| c.role == Role::ColumnHeader && !c.name.is_empty())
        .filter_map(|c| {
            let b = c.bounds?;
            let right = b.x.saturating_add(i64::try_from(b.w).ok()?);
            Some((b.x, right, c.name.clone()))
        })
        .collect();
    if headers.is_empty() {
        return;
    }
    for cell in node.children.iter_mut().filter(|c| {
        c.role == Role::Cell && c.name.is_empty() && c.actions.contains(&Action::Toggle)
    }) {
        let Some(b) = cell.bounds else { continue };
        let middle = b.x.saturating_add(i64::try_from(b.w / 2).unwrap_or(0));
        if let Some((_, _, name)) = headers.iter().find(|(l, r, _)| (*l..*r).contains(&middle)) {
            cell.name.clone_from(name);
            if let Some(linux) = cell.platform.linux.as_mut() {
                linux
                    .extra
                    .insert(mapping::NAME_FROM.to_owned(), "header".into());
            }
        }
    }
}

/// An item of a list, tree or tab bar named from its tooltip whose
/// content shows a text is named by that text, what a person reads on
/// it: Nautilus's sidebar row "Home" (its tooltip, "Open your personal
/// folder", stays its description).
fn text_over_tooltip(node: &mut Node) {
    use cup_protocol::Role;
    let Some(linux) = node.platform.linux.as_mut() else {
        return;
    };
    let from_tooltip = linux
        .extra
        .get(mapping::NAME_FROM)
        .is_some_and(|v| v == "description");
    if !from_tooltip
        || !matches!(
            node.role,
            Role::Option | Role::Row | Role::TreeItem | Role::Tab | Role::ListItem
        )
    {
        return;
    }
    let shown = mapping::text::name_from_content(&node.children);
    if shown.is_empty() {
        return;
    }
    linux
        .extra
        .insert(mapping::NAME_FROM.to_owned(), "content".into());
    let tooltip = std::mem::replace(&mut node.name, shown);
    if node.description.is_none() {
        node.description = Some(tooltip);
    }
}

/// A nameless control that is the only child of a wrapper takes the
/// wrapper's name, or the first line of its description: LibreOffice puts
/// a sidebar button's tooltip ("Properties (Ctrl+Alt+1)") on the panel
/// around it and leaves the button unnamed.
fn name_only_child(node: &mut Node) {
    if node.children.len() != 1 || mapping::kinds::is_interactive(node.role) {
        return;
    }
    let child = &node.children[0];
    if !child.name.is_empty() || !mapping::kinds::is_interactive(child.role) {
        return;
    }
    let label = if node.name.is_empty() {
        node.description
            .as_deref()
            .and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty()))
            .map(|l| mapping::text::cap(l, mapping::text::NAME_MAX))
            .unwrap_or_default()
    } else {
        node.name.clone()
    };
    if label.is_empty() {
        return;
    }
    let child = &mut node.children[0];
    child.name = label;
    if let Some(linux) = child.platform.linux.as_mut() {
        linux
            .extra
            .insert(mapping::NAME_FROM.to_owned(), "parent".into());
    }
}

/// The `platform.linux` key on a container that manages its descendants:
/// what was read of it and how to reach the rest (the capture's notes
/// repeat it with the container's id).
pub(super) const MANAGED: &str = "managesDescendants";

/// One note per container that manages its descendants, in tree order.
pub(super) fn managed_notes(tree: &[Node], notes: &mut Vec<String>) {
    for n in tree {
        let said = n.platform.linux.as_ref().and_then(|l| l.extra.get(MANAGED));
        if let Some(said) = said.and_then(serde_json::Value::as_str) {
            let name = if n.name.is_empty() {
                String::new()
            } else {
                format!(" \"{}\"", n.name)
            };
            notes.push(format!("[{}] {}{name} {said}", n.id, n.role.name()));
        }
        managed_notes(&n.children, notes);
    }
}

/// One note per document that shows only part of its content: the
/// toolkit exposes only what is on screen (LibreOffice Writer's
/// paragraphs), and its vertical scroll bar, a sibling, says there is
/// more. The note says where the view is and how to read the rest.
pub(super) fn scrolled_notes(tree: &[Node], notes: &mut Vec<String>) {
    for n in tree {
        let bar = n.children.iter().find_map(|c| {
            let a = &c.attributes;
            let vertical = a.orientation == Some(cup_protocol::Orientation::Vertical);
            match (c.role, vertical, a.value_min, a.value_max, a.value_now) {
                (cup_protocol::Role::ScrollBar, true, Some(min), Some(max), Some(now))
                    if max > min =>
                {
                    Some(((now - min) / (max - min)).clamp(0.0, 1.0))
                }
                _ => None,
            }
        });
        if let Some(at) = bar {
            for doc in n
                .children
                .iter()
                .filter(|c| c.role == cup_protocol::Role::Document)
            {
                let name = if doc.name.is_empty() {
                    String::new()
                } else {
                    format!(" \"{}\"", doc.name)
                };
                let way = match at {
                    a if a <= 0.0 => "scroll it down",
                    a if a >= 1.0 => "scroll it up",
                    _ => "scroll it up or down",
                };
                notes.push(format!(
                    "[{}] document{name} shows only what is on screen ({:.0}% of the way down): {way} to read the rest",
                    doc.id,
                    at * 100.0
                ));
            }
        }
        scrolled_notes(&n.children, notes);
    }
}

pub(super) fn window_without_tree(target: &Target, next_id: &mut usize) -> Node {
    let mut n = Node::new(
        format!("e{next_id}"),
        cup_protocol::Role::Window,
        target.title.clone(),
    );
    *next_id += 1;
    n.bounds = target.rect;
    n
}

#[cfg(test)]
mod tests {
    use cup_protocol::{Node, Orientation, Role};

    fn bar(now: f64, max: f64) -> Node {
        let mut b = Node::new("e9", Role::ScrollBar, "Vertical scroll bar");
        b.attributes.orientation = Some(Orientation::Vertical);
        b.attributes.value_min = Some(0.0);
        b.attributes.value_max = Some(max);
        b.attributes.value_now = Some(now);
        b
    }

    fn pane(scroll: Node) -> Vec<Node> {
        let mut pane = Node::new("e1", Role::Group, "");
        pane.children = vec![
            Node::new("e2", Role::Document, "long - LibreOffice Document"),
            scroll,
        ];
        vec![pane]
    }

    #[test]
    fn a_check_box_cell_is_named_by_its_column_header() {
        use cup_protocol::{Action, Rect};
        let at = |x: i64, w: u64| Some(Rect { x, y: 0, w, h: 20 });
        let mut table = Node::new("e0", Role::Table, "");
        let mut cool = Node::new("e1", Role::ColumnHeader, "Cool");
        cool.bounds = at(1082, 46);
        let mut name = Node::new("e2", Role::ColumnHeader, "Name");
        name.bounds = at(1172, 74);
        let mut tick = Node::new("e3", Role::Cell, "");
        tick.bounds = at(1084, 42);
        tick.actions = vec![Action::Toggle];
        tick.platform.linux = Some(Default::default());
        let mut text = Node::new("e4", Role::Cell, "");
        text.bounds = at(1174, 70);
        let mut elsewhere = tick.clone();
        elsewhere.bounds = at(1400, 20);
        table.children = vec![cool, name, tick, text, elsewhere];
        super::name_check_cells(&mut table);
        let names: Vec<&str> = table.children.iter().map(|c| c.name.as_str()).collect();
        // Only the check box under a header; a text cell is not a check box.
        assert_eq!(names, ["Cool", "Name", "Cool", "", ""]);
        let from = table.children[2]
            .platform
            .linux
            .as_ref()
            .and_then(|l| l.extra.get(crate::mapping::NAME_FROM));
        assert_eq!(from.and_then(|v| v.as_str()), Some("header"));
    }

    #[test]
    fn a_list_item_shows_its_text_not_its_tooltip() {
        use cup_protocol::node::{PlatformData, PlatformLinux};
        // Nautilus 43's sidebar: the row has no name, only a tooltip.
        let mut row = Node::new("e1", Role::Option, "Open your personal folder");
        let mut linux = PlatformLinux::default();
        linux
            .extra
            .insert(crate::mapping::NAME_FROM.to_owned(), "description".into());
        row.platform = PlatformData {
            linux: Some(linux),
            ..PlatformData::default()
        };
        row.children = vec![Node::new("e2", Role::Text, "Home")];
        let mut button = row.clone();
        button.role = Role::Button;
        super::text_over_tooltip(&mut row);
        assert_eq!(row.name, "Home");
        assert_eq!(
            row.description.as_deref(),
            Some("Open your personal folder")
        );
        // A button keeps the name its tooltip gave (VLC's player).
        super::text_over_tooltip(&mut button);
        assert_eq!(button.name, "Open your personal folder");
    }

    #[test]
    fn a_document_with_more_below_says_so() {
        let mut notes = Vec::new();
        super::scrolled_notes(&pane(bar(0.0, 411_212.0)), &mut notes);
        assert_eq!(
            notes,
            ["[e2] document \"long - LibreOffice Document\" shows only what is on screen (0% of the way down): scroll it down to read the rest"]
        );
        let mut notes = Vec::new();
        super::scrolled_notes(&pane(bar(205_606.0, 411_212.0)), &mut notes);
        assert!(
            notes[0].contains("(50% of the way down): scroll it up or down"),
            "{notes:?}"
        );
        // All of it on screen: nothing to say.
        let mut notes = Vec::new();
        super::scrolled_notes(&pane(bar(0.0, 0.0)), &mut notes);
        assert!(notes.is_empty());
    }
}
