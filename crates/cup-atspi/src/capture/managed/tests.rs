use super::*;

fn ext(x: i32, y: i32, w: i32, h: i32) -> Extents {
    Extents { x, y, w, h }
}

#[test]
fn manages_by_state_or_by_a_huge_count() {
    let mut st = StateSet::empty();
    let none = InterfaceSet::empty();
    let mut table = InterfaceSet::empty();
    table.insert(Interface::Table);
    assert!(!manages(st, none, 40));
    assert!(manages(st, none, i32::MAX));
    st.insert(AtspiState::ManagesDescendants);
    assert!(manages(st, table, 3));
    assert!(manages(st, none, -1));
    assert!(manages(st, none, 65));
    // A small list that is no table is read whole.
    assert!(!manages(st, none, 12));
    assert!(!manages(st, none, 0));
}

#[test]
fn empty_cells_have_no_text_and_at_most_an_address() {
    let none = StateSet::empty();
    let cell = AtspiRole::TableCell;
    assert!(is_empty_cell(cell, "B2", None, none, &[]));
    assert!(is_empty_cell(cell, "XFD1048576", Some(" "), none, &[]));
    assert!(is_empty_cell(cell, "", Some(""), none, &[]));
    assert!(!is_empty_cell(cell, "B2", Some("21"), none, &[]));
    // A GTK cell is named by its text.
    assert!(!is_empty_cell(cell, "Application Class", None, none, &[]));
    assert!(!is_empty_cell(cell, "B02", None, none, &[]));
    assert!(!is_empty_cell(AtspiRole::Label, "", None, none, &[]));
    let mut focused = StateSet::empty();
    focused.insert(AtspiState::Focused);
    assert!(!is_empty_cell(cell, "A1", None, focused, &[]));
    // GTK's toggle renderer: no text, a check box all the same.
    for state in [
        AtspiState::Checkable,
        AtspiState::Checked,
        AtspiState::Indeterminate,
    ] {
        let mut toggle = StateSet::empty();
        toggle.insert(state);
        assert!(!is_empty_cell(cell, "", None, toggle, &[]), "{state:?}");
    }
    // An unticked one says only its action.
    let actions = ["expand or contract", "edit", "activate", "toggle"].map(String::from);
    assert!(!is_empty_cell(cell, "", None, none, &actions));
    assert!(is_empty_cell(cell, "", None, none, &actions[..3]));
}

#[test]
fn cell_extents_come_from_their_row_and_column() {
    let obj = |n: u32| Some(ObjRef::new(":1.4", format!("/c/{n}")));
    // 2 rows × 3 columns; the middle of the second row is missing.
    let cells = [obj(0), obj(1), obj(2), obj(3), None, obj(5)];
    let first_row = [Some(ext(100, 50, 40, 17)), Some(ext(140, 50, 60, 17)), None];
    let first_column = [Some(ext(100, 50, 40, 17)), Some(ext(100, 67, 40, 20))];
    let got = grid_extents(&cells, 3, &first_row, &first_column);
    let find = |n: u32| {
        got.iter()
            .find(|(o, _)| o.path == format!("/c/{n}"))
            .map(|(_, e)| *e)
    };
    assert_eq!(find(1), Some(ext(140, 50, 60, 17)));
    assert_eq!(find(3), Some(ext(100, 67, 40, 20)));
    // A column whose place is unknown gives its cells none (read
    // one by one instead).
    assert_eq!(find(2), None);
    assert_eq!(find(5), None);
    assert_eq!(got.len(), 3);
    assert!(grid_extents(&cells, 0, &first_row, &first_column).is_empty());
}

#[test]
fn cells_named_by_their_address_are_not_asked() {
    let obj = |p: &str| ObjRef {
        bus: ":1.4".into(),
        path: p.into(),
    };
    let cells = vec![obj("/c0"), obj("/c1"), obj("/c2")];
    let addresses = vec![address(0, 0), address(0, 1), address(27, 27)];
    assert_eq!(addresses, ["A1", "B1", "AB28"]);
    let first = calls::AccessibleProps {
        name: "A1".into(),
        description: String::new(),
        child_count: 0,
    };
    let known = addressed(&cells, &addresses, &first);
    assert_eq!(known.len(), 2);
    assert_eq!(known[0].0, obj("/c1"));
    assert_eq!(known[1].1.name, "AB28");
    // A first cell named otherwise, described, or with children: every
    // cell is read.
    for other in [
        calls::AccessibleProps {
            name: "Blue mug".into(),
            ..first.clone()
        },
        calls::AccessibleProps {
            description: "Total".into(),
            ..first.clone()
        },
        calls::AccessibleProps {
            child_count: -1,
            ..first.clone()
        },
    ] {
        assert!(
            addressed(&cells, &addresses, &other).is_empty(),
            "{other:?}"
        );
    }
}

#[test]
fn column_labels_are_spreadsheet_letters() {
    assert_eq!(column_label(0), "A");
    assert_eq!(column_label(25), "Z");
    assert_eq!(column_label(26), "AA");
    assert_eq!(column_label(701), "ZZ");
    assert_eq!(column_label(702), "AAA");
    assert_eq!(column_label(16383), "XFD");
}

#[test]
fn probes_start_at_the_corners_and_stay_inside() {
    let e = ext(100, 200, 800, 600);
    let tl = top_left_probes(e);
    assert_eq!(tl[0], (102, 202));
    assert!(tl
        .iter()
        .all(|&(x, y)| (100..900).contains(&x) && (200..800).contains(&y)));
    let br = bottom_right_probes(e);
    assert_eq!(br[0], (897, 797));
    assert!(br
        .iter()
        .all(|&(x, y)| (100..900).contains(&x) && (200..800).contains(&y)));
    // A tiny area keeps only the points inside it.
    assert_eq!(top_left_probes(ext(0, 0, 5, 5)), vec![(2, 2)]);
}

#[test]
fn area_probes_cover_rows_within_the_cap() {
    let e = ext(0, 0, 300, 100);
    let p = area_probes(e);
    assert_eq!(p[0], (8, 7));
    assert_eq!(p.len(), 3 * 7);
    assert!(p.iter().all(|&(x, y)| x < 300 && y < 100));
    assert!(area_probes(ext(0, 0, 300, 100_000)).len() <= MAX_PROBES);
    assert!(area_probes(ext(0, 0, 0, 10)).is_empty());
}

#[test]
fn cell_range_is_what_is_on_screen_within_the_caps() {
    // Calc: A1 at the top left, N40 at the bottom right.
    let size = (1_048_576, 16_384);
    assert_eq!(cell_range((0, 0), Some((39, 13)), size), ((0, 39), (0, 13)));
    // Scrolled: rows 1000-1030, columns E-P.
    assert_eq!(
        cell_range((999, 4), Some((1029, 15)), size),
        ((999, 1029), (4, 15))
    );
    // A list shorter than its area: to its end.
    assert_eq!(cell_range((0, 0), None, (5, 3)), ((0, 4), (0, 2)));
    // No last cell in a huge table: at most MAX_CELLS cells.
    let ((r0, r1), (c0, c1)) = cell_range((0, 0), None, (1_000_000, 20));
    assert_eq!((r0, c0, c1), (0, 0, 19));
    assert_eq!(r1 + 1, MAX_CELLS / 20);
    let ((r0, r1), _) = cell_range((0, 0), None, (1_000_000, 1));
    assert_eq!(r1 - r0 + 1, MAX_ROWS);
    // A last cell before the first (a probe that hit an odd cell).
    assert_eq!(cell_range((10, 5), Some((3, 2)), size), ((10, 10), (5, 5)));
}

#[test]
fn notes_say_what_was_read_and_how_to_reach_the_rest() {
    let t = Shown::Table {
        rows: (0, 39),
        columns: (0, 13),
        size: (1_048_576, 16_384),
    };
    assert_eq!(
        t.describe(0),
        "manages its 1048576×16384 cells: only those on screen were read (rows 1–40, columns A–N); scroll it, or go to a cell by its address (e.g. the Name Box), or use find"
    );
    assert!(t
        .describe(300)
        .contains("(rows 1–40, columns A–N; 300 empty cells left out)"));
    // A small grid: no spreadsheet address; read whole: no note.
    let grid = Shown::Table {
        rows: (0, 9),
        columns: (0, 2),
        size: (40, 3),
    };
    assert!(
        !grid.describe(0).contains("Name Box"),
        "{}",
        grid.describe(0)
    );
    assert!(grid.said());
    let whole = Shown::Table {
        rows: (0, 0),
        columns: (0, 2),
        size: (1, 3),
    };
    assert!(!whole.said());
    assert!(Shown::Points {
        found: 12,
        children: 500
    }
    .describe(0)
    .contains("manages its 500 items: only the 12 on screen"));
    assert!(Shown::Nothing { children: -1 }
        .describe(0)
        .starts_with("manages its items and none"));
    assert!(!Shown::Unplaced.said());
    assert!(!Shown::Whole.said());
    assert_eq!(
        Shown::Points {
            found: 0,
            children: -1
        }
        .describe(0),
        "manages its items and none was found on screen; scroll it, or use find"
    );
}
