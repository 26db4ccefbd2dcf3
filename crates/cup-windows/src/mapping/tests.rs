//! Mapping rules, one element at a time, and whole native-dump fixtures
//! (`fixtures/*.json`) mapped into schema-valid envelopes.

use cup_protocol::{Action, PlatformId, Role, State};

use super::*;
use crate::control::{ct, msaa_role, msaa_state};
use crate::facts::{
    Bounds, Legacy, NativeDump, Patterns, RangeFacts, SelectionFacts, ValueFacts,
    WindowPatternFacts,
};

fn el(control_type: i32, name: &str) -> Element {
    Element {
        control_type,
        name: name.into(),
        is_enabled: true,
        bounds: Some(Bounds {
            left: 10.0,
            top: 20.0,
            width: 100.0,
            height: 30.0,
        }),
        ..Element::default()
    }
}

fn map(e: &Element) -> Node {
    map_element(e, &MapContext::default())
}

#[test]
fn a_button_is_clicked_through_invoke() {
    let mut b = el(ct::BUTTON, "  Save \n file ");
    b.patterns.invoke = true;
    b.is_keyboard_focusable = true;
    let m = map(&b);
    assert_eq!(m.role, Role::Button);
    assert_eq!(m.name, "Save file");
    assert_eq!(m.actions, vec![Action::Click, Action::Focus]);
    assert_eq!(m.bounds, Some(Rect::new(10, 20, 100, 30)));
    let p = m.platform.windows.expect("platform.windows");
    assert_eq!(p.control_type, Some(50000));
    assert_eq!(p.patterns, Some(vec!["Invoke".to_owned()]));
}

#[test]
fn toggle_states_read_as_checked_mixed_or_pressed() {
    let mut c = el(ct::CHECK_BOX, "Wrap");
    c.patterns.toggle = Some(1);
    let m = map(&c);
    assert_eq!(m.states, vec![State::Checked]);
    assert_eq!(m.actions, vec![Action::Click, Action::Toggle]);
    c.patterns.toggle = Some(2);
    assert_eq!(map(&c).states, vec![State::Mixed]);
    let mut b = el(ct::BUTTON, "Bold");
    b.patterns.toggle = Some(1);
    assert_eq!(map(&b).states, vec![State::Pressed]);
    let mut s = el(ct::BUTTON, "Bluetooth");
    s.class_name = "ToggleSwitch".into();
    s.patterns.toggle = Some(1);
    let m = map(&s);
    assert_eq!((m.role, m.states), (Role::Switch, vec![State::Checked]));
}

#[test]
fn menu_items_with_toggle_or_selection_are_checkbox_and_radio_items() {
    let mut t = el(ct::MENU_ITEM, "Word Wrap");
    t.patterns.toggle = Some(0);
    assert_eq!(map(&t).role, Role::MenuItemCheckbox);
    let mut r = el(ct::MENU_ITEM, "Large icons");
    r.patterns.selection_item = Some(true);
    let m = map(&r);
    assert_eq!(m.role, Role::MenuItemRadio);
    assert!(m.states.contains(&State::Checked));
    assert!(!m.states.contains(&State::Selected));
    let mut e = el(ct::MENU_ITEM, "File");
    e.patterns.expand_collapse = Some(0);
    let m = map(&e);
    assert_eq!(m.states, vec![State::Collapsed]);
    assert_eq!(
        m.actions,
        vec![Action::Click, Action::Collapse, Action::Expand]
    );
}

#[test]
fn a_named_pane_is_a_region_and_an_unnamed_one_generic() {
    assert_eq!(map(&el(ct::PANE, "Navigation")).role, Role::Region);
    assert_eq!(map(&el(ct::PANE, " ")).role, Role::Generic);
}

#[test]
fn web_content_takes_its_aria_role_and_heading_level() {
    let mut h = el(ct::TEXT, "Welcome");
    h.heading_level = 80052;
    h.aria_role = "heading".into();
    let m = map(&h);
    assert_eq!(m.role, Role::Heading);
    assert_eq!(m.attributes.level.map(|l| l.get()), Some(2));
    let mut nav = el(ct::GROUP, "Site");
    nav.aria_role = "navigation".into();
    assert_eq!(map(&nav).role, Role::Navigation);
    // ARIA never weakens a specific control type.
    let mut b = el(ct::BUTTON, "Go");
    b.aria_role = "generic".into();
    assert_eq!(map(&b).role, Role::Button);
    let mut l = el(ct::HYPERLINK, "Docs");
    l.patterns.invoke = true;
    l.patterns.value = Some(ValueFacts {
        value: "https://example.org/docs".into(),
        is_read_only: true,
    });
    let m = map(&l);
    assert_eq!(m.value, None);
    assert_eq!(
        m.attributes.url.as_deref(),
        Some("https://example.org/docs")
    );
}

#[test]
fn text_inputs_are_editable_with_their_value_and_passwords_are_masked() {
    let mut e = el(ct::EDIT, "Search");
    e.patterns.value = Some(ValueFacts {
        value: "cats".into(),
        is_read_only: false,
    });
    e.is_keyboard_focusable = true;
    e.has_keyboard_focus = true;
    e.is_required_for_form = true;
    let m = map(&e);
    assert_eq!(m.value.as_deref(), Some("cats"));
    assert_eq!(
        m.states,
        vec![State::Editable, State::Focused, State::Required]
    );
    assert_eq!(
        m.actions,
        vec![Action::Focus, Action::SetValue, Action::Type]
    );
    e.is_password = true;
    assert_eq!(map(&e).value.as_deref(), Some("••••••••"));
    e.patterns.value = Some(ValueFacts {
        value: "x".into(),
        is_read_only: true,
    });
    e.is_password = false;
    let m = map(&e);
    assert!(m.states.contains(&State::ReadOnly) && !m.states.contains(&State::Editable));
    assert!(!m.actions.contains(&Action::Type));
}

#[test]
fn ranges_give_value_bounds_and_steps() {
    let mut s = el(ct::SLIDER, "Volume");
    s.orientation = 1;
    s.patterns.range_value = Some(RangeFacts {
        value: 30.0,
        minimum: 0.0,
        maximum: 100.0,
        small_change: 1.0,
        large_change: 10.0,
        is_read_only: false,
    });
    let m = map(&s);
    assert_eq!(m.value.as_deref(), Some("30"));
    assert_eq!(
        (m.attributes.value_min, m.attributes.value_max),
        (Some(0.0), Some(100.0))
    );
    assert_eq!(m.attributes.orientation, Some(Orientation::Horizontal));
    assert_eq!(
        m.actions,
        vec![Action::Decrement, Action::Increment, Action::SetValue]
    );
}

#[test]
fn modal_dialogs_and_multiselect_lists() {
    let mut w = el(ct::WINDOW, "Save As");
    w.patterns.window = Some(WindowPatternFacts {
        is_modal: true,
        ..WindowPatternFacts::default()
    });
    let m = map(&w);
    assert_eq!(m.role, Role::Dialog);
    assert_eq!(m.states, vec![State::Modal]);
    assert_eq!(m.actions, vec![Action::Dismiss]);
    let mut l = el(ct::LIST, "Files");
    l.patterns.selection = Some(SelectionFacts {
        can_select_multiple: true,
        is_selection_required: false,
    });
    assert_eq!(map(&l).states, vec![State::MultiSelectable]);
}

#[test]
fn list_items_of_a_combo_box_are_options() {
    let item = el(ct::LIST_ITEM, "Arial");
    let ctx = MapContext {
        family: Context {
            parent_type: ct::LIST,
            grandparent_type: ct::COMBO_BOX,
        },
        ..MapContext::default()
    };
    assert_eq!(map_element(&item, &ctx).role, Role::Option);
    assert_eq!(map(&item).role, Role::ListItem);
}

#[test]
fn without_patterns_msaa_facts_and_the_pointer_stand_in() {
    // Wine: a Win32 button through the MSAA proxy, no patterns.
    let mut b = el(ct::PANE, "OK");
    b.patterns.legacy = Some(Legacy {
        role: msaa_role::PUSHBUTTON,
        state: msaa_state::FOCUSABLE | msaa_state::UNAVAILABLE,
        ..Legacy::default()
    });
    let m = map(&b);
    assert_eq!(m.role, Role::Button);
    assert_eq!(m.states, vec![State::Disabled]);
    assert!(m.actions.is_empty(), "a disabled element offers nothing");
    // A menu item with bounds and no patterns is clicked at its centre.
    let m = map(&el(ct::MENU_ITEM, "File"));
    assert_eq!(m.actions, vec![Action::Click]);
    // An edit area with no patterns takes typed text.
    let mut e = el(ct::EDIT, "");
    e.is_keyboard_focusable = true;
    let m = map(&e);
    assert!(m.states.contains(&State::Editable));
    assert_eq!(
        m.actions,
        vec![Action::Focus, Action::SetValue, Action::Type]
    );
}

#[test]
fn offscreen_comes_from_uia_or_from_lying_off_every_monitor() {
    let mut e = el(ct::TEXT, "Footer");
    e.is_offscreen = true;
    assert_eq!(map(&e).states, vec![State::Offscreen]);
    let far = Element {
        bounds: Some(Bounds {
            left: 5000.0,
            top: 10.0,
            width: 10.0,
            height: 10.0,
        }),
        ..el(ct::TEXT, "Far")
    };
    let ctx = MapContext {
        monitors: &[Rect::new(0, 0, 1920, 1080)],
        ..MapContext::default()
    };
    assert_eq!(map_element(&far, &ctx).states, vec![State::Offscreen]);
    let none = Element {
        bounds: None,
        ..el(ct::TEXT, "Nowhere")
    };
    assert_eq!(map(&none).bounds, None);
    let empty = Element {
        bounds: Some(Bounds {
            left: 0.0,
            top: 0.0,
            width: 0.0,
            height: 0.0,
        }),
        ..el(ct::TEXT, "Empty")
    };
    assert_eq!(map(&empty).bounds, None);
}

#[test]
fn fractional_bounds_cover_the_whole_pixels() {
    let e = Element {
        bounds: Some(Bounds {
            left: -10.5,
            top: 3.25,
            width: 20.5,
            height: 10.0,
        }),
        ..el(ct::IMAGE, "Logo")
    };
    assert_eq!(map(&e).bounds, Some(Rect::new(-11, 3, 21, 11)));
    let _ = Patterns::default();
}

/// Every fixture, mapped the way a capture maps it.
fn fixtures() -> Vec<(String, NativeDump)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    cup::native::read_dir(&dir).unwrap_or_else(|e| panic!("{e}"))
}

/// A dump captured the way the adapter captures: its capture, and the
/// envelope of its tree.
fn captured(dump: &NativeDump) -> (cup::Capture, cup_protocol::Envelope) {
    let screen = crate::screen::screen_info(&dump.screen);
    let monitors: Vec<Rect> = screen.monitors.iter().map(|m| m.rect).collect();
    let limits = crate::assemble::Limits {
        max_depth: 999,
        max_nodes: 50_000,
    };
    let mut capture = crate::assemble::assemble(&dump.trees, &monitors, limits);
    let envelope = cup_protocol::Envelope::new(
        PlatformId::Windows,
        cup_protocol::envelope::Screen {
            w: screen.width,
            h: screen.height,
            scale: Some(screen.scale),
        },
        std::mem::take(&mut capture.tree),
    );
    (capture, envelope)
}

#[test]
fn every_fixture_maps_to_a_schema_valid_envelope() {
    let all = fixtures();
    assert!(
        all.len() >= 6,
        "fixtures of at least 6 windows: {}",
        all.len()
    );
    let live = all
        .iter()
        .filter(|(_, d)| d.source.starts_with("recorded live under Wine"))
        .count();
    assert!(live >= 3, "the Wine windows are recorded live: {live}");
    for (name, dump) in &all {
        assert_eq!(dump.platform, "windows", "{name}");
        assert!(
            !dump.source.trim().is_empty(),
            "{name}: says where it came from"
        );
        let (capture, envelope) = captured(dump);
        assert!(capture.partial.is_none(), "{name}: {:?}", capture.partial);
        let natives: usize = dump
            .trees
            .iter()
            .filter_map(|t| t.root.as_ref())
            .map(|r| r.count())
            .sum();
        assert_eq!(
            capture.refs.len(),
            natives,
            "{name}: every element has an id and a ref"
        );
        let value = serde_json::to_value(&envelope).expect("envelope json");
        let violations = cup_protocol::schema::validate(&value);
        assert!(violations.is_empty(), "{name}: {violations:?}");
    }
}

#[test]
fn wines_win32_panes_take_their_class_roles() {
    let all = fixtures();
    let (_, dump) = all
        .iter()
        .find(|(n, _)| n == "wine-winecfg.json")
        .expect("the winecfg recording");
    let (_, env) = captured(dump);
    let opts = cup_protocol::compact::RenderOptions {
        detail: cup_protocol::compact::Detail::Full,
        ..Default::default()
    };
    let text = cup_protocol::compact::render(&env, &opts);
    for wanted in [
        "win \"Wine configuration\"",
        "grp \"Application settings\"",
        "btn \"OK\"",
        "btn \"Apply\"",
        "cmb \"Windows 10\"",
        "tabs",
    ] {
        assert!(text.contains(wanted), "{wanted} in:\n{text}");
    }
}

#[test]
fn an_event_senders_smaller_request_maps_the_same() {
    fn walk(n: &crate::facts::NativeNode, seen: &mut usize) {
        let full = &n.element;
        let sender = full.as_event_sender();
        let ctx = MapContext::default();
        let (a, b) = (map_element(full, &ctx), map_element(&sender, &ctx));
        let what = crate::act::describe(full);
        assert_eq!(a.role, b.role, "{what}");
        assert_eq!(a.name, b.name, "{what}");
        assert_eq!(a.value, b.value, "{what}");
        assert_eq!(a.states, b.states, "{what}");
        assert_eq!(what, crate::act::describe(&sender));
        *seen += 1;
        for c in &n.children {
            walk(c, seen);
        }
    }
    let mut seen = 0;
    for (_, dump) in fixtures() {
        for t in &dump.trees {
            if let Some(root) = &t.root {
                walk(root, &mut seen);
            }
        }
    }
    assert!(seen > 300, "every fixture element checked: {seen}");
    // The list is a subset of what a capture asks for.
    for id in crate::control::prop::EVENT_SKIPPED {
        assert!(crate::control::prop::ALL.contains(id), "{id}");
    }
}
