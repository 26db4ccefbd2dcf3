//! The detail reads of every node (extents, actions, value, text,
//! attributes, ...): which a node needs, one read, and the collected
//! answers; GTK 4's extents read top-down.

use super::*;

/// Details of one node.
#[derive(Debug, Clone, Default)]
pub(super) struct Details {
    pub(super) extents: Option<Extents>,
    pub(super) actions: Vec<String>,
    pub(super) value: Option<RawValue>,
    pub(super) text: Option<String>,
    pub(super) attributes: HashMap<String, String>,
    pub(super) timed_out: bool,
}

pub(super) enum Got {
    Extents(Option<Extents>),
    Actions(Vec<String>),
    Value(Option<RawValue>),
    Text(Option<String>),
    Attributes(HashMap<String, String>),
}

/// Reads the extents of the window under `root` top-down (see
/// [`unallocated`]): nodes under a widget GTK 4 did not allocate inherit
/// its empty extents instead of being asked.
pub(super) async fn extents_top_down(
    walk: &Walk<'_>,
    root: usize,
) -> Vec<(usize, unallocated::Outcome)> {
    let nodes = &walk.nodes;
    let links = walk.links;
    let deadline = walk.deadline;
    unallocated::read_top_down(
        root,
        |i| nodes[i].children.as_slice(),
        |i| wants(&nodes[i]).contains(&Want::Extents),
        |i| mapping::gtk4_may_be_unallocated(nodes[i].role),
        |i| {
            let obj = nodes[i].obj.clone();
            let conn = links.to(&obj.bus);
            let known = walk.row_extents.get(&obj).copied();
            async move {
                if let Some(e) = known {
                    return Some(Some(e));
                }
                timeout_at(deadline, calls::extents(&conn, &obj, calls::COORD_WINDOW))
                    .await
                    .ok()
                    .map(Result::ok)
            }
        },
        CONCURRENCY,
    )
    .await
}

/// One optional read of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    Extents,
    Actions,
    Value,
    Text,
    Attributes,
}

/// The reads the mapping of node `n` uses.
pub(super) fn wants(n: &Skel) -> Vec<Want> {
    let mut out = Vec::with_capacity(3);
    // GTK 4's Action interface on every widget says nothing.
    let interfaces = if is_gtk4(n) && !mapping::gtk4_may_have_actions(n.role, n.states) {
        n.interfaces
            .iter()
            .filter(|i| *i != Interface::Action)
            .collect()
    } else {
        n.interfaces
    };
    if n.interfaces.contains(Interface::Component)
        && !mapping::bounds_unused(n.role, &n.name, interfaces)
        && !mapping::in_closed_menu(n.role, n.states, &n.toolkit, &n.toolkit_version)
    {
        out.push(Want::Extents);
    }
    if interfaces.contains(Interface::Action)
        && mapping::needs_actions(n.role, n.states, &n.toolkit)
        && (!is_gtk4(n) || mapping::gtk4_names_actions(n.role))
    {
        out.push(Want::Actions);
    }
    // A table cell's value is its text (LibreOffice's cells also offer a
    // Value, 0 for text: not read).
    let cell = n.role == AtspiRole::TableCell && n.interfaces.contains(Interface::Text);
    if n.interfaces.contains(Interface::Value) && !cell {
        out.push(Want::Value);
    }
    if mapping::needs_text(n.role, n.interfaces)
        && (n.name.trim().is_empty()
            || cell
            || mapping::kinds::is_text_input(mapping::native_role(n.role)))
    {
        out.push(Want::Text);
    }
    if mapping::needs_attributes(n.role, &n.toolkit, &n.toolkit_version) {
        out.push(Want::Attributes);
    }
    out
}

/// GTK 4 gives every widget the Action interface, mostly empty.
pub(super) fn is_gtk4(n: &Skel) -> bool {
    crate::facts::is_gtk4(&n.toolkit, &n.toolkit_version)
}

/// A queued read.
pub(super) struct Job {
    /// Index of the node.
    pub(super) node: usize,
    pub(super) obj: ObjRef,
    pub(super) want: Want,
    /// Properties may be read with one `GetAll` ([`calls::get_all_safe`]).
    pub(super) get_all: bool,
    /// The action names read are kept ([`Statics`]).
    pub(super) keep: bool,
    /// Coordinate type of `GetExtents`: window-relative on GTK 4.
    pub(super) coord: u32,
}

/// Runs one read under the deadline.
pub(super) async fn read_one(
    links: &Links,
    statics: &Statics,
    deadline: Instant,
    job: Job,
) -> (usize, Option<Got>) {
    let Job {
        node: i,
        obj,
        want,
        get_all,
        keep,
        coord,
    } = job;
    let conn = &links.to(&obj.bus);
    let obj = &obj;
    let got = match want {
        Want::Extents => timeout_at(deadline, calls::extents(conn, obj, coord))
            .await
            .map(|r| Got::Extents(r.ok())),
        Want::Actions => timeout_at(deadline, calls::action_names(conn, obj))
            .await
            .map(|r| {
                if let (true, Ok(names)) = (keep, &r) {
                    statics.put_actions(obj, names);
                }
                Got::Actions(r.unwrap_or_default())
            }),
        Want::Value => timeout_at(deadline, calls::value(conn, obj, get_all))
            .await
            .map(|r| Got::Value(r.ok())),
        Want::Text => timeout_at(deadline, calls::text(conn, obj, TEXT_MAX))
            .await
            .map(|r| Got::Text(r.ok())),
        Want::Attributes => timeout_at(deadline, calls::attributes(conn, obj))
            .await
            .map(|r| Got::Attributes(r.unwrap_or_default())),
    };
    (i, got.ok())
}

/// Details per node from the reads' results.
pub(super) fn collect_details(count: usize, results: Vec<(usize, Option<Got>)>) -> Vec<Details> {
    let mut out = vec![Details::default(); count];
    for (i, got) in results {
        let Some(d) = out.get_mut(i) else { continue };
        match got {
            None => d.timed_out = true,
            Some(Got::Extents(e)) => d.extents = e,
            Some(Got::Actions(a)) => d.actions = a,
            Some(Got::Value(v)) => d.value = v,
            Some(Got::Text(t)) => d.text = t,
            Some(Got::Attributes(a)) => d.attributes = a,
        }
    }
    out
}
