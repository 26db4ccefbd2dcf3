//! The pure helpers of the reference SDK (`cup.format`, `cup.search`,
//! `parse_combo`) over `cup-protocol`: one implementation of pruning,
//! compact text, search and key combos for the binary and Python.

use cup_protocol::compact::{self, Detail, Pruned, RenderOptions};
use cup_protocol::search;
use cup_protocol::{Envelope, Node, PlatformId, Rect, Screen, WindowInfo};
use pyo3::prelude::*;
use pyo3::wrap_pyfunction;

use crate::errors;
use crate::session::{find_query, word};
use crate::to_json;

fn parse<T: serde::de::DeserializeOwned>(what: &str, json: &str) -> PyResult<T> {
    serde_json::from_str(json).map_err(|e| errors::value(format!("{what} is not valid CUP: {e}")))
}

fn detail(v: &str) -> PyResult<Detail> {
    word("detail", v, "compact (or standard), full, minimal, page")
}

/// A pruned subtree as plain nodes.
fn to_node(p: &Pruned<'_>) -> Node {
    let mut n = p.node.clone_without_children();
    n.children = p.children.iter().map(to_node).collect();
    n
}

/// Prunes a tree (JSON list of nodes) as the compact text does; with
/// `screen` (w, h), descendants outside the screen are clipped.
#[pyfunction]
#[pyo3(signature = (tree, detail="compact", screen=None))]
fn prune_tree(tree: &str, detail: &str, screen: Option<(u64, u64)>) -> PyResult<String> {
    let roots: Vec<Node> = parse("tree", tree)?;
    let detail = self::detail(detail)?;
    let viewport = screen.map(|(w, h)| Rect::new(0, 0, w, h));
    let pruned = compact::prune(&roots, detail, viewport);
    to_json(&pruned.iter().map(to_node).collect::<Vec<_>>())
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
    let mut env: Envelope = parse("envelope", envelope)?;
    if let Some(w) = window_list {
        env.windows = Some(parse::<Vec<WindowInfo>>("window_list", w)?);
    }
    let opts = RenderOptions {
        detail: self::detail(detail)?,
        max_chars,
        ..RenderOptions::default()
    };
    Ok(compact::render(&env, &opts))
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
    let windows: Vec<WindowInfo> = parse("window_list", windows)?;
    let platform: PlatformId = word(
        "platform",
        platform,
        "windows, macos, linux, web, android, ios",
    )?;
    let screen = Screen {
        w: screen_w,
        h: screen_h,
        scale: None,
    };
    Ok(compact::render_overview(platform, &screen, &windows))
}

/// One node's compact line (without indentation).
#[pyfunction]
fn format_line(node: &str) -> PyResult<String> {
    let node: Node = parse("node", node)?;
    Ok(compact::format_line(&node))
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
    let roots: Vec<Node> = parse("tree", tree)?;
    let q = find_query(query, role, name, state, limit)?;
    let found = search::find(&roots, &q).map_err(|e| errors::value(e.to_string()))?;
    let rows: Vec<serde_json::Value> = found
        .into_iter()
        .map(|m| {
            serde_json::json!({
                "node": m.node.clone_without_children(),
                "score": m.score,
            })
        })
        .collect();
    to_json(&rows)
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
    if query_tokens.is_empty() {
        return 1.0;
    }
    let some = |s: &str| (!s.is_empty()).then(|| s.to_owned());
    let mut node = Node::new("e0", cup_protocol::Role::Generic, name);
    node.description = some(description);
    node.value = some(value);
    node.attributes.placeholder = some(placeholder);
    search::score::name_match(&query_tokens, &search::tokenize(name), &node).raw
}

/// A key combo as (modifiers, keys), canonical names.
#[pyfunction]
fn parse_combo(combo: &str) -> PyResult<(Vec<String>, Vec<String>)> {
    let c = cup_protocol::parse_combo(combo)
        .map_err(|e| errors::value(format!("keys {combo:?}: {e}")))?;
    Ok((
        c.modifiers.iter().map(|m| m.name().to_owned()).collect(),
        c.keys.iter().map(ToString::to_string).collect(),
    ))
}

/// Checks an element action's name and parameters as a Session would,
/// before any element is looked up (`ValueError` with cup's message).
#[pyfunction]
#[pyo3(signature = (action, value=None, direction=None))]
fn check_action(action: &str, value: Option<String>, direction: Option<String>) -> PyResult<()> {
    let params = cup::ActionParams {
        value,
        direction: crate::session::direction(direction.as_deref())?,
        amount: None,
    };
    cup::check_request(action, &params)
        .map(|_| ())
        .map_err(|e| errors::value(e.to_string()))
}

/// Every violation of the CUP schema in an envelope (JSON), as
/// `path: message` lines; empty when valid.
#[pyfunction]
fn validate_envelope(envelope: &str) -> PyResult<Vec<String>> {
    let v: serde_json::Value = serde_json::from_str(envelope)
        .map_err(|e| errors::value(format!("envelope is not JSON: {e}")))?;
    Ok(cup_protocol::schema::validate(&v)
        .iter()
        .map(ToString::to_string)
        .collect())
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
