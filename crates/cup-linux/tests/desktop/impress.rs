//! LibreOffice Impress (its GTK 3 front end) on the sandbox desktop: the
//! widgets LibreOffice draws itself are placed where they are drawn, and
//! so are those it draws inside GTK's (the sidebar's slide layouts).

use crate::support::{find, nodes, request, until, Desk, TempDir};
use cup_protocol::{Node, Rect, Role, Scope};

/// The node of `snap`'s tree whose children hold `child`.
fn parent_of<'a>(snap: &'a cup::Snapshot, child: &Node) -> Option<&'a Node> {
    nodes(snap)
        .into_iter()
        .find(|n| n.children.iter().any(|c| c.id == child.id))
}

fn bounds(n: Option<&Node>) -> Option<Rect> {
    n.and_then(|n| n.bounds)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn impress_places_toolbars_below_the_menu_bar_and_layouts_in_their_panel() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-impress");
    let _impress = desk.launch_office(&dir, "--impress", &[]);
    let mut session = desk.session();
    let req = request(Scope::Foreground);
    // Loaded: the toolbar's New, the File menu and the sidebar's layouts,
    // each with a place.
    let snap = until(
        &mut session,
        &req,
        "New, File and the Title Slide layout, placed",
        90,
        true,
        |s| {
            [
                (Role::Button, "New"),
                (Role::Menu, "File"),
                (Role::Option, "Title Slide"),
            ]
            .iter()
            .all(|(role, name)| find(s, *role, name).iter().any(|n| n.bounds.is_some()))
        },
    )
    .await;
    let placed = |role: Role, name: &str| {
        find(&snap, role, name)
            .into_iter()
            .find(|n| n.bounds.is_some())
            .unwrap_or_else(|| panic!("no {role:?} {name:?} with bounds:\n{}", snap.text))
    };

    // LibreOffice's own toolbar lies below GTK's menu bar (it said it lay
    // on it, the menu bar's height too high).
    let file = bounds(Some(placed(Role::Menu, "File")));
    let new = bounds(Some(placed(Role::Button, "New")));
    assert!(
        file.zip(new).is_some_and(|(f, n)| n.y >= f.bottom()),
        "New ({new:?}) below the menu bar (File: {file:?}):\n{}",
        snap.text
    );

    // The slide layouts: a list LibreOffice draws inside a GTK panel of
    // the sidebar, placed by its panel (not moved as the toolbars are).
    let layout = placed(Role::Option, "Title Slide");
    let list = parent_of(&snap, layout)
        .unwrap_or_else(|| panic!("no list holds Title Slide:\n{}", snap.text));
    let panel = parent_of(&snap, list);
    let (list_at, panel_at) = (bounds(Some(list)), bounds(panel));
    assert!(
        list_at
            .zip(panel_at)
            .is_some_and(|(l, p)| (l.x, l.y) == (p.x, p.y)),
        "the layouts ({list_at:?}) where their panel is ({panel_at:?}):\n{}",
        snap.text
    );
    let layout_at = bounds(Some(layout));
    assert!(
        layout_at
            .zip(list_at)
            .is_some_and(|(o, l)| o.y >= l.y && o.bottom() <= l.bottom()),
        "Title Slide ({layout_at:?}) inside its list ({list_at:?})"
    );
}
