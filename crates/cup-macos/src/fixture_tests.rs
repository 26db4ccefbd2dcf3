//! Whole native-dump fixtures (`fixtures/*.json`, built from documented AX
//! attribute values) assembled into captures and schema-valid envelopes,
//! then checked element by element.

use std::num::NonZeroU32;
use std::str::FromStr;

use cup_protocol::{Action, Node, Orientation, PlatformId, Rect, Role, State};

use crate::assemble::assemble;
use crate::facts::{NativeDump, NativeNode};
use crate::screen::Layout;

const SOURCE: &str = "built from documented AX attribute values: ";

/// Every fixture, by file name, sorted.
fn fixtures() -> Vec<(String, NativeDump)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    cup::native::read_dir(&dir).unwrap_or_else(|e| panic!("{e}"))
}

/// The fixture called `name`.
fn fixture(name: &str) -> NativeDump {
    fixtures()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, d)| d)
        .unwrap_or_else(|| panic!("no fixture {name}"))
}

/// A dump captured the way the adapter captures: its display layout, its
/// capture (tree still in it) and the envelope of a copy of its tree.
struct Captured {
    layout: Layout,
    capture: cup::Capture,
    envelope: cup_protocol::Envelope,
}

fn captured(dump: &NativeDump) -> Captured {
    let layout = Layout::new(&dump.screen);
    let capture = assemble(&dump.trees, &layout, Vec::new(), 0);
    let screen = layout.screen_info();
    let envelope = cup_protocol::Envelope::new(
        PlatformId::Macos,
        cup_protocol::envelope::Screen {
            w: screen.width,
            h: screen.height,
            scale: Some(screen.scale),
        },
        capture.tree.clone(),
    );
    Captured {
        layout,
        capture,
        envelope,
    }
}

impl Captured {
    /// Every node, in pre-order over all windows.
    fn nodes(&self) -> Vec<&Node> {
        self.capture.tree.iter().flat_map(Node::iter).collect()
    }

    /// The one node with `role` and `name`.
    fn one(&self, role: Role, name: &str) -> &Node {
        let found: Vec<&Node> = self
            .nodes()
            .into_iter()
            .filter(|n| n.role == role && n.name == name)
            .collect();
        assert_eq!(
            found.len(),
            1,
            "exactly one {} named {name:?}: {found:#?}",
            role.name()
        );
        found[0]
    }

    /// The nodes whose AX subrole is `subrole`.
    fn by_subrole(&self, subrole: &str) -> Vec<&Node> {
        self.nodes()
            .into_iter()
            .filter(|n| {
                n.platform
                    .macos
                    .as_ref()
                    .and_then(|m| m.ax_subrole.as_deref())
                    == Some(subrole)
            })
            .collect()
    }
}

/// Every native node, in pre-order over all windows.
fn natives(dump: &NativeDump) -> Vec<&NativeNode> {
    fn walk<'a>(n: &'a NativeNode, out: &mut Vec<&'a NativeNode>) {
        out.push(n);
        for c in &n.children {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    for root in dump.trees.iter().filter_map(|t| t.root.as_ref()) {
        walk(root, &mut out);
    }
    out
}

fn level(n: &Node) -> Option<u32> {
    n.attributes.level.map(NonZeroU32::get)
}

#[test]
fn every_fixture_maps_to_a_schema_valid_envelope() {
    let all = fixtures();
    assert!(
        all.len() >= 6,
        "fixtures of at least 6 windows: {}",
        all.len()
    );
    for (name, dump) in &all {
        assert_eq!(dump.platform, "macos", "{name}");
        assert!(
            dump.source.starts_with(SOURCE) && dump.source.len() > SOURCE.len() + 20,
            "{name}: says what it models: {:?}",
            dump.source
        );
        assert!(!dump.screen.displays.is_empty(), "{name}: has displays");
        assert_eq!(
            dump.screen.displays.iter().filter(|d| d.main).count(),
            1,
            "{name}: one main display"
        );
        let c = captured(dump);
        assert!(
            c.capture.partial.is_none(),
            "{name}: {:?}",
            c.capture.partial
        );
        let natives = natives(dump);
        let nodes = c.nodes();
        assert_eq!(nodes.len(), natives.len(), "{name}: one node per element");
        assert_eq!(c.envelope.tree.len(), dump.trees.len(), "{name}: windows");
        assert_eq!(
            c.capture.refs.len(),
            natives.len(),
            "{name}: every element has an id and a ref"
        );
        let value = serde_json::to_value(&c.envelope).expect("envelope json");
        let violations = cup_protocol::schema::validate(&value);
        assert!(violations.is_empty(), "{name}: {violations:?}");
        // The capture's own ids run e0, e1, ... in pre-order, and each
        // node mirrors its element.
        for (i, (node, native)) in nodes.iter().zip(&natives).enumerate() {
            let el = &native.element;
            let at = format!("{name}: e{i} {}", el.role);
            assert_eq!(node.id, format!("e{i}"), "{at}");
            assert!(c.capture.refs.contains_key(&node.id), "{at}: ref");
            assert!(native.cut.is_none(), "{at}: nothing cut");
            assert_eq!(
                el.children_count,
                native.children.len(),
                "{at}: childrenCount"
            );
            assert_eq!(node.children.len(), native.children.len(), "{at}: children");
            assert!(!el.role.is_empty(), "{at}: AXRole");
            // What the OS layer reads: no empty strings (it keeps them as
            // unanswered), action names only for roles that act.
            for s in [
                &el.subrole,
                &el.title,
                &el.description,
                &el.help,
                &el.placeholder,
                &el.mark_char,
                &el.shortcut,
                &el.url,
            ] {
                assert!(s.as_deref() != Some(""), "{at}: an empty string");
            }
            if !crate::mapping::actions::reads_actions(&el.role) {
                assert!(el.actions.is_empty(), "{at}: a passive role with actions");
            }
            let frame = el.frame.expect("every fixture element is placed");
            assert!(!frame.is_empty(), "{at}: frame");
            assert!(node.bounds.is_some(), "{at}: bounds");
            assert!(
                !node.states.contains(&State::Offscreen),
                "{at}: on a display"
            );
            let mac = node.platform.macos.as_ref().expect("platform.macos");
            assert_eq!(mac.ax_role.as_deref(), Some(el.role.as_str()), "{at}");
            if let Some(s) = &node.attributes.key_shortcut {
                cup_protocol::Combo::from_str(s)
                    .unwrap_or_else(|e| panic!("{at}: shortcut {s:?}: {e}"));
            }
            // A disabled element offers nothing.
            if node.states.contains(&State::Disabled) {
                assert!(node.actions.is_empty(), "{at}: {:?}", node.actions);
            }
        }
        for (tree, root) in dump.trees.iter().zip(&c.envelope.tree) {
            let r = tree.root.as_ref().expect("root");
            // At most one element has keyboard focus in a window.
            let focused = root
                .iter()
                .filter(|n| n.states.contains(&State::Focused))
                .count();
            assert!(focused <= 1, "{name}: {focused} focused");
            // A menu bar's open menu hangs below it, in a window of its
            // own; everything else lies inside its AXWindow.
            if r.element.role != "AXWindow" {
                continue;
            }
            assert_eq!(
                r.element.frame,
                Some(tree.window.bounds),
                "{name}: the root is the window's"
            );
            // Children lie inside their window.
            let wb = root.bounds.expect("window bounds");
            for n in root.iter() {
                let b = n.bounds.expect("bounds");
                assert_eq!(b.intersect(&wb), b, "{name}: {} {:?} outside", n.id, n.name);
            }
        }
        // Ids are unique over the whole capture.
        let mut ids: Vec<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), nodes.len(), "{name}: unique ids");
    }
}

#[test]
fn finder_window_toolbar_sidebar_and_file_list() {
    let dump = fixture("finder.json");
    let c = captured(&dump);
    let screen = c.layout.screen_info();
    assert_eq!(
        (screen.width, screen.height, screen.scale),
        (2880, 1800, 2.0)
    );

    let win = &c.capture.tree[0];
    assert_eq!((win.role, win.name.as_str()), (Role::Window, "Downloads"));
    assert_eq!(win.bounds, Some(Rect::new(520, 300, 1840, 1120)));
    assert_eq!(win.actions, [Action::Focus]);
    assert!(win.states.is_empty(), "{:?}", win.states);
    assert_eq!(c.capture.refs["e0"], "ax:512|4123||AXWindow");

    // The title-bar buttons: nameless AX buttons known by their subrole.
    for sub in ["AXCloseButton", "AXMinimizeButton", "AXFullScreenButton"] {
        let b = c.by_subrole(sub);
        assert_eq!(b.len(), 1, "{sub}");
        assert_eq!(
            (b[0].role, b[0].actions.as_slice()),
            (Role::Button, &[Action::Click][..])
        );
    }
    let close = c.by_subrole("AXCloseButton")[0];
    assert_eq!(close.bounds, Some(Rect::new(560, 336, 28, 32)));

    assert!(c.nodes().iter().any(|n| n.role == Role::Toolbar));
    let back = c.one(Role::Button, "Back");
    assert_eq!(back.actions, [Action::Click]);
    assert_eq!(
        back.description.as_deref(),
        Some("See folders you viewed previously")
    );
    let fwd = c.one(Role::Button, "Forward");
    assert_eq!(fwd.states, [State::Disabled]);
    assert!(fwd.actions.is_empty());
    let list = c.one(Role::Radio, "List");
    assert_eq!(list.states, [State::Checked]);
    assert_eq!(list.actions, [Action::Click]);
    assert!(c.one(Role::Radio, "Icons").states.is_empty());
    assert_eq!(c.one(Role::Group, "View").children.len(), 4);

    let search = c.one(Role::SearchBox, "search");
    assert_eq!(search.attributes.placeholder.as_deref(), Some("Search"));
    assert_eq!(search.value, None);
    assert_eq!(search.states, [State::Editable]);
    assert_eq!(
        search.actions,
        [Action::Click, Action::Focus, Action::SetValue, Action::Type]
    );
    assert_eq!(search.bounds, Some(Rect::new(2020, 330, 320, 44)));

    // The sidebar: rows of one flat AXOutline, levels from
    // AXDisclosureLevel, the section header expanded.
    let sidebar = c.one(Role::Tree, "sidebar");
    assert_eq!(sidebar.children.len(), 7);
    let rows: Vec<&Node> = sidebar.children.iter().collect();
    assert!(rows.iter().all(|r| r.role == Role::TreeItem));
    assert_eq!(level(rows[0]), Some(1));
    assert_eq!(rows[0].states, [State::Expanded]);
    assert_eq!(
        rows[0].actions,
        [
            Action::Click,
            Action::Collapse,
            Action::DoubleClick,
            Action::Expand,
            Action::Select
        ]
    );
    let downloads = rows[6];
    assert_eq!(level(downloads), Some(2));
    assert_eq!(downloads.states, [State::Selected]);
    assert_eq!(
        downloads.actions,
        [Action::Click, Action::DoubleClick, Action::Select]
    );
    let cell = &downloads.children[0];
    assert_eq!(cell.role, Role::Cell);
    assert_eq!(
        (cell.children[0].role, cell.children[0].name.as_str()),
        (Role::Text, "Downloads")
    );
    for name in ["AirDrop", "Applications", "Desktop"] {
        c.one(Role::Text, name);
    }

    // The file list: focused outline, column headers, rows of cells.
    let files = c.one(Role::Tree, "list view");
    assert_eq!(files.states, [State::Focused]);
    let headers: Vec<&str> = files
        .children
        .iter()
        .filter(|n| n.role == Role::ColumnHeader)
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(headers, ["Name", "Date Modified", "Size"]);
    let file_rows: Vec<&Node> = files
        .children
        .iter()
        .filter(|n| n.role == Role::TreeItem)
        .collect();
    assert_eq!(file_rows.len(), 4);
    // A folder that can disclose but does not; files are leaves.
    assert_eq!(file_rows[0].states, [State::Collapsed]);
    assert!(file_rows[0].actions.contains(&Action::Expand));
    assert_eq!(file_rows[1].states, [State::Selected]);
    assert!(file_rows[2].states.is_empty());
    assert!(!file_rows[2].actions.contains(&Action::Expand));
    let invoice = c.one(Role::Text, "Invoice-2024-03.pdf");
    assert_eq!(invoice.bounds, Some(Rect::new(968, 516, 640, 32)));
    assert_eq!(c.one(Role::Img, "PDF document").role, Role::Img);
    c.one(Role::Text, "182 KB");
    let splitter = c
        .nodes()
        .into_iter()
        .find(|n| n.role == Role::Separator)
        .expect("splitter");
    assert_eq!(splitter.attributes.orientation, Some(Orientation::Vertical));
}

#[test]
fn system_settings_switches_slider_and_pop_ups() {
    let dump = fixture("system-settings.json");
    let c = captured(&dump);
    let screen = c.layout.screen_info();
    assert_eq!(
        (screen.width, screen.height, screen.scale),
        (3024, 1964, 2.0)
    );
    assert_eq!(c.capture.tree[0].name, "Keyboard");

    let on = c.one(Role::Switch, "Adjust keyboard brightness in low light");
    assert_eq!(on.states, [State::Checked]);
    assert_eq!(on.actions, [Action::Click, Action::Toggle]);
    let off = c.one(Role::Switch, "Keyboard navigation");
    assert!(off.states.is_empty(), "{:?}", off.states);
    assert_eq!(off.actions, [Action::Click, Action::Toggle]);
    assert!(off
        .description
        .as_deref()
        .is_some_and(|d| d.starts_with("Use keyboard navigation")));
    assert!(c.one(Role::Switch, "Dictation").states.is_empty());
    assert_eq!(c.by_subrole("AXSwitch").len(), 3);

    let slider = c.one(Role::Slider, "Keyboard brightness");
    assert_eq!(slider.value.as_deref(), Some("0.75"));
    let a = &slider.attributes;
    assert_eq!(
        (a.value_min, a.value_max, a.value_now),
        (Some(0.0), Some(1.0), Some(0.75))
    );
    assert_eq!(a.orientation, Some(Orientation::Horizontal));
    assert_eq!(
        slider.actions,
        [Action::Decrement, Action::Increment, Action::SetValue]
    );
    assert_eq!(slider.bounds, Some(Rect::new(1702, 460, 460, 44)));

    // Pop-up buttons: comboboxes that take no text, collapsed.
    let mic = c.one(Role::Combobox, "Microphone source");
    assert_eq!(mic.value.as_deref(), Some("Automatic"));
    assert_eq!(mic.states, [State::Collapsed]);
    assert_eq!(
        mic.actions,
        [Action::Click, Action::Collapse, Action::Expand]
    );
    let backlight = c.one(
        Role::Combobox,
        "Turn keyboard backlight off after inactivity",
    );
    assert_eq!(backlight.value.as_deref(), Some("After 5 Seconds"));

    // A SwiftUI heading's AXValue is its text: its name, no level.
    let h = c.one(Role::Heading, "Dictation");
    assert_eq!((h.value.as_deref(), level(h)), (None, None));

    let b = c.one(Role::Button, "Keyboard Shortcuts\u{2026}");
    assert_eq!(b.actions, [Action::Click]);

    // The sidebar.
    let search = c.one(Role::SearchBox, "Search");
    assert_eq!(search.attributes.placeholder.as_deref(), Some("Search"));
    let panes = c.one(Role::Tree, "Sidebar");
    assert_eq!(panes.states, [State::Focused]);
    let selected: Vec<&Node> = panes
        .children
        .iter()
        .filter(|r| r.states.contains(&State::Selected))
        .collect();
    assert_eq!(selected.len(), 1);
    assert_eq!(selected[0].children[0].children[0].name, "Keyboard");
    c.one(Role::Text, "Wi\u{2011}Fi");

    // The green button cannot zoom this window.
    let zoom = c.by_subrole("AXZoomButton");
    assert_eq!(zoom.len(), 1);
    assert_eq!(zoom[0].states, [State::Disabled]);
    assert!(zoom[0].actions.is_empty());
    assert_eq!(c.one(Role::Button, "Forward").states, [State::Disabled]);
}

#[test]
fn textedit_document_and_format_bar() {
    let dump = fixture("textedit.json");
    let c = captured(&dump);
    assert_eq!(c.capture.tree[0].name, "Notes.rtf");
    assert_eq!(
        c.capture.tree[0].bounds,
        Some(Rect::new(600, 200, 1280, 1040))
    );

    let area = c
        .nodes()
        .into_iter()
        .find(|n| {
            n.platform.macos.as_ref().and_then(|m| m.ax_role.as_deref()) == Some("AXTextArea")
        })
        .expect("the text area");
    assert_eq!(area.role, Role::TextBox);
    assert!(area
        .value
        .as_deref()
        .is_some_and(|v| v.starts_with("Shopping list\n\n- apples")));
    assert_eq!(area.states, [State::Editable, State::Focused]);
    assert_eq!(
        area.actions,
        [Action::Focus, Action::SetValue, Action::Type]
    );
    assert_eq!(area.bounds, Some(Rect::new(600, 320, 1250, 920)));

    let scroll = c
        .nodes()
        .into_iter()
        .find(|n| n.actions.contains(&Action::Scroll))
        .expect("the scroll area");
    assert_eq!(scroll.role, Role::Generic);
    let bar = c
        .nodes()
        .into_iter()
        .find(|n| n.role == Role::ScrollBar)
        .expect("the scroll bar");
    assert_eq!(bar.attributes.orientation, Some(Orientation::Vertical));
    assert_eq!(bar.value.as_deref(), Some("0"));

    // Bold is on: an AXToggle check box is a pressed button.
    let bold = c.one(Role::Button, "Bold");
    assert_eq!(bold.states, [State::Pressed]);
    assert_eq!(bold.actions, [Action::Click, Action::Toggle]);
    assert_eq!(bold.bounds, Some(Rect::new(1232, 266, 56, 44)));
    let italic = c.one(Role::Button, "Italic");
    assert!(italic.states.is_empty());
    assert_eq!(italic.actions, [Action::Click, Action::Toggle]);

    let font = c.one(Role::Combobox, "Font family");
    assert_eq!(font.value.as_deref(), Some("Helvetica"));
    assert_eq!(font.states, [State::Collapsed]);
    // The font size combo box takes text.
    let size = c.one(Role::Combobox, "Font size");
    assert_eq!(size.value.as_deref(), Some("12"));
    assert_eq!(size.states, [State::Collapsed, State::Editable]);
    assert_eq!(
        size.actions,
        [
            Action::Click,
            Action::Collapse,
            Action::Expand,
            Action::Focus,
            Action::SetValue,
            Action::Type
        ]
    );
    assert_eq!(c.one(Role::Button, "Text color").actions, [Action::Click]);
    assert_eq!(c.one(Role::Radio, "Align Left").states, [State::Checked]);
    assert!(c.one(Role::Radio, "Center").states.is_empty());
}

#[test]
fn web_page_landmarks_links_headings_and_no_expanded_noise() {
    let dump = fixture("safari-web.json");
    let c = captured(&dump);
    let nodes = c.nodes();

    // Chromium answers AXExpanded=false on every element: only the
    // element that really pops up (the browser menu button) is collapsed.
    let noisy = natives(&dump)
        .iter()
        .filter(|n| n.element.expanded == Some(false))
        .count();
    assert!(noisy > 30, "the noise is there: {noisy}");
    let collapsed: Vec<&Node> = nodes
        .iter()
        .copied()
        .filter(|n| n.states.contains(&State::Collapsed) || n.states.contains(&State::Expanded))
        .collect();
    assert_eq!(collapsed.len(), 1, "{collapsed:#?}");
    assert_eq!(
        (collapsed[0].role, collapsed[0].name.as_str()),
        (Role::Button, "Chrome")
    );
    assert!(nodes
        .iter()
        .filter(|n| matches!(n.role, Role::Generic | Role::Group))
        .all(|n| !n.actions.contains(&Action::Expand)));

    let doc = c.one(Role::Document, "Getting started \u{2014} CUP");
    assert_eq!(doc.children.len(), 3);
    let banner = &doc.children[0];
    assert_eq!(banner.role, Role::Banner);
    let nav = c.one(Role::Navigation, "Main");
    assert_eq!(nav.children.len(), 3);
    assert!(nav.children.iter().all(|l| l.role == Role::Link));
    assert_eq!(doc.children[1].role, Role::Main);
    assert_eq!(doc.children[2].role, Role::ContentInfo);
    assert!(nodes.iter().any(|n| n.role == Role::Search));

    let h1 = c.one(Role::Heading, "Getting started");
    assert_eq!((level(h1), h1.value.as_deref()), (Some(1), None));
    assert_eq!(level(c.one(Role::Heading, "Install")), Some(2));

    let docs = c.one(Role::Link, "Docs");
    assert_eq!(
        docs.attributes.url.as_deref(),
        Some("https://computeruseprotocol.com/docs")
    );
    assert_eq!(docs.actions, [Action::Click]);
    assert_eq!(docs.bounds, Some(Rect::new(600, 284, 80, 40)));
    let home = c.one(Role::Link, "CUP home");
    assert_eq!(
        home.attributes.url.as_deref(),
        Some("https://computeruseprotocol.com/")
    );
    assert_eq!(home.children[0].role, Role::Img);
    assert_eq!(
        c.one(Role::Link, "Read the specification").children[0].name,
        "Read the specification"
    );

    let field = c.one(Role::TextBox, "Search docs");
    assert_eq!(field.attributes.placeholder.as_deref(), Some("Search docs"));
    assert_eq!(field.states, [State::Editable, State::Focused]);
    assert_eq!(c.one(Role::Button, "Search").actions, [Action::Click]);
    assert_eq!(c.one(Role::Button, "Copy").actions, [Action::Click]);
    c.one(Role::Text, "cargo install cup-cli");

    // Browser UI: the selected tab, the omnibox, a disabled Forward.
    let tab = c.one(Role::Tab, "Getting started \u{2014} CUP");
    assert_eq!(tab.states, [State::Selected]);
    assert!(tab.actions.contains(&Action::Select));
    assert!(c
        .one(Role::Tab, "computeruseprotocol/cup: Computer Use Protocol")
        .states
        .is_empty());
    let omnibox = c.one(Role::TextBox, "Address and search bar");
    assert_eq!(
        omnibox.value.as_deref(),
        Some("computeruseprotocol.com/docs/getting-started")
    );
    assert_eq!(c.one(Role::Button, "Forward").states, [State::Disabled]);
}

#[test]
fn menu_bar_with_an_open_menu() {
    let dump = fixture("menu.json");
    let c = captured(&dump);
    let bar = &c.capture.tree[0];
    assert_eq!(bar.role, Role::MenuBar);
    assert_eq!(bar.bounds, Some(Rect::new(0, 0, 2880, 48)));
    let titles: Vec<&str> = bar.children.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(
        titles,
        ["Apple", "Finder", "File", "Edit", "View", "Go", "Window", "Help"]
    );
    assert!(bar.children.iter().all(|n| n.role == Role::MenuItem));
    let view = c.one(Role::MenuItem, "View");
    assert_eq!(view.states, [State::Selected]);
    assert_eq!(view.children.len(), 1);
    let menu = &view.children[0];
    assert_eq!(menu.role, Role::Menu);
    assert_eq!(menu.actions, [Action::Dismiss]);

    // The check mark makes a menuitemcheckbox, checked.
    let list = c.one(Role::MenuItemCheckbox, "as List");
    assert_eq!(list.states, [State::Checked]);
    assert_eq!(list.attributes.key_shortcut.as_deref(), Some("cmd+2"));
    assert!(list.actions.contains(&Action::Click) && list.actions.contains(&Action::Toggle));
    let icons = c.one(Role::MenuItem, "as Icons");
    assert!(icons.states.is_empty());
    assert_eq!(icons.attributes.key_shortcut.as_deref(), Some("cmd+1"));
    assert!(icons.actions.contains(&Action::Click));
    assert_eq!(
        c.nodes()
            .iter()
            .filter(|n| n.role == Role::MenuItemCheckbox)
            .count(),
        1
    );
    let sidebar = c.one(Role::MenuItem, "Hide Sidebar");
    assert_eq!(
        sidebar.attributes.key_shortcut.as_deref(),
        Some("ctrl+cmd+s")
    );
    let combo = cup_protocol::Combo::from_str("ctrl+cmd+s").expect("combo");
    assert_eq!(
        cup_protocol::Combo::from_str(sidebar.attributes.key_shortcut.as_deref().unwrap_or(""))
            .expect("shortcut parses"),
        combo
    );
    assert_eq!(
        sidebar.bounds,
        Some(Rect::new(
            362,
            2 * (29 + 4 * 22 + 11 + 3 * 22 + 11),
            520,
            44
        ))
    );

    // A disabled item offers nothing; an item without a shortcut has none.
    let clean = c.one(Role::MenuItem, "Clean Up");
    assert_eq!(clean.states, [State::Disabled]);
    assert!(clean.actions.is_empty());
    assert_eq!(clean.attributes.key_shortcut, None);
    // Separators: untitled, disabled menu items.
    let separators: Vec<&Node> = menu.children.iter().filter(|n| n.name.is_empty()).collect();
    assert_eq!(separators.len(), 5);
    assert!(separators.iter().all(|s| s.role == Role::MenuItem
        && s.states == [State::Disabled]
        && s.actions.is_empty()));
    // Closed menus were not read.
    assert!(c.one(Role::MenuItem, "File").children.is_empty());
}

#[test]
fn save_sheet_on_a_1x_display_left_of_a_retina_main_one() {
    let dump = fixture("sheet-dialog.json");
    let c = captured(&dump);
    let screen = c.layout.screen_info();
    // −1920·2 … 1512·2 wide, the main display's height and scale.
    assert_eq!(
        (screen.width, screen.height, screen.scale),
        (6864, 1964, 2.0)
    );
    assert_eq!(screen.monitors.len(), 2);
    assert_eq!(c.envelope.screen.w, 6864);
    assert_eq!(c.envelope.tree.len(), 2);

    // In front, on the 1× monitor: its pixels are its points, from that
    // display's pixel origin (−3840).
    let front = &c.capture.tree[0];
    assert_eq!(
        (front.role, front.name.as_str()),
        (Role::Window, "Untitled")
    );
    assert_eq!(front.bounds, Some(Rect::new(-3420, 160, 700, 480)));
    // Behind, on the 2× main display.
    let back = &c.capture.tree[1];
    assert_eq!(back.name, "Notes.rtf");
    assert_eq!(back.bounds, Some(Rect::new(400, 180, 1280, 1040)));
    assert_eq!(back.id, format!("e{}", front.subtree_len()));

    let sheet = &front.children[0];
    assert_eq!(sheet.role, Role::Dialog);
    assert_eq!(sheet.states, [State::Modal]);
    assert_eq!(sheet.actions, [Action::Dismiss]);
    assert_eq!(sheet.bounds, Some(Rect::new(-3330, 188, 520, 250)));

    let name = c.one(Role::TextBox, "Save As");
    assert_eq!(name.value.as_deref(), Some("Meeting notes"));
    assert_eq!(name.states, [State::Editable, State::Focused]);
    assert_eq!(
        name.actions,
        [Action::Click, Action::Focus, Action::SetValue, Action::Type]
    );
    let tags = c.one(Role::TextBox, "Tags");
    assert_eq!(
        (tags.value.as_deref(), tags.states.as_slice()),
        (None, &[State::Editable][..])
    );
    let format = c.one(Role::Combobox, "File Format");
    assert_eq!(format.value.as_deref(), Some("Plain Text"));
    assert_eq!(format.states, [State::Collapsed]);
    assert_eq!(
        c.one(Role::Combobox, "Where").value.as_deref(),
        Some("Documents")
    );
    let txt = c.one(
        Role::Checkbox,
        "If no extension is provided, use \u{201c}.txt\u{201d}.",
    );
    assert_eq!(txt.states, [State::Checked]);
    assert_eq!(txt.actions, [Action::Click, Action::Toggle]);
    assert_eq!(c.one(Role::Button, "Cancel").actions, [Action::Click]);

    // Save: measured and clicked on the 1× display.
    let save = c.one(Role::Button, "Save");
    assert_eq!(save.actions, [Action::Click]);
    let r = save.bounds.expect("Save is placed");
    assert_eq!(r, Rect::new(-2892, 398, 72, 22));
    let (x, y) = c
        .layout
        .to_point(r.x + r.w as i64 / 2, r.y + r.h as i64 / 2)
        .expect("a display shows Save's centre");
    let frame = natives(&dump)
        .into_iter()
        .find(|n| n.element.title.as_deref() == Some("Save"))
        .and_then(|n| n.element.frame)
        .expect("Save's frame");
    assert!(frame.contains(x, y), "({x}, {y}) in {frame:?}");
    assert_eq!(
        c.capture.refs[&save.id],
        format!("ax:934|6211|0.{}|AXButton", sheet.children.len() - 1)
    );

    // The close button is disabled while the sheet is up.
    let closes = c.by_subrole("AXCloseButton");
    assert_eq!(closes.len(), 2);
    assert_eq!(closes[0].states, [State::Disabled]);
    assert!(closes[0].actions.is_empty());
    assert_eq!(closes[1].actions, [Action::Click]);
    // The document behind, on the main display, at twice its points.
    let areas: Vec<&Node> = c
        .nodes()
        .into_iter()
        .filter(|n| {
            n.platform.macos.as_ref().and_then(|m| m.ax_role.as_deref()) == Some("AXTextArea")
        })
        .collect();
    assert_eq!(areas.len(), 2);
    assert_eq!(areas[0].bounds, Some(Rect::new(-3420, 188, 685, 452)));
    assert_eq!(areas[1].bounds, Some(Rect::new(400, 236, 1250, 984)));
    assert_eq!(areas[0].states, [State::Editable]);
}
