//! Fixtures in the shape `Accessibility.getFullAXTree` returns.

use serde_json::json;

use super::*;

fn ax(v: Value) -> AxNode {
    AxNode::from_cdp(&v).unwrap_or_else(|| panic!("not an AX node: {v}"))
}

fn attrs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn dom<'a>(tag: &'a str, attrs: &'a [(String, String)]) -> DomInfo<'a> {
    DomInfo {
        tag,
        attrs,
        bounds: Some(Rect::new(10, 20, 100, 30)),
        scrollable: false,
    }
}

#[test]
fn checked_checkbox_with_bounds() {
    let n = ax(json!({
        "nodeId": "12", "ignored": false, "backendDOMNodeId": 7,
        "role": {"type": "role", "value": "checkbox"},
        "name": {"type": "computedString", "value": "Subscribe"},
        "properties": [
            {"name": "focusable", "value": {"type": "booleanOrUndefined", "value": true}},
            {"name": "checked", "value": {"type": "tristate", "value": "true"}}
        ],
        "childIds": ["13"]
    }));
    let node = map(&n, Some(&dom("input", &attrs(&[("type", "checkbox")])))).expect("mapped");
    assert_eq!(node.role, Role::Checkbox);
    assert_eq!(node.name, "Subscribe");
    assert_eq!(node.states, vec![State::Checked]);
    assert_eq!(node.actions, vec![Action::Click, Action::Toggle]);
    assert_eq!(node.bounds, Some(Rect::new(10, 20, 100, 30)));
    let web = node.platform.web.expect("platform.web");
    assert_eq!(web.tag_name.as_deref(), Some("input"));
    assert_eq!(web.input_type.as_deref(), Some("checkbox"));
    assert_eq!(web.extra.get("backendDOMNodeId"), Some(&json!(7)));
}

#[test]
fn text_input_value_placeholder_and_password() {
    let n = ax(json!({
        "nodeId": "3", "backendDOMNodeId": 9,
        "role": {"type": "role", "value": "textbox"},
        "name": {"type": "computedString", "value": "Email"},
        "value": {"type": "string", "value": "a@b.c"},
        "properties": [
            {"name": "editable", "value": {"type": "token", "value": "plaintext"}},
            {"name": "focusable", "value": {"type": "booleanOrUndefined", "value": true}},
            {"name": "focused", "value": {"type": "booleanOrUndefined", "value": true}},
            {"name": "required", "value": {"type": "boolean", "value": true}}
        ]
    }));
    let node = map(
        &n,
        Some(&dom(
            "input",
            &attrs(&[("type", "email"), ("placeholder", "you@example.com")]),
        )),
    )
    .expect("mapped");
    assert_eq!(node.role, Role::TextBox);
    assert_eq!(node.value.as_deref(), Some("a@b.c"));
    assert_eq!(
        node.states,
        vec![State::Editable, State::Focused, State::Required]
    );
    assert_eq!(node.actions, vec![Action::Type, Action::SetValue]);
    assert_eq!(
        node.attributes.placeholder.as_deref(),
        Some("you@example.com")
    );

    let pw = map(&n, Some(&dom("input", &attrs(&[("type", "password")])))).expect("mapped");
    assert_eq!(pw.value.as_deref(), Some("•••••"));
}

#[test]
fn disabled_button_keeps_its_actions_and_skips_and_ignored() {
    let b = ax(json!({
        "nodeId": "5", "role": {"value": "button"}, "name": {"value": "Send"},
        "properties": [{"name": "disabled", "value": {"value": true}}]
    }));
    let node = map(&b, None).expect("mapped");
    assert_eq!(node.states, vec![State::Disabled]);
    assert_eq!(node.actions, vec![Action::Click]);
    let inline = ax(json!({"nodeId": "6", "role": {"value": "InlineTextBox"}}));
    assert!(map(&inline, None).is_none());
    let ignored = ax(json!({"nodeId": "7", "ignored": true, "role": {"value": "button"}}));
    assert!(map(&ignored, None).is_none());
}

#[test]
fn slider_heading_link_and_scroll_container() {
    let s = ax(json!({
        "nodeId": "1", "role": {"value": "slider"}, "name": {"value": "Volume"},
        "value": {"type": "number", "value": 30},
        "properties": [
            {"name": "valuemin", "value": {"value": 0}},
            {"name": "valuemax", "value": {"value": 100}},
            {"name": "orientation", "value": {"value": "horizontal"}}
        ]
    }));
    let node = map(&s, None).expect("mapped");
    assert_eq!(node.value.as_deref(), Some("30"));
    assert_eq!(node.attributes.value_min, Some(0.0));
    assert_eq!(node.attributes.value_max, Some(100.0));
    assert_eq!(node.attributes.value_now, Some(30.0));
    assert_eq!(
        node.actions,
        vec![Action::Increment, Action::Decrement, Action::SetValue]
    );
    let h = ax(
        json!({"nodeId": "2", "role": {"value": "heading"}, "name": {"value": "Title"},
        "properties": [{"name": "level", "value": {"value": 2}}]}),
    );
    assert_eq!(
        map(&h, None)
            .and_then(|n| n.attributes.level)
            .map(|l| l.get()),
        Some(2)
    );
    let l = ax(
        json!({"nodeId": "3", "role": {"value": "link"}, "name": {"value": "Docs"},
        "properties": [{"name": "url", "value": {"value": "http://x/docs"}}]}),
    );
    let link = map(&l, None).expect("mapped");
    assert_eq!(link.attributes.url.as_deref(), Some("http://x/docs"));
    assert_eq!(link.actions, vec![Action::Click]);
    let g = ax(json!({"nodeId": "4", "role": {"value": "generic"}}));
    let none = attrs(&[]);
    let mut d = dom("div", &none);
    d.scrollable = true;
    assert_eq!(
        map(&g, Some(&d)).map(|n| n.actions),
        Some(vec![Action::Scroll])
    );
}

#[test]
fn expandable_combobox_and_modal_dialog() {
    let c = ax(
        json!({"nodeId": "1", "role": {"value": "combobox"}, "name": {"value": "Country"},
        "value": {"value": "France"},
        "properties": [{"name": "expanded", "value": {"value": false}}]}),
    );
    let node = map(&c, Some(&dom("select", &attrs(&[])))).expect("mapped");
    assert_eq!(node.states, vec![State::Collapsed]);
    assert_eq!(
        node.actions,
        vec![Action::Click, Action::Expand, Action::Select]
    );
    assert_eq!(node.value.as_deref(), Some("France"));
    let d = ax(
        json!({"nodeId": "2", "role": {"value": "dialog"}, "name": {"value": "Confirm"},
        "properties": [{"name": "modal", "value": {"value": true}}]}),
    );
    let node = map(&d, None).expect("mapped");
    assert_eq!(node.states, vec![State::Modal]);
    assert_eq!(node.actions, vec![Action::Dismiss]);
}
