//! Whole native-dump fixtures (`tests/fixtures/*.json`, built from WDA's
//! documented attribute values) mapped into captures and schema-valid
//! envelopes, then checked element by element.

use std::collections::HashMap;

use cup_protocol::{Action, Node, Orientation, PlatformId, Rect, Role, State};

use crate::facts::{NativeDump, WdaElement};
use crate::map::{self, Limits, MASK};
use crate::refs::ElementRef;

const SOURCE: &str =
    "built from documented attribute values of WebDriverAgent's /source?format=json (XCUIApplication+FBHelpers.m): ";

fn fixtures() -> Vec<(String, NativeDump)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    cup::native::read_dir(&dir).unwrap_or_else(|e| panic!("{e}"))
}

fn fixture(name: &str) -> NativeDump {
    fixtures()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, d)| d)
        .unwrap_or_else(|| panic!("no fixture {name}"))
}

struct Captured {
    capture: cup::Capture,
    envelope: cup_protocol::Envelope,
}

fn captured(dump: &NativeDump) -> Captured {
    let capture = map::capture(dump, &Limits::default());
    let envelope = cup_protocol::Envelope::new(
        PlatformId::Ios,
        cup_protocol::envelope::Screen {
            w: dump.screen.width_pixels(),
            h: dump.screen.height_pixels(),
            scale: Some(dump.screen.scale),
        },
        capture.tree.clone(),
    );
    Captured { capture, envelope }
}

impl Captured {
    fn nodes(&self) -> Vec<&Node> {
        self.capture.tree.iter().flat_map(Node::iter).collect()
    }

    fn root(&self) -> &Node {
        &self.capture.tree[0]
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

    fn all(&self, role: Role) -> Vec<&Node> {
        self.nodes()
            .into_iter()
            .filter(|n| n.role == role)
            .collect()
    }

    fn reference(&self, n: &Node) -> &str {
        &self.capture.refs[&n.id]
    }
}

fn identifier(n: &Node) -> Option<&str> {
    n.platform.ios.as_ref()?.identifier.as_deref()
}

fn element_type(n: &Node) -> Option<&str> {
    n.platform.ios.as_ref()?.element_type.as_deref()
}

fn every(el: &WdaElement) -> Vec<&WdaElement> {
    let mut out = vec![el];
    for c in &el.children {
        out.extend(every(c));
    }
    out
}

#[test]
fn every_fixture_maps_to_a_schema_valid_envelope() {
    let all = fixtures();
    assert!(
        all.len() >= 6,
        "fixtures of at least 6 screens: {}",
        all.len()
    );
    for (name, dump) in &all {
        assert_eq!(dump.platform, "ios", "{name}");
        assert!(
            dump.source.starts_with(SOURCE) && dump.source.len() > SOURCE.len() + 40,
            "{name}: says what it models: {:?}",
            dump.source
        );
        assert!(dump.bundle_id.is_some(), "{name}: bundle id");
        let c = captured(dump);
        assert!(c.capture.partial.is_none(), "{name}");
        let value = serde_json::to_value(&c.envelope).expect("envelope json");
        let violations = cup_protocol::schema::validate(&value);
        assert!(violations.is_empty(), "{name}: {violations:?}");

        let nodes = c.nodes();
        assert_eq!(c.capture.tree.len(), 1, "{name}: the app is the one root");
        assert_eq!(c.capture.refs.len(), nodes.len(), "{name}: a ref per node");
        let screen = dump.screen.rect();
        let mut kept: Vec<Vec<usize>> = Vec::new();
        for (i, node) in nodes.iter().enumerate() {
            assert_eq!(node.id, format!("e{i}"), "{name}: pre-order ids");
            let r: ElementRef = c.capture.refs[&node.id].parse().expect("a reference");
            let el = dump.tree.at(&r.path).expect("the ref finds its element");
            let at = format!("{name}: {} {}", node.id, el.element_type);
            assert_eq!(el.element_type, r.element_type, "{at}");
            assert_eq!(
                element_type(node),
                Some(format!("XCUIElementType{}", el.element_type).as_str()),
                "{at}"
            );
            // Bounds are the frame's device pixels.
            let rect = el.rect.expect("every fixture element has a rect");
            assert_eq!(
                node.bounds,
                map::to_pixels(&rect, dump.screen.scale),
                "{at}"
            );
            // Offscreen: WDA says invisible, or the frame is off the screen.
            let off = el.visible == Some(false) || rect.intersect(&screen).is_empty();
            assert_eq!(node.has_state(State::Offscreen), off, "{at}");
            // A disabled element offers nothing.
            if node.has_state(State::Disabled) {
                assert!(node.actions.is_empty(), "{at}: {:?}", node.actions);
            }
            assert!(
                !node.name.contains('\n') && node.name.chars().count() <= 200,
                "{at}"
            );
            assert!(
                !node.has_state(State::Focused),
                "{at}: WDA says nothing has focus"
            );
            kept.push(r.path);
        }
        // What pruning left out: only `Other` wrappers and empty windows.
        fn walk(el: &WdaElement, path: Vec<usize>, out: &mut Vec<(Vec<usize>, String)>) {
            out.push((path.clone(), el.element_type.clone()));
            for (i, c) in el.children.iter().enumerate() {
                let mut p = path.clone();
                p.push(i);
                walk(c, p, out);
            }
        }
        let mut natives = Vec::new();
        walk(&dump.tree, Vec::new(), &mut natives);
        for (path, ty) in natives {
            if !kept.contains(&path) {
                assert!(
                    ty == "Other" || ty == "Window",
                    "{name}: a {ty} at {path:?} was left out"
                );
            }
        }
        let mut ids: Vec<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
        ids.dedup();
        assert_eq!(ids.len(), nodes.len(), "{name}: unique ids");
    }
}

#[test]
fn the_cup_written_fixture_reads_like_wdas_own_json() {
    // display-controls.json is written as cup writes dumps (booleans,
    // lists); the others as WDA answers ("1"/"0", "A, B").
    for (name, dump) in fixtures() {
        let text = serde_json::to_string(&dump).expect("json");
        let back: NativeDump = serde_json::from_str(&text).expect("reads back");
        assert_eq!(back, dump, "{name}");
        assert_eq!(
            map::capture(&back, &Limits::default()),
            map::capture(&dump, &Limits::default()),
            "{name}"
        );
        for el in every(&dump.tree) {
            assert!(
                el.enabled.is_some() && el.visible.is_some(),
                "{name}: flags read"
            );
        }
    }
}

#[test]
fn settings_main_list() {
    let dump = fixture("settings.json");
    assert_eq!(dump.tree.count(), 58);
    let c = captured(&dump);
    assert_eq!(
        c.nodes().len(),
        54,
        "three section gaps and a wrapper left out"
    );
    assert_eq!((c.envelope.screen.w, c.envelope.screen.h), (1179, 2556));
    let app = c.root();
    assert_eq!(
        (app.role, app.name.as_str()),
        (Role::Application, "Settings")
    );
    assert_eq!(app.bounds, Some(Rect::new(0, 0, 1179, 2556)));
    assert!(app.states.is_empty() && app.actions.is_empty());

    // UIKit names a navigation bar by its title, as its identifier: no
    // label, a name that reads as words.
    let bar = c.one(Role::Toolbar, "Settings");
    assert_eq!(identifier(bar), Some("Settings"));
    let title = c.one(Role::Heading, "Settings");
    assert_eq!(title.bounds, Some(Rect::new(48, 309, 1083, 123)));
    assert_eq!(bar.children, std::slice::from_ref(title));

    let list = c.all(Role::List);
    assert_eq!(list.len(), 1);
    let list = list[0];
    assert_eq!(list.actions, [Action::Scroll]);
    assert_eq!(list.children.len(), 15);
    assert!(list.children[1..].iter().all(|n| n.role == Role::ListItem));

    let search = c.one(Role::SearchBox, "Search");
    assert_eq!(search.value, None, "its value is only its placeholder");
    assert_eq!(search.attributes.placeholder.as_deref(), Some("Search"));
    assert_eq!(search.states, [State::Editable]);
    assert_eq!(
        search.actions,
        [Action::Click, Action::Focus, Action::SetValue, Action::Type]
    );
    assert_eq!(search.bounds, Some(Rect::new(48, 450, 1083, 108)));

    let wifi = c.one(Role::ListItem, "Wi-Fi");
    assert_eq!(wifi.value.as_deref(), Some("HomeNet"));
    assert!(wifi.states.is_empty());
    assert_eq!(wifi.actions, [Action::Click, Action::LongPress]);
    assert_eq!(wifi.bounds, Some(Rect::new(48, 1071, 1083, 132)));
    assert_eq!(identifier(wifi), Some("com.apple.settings.wifi"));
    assert_eq!(c.reference(wifi), "wda:0.0.0.1.4/Cell");
    let kids: Vec<(Role, &str)> = wifi
        .children
        .iter()
        .map(|n| (n.role, n.name.as_str()))
        .collect();
    assert_eq!(
        kids,
        [
            (Role::Img, ""),
            (Role::Text, "Wi-Fi"),
            (Role::Text, "HomeNet")
        ]
    );
    assert_eq!(
        c.one(Role::ListItem, "Bluetooth").value.as_deref(),
        Some("On")
    );
    assert_eq!(c.one(Role::ListItem, "Cellular").value, None);

    let airplane = c.one(Role::Switch, "Airplane Mode");
    assert!(airplane.states.is_empty(), "value 0: off");
    assert_eq!(airplane.actions, [Action::Click, Action::Toggle]);
    assert_eq!(airplane.bounds, Some(Rect::new(930, 957, 153, 93)));
    assert_eq!(airplane.value, None);

    let account = c.one(
        Role::ListItem,
        "Jane Appleseed, Apple ID, iCloud, Media & Purchases",
    );
    assert_eq!(account.bounds, Some(Rect::new(48, 618, 1083, 216)));
    assert_eq!(account.children.len(), 3);

    // Half on the screen is on it; below it is not.
    assert!(c.one(Role::ListItem, "Control Center").states.is_empty());
    for below in ["Display & Brightness", "Home Screen & App Library"] {
        let n = c.one(Role::ListItem, below);
        assert_eq!(n.states, [State::Offscreen], "{below}");
        assert!(n.children.iter().all(|k| k.has_state(State::Offscreen)));
    }
    assert_eq!(c.all(Role::Generic).len(), 1, "one wrapper of two kept");
}

#[test]
fn login_form_with_the_keyboard_up() {
    let dump = fixture("login.json");
    let c = captured(&dump);
    assert_eq!((c.envelope.screen.w, c.envelope.screen.h), (750, 1334));
    let app = c.root();
    assert_eq!(app.name, "Acme");
    assert_eq!(app.children.len(), 2, "the empty third window is left out");
    assert!(app.children.iter().all(|w| w.role == Role::Window));

    // A navigation bar named only by its identifier, which reads as words.
    let bar = c.one(Role::Toolbar, "Sign In");
    assert_eq!(identifier(bar), Some("Sign In"));
    assert_eq!(
        c.one(Role::Button, "Cancel").bounds,
        Some(Rect::new(16, 40, 120, 88))
    );
    c.one(Role::Heading, "Sign In");
    c.one(Role::Heading, "Welcome back");
    assert_eq!(c.one(Role::Img, "Acme logo").actions, []);

    let email = c.one(Role::TextBox, "Email");
    assert_eq!(identifier(email), Some("emailField"));
    assert_eq!(email.value.as_deref(), Some("jane@example.com"));
    assert_eq!(email.attributes.placeholder.as_deref(), Some("Email"));
    assert_eq!(email.states, [State::Editable]);
    assert_eq!(
        email.actions,
        [Action::Click, Action::Focus, Action::SetValue, Action::Type]
    );
    assert_eq!(email.bounds, Some(Rect::new(40, 400, 670, 88)));
    assert_eq!(c.reference(email), "wda:0.0.1.2/TextField");

    let password = c.one(Role::TextBox, "Password");
    assert_eq!(password.value.as_deref(), Some(MASK));
    assert_eq!(identifier(password), Some("passwordField"));
    assert_eq!(
        element_type(password),
        Some("XCUIElementTypeSecureTextField")
    );
    assert_eq!(password.bounds, Some(Rect::new(40, 512, 670, 88)));

    let remember = c.one(Role::Switch, "Remember me");
    assert_eq!(remember.states, [State::Checked]);
    assert_eq!(remember.bounds, Some(Rect::new(608, 624, 102, 62)));

    let sign_in = c.one(Role::Button, "Sign In");
    assert_eq!(identifier(sign_in), Some("signInButton"));
    assert_eq!(sign_in.actions, [Action::Click, Action::LongPress]);
    assert_eq!(sign_in.bounds, Some(Rect::new(40, 718, 670, 100)));
    let passkey = c.one(Role::Button, "Use a passkey");
    assert_eq!(passkey.states, [State::Disabled]);
    assert!(passkey.actions.is_empty());

    // The keyboard: a group of 32 keys, all buttons named by their label.
    let keyboard: Vec<&Node> = c
        .nodes()
        .into_iter()
        .filter(|n| element_type(n) == Some("XCUIElementTypeKeyboard"))
        .collect();
    assert_eq!(keyboard.len(), 1);
    let keyboard = keyboard[0];
    assert_eq!((keyboard.role, keyboard.name.as_str()), (Role::Group, ""));
    assert_eq!(keyboard.children.len(), 32);
    assert!(keyboard
        .children
        .iter()
        .all(|k| k.role == Role::Button && k.actions == [Action::Click, Action::LongPress]));
    assert_eq!(
        c.one(Role::Button, "q").bounds,
        Some(Rect::new(0, 918, 75, 108))
    );
    assert_eq!(
        c.one(Role::Button, "a").bounds,
        Some(Rect::new(38, 1026, 75, 108))
    );
    assert_eq!(
        c.one(Role::Button, "space").bounds,
        Some(Rect::new(188, 1242, 374, 92))
    );
    c.one(Role::Button, "go");
    assert_eq!(c.nodes().len(), 51);
}

#[test]
fn an_alert_over_a_note() {
    let dump = fixture("alert.json");
    let c = captured(&dump);
    let alert = c.one(Role::AlertDialog, "Delete Note?");
    assert_eq!(alert.states, [State::Modal]);
    assert_eq!(alert.actions, [Action::Dismiss]);
    assert_eq!(alert.bounds, Some(Rect::new(198, 1038, 783, 480)));
    // Three single-child wrappers collapsed into one kept container of the
    // two scroll views; the 1 pt separator left out.
    assert_eq!(alert.children.len(), 1);
    let parts = &alert.children[0].children;
    assert_eq!(parts.len(), 2);
    assert!(parts
        .iter()
        .all(|p| p.role == Role::Generic && p.actions == [Action::Scroll]));
    let texts: Vec<&str> = parts[0].children[0]
        .children
        .iter()
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(
        texts,
        [
            "Delete Note?",
            "This note will be deleted from all your devices."
        ]
    );
    let buttons: Vec<&str> = parts[1].children[0]
        .children
        .iter()
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(buttons, ["Cancel", "Delete"]);
    let delete = c.one(Role::Button, "Delete");
    assert_eq!(delete.bounds, Some(Rect::new(591, 1383, 390, 135)));
    assert_eq!(delete.actions, [Action::Click, Action::LongPress]);
    assert_eq!(c.reference(delete), "wda:0.0.1.0.0.0.0.1.0.0.2/Button");
    c.one(Role::Button, "Cancel");

    // Behind it, the note and its bars.
    let folders = c.one(Role::Button, "Folders");
    assert_eq!(identifier(folders), Some("BackButton"));
    let note = c.all(Role::TextBox);
    assert_eq!(note.len(), 1);
    assert_eq!(note[0].name, "");
    assert_eq!(note[0].value.as_deref(), Some("Shopping list\nmilk\neggs"));
    assert_eq!(note[0].states, [State::Editable]);
    let toolbar = c.one(Role::Toolbar, "Toolbar");
    assert_eq!(toolbar.children.len(), 2);
    assert_eq!(c.nodes().len(), 21);
}

#[test]
fn clock_alarms_with_a_tab_bar() {
    let dump = fixture("tab-bar.json");
    let c = captured(&dump);
    let tabs = c.one(Role::TabList, "Tab Bar");
    let names: Vec<&str> = tabs.children.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["World Clock", "Alarms", "Stopwatch", "Timers"]);
    for t in &tabs.children {
        assert_eq!(t.role, Role::Tab);
        assert_eq!(t.actions, [Action::Click, Action::Select]);
        assert_eq!(t.value, None, "a selected button's value 1 is a state");
    }
    let alarms = c.one(Role::Tab, "Alarms");
    assert_eq!(alarms.states, [State::Selected]);
    assert_eq!(alarms.bounds, Some(Rect::new(294, 2310, 294, 147)));
    assert!(c.one(Role::Tab, "Timers").states.is_empty());
    assert_eq!(
        c.one(Role::Tab, "Timers").bounds,
        Some(Rect::new(882, 2310, 297, 147))
    );

    let bar = c.one(Role::Toolbar, "Alarms");
    let kids: Vec<(Role, &str)> = bar
        .children
        .iter()
        .map(|n| (n.role, n.name.as_str()))
        .collect();
    assert_eq!(
        kids,
        [
            (Role::Button, "Edit"),
            (Role::Button, "Add"),
            (Role::Heading, "Alarms")
        ]
    );

    let list = c.all(Role::List);
    assert_eq!(list.len(), 1);
    let rows: Vec<(Role, &str)> = list[0]
        .children
        .iter()
        .map(|n| (n.role, n.name.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            (Role::Heading, "Sleep | Wake Up"),
            (Role::ListItem, "No Alarm"),
            (Role::Heading, "Other"),
            (Role::ListItem, ""),
            (Role::ListItem, ""),
            (Role::ListItem, "")
        ]
    );
    // U+202F in "6:30 AM" is whitespace: names are one plain line.
    let wake = c.one(Role::Switch, "6:30 AM, Wake Up");
    assert_eq!(wake.states, [State::Checked]);
    assert_eq!(wake.actions, [Action::Click, Action::Toggle]);
    assert_eq!(wake.bounds, Some(Rect::new(966, 972, 153, 93)));
    assert!(c
        .one(Role::Switch, "7:45 AM, Alarm, every weekday")
        .states
        .is_empty());
    assert!(c.one(Role::Switch, "9:00 AM, Gym").states.is_empty());
    assert_eq!(
        c.one(Role::Button, "SET UP").actions,
        [Action::Click, Action::LongPress]
    );
    assert_eq!(c.nodes().len(), 30);
}

#[test]
fn a_long_photo_grid() {
    let dump = fixture("photos-grid.json");
    let c = captured(&dump);
    let grid = c.all(Role::Grid);
    assert_eq!(grid.len(), 1, "cells a quarter of its width wide: a grid");
    let grid = grid[0];
    assert_eq!(grid.name, "", "PhotosGridView is an identifier");
    assert_eq!(identifier(grid), Some("PhotosGridView"));
    assert_eq!(grid.actions, [Action::Scroll]);
    assert_eq!(grid.children.len(), 48);
    assert!(grid.children.iter().all(|n| n.role == Role::Cell
        && n.actions == [Action::Click, Action::LongPress]
        && n.children.len() == 1
        && n.children[0].role == Role::Img));
    let first = &grid.children[0];
    assert_eq!(first.name, "Photo, March 12, 2024, 8:10 AM");
    assert_eq!(first.bounds, Some(Rect::new(0, 300, 293, 293)));
    assert_eq!(grid.children[1].bounds, Some(Rect::new(296, 300, 292, 293)));
    assert_eq!(c.reference(&first.children[0]), "wda:0.0.0.0.0.0/Image");
    let custom = first
        .platform
        .ios
        .as_ref()
        .and_then(|i| i.extra.get("customActions"))
        .cloned();
    assert_eq!(
        custom,
        Some(serde_json::json!(["Favorite", "Share", "Delete"]))
    );
    assert_eq!(
        first.platform.ios.as_ref().and_then(|i| i.traits.clone()),
        Some(vec!["Button".to_owned(), "Image".to_owned()])
    );
    // Rows 1–8 are on the screen (the 8th in part), 9–12 below it.
    let off: Vec<usize> = grid
        .children
        .iter()
        .enumerate()
        .filter(|(_, n)| n.has_state(State::Offscreen))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(off, (32..48).collect::<Vec<_>>());
    assert_eq!(grid.children[28].bounds, Some(Rect::new(0, 2369, 293, 292)));

    // The segmented control's buttons are radios; the tab bar's are tabs.
    let radios = c.all(Role::Radio);
    assert_eq!(radios.len(), 4);
    let all_photos = c.one(Role::Radio, "All Photos");
    assert_eq!(all_photos.states, [State::Checked]);
    assert_eq!(all_photos.actions, [Action::Click]);
    assert!(c.one(Role::Radio, "Days").states.is_empty());
    assert_eq!(c.one(Role::Tab, "Library").states, [State::Selected]);
    assert_eq!(
        c.one(Role::Button, "Select").actions,
        [Action::Click, Action::LongPress]
    );
    assert_eq!(c.nodes().len(), 113);
}

#[test]
fn a_web_page_in_safari() {
    let dump = fixture("safari.json");
    let c = captured(&dump);
    let docs = c.all(Role::Document);
    assert_eq!(docs.len(), 1);
    let doc = docs[0];
    assert_eq!(doc.actions, [Action::Scroll]);
    assert_eq!(doc.bounds, Some(Rect::new(0, 177, 1179, 2100)));
    let area = c.one(Role::Group, "Getting started \u{2014} CUP");
    assert_eq!(doc.children, std::slice::from_ref(area));
    assert_eq!(area.children.len(), 11);

    // WebKit's headings are Other elements with the Header trait.
    let h1 = c.one(Role::Heading, "Getting started");
    assert_eq!(element_type(h1), Some("XCUIElementTypeOther"));
    c.one(Role::Heading, "Install");

    let home = c.one(Role::Link, "CUP home");
    assert_eq!(home.children.len(), 1);
    assert_eq!(
        (home.children[0].role, home.children[0].name.as_str()),
        (Role::Img, "CUP logo")
    );
    let docs_link = c.one(Role::Link, "Docs");
    assert_eq!(docs_link.actions, [Action::Click, Action::LongPress]);
    assert_eq!(docs_link.bounds, Some(Rect::new(780, 225, 150, 90)));
    let spec = c.one(Role::Link, "Read the specification");
    assert_eq!(spec.states, [State::Offscreen]);

    let field = c.one(Role::TextBox, "Search docs");
    assert_eq!(field.value, None);
    assert_eq!(field.attributes.placeholder.as_deref(), Some("Search docs"));
    assert_eq!(field.states, [State::Editable]);
    c.one(Role::Text, "cargo install cup-cli");
    c.one(
        Role::Text,
        "CUP gives agents one accessibility tree for every UI.",
    );
    assert_eq!(
        c.one(Role::Button, "Copy").bounds,
        Some(Rect::new(960, 1011, 171, 90))
    );

    // Safari's own bar.
    let address = c.one(Role::Button, "Address");
    assert_eq!(address.value.as_deref(), Some("computeruseprotocol.com"));
    assert_eq!(identifier(address), Some("TabBarItemTitle"));
    let toolbar = c.all(Role::Toolbar);
    assert_eq!(toolbar.len(), 1);
    assert_eq!(toolbar[0].name, "", "BottomBrowserToolbar is an identifier");
    assert_eq!(identifier(toolbar[0]), Some("BottomBrowserToolbar"));
    assert_eq!(toolbar[0].children.len(), 5);
    let forward = c.one(Role::Button, "Forward");
    assert_eq!(forward.states, [State::Disabled]);
    assert!(forward.actions.is_empty());
    assert_eq!(identifier(c.one(Role::Button, "Back")), Some("BackButton"));
    assert_eq!(c.nodes().len(), 25);
}

#[test]
fn switches_and_a_slider_in_display_settings() {
    let dump = fixture("display-controls.json");
    let c = captured(&dump);
    let slider = c.one(Role::Slider, "Brightness");
    assert_eq!(slider.value.as_deref(), Some("62%"));
    let a = &slider.attributes;
    assert_eq!(
        (a.value_min, a.value_max, a.value_now),
        (Some(0.0), Some(1.0), Some(0.62))
    );
    assert_eq!(a.orientation, Some(Orientation::Horizontal));
    assert_eq!(slider.actions, [Action::Decrement, Action::Increment]);
    assert_eq!(slider.bounds, Some(Rect::new(186, 1281, 810, 93)));
    assert_eq!(
        slider.platform.ios.as_ref().and_then(|i| i.traits.clone()),
        Some(vec!["Adjustable".to_owned()])
    );

    let switches: HashMap<&str, &[State]> = c
        .all(Role::Switch)
        .into_iter()
        .map(|n| (n.name.as_str(), n.states.as_slice()))
        .collect();
    assert_eq!(
        switches,
        HashMap::from([
            ("Automatic", &[][..]),
            ("True Tone", &[State::Checked][..]),
            ("Raise to Wake", &[State::Checked, State::Disabled][..]),
            ("Bold Text", &[][..]),
        ])
    );
    assert!(c.one(Role::Switch, "Raise to Wake").actions.is_empty());
    let raise = c.one(Role::ListItem, "Raise to Wake");
    assert_eq!(raise.states, [State::Disabled]);
    assert!(raise.actions.is_empty());
    assert_eq!(
        c.one(Role::Switch, "True Tone").actions,
        [Action::Click, Action::Toggle]
    );

    let light = c.one(Role::Button, "Light");
    assert_eq!(light.states, [State::Selected]);
    assert_eq!(light.value, None);
    assert!(c.one(Role::Button, "Dark").states.is_empty());
    assert_eq!(
        c.one(Role::ListItem, "Night Shift").value.as_deref(),
        Some("Off")
    );
    assert_eq!(
        c.one(Role::ListItem, "Auto-Lock").value.as_deref(),
        Some("30 seconds")
    );
    c.one(Role::Heading, "APPEARANCE");
    c.one(Role::Heading, "BRIGHTNESS");
    let back = c.one(Role::Button, "Settings");
    assert_eq!(identifier(back), Some("BackButton"));
    assert_eq!(c.nodes().len(), 31);
}

/// The plans of actions on fixture elements land inside the elements.
#[test]
fn taps_land_on_their_elements() {
    for (name, dump) in fixtures() {
        let c = captured(&dump);
        for node in c.nodes() {
            if !node.actions.contains(&Action::Click) || node.has_state(State::Offscreen) {
                continue;
            }
            let r: ElementRef = c.capture.refs[&node.id].parse().expect("ref");
            let el = dump.tree.at(&r.path).expect("element");
            let plan = crate::plan::element(
                Action::Click,
                el,
                &dump.screen,
                &cup::ActionParams::default(),
            )
            .unwrap_or_else(|e| panic!("{name} {}: {e}", node.id));
            let crate::plan::Step::Call(call) = &plan.steps[0] else {
                panic!("a call")
            };
            let first = &call.body.as_ref().expect("body")["actions"][0]["actions"][0];
            let (x, y) = (
                first["x"].as_f64().expect("x") * dump.screen.scale,
                first["y"].as_f64().expect("y") * dump.screen.scale,
            );
            let b = node.bounds.expect("bounds");
            assert!(
                x >= b.x as f64
                    && x <= b.right() as f64
                    && y >= b.y as f64
                    && y <= b.bottom() as f64,
                "{name} {}: ({x}, {y}) outside {b:?}",
                node.id
            );
        }
    }
}
