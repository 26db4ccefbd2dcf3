//! WDA facts → CUP nodes, as pure functions of [`WdaElement`]s.
//!
//! - Roles: a table of every XCUIElementType (the spec's `mappings.json`
//!   iOS column where it names a type, with the context its `?` cells ask
//!   for: a button in a tab bar is a tab, a cell of a table is a list item,
//!   a collection view whose cells span its width is a list, else a grid),
//!   then the element's traits for `Other` (`Button`, `Link`, `Header`,
//!   ...), then the `mappings.json` column for types the table does not
//!   know. Two deliberate departures from that column: `table` is a
//!   `list` (a UITableView is one column of rows), and a `picker` is a
//!   `group` of wheels, each a `spinbutton` (not a `combobox`).
//! - Names: the label, then WDA's `name` unless it looks like an
//!   identifier ([`identifier_like`]), then a static text's value, then a
//!   text input's placeholder.
//! - Bounds: points × scale, rounded: device pixels, like Android.
//! - Pruning: an `Other` with no name, value, state or action is replaced
//!   by its only child, or left out when it has none; an unnamed window
//!   with nothing in it is left out. The rest is kept, one node per
//!   element, in the source's order.
//!
//! One module per part of a node: `role`, `text` (name and value),
//! `states` (states and actions), `attributes` (bounds, attributes,
//! platform data); [`map_element`] puts them together and `tree` maps a
//! whole dump (pruning, ids, limits).

mod attributes;
mod role;
mod states;
mod text;
mod tree;

#[cfg(test)]
mod tests;

use cup_protocol::node::PlatformData;
use cup_protocol::{Node, Role};

use crate::facts::{ScreenFacts, WdaElement};
use attributes::{attributes, platform};

pub use attributes::to_pixels;
pub use role::role;
pub use states::{actions, states};
pub use text::{identifier_like, name, value};
pub use tree::{capture, Limits};

/// What a secure text field's value shows when it holds something.
pub const MASK: &str = "••••••••";

/// What the mapping of an element knows of its parent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Context<'a> {
    /// The parent's type (empty at the root).
    pub parent_type: &'a str,
    /// The parent's CUP role.
    pub parent_role: Option<Role>,
}

fn nonempty(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

fn is_text_input(ty: &str) -> bool {
    matches!(
        ty,
        "TextField" | "SecureTextField" | "SearchField" | "TextView"
    )
}

fn truthy(v: Option<&str>) -> bool {
    v.is_some_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "on" | "yes"
        )
    })
}

/// Translates one element into a CUP node without id or children.
pub fn map_element(el: &WdaElement, ctx: &Context<'_>, screen: &ScreenFacts) -> Node {
    let role = role(el, ctx);
    let name = name(el);
    let states = states(el, role, &screen.rect());
    let actions = actions(el, role, &states);
    Node {
        id: String::new(),
        role,
        value: value(el, &name),
        name,
        description: None,
        bounds: el.rect.and_then(|r| to_pixels(&r, screen.scale)),
        states,
        actions,
        attributes: attributes(el, role),
        children: Vec::new(),
        platform: PlatformData {
            ios: Some(platform(el)),
            ..PlatformData::default()
        },
    }
}
