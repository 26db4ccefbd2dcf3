//! Unit tests of the mapping: names, roles, states and actions, pixels,
//! pruning, ids and limits.

use std::time::Instant;

use cup_protocol::mappings::Mappings;
use cup_protocol::node::Orientation;
use cup_protocol::{Action, PlatformId, Rect, State};

use super::*;
use crate::facts::{NativeDump, WdaRect};

fn el(ty: &str) -> WdaElement {
    WdaElement {
        element_type: ty.into(),
        rect: Some(WdaRect {
            x: 10.0,
            y: 100.0,
            width: 100.0,
            height: 44.0,
        }),
        enabled: Some(true),
        visible: Some(true),
        ..WdaElement::default()
    }
}

fn screen() -> ScreenFacts {
    ScreenFacts {
        width_points: 390.0,
        height_points: 844.0,
        scale: 3.0,
    }
}

#[test]
fn identifiers_are_told_from_words() {
    for id in [
        "loginButton",
        "com.apple.settings.general",
        "LOGIN_BUTTON",
        "btn-login",
        "nav:back",
        "TabBarItemTitle",
        "BottomBrowserToolbar",
    ] {
        assert!(identifier_like(id), "{id}");
    }
    for words in [
        "Settings", "Wi-Fi", "iPhone", "iCloud", "AirDrop", "FaceTime", "OK", "Sign In", "café",
        "settings", "Toolbar",
    ] {
        assert!(!identifier_like(words), "{words}");
    }
}

#[test]
fn names_fall_back_from_label_to_name_value_placeholder() {
    let mut b = el("Button");
    b.name = Some("loginButton".into());
    assert_eq!(name(&b), "");
    b.name = Some("Sign In".into());
    assert_eq!(name(&b), "Sign In");
    b.label = Some("  Log\n in ".into());
    assert_eq!(name(&b), "Log in");
    let mut t = el("StaticText");
    t.value = Some("Hello".into());
    assert_eq!(name(&t), "Hello");
    let mut f = el("TextField");
    f.name = Some("emailField".into());
    f.placeholder_value = Some("Email".into());
    f.value = Some("Email".into());
    assert_eq!(name(&f), "Email");
    let n = map_element(&f, &Context::default(), &screen());
    assert_eq!(n.value, None, "the placeholder is no value");
    assert_eq!(n.attributes.placeholder.as_deref(), Some("Email"));
    assert_eq!(
        n.platform.ios.and_then(|i| i.identifier).as_deref(),
        Some("emailField")
    );
    f.value = Some("me@example.com".into());
    assert_eq!(value(&f, "Email").as_deref(), Some("me@example.com"));
    let mut p = el("SecureTextField");
    p.value = Some("•••••".into());
    assert_eq!(value(&p, "").as_deref(), Some(MASK));
    p.value = None;
    assert_eq!(value(&p, ""), None);
}

#[test]
fn roles_follow_the_parent() {
    let b = el("Button");
    let in_tabs = Context {
        parent_type: "TabBar",
        parent_role: Some(Role::TabList),
    };
    assert_eq!(role(&b, &in_tabs), Role::Tab);
    assert_eq!(role(&b, &Context::default()), Role::Button);
    let cell = el("Cell");
    let in_list = Context {
        parent_type: "Table",
        parent_role: Some(Role::List),
    };
    assert_eq!(role(&cell, &in_list), Role::ListItem);
    assert_eq!(role(&cell, &Context::default()), Role::Cell);
    let mut other = el("Other");
    assert_eq!(role(&other, &Context::default()), Role::Generic);
    other.traits = vec!["Button".into()];
    assert_eq!(role(&other, &Context::default()), Role::Button);
    let mut grid = el("CollectionView");
    grid.children = vec![el("Cell"), el("Cell")];
    assert_eq!(role(&grid, &Context::default()), Role::List);
    grid.rect = Some(WdaRect {
        x: 0.0,
        y: 0.0,
        width: 390.0,
        height: 600.0,
    });
    assert_eq!(role(&grid, &Context::default()), Role::Grid);
    // A type only mappings.json knows is looked up there.
    assert_eq!(
        role(&el("XCUIElementTypeFuture"), &Context::default()),
        Role::Generic
    );
}

/// The table agrees with every cell of the spec's iOS column that
/// names an XCUIElementType, but the two documented departures.
#[test]
fn the_table_agrees_with_mappings_json() {
    let departures = [("picker", Role::Combobox), ("table", Role::Grid)];
    let mut checked = 0;
    for (cup_role, row) in &Mappings::get().roles {
        let Some(Some(cell)) = row.get(&PlatformId::Ios) else {
            continue;
        };
        for alt in &cell.alternatives {
            if alt.contains('+') || departures.contains(&(alt.as_str(), *cup_role)) {
                continue;
            }
            let mut chars = alt.chars();
            let Some(first) = chars.next() else { continue };
            let ty: String = first.to_uppercase().chain(chars).collect();
            let mut e = el(&ty);
            if ty == "Header" {
                e = el("StaticText");
                e.traits = vec!["Header".into()];
            }
            if ty == "List" {
                continue; // no XCUIElementTypeList
            }
            let got = role(&e, &Context::default());
            let allowed = Mappings::get().roles_for_native(PlatformId::Ios, alt);
            assert!(
                allowed.contains(&got),
                "{ty}: {got} not in {allowed:?} ({cup_role})"
            );
            checked += 1;
        }
    }
    assert!(checked >= 15, "{checked}");
}

#[test]
fn states_and_actions() {
    let s = screen();
    let mut sw = el("Switch");
    sw.value = Some("1".into());
    let n = map_element(&sw, &Context::default(), &s);
    assert_eq!(
        (n.role, n.states.as_slice()),
        (Role::Switch, &[State::Checked][..])
    );
    assert_eq!(n.actions, [Action::Click, Action::Toggle]);
    assert_eq!(n.value, None);
    sw.enabled = Some(false);
    let n = map_element(&sw, &Context::default(), &s);
    assert_eq!(n.states, [State::Checked, State::Disabled]);
    assert!(n.actions.is_empty());
    let mut tab = el("Button");
    tab.value = Some("1".into());
    let ctx = Context {
        parent_type: "TabBar",
        parent_role: Some(Role::TabList),
    };
    let n = map_element(&tab, &ctx, &s);
    assert_eq!(n.states, [State::Selected]);
    assert_eq!(n.actions, [Action::Click, Action::Select]);
    let mut toggle = el("Button");
    toggle.traits = vec!["Button".into(), "ToggleButton".into(), "Selected".into()];
    assert_eq!(
        map_element(&toggle, &Context::default(), &s).states,
        [State::Pressed]
    );
    let mut far = el("Cell");
    far.rect = Some(WdaRect {
        x: 0.0,
        y: 900.0,
        width: 390.0,
        height: 44.0,
    });
    assert_eq!(
        map_element(&far, &Context::default(), &s).states,
        [State::Offscreen]
    );
    let mut hidden = el("StaticText");
    hidden.visible = Some(false);
    assert_eq!(
        map_element(&hidden, &Context::default(), &s).states,
        [State::Offscreen]
    );
    let mut slider = el("Slider");
    slider.value = Some("50%".into());
    slider.min_value = Some(0.0);
    slider.max_value = Some(1.0);
    let n = map_element(&slider, &Context::default(), &s);
    assert_eq!(n.value.as_deref(), Some("50%"));
    assert_eq!(
        (
            n.attributes.value_min,
            n.attributes.value_max,
            n.attributes.value_now
        ),
        (Some(0.0), Some(1.0), Some(0.5))
    );
    assert_eq!(n.attributes.orientation, Some(Orientation::Horizontal));
    assert_eq!(n.actions, [Action::Decrement, Action::Increment]);
    let table = map_element(&el("Table"), &Context::default(), &s);
    assert_eq!(
        (table.role, table.actions.as_slice()),
        (Role::List, &[Action::Scroll][..])
    );
    let alert = map_element(&el("Alert"), &Context::default(), &s);
    assert_eq!(alert.states, [State::Modal]);
    assert_eq!(alert.actions, [Action::Dismiss]);
}

#[test]
fn pixels_are_points_times_scale() {
    let r = WdaRect {
        x: 16.0,
        y: 47.33,
        width: 358.0,
        height: 44.0,
    };
    assert_eq!(to_pixels(&r, 3.0), Some(Rect::new(48, 142, 1074, 132)));
    assert_eq!(to_pixels(&r, 2.0), Some(Rect::new(32, 95, 716, 88)));
    let broken = WdaRect {
        x: f64::INFINITY,
        ..r
    };
    assert_eq!(to_pixels(&broken, 3.0), None);
}

fn tree() -> NativeDump {
    let mut text = el("StaticText");
    text.label = Some("Hello".into());
    let mut wrapper = el("Other");
    wrapper.children = vec![text];
    let mut outer = el("Other");
    outer.children = vec![wrapper, el("Other")];
    let mut b = el("Button");
    b.label = Some("OK".into());
    let mut window = el("Window");
    window.children = vec![outer, b];
    let mut app = el("Application");
    app.label = Some("Demo".into());
    app.children = vec![window, el("Window")];
    NativeDump {
        platform: "ios".into(),
        source: "test".into(),
        screen: screen(),
        bundle_id: None,
        tree: app,
    }
}

#[test]
fn pointless_wrappers_collapse_and_ids_are_pre_order() {
    let c = capture(&tree(), &Limits::default());
    let app = &c.tree[0];
    assert_eq!((app.id.as_str(), app.role), ("e0", Role::Application));
    assert_eq!(app.children.len(), 1, "the empty window is left out");
    let window = &app.children[0];
    let kids: Vec<(&str, Role, &str)> = window
        .children
        .iter()
        .map(|n| (n.id.as_str(), n.role, n.name.as_str()))
        .collect();
    assert_eq!(
        kids,
        [("e2", Role::Text, "Hello"), ("e3", Role::Button, "OK")]
    );
    assert_eq!(c.refs["e0"], "wda:/Application");
    assert_eq!(c.refs["e2"], "wda:0.0.0.0/StaticText");
    assert_eq!(c.refs["e3"], "wda:0.1/Button");
    assert!(c.partial.is_none());
}

#[test]
fn limits_make_a_partial_capture() {
    let c = capture(
        &tree(),
        &Limits {
            max_nodes: 3,
            ..Limits::default()
        },
    );
    assert_eq!(c.refs.len(), 3);
    let p = c.partial.expect("partial");
    assert!(p.reason.contains("node cap of 3"), "{}", p.reason);
    assert_eq!(p.missing, 1);
    let c = capture(
        &tree(),
        &Limits {
            max_depth: 1,
            ..Limits::default()
        },
    );
    assert_eq!(c.refs.len(), 2);
    assert!(c.partial.is_none());
    let c = capture(
        &tree(),
        &Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        },
    );
    assert!(c.tree.is_empty());
    assert!(c.partial.is_some_and(|p| p.reason.contains("deadline")));
}
