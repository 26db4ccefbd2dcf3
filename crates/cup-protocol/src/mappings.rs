//! The per-platform mapping tables of the CUP spec (`data/mappings.json`),
//! parsed from the embedded file on first use and typed with the vocabulary
//! enums, so adapters can read them as data.
//!
//! A value like `ROLE_ENTRY|ROLE_TEXT` lists alternatives; a trailing `?`
//! marks a mapping that depends on context (the adapter must look at more
//! than the native role); `AXGroup:AXApplicationAlert` is a macOS
//! role:subrole pair; a leading `!` (states) means "not set".

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::Value;

use crate::envelope::PlatformId;
use crate::vocab::{Action, Role, State};

/// The embedded `mappings.json` (CUP spec, MIT licence in `data/LICENSE-CUP-SPEC`).
pub const MAPPINGS_JSON: &str = include_str!("../data/mappings.json");

/// How one platform expresses one CUP role, state or action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeMapping {
    /// The text as written in `mappings.json`.
    pub raw: String,
    /// The alternatives (split on `|`), each without its `?` suffix.
    pub alternatives: Vec<String>,
    /// `true` when any alternative carries the context-dependent `?` marker.
    pub context_dependent: bool,
}

impl NativeMapping {
    fn parse(raw: &str) -> Self {
        let alternatives = raw
            .split('|')
            .map(|a| a.trim().trim_end_matches('?').to_owned())
            .filter(|a| !a.is_empty())
            .collect();
        NativeMapping {
            raw: raw.to_owned(),
            alternatives,
            context_dependent: raw.contains('?'),
        }
    }
}

/// One row per CUP word: the mapping for each platform (`None` = the platform
/// has no equivalent).
pub type Table<K> = BTreeMap<K, BTreeMap<PlatformId, Option<NativeMapping>>>;

/// The three tables of `mappings.json`.
#[derive(Debug, Clone)]
pub struct Mappings {
    /// Role table (59 rows).
    pub roles: Table<Role>,
    /// State table (16 rows).
    pub states: Table<State>,
    /// Action table (15 rows).
    pub actions: Table<Action>,
}

impl Mappings {
    /// The parsed tables (parsed once).
    pub fn get() -> &'static Mappings {
        static MAPPINGS: OnceLock<Mappings> = OnceLock::new();
        MAPPINGS.get_or_init(|| {
            // The file is part of this crate and checked by its tests, so a
            // failure here is a build defect, not an input error.
            #[allow(clippy::expect_used)]
            Mappings::parse(MAPPINGS_JSON).expect("embedded mappings.json is valid")
        })
    }

    /// Parses a `mappings.json` document.
    pub fn parse(json: &str) -> Result<Mappings, String> {
        let doc: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        Ok(Mappings {
            roles: table(&doc, "roles", Role::from_name)?,
            states: table(&doc, "states", State::from_name)?,
            actions: table(&doc, "actions", Action::from_name)?,
        })
    }

    /// CUP roles whose mapping for `platform` names `native` as an
    /// alternative (exact match), e.g. `ROLE_PANEL` on Linux → generic, group.
    pub fn roles_for_native(&self, platform: PlatformId, native: &str) -> Vec<Role> {
        lookup(&self.roles, platform, native)
    }

    /// CUP states expressed on `platform` as `native`.
    pub fn states_for_native(&self, platform: PlatformId, native: &str) -> Vec<State> {
        lookup(&self.states, platform, native)
    }

    /// CUP actions expressed on `platform` as `native`.
    pub fn actions_for_native(&self, platform: PlatformId, native: &str) -> Vec<Action> {
        lookup(&self.actions, platform, native)
    }

    /// The mapping of `role` on `platform`.
    pub fn role(&self, role: Role, platform: PlatformId) -> Option<&NativeMapping> {
        self.roles.get(&role)?.get(&platform)?.as_ref()
    }
}

fn lookup<K: Copy + Ord>(table: &Table<K>, platform: PlatformId, native: &str) -> Vec<K> {
    table
        .iter()
        .filter(|(_, row)| {
            row.get(&platform)
                .and_then(Option::as_ref)
                .is_some_and(|m| m.alternatives.iter().any(|a| a == native))
        })
        .map(|(k, _)| *k)
        .collect()
}

fn table<K: Ord>(
    doc: &Value,
    section: &str,
    key: fn(&str) -> Option<K>,
) -> Result<Table<K>, String> {
    let rows = doc[section]
        .as_object()
        .ok_or_else(|| format!("mappings.json: missing object '{section}'"))?;
    let mut out = Table::new();
    for (name, row) in rows {
        if name.starts_with('$') {
            continue;
        }
        let k = key(name)
            .ok_or_else(|| format!("mappings.json: {section}.{name} is not in the vocabulary"))?;
        let mut per_platform = BTreeMap::new();
        for platform in PlatformId::ALL {
            let cell = &row[platform.name()];
            let mapping = match cell {
                Value::Null => None,
                Value::String(s) => Some(NativeMapping::parse(s)),
                other => return Err(format!("mappings.json: {section}.{name}.{platform} is {other}, expected a string or null")),
            };
            per_platform.insert(platform, mapping);
        }
        out.insert(k, per_platform);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_cover_the_whole_vocabulary() {
        let m = Mappings::get();
        assert_eq!(m.roles.keys().copied().collect::<Vec<_>>(), Role::ALL);
        assert_eq!(m.states.keys().copied().collect::<Vec<_>>(), State::ALL);
        assert_eq!(m.actions.keys().copied().collect::<Vec<_>>(), Action::ALL);
        for row in m.roles.values() {
            assert_eq!(row.len(), PlatformId::ALL.len());
        }
    }

    #[test]
    fn tables_agree_with_the_file_cell_by_cell() {
        let doc: Value = serde_json::from_str(MAPPINGS_JSON).expect("json");
        let m = Mappings::get();
        let mut cells = 0;
        for (section, names) in [
            (
                "roles",
                Role::ALL.iter().map(|r| r.name()).collect::<Vec<_>>(),
            ),
            ("states", State::ALL.iter().map(|r| r.name()).collect()),
            ("actions", Action::ALL.iter().map(|r| r.name()).collect()),
        ] {
            for name in names {
                for platform in PlatformId::ALL {
                    let want = doc[section][name][platform.name()].as_str();
                    let got = match section {
                        "roles" => {
                            m.roles[&Role::from_name(name).expect("role")][&platform].as_ref()
                        }
                        "states" => {
                            m.states[&State::from_name(name).expect("state")][&platform].as_ref()
                        }
                        _ => {
                            m.actions[&Action::from_name(name).expect("action")][&platform].as_ref()
                        }
                    };
                    assert_eq!(
                        got.map(|g| g.raw.as_str()),
                        want,
                        "{section}.{name}.{platform}"
                    );
                    cells += 1;
                }
            }
        }
        assert_eq!(cells, (59 + 16 + 15) * 6);
    }

    #[test]
    fn reverse_lookup_finds_alternatives() {
        let m = Mappings::get();
        assert_eq!(
            m.roles_for_native(PlatformId::Linux, "ROLE_PANEL"),
            vec![Role::Generic, Role::Group]
        );
        assert!(m
            .roles_for_native(PlatformId::Linux, "ROLE_TEXT")
            .contains(&Role::TextBox));
        let searchbox = m.role(Role::SearchBox, PlatformId::Linux).expect("mapped");
        assert!(searchbox.context_dependent);
        assert_eq!(searchbox.alternatives, vec!["ROLE_ENTRY"]);
        assert_eq!(
            m.states_for_native(PlatformId::Linux, "STATE_CHECKED"),
            vec![State::Checked]
        );
    }
}
