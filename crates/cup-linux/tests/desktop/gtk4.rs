//! GTK4 (gtk4-demo): window-relative extents turned into screen
//! coordinates, GTK4's state quirks.

use crate::support::{complete_snapshot, find, has, nodes, request, Desk};
use cup_protocol::{Role, Scope, State};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gtk4_demo_list_and_buttons() {
    let desk = Desk::start();
    let app = desk.launch("gtk4-demo", &[]);
    let mut session = desk.session();
    let snap = complete_snapshot(&mut session, &request(Scope::Foreground)).await;
    // Extents are asked window-relative: GTK 4 logs a warning for every
    // call that asks for screen coordinates (it has none). Only the very
    // first window listing, before the toolkit is known, may ask so.
    let log = std::fs::read_to_string(&app.log).unwrap_or_default();
    let warned = log.matches("Screen coordinates not supported").count();
    assert!(
        warned <= 1,
        "{warned} screen-coordinate warnings in {}",
        app.log.display()
    );

    let root = &snap.envelope.tree[0];
    assert_eq!(root.role, Role::Window);
    assert_eq!(root.name, "GTK Demo");
    // GTK4 reports no SHOWING and (before 4.10) SENSITIVE only after a
    // change: what is on screen must not come out offscreen or disabled.
    // Offscreen are only the widgets GTK 4 did not allocate (rows scrolled
    // out of the list, hidden tab pages): no bounds.
    let all = nodes(&snap);
    let screen = cup_protocol::Rect::new(0, 0, 1920, 1080);
    for n in &all {
        if let Some(b) = n.bounds {
            let on_screen = !b.intersect(&screen).is_empty();
            assert_eq!(has(n, State::Offscreen), !on_screen, "{} {:?}", n.id, n);
        }
    }
    assert!(!has(root, State::Disabled));
    let shown_rows = all
        .iter()
        .filter(|n| n.role == Role::Option && n.bounds.is_some() && !has(n, State::Offscreen))
        .count();
    let hidden_rows = all
        .iter()
        .filter(|n| n.role == Role::Option && n.bounds.is_none() && has(n, State::Offscreen))
        .count();
    assert!(shown_rows >= 10, "{shown_rows} rows shown\n{}", snap.text);
    assert!(
        hidden_rows >= 10,
        "{hidden_rows} rows scrolled away\n{}",
        snap.text
    );
    // The content of a row GTK 4 did not allocate is offscreen too (its
    // extents are inherited, not read) and pruned from the compact text.
    let cursors: Vec<_> = all
        .iter()
        .filter(|n| n.role == Role::Group && n.name == "Cursors")
        .collect();
    assert!(!cursors.is_empty(), "{}", snap.text);
    assert!(cursors.iter().all(|n| has(n, State::Offscreen)));
    assert!(!snap.text.contains("grp \"Cursors\""), "{}", snap.text);
    // GTK 4 leaves its list rows unnamed (the label is in a child): each
    // row is named from its content, so a scrolled-away row still says
    // which demo it is.
    let unnamed: Vec<_> = all
        .iter()
        .filter(|n| n.role == Role::Option && n.name.is_empty())
        .collect();
    assert!(
        unnamed.is_empty(),
        "unnamed rows {unnamed:?}\n{}",
        snap.text
    );
    // In the compact text, the rows without a place on screen fold into
    // one line below their list (D13); `find` still reaches them.
    assert!(!snap.text.contains("opt \"Cursors\""), "{}", snap.text);
    assert!(
        snap.text.contains("offscreen items without bounds under"),
        "{}",
        snap.text
    );

    let list = find(&snap, Role::List, "Demo list");
    assert_eq!(list.len(), 1, "{}", snap.text);
    let demos: Vec<_> = all
        .iter()
        .filter(|n| n.role == Role::Group && n.name == "Builder")
        .collect();
    assert!(!demos.is_empty(), "{}", snap.text);
    let search = all
        .iter()
        .find(|n| n.role == Role::Button && n.name == "Search");
    assert!(search.is_some_and(|b| b.bounds.is_some()), "{}", snap.text);
    crate::support::assert_bounds_on_screen(&snap);
    assert!(snap.text.contains("lst \"Demo list\""), "{}", snap.text);
}
