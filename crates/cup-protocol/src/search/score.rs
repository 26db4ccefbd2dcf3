//! Scoring of one node against the search criteria.
//!
//! The weights are the reference SDK's. A node's score is the sum of:
//! state match ([`STATE_MATCH`]), role match ([`ROLE_MATCH`]), half the
//! name match ([`NAME_WEIGHT`] × raw, see [`name_match`]) or, for a role-only
//! search, [`ROLE_ONLY`], and the context bonuses (matching ancestor name
//! or role, a meaningful action, being on screen, being focused).

use std::collections::BTreeSet;

use crate::node::Node;
use crate::search::tokenize::tokenize;
use crate::vocab::{Role, State};

/// Added when the node has the requested state.
pub const STATE_MATCH: f64 = 0.10;
/// Added when the node's role is in the target role set.
pub const ROLE_MATCH: f64 = 0.35;
/// Weight of the raw name match (0..=1).
pub const NAME_WEIGHT: f64 = 0.5;
/// Shortest token that may match inside another (reverse prefix, substring).
/// The reference SDKs have no minimum, so the `c` of `-7°C` matched a
/// search for `chrome`.
pub const MIN_PARTIAL: usize = 3;
/// Added instead of a name match when only a role is searched for.
pub const ROLE_ONLY: f64 = 0.15;
/// Added when an ancestor's name shares a token with the query name.
pub const ANCESTOR_NAME: f64 = 0.10;
/// Added when an ancestor's role is in the target role set.
pub const ANCESTOR_ROLE: f64 = 0.10;
/// Added when the node has an action other than `focus`.
pub const ACTIONABLE: f64 = 0.05;
/// Added when the node is not offscreen.
pub const ON_SCREEN: f64 = 0.05;
/// Added when the node is focused.
pub const FOCUSED: f64 = 0.02;
/// Nodes scoring below this are dropped.
pub const MIN_SCORE: f64 = 0.15;

/// Tolerance for comparing sums of the weights above against thresholds.
const EPSILON: f64 = 1e-9;

/// What a node is scored against, after query parsing and role resolution.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Criteria {
    /// Target roles (a hard filter), `None` for any role.
    pub roles: Option<BTreeSet<Role>>,
    /// Folded query name tokens; empty for no name criterion.
    pub name_tokens: Vec<String>,
    /// Required state (a hard filter).
    pub state: Option<State>,
}

/// Context a node inherits from its ancestors.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AncestorHits {
    /// Some ancestor's name shares a token with the query name tokens.
    pub name: bool,
    /// Some ancestor's role is in the target role set.
    pub role: bool,
}

/// The score of an accepted node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    /// Total score.
    pub score: f64,
    /// The folded name equals the query name tokens.
    pub exact: bool,
}

/// The raw name match of a node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NameMatch {
    /// 0..=1; 0 rejects the node.
    pub raw: f64,
    /// The folded name equals the query name tokens.
    pub exact: bool,
}

/// Scores `node`, whose folded name tokens are `name_tokens`, or rejects it
/// (`None`) when a hard filter fails, the name does not match at all, or the
/// total is below [`MIN_SCORE`].
pub fn score_node(
    node: &Node,
    name_tokens: &[String],
    ancestors: AncestorHits,
    criteria: &Criteria,
) -> Option<Scored> {
    let mut score = 0.0;
    if let Some(state) = criteria.state {
        if !node.has_state(state) {
            return None;
        }
        score += STATE_MATCH;
    }
    if let Some(roles) = &criteria.roles {
        if !roles.contains(&node.role) {
            return None;
        }
        score += ROLE_MATCH;
    }
    let mut exact = false;
    if !criteria.name_tokens.is_empty() {
        let m = name_match(&criteria.name_tokens, name_tokens, node);
        if m.raw <= 0.0 {
            return None;
        }
        score += NAME_WEIGHT * m.raw;
        exact = m.exact;
    } else if criteria.roles.is_some() {
        score += ROLE_ONLY;
    }
    if ancestors.name {
        score += ANCESTOR_NAME;
    }
    if ancestors.role {
        score += ANCESTOR_ROLE;
    }
    if node.has_meaningful_action() {
        score += ACTIONABLE;
    }
    if !node.has_state(State::Offscreen) {
        score += ON_SCREEN;
    }
    if node.has_state(State::Focused) {
        score += FOCUSED;
    }
    (score + EPSILON >= MIN_SCORE).then_some(Scored { score, exact })
}

/// How well the query name tokens match a node's name (folded to
/// `name_tokens`) and, as a bonus, its description, value and placeholder.
///
/// * full match: 1.0 when the joined tokens are equal, 0.85 when the joined
///   query is a substring of the joined name;
/// * token match: the mean over query tokens of 1.0 (is a name token), 0.7
///   (prefix of a name token), 0.5 (starts with a name token of at least
///   [`MIN_PARTIAL`] characters), 0.6 (inside a name token, itself at least
///   [`MIN_PARTIAL`] characters) or 0;
/// * the better of the two, scaled by `0.85 + 0.15 × coverage` where
///   coverage is the share of distinct name tokens the query contains;
/// * plus 0.15 × the best share of query tokens found among the tokens of
///   the description, the value or the placeholder; capped at 1.
pub fn name_match(query: &[String], name_tokens: &[String], node: &Node) -> NameMatch {
    let joined_query = query.join(" ");
    let joined_name = name_tokens.join(" ");
    let exact = joined_query == joined_name;
    let full = if exact {
        1.0
    } else if joined_name.contains(&joined_query) {
        0.85
    } else {
        0.0
    };
    let token = mean(query.iter().map(|q| token_score(q, name_tokens)));
    let mut raw = f64::max(full, token);
    if raw > 0.0 && !name_tokens.is_empty() {
        let name_set: BTreeSet<&str> = name_tokens.iter().map(String::as_str).collect();
        let query_set: BTreeSet<&str> = query.iter().map(String::as_str).collect();
        let coverage = query_set.intersection(&name_set).count() as f64 / name_set.len() as f64;
        raw *= 0.85 + 0.15 * coverage;
    }
    let fields = [
        node.description.as_deref(),
        node.value.as_deref(),
        node.attributes.placeholder.as_deref(),
    ];
    let field = fields
        .into_iter()
        .flatten()
        .map(|text| share_found(query, &tokenize(text)))
        .fold(0.0, f64::max);
    NameMatch {
        raw: (raw + 0.15 * field).min(1.0),
        exact,
    }
}

/// Score of one query token against the name tokens.
fn token_score(token: &str, name_tokens: &[String]) -> f64 {
    if name_tokens.iter().any(|n| n == token) {
        1.0
    } else if name_tokens.iter().any(|n| n.starts_with(token)) {
        0.7
    } else if name_tokens
        .iter()
        .any(|n| n.chars().count() >= MIN_PARTIAL && token.starts_with(n.as_str()))
    {
        0.5
    } else if token.chars().count() >= MIN_PARTIAL && name_tokens.iter().any(|n| n.contains(token))
    {
        0.6
    } else {
        0.0
    }
}

/// Share of `query` tokens (counted with repetition) found in `tokens`.
fn share_found(query: &[String], tokens: &[String]) -> f64 {
    if query.is_empty() {
        return 0.0;
    }
    let found = query.iter().filter(|q| tokens.contains(q)).count();
    found as f64 / query.len() as f64
}

fn mean(values: impl ExactSizeIterator<Item = f64>) -> f64 {
    let n = values.len();
    if n == 0 {
        return 0.0;
    }
    values.sum::<f64>() / n as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<String> {
        tokenize(text)
    }

    fn raw(query: &str, name: &str) -> f64 {
        name_match(
            &toks(query),
            &toks(name),
            &Node::new("e0", Role::Button, name),
        )
        .raw
    }

    #[test]
    fn full_and_substring_matches() {
        assert!((raw("play", "Play") - 1.0).abs() < 1e-12);
        assert!((raw("play", "Play Music") - 0.925).abs() < 1e-12);
        assert!((raw("sub", "Submit Order") - 0.7225).abs() < 1e-12);
        assert_eq!(raw("zzz", "Play"), 0.0);
    }

    #[test]
    fn token_score_tiers() {
        let name = toks("Save document");
        assert_eq!(token_score("save", &name), 1.0);
        assert_eq!(token_score("doc", &name), 0.7);
        assert_eq!(token_score("saves", &name), 0.5);
        assert_eq!(token_score("cumen", &name), 0.6);
        assert_eq!(token_score("open", &name), 0.0);
        // Too short to match inside another token.
        let short = ["c".to_owned(), "ab".to_owned()];
        assert_eq!(token_score("chrome", &short), 0.0);
        assert_eq!(token_score("b", &["abc".to_owned()]), 0.0);
    }

    #[test]
    fn field_bonus_can_carry_an_unnamed_node() {
        let mut node = Node::new("e0", Role::TextBox, "");
        node.attributes.placeholder = Some("Search here".into());
        let m = name_match(&toks("search"), &[], &node);
        assert!((m.raw - 0.15).abs() < 1e-12);
        assert!(!m.exact);
    }

    #[test]
    fn raw_is_capped_at_one() {
        let mut node = Node::new("e0", Role::Button, "OK");
        node.description = Some("ok".into());
        assert_eq!(name_match(&toks("ok"), &toks("OK"), &node).raw, 1.0);
    }

    #[test]
    fn hard_filters_reject() {
        let node = Node::new("e0", Role::Button, "OK");
        let by_state = Criteria {
            state: Some(State::Focused),
            ..Criteria::default()
        };
        assert_eq!(
            score_node(&node, &[], AncestorHits::default(), &by_state),
            None
        );
        let by_role = Criteria {
            roles: Some([Role::Link].into_iter().collect()),
            ..Criteria::default()
        };
        assert_eq!(
            score_node(&node, &[], AncestorHits::default(), &by_role),
            None
        );
    }
}
