//! The pure helpers of the CUP TypeScript API (`pruneTree`,
//! `serializeCompact`, `serializeOverview`, `formatLine`, `searchTree`,
//! `tokenize`, `resolveRoles`, `parseCombo`, …): the shared ones of
//! [`cup_tools::bindings::json`], their errors as `InvalidArg`.

use cup_protocol::search;
use cup_tools::bindings::{self, json};
use napi_derive::napi;

use crate::errors::invalid;

/// Prunes a tree (JSON list of nodes) as the compact text does; with a
/// screen size, descendants outside the screen are clipped.
#[napi]
pub fn prune_tree(
    tree: String,
    detail: Option<String>,
    screen_w: Option<u32>,
    screen_h: Option<u32>,
) -> napi::Result<String> {
    let screen = screen_w
        .zip(screen_h)
        .map(|(w, h)| (u64::from(w), u64::from(h)));
    json::prune_tree(&tree, detail.as_deref().unwrap_or("compact"), screen).map_err(invalid)
}

/// The compact text of an envelope (JSON); a window list (JSON) goes into
/// the header.
#[napi]
pub fn serialize_compact(
    envelope: String,
    window_list: Option<String>,
    detail: Option<String>,
    max_chars: Option<u32>,
) -> napi::Result<String> {
    json::serialize_compact(
        &envelope,
        window_list.as_deref(),
        detail.as_deref().unwrap_or("compact"),
        max_chars.map_or(cup_protocol::compact::MAX_OUTPUT_CHARS, |c| c as usize),
    )
    .map_err(invalid)
}

/// The overview text of a window list (JSON).
#[napi]
pub fn serialize_overview(
    windows: String,
    platform: String,
    screen_w: i64,
    screen_h: i64,
) -> napi::Result<String> {
    json::serialize_overview(&windows, &platform, screen_w, screen_h).map_err(invalid)
}

/// One node's compact line (without indentation).
#[napi]
pub fn format_line(node: String) -> napi::Result<String> {
    json::format_line(&node).map_err(invalid)
}

/// The text of one page of a container's items (JSON): `items` are items
/// `offset`… of `total`, with hint lines for those before and after.
#[napi]
pub fn serialize_page(
    container: String,
    items: String,
    offset: u32,
    total: u32,
) -> napi::Result<String> {
    json::serialize_page(&container, &items, offset as usize, total as usize).map_err(invalid)
}

/// Searches a tree (JSON); a JSON list of `{node, score}`, best first,
/// nodes without children.
#[napi]
pub fn search_tree(
    tree: String,
    query: Option<String>,
    role: Option<String>,
    name: Option<String>,
    state: Option<String>,
    limit: Option<u32>,
) -> napi::Result<String> {
    let q = bindings::find_query(query, role, name, state, limit.map_or(5, |l| l as usize))
        .map_err(invalid)?;
    json::search_tree(&tree, &q).map_err(invalid)
}

/// Lowercase, accent-free word tokens.
#[napi]
pub fn tokenize(text: String) -> Vec<String> {
    search::tokenize(&text)
}

/// The CUP roles a role word or synonym stands for, or `null`.
#[napi]
pub fn resolve_roles(phrase: String) -> Option<Vec<&'static str>> {
    search::resolve_roles(&phrase).map(|set| set.into_iter().map(|r| r.name()).collect())
}

/// A free-form query split into a role phrase (or `null`) and name
/// words: `[role, words]`.
#[napi]
pub fn parse_query(query: String) -> (Option<String>, Vec<String>) {
    search::parse_query(&query)
}

/// How well a name (and description, value, placeholder) matches query
/// tokens, 0 to 1; 1 with no tokens (no name filter).
#[napi]
pub fn score_name(
    query_tokens: Vec<String>,
    name: String,
    description: Option<String>,
    value: Option<String>,
    placeholder: Option<String>,
) -> f64 {
    json::score_name(
        &query_tokens,
        &name,
        description.as_deref().unwrap_or(""),
        value.as_deref().unwrap_or(""),
        placeholder.as_deref().unwrap_or(""),
    )
}

/// A key combo as `[modifiers, keys]`, canonical names.
#[napi]
pub fn parse_combo(combo: String) -> napi::Result<(Vec<String>, Vec<String>)> {
    json::parse_combo(&combo).map_err(invalid)
}

/// Checks an element action's name and parameters as a session would,
/// before any element is looked up (an `Error` with cup's message).
#[napi]
pub fn check_action(
    action: String,
    value: Option<String>,
    direction: Option<String>,
) -> napi::Result<()> {
    json::check_action(&action, value, direction.as_deref()).map_err(invalid)
}

/// Every violation of the CUP schema in an envelope (JSON), as
/// `path: message` lines; empty when valid.
#[napi]
pub fn validate_envelope(envelope: String) -> napi::Result<Vec<String>> {
    json::validate_envelope(&envelope).map_err(invalid)
}

/// CUP's vocabulary as JSON (`roles`, `states`, `actions`: `[name, code]`
/// lists; `synonyms`), for the TypeScript layer's code tables.
#[napi]
pub fn vocabulary() -> napi::Result<String> {
    json::vocabulary().map_err(crate::errors::failure)
}
