//! Free-form query parsing: `"the play button"` → role phrase `button`,
//! name tokens `play`.

use crate::search::synonyms::synonym_roles;
use crate::search::tokenize::tokenize;

/// Words dropped from the name part of a free-form query.
pub const NOISE_WORDS: &[&str] = &[
    "the", "a", "an", "this", "that", "for", "in", "on", "of", "with", "to", "and", "or", "is",
    "it", "its", "my", "your",
];

/// Splits a free-form query into a role phrase and name tokens.
///
/// The query is tokenized; spans of 3, then 2, then 1 tokens (leftmost first
/// within a length), joined by single spaces, are looked up as role synonyms.
/// The first hit is the role phrase. The tokens before and after it, minus
/// [`NOISE_WORDS`], are the name tokens.
pub fn parse_query(query: &str) -> (Option<String>, Vec<String>) {
    let tokens = tokenize(query);
    let keep = |t: &&String| !NOISE_WORDS.contains(&t.as_str());
    for len in (1..=3).rev() {
        if len > tokens.len() {
            continue;
        }
        for start in 0..=tokens.len() - len {
            let phrase = tokens[start..start + len].join(" ");
            if synonym_roles(&phrase).is_some() {
                let name = tokens[..start]
                    .iter()
                    .chain(&tokens[start + len..])
                    .filter(keep)
                    .cloned()
                    .collect();
                return (Some(phrase), name);
            }
        }
    }
    (None, tokens.iter().filter(keep).cloned().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_vectors() {
        let cases: &[(&str, Option<&str>, &[&str])] = &[
            ("the play button", Some("button"), &["play"]),
            ("search input", Some("search input"), &[]),
            ("Submit", None, &["submit"]),
            ("volume slider", Some("slider"), &["volume"]),
            ("the a an button", Some("button"), &[]),
            ("menu item file", Some("menu item"), &["file"]),
            ("close tab bar", Some("tab bar"), &["close"]),
        ];
        for (query, role, name) in cases {
            let (got_role, got_name) = parse_query(query);
            assert_eq!(got_role.as_deref(), *role, "role of {query:?}");
            assert_eq!(got_name, *name, "name of {query:?}");
        }
    }

    #[test]
    fn empty_and_noise_only() {
        assert_eq!(parse_query(""), (None, vec![]));
        assert_eq!(parse_query("the of"), (None, vec![]));
    }

    #[test]
    fn longer_span_wins_over_leftmost_shorter() {
        // "button" (1 token) is left of "search box" (2 tokens).
        let (role, name) = parse_query("button near search box");
        assert_eq!(role.as_deref(), Some("search box"));
        assert_eq!(name, ["button", "near"]);
    }
}
