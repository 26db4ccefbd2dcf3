//! The pure helpers of the CUP TypeScript API (`pruneTree`,
//! `serializeCompact`, `serializeOverview`, `formatLine`, `searchTree`,
//! `tokenize`, `resolveRoles`, `parseCombo`, …) over `cup-protocol`: one
//! implementation of pruning, compact text, search and key combos for the
//! binary, Python and Node.

use cup_protocol::compact::{self, Detail, Pruned, RenderOptions};
use cup_protocol::search;
use cup_protocol::{Envelope, Node, PlatformId, Rect, Screen, WindowInfo};
use napi_derive::napi;

use crate::errors;
use crate::session::{find_query, word};
use crate::to_json;

fn parse<T: serde::de::DeserializeOwned>(what: &str, json: &str) -> napi::Result<T> {
    serde_json::from_str(json).map_err(|e| errors::invalid(format!("{what} is not valid CUP: {e}")))
}

fn detail(v: Option<&str>) -> napi::Result<Detail> {
    word(
        "detail",
        v.unwrap_or("compact"),
        "compact (or standard), full, minimal, page",
    )
}

/// A pruned subtree as plain nodes.
fn to_node(p: &Pruned<'_>) -> Node {
    let mut n = p.node.clone_without_children();
    n.children = p.children.iter().map(to_node).collect();
    n
}

/// Prunes a tree (JSON list of nodes) as the compact text does; with a
/// screen size, descendants outside the screen are clipped.
#[napi]
pub fn prune_tree(
    tree: String,
    detail: Option<String>,
    screen_w: Option<u32>,
    screen_h: Option<u32>,
) -> napi::Result<String> {
    let roots: Vec<Node> = parse("tree", &tree)?;
    let detail = self::detail(detail.as_deref())?;
    let viewport = screen_w
        .zip(screen_h)
        .map(|(w, h)| Rect::new(0, 0, u64::from(w), u64::from(h)));
    let pruned = compact::prune(&roots, detail, viewport);
    to_json(&pruned.iter().map(to_node).collect::<Vec<_>>())
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
    let mut env: Envelope = parse("envelope", &envelope)?;
    if let Some(w) = window_list {
        env.windows = Some(parse::<Vec<WindowInfo>>("windowList", &w)?);
    }
    let opts = RenderOptions {
        detail: self::detail(detail.as_deref())?,
        max_chars: max_chars.map_or(compact::MAX_OUTPUT_CHARS, |c| c as usize),
        ..RenderOptions::default()
    };
    Ok(compact::render(&env, &opts))
}

/// The overview text of a window list (JSON).
#[napi]
pub fn serialize_overview(
    windows: String,
    platform: String,
    screen_w: i64,
    screen_h: i64,
) -> napi::Result<String> {
    let windows: Vec<WindowInfo> = parse("windowList", &windows)?;
    let platform: PlatformId = word(
        "platform",
        &platform,
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
#[napi]
pub fn format_line(node: String) -> napi::Result<String> {
    let node: Node = parse("node", &node)?;
    Ok(compact::format_line(&node))
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
    let container: Node = parse("container", &container)?;
    let items: Vec<Node> = parse("pageItems", &items)?;
    let shown: Vec<&Node> = items.iter().collect();
    Ok(compact::render_page(
        &container,
        &shown,
        offset as usize,
        (total as usize).max(offset as usize + items.len()),
        (cup_protocol::Direction::Down, cup_protocol::Direction::Up),
        compact::MAX_OUTPUT_CHARS,
    ))
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
    let roots: Vec<Node> = parse("tree", &tree)?;
    let q = find_query(query, role, name, state, limit.map_or(5, |l| l as usize))?;
    let found = search::find(&roots, &q).map_err(|e| errors::invalid(e.to_string()))?;
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
    if query_tokens.is_empty() {
        return 1.0;
    }
    let some = |s: Option<String>| s.filter(|s| !s.is_empty());
    let mut node = Node::new("e0", cup_protocol::Role::Generic, &name);
    node.description = some(description);
    node.value = some(value);
    node.attributes.placeholder = some(placeholder);
    search::score::name_match(&query_tokens, &search::tokenize(&name), &node).raw
}

/// A key combo as `[modifiers, keys]`, canonical names.
#[napi]
pub fn parse_combo(combo: String) -> napi::Result<(Vec<String>, Vec<String>)> {
    let c = cup_protocol::parse_combo(&combo)
        .map_err(|e| errors::invalid(format!("keys {combo:?}: {e}")))?;
    Ok((
        c.modifiers.iter().map(|m| m.name().to_owned()).collect(),
        c.keys.iter().map(ToString::to_string).collect(),
    ))
}

/// Checks an element action's name and parameters as a session would,
/// before any element is looked up (an `Error` with cup's message).
#[napi]
pub fn check_action(
    action: String,
    value: Option<String>,
    direction: Option<String>,
) -> napi::Result<()> {
    let params = cup::ActionParams {
        value,
        direction: crate::session::direction(direction.as_deref())?,
        amount: None,
    };
    cup::check_request(&action, &params)
        .map(|_| ())
        .map_err(|e| errors::invalid(e.to_string()))
}

/// Every violation of the CUP schema in an envelope (JSON), as
/// `path: message` lines; empty when valid.
#[napi]
pub fn validate_envelope(envelope: String) -> napi::Result<Vec<String>> {
    let v: serde_json::Value = serde_json::from_str(&envelope)
        .map_err(|e| errors::invalid(format!("envelope is not JSON: {e}")))?;
    Ok(cup_protocol::schema::validate(&v)
        .iter()
        .map(ToString::to_string)
        .collect())
}

/// CUP's vocabulary as JSON: `roles`, `states`, `actions` (each a list of
/// `[name, compact code]`) and `synonyms` (`[word, [roles]]`, the search's
/// role synonyms), for the TypeScript layer's code tables.
#[napi]
pub fn vocabulary() -> napi::Result<String> {
    use cup_protocol::{Action, Role, State};
    let pairs = |v: Vec<(&'static str, &'static str)>| -> Vec<[&'static str; 2]> {
        v.into_iter().map(|(n, c)| [n, c]).collect()
    };
    let synonyms: Vec<(&str, Vec<&str>)> = search::ROLE_SYNONYMS
        .iter()
        .map(|(word, roles)| (*word, roles.iter().map(|r| r.name()).collect()))
        .collect();
    to_json(&serde_json::json!({
        "roles": pairs(Role::ALL.iter().map(|r| (r.name(), r.code())).collect()),
        "states": pairs(State::ALL.iter().map(|s| (s.name(), s.code())).collect()),
        "actions": pairs(Action::ALL.iter().map(|a| (a.name(), a.code())).collect()),
        "synonyms": synonyms,
    }))
}
