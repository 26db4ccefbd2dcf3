//! GTK4 (gtk4-demo): window-relative extents turned into screen
//! coordinates, GTK4's state quirks.

use crate::support::{find, has, nodes, request, snapshot, Desk};
use cup_protocol::{Role, Scope, State};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gtk4_demo_list_and_buttons() {
    let desk = Desk::start();
    desk.launch("gtk4-demo", &[]);
    let mut session = desk.session();
    let snap = snapshot(&mut session, &request(Scope::Foreground)).await;

    let root = &snap.envelope.tree[0];
    assert_eq!(root.role, Role::Window);
    assert_eq!(root.name, "GTK Demo");
    // GTK4 reports no SHOWING and (before 4.10) SENSITIVE only after a
    // change: nothing visible may come out offscreen or disabled wholesale.
    let all = nodes(&snap);
    let offscreen = all.iter().filter(|n| has(n, State::Offscreen)).count();
    assert!(
        offscreen * 2 < all.len(),
        "{offscreen} of {} offscreen",
        all.len()
    );
    assert!(!has(root, State::Disabled));

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
