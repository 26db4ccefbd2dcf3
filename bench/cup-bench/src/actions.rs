//! The Linux actions benchmark (issue 4): an element click on a GTK check
//! button until its effect is known, and screenshots, by cup (in process)
//! and by the Cua Driver 0.37.0 (MCP stdio), on one private desktop.
//!
//! Every click is also checked by an independent readback: a fresh cup
//! snapshot before and after it (untimed) says whether the check buttons'
//! states really changed, whatever the tool reported.

use std::time::{Duration, Instant};

use cup::{ActionParams, Session, ShotTarget, SnapshotRequest};
use cup_protocol::{Node, Role, Scope, State};
use serde_json::{json, Value};

use crate::peers::cua_driver::{structured, text_of, McpClient};

/// The name of the check buttons of gtk3-widget-factory.
const CHECK_NAME: &str = "checkbutton";

/// How long the readback waits for a click to show (untimed).
const READBACK: Duration = Duration::from_secs(1);

/// Timed runs of one tool on one task.
#[derive(Debug, Default, Clone)]
pub struct Runs {
    /// Milliseconds per timed run.
    pub times_ms: Vec<f64>,
    /// What the tool said happened, per run (`confirmed`, `unverifiable`…).
    pub reported: Vec<String>,
    /// Whether the readback saw the change, per run (clicks only).
    pub observed: Vec<bool>,
    /// Other facts (sizes, transport).
    pub notes: Vec<String>,
}

impl Runs {
    /// `"7/7 confirmed"`-style tally of what the tool reported.
    pub fn reported_tally(&self) -> String {
        let mut kinds: Vec<(&str, usize)> = Vec::new();
        for r in &self.reported {
            match kinds.iter_mut().find(|(k, _)| *k == r.as_str()) {
                Some((_, n)) => *n += 1,
                None => kinds.push((r.as_str(), 1)),
            }
        }
        kinds
            .iter()
            .map(|(k, n)| format!("{n}/{} {k}", self.reported.len()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// How many clicks the readback saw take effect.
    pub fn observed_count(&self) -> usize {
        self.observed.iter().filter(|o| **o).count()
    }
}

/// The outcome of one tool on one task.
pub type Outcome = Result<Runs, String>;

fn flatten<'a>(node: &'a Node, out: &mut Vec<&'a Node>) {
    out.push(node);
    for child in &node.children {
        flatten(child, out);
    }
}

/// The enabled check buttons named [`CHECK_NAME`], in tree order, with
/// their id and state (checked, mixed or neither).
fn check_buttons(snapshot: &cup::Snapshot) -> Vec<(String, &'static str)> {
    let mut all = Vec::new();
    for root in &snapshot.envelope.tree {
        flatten(root, &mut all);
    }
    all.into_iter()
        .filter(|n| {
            n.role == Role::Checkbox && n.name == CHECK_NAME && !n.states.contains(&State::Disabled)
        })
        .map(|n| {
            let state = if n.states.contains(&State::Checked) {
                "checked"
            } else if n.states.contains(&State::Mixed) {
                "mixed"
            } else {
                "unchecked"
            };
            (n.id.clone(), state)
        })
        .collect()
}

async fn foreground(session: &mut Session) -> Result<cup::Snapshot, String> {
    let request = SnapshotRequest {
        scope: Scope::Foreground,
        ..SnapshotRequest::default()
    };
    session
        .snapshot(&request)
        .await
        .cloned()
        .map_err(|e| format!("snapshot: {e}"))
}

/// The check buttons' states now.
async fn states(session: &mut Session) -> Result<Vec<&'static str>, String> {
    let snapshot = foreground(session).await?;
    let states: Vec<_> = check_buttons(&snapshot)
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    if states.is_empty() {
        return Err(format!(
            "no enabled check box \"{CHECK_NAME}\" in the window:\n{}",
            snapshot.text
        ));
    }
    Ok(states)
}

/// Whether the check buttons' states differ from `before` within
/// [`READBACK`] (polled, untimed).
async fn changed_from(session: &mut Session, before: &[&'static str]) -> Result<bool, String> {
    let start = Instant::now();
    loop {
        if states(session).await? != before {
            return Ok(true);
        }
        if start.elapsed() > READBACK {
            return Ok(false);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// cup: per run, an untimed snapshot, then a timed
/// `session.action(id, "click")` on the first enabled check button (it
/// returns once the effect is observed), then the readback.
///
/// # Errors
///
/// When the window has no such check button or a call fails.
pub async fn cup_clicks(session: &mut Session, runs: usize) -> Outcome {
    let mut out = Runs::default();
    // Warm-up (not counted).
    for round in 0..=runs {
        let snapshot = foreground(session).await?;
        let buttons = check_buttons(&snapshot);
        let (id, _) = buttons
            .first()
            .cloned()
            .ok_or_else(|| format!("no enabled check box \"{CHECK_NAME}\""))?;
        let before: Vec<_> = buttons.iter().map(|(_, s)| *s).collect();
        let t = Instant::now();
        let result = session
            .action(&id, "click", &ActionParams::default())
            .await
            .map_err(|e| format!("click {id}: {e}"))?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let seen = changed_from(session, &before).await?;
        if round == 0 {
            out.notes
                .push(format!("warm-up: {} ({})", result.effect, result.message));
            continue;
        }
        out.times_ms.push(ms);
        out.reported.push(result.effect.to_string());
        out.observed.push(seen);
    }
    Ok(out)
}

/// The element token of the first enabled check button in Cua's markdown
/// (`- [19] check box "checkbutton" [actions=[click]]`).
fn cua_token(state: &Value) -> Option<String> {
    let snapshot = structured(state, "snapshot_id")?.as_str()?;
    let markdown = structured(state, "tree_markdown")?.as_str()?;
    let wanted = format!("] check box \"{CHECK_NAME}\"");
    markdown.lines().find_map(|line| {
        let line = line.trim_start().strip_prefix("- [")?;
        if !line.contains(&wanted) {
            return None;
        }
        let index: u64 = line.split(']').next()?.parse().ok()?;
        Some(format!("{snapshot}:{index}"))
    })
}

/// The Cua Driver: per run, an untimed `get_window_state` (tree only) for a
/// fresh element token, then a timed `click` on it, then cup's readback.
///
/// # Errors
///
/// When the driver fails or its tree has no such check button.
pub async fn cua_clicks(
    client: &mut McpClient,
    oracle: &mut Session,
    pid: u32,
    runs: usize,
) -> Outcome {
    let window = client.window_of(pid).await?;
    let state = json!({"pid": pid, "window_id": window, "include_screenshot": false});
    mcp_clicks(client, oracle, &state, "indexed", runs, |s| {
        cua_token(s).map(|token| json!({ "element_token": token }))
    })
    .await
}

/// The id of the first enabled check button in cup's compact text
/// (`[e12] chk "checkbutton" 10,20 16x16 [clk,tog]`).
fn cup_id(text: &str) -> Option<String> {
    let wanted = format!("] chk \"{CHECK_NAME}\"");
    text.lines().find_map(|line| {
        let line = line.trim_start();
        if !line.contains(&wanted) || line.contains("{dis") || line.contains(",dis") {
            return None;
        }
        let id = line.strip_prefix('[')?.split(']').next()?;
        Some(id.to_owned())
    })
}

/// cup over its own MCP server, the Cua Driver's path: per run, an untimed
/// `get_window_state` (tree only) for fresh ids, then a timed `click`
/// with the check button's `element_id`, then the readback.
///
/// # Errors
///
/// When the server fails or its tree has no such check button.
pub async fn cup_mcp_clicks(
    client: &mut McpClient,
    oracle: &mut Session,
    pid: u32,
    runs: usize,
) -> Outcome {
    let state = json!({"pid": pid, "include_screenshot": false});
    mcp_clicks(client, oracle, &state, "enabled", runs, |s| {
        cup_id(&text_of(s)).map(|id| json!({ "element_id": id }))
    })
    .await
}

/// Clicks over MCP: per run an untimed `get_window_state` with `state`,
/// `click_args` picks the check button in it, a timed `click`, the
/// readback; the tool's `effect` is what it reported.
async fn mcp_clicks(
    client: &mut McpClient,
    oracle: &mut Session,
    state: &Value,
    kind: &str,
    runs: usize,
    click_args: impl Fn(&Value) -> Option<Value>,
) -> Outcome {
    let mut out = Runs::default();
    for round in 0..=runs {
        let tree = client.call_tool("get_window_state", state.clone()).await?;
        let args = click_args(&tree).ok_or_else(|| {
            format!(
                "no {kind} check box \"{CHECK_NAME}\" in get_window_state: {}",
                text_of(&tree).chars().take(300).collect::<String>()
            )
        })?;
        let before = states(oracle).await?;
        let t = Instant::now();
        let result = client.call_tool("click", args).await?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let seen = changed_from(oracle, &before).await?;
        let effect = structured(&result, "effect")
            .and_then(Value::as_str)
            .unwrap_or("(none)")
            .to_owned();
        if round == 0 {
            out.notes.push(format!("warm-up: {effect}"));
            continue;
        }
        out.times_ms.push(ms);
        out.reported.push(effect);
        out.observed.push(seen);
    }
    Ok(out)
}

/// The centre of the first enabled check button (screen pixels) and the
/// check buttons' states, from a fresh cup snapshot (untimed).
async fn first_centre(session: &mut Session) -> Result<((i64, i64), Vec<&'static str>), String> {
    let snapshot = foreground(session).await?;
    let mut all = Vec::new();
    for root in &snapshot.envelope.tree {
        flatten(root, &mut all);
    }
    let centre = all
        .into_iter()
        .find(|n| {
            n.role == Role::Checkbox && n.name == CHECK_NAME && !n.states.contains(&State::Disabled)
        })
        .and_then(|n| n.bounds)
        .map(|b| {
            (
                b.x + i64::try_from(b.w / 2).unwrap_or(0),
                b.y + i64::try_from(b.h / 2).unwrap_or(0),
            )
        })
        .ok_or_else(|| format!("no enabled check box \"{CHECK_NAME}\" with bounds"))?;
    let states = check_buttons(&snapshot)
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    Ok((centre, states))
}

/// cup: per run, an untimed snapshot for the first enabled check button's
/// centre, then a timed pointer click there (`session.input`: the
/// platform's pointer device, the effect observed), then the readback.
///
/// # Errors
///
/// When the window has no such check button or a call fails.
pub async fn cup_pointer_clicks(session: &mut Session, runs: usize) -> Outcome {
    let mut out = Runs::default();
    for round in 0..=runs {
        let ((x, y), before) = first_centre(session).await?;
        let gesture = cup::Gesture::Click {
            at: cup::Point::new(x, y),
            button: cup::Button::Left,
            count: 1,
            modifiers: Vec::new(),
        };
        let t = Instant::now();
        let result = session
            .input(&gesture)
            .await
            .map_err(|e| format!("pointer click at {x},{y}: {e}"))?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let seen = changed_from(session, &before).await?;
        if round == 0 {
            out.notes
                .push(format!("warm-up: {} ({})", result.effect, result.message));
            continue;
        }
        out.times_ms.push(ms);
        out.reported.push(result.effect.to_string());
        out.observed.push(seen);
    }
    Ok(out)
}

/// The Cua Driver: per run, an untimed `get_window_state` with its
/// screenshot (its pixel clicks are in that image's pixels and need one),
/// the first enabled check button's centre from an untimed cup snapshot,
/// made window-local by `origin` (the window's top-left on the screen),
/// then a timed pixel `click {pid, window_id, x, y}` (plus `extra`, such
/// as the delivery mode it asks for), then cup's readback.
///
/// # Errors
///
/// When the driver fails or the window has no such check button.
pub async fn cua_pixel_clicks(
    client: &mut McpClient,
    oracle: &mut Session,
    pid: u32,
    origin: (i64, i64),
    extra: &Value,
    runs: usize,
) -> Outcome {
    let window = client.window_of(pid).await?;
    let mut out = Runs::default();
    for round in 0..=runs {
        client
            .call_tool("get_window_state", json!({"pid": pid, "window_id": window}))
            .await?;
        let ((x, y), before) = first_centre(oracle).await?;
        let mut args =
            json!({"pid": pid, "window_id": window, "x": x - origin.0, "y": y - origin.1});
        if let (Some(args), Some(extra)) = (args.as_object_mut(), extra.as_object()) {
            args.extend(extra.clone());
        }
        let t = Instant::now();
        let result = client.call_tool("click", args).await?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let seen = changed_from(oracle, &before).await?;
        let effect = structured(&result, "effect")
            .and_then(Value::as_str)
            .map_or_else(
                || text_of(&result).chars().take(60).collect::<String>(),
                str::to_owned,
            );
        if round == 0 {
            out.notes.push(format!("warm-up: {effect}"));
            continue;
        }
        out.times_ms.push(ms);
        out.reported.push(effect);
        out.observed.push(seen);
    }
    Ok(out)
}

/// The size of a PNG from its header, checked.
fn png_size(png: &[u8]) -> Result<(u32, u32), String> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let reader = decoder.read_info().map_err(|e| format!("not a PNG: {e}"))?;
    let info = reader.info();
    Ok((info.width, info.height))
}

/// cup: `session.screenshot(target)` (grab and PNG encoding), timed.
///
/// # Errors
///
/// When a screenshot fails.
pub async fn cup_screenshots(session: &mut Session, target: &ShotTarget, runs: usize) -> Outcome {
    let mut out = Runs::default();
    let mut bytes = 0;
    let mut size = (0, 0);
    for round in 0..=runs {
        let t = Instant::now();
        let shot = session
            .screenshot(target)
            .await
            .map_err(|e| format!("screenshot: {e}"))?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        size = png_size(&shot.png)?;
        bytes = shot.png.len();
        if round > 0 {
            out.times_ms.push(ms);
        }
    }
    out.notes
        .push(format!("{}x{} PNG, {} KB", size.0, size.1, bytes / 1024));
    Ok(out)
}

/// The PNG of an MCP tool result (its image content block).
fn mcp_png(result: &Value) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    let data = result
        .get("content")
        .and_then(Value::as_array)
        .and_then(|blocks| {
            blocks
                .iter()
                .find(|b| b.get("type").and_then(Value::as_str) == Some("image"))
        })
        .and_then(|b| b.get("data"))
        .and_then(Value::as_str)
        .ok_or("the result has no image")?;
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| format!("bad base64 image: {e}"))
}

/// The Cua Driver: `get_desktop_state` (whole screen) or
/// `get_window_state` with the tree off (one window), timed over MCP.
///
/// # Errors
///
/// When the driver fails or returns no PNG.
pub async fn cua_screenshots(
    client: &mut McpClient,
    window_of: Option<u32>,
    runs: usize,
) -> Outcome {
    let (tool, arguments) = match window_of {
        None => ("get_desktop_state", json!({})),
        Some(pid) => {
            let window = client.window_of(pid).await?;
            (
                "get_window_state",
                json!({"pid": pid, "window_id": window, "include_accessibility_tree": false,
                       "max_image_dimension": 0}),
            )
        }
    };
    mcp_screenshots(client, tool, &arguments, runs).await
}

/// cup over its own MCP server: `screenshot {}` (whole screen) or, with
/// the capture mode set to vision (screenshot only, no tree walk),
/// `get_window_state {pid}` (one window); image blocks, timed over MCP.
///
/// # Errors
///
/// When the server fails or returns no PNG.
pub async fn cup_mcp_screenshots(
    client: &mut McpClient,
    window_of: Option<u32>,
    runs: usize,
) -> Outcome {
    match window_of {
        None => mcp_screenshots(client, "screenshot", &json!({}), runs).await,
        Some(pid) => {
            client
                .call_tool(
                    "set_config",
                    json!({"key": "capture_mode", "value": "vision"}),
                )
                .await?;
            let out =
                mcp_screenshots(client, "get_window_state", &json!({ "pid": pid }), runs).await;
            client
                .call_tool("set_config", json!({"key": "capture_mode", "value": "som"}))
                .await?;
            out
        }
    }
}

/// Warm-up + `runs` timed calls of an MCP tool that returns an image.
async fn mcp_screenshots(
    client: &mut McpClient,
    tool: &str,
    arguments: &Value,
    runs: usize,
) -> Outcome {
    let mut out = Runs::default();
    let mut size = (0, 0);
    let mut bytes = 0;
    for round in 0..=runs {
        let t = Instant::now();
        let result = client.call_tool(tool, arguments.clone()).await?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let png = mcp_png(&result)?;
        size = png_size(&png)?;
        bytes = png.len();
        if round > 0 {
            out.times_ms.push(ms);
        }
    }
    out.notes.push(format!(
        "{tool}: {}x{} PNG, {} KB",
        size.0,
        size.1,
        bytes / 1024
    ));
    Ok(out)
}

/// Raw X11 input through XTest (`cup_linux::input`), cup only: a key
/// press, 20 typed ASCII characters, 20 characters of which 4 are not on
/// the keymap (lent keycodes: after the warm-up round they stay lent, so
/// the timed rounds find them on the keymap), 20 characters of which 4
/// are lent anew every round (an Input with no lease hold, alternating
/// two texts: each call takes back the other's 4 and lends its own in one
/// keymap change, then waits until the client noticed — its ping answered
/// or, for a client that takes none, the 50 ms notice gap), and a pointer
/// click on the root window. Each call returns once the X server has the
/// events (one round trip); what the app does with them is the
/// element-click row's business.
pub async fn cup_raw_input(display: &str, runs: usize) -> Vec<(&'static str, Outcome)> {
    let opened = tokio::try_join!(
        cup_linux::input::Input::open(display),
        cup_linux::input::Input::open_with(
            display,
            cup_linux::input::InputOptions {
                lease_hold: Duration::ZERO,
                ..cup_linux::input::InputOptions::default()
            }
        )
    );
    let (input, eager) = match opened {
        Ok(both) => both,
        Err(e) => {
            let e = format!("cannot open X11 input on {display}: {e}");
            return INPUT_TASKS.iter().map(|t| (*t, Err(e.clone()))).collect();
        }
    };
    let corner = cup::Point { x: 1910, y: 1070 };
    let mut out = Vec::new();
    for task in INPUT_TASKS {
        let mut runs_out = Runs::default();
        let mut failed = None;
        for round in 0..=runs {
            let t = Instant::now();
            let result = match *task {
                PRESS => input.press("end").await,
                TYPE_ASCII => input.type_text("Quick brown fox 1234").await,
                TYPE_REMAP => input.type_text("Quick bröwn fox ✓日本4").await,
                TYPE_LEND if round % 2 == 0 => eager.type_text("Quick bräwn fox ✗中文4").await,
                TYPE_LEND => eager.type_text("Quick brøwn fox ✔漢字4").await,
                _ => {
                    input
                        .click(corner, cup_linux::input::Button::Left, 1, &[])
                        .await
                }
            };
            let ms = t.elapsed().as_secs_f64() * 1e3;
            if let Err(e) = result {
                failed = Some(format!("{task}: {e}"));
                break;
            }
            if round > 0 {
                runs_out.times_ms.push(ms);
            }
        }
        out.push((*task, failed.map_or(Ok(runs_out), Err)));
    }
    out
}

/// The raw input tasks, in order.
pub const INPUT_TASKS: &[&str] = &[PRESS, TYPE_ASCII, TYPE_REMAP, TYPE_LEND, ROOT_CLICK];
const PRESS: &str = "XTest key press (End)";
const TYPE_ASCII: &str = "XTest type 20 ASCII";
const TYPE_REMAP: &str = "XTest type 20, 4 remapped";
const TYPE_LEND: &str = "XTest type 20, 4 lent anew";
const ROOT_CLICK: &str = "XTest pointer click";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_of_the_first_indexed_check_button() {
        let state = json!({"structuredContent": {
            "snapshot_id": "s00000003",
            "tree_markdown": "- window \"x\"\n  - check box = \"checkbutton\" (disabled)\n  \
                              - [19] check box \"checkbutton\" [actions=[click]]\n  \
                              - [20] check box \"checkbutton\" [actions=[click]]\n"
        }});
        assert_eq!(cua_token(&state).as_deref(), Some("s00000003:19"));
        let none = json!({"structuredContent": {"snapshot_id": "s1", "tree_markdown": "- [3] push button \"OK\""}});
        assert_eq!(cua_token(&none), None);
    }

    #[test]
    fn tallies() {
        let runs = Runs {
            reported: vec!["confirmed".into(), "confirmed".into(), "no_change".into()],
            observed: vec![true, true, false],
            ..Runs::default()
        };
        assert_eq!(runs.reported_tally(), "2/3 confirmed, 1/3 no_change");
        assert_eq!(runs.observed_count(), 2);
    }
}
