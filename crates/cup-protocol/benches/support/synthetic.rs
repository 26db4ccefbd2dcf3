//! A deterministic, realistic envelope of any size for benchmarks: one
//! window of sections holding buttons, labels, text boxes, check boxes, list
//! items and links, all on screen, so pruning keeps most of them.

use cup_protocol::node::Attributes;
use cup_protocol::{Action, Envelope, Node, PlatformId, Rect, Role, Scope, Screen, State};

/// An envelope with exactly `nodes` nodes (at least 2).
pub fn envelope(nodes: usize) -> Envelope {
    let nodes = nodes.max(2);
    let mut next = 1usize;
    let mut root = Node::new("e0", Role::Window, "Synthetic benchmark window");
    root.bounds = Some(Rect::new(0, 0, 1920, 1080));
    root.states = vec![State::Focused];
    let mut section: Option<Node> = None;
    let mut i = 0usize;
    while next < nodes {
        if section.as_ref().is_none_or(|s| s.children.len() >= 100) {
            if let Some(s) = section.take() {
                root.children.push(s);
            }
            let mut s = Node::new(
                format!("e{next}"),
                Role::Group,
                format!("Section {}", root.children.len() + 1),
            );
            s.bounds = Some(Rect::new(0, 40, 1920, 1000));
            next += 1;
            section = Some(s);
            continue;
        }
        let id = format!("e{next}");
        next += 1;
        let x = i64::try_from(i % 19).unwrap_or(0) * 100;
        let y = 40 + i64::try_from(i % 47).unwrap_or(0) * 21;
        let node = match i % 6 {
            0 => {
                let mut n = Node::new(id, Role::Button, format!("Action button {i}"));
                n.actions = vec![Action::Click, Action::Focus];
                n
            }
            1 => Node::new(id, Role::Text, format!("Descriptive label text number {i}")),
            2 => {
                let mut n = Node::new(id, Role::TextBox, format!("Field {i}"));
                n.value = Some(format!("value {i}"));
                n.actions = vec![Action::Type, Action::SetValue, Action::Focus];
                n.states = vec![State::Editable];
                n.attributes = Attributes {
                    placeholder: Some("Type here".into()),
                    ..Attributes::default()
                };
                n
            }
            3 => {
                let mut n = Node::new(id, Role::Checkbox, format!("Option {i}"));
                n.actions = vec![Action::Toggle];
                if i.is_multiple_of(4) {
                    n.states = vec![State::Checked];
                }
                n
            }
            4 => {
                let mut n = Node::new(id, Role::ListItem, format!("Row \"{i}\" of the list"));
                n.actions = vec![Action::Select];
                n
            }
            _ => {
                let mut n = Node::new(id, Role::Link, format!("https://example.test/page/{i}"));
                n.actions = vec![Action::Click];
                n
            }
        };
        let mut node = node;
        node.bounds = Some(Rect::new(x, y, 96, 20));
        if let Some(s) = section.as_mut() {
            s.children.push(node);
        }
        i += 1;
    }
    if let Some(s) = section.take() {
        root.children.push(s);
    }
    let mut env = Envelope::new(PlatformId::Linux, Screen::new(1920, 1080), vec![root]);
    env.scope = Some(Scope::Foreground);
    env.timestamp = Some(1_740_067_200_000);
    env
}
