//! The pure helpers of the CUP SDK APIs (`prune_tree`, `serialize_compact`,
//! `serialize_overview`, `format_line`, `search_tree`, `parse_combo`, …)
//! over `cup-protocol`, taking and giving JSON text: one implementation of
//! pruning, compact text, search and key combos for the binary, Python and
//! Node. Every error is one line saying what was wrong with the input.

use cup_protocol::compact::{self, Detail, Pruned, RenderOptions};
use cup_protocol::search::{self, FindQuery};
use cup_protocol::{Direction, Envelope, Node, PlatformId, Rect, Screen, WindowInfo};

use super::word;

fn parse<T: serde::de::DeserializeOwned>(what: &str, json: &str) -> Result<T, String> {
    serde_json::from_str(json).map_err(|e| format!("{what} is not valid CUP: {e}"))
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| format!("cannot encode a result: {e}"))
}

/// A detail level by name.
///
/// # Errors
///
/// When it is none of them.
pub fn detail(v: &str) -> Result<Detail, String> {
    word("detail", v, "compact (or standard), full, minimal, page")
}

/// A pruned subtree as plain nodes.
fn to_node(p: &Pruned<'_>) -> Node {
    let mut n = p.node.clone_without_children();
    n.children = p.children.iter().map(to_node).collect();
    n
}

/// Prunes a tree (JSON list of nodes) as the compact text does; with a
/// screen size, descendants outside the screen are clipped.
///
/// # Errors
///
/// Invalid CUP, an unknown detail level.
pub fn prune_tree(tree: &str, detail: &str, screen: Option<(u64, u64)>) -> Result<String, String> {
    let roots: Vec<Node> = parse("tree", tree)?;
    let detail = self::detail(detail)?;
    let viewport = screen.map(|(w, h)| Rect::new(0, 0, w, h));
    let pruned = compact::prune(&roots, detail, viewport);
    to_json(&pruned.iter().map(to_node).collect::<Vec<_>>())
}

/// The compact text of an envelope (JSON); a window list (JSON) goes into
/// the header.
///
/// # Errors
///
/// Invalid CUP, an unknown detail level.
pub fn serialize_compact(
    envelope: &str,
    window_list: Option<&str>,
    detail: &str,
    max_chars: usize,
) -> Result<String, String> {
    let mut env: Envelope = parse("envelope", envelope)?;
    if let Some(w) = window_list {
        env.windows = Some(parse::<Vec<WindowInfo>>("the window list", w)?);
    }
    let opts = RenderOptions {
        detail: self::detail(detail)?,
        max_chars,
        ..RenderOptions::default()
    };
    Ok(compact::render(&env, &opts))
}

/// The overview text of a window list (JSON).
///
/// # Errors
///
/// Invalid CUP, an unknown platform.
pub fn serialize_overview(
    windows: &str,
    platform: &str,
    screen_w: i64,
    screen_h: i64,
) -> Result<String, String> {
    let windows: Vec<WindowInfo> = parse("the window list", windows)?;
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
///
/// # Errors
///
/// Invalid CUP.
pub fn format_line(node: &str) -> Result<String, String> {
    let node: Node = parse("node", node)?;
    Ok(compact::format_line(&node))
}

/// The text of one page of a container's items (JSON): `items` are items
/// `offset`… of `total`, with hint lines for those before and after.
///
/// # Errors
///
/// Invalid CUP.
pub fn serialize_page(
    container: &str,
    items: &str,
    offset: usize,
    total: usize,
) -> Result<String, String> {
    let container: Node = parse("container", container)?;
    let items: Vec<Node> = parse("the page's items", items)?;
    let shown: Vec<&Node> = items.iter().collect();
    Ok(compact::render_page(
        &container,
        &shown,
        offset,
        total.max(offset + items.len()),
        (Direction::Down, Direction::Up),
        compact::MAX_OUTPUT_CHARS,
        false,
    ))
}

/// Searches a tree (JSON); a JSON list of `{node, score}`, best first,
/// nodes without children.
///
/// # Errors
///
/// Invalid CUP, an empty query.
pub fn search_tree(tree: &str, q: &FindQuery) -> Result<String, String> {
    let roots: Vec<Node> = parse("tree", tree)?;
    let found = search::find(&roots, q).map_err(|e| e.to_string())?;
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

/// How well a name (and description, value, placeholder) matches query
/// tokens, 0 to 1; 1 with no tokens (no name filter).
pub fn score_name(
    query_tokens: &[String],
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
    search::score::name_match(query_tokens, &search::tokenize(name), &node).raw
}

/// A key combo as (modifiers, keys), canonical names.
///
/// # Errors
///
/// A combo cup cannot send.
pub fn parse_combo(combo: &str) -> Result<(Vec<String>, Vec<String>), String> {
    let c = cup_protocol::parse_combo(combo).map_err(|e| format!("keys {combo:?}: {e}"))?;
    Ok((
        c.modifiers.iter().map(|m| m.name().to_owned()).collect(),
        c.keys.iter().map(ToString::to_string).collect(),
    ))
}

/// Checks an element action's name and parameters as a session would,
/// before any element is looked up.
///
/// # Errors
///
/// cup's message for the bad name or parameter.
pub fn check_action(
    action: &str,
    value: Option<String>,
    direction: Option<&str>,
) -> Result<(), String> {
    let params = cup::ActionParams {
        value,
        direction: super::direction(direction)?,
        amount: None,
    };
    cup::check_request(action, &params)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Every violation of the CUP schema in an envelope (JSON), as
/// `path: message` lines; empty when valid.
///
/// # Errors
///
/// When it is not JSON at all.
pub fn validate_envelope(envelope: &str) -> Result<Vec<String>, String> {
    let v: serde_json::Value =
        serde_json::from_str(envelope).map_err(|e| format!("envelope is not JSON: {e}"))?;
    Ok(cup_protocol::schema::validate(&v)
        .iter()
        .map(ToString::to_string)
        .collect())
}

/// CUP's vocabulary as JSON: `roles`, `states`, `actions` (each a list of
/// `[name, compact code]`) and `synonyms` (`[word, [roles]]`, the
/// search's role synonyms), for the code tables of the SDK APIs.
///
/// # Errors
///
/// Never in practice (encoding fixed tables).
pub fn vocabulary() -> Result<String, String> {
    use cup_protocol::{Action, Role, State};
    let synonyms: Vec<(&str, Vec<&str>)> = search::ROLE_SYNONYMS
        .iter()
        .map(|(word, roles)| (*word, roles.iter().map(|r| r.name()).collect()))
        .collect();
    to_json(&serde_json::json!({
        "roles": Role::ALL.iter().map(|r| [r.name(), r.code()]).collect::<Vec<_>>(),
        "states": State::ALL.iter().map(|s| [s.name(), s.code()]).collect::<Vec<_>>(),
        "actions": Action::ALL.iter().map(|a| [a.name(), a.code()]).collect::<Vec<_>>(),
        "synonyms": synonyms,
    }))
}
