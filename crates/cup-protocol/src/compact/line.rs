//! One node line of the compact format:
//!
//! ```text
//! [id] role "name" x,y wxh {states} [actions] val="value" (attrs)
//! ```
//!
//! [`LineFields`] is what a line carries; the serializer builds it from a
//! [`Node`] and the parser reads it back, so the two are tested against each
//! other.

use crate::compact::text::{self, NAME_MAX, PLACEHOLDER_MAX, VALUE_MAX};
use crate::node::{Node, Orientation, Rect};
use crate::vocab::{Action, Role, State};

/// The fields one compact line shows, exactly as shown (names cut, control
/// characters as spaces; escaping is the line syntax, not part of the value).
#[derive(Debug, Clone, PartialEq)]
pub struct LineFields {
    /// Node id, e.g. `e14`.
    pub id: String,
    /// Role.
    pub role: Role,
    /// Shown name (`None` when the node's name is empty).
    pub name: Option<String>,
    /// Bounds, shown only for nodes with a meaningful action.
    pub bounds: Option<Rect>,
    /// States, in node order.
    pub states: Vec<State>,
    /// Actions without `focus`, in node order.
    pub actions: Vec<Action>,
    /// Shown value (input-like roles only).
    pub value: Option<String>,
    /// Shown attributes.
    pub attrs: LineAttrs,
}

/// The attributes a compact line shows, in the order shown:
/// `L{level} ph="..." h|v range=min..max`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineAttrs {
    /// Heading level or tree depth.
    pub level: Option<u32>,
    /// Placeholder, cut to 30 characters.
    pub placeholder: Option<String>,
    /// Orientation.
    pub orientation: Option<Orientation>,
    /// `range=min..max`; either side may be missing.
    pub range: Option<(Option<f64>, Option<f64>)>,
    /// `ocr`: the element was read from the window's pixels, not from its
    /// accessibility tree ([`Node::is_from_pixels`]).
    pub ocr: bool,
}

impl LineAttrs {
    /// `true` when nothing would be printed.
    pub fn is_empty(&self) -> bool {
        self.level.is_none()
            && self.placeholder.is_none()
            && self.orientation.is_none()
            && self.range.is_none()
            && !self.ocr
    }
}

fn shown(s: &str, max: usize, ellipsis: bool) -> String {
    let (head, was_cut) = text::cut(s, max);
    let mut out: String = head
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if was_cut && ellipsis {
        out.push_str(text::ELLIPSIS);
    }
    out
}

impl LineFields {
    /// What the compact line of `node` shows.
    pub fn of(node: &Node) -> LineFields {
        let actions: Vec<Action> = node
            .actions
            .iter()
            .copied()
            .filter(|a| a.is_meaningful())
            .collect();
        let a = &node.attributes;
        let (min, max) = finite_range(node);
        let range = (min.is_some() || max.is_some()).then_some((min, max));
        LineFields {
            id: node.id.clone(),
            role: node.role,
            name: (!node.name.is_empty()).then(|| shown(&node.name, NAME_MAX, true)),
            bounds: if actions.is_empty() {
                None
            } else {
                node.bounds
            },
            states: node.states.clone(),
            actions,
            value: node
                .value
                .as_deref()
                .filter(|v| !v.is_empty() && node.role.shows_value())
                .map(|v| shown(v, VALUE_MAX, true)),
            attrs: LineAttrs {
                level: a.level.map(|l| l.get()),
                placeholder: a
                    .placeholder
                    .as_deref()
                    .filter(|p| !p.is_empty())
                    .map(|p| shown(p, PLACEHOLDER_MAX, false)),
                orientation: a.orientation,
                range,
                ocr: node.is_from_pixels(),
            },
        }
    }
}

/// How a line shows what the spec leaves to the detail level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineStyle {
    /// Names whole instead of cut to [`NAME_MAX`] characters (D16: `page`
    /// detail, the whole document).
    pub whole_names: bool,
    /// `offscreen` left out where it tells nothing (D16: `page` detail,
    /// where every node is shown whatever its place): on nodes without a
    /// meaningful action, and on nodes with bounds (they say where the
    /// node is against the header's screen, and acting on its id scrolls
    /// it into view). An item of a closed desktop menu, without bounds,
    /// keeps it.
    pub quiet_offscreen: bool,
    /// No bounds on any line: for agents that act by id only (the
    /// `bounds` option of every front end).
    pub no_bounds: bool,
}

impl LineStyle {
    /// The spec's lines: names cut, every state shown.
    pub const SPEC: LineStyle = LineStyle {
        whole_names: false,
        quiet_offscreen: false,
        no_bounds: false,
    };
    /// `page` detail's lines (D16).
    pub const PAGE: LineStyle = LineStyle {
        whole_names: true,
        quiet_offscreen: true,
        no_bounds: false,
    };
}

/// Appends the line of `node` (without indentation or newline) to `out`.
pub fn push_line(out: &mut String, node: &Node) {
    push_line_as(out, node, &node.name, LineStyle::SPEC);
}

/// [`push_line`] showing `name` as the node's name (a joined text run,
/// D16), in `style`.
pub fn push_line_as(out: &mut String, node: &Node, name: &str, style: LineStyle) {
    out.push('[');
    out.push_str(&node.id);
    out.push_str("] ");
    out.push_str(node.role.code());
    if !name.is_empty() {
        out.push_str(" \"");
        let max = if style.whole_names {
            usize::MAX
        } else {
            NAME_MAX
        };
        text::push_quoted_body(out, name, max, true);
        out.push('"');
    }
    let meaningful = node.has_meaningful_action();
    let bounds = node.bounds.filter(|_| meaningful && !style.no_bounds);
    if let Some(b) = bounds {
        use std::fmt::Write as _;
        let _ = write!(out, " {},{} {}x{}", b.x, b.y, b.w, b.h);
    }
    let quiet = style.quiet_offscreen && (!meaningful || node.bounds.is_some());
    let mut states = node
        .states
        .iter()
        .filter(|s| !(quiet && **s == State::Offscreen))
        .peekable();
    if states.peek().is_some() {
        out.push_str(" {");
        push_codes(out, states.map(|s| s.code()));
        out.push('}');
    }
    if meaningful {
        out.push_str(" [");
        push_codes(
            out,
            node.actions
                .iter()
                .filter(|a| a.is_meaningful())
                .map(|a| a.code()),
        );
        out.push(']');
    }
    if let Some(v) = node.value.as_deref() {
        if !v.is_empty() && node.role.shows_value() {
            out.push_str(" val=\"");
            text::push_quoted_body(out, v, VALUE_MAX, true);
            out.push('"');
        }
    }
    push_attrs(out, node);
}

/// The range bounds that can be printed (JSON has no NaN or infinity).
fn finite_range(node: &Node) -> (Option<f64>, Option<f64>) {
    let a = &node.attributes;
    (
        a.value_min.filter(|v| v.is_finite()),
        a.value_max.filter(|v| v.is_finite()),
    )
}

fn push_codes<'a>(out: &mut String, codes: impl Iterator<Item = &'a str>) {
    for (i, code) in codes.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(code);
    }
}

fn push_attrs(out: &mut String, node: &Node) {
    let a = &node.attributes;
    let placeholder = a.placeholder.as_deref().filter(|p| !p.is_empty());
    let (min, max) = finite_range(node);
    let has_range = min.is_some() || max.is_some();
    let ocr = node.is_from_pixels();
    if a.level.is_none() && placeholder.is_none() && a.orientation.is_none() && !has_range && !ocr {
        return;
    }
    out.push_str(" (");
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push(' ');
        }
    };
    if let Some(level) = a.level {
        sep(out);
        out.push('L');
        out.push_str(&level.to_string());
    }
    if let Some(p) = placeholder {
        sep(out);
        out.push_str("ph=\"");
        text::push_quoted_body(out, p, PLACEHOLDER_MAX, false);
        out.push('"');
    }
    if let Some(o) = a.orientation {
        sep(out);
        out.push(match o {
            Orientation::Horizontal => 'h',
            Orientation::Vertical => 'v',
        });
    }
    if has_range {
        sep(out);
        out.push_str("range=");
        if let Some(min) = min {
            text::push_number(out, min);
        }
        out.push_str("..");
        if let Some(max) = max {
            text::push_number(out, max);
        }
    }
    if ocr {
        sep(out);
        out.push_str("ocr");
    }
    out.push(')');
}

/// The compact line of one node, as `find` results print it.
pub fn format_line(node: &Node) -> String {
    let mut s = String::new();
    push_line(&mut s, node);
    s
}
