//! The CUP tools: snapshot (and its scopes), overview, find, page, wait,
//! screenshot, action, open_app, batch.

use std::time::Duration;

use cup::page::PageScript;
use cup::{ActionParams, Direction, Effect, ShotTarget};
use cup_protocol::compact::PageRequest;
use cup_protocol::search::FindQuery;
use cup_protocol::{Rect, Scope};
use serde_json::{json, Value};

use super::args::{fail, Args, ToolError};
use super::results::{action_output, describe, snapshot_text};
use super::{Block, Output, Toolbox};

/// The arguments of `snapshot`; `snapshot_app` takes all but `scope`.
const SNAPSHOT_ARGS: [&str; 9] = [
    "scope",
    "app",
    "max_depth",
    "detail",
    "query",
    "since",
    "bounds",
    "max_tokens",
    "ocr",
];

pub(super) async fn call(
    tb: &mut Toolbox,
    tool: &str,
    args: &Args<'_>,
) -> Result<Output, ToolError> {
    match tool {
        "snapshot" => {
            args.only(&SNAPSHOT_ARGS)?;
            let mut req = tb.request(args)?;
            req.app = args.str("app")?;
            if req.app.is_some() && req.scope == Scope::Foreground && !args.has("scope") {
                req.scope = Scope::Full;
            }
            req.since = since(args)?;
            snapshot(tb, &req, args.str("query")?.as_deref()).await
        }
        "snapshot_app" => {
            args.only(&SNAPSHOT_ARGS[1..])?;
            let mut req = tb.request(args)?;
            req.scope = Scope::Full;
            req.app = Some(args.req_str("app", "\"Calculator\"")?);
            req.since = since(args)?;
            snapshot(tb, &req, args.str("query")?.as_deref()).await
        }
        "snapshot_desktop" => {
            args.only(&["detail", "since", "bounds", "max_tokens"])?;
            let mut req = tb.request(args)?;
            req.scope = Scope::Desktop;
            req.since = since(args)?;
            snapshot(tb, &req, None).await
        }
        "overview" => {
            args.only(&[])?;
            let req = cup::SnapshotRequest {
                scope: Scope::Overview,
                ..tb.base_request()
            };
            snapshot(tb, &req, None).await
        }
        "find" => find(tb, args),
        "page" => page(tb, args).await,
        "wait" => wait(tb, args).await,
        "screenshot" => screenshot(tb, args).await,
        "action" => action(tb, args).await,
        "open_app" => open_app(tb, args).await,
        "batch" => batch(tb, args).await,
        other => fail(format!("{other}: not a CUP tool")),
    }
}

/// `since`: "last" or a snapshot id; not with `query` (which renders the
/// matches whole).
fn since(args: &Args<'_>) -> Result<Option<String>, ToolError> {
    let since = args.str("since")?.filter(|s| !s.trim().is_empty());
    if since.is_some() && args.str("query")?.is_some_and(|q| !q.trim().is_empty()) {
        return fail(format!(
            "{}: give since or query, not both (query shows its matches whole)",
            args.tool()
        ));
    }
    Ok(since)
}

async fn snapshot(
    tb: &mut Toolbox,
    req: &cup::SnapshotRequest,
    query: Option<&str>,
) -> Result<Output, ToolError> {
    let session = tb.session()?;
    let snap = session.snapshot(req).await?;
    Ok(Output::text(snapshot_text(snap, query, req)?))
}

pub(super) fn find_query(args: &Args<'_>) -> Result<FindQuery, ToolError> {
    let state = args
        .str("state")?
        .map(|s| {
            cup_protocol::State::from_name(s.trim()).ok_or_else(|| {
                ToolError(format!(
                    "{}: unknown state {s:?}; use a CUP state such as focused, checked, disabled",
                    args.tool()
                ))
            })
        })
        .transpose()?;
    let q = FindQuery {
        query: args.str("query")?,
        role: args.str("role")?,
        name: args.str("name")?,
        state,
        limit: args
            .int("limit", 1, 1000)?
            .and_then(|l| usize::try_from(l).ok())
            .unwrap_or(0),
    };
    let blank = |s: &Option<String>| s.as_deref().is_none_or(|s| s.trim().is_empty());
    if blank(&q.query) && blank(&q.role) && blank(&q.name) && q.state.is_none() {
        return fail(format!(
            "{}: give at least one of query, role, name or state, e.g. {{\"query\": \"save button\"}}",
            args.tool()
        ));
    }
    Ok(q)
}

fn find(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&["query", "role", "name", "state", "limit"])?;
    let q = find_query(args)?;
    let found = tb.session()?.find(&q)?;
    if found.is_empty() {
        return Ok(Output::text(
            "# 0 matches in the last snapshot; try other words, or take a new snapshot",
        ));
    }
    let mut text = format!("# {} match(es)\n", found.len());
    for n in &found {
        text.push_str(&cup_protocol::compact::format_line(n));
        text.push('\n');
    }
    Ok(Output::text(text))
}

fn direction(args: &Args<'_>) -> Result<Option<Direction>, ToolError> {
    args.choice("direction", &["up", "down", "left", "right"])?
        .map(|d| d.parse::<Direction>().map_err(|e| ToolError(e.to_string())))
        .transpose()
}

async fn page(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&[
        "element_id",
        "direction",
        "offset",
        "limit",
        "action",
        "javascript",
        "css_selector",
        "attributes",
        "page",
    ])?;
    // Every argument is read (and checked) before anything runs.
    let action = args.choice("action", &["execute_javascript", "get_text", "query_dom"])?;
    let javascript = args.str("javascript")?;
    let selector = args.str("css_selector")?;
    let attributes = args.strings("attributes", false)?;
    let target = args.str("page")?;
    let id = args.str("element_id")?;
    let req = PageRequest {
        direction: direction(args)?,
        offset: args
            .int("offset", 0, 10_000_000)?
            .and_then(|o| usize::try_from(o).ok()),
        limit: args
            .int("limit", 1, 10_000)?
            .and_then(|l| usize::try_from(l).ok()),
        ..PageRequest::default()
    };
    if let Some(action) = action {
        let script = match action.as_str() {
            "execute_javascript" => PageScript::ExecuteJavascript(
                javascript.filter(|j| !j.trim().is_empty()).ok_or_else(|| {
                    ToolError(
                        "page: execute_javascript needs `javascript`, e.g. \"document.title\""
                            .into(),
                    )
                })?,
            ),
            "get_text" => PageScript::GetText,
            _ => PageScript::QueryDom {
                selector: selector.filter(|s| !s.trim().is_empty()).ok_or_else(|| {
                    ToolError("page: query_dom needs `css_selector`, e.g. \"a[href]\"".into())
                })?,
                attributes,
            },
        };
        let value = tb
            .page_scripting()?
            .page_script(target.as_deref(), &script)
            .await?;
        let text = match &value {
            Value::String(s) => s.clone(),
            v => serde_json::to_string_pretty(v).unwrap_or_default(),
        };
        return Ok(Output::text(text));
    }
    let id = id.ok_or_else(|| {
        ToolError(
            "page: give element_id (a scroll container, e.g. {\"element_id\": \"e12\", \"direction\": \"down\"}) or action (execute_javascript, get_text, query_dom)".into(),
        )
    })?;
    Ok(Output::text(tb.session()?.page(&id, &req)?))
}

/// `wait(until="load")`: snapshots until one says nothing of a page still
/// loading ([`cup::page::LOADING_NOTE`]), or `timeout` passes.
async fn wait(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&["ms", "query", "timeout_ms", "until"])?;
    let ms = args.int("ms", 50, 10_000)?;
    let query = args.str("query")?;
    let timeout = Duration::from_millis(
        args.int("timeout_ms", 100, 60_000)?
            .unwrap_or(5000)
            .unsigned_abs(),
    );
    let until = if args.choice("until", &["load"])?.is_some() {
        cup::Until::Load
    } else if let Some(q) = query.filter(|q| !q.trim().is_empty()) {
        cup::Until::Found(FindQuery {
            query: Some(q),
            ..FindQuery::default()
        })
    } else {
        let ms = ms.unwrap_or(500);
        // `wait` is the gesture an agent asked for: a pause.
        tokio::time::sleep(Duration::from_millis(ms.unsigned_abs())).await;
        return Ok(Output::text(format!("Waited {ms} ms")));
    };
    if tb.session()?.last_request().is_none() {
        let base = tb.base_request();
        tb.session()?.snapshot(&base).await?;
    }
    match tb.session()?.wait(&until, timeout).await {
        Ok(w) => Ok(Output::text(match w.found {
            Some(n) => format!(
                "found after {} ms (ids are the new snapshot's):\n{}",
                w.ms,
                cup_protocol::compact::format_line(&n)
            ),
            None => format!(
                "loaded after {} ms (ids are the new snapshot's); snapshot to read it",
                w.ms
            ),
        })),
        Err(cup::SessionError::Timeout(message)) => Ok(Output::error(message)),
        Err(e) => Err(e.into()),
    }
}

pub(super) fn region(args: &Args<'_>, keys: [&str; 4]) -> Result<Option<Rect>, ToolError> {
    let vals: Vec<Option<i64>> = keys
        .iter()
        .map(|k| args.int(k, -100_000, 100_000))
        .collect::<Result<_, _>>()?;
    match vals.as_slice() {
        [Some(x), Some(y), Some(w), Some(h)] => {
            if *w <= 0 || *h <= 0 {
                return fail(format!(
                    "{}: width and height must be positive, got {w}x{h}",
                    args.tool()
                ));
            }
            Ok(Some(Rect::new(*x, *y, w.unsigned_abs(), h.unsigned_abs())))
        }
        [None, None, None, None] => Ok(None),
        _ => fail(format!(
            "{}: give all of {} or none",
            args.tool(),
            keys.join(", ")
        )),
    }
}

async fn screenshot(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&[
        "x", "y", "w", "h", "region_x", "region_y", "region_w", "region_h", "marks",
    ])?;
    let area = match region(args, ["x", "y", "w", "h"])? {
        Some(r) => Some(r),
        None => region(args, ["region_x", "region_y", "region_w", "region_h"])?,
    };
    let target = area.map_or(ShotTarget::Screen, ShotTarget::Region);
    if args.bool("marks")?.unwrap_or(false) {
        let (png, value, line) = super::visual::marked_shot(tb, &target).await?;
        let image = &value["image"];
        let note = format!(
            "{}x{} px at {},{}; {line}",
            image["width"], image["height"], image["x"], image["y"]
        );
        let mut out = Output::image(png, note);
        out.structured = Some(value);
        return Ok(out);
    }
    let shot = tb.session()?.screenshot(&target).await?;
    let note = format!("{}x{} px at {},{}", shot.width, shot.height, shot.x, shot.y);
    Ok(Output::image(shot.png, note))
}

async fn action(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&[
        "action",
        "element_id",
        "value",
        "direction",
        "amount",
        "keys",
        "observe",
    ])?;
    let verb = args.req_str("action", "\"click\"")?;
    let observe = args.bool("observe")?.unwrap_or(false);
    let keys = args.str("keys")?;
    let id = args.str("element_id")?;
    let params = ActionParams {
        value: args.str("value")?,
        direction: direction(args)?,
        amount: args
            .int("amount", 1, i64::from(cup::execute::MAX_SCROLL))?
            .and_then(|a| u32::try_from(a).ok()),
    };
    if matches!(verb.trim(), "press" | "press_keys") {
        let keys = keys.filter(|k| !k.trim().is_empty()).ok_or_else(|| {
            ToolError(
                "action: press needs `keys`, e.g. {\"action\": \"press\", \"keys\": \"ctrl+s\"}"
                    .into(),
            )
        })?;
        return tb
            .acting(observe, move |s| {
                Box::pin(async move { Ok(action_output(&s.press(&keys).await?)) })
            })
            .await;
    }
    let id = id.ok_or_else(|| {
        ToolError(format!(
            "action: '{verb}' needs element_id (from the last snapshot), e.g. {{\"action\": \"{verb}\", \"element_id\": \"e3\"}}"
        ))
    })?;
    // Pointer-like verbs: the agent cursor goes to the element first.
    let pointer = matches!(
        verb.trim(),
        "click" | "doubleclick" | "rightclick" | "scroll" | "longpress"
    );
    let focus = pointer.then(|| super::visual::bounds_of(tb, &id)).flatten();
    let clicked = pointer && verb.trim() != "scroll";
    tb.pointing(
        focus.map(super::visual::centre),
        focus,
        clicked,
        None,
        async move |tb: &mut Toolbox| {
            tb.acting(observe, move |s| {
                Box::pin(async move { Ok(action_output(&s.action(&id, &verb, &params).await?)) })
            })
            .await
        },
    )
    .await
}

pub(super) async fn launch(
    tb: &mut Toolbox,
    name: &str,
    extra: Vec<String>,
    observe: bool,
) -> Result<Output, ToolError> {
    let base = tb.base_request();
    let session = tb.session()?;
    let launched = session.open_app_with(name, &extra).await?;
    let Some(window) = &launched.window else {
        return Ok(Output::error(format!(
            "{} started (pid {}) but showed no window in time; call list_windows to check, or retry",
            launched.name, launched.pid
        )));
    };
    let mut text = format!(
        "ok [confirmed] {} launched (pid {}): window {:?}\n",
        launched.name, launched.pid, window.info.title
    );
    let structured = json!({
        "name": launched.name, "pid": launched.pid, "window": window.info.title,
        "effect": Effect::Confirmed,
    });
    if observe {
        let req = cup::SnapshotRequest {
            scope: Scope::Full,
            app: Some(window.info.title.clone()),
            ..base
        };
        text.push_str(&session.snapshot(&req).await?.text);
    }
    Ok(Output {
        blocks: vec![Block::Text(text)],
        structured: Some(structured),
        is_error: false,
    })
}

async fn open_app(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&["name", "args", "observe", "urls"])?;
    let name = args.req_str("name", "\"calculator\"")?;
    let mut extra = args.strings("args", false)?;
    extra.extend(args.strings("urls", false)?);
    let observe = args.bool("observe")?.unwrap_or(false);
    launch(tb, &name, extra, observe).await
}

async fn batch(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&["steps", "actions", "observe"])?;
    let steps = match args.array("steps")? {
        Some(s) => s.clone(),
        None => args.array("actions")?.cloned().ok_or_else(|| {
            ToolError(
                "batch: missing `steps`, e.g. {\"steps\": [{\"action\": \"click\", \"element_id\": \"e3\"}]}".into(),
            )
        })?,
    };
    if steps.is_empty() {
        return fail("batch: `steps` is empty; give at least one step");
    }
    let observe = args.bool("observe")?.unwrap_or(false);
    tb.acting(observe, move |s| {
        Box::pin(async move {
            let results = s.batch(&steps).await;
            let mut text = String::new();
            for (i, r) in results.iter().enumerate() {
                text.push_str(&format!("{}. {}", i + 1, describe(r)));
            }
            let failed = results.iter().any(|r| !r.success);
            if failed && results.len() < steps.len() {
                text.push_str(&format!(
                    "stopped after step {} of {}\n",
                    results.len(),
                    steps.len()
                ));
            }
            Ok(Output {
                blocks: vec![Block::Text(text)],
                structured: Some(json!({ "results": results })),
                is_error: failed,
            })
        })
    })
    .await
}

#[cfg(test)]
mod tests;
