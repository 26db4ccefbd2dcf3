//! LibreOffice Calc (its GTK 3 front end) on the sandbox desktop, with a
//! sheet of 100,000 filled cells. The sheet manages its descendants (it
//! counts 2,147,483,647 children and creates each one it is asked for):
//! cup reads only the cells on screen, and asks for them once per 12 s at
//! most (LibreOffice keeps every cell object it makes), and the actions of
//! a Calc task work
//! by their observed effect: go to a cell through the Name Box, type a
//! value and a formula, read the computed value back, select a range.

use std::time::Instant;

use crate::support::{complete_snapshot, find, nodes, rss_mib, until, Desk, TempDir};
use cup::{ActionParams, Effect, Session, Snapshot, SnapshotRequest};
use cup_protocol::{Node, Role, Scope, State};

const ROWS: usize = 5_000;
const COLUMNS: usize = 20;

fn cell<'a>(snap: &'a Snapshot, address: &str) -> Option<&'a Node> {
    find(snap, Role::Cell, address).into_iter().next()
}

/// The Name Box, found by its name: LibreOffice 7.4 gives it none, cup
/// names it (the first text box of the "Formula Tool Bar") and says so.
fn name_box(snap: &Snapshot) -> String {
    let found = find(snap, Role::TextBox, "Name Box");
    let nb = found
        .first()
        .unwrap_or_else(|| panic!("no text box named Name Box:\n{}", snap.text));
    let from = nb
        .platform
        .linux
        .as_ref()
        .and_then(|l| l.extra.get("nameFrom"))
        .and_then(|v| v.as_str());
    assert_eq!(from, Some("app"), "{nb:?}");
    nb.id.clone()
}

/// Goes to `address` (a cell or a range) through the Name Box: typed
/// into it (which gives it the keyboard), then Enter.
async fn go_to(session: &mut Session, snap: &Snapshot, address: &str) {
    let nb = name_box(snap);
    let params = ActionParams {
        value: Some(address.into()),
        ..ActionParams::default()
    };
    let set = session
        .action(&nb, "type", &params)
        .await
        .unwrap_or_else(|e| panic!("type {address}: {e}"));
    assert!(set.success, "{set:?}");
    let enter = session
        .press("enter")
        .await
        .unwrap_or_else(|e| panic!("enter: {e}"));
    assert!(enter.success, "{enter:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calc_reads_the_cells_on_screen_without_harm_and_acts() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-calc");
    let csv = dir.path().join("big.csv");
    let mut data = String::with_capacity(ROWS * COLUMNS * 7);
    for r in 0..ROWS {
        let row: Vec<String> = (0..COLUMNS)
            .map(|c| (r * COLUMNS + c).to_string())
            .collect();
        data.push_str(&row.join(","));
        data.push('\n');
    }
    std::fs::write(&csv, data).unwrap_or_else(|e| panic!("{}: {e}", csv.display()));
    let csv_arg = csv.display().to_string();
    let _calc = desk.launch_office(
        &dir,
        "--calc",
        &["--infilter=CSV:44,34,76,1", csv_arg.as_str()],
    );
    let mut session = desk.session();
    let req = SnapshotRequest {
        scope: Scope::Foreground,
        ..SnapshotRequest::default()
    };
    // The document is loaded once its cells are on screen and its menu
    // bar is the window's (LibreOffice shows its own first, then GTK's).
    let snap = until(
        &mut session,
        &req,
        "cell B2 = 21 and the File menu",
        60,
        true,
        |s| {
            cell(s, "B2").is_some_and(|c| c.value.as_deref() == Some("21"))
                && find(s, Role::Menu, "File")
                    .iter()
                    .any(|m| m.actions.contains(&cup_protocol::Action::Click))
        },
    )
    .await;

    // Complete, and says how the sheet was read.
    assert!(
        !snap.text.contains("partial capture"),
        "the capture is complete:\n{}",
        snap.text
    );
    assert!(
        snap.notes
            .iter()
            .any(|n| n.contains("manages its 1048576×16384 cells: only those on screen were read")),
        "{:?}",
        snap.notes
    );
    // The cells on screen, with their addresses and values; none beyond.
    let cells: Vec<&Node> = nodes(&snap)
        .into_iter()
        .filter(|n| n.role == Role::Cell)
        .collect();
    assert!(
        (200..3_000).contains(&cells.len()),
        "{} cells read",
        cells.len()
    );
    assert!(
        cells.iter().all(|c| c.bounds.is_some()),
        "every cell has bounds"
    );
    assert_eq!(
        cell(&snap, "T10").and_then(|c| c.value.as_deref()),
        Some("199")
    );
    assert!(cell(&snap, "A200").is_none(), "row 200 is not on screen");
    // Every menu of the menu bar and every toolbar button: named, bounded.
    for menu in [
        "File", "Edit", "View", "Insert", "Format", "Sheet", "Data", "Tools", "Help",
    ] {
        let m = find(&snap, Role::Menu, menu);
        assert!(
            m.iter()
                .any(|m| m.bounds.is_some() && m.actions.contains(&cup_protocol::Action::Click)),
            "menu {menu}:\n{}",
            snap.text
        );
    }
    for bar in ["Standard", "Formatting"] {
        let tb = find(&snap, Role::Toolbar, bar);
        let tb = tb
            .first()
            .unwrap_or_else(|| panic!("toolbar {bar}:\n{}", snap.text));
        // The toolbar's own buttons (a combo box's inner drop-down button
        // has no name, description or tooltip of its own in LibreOffice).
        let buttons: Vec<&Node> = tb
            .children
            .iter()
            .filter(|n| n.role == Role::Button)
            .collect();
        assert!(buttons.len() >= 10, "{bar}: {} buttons", buttons.len());
        for b in buttons {
            assert!(!b.name.is_empty() && b.bounds.is_some(), "{bar}: {b:?}");
        }
    }
    // The sidebar's buttons are named by the panel around them.
    assert!(
        nodes(&snap)
            .iter()
            .any(|n| n.role == Role::Button && n.name.starts_with("Properties")),
        "{}",
        snap.text
    );
    // The text fits the default budget and keeps the toolbars after the
    // sheet (its last cells give way, with the way to page them).
    assert!(snap.text.chars().count() <= 40_000);
    assert!(snap.text.contains("btn \"Bold\""), "{}", snap.text);
    cup_protocol::compact::parse(&snap.text).unwrap_or_else(|e| panic!("{e}\n{}", snap.text));

    let pid = snap
        .envelope
        .app
        .as_ref()
        .and_then(|a| a.pid)
        .unwrap_or_else(|| panic!("no app pid in the envelope"));
    let before = rss_mib(pid);

    // Calc's task actions, each confirmed by the sheet itself.
    go_to(&mut session, &snap, "H12").await;
    let snap = until(&mut session, &req, "H12 focused", 60, true, |s| {
        cell(s, "H12").is_some_and(|c| c.states.contains(&State::Focused))
    })
    .await;
    // Ids are those of the last snapshot: the document is found in each.
    let document = |s: &Snapshot| {
        nodes(s)
            .into_iter()
            .find(|n| n.role == Role::Document && n.actions.contains(&cup_protocol::Action::Type))
            .map(|n| n.id.clone())
            .unwrap_or_else(|| panic!("no spreadsheet document:\n{}", s.text))
    };
    let mut last = snap;
    for (text, next) in [("4242\n", "H13"), ("=H12*2\n", "H14")] {
        let doc = document(&last);
        let params = ActionParams {
            value: Some(text.into()),
            ..ActionParams::default()
        };
        let typed = session
            .action(&doc, "type", &params)
            .await
            .unwrap_or_else(|e| panic!("type {text:?}: {e}"));
        assert!(typed.success, "{typed:?}");
        assert_ne!(typed.effect, Effect::NoChange, "{typed:?}");
        last = until(
            &mut session,
            &req,
            &format!("{next} focused"),
            60,
            true,
            |s| cell(s, next).is_some_and(|c| c.states.contains(&State::Focused)),
        )
        .await;
    }
    let snap = until(&mut session, &req, "H13 = 8484", 60, true, |s| {
        cell(s, "H12").and_then(|c| c.value.as_deref()) == Some("4242")
            && cell(s, "H13").and_then(|c| c.value.as_deref()) == Some("8484")
    })
    .await;
    // A range by the Name Box: its cells are selected.
    go_to(&mut session, &snap, "B3:C5").await;
    let snap = until(&mut session, &req, "B3:C5 selected", 60, true, |s| {
        ["B3", "C3", "B4", "C5"]
            .iter()
            .all(|a| cell(s, a).is_some_and(|c| c.states.contains(&State::Selected)))
    })
    .await;
    assert!(
        !cell(&snap, "D5").is_some_and(|c| c.states.contains(&State::Selected)),
        "{}",
        snap.text
    );

    // 20 snapshots and 20 actions in the session. LibreOffice keeps every
    // cell object it makes (about 10 MB for the cells of this screen):
    // cup asks for the cells on screen once per 12 s at most, so Calc
    // grows by one screen of cells per 12 s of snapshots, not by one per
    // snapshot (20 snapshots asking afresh each time grew it by ~200 MB).
    let started = Instant::now();
    for i in 0..20 {
        let snap = complete_snapshot(&mut session, &req).await;
        let target = if i % 2 == 0 { "A1" } else { "C7" };
        let c = cell(&snap, target)
            .map(|c| c.id.clone())
            .unwrap_or_else(|| panic!("no cell {target}:\n{}", snap.text));
        let done = session
            .action(&c, "select", &ActionParams::default())
            .await
            .unwrap_or_else(|e| panic!("select {target}: {e}"));
        assert!(done.success, "{done:?}");
    }
    let after = rss_mib(pid);
    let elapsed = started.elapsed().as_secs();
    // One screen of new cells per 12 s begun, 15 MB each with what Calc
    // allocates for its cursor and selection, and 20 MB for the rest.
    let screens = 1 + elapsed / 12;
    let bound = before + 20 + 15 * screens;
    assert!(
        after <= bound,
        "Calc grew from {before} to {after} MiB over 20 snapshots and 20 actions in {elapsed} s: cells were asked for again within 12 s"
    );
}
