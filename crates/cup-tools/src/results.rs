//! How results read: an action's line with its observed changes (the same
//! text `cup action` prints), and snapshots cut down by a query.

use cup::{ActionResult, Change, Snapshot};
use cup_protocol::compact;
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
        out.push_str(&format!("  {}\n", change_line(c)));
    }
    out
}

/// One change as `target field: before -> after`, the field said once when
/// it is the target's own word (`focus: - -> e52`, not `focus focus: ...`).
pub fn change_line(c: &Change) -> String {
    let before = c.before.as_deref().unwrap_or("-");
    let after = c.after.as_deref().unwrap_or("-");
    if c.target == c.field {
        format!("{}: {before} -> {after}", c.field)
    } else {
        format!("{} {}: {before} -> {after}", c.target, c.field)
    }
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
    req: &cup::SnapshotRequest,
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
    Ok(compact::render(&env, &req.render_options(notes)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup::Effect;

    fn change(target: &str, field: &str, before: Option<&str>, after: Option<&str>) -> Change {
        Change {
            target: target.into(),
            field: field.into(),
            before: before.map(str::to_owned),
            after: after.map(str::to_owned),
        }
    }

    #[test]
    fn a_change_names_its_field_once_when_it_is_the_target() {
        let result = ActionResult::observed(
            "Pressed tab",
            Effect::Confirmed,
            vec![
                change("focus", "focus", None, Some("e52")),
                change("e12", "states", None, Some("+checked")),
                change("textbox \"Search\"", "text", Some("a"), Some("ab")),
            ],
        );
        assert_eq!(
            describe(&result),
            "ok [confirmed] Pressed tab\n  focus: - -> e52\n  e12 states: - -> +checked\n  textbox \"Search\" text: a -> ab\n"
        );
    }
}
