//! The pure helpers of the reference SDK (`cup.format`, `cup.search`,
//! `parse_combo`): the shared ones of [`cup_tools::bindings::json`], their
//! errors as `ValueError`.

use cup_protocol::compact;
use cup_protocol::search;
use cup_tools::bindings::json;
use pyo3::prelude::*;
use pyo3::wrap_pyfunction;

use crate::errors;
use crate::session::find_query;

/// Prunes a tree (JSON list of nodes) as the compact text does; with
/// `screen` (w, h), descendants outside the screen are clipped.
#[pyfunction]
#[pyo3(signature = (tree, detail="compact", screen=None))]
fn prune_tree(tree: &str, detail: &str, screen: Option<(u64, u64)>) -> PyResult<String> {
    json::prune_tree(tree, detail, screen).map_err(errors::value)
}

/// The compact text of an envelope (JSON); `window_list` (JSON list of
/// windows) goes into the header.
#[pyfunction]
#[pyo3(signature = (envelope, window_list=None, detail="compact", max_chars=compact::MAX_OUTPUT_CHARS))]
fn serialize_compact(
    envelope: &str,
    window_list: Option<&str>,
    detail: &str,
    max_chars: usize,
) -> PyResult<String> {
    json::serialize_compact(envelope, window_list, detail, max_chars).map_err(errors::value)
}

/// The overview text of a window list (JSON).
#[pyfunction]
#[pyo3(signature = (windows, platform, screen_w, screen_h))]
fn serialize_overview(
    windows: &str,
    platform: &str,
    screen_w: i64,
    screen_h: i64,
) -> PyResult<String> {
    json::serialize_overview(windows, platform, screen_w, screen_h).map_err(errors::value)
}

/// One node's compact line (without indentation).
#[pyfunction]
fn format_line(node: &str) -> PyResult<String> {
    json::format_line(node).map_err(errors::value)
}

/// Searches a tree (JSON); JSON list of `{"node", "score"}`, best first,
/// nodes without children.
#[pyfunction]
#[pyo3(signature = (tree, query=None, role=None, name=None, state=None, limit=5))]
fn search_tree(
    tree: &str,
    query: Option<String>,
    role: Option<String>,
    name: Option<String>,
    state: Option<String>,
    limit: usize,
) -> PyResult<String> {
    let q = find_query(query, role, name, state, limit)?;
    json::search_tree(tree, &q).map_err(errors::value)
}

/// Lowercase, accent-free word tokens.
#[pyfunction]
fn tokenize(text: &str) -> Vec<String> {
    search::tokenize(text)
}

/// The CUP roles a role word or synonym stands for, or `None`.
#[pyfunction]
fn resolve_roles(phrase: &str) -> Option<Vec<&'static str>> {
    search::resolve_roles(phrase).map(|set| set.into_iter().map(|r| r.name()).collect())
}

/// A free-form query split into a role phrase and name words.
#[pyfunction]
fn parse_query(query: &str) -> (Option<String>, Vec<String>) {
    search::parse_query(query)
}

/// How well a name (and description, value, placeholder) matches query
/// tokens, 0 to 1; 1 with no tokens (no name filter).
#[pyfunction]
#[pyo3(signature = (query_tokens, name, description="", value="", placeholder=""))]
fn score_name(
    query_tokens: Vec<String>,
    name: &str,
    description: &str,
    value: &str,
    placeholder: &str,
) -> f64 {
    json::score_name(&query_tokens, name, description, value, placeholder)
}

/// A key combo as (modifiers, keys), canonical names.
#[pyfunction]
fn parse_combo(combo: &str) -> PyResult<(Vec<String>, Vec<String>)> {
    json::parse_combo(combo).map_err(errors::value)
}

/// Checks an element action's name and parameters as a Session would,
/// before any element is looked up (`ValueError` with cup's message).
#[pyfunction]
#[pyo3(signature = (action, value=None, direction=None))]
fn check_action(action: &str, value: Option<String>, direction: Option<String>) -> PyResult<()> {
    json::check_action(action, value, direction.as_deref()).map_err(errors::value)
}

/// Every violation of the CUP schema in an envelope (JSON), as
/// `path: message` lines; empty when valid.
#[pyfunction]
fn validate_envelope(envelope: &str) -> PyResult<Vec<String>> {
    json::validate_envelope(envelope).map_err(errors::value)
}

/// Adds the helpers to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prune_tree, m)?)?;
    m.add_function(wrap_pyfunction!(serialize_compact, m)?)?;
    m.add_function(wrap_pyfunction!(serialize_overview, m)?)?;
    m.add_function(wrap_pyfunction!(format_line, m)?)?;
    m.add_function(wrap_pyfunction!(search_tree, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_roles, m)?)?;
    m.add_function(wrap_pyfunction!(parse_query, m)?)?;
    m.add_function(wrap_pyfunction!(score_name, m)?)?;
    m.add_function(wrap_pyfunction!(parse_combo, m)?)?;
    m.add_function(wrap_pyfunction!(check_action, m)?)?;
    m.add_function(wrap_pyfunction!(validate_envelope, m)?)?;
    Ok(())
}
