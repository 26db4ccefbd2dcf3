//! Whole-node scenarios over toolkit-like fixtures, plus agreement with the
//! spec's mapping table and schema.

use std::num::NonZeroU32;

use cup_protocol::envelope::{PlatformId, Screen};
use cup_protocol::mappings::Mappings;
use cup_protocol::{Action, Envelope, Orientation, Rect, Role, State};

use super::actions::raw_action_verbs;
use super::fixtures::{chromium, gtk3, gtk4, qt};
use super::role::map_role;
use super::*;
use crate::facts::{AtspiRole, AtspiState, Interface};

fn ctx() -> MapContext {
    MapContext {
        monitors: vec![Rect::new(0, 0, 1920, 1080)],
    }
}

fn map(raw: &RawNode) -> Mapped {
    map_node(raw, &ctx())
}

fn all_atspi_roles() -> Vec<AtspiRole> {
    (0..=130u32)
        .filter_map(|n| AtspiRole::try_from(n).ok())
        .collect()
}

#[test]
fn gtk3_push_button() {
    let m = map(&gtk3(AtspiRole::Button, "OK").actions(&["click"]).build());
    assert_eq!(m.role, Role::Button);
    assert_eq!(m.name, "OK");
    assert_eq!(m.bounds, Some(Rect::new(10, 20, 100, 30)));
    assert!(m.states.is_empty());
    assert_eq!(m.actions, vec![Action::Click]);
    assert_eq!(m.platform.atspi_role.as_deref(), Some("ROLE_PUSH_BUTTON"));
    assert_eq!(
        m.platform.interfaces.as_deref(),
        Some(&["Accessible", "Action", "Component"].map(String::from)[..])
    );
    assert_eq!(m.platform.extra["actions"], serde_json::json!(["click"]));
    assert_eq!(m.platform.extra["toolkit"], "GTK");
}

#[test]
fn insensitive_button_is_disabled_and_keeps_click() {
    let raw = gtk3(AtspiRole::Button, "Apply")
        .actions(&["click"])
        .states(&[AtspiState::Focusable])
        .without(&[AtspiState::Enabled, AtspiState::Sensitive])
        .build();
    let m = map(&raw);
    assert_eq!(m.states, vec![State::Disabled]);
    assert_eq!(m.actions, vec![Action::Click]);
}

#[test]
fn gtk3_check_button_checked_mixed_unchecked() {
    let base = gtk3(AtspiRole::CheckBox, "Wrap lines")
        .actions(&["click"])
        .states(&[AtspiState::Focusable, AtspiState::Checkable]);
    let checked = map(&base.clone().states(&[AtspiState::Checked]).build());
    assert_eq!(checked.role, Role::Checkbox);
    assert_eq!(checked.states, vec![State::Checked]);
    assert_eq!(checked.actions, vec![Action::Click, Action::Toggle]);
    let mixed = map(&base.clone().states(&[AtspiState::Indeterminate]).build());
    assert_eq!(mixed.states, vec![State::Mixed]);
    let unchecked = map(&base.build());
    assert!(unchecked.states.is_empty());
    assert_eq!(unchecked.actions, vec![Action::Click, Action::Toggle]);
}

#[test]
fn gtk3_toggle_button_pressed() {
    let raw = gtk3(AtspiRole::ToggleButton, "Bold")
        .actions(&["click"])
        .states(&[AtspiState::Checked, AtspiState::Focusable])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::Button);
    assert_eq!(m.states, vec![State::Pressed]);
    assert_eq!(m.actions, vec![Action::Click, Action::Toggle]);
}

#[test]
fn gtk4_switch() {
    let raw = gtk4(AtspiRole::ToggleButton, "Wi-Fi")
        .actions(&["toggle"])
        .states(&[AtspiState::Checked])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::Switch);
    assert_eq!(m.states, vec![State::Checked]);
    assert_eq!(m.actions, vec![Action::Click, Action::Toggle]);
}

#[test]
fn gtk4_type_name_fallbacks_are_no_name() {
    // GTK 4.8 names a widget by its type when the app set no name
    // (gnome-text-editor: btn "GtkMenuButton", gen "GtkBuiltinIcon",
    // grp "GtkStackPage", gen "AdwTabBar").
    let button = map(&gtk4(AtspiRole::ToggleButton, "GtkMenuButton").build());
    assert_eq!((button.role, button.name.as_str()), (Role::Button, ""));
    let icon = map(&gtk4(AtspiRole::Image, "GtkBuiltinIcon").build());
    assert_eq!((icon.role, icon.name.as_str()), (Role::Img, ""));
    let page = map(&gtk4(AtspiRole::Panel, "GtkStackPage").build());
    assert_eq!((page.role, page.name.as_str()), (Role::Group, ""));
    // A named generic with a click is a button; without the type name it
    // is unnamed and stays generic.
    let bar = map(&gtk4(AtspiRole::Filler, "AdwTabBar")
        .actions(&["click"])
        .build());
    assert_eq!((bar.role, bar.name.as_str()), (Role::Generic, ""));
    // Real names stay, in GTK and elsewhere.
    for name in ["Gtkfoo", "Gtk Demo"] {
        assert_eq!(map(&gtk4(AtspiRole::Button, name).build()).name, name);
    }
    assert_eq!(
        map(&gtk3(AtspiRole::Button, "GtkMenuButton").build()).name,
        ""
    );
    assert_eq!(
        map(&qt(AtspiRole::Button, "GtkMenuButton").build()).name,
        "GtkMenuButton"
    );
}

#[test]
fn gtk3_radio_button() {
    let raw = gtk3(AtspiRole::RadioButton, "Landscape")
        .actions(&["click"])
        .states(&[AtspiState::Checked, AtspiState::Focusable])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::Radio);
    assert_eq!(m.states, vec![State::Checked]);
    assert_eq!(m.actions, vec![Action::Click, Action::Select]);
}

#[test]
fn gtk4_entry_with_placeholder_and_text() {
    let raw = gtk4(AtspiRole::Entry, "")
        .ifaces(&[Interface::EditableText])
        .text("hello")
        .attr("placeholder-text", "Search files")
        .actions(&["activate"])
        .states(&[
            AtspiState::Editable,
            AtspiState::Focusable,
            AtspiState::Focused,
            AtspiState::SingleLine,
        ])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::TextBox);
    assert_eq!(m.name, "");
    assert_eq!(m.value.as_deref(), Some("hello"));
    assert_eq!(m.attributes.placeholder.as_deref(), Some("Search files"));
    assert_eq!(m.states, vec![State::Focused, State::Editable]);
    assert_eq!(
        m.actions,
        vec![Action::Click, Action::SetValue, Action::Type]
    );
}

#[test]
fn gtk3_text_entry_and_read_only_text_view() {
    let entry = gtk3(AtspiRole::Text, "Name")
        .ifaces(&[Interface::EditableText])
        .text("Ada")
        .states(&[AtspiState::Editable, AtspiState::Focusable])
        .build();
    let m = map(&entry);
    assert_eq!(m.role, Role::TextBox);
    assert_eq!(m.actions, vec![Action::SetValue, Action::Type]);
    let view = gtk3(AtspiRole::Text, "Log")
        .ifaces(&[Interface::EditableText])
        .text("done")
        .states(&[AtspiState::Focusable])
        .build();
    let m = map(&view);
    assert_eq!(m.role, Role::TextBox);
    assert_eq!(m.states, vec![State::ReadOnly]);
    assert_eq!(m.actions, vec![Action::Focus]);
}

#[test]
fn password_text_is_a_textbox() {
    let raw = gtk3(AtspiRole::PasswordText, "Password")
        .ifaces(&[Interface::EditableText])
        .text("●●●●")
        .states(&[AtspiState::Editable, AtspiState::Focusable])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::TextBox);
    assert_eq!(m.value.as_deref(), Some("●●●●"));
    assert_eq!(m.actions, vec![Action::SetValue, Action::Type]);
}

#[test]
fn gtk3_spin_button_with_value() {
    let raw = gtk3(AtspiRole::SpinButton, "Copies")
        .value(0.0, 100.0, 50.0)
        .ifaces(&[Interface::EditableText])
        .text("50")
        .states(&[AtspiState::Editable, AtspiState::Focusable])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::SpinButton);
    assert_eq!(m.value.as_deref(), Some("50"));
    assert_eq!(m.attributes.value_min, Some(0.0));
    assert_eq!(m.attributes.value_max, Some(100.0));
    assert_eq!(m.attributes.value_now, Some(50.0));
    assert_eq!(m.states, vec![State::Editable]);
    assert_eq!(
        m.actions,
        vec![Action::Decrement, Action::Increment, Action::SetValue]
    );
}

#[test]
fn gtk3_slider() {
    let raw = gtk3(AtspiRole::Slider, "Volume")
        .value(0.0, 1.0, 0.5)
        .states(&[AtspiState::Horizontal, AtspiState::Focusable])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::Slider);
    assert_eq!(m.value.as_deref(), Some("0.5"));
    assert_eq!(m.attributes.orientation, Some(Orientation::Horizontal));
    assert_eq!(
        m.actions,
        vec![Action::Decrement, Action::Increment, Action::SetValue]
    );
}

#[test]
fn gtk3_progress_bar() {
    let raw = gtk3(AtspiRole::ProgressBar, "")
        .value(0.0, 100.0, 30.0)
        .states(&[AtspiState::Indeterminate, AtspiState::Horizontal])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::ProgressBar);
    assert_eq!(m.value.as_deref(), Some("30"));
    assert!(m.actions.is_empty());
    assert!(m.states.is_empty(), "{:?}", m.states);
    assert_eq!(m.attributes.value_now, Some(30.0));
}

#[test]
fn gtk3_combo_box_expandable() {
    let raw = gtk3(AtspiRole::ComboBox, "Paper size")
        .actions(&["press"])
        .ifaces(&[Interface::Selection])
        .states(&[AtspiState::Expandable, AtspiState::Focusable])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::Combobox);
    assert_eq!(m.states, vec![State::Collapsed]);
    // select chooses one of its options by name.
    assert_eq!(
        m.actions,
        vec![
            Action::Click,
            Action::Collapse,
            Action::Expand,
            Action::Select
        ]
    );
}

#[test]
fn expanded_tree_item_with_level() {
    let raw = qt(AtspiRole::TreeItem, "src")
        .attr("level", "2")
        .states(&[
            AtspiState::Expandable,
            AtspiState::Expanded,
            AtspiState::Selectable,
        ])
        .in_selection()
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::TreeItem);
    assert_eq!(m.states, vec![State::Expanded]);
    assert_eq!(m.attributes.level, NonZeroU32::new(2));
    assert_eq!(
        m.actions,
        vec![Action::Collapse, Action::Expand, Action::Select]
    );
}

#[test]
fn gtk3_menu_item() {
    let raw = gtk3(AtspiRole::MenuItem, "Open…")
        .actions(&["click"])
        .in_selection()
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::MenuItem);
    assert_eq!(m.actions, vec![Action::Click]);
}

#[test]
fn qt_raw_actions_never_leak() {
    let cases = [
        (
            AtspiRole::Button,
            vec!["Press", "SetFocus"],
            vec![Action::Click, Action::Focus],
        ),
        (
            AtspiRole::Slider,
            vec!["Increase", "Decrease", "SetFocus"],
            vec![Action::Decrement, Action::Focus, Action::Increment],
        ),
        (
            AtspiRole::CheckBox,
            vec!["Toggle", "SetFocus"],
            vec![Action::Click, Action::Focus, Action::Toggle],
        ),
        (
            AtspiRole::List,
            vec!["ShowMenu", "SetFocus"],
            vec![Action::Focus, Action::RightClick],
        ),
        (AtspiRole::Label, vec!["Whatever", "Edit"], vec![]),
    ];
    for (role, raw_names, want) in cases {
        let raw = qt(role, "x").actions(&raw_names).build();
        let m = map(&raw);
        assert_eq!(m.actions, want, "{role:?}");
        let json = serde_json::to_value(m.clone().into_node("e0".into())).expect("json");
        for a in json["actions"].as_array().into_iter().flatten() {
            let a = a.as_str().expect("string");
            assert!(Action::from_name(a).is_some(), "{a}");
        }
        assert_eq!(
            m.platform.extra["actions"],
            serde_json::json!(raw_names),
            "raw names are kept in platform.linux"
        );
    }
}

#[test]
fn chromium_heading_from_xml_roles() {
    let raw = chromium(AtspiRole::Heading, "")
        .attr("xml-roles", "heading")
        .attr("level", "2")
        .attr("tag", "h2")
        .attr("id", "intro")
        .text("Getting started")
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::Heading);
    assert_eq!(m.name, "Getting started");
    assert_eq!(m.attributes.level, NonZeroU32::new(2));
    assert_eq!(m.platform.extra["id"], "intro");
}

#[test]
fn chromium_landmarks_and_aria_roles() {
    let nav = chromium(AtspiRole::Landmark, "Primary")
        .attr("xml-roles", "navigation")
        .build();
    assert_eq!(map(&nav).role, Role::Navigation);
    let search = chromium(AtspiRole::Entry, "Search")
        .attr("xml-roles", "searchbox")
        .states(&[AtspiState::Editable, AtspiState::Focusable])
        .ifaces(&[Interface::EditableText])
        .build();
    let m = map(&search);
    assert_eq!(m.role, Role::SearchBox);
    assert_eq!(m.actions, vec![Action::SetValue, Action::Type]);
    let div_button = chromium(AtspiRole::Section, "")
        .text("Save")
        .actions(&["click"])
        .states(&[AtspiState::Focusable])
        .build();
    assert_eq!(map(&div_button).role, Role::Button);
    assert_eq!(map(&div_button).name, "Save");
}

#[test]
fn chromium_paragraph_is_named_by_its_text_and_unnamed_one_is_generic() {
    let p = chromium(AtspiRole::Paragraph, "")
        .text("Read the \u{fffc} first.")
        .build();
    let m = map(&p);
    assert_eq!((m.role, m.name.as_str()), (Role::Text, "Read the first."));
    let only_link = chromium(AtspiRole::Paragraph, "").text("\u{fffc}").build();
    assert_eq!(map(&only_link).role, Role::Generic);
    let inside_clickable = chromium(AtspiRole::Paragraph, "")
        .text("Card title")
        .actions(&["clickAncestor"])
        .build();
    let m = map(&inside_clickable);
    assert_eq!(m.role, Role::Text);
    assert!(m.actions.is_empty());
}

#[test]
fn frame_is_a_window() {
    let raw = gtk3(AtspiRole::Frame, "Text Editor")
        .states(&[AtspiState::Active, AtspiState::Resizable])
        .build();
    let m = map(&raw);
    assert_eq!(m.role, Role::Window);
    assert!(m.states.is_empty());
}

#[test]
fn offscreen_by_state_and_by_position() {
    let hidden_page = gtk3(AtspiRole::Button, "Next")
        .actions(&["click"])
        .without(&[AtspiState::Showing])
        .build();
    assert_eq!(map(&hidden_page).states, vec![State::Offscreen]);
    let far = gtk3(AtspiRole::Button, "Far")
        .actions(&["click"])
        .extents(3000, 100, 80, 30)
        .build();
    assert_eq!(map(&far).states, vec![State::Offscreen]);
    let touching = gtk3(AtspiRole::Button, "Edge")
        .extents(1920, 0, 10, 10)
        .build();
    assert_eq!(map(&touching).states, vec![State::Offscreen]);
    let unknown = gtk3(AtspiRole::Button, "Unknown")
        .extents(5000, 5000, 0, 0)
        .build();
    assert!(map(&unknown).states.is_empty());
    let gone = gtk3(AtspiRole::Button, "Gone")
        .without(&[AtspiState::Showing, AtspiState::Visible])
        .extents(-1, -1, -1, -1)
        .build();
    assert_eq!(map(&gone).states, vec![State::Hidden]);
}

#[test]
fn unplaced_gtk_widgets_have_no_bounds_and_are_offscreen() {
    let raw = gtk3(AtspiRole::MenuItem, "Left")
        .without(&[AtspiState::Showing])
        .extents(i32::MIN, i32::MIN, 1, 1)
        .build();
    let mapped = map(&raw);
    assert_eq!(mapped.bounds, None);
    assert!(mapped.states.contains(&State::Offscreen));
}

#[test]
fn gtk4_rows_it_did_not_allocate_are_offscreen_without_bounds() {
    // A GtkListView row scrolled out of view: an empty rectangle at the
    // list's origin. GTK 4 has no SHOWING state to say so.
    let row = gtk4(AtspiRole::ListItem, "Builder")
        .states(&[AtspiState::Focusable, AtspiState::Selectable])
        .extents(0, 51, 0, 0)
        .build();
    let m = map(&row);
    assert_eq!(m.bounds, None);
    assert!(m.states.contains(&State::Offscreen), "{:?}", m.states);
    let shown = gtk4(AtspiRole::ListItem, "GTK Demo")
        .states(&[AtspiState::Focusable, AtspiState::Selectable])
        .extents(13, 51, 197, 36)
        .build();
    assert!(!map(&shown).states.contains(&State::Offscreen));
    // GTK 3 says it with SHOWING; an empty rectangle alone changes nothing.
    let gtk3_empty = gtk3(AtspiRole::Label, "x").extents(5, 5, 0, 0).build();
    assert!(!map(&gtk3_empty).states.contains(&State::Offscreen));
}

#[test]
fn unknown_extents_give_no_bounds() {
    let raw = gtk3(AtspiRole::Label, "x").extents(-1, -1, -1, -1).build();
    assert_eq!(map(&raw).bounds, None);
    let raw = gtk3(AtspiRole::Label, "x").extents(-5, -7, 10, 0).build();
    assert_eq!(map(&raw).bounds, None);
    let mut raw = gtk3(AtspiRole::Label, "x").build();
    raw.extents = None;
    assert_eq!(map(&raw).bounds, None);
    let raw = gtk3(AtspiRole::Label, "x").extents(-5, -7, 10, 4).build();
    assert_eq!(map(&raw).bounds, Some(Rect::new(-5, -7, 10, 4)));
}

#[test]
fn description_is_kept_when_it_adds_something() {
    let raw = gtk3(AtspiRole::Button, "Save")
        .description("Save the document")
        .build();
    assert_eq!(map(&raw).description.as_deref(), Some("Save the document"));
    let raw = gtk3(AtspiRole::Button, "Save").description("Save").build();
    assert_eq!(map(&raw).description, None);
}

#[test]
fn every_atspi_role_maps_to_a_schema_valid_node() {
    let roles = all_atspi_roles();
    assert_eq!(roles.len(), 130);
    assert!(AtspiRole::try_from(130).is_err());
    let mut tree = Vec::new();
    for (i, r) in roles.into_iter().enumerate() {
        let raw = gtk3(r, "Item")
            .actions(&["click", "SetFocus", "frobnicate"])
            .states(&[AtspiState::Focusable, AtspiState::Expandable])
            .value(0.0, 10.0, 3.0)
            .text("text")
            .build();
        let m = map(&raw);
        assert!(Role::ALL.contains(&m.role));
        assert!(Role::ALL.contains(&map_role(&raw)));
        tree.push(m.into_node(format!("e{i}")));
    }
    let envelope = Envelope::new(
        PlatformId::Linux,
        Screen {
            w: 1920,
            h: 1080,
            scale: None,
        },
        tree,
    );
    let json = serde_json::to_value(&envelope).expect("serializes");
    let violations = cup_protocol::schema::validate(&json);
    assert!(violations.is_empty(), "{violations:?}");
}

#[test]
fn mapped_tree_validates_against_the_schema() {
    let ctx = ctx();
    let mut window = map_node(
        &gtk3(AtspiRole::Frame, "Prefs")
            .states(&[AtspiState::Active])
            .build(),
        &ctx,
    )
    .into_node("e0".into());
    let children = [
        gtk4(AtspiRole::Entry, "")
            .ifaces(&[Interface::EditableText])
            .text("héllo \"quoted\"")
            .attr("placeholder-text", "Name")
            .states(&[AtspiState::Editable, AtspiState::Focusable])
            .build(),
        gtk3(AtspiRole::Slider, "Volume")
            .value(f64::NAN, f64::INFINITY, 0.25)
            .build(),
        chromium(AtspiRole::Link, "Docs")
            .attr("href", "https://example.com")
            .attr("posinset", "2")
            .attr("setsize", "5")
            .attr("live", "polite")
            .actions(&["jump"])
            .build(),
        chromium(AtspiRole::TableCell, "")
            .text("42")
            .attr("rowindex", "3")
            .attr("colindex", "1")
            .build(),
        qt(AtspiRole::ProgressBar, "Copying")
            .value(0.0, 100.0, 100.0)
            .extents(-100, -100, 50, 10)
            .build(),
    ];
    for (i, raw) in children.iter().enumerate() {
        window
            .children
            .push(map_node(raw, &ctx).into_node(format!("e{}", i + 1)));
    }
    let envelope = Envelope::new(
        PlatformId::Linux,
        Screen {
            w: 1920,
            h: 1080,
            scale: None,
        },
        vec![window],
    );
    let json = serde_json::to_value(&envelope).expect("serializes");
    let violations = cup_protocol::schema::validate(&json);
    assert!(violations.is_empty(), "{violations:?}\n{json:#}");
    let back: Envelope = serde_json::from_value(json).expect("round trips");
    assert_eq!(back.node_count(), 6);
    let slider = back.find_node("e2").expect("slider");
    assert_eq!(slider.attributes.value_now, Some(0.25));
    assert_eq!(slider.attributes.value_min, None);
    let cell = back.find_node("e4").expect("cell");
    assert_eq!(
        (cell.name.as_str(), cell.attributes.row_index),
        ("42", Some(2))
    );
}

/// Every Linux alternative named in `mappings.json` is an AT-SPI role this
/// module knows by that name, and a plain named node of that role maps to
/// one of the CUP roles the table lists for it, except for these decisions.
const MAPPINGS_EXCEPTIONS: &[(&str, Role, &str)] = &[
    (
        "ROLE_TOGGLE_BUTTON",
        Role::Button,
        "a toggle button is an ARIA button with aria-pressed; switch only for GTK switches and xml-roles=switch",
    ),
    (
        "ROLE_SCROLL_PANE",
        Role::Group,
        "a scroll pane is a tab panel only in context (xml-roles=tabpanel)",
    ),
    (
        "ROLE_SECTION",
        Role::Generic,
        "web engines expose every <div> as a section; region only from xml-roles=region",
    ),
    (
        "ROLE_TEXT",
        Role::Text,
        "ROLE_TEXT without EditableText and not EDITABLE is static text",
    ),
];

#[test]
fn roles_agree_with_mappings_json() {
    let m = Mappings::get();
    let by_name: std::collections::HashMap<String, AtspiRole> = all_atspi_roles()
        .into_iter()
        .map(|r| (atspi_role_name(r), r))
        .collect();
    let mut used_exceptions = Vec::new();
    let mut checked = 0;
    for row in m.roles.values() {
        let Some(mapping) = row.get(&PlatformId::Linux).and_then(Option::as_ref) else {
            continue;
        };
        for native in &mapping.alternatives {
            let atspi = *by_name
                .get(native)
                .unwrap_or_else(|| panic!("{native} is not an AT-SPI role name"));
            let ours = map_role(&gtk3(atspi, "x").build());
            let allowed = m.roles_for_native(PlatformId::Linux, native);
            if let Some((_, role, _)) = MAPPINGS_EXCEPTIONS.iter().find(|e| e.0 == native) {
                assert_eq!(ours, *role, "{native}");
                assert!(!allowed.contains(&ours), "{native} needs no exception");
                used_exceptions.push(native.clone());
            } else {
                assert!(
                    allowed.contains(&ours),
                    "{native} maps to {ours}, mappings.json says {allowed:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked}");
    used_exceptions.sort();
    used_exceptions.dedup();
    assert_eq!(used_exceptions.len(), MAPPINGS_EXCEPTIONS.len());
}

#[test]
fn context_dependent_mappings_are_reachable() {
    let cases = [
        (
            gtk3(AtspiRole::ToggleButton, "x")
                .attr("xml-roles", "switch")
                .build(),
            Role::Switch,
        ),
        (
            gtk3(AtspiRole::Entry, "x")
                .attr("xml-roles", "searchbox")
                .build(),
            Role::SearchBox,
        ),
        (
            gtk3(AtspiRole::ListItem, "x")
                .states(&[AtspiState::Selectable])
                .build(),
            Role::Option,
        ),
        (
            gtk3(AtspiRole::ScrollPane, "x")
                .attr("xml-roles", "tabpanel")
                .build(),
            Role::TabPanel,
        ),
        (
            gtk3(AtspiRole::Section, "x")
                .attr("xml-roles", "region")
                .build(),
            Role::Region,
        ),
        (
            gtk3(AtspiRole::Alert, "x")
                .attr("xml-roles", "alertdialog")
                .build(),
            Role::AlertDialog,
        ),
        (
            gtk3(AtspiRole::Text, "x")
                .ifaces(&[Interface::EditableText])
                .build(),
            Role::TextBox,
        ),
    ];
    let m = Mappings::get();
    for (raw, want) in cases {
        let got = map_role(&raw);
        assert_eq!(got, want, "{:?}", raw.role);
        assert!(m
            .roles_for_native(PlatformId::Linux, &atspi_role_name(raw.role))
            .contains(&got));
    }
}

#[test]
fn states_and_actions_agree_with_mappings_json() {
    // Each positive AT-SPI state named in the table produces its CUP state
    // on a node where the state applies.
    let m = Mappings::get();
    let cases = [
        (AtspiRole::CheckBox, AtspiState::Checked, State::Checked),
        (AtspiRole::TreeItem, AtspiState::Expanded, State::Expanded),
        (AtspiRole::Button, AtspiState::Focused, State::Focused),
        (AtspiRole::CheckBox, AtspiState::Indeterminate, State::Mixed),
        (AtspiRole::Dialog, AtspiState::Modal, State::Modal),
        (
            AtspiRole::List,
            AtspiState::Multiselectable,
            State::MultiSelectable,
        ),
        (AtspiRole::Button, AtspiState::Pressed, State::Pressed),
        (AtspiRole::Entry, AtspiState::ReadOnly, State::ReadOnly),
        (AtspiRole::Entry, AtspiState::Required, State::Required),
        (AtspiRole::ListItem, AtspiState::Selected, State::Selected),
        (AtspiRole::Frame, AtspiState::Busy, State::Busy),
        (AtspiRole::TreeItem, AtspiState::Collapsed, State::Collapsed),
    ];
    for (role, atspi, want) in cases {
        let native = format!(
            "STATE_{}",
            atspi.to_static_str().to_ascii_uppercase().replace('-', "_")
        );
        assert!(
            m.states_for_native(PlatformId::Linux, &native)
                .contains(&want),
            "{native}"
        );
        let raw = gtk3(role, "x")
            .states(&[atspi, AtspiState::Editable])
            .build();
        assert!(map(&raw).states.contains(&want), "{native} on {role:?}");
    }
    let editable = gtk3(AtspiRole::Entry, "x")
        .states(&[AtspiState::Editable])
        .build();
    assert!(map(&editable).states.contains(&State::Editable));
    // Raw action names of the table's `Action.<name>` entries map to that
    // verb.
    for (verb, row) in &m.actions {
        let Some(mapping) = row.get(&PlatformId::Linux).and_then(Option::as_ref) else {
            continue;
        };
        for alt in &mapping.alternatives {
            if let Some(name) = alt.strip_prefix("Action.") {
                let name = name.split('(').next().unwrap_or(name);
                let verbs = raw_action_verbs(name);
                if *verb == Action::DoubleClick {
                    // `Action.click(count=2)`: a click done twice.
                    assert_eq!(verbs, &[Action::Click]);
                } else {
                    assert!(verbs.contains(verb), "{alt} → {verbs:?}");
                }
            }
        }
    }
}

#[test]
fn nameless_controls_are_named_by_their_description() {
    // VLC 3 (Qt 5): the player's Play button has no name, only a tooltip.
    let play = qt(AtspiRole::Button, "")
        .actions(&["Press", "SetFocus"])
        .description("Play\nIf the playlist is empty, open a medium")
        .build();
    let m = map(&play);
    assert_eq!(m.name, "Play");
    assert_eq!(m.platform.extra[NAME_FROM], "description");
    assert_eq!(
        m.description.as_deref(),
        Some("Play\nIf the playlist is empty, open a medium")
    );
    // A named control keeps its name; a description alone names no text.
    let named = gtk3(AtspiRole::Button, "OK").description("Accept").build();
    assert_eq!(map(&named).name, "OK");
    assert!(!map(&named).platform.extra.contains_key(NAME_FROM));
    let label = gtk3(AtspiRole::Label, "").description("A hint").build();
    assert_eq!(map(&label).name, "");
}

#[test]
fn qt_show_menu_on_a_menu_bar_item_opens_it() {
    // VLC's menu bar: "Media" offers only Qt's ShowMenu.
    let media = qt(AtspiRole::MenuItem, "Media")
        .actions(&["ShowMenu"])
        .build();
    assert_eq!(map(&media).actions, vec![Action::Click]);
    let names = vec!["ShowMenu".to_owned()];
    assert_eq!(
        raw_action_index(&names, Action::Click, Role::MenuItem),
        Some(0)
    );
    assert_eq!(
        raw_action_index(&names, Action::RightClick, Role::MenuItem),
        None
    );
    // On any other widget Qt's ShowMenu is the context menu.
    let list = qt(AtspiRole::List, "Playlist")
        .actions(&["ShowMenu"])
        .build();
    assert!(map(&list).actions.contains(&Action::RightClick));
    assert_eq!(
        raw_action_index(&names, Action::RightClick, Role::List),
        Some(0)
    );
}

#[test]
fn items_of_a_closed_menu_are_told_by_their_showing_state() {
    let closed = crate::facts::StateSet::new(AtspiState::Visible | AtspiState::Enabled);
    let open = crate::facts::StateSet::new(AtspiState::Visible | AtspiState::Showing);
    for role in [
        AtspiRole::Menu,
        AtspiRole::MenuItem,
        AtspiRole::CheckMenuItem,
        AtspiRole::RadioMenuItem,
        AtspiRole::Separator,
    ] {
        assert!(in_closed_menu(role, closed, "gtk", "3.24.38"), "{role:?}");
        assert!(in_closed_menu(role, closed, "Qt", "5.15.8"), "{role:?}");
        assert!(!in_closed_menu(role, open, "gtk", "3.24.38"), "{role:?}");
        // GTK 2 never says SHOWING of a menu's items.
        assert!(!in_closed_menu(role, closed, "gtk", "2.24.33"), "{role:?}");
        assert!(!in_closed_menu(role, closed, "GAIL", ""), "{role:?}");
    }
    // Not a menu's item: its place is read whatever it says.
    assert!(!in_closed_menu(AtspiRole::Button, closed, "gtk", "3.24.38"));
    assert!(!in_closed_menu(
        AtspiRole::TableCell,
        closed,
        "gtk",
        "3.24.38"
    ));
}
