//! Semantic search over a CUP tree: find elements by a free-form query
//! (`"the play button"`), a role word (`"search bar"`), a name and/or a
//! state, ranked by relevance.
//!
//! This is the algorithm of the reference Python SDK (tokenizing, role
//! synonyms, query parsing and the scoring weights of [`score`]), with these
//! deliberate deviations:
//!
//! * folding uses NFKD, full lowercasing and `ß` → `ss`, and keeps
//!   non-Latin words as tokens ([`tokenize()`]);
//! * an exact name match always ranks above a non-exact one, whatever the
//!   context bonuses ([`find`]);
//! * a few extra role synonyms ([`ROLE_SYNONYMS`]), and [`resolve_roles`]
//!   also tries the whole phrase in folded form (`Menu-Item`);
//! * a token matches inside another only when the shorter one has at least
//!   [`score::MIN_PARTIAL`] characters, so `-7°C` does not match `chrome`.

pub mod keep;
pub mod query;
pub mod score;
pub mod synonyms;
pub mod tokenize;

pub use keep::keep_matches;
pub use query::{parse_query, NOISE_WORDS};
pub use synonyms::{resolve_roles, synonym_roles, ROLE_SYNONYMS};
pub use tokenize::tokenize;

use crate::node::Node;
use crate::vocab::State;
use score::{score_node, AncestorHits, Criteria};

/// Number of matches returned when [`FindQuery::limit`] is 0.
pub const DEFAULT_LIMIT: usize = 5;

/// What to search for. At least one of the fields other than `limit` must be
/// given and non-blank.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FindQuery {
    /// Free-form query mixing a role word and name words, e.g.
    /// `"the play button"`.
    pub query: Option<String>,
    /// Role word or synonym (`"button"`, `"search bar"`, `"input"`); wins
    /// over a role word in `query`.
    pub role: Option<String>,
    /// Name to match; wins over the name words in `query`.
    pub name: Option<String>,
    /// State the element must have.
    pub state: Option<State>,
    /// Maximum number of matches; 0 means [`DEFAULT_LIMIT`].
    pub limit: usize,
}

/// One search result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Match<'a> {
    /// The matching node (with its subtree).
    pub node: &'a Node,
    /// Relevance score; higher is better.
    pub score: f64,
    /// The node's folded name equals the searched name.
    pub exact: bool,
}

/// Errors of [`find`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// Every criterion was missing or blank.
    #[error("give at least one of query, role, name or state")]
    NoCriteria,
}

/// Searches `tree` (the full, unpruned tree: a list of roots) and returns
/// the best matches, best first.
///
/// Role filter: `role` resolved with [`resolve_roles`] if given, else the
/// role phrase found in `query` by [`parse_query`]. Name tokens: `name`
/// tokenized if given, else the name words of `query`. Every node is scored
/// by [`score::score_node`]; those scoring at least [`score::MIN_SCORE`] are
/// ranked exact name matches first, then by score descending, ties in tree
/// (pre-)order, and cut to the limit.
///
/// # Errors
///
/// [`SearchError::NoCriteria`] when `query`, `role`, `name` and `state` are
/// all missing or blank.
pub fn find<'a>(tree: &'a [Node], query: &FindQuery) -> Result<Vec<Match<'a>>, SearchError> {
    let text = given(&query.query);
    let role = given(&query.role);
    let name = given(&query.name);
    if text.is_none() && role.is_none() && name.is_none() && query.state.is_none() {
        return Err(SearchError::NoCriteria);
    }
    let (parsed_role, parsed_name) = text.map(parse_query).unwrap_or_default();
    let criteria = Criteria {
        roles: match role {
            Some(role) => resolve_roles(role),
            None => parsed_role.as_deref().and_then(resolve_roles),
        },
        name_tokens: match name {
            Some(name) => tokenize(name),
            None => parsed_name,
        },
        state: query.state,
    };
    let limit = if query.limit == 0 {
        DEFAULT_LIMIT
    } else {
        query.limit
    };

    let mut matches = search(tree, &criteria);
    // A role word inside a name ("Use Text CSV Format" holds "text"): the
    // element named by the whole query is still found, and first.
    if let (Some(text), None, None, Some(_)) = (text, role, name, &parsed_role) {
        let whole = Criteria {
            roles: None,
            name_tokens: tokenize(text)
                .into_iter()
                .filter(|t| !NOISE_WORDS.contains(&t.as_str()))
                .collect(),
            state: query.state,
        };
        let named: Vec<Match<'a>> = search(tree, &whole)
            .into_iter()
            .filter(|m| m.exact)
            .collect();
        matches.retain(|m| !named.iter().any(|n| std::ptr::eq(n.node, m.node)));
        matches.extend(named);
    }
    matches.sort_by(|a, b| b.exact.cmp(&a.exact).then(b.score.total_cmp(&a.score)));
    matches.truncate(limit);
    Ok(matches)
}

/// Every node of `tree` that meets `criteria`, in tree (pre-)order.
fn search<'a>(tree: &'a [Node], criteria: &Criteria) -> Vec<Match<'a>> {
    let mut matches = Vec::new();
    let mut stack: Vec<(&Node, AncestorHits)> = tree
        .iter()
        .rev()
        .map(|n| (n, AncestorHits::default()))
        .collect();
    while let Some((node, ancestors)) = stack.pop() {
        let name_tokens = if criteria.name_tokens.is_empty() {
            Vec::new()
        } else {
            tokenize(&node.name)
        };
        if let Some(scored) = score_node(node, &name_tokens, ancestors, criteria) {
            matches.push(Match {
                node,
                score: scored.score,
                exact: scored.exact,
            });
        }
        let inherited = AncestorHits {
            name: ancestors.name || name_tokens.iter().any(|t| criteria.name_tokens.contains(t)),
            role: ancestors.role
                || criteria
                    .roles
                    .as_ref()
                    .is_some_and(|r| r.contains(&node.role)),
        };
        stack.extend(node.children.iter().rev().map(|c| (c, inherited)));
    }
    matches
}

/// The trimmed text of an optional criterion, `None` when missing or blank.
fn given(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Role;
    use serde_json::json;

    fn tree(value: serde_json::Value) -> Vec<Node> {
        serde_json::from_value(value).expect("valid tree")
    }

    fn ids(found: &[Match<'_>]) -> Vec<(String, f64)> {
        found.iter().map(|m| (m.node.id.clone(), m.score)).collect()
    }

    fn assert_results(found: &[Match<'_>], want: &[(&str, f64)]) {
        let got = ids(found);
        assert_eq!(got.len(), want.len(), "got {got:?}, want {want:?}");
        for ((id, score), (want_id, want_score)) in got.iter().zip(want) {
            assert_eq!(id, want_id, "got {got:?}, want {want:?}");
            assert!(
                (score - want_score).abs() < 1e-6,
                "got {got:?}, want {want:?}"
            );
        }
    }

    fn q(query: &str) -> FindQuery {
        FindQuery {
            query: Some(query.into()),
            ..FindQuery::default()
        }
    }

    fn player() -> Vec<Node> {
        tree(json!([{
            "id": "e0", "role": "window", "name": "Player", "children": [
                {"id": "e1", "role": "button", "name": "Play"},
                {"id": "e2", "role": "button", "name": "Pause"},
                {"id": "e3", "role": "slider", "name": "Volume"},
                {"id": "e4", "role": "button", "name": "Play Music", "actions": ["click"]}
            ]
        }]))
    }

    #[test]
    fn play_button_exact_match_ranks_first() {
        // Reference order: [(e4, 0.9125), (e1, 0.9)]; our fix puts the
        // exact name first and leaves the scores unchanged.
        let t = player();
        let found = find(
            &t,
            &FindQuery {
                limit: 10,
                ..q("the play button")
            },
        )
        .expect("search");
        assert_results(&found, &[("e1", 0.9), ("e4", 0.9125)]);
        assert!(found[0].exact);
        assert!(!found[1].exact);
    }

    #[test]
    fn a_name_holding_a_role_word_is_found_by_its_whole_name() {
        // "text" is a role word; the button is named by the whole query.
        let t = tree(json!([{
            "id": "e0", "role": "alert", "name": "Question", "children": [
                {"id": "e4", "role": "text", "name": "Use the default ODF file format"},
                {"id": "e9", "role": "button", "name": "Use ODF Format"},
                {"id": "e10", "role": "button", "name": "Use Text CSV Format"}
            ]
        }]));
        let found = find(&t, &q("Use Text CSV Format")).expect("search");
        assert_eq!(found.first().map(|m| m.node.id.as_str()), Some("e10"));
        assert!(found[0].exact);
        // Found once, not again as a role match.
        assert_eq!(found.iter().filter(|m| m.node.id == "e10").count(), 1);
    }

    #[test]
    fn search_input_context() {
        let t = tree(json!([{
            "id": "e0", "role": "window", "name": "App", "children": [
                {"id": "e1", "role": "search", "name": "Search", "children": [
                    {"id": "e2", "role": "textbox", "name": "Query", "actions": ["type"]}
                ]},
                {"id": "e3", "role": "group", "name": "Settings", "children": [
                    {"id": "e4", "role": "textbox", "name": "Username", "actions": ["type"]}
                ]}
            ]
        }]));
        let found = find(&t, &q("search input")).expect("search");
        assert_results(&found, &[("e2", 0.7), ("e4", 0.6), ("e1", 0.55)]);
    }

    #[test]
    fn prefix_and_placeholder() {
        let t = tree(json!([
            {"id": "e0", "role": "textbox", "name": "", "attributes": {"placeholder": "Search here"}},
            {"id": "e1", "role": "button", "name": "Submit Order", "actions": ["click"], "states": ["offscreen"]},
            {"id": "e2", "role": "button", "name": "Sub", "states": ["focused"]}
        ]));
        let query = FindQuery {
            name: Some("sub".into()),
            ..FindQuery::default()
        };
        let found = find(&t, &query).expect("search");
        assert_results(&found, &[("e2", 0.57), ("e1", 0.41125)]);
    }

    #[test]
    fn state_filter() {
        let t = tree(json!([{
            "id": "e0", "role": "window", "name": "W", "children": [
                {"id": "e1", "role": "button", "name": "OK", "states": ["focused"]},
                {"id": "e2", "role": "textbox", "name": "Name", "states": ["focused"]}
            ]
        }]));
        let query = FindQuery {
            state: Some(State::Focused),
            ..FindQuery::default()
        };
        let found = find(&t, &query).expect("search");
        assert_results(&found, &[("e1", 0.17), ("e2", 0.17)]);
    }

    #[test]
    fn role_para_resolves_to_separator() {
        let t = tree(json!([{"id": "e0", "role": "text", "name": "para one"}]));
        let query = FindQuery {
            role: Some("para".into()),
            ..FindQuery::default()
        };
        assert_results(&find(&t, &query).expect("search"), &[]);
    }

    #[test]
    fn folded_queries_match() {
        let t = vec![
            Node::new("e0", Role::Link, "Straße"),
            Node::new("e1", Role::MenuItem, "ﬁle"),
            Node::new("e2", Role::Heading, "Résumé"),
            Node::new("e3", Role::Button, "日本語"),
        ];
        let first = |query: &str| {
            find(&t, &q(query))
                .expect("search")
                .first()
                .map(|m| (m.node.id.clone(), m.exact))
        };
        assert_eq!(first("strasse"), Some(("e0".into(), true)));
        assert_eq!(first("STRAẞE"), Some(("e0".into(), true)));
        assert_eq!(first("file"), Some(("e1".into(), true)));
        assert_eq!(first("resume"), Some(("e2".into(), true)));
        assert_eq!(first("日本語"), Some(("e3".into(), true)));
    }

    #[test]
    fn unmatched_name_returns_nothing() {
        let t = player();
        assert!(find(&t, &q("zebra")).expect("search").is_empty());
        assert!(find(&t, &q("zebra button")).expect("search").is_empty());
    }

    #[test]
    fn limit_and_default_limit() {
        let t: Vec<Node> = (0..8)
            .map(|i| Node::new(format!("e{i}"), Role::Button, format!("Item {i}")))
            .collect();
        let all = FindQuery {
            role: Some("button".into()),
            ..FindQuery::default()
        };
        assert_eq!(find(&t, &all).expect("search").len(), DEFAULT_LIMIT);
        let two = FindQuery {
            limit: 2,
            ..all.clone()
        };
        assert_eq!(ids(&find(&t, &two).expect("search")).len(), 2);
        let many = FindQuery { limit: 100, ..all };
        let found = find(&t, &many).expect("search");
        assert_eq!(found.len(), 8);
        // Equal scores keep tree order.
        let order: Vec<&str> = found.iter().map(|m| m.node.id.as_str()).collect();
        assert_eq!(order, ["e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7"]);
    }

    #[test]
    fn empty_query_is_an_error() {
        let t = player();
        let err = find(&t, &FindQuery::default()).expect_err("no criteria");
        assert_eq!(
            err.to_string(),
            "give at least one of query, role, name or state"
        );
        let blank = FindQuery {
            query: Some("  ".into()),
            role: Some(String::new()),
            name: Some("\t".into()),
            state: None,
            limit: 3,
        };
        assert_eq!(find(&t, &blank), Err(SearchError::NoCriteria));
    }

    #[test]
    fn explicit_role_and_name_win_over_the_query() {
        let t = player();
        // The query says "button", the explicit role says slider.
        let query = FindQuery {
            role: Some("slider".into()),
            ..q("volume button")
        };
        let found = find(&t, &query).expect("search");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].node.id, "e3");
        // The query names "play", the explicit name says pause.
        let query = FindQuery {
            name: Some("Pause".into()),
            ..q("play button")
        };
        let found = find(&t, &query).expect("search");
        assert_eq!(found[0].node.id, "e2");
        assert!(found[0].exact);
    }

    #[test]
    fn ancestor_name_bonus() {
        let t = tree(json!([{
            "id": "e0", "role": "dialog", "name": "Save changes", "children": [
                {"id": "e1", "role": "button", "name": "Save"}
            ]
        }, {"id": "e2", "role": "button", "name": "Save"}]));
        let found = find(
            &t,
            &FindQuery {
                limit: 10,
                ..q("save button")
            },
        )
        .expect("search");
        assert_results(&found, &[("e1", 1.0), ("e2", 0.9)]);
    }
}
