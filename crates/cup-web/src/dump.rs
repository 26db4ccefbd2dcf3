//! The web adapter's native dump (`cup snapshot --native-dump FILE`): the
//! facts of every page of a capture — each frame's accessibility nodes,
//! each target's layout snapshot, the boxes asked one by one — from which
//! [`crate::capture::replay`] builds the same tree without a browser.
//! Tests load such files as fixtures.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::capture::PageFacts;

/// One capture's native facts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NativeDump {
    /// Always `web`.
    pub platform: String,
    /// Where the file came from (filled in by whoever records a fixture).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// The snapshot's ids and the native references they stood for.
    #[serde(default)]
    pub ids: BTreeMap<String, String>,
    /// Every page read.
    pub pages: Vec<PageFacts>,
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use cup_protocol::{Envelope, Node, PlatformId, Role, State};

    use super::NativeDump;
    use crate::capture::replay;

    /// Every fixture of `fixtures/`, by file name.
    fn fixtures() -> Vec<(String, NativeDump)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        cup::native::read_dir(&dir).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The envelope a capture of `dump` gave: its pages replayed, the
    /// native references renamed to the snapshot's ids.
    fn envelope(name: &str, dump: &NativeDump) -> Envelope {
        let by_ref: HashMap<&str, &str> = dump
            .ids
            .iter()
            .map(|(id, r)| (r.as_str(), id.as_str()))
            .collect();
        let mut tree = Vec::new();
        let mut view = (0, 0);
        for page in &dump.pages {
            let t = replay(page, 999, 50_000).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(t.cut, 0, "{name}: nothing over the limits");
            if let Some(v) = page.viewport {
                view = (v.rect().w, v.rect().h);
            }
            tree.extend(t.root);
        }
        fn rename(n: &mut Node, by_ref: &HashMap<&str, &str>, name: &str) {
            n.id = by_ref
                .get(n.id.as_str())
                .map(|s| (*s).to_owned())
                .unwrap_or_else(|| panic!("{name}: node {} is not in the dump's ids", n.id));
            for c in &mut n.children {
                rename(c, by_ref, name);
            }
        }
        for root in &mut tree {
            rename(root, &by_ref, name);
        }
        let screen = cup_protocol::envelope::Screen {
            w: i64::try_from(view.0).unwrap_or(0),
            h: i64::try_from(view.1).unwrap_or(0),
            scale: None,
        };
        Envelope::new(PlatformId::Web, screen, tree)
    }

    #[test]
    fn every_fixture_replays_to_a_schema_valid_envelope() {
        let all = fixtures();
        assert!(!all.is_empty(), "no fixtures in fixtures/");
        for (name, dump) in &all {
            assert_eq!(dump.platform, "web", "{name}");
            assert!(
                dump.source.starts_with("recorded live"),
                "{name}: says where it came from"
            );
            let envelope = envelope(name, dump);
            let count: usize = envelope.tree.iter().map(Node::subtree_len).sum();
            assert_eq!(count, dump.ids.len(), "{name}: every snapshot id replayed");
            let json = serde_json::to_value(&envelope).expect("envelope serializes");
            let errors = cup_protocol::schema::validate(&json);
            assert!(errors.is_empty(), "{name}: {errors:?}");
        }
    }

    #[test]
    fn the_recorded_form_maps_every_input() {
        let (_, dump) = fixtures()
            .into_iter()
            .find(|(n, _)| n == "form.json")
            .unwrap_or_else(|| panic!("fixtures/form.json is missing"));
        let envelope = envelope("form.json", &dump);
        let all: Vec<&Node> = envelope.tree.iter().flat_map(|r| r.iter()).collect();
        let find = |role: Role, name: &str| {
            all.iter()
                .find(|n| n.role == role && n.name.contains(name))
                .copied()
                .unwrap_or_else(|| panic!("no {role:?} {name:?}"))
        };
        assert_eq!(find(Role::TextBox, "Name").value.as_deref(), Some("Ada"));
        assert!(find(Role::Checkbox, "Subscribe")
            .states
            .contains(&State::Checked));
        assert!(find(Role::Checkbox, "Disabled")
            .states
            .contains(&State::Disabled));
        assert_eq!(find(Role::Slider, "Volume").value.as_deref(), Some("30"));
        assert_eq!(
            find(Role::Combobox, "Country").value.as_deref(),
            Some("Japan")
        );
        let send = find(Role::Button, "Send");
        assert!(send.bounds.is_some_and(|b| b.w > 0 && b.h > 0), "{send:?}");
        let far = all
            .iter()
            .find(|n| n.name == "Far below")
            .unwrap_or_else(|| panic!("no far text"));
        assert!(far.states.contains(&State::Offscreen), "{far:?}");
        // The date field's parts have their boxes from DOM.getBoxModel (the
        // layout snapshot has none for user-agent shadow content).
        assert!(!dump.pages[0].boxes.is_empty());
        let boxed = all
            .iter()
            .filter(|n| dump.pages[0].boxes.contains_key(&dump.ids[&n.id]))
            .count();
        assert!(boxed > 0, "boxes of the date field's parts are used");
    }
}
