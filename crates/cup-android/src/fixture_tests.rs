//! Whole native-dump fixtures (`tests/fixtures/*.json`: 13 screens in
//! the three dump shapes, built from the dumpers' documented attributes)
//! mapped into captures and schema-valid envelopes, then checked element
//! by element.

use cup::CaptureLimits;
use cup_protocol::compact::{render, RenderOptions};
use cup_protocol::{Action, Node, PlatformId, Rect, Role, State};

use crate::dump::parse;
use crate::facts::{NativeDump, Shape};
use crate::map::{map, windows};

/// Every fixture, by file name, sorted.
fn fixtures() -> Vec<(String, NativeDump)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    cup::native::read_dir(&dir).unwrap_or_else(|e| panic!("{e}"))
}

/// A fixture mapped the way the adapter maps a capture of every window.
struct Mapped {
    shape: Shape,
    capture: cup::Capture,
    envelope: cup_protocol::Envelope,
}

fn mapped(dump: &NativeDump, all: bool) -> Mapped {
    let parsed = parse(&dump.xml).unwrap_or_else(|e| panic!("{e}"));
    let ws: Vec<_> = windows(&parsed, dump.focus.as_ref())
        .into_iter()
        .filter(|w| all || w.foreground)
        .collect();
    let capture = map(&parsed, &ws, &CaptureLimits::default());
    let (w, h) = parsed
        .size
        .unwrap_or_else(|| dump.device.size_at(parsed.rotation));
    let envelope = cup_protocol::Envelope::new(
        PlatformId::Android,
        cup_protocol::envelope::Screen {
            w: i64::from(w),
            h: i64::from(h),
            scale: Some(dump.device.scale()),
        },
        capture.tree.clone(),
    );
    Mapped {
        shape: parsed.shape,
        capture,
        envelope,
    }
}

fn fixture(name: &str) -> Mapped {
    let dump = fixtures()
        .into_iter()
        .find(|(n, _)| n.starts_with(name))
        .map(|(_, d)| d)
        .unwrap_or_else(|| panic!("no fixture {name}"));
    mapped(&dump, true)
}

impl Mapped {
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

    fn compact(&self) -> String {
        render(&self.envelope, &RenderOptions::default())
    }
}

fn r(l: i64, t: i64, rr: i64, b: i64) -> Option<Rect> {
    Some(Rect::new(l, t, (rr - l) as u64, (b - t) as u64))
}

const SOURCE: &str = "built from documented attribute values of ";

#[test]
fn every_fixture_maps_to_a_schema_valid_envelope() {
    let all = fixtures();
    assert!(all.len() >= 12, "at least 12 screens: {}", all.len());
    let mut shapes = std::collections::BTreeMap::new();
    for (name, dump) in &all {
        assert_eq!(dump.platform, "android", "{name}");
        assert!(
            dump.source.starts_with(SOURCE) && dump.source.len() > SOURCE.len() + 30,
            "{name}: says where it came from: {:?}",
            dump.source
        );
        for all_windows in [true, false] {
            let m = mapped(dump, all_windows);
            *shapes.entry(format!("{:?}", m.shape)).or_insert(0) += usize::from(all_windows);
            assert!(m.capture.partial.is_none(), "{name}");
            let nodes = m.nodes();
            for (i, n) in nodes.iter().enumerate() {
                assert_eq!(n.id, format!("e{i}"), "{name}: ids in pre-order from e0");
                assert!(
                    m.capture.refs.contains_key(&n.id),
                    "{name}: {} has a ref",
                    n.id
                );
            }
            let value = serde_json::to_value(&m.envelope).expect("json");
            let violations = cup_protocol::schema::validate(&value);
            assert!(violations.is_empty(), "{name}: {violations:?}");
            let compact = m.compact();
            assert!(compact.starts_with("# CUP "), "{name}");
            assert!(compact.contains(" | android | "), "{name}");
            // Passwords never reach the text, whatever the dump held.
            assert!(!compact.contains('•'), "{name}: {compact}");
        }
    }
    for shape in ["Aosp", "Androidx", "Appium"] {
        assert!(
            shapes.get(shape).copied().unwrap_or(0) >= 3,
            "3 screens of {shape}: {shapes:?}"
        );
    }
}

#[test]
fn settings_rows_are_buttons_named_by_their_title_and_summary() {
    let m = fixture("01-");
    let root = &m.capture.tree[0];
    assert_eq!(
        (root.role, root.name.as_str()),
        (Role::Window, "com.android.settings")
    );
    assert_eq!(root.states, [State::Focused]);
    let row = m.one(
        Role::Button,
        "Network & internet, Mobile, Wi\u{2011}Fi, hotspot",
    );
    assert_eq!(row.bounds, r(0, 349, 1080, 569));
    assert_eq!(row.actions, [Action::Click]);
    let list = m
        .nodes()
        .into_iter()
        .find(|n| n.role == Role::List)
        .expect("list");
    assert_eq!(list.children.len(), 10);
    let scroller = m
        .nodes()
        .into_iter()
        .find(|n| n.actions.contains(&Action::Scroll))
        .expect("scroll");
    assert_eq!(scroller.bounds, r(0, 118, 1080, 2337));
    // NAF: an avatar with no text; clickable, so a button without a name.
    let avatar = m
        .nodes()
        .into_iter()
        .find(|n| n.bounds == r(912, 181, 1017, 286))
        .expect("avatar");
    assert_eq!((avatar.role, avatar.name.as_str()), (Role::Button, ""));
}

#[test]
fn a_login_form_keeps_fields_redacts_the_password_and_marks_what_is_disabled() {
    let m = fixture("02-");
    assert_eq!(m.capture.tree.len(), 3, "app, status bar, navigation bar");
    assert!(m.capture.tree[0].states.contains(&State::Focused));
    assert!(!m.capture.tree[1].states.contains(&State::Focused));
    let email = m.one(Role::TextBox, "Email");
    assert_eq!(email.value.as_deref(), Some("mara.schmidt@example.com"));
    assert_eq!(email.bounds, r(48, 376, 672, 488));
    assert_eq!(email.states, [State::Editable]);
    assert_eq!(
        email.actions,
        [
            Action::LongPress,
            Action::Focus,
            Action::Type,
            Action::SetValue
        ]
    );
    let password = m.one(Role::TextBox, "Password");
    assert_eq!(password.value, None, "redacted");
    assert_eq!(password.bounds, r(48, 520, 584, 632));
    let remember = m.one(Role::Checkbox, "Remember me");
    assert_eq!(remember.states, [State::Checked]);
    assert_eq!(remember.actions, [Action::Click, Action::Toggle]);
    let sign_in = m.one(Role::Button, "Sign in");
    assert_eq!(sign_in.bounds, r(48, 768, 672, 864));
    assert!(sign_in.states.is_empty());
    assert_eq!(
        m.one(Role::Button, "Sign in with a passkey").states,
        [State::Disabled]
    );
    assert_eq!(
        m.one(Role::Button, "Forgot password?").actions,
        [Action::Click]
    );
    assert_eq!(m.one(Role::Button, "Back").bounds, r(80, 1504, 200, 1600));
}

#[test]
fn a_long_recycler_view_is_a_scrollable_list_of_rows() {
    let m = fixture("03-");
    let list = m.one(Role::List, "");
    assert_eq!(list.bounds, r(0, 453, 1440, 3036));
    assert_eq!(list.actions, [Action::Scroll]);
    assert_eq!(list.children.len(), 15);
    let first = m.one(Role::Button, "Aaron Becker");
    assert_eq!(first.bounds, r(0, 453, 1440, 560));
    assert_eq!(first.actions, [Action::Click, Action::LongPress]);
    let last = m.one(Role::Button, "Christopher O\u{2019}Neil");
    assert_eq!(last.bounds, r(0, 2940, 1440, 3036), "clipped to the list");
    assert_eq!(m.one(Role::Heading, "B").bounds, r(0, 1344, 1440, 1456));
    assert_eq!(
        m.one(Role::Button, "Create contact").bounds,
        r(882, 2786, 1356, 2982)
    );
}

#[test]
fn compose_views_get_their_roles_from_their_flags() {
    let m = fixture("04-");
    let share = m.one(Role::Button, "Share");
    assert_eq!(share.bounds, r(912, 139, 1059, 286));
    assert_eq!(
        share
            .platform
            .android
            .as_ref()
            .and_then(|a| a.class_name.as_deref()),
        Some("android.view.View")
    );
    let before = m.one(Role::Checkbox, "15 minutes before");
    assert_eq!(before.states, [State::Checked]);
    assert_eq!(before.bounds, r(0, 1042, 1080, 1189));
    assert_eq!(m.one(Role::Checkbox, "At start time").states, []);
    // A checkable View with NAF and no text: a checkbox without a name,
    // inside its card (a clickable View that holds a control stays a
    // generic element with a click).
    let toggle = m
        .nodes()
        .into_iter()
        .find(|n| n.bounds == r(870, 412, 996, 517))
        .expect("switch");
    assert_eq!(
        (toggle.role, toggle.states.as_slice()),
        (Role::Checkbox, [State::Checked].as_slice())
    );
    let card = m
        .nodes()
        .into_iter()
        .find(|n| n.bounds == r(42, 328, 1038, 601))
        .expect("card");
    assert_eq!(
        (card.role, card.actions.as_slice()),
        (Role::Generic, [Action::Click].as_slice())
    );
    assert_eq!(m.one(Role::Radio, "Vibrate").states, [State::Checked]);
    assert_eq!(
        m.one(Role::Button, "Save changes").bounds,
        r(42, 2050, 1038, 2197)
    );
}

#[test]
fn an_alert_dialog_is_a_modal_window_named_by_its_title() {
    let m = fixture("05-");
    let root = &m.capture.tree[0];
    assert_eq!(
        (root.role, root.name.as_str()),
        (Role::AlertDialog, "Discard draft?")
    );
    assert_eq!(root.states, [State::Modal, State::Focused]);
    assert_eq!(root.bounds, r(48, 598, 672, 1002));
    assert_eq!(m.one(Role::Button, "OK").bounds, r(528, 886, 648, 982));
    assert_eq!(m.one(Role::Button, "Cancel").bounds, r(376, 886, 512, 982));
    m.one(
        Role::Text,
        "Your changes to \u{201c}Shopping list\u{201d} will be lost.",
    );
}

#[test]
fn a_web_view_is_a_document_with_links_fields_and_buttons() {
    let m = fixture("06-");
    let doc = m.one(Role::Document, "Kyoto travel guide \u{2013} Example Travel");
    assert_eq!(doc.bounds, r(0, 265, 1080, 2400));
    assert_eq!(doc.states, [State::Focused]);
    assert_eq!(doc.actions, [Action::Scroll]);
    let search = m.one(Role::TextBox, "Search destinations");
    assert_eq!(
        (search.value.as_deref(), search.bounds),
        (None, r(42, 451, 870, 577))
    );
    assert_eq!(m.one(Role::Button, "Search").bounds, r(891, 451, 1038, 577));
    assert_eq!(
        m.one(Role::Link, "Kiyomizu-dera").bounds,
        r(0, 2358, 1080, 2400)
    );
    m.one(Role::Img, "Example Travel");
    m.one(Role::Heading, "Kyoto travel guide");
    let url = m.one(Role::TextBox, "Search or type URL");
    assert_eq!(url.value.as_deref(), Some("example-travel.com/kyoto"));
}

#[test]
fn with_the_keyboard_open_every_window_is_there_and_the_app_is_in_front() {
    let m = fixture("07-");
    let titles: Vec<&str> = m.capture.tree.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(
        titles,
        [
            "com.android.systemui",
            "org.wikipedia",
            "com.google.android.inputmethod.latin"
        ]
    );
    let front: Vec<bool> = m
        .capture
        .tree
        .iter()
        .map(|w| w.states.contains(&State::Focused))
        .collect();
    assert_eq!(front, [false, true, false]);
    let field = m.one(Role::TextBox, "Search Wikipedia");
    assert_eq!(field.value.as_deref(), Some("Kyo"));
    assert_eq!(field.states, [State::Focused, State::Editable]);
    assert_eq!(field.bounds, r(196, 166, 1230, 320));
    assert_eq!(
        m.one(Role::Generic, "Search").bounds,
        r(1224, 2808, 1440, 3036)
    );
    // The foreground scope is the app alone.
    let dump = fixtures()
        .into_iter()
        .find(|(n, _)| n.starts_with("07-"))
        .expect("07")
        .1;
    let front_only = mapped(&dump, false);
    assert_eq!(front_only.capture.tree.len(), 1);
    assert_eq!(front_only.capture.tree[0].name, "org.wikipedia");
}

#[test]
fn landscape_bounds_are_in_the_rotated_screen() {
    let m = fixture("08-");
    assert_eq!((m.envelope.screen.w, m.envelope.screen.h), (2400, 1080));
    assert_eq!(m.envelope.screen.scale, Some(2.625));
    assert_eq!(m.capture.tree[0].bounds, r(0, 0, 2400, 1080));
    assert_eq!(
        m.one(Role::Button, "divide").bounds,
        r(2058, 380, 2400, 507)
    );
    assert_eq!(
        m.one(Role::Button, "backspace").actions,
        [Action::Click, Action::LongPress]
    );
    assert_eq!(
        m.one(Role::Text, "12\u{d7}(3+4)").bounds,
        r(1650, 100, 2358, 220)
    );
}

#[test]
fn material_widgets_map_to_their_roles_states_and_values() {
    let m = fixture("09-");
    assert_eq!(m.one(Role::Tab, "Delivery").states, [State::Selected]);
    m.one(Role::Tab, "Pickup");
    assert_eq!(
        m.one(Role::Button, "Navigate up").bounds,
        r(0, 48, 112, 160)
    );
    let sw = m.one(Role::Switch, "Text me delivery updates");
    assert_eq!(sw.states, [State::Checked]);
    assert_eq!(sw.actions, [Action::Click, Action::Toggle]);
    let tip = m.one(Role::Slider, "Tip");
    assert_eq!(
        (tip.value.as_deref(), tip.attributes.value_now),
        (Some("2.0"), Some(2.0))
    );
    assert_eq!(tip.actions, [Action::Increment, Action::Decrement]);
    let progress = m
        .nodes()
        .into_iter()
        .find(|n| n.role == Role::ProgressBar)
        .expect("progress");
    assert_eq!(
        (progress.value.as_deref(), progress.bounds),
        (Some("60.0"), r(32, 1112, 688, 1128))
    );
    assert_eq!(m.one(Role::Checkbox, "Gift wrap").states, [State::Checked]);
    let combo = m
        .nodes()
        .into_iter()
        .find(|n| n.role == Role::Combobox)
        .expect("spinner");
    assert_eq!(combo.value.as_deref(), Some("DHL Paket"));
    assert_eq!(combo.actions, [Action::Click, Action::Expand]);
    let promo = m.one(Role::TextBox, "Promo code");
    assert_eq!(
        promo.value, None,
        "the hint shown in an empty field is not its value"
    );
    assert_eq!(
        m.one(Role::Radio, "Standard (3\u{2013}5 days)").states,
        [State::Checked]
    );
}

#[test]
fn launcher_icons_are_buttons_and_the_workspace_scrolls() {
    let m = fixture("10-");
    let gmail = m.one(Role::Button, "Gmail");
    assert_eq!(gmail.bounds, r(60, 2140, 390, 2486));
    assert_eq!(gmail.actions, [Action::Click, Action::LongPress]);
    assert_eq!(
        m.one(Role::Button, "Folder: Google").bounds,
        r(60, 1794, 390, 2140)
    );
    assert_eq!(
        m.one(Role::Button, "Camera").bounds,
        r(1116, 2540, 1380, 2820)
    );
    let search = m.one(Role::Group, "Search");
    assert_eq!(search.bounds, r(60, 2848, 1380, 3008));
}

#[test]
fn quick_settings_tiles_are_switches_with_their_state() {
    let m = fixture("11-");
    assert_eq!(m.capture.tree[0].name, "com.android.systemui");
    let flashlight = m.one(Role::Switch, "Flashlight");
    assert_eq!(flashlight.states, [State::Checked]);
    assert_eq!(flashlight.bounds, r(42, 432, 531, 586));
    assert_eq!(m.one(Role::Switch, "Bluetooth").states, []);
    assert_eq!(
        m.one(Role::Button, "Internet").actions,
        [Action::Click, Action::LongPress]
    );
    assert_eq!(
        m.one(Role::Button, "Clear all").bounds,
        r(780, 1735, 1038, 1819)
    );
    m.one(Role::Text, "Running 5 min late!\nSave me a seat \u{1f64f}");
}

#[test]
fn escaped_and_non_ascii_text_is_exact_and_hidden_windows_are_offscreen() {
    let m = fixture("12-");
    m.one(
        Role::Text,
        "Gr\u{fc}\u{df} Gott! \u{3088}\u{3046}\u{3053}\u{305d} \u{1f44b}",
    );
    m.one(Role::Text, "Tom's \"Special\" <Burger> & Fries");
    m.one(Role::Text, "\u{1f355} Pizza Margherita");
    m.one(Role::Text, "mit Bergk\u{e4}se\nvegetarisch");
    let hidden: Vec<bool> = m
        .capture
        .tree
        .iter()
        .map(|w| w.states.contains(&State::Offscreen))
        .collect();
    assert_eq!(hidden, [false, true, true]);
    let announcer = m
        .nodes()
        .into_iter()
        .find(|n| {
            n.platform
                .android
                .as_ref()
                .and_then(|a| a.resource_id.as_deref())
                .is_some_and(|r| r.ends_with(":id/a11y_announcer"))
        })
        .expect("announcer");
    assert_eq!(announcer.bounds, None, "zero-size: no place on the screen");
    let naf = m
        .nodes()
        .into_iter()
        .find(|n| n.bounds == r(608, 48, 720, 160))
        .expect("NAF button");
    assert_eq!((naf.role, naf.name.as_str()), (Role::Button, ""));
}

#[test]
fn number_pickers_step_and_show_their_value() {
    let m = fixture("13-");
    assert_eq!(
        (m.capture.tree[0].role, m.capture.tree[0].name.as_str()),
        (Role::AlertDialog, "Date of birth")
    );
    let pickers: Vec<&Node> = m
        .nodes()
        .into_iter()
        .filter(|n| n.role == Role::SpinButton)
        .collect();
    let values: Vec<Option<&str>> = pickers.iter().map(|p| p.value.as_deref()).collect();
    assert_eq!(values, [Some("Mar"), Some("14"), Some("1992")]);
    assert_eq!(pickers[0].bounds, r(193, 1231, 529, 1890));
    assert_eq!(
        pickers[0].actions,
        [Action::Increment, Action::Decrement, Action::Scroll]
    );
    assert_eq!(m.one(Role::Button, "Feb").bounds, r(193, 1231, 529, 1450));
    assert_eq!(m.one(Role::Button, "OK").bounds, r(1085, 1946, 1300, 2078));
}

#[test]
fn a_dump_of_3000_nodes_fits_the_compact_cap() {
    let xml = crate::sample::long_list(600);
    let parsed = parse(&xml).expect("dump");
    assert!(
        parsed
            .roots
            .iter()
            .map(crate::facts::AndroidNode::count)
            .sum::<usize>()
            >= 3000
    );
    let ws = windows(&parsed, None);
    let capture = map(&parsed, &ws, &CaptureLimits::default());
    assert!(capture.partial.is_none());
    let envelope = cup_protocol::Envelope::new(
        PlatformId::Android,
        cup_protocol::envelope::Screen {
            w: 1080,
            h: 2400,
            scale: Some(2.625),
        },
        capture.tree.clone(),
    );
    let text = render(&envelope, &RenderOptions::default());
    assert!(
        text.chars().count() <= cup_protocol::compact::MAX_OUTPUT_CHARS,
        "{}",
        text.len()
    );
    assert!(text.contains("[e0] win"), "{}", &text[..200]);
}
