//! Hand-built `RawNode`s that look like what GTK 3, GTK 4, Qt 5 and
//! Chromium put on the accessibility bus.

use crate::facts::{AtspiRole, AtspiState, Extents, Interface, RawNode, RawValue};

/// Chainable builder over a [`RawNode`].
#[derive(Debug, Clone)]
pub struct Fx(pub RawNode);

/// States every shown, sensitive widget carries.
const SHOWN: [AtspiState; 4] = [
    AtspiState::Enabled,
    AtspiState::Sensitive,
    AtspiState::Visible,
    AtspiState::Showing,
];

/// A shown node of `toolkit` with Accessible + Component and 100×30 extents.
pub fn node(toolkit: &str, role: AtspiRole, name: &str) -> Fx {
    let mut raw = RawNode::new(role);
    raw.name = name.to_owned();
    raw.toolkit = toolkit.to_owned();
    raw.bus_name = ":1.42".to_owned();
    raw.path = "/org/a11y/atspi/accessible/17".to_owned();
    raw.extents = Some(Extents {
        x: 10,
        y: 20,
        w: 100,
        h: 30,
    });
    Fx(raw)
        .states(&SHOWN)
        .ifaces(&[Interface::Accessible, Interface::Component])
}

/// GTK 3 (`ToolkitName` "GTK").
pub fn gtk3(role: AtspiRole, name: &str) -> Fx {
    node("GTK", role, name)
}

/// GTK 4.8 (`ToolkitName` "GTK", `Version` "4.8.3"), which never reports
/// SHOWING.
pub fn gtk4(role: AtspiRole, name: &str) -> Fx {
    let mut fx = node("GTK", role, name).without(&[AtspiState::Showing]);
    fx.0.toolkit_version = "4.8.3".to_owned();
    fx
}

/// Qt 5 (`ToolkitName` "Qt").
pub fn qt(role: AtspiRole, name: &str) -> Fx {
    node("Qt", role, name)
}

/// Chromium web content (`ToolkitName` "Chromium").
pub fn chromium(role: AtspiRole, name: &str) -> Fx {
    node("Chromium", role, name)
}

impl Fx {
    /// Adds states.
    pub fn states(mut self, states: &[AtspiState]) -> Self {
        for s in states {
            self.0.states.insert(*s);
        }
        self
    }

    /// Removes states.
    pub fn without(mut self, states: &[AtspiState]) -> Self {
        for s in states {
            self.0.states.remove(*s);
        }
        self
    }

    /// Adds interfaces.
    pub fn ifaces(mut self, interfaces: &[Interface]) -> Self {
        for i in interfaces {
            self.0.interfaces.insert(*i);
        }
        self
    }

    /// Sets the raw action names (and the Action interface).
    pub fn actions(mut self, names: &[&str]) -> Self {
        self.0.action_names = names.iter().map(|n| (*n).to_owned()).collect();
        self.ifaces(&[Interface::Action])
    }

    /// Adds an object attribute.
    pub fn attr(mut self, key: &str, value: &str) -> Self {
        self.0.attributes.insert(key.to_owned(), value.to_owned());
        self
    }

    /// Sets the Text content (and the Text interface).
    pub fn text(mut self, text: &str) -> Self {
        self.0.text = Some(text.to_owned());
        self.ifaces(&[Interface::Text])
    }

    /// Sets the Value (and the Value interface).
    pub fn value(mut self, minimum: f64, maximum: f64, current: f64) -> Self {
        self.0.value = Some(RawValue {
            current,
            minimum,
            maximum,
            increment: 1.0,
            text: None,
        });
        self.ifaces(&[Interface::Value])
    }

    /// Sets the extents.
    pub fn extents(mut self, x: i32, y: i32, w: i32, h: i32) -> Self {
        self.0.extents = Some(Extents { x, y, w, h });
        self
    }

    /// Sets the description.
    pub fn description(mut self, d: &str) -> Self {
        self.0.description = d.to_owned();
        self
    }

    /// Marks the parent as implementing Selection.
    pub fn in_selection(mut self) -> Self {
        self.0.parent_selectable = true;
        self
    }

    /// The node.
    pub fn build(self) -> RawNode {
        self.0
    }
}
