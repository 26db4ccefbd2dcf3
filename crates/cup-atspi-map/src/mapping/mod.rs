//! AT-SPI → CUP translation of one node, as pure functions of a
//! [`RawNode`] (no I/O), so every rule is tested with hand-built fixtures.
//!
//! [`map_node`] runs the pieces in order: role and name ([`role`], which
//! refine each other), bounds, states ([`states`]), actions ([`actions`]),
//! value and description ([`text`]), attributes ([`attributes`]) and the
//! `platform.linux` escape hatch ([`platform`]). [`needs`] tells the capture
//! which optional reads (attributes, text) a node's mapping uses.

pub mod actions;
pub mod attributes;
pub mod kinds;
pub mod needs;
pub mod platform;
pub mod role;
pub mod states;
pub mod text;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod tests;

use cup_protocol::node::{PlatformData, PlatformLinux};
use cup_protocol::{Action, Attributes, Node, Rect, Role, State};

use crate::facts::{Extents, RawNode};

pub use actions::{map_actions, raw_action_index};
pub use attributes::map_attributes;
pub use needs::{
    bounds_unused, gtk4_may_be_unallocated, gtk4_may_have_actions, gtk4_names_actions,
    in_closed_menu, is_gecko, is_web_toolkit, needs_actions, needs_attributes, needs_text,
};
pub use platform::map_platform;
pub use role::{atspi_role_name, native_role};
pub use states::map_states;

/// The `platform.linux` key that says where a name the toolkit did not
/// give came from: `description` (the control's tooltip), `label` (the
/// label that labels it), `content` (its descendants' names), `parent`
/// (the wrapper it is the only child of) or `app` (cup's knowledge of an
/// app that gives nothing: Calc's Name Box).
pub const NAME_FROM: &str = "nameFrom";

/// What the mapping needs to know beyond the node itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapContext {
    /// Monitor rectangles in screen coordinates; a node whose bounds overlap
    /// none of them is `offscreen`. Empty = no position test.
    pub monitors: Vec<Rect>,
}

/// One node translated to CUP, before the capture gives it an id and
/// children.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapped {
    /// Canonical role.
    pub role: Role,
    /// Accessible name (trimmed, at most 200 characters).
    pub name: String,
    /// Description, when non-empty and different from the name.
    pub description: Option<String>,
    /// Current value (text inputs and range widgets).
    pub value: Option<String>,
    /// Screen rectangle, when the extents are known and non-empty.
    pub bounds: Option<Rect>,
    /// States, unique, in the order of [`map_states`].
    pub states: Vec<State>,
    /// CUP actions, unique, in `Action::ALL` order.
    pub actions: Vec<Action>,
    /// Semantic attributes.
    pub attributes: Attributes,
    /// Raw AT-SPI facts.
    pub platform: PlatformLinux,
}

impl Mapped {
    /// The CUP node with this id and no children.
    pub fn into_node(self, id: String) -> Node {
        Node {
            id,
            role: self.role,
            name: self.name,
            description: self.description,
            value: self.value,
            bounds: self.bounds,
            states: self.states,
            actions: self.actions,
            attributes: self.attributes,
            children: Vec::new(),
            platform: PlatformData {
                linux: Some(self.platform),
                ..PlatformData::default()
            },
        }
    }
}

/// Screen bounds from AT-SPI extents: `None` unless width and height are
/// both positive (AT-SPI reports `-1` for unknown) and the widget is placed
/// (GTK's `i32::MIN` position means it is not on screen at all).
pub fn map_bounds(extents: Option<Extents>) -> Option<Rect> {
    let e = extents.filter(|e| !e.is_unplaced())?;
    let w = u64::try_from(e.w).ok().filter(|w| *w > 0)?;
    let h = u64::try_from(e.h).ok().filter(|h| *h > 0)?;
    Some(Rect::new(i64::from(e.x), i64::from(e.y), w, h))
}

/// Translates one node.
pub fn map_node(raw: &RawNode, ctx: &MapContext) -> Mapped {
    let (role, name) = role::resolve(raw);
    let bounds = map_bounds(raw.extents);
    let mut platform = map_platform(raw);
    if !name.is_empty() && text::map_name(raw, role).0.is_empty() {
        // Named from its description (tooltip): said, so an agent or a
        // bug report can tell where the name came from.
        platform
            .extra
            .insert(NAME_FROM.to_owned(), "description".into());
    }
    Mapped {
        role,
        description: text::map_description(raw, &name),
        value: text::map_value(raw, role),
        bounds,
        states: map_states(raw, role, bounds, ctx),
        actions: map_actions(raw, role),
        attributes: map_attributes(raw, role),
        platform,
        name,
    }
}
