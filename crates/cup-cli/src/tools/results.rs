//! How results read: an action's line with its observed changes (the same
//! text `cup action` prints), and snapshots cut down by a query.

use cup::{ActionResult, Snapshot};
use cup_protocol::compact::{self, RenderOptions};
use cup_protocol::search::{keep_matches, FindQuery};

use super::{Output, ToolError};

/// One line per result: `ok|failed [effect] message`, then the changes.
pub fn describe(result: &ActionResult) -> String {
    let mut out = format!(
        "{} [{}] {}",
        if result.success { "ok" } else { "failed" },
        result.effect,
        result.message
    );
    if let Some(e) = &result.error {
        out.push_str(&format!(" — {e}"));
    }
    out.push('\n');
    for c in &result.changes {
        out.push_str(&format!(
            "  {} {}: {} -> {}\n",
            c.target,
            c.field,
            c.before.as_deref().unwrap_or("-"),
            c.after.as_deref().unwrap_or("-")
        ));
    }
    out
}

/// An action result as a tool result: the text, the result as structured
/// content, an error when it failed.
pub fn action_output(result: &ActionResult) -> Output {
    let mut out = Output::text(describe(result));
    out.structured = serde_json::to_value(result).ok();
    out.is_error = !result.success;
    out
}

/// The snapshot's text, or with `query` only the matching elements and
/// their ancestors (rendered with the snapshot's pruning).
pub fn snapshot_text(
    snap: &Snapshot,
    query: Option<&str>,
    detail: compact::Detail,
) -> Result<String, ToolError> {
    let Some(q) = query.filter(|q| !q.trim().is_empty()) else {
        return Ok(snap.text.clone());
    };
    let find = FindQuery {
        query: Some(q.to_owned()),
        ..FindQuery::default()
    };
    let (tree, n) = keep_matches(&snap.envelope.tree, &find)?;
    let mut env = snap.envelope.clone();
    env.tree = tree;
    let mut notes = snap.notes.clone();
    notes.push(format!(
        "query {q:?}: {n} match(es) with their ancestors{}",
        if n == 0 {
            "; try other words, or snapshot without query"
        } else {
            ""
        }
    ));
    Ok(compact::render(
        &env,
        &RenderOptions {
            detail,
            max_chars: compact::MAX_OUTPUT_CHARS,
            notes,
        },
    ))
}
