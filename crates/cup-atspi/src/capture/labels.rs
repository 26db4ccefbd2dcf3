//! Names from labels: a control the toolkit left unnamed, with no
//! description either, is named by the label that says it labels it
//! (`LABELLED_BY`): GIMP's "Width:" and "Height:" spin buttons, its
//! "Template:" combo box. Only such controls are asked for their
//! relations (one call each, once per object for GTK, whose labels are
//! kept: see `statics`), once the structure is read.

use std::collections::HashMap;

use futures::stream::{self, StreamExt};
use tokio::time::{timeout_at, Instant};

use super::statics::Statics;
use super::{Skel, CONCURRENCY};
use crate::atspi_calls::{self as calls, ObjRef};
use crate::facts::Interface;
use crate::mapping;
use crate::peers::Links;

/// AT-SPI's `RELATION_LABELLED_BY`.
const LABELLED_BY: u32 = 2;

/// `true` for a node worth asking: a control with neither a name nor a
/// description.
fn wants_label(n: &Skel) -> bool {
    n.name.trim().is_empty()
        && n.description.trim().is_empty()
        && n.interfaces.contains(Interface::Accessible)
        && mapping::kinds::is_interactive(mapping::native_role(n.role))
}

/// A label's text as a name: trimmed, without the colon that ends it
/// ("Width:" names the field "Width").
pub(super) fn label_name(text: &str) -> String {
    let t = text.trim();
    let t = t.strip_suffix(':').unwrap_or(t).trim_end();
    mapping::text::cap(t, mapping::text::NAME_MAX)
}

/// The names the unnamed controls among `nodes` take from their labels:
/// each control's index and name. Only reads: the structure is known, so
/// this goes out beside the detail reads, not after them (a round trip
/// saved: 1.1 ms of gtk3-widget-factory's capture).
pub(super) async fn read_labels(
    links: &Links,
    statics: &Statics,
    nodes: &[Skel],
    deadline: Instant,
) -> Vec<(usize, String)> {
    let asked: Vec<usize> = (0..nodes.len())
        .filter(|&i| wants_label(&nodes[i]))
        .collect();
    if asked.is_empty() {
        return Vec::new();
    }
    let by_obj: HashMap<&ObjRef, usize> =
        nodes.iter().enumerate().map(|(i, n)| (&n.obj, i)).collect();
    // A kept toolkit's labels were read in an earlier capture.
    let mut relations: Vec<(usize, Vec<ObjRef>)> = Vec::new();
    let mut pairs: Vec<(usize, ObjRef, bool)> = Vec::new();
    for &i in &asked {
        let keep = Statics::keeps(&nodes[i].toolkit);
        match statics.get(&nodes[i].obj).labels.filter(|_| keep) {
            Some(known) => relations.push((i, known)),
            None => pairs.push((i, nodes[i].obj.clone(), keep)),
        }
    }
    let read: Vec<(usize, Vec<ObjRef>)> =
        stream::iter(pairs.into_iter().map(|(i, obj, keep)| async move {
            let conn = links.to(&obj.bus);
            let Some(set) = timeout_at(deadline, calls::relation_set(&conn, &obj))
                .await
                .ok()
                .and_then(Result::ok)
            else {
                return (i, Vec::new());
            };
            let targets: Vec<ObjRef> = set
                .into_iter()
                .filter(|(kind, _)| *kind == LABELLED_BY)
                .flat_map(|(_, targets)| targets)
                .filter(|t| !t.is_null())
                .collect();
            if keep {
                statics.put_labels(&obj, &targets);
            }
            (i, targets)
        }))
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await;
    relations.extend(read);
    // A label outside the captured tree is asked for its name.
    let mut names: HashMap<ObjRef, String> = HashMap::new();
    let mut unknown = Vec::new();
    for (_, targets) in &relations {
        for t in targets {
            match by_obj.get(t) {
                Some(&j) => {
                    names.insert(t.clone(), nodes[j].name.clone());
                }
                None => unknown.push(t.clone()),
            }
        }
    }
    drop(by_obj);
    let read: Vec<(ObjRef, Option<String>)> =
        stream::iter(unknown.into_iter().map(|t| async move {
            let conn = links.to(&t.bus);
            let props = timeout_at(deadline, calls::accessible_props(&conn, &t, false))
                .await
                .ok()
                .and_then(Result::ok);
            (t, props.map(|p| p.name))
        }))
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await;
    names.extend(read.into_iter().filter_map(|(t, n)| Some((t, n?))));
    relations
        .into_iter()
        .filter_map(|(i, targets)| {
            let label: Vec<String> = targets
                .iter()
                .filter_map(|t| names.get(t))
                .map(|n| label_name(n))
                .filter(|n| !n.is_empty())
                .collect();
            (!label.is_empty()).then(|| (i, label.join(" ")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_names_without_its_colon() {
        assert_eq!(label_name("Width:"), "Width");
        assert_eq!(label_name("  Template: "), "Template");
        assert_eq!(label_name("Name"), "Name");
        assert_eq!(label_name(":"), "");
    }
}
