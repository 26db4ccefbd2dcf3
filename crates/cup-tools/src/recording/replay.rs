//! Replaying a recorded trajectory: each turn's tool called again, in
//! order, its element found anew in a fresh snapshot, and the effect it
//! observes now set beside the recorded one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use cup::Snapshot;
use cup_protocol::Scope;
use serde::Serialize;
use serde_json::{json, Value};

use super::{find, read_trajectory, Recorded, Turn};
use crate::args::{self, Args, ToolError};
use crate::{Block, Output, Toolbox};

/// Longest pause between replayed turns.
const MAX_DELAY_MS: i64 = 60_000;
/// Pause between replayed turns when none is given (time to watch).
const DEFAULT_DELAY_MS: u64 = 500;

/// Replay options.
pub struct ReplayOptions {
    /// The trajectory.
    pub dir: PathBuf,
    /// Pause between turns.
    pub delay: Duration,
    /// Stop at the first turn that fails.
    pub stop_on_error: bool,
}

/// Reads `replay_trajectory`'s arguments.
fn replay_options(args: &Args<'_>) -> Result<ReplayOptions, ToolError> {
    args.only(&["dir", "delay_ms", "stop_on_error"])?;
    let Some(dir) = args.str("dir")?.filter(|d| !d.trim().is_empty()) else {
        return args::fail("replay_trajectory: missing `dir`, the directory set_recording wrote");
    };
    let delay = args
        .int("delay_ms", 0, MAX_DELAY_MS)?
        .and_then(|d| u64::try_from(d).ok())
        .unwrap_or(DEFAULT_DELAY_MS);
    Ok(ReplayOptions {
        dir: super::expand(dir.trim()),
        delay: Duration::from_millis(delay),
        stop_on_error: args.bool("stop_on_error")?.unwrap_or(true),
    })
}

/// How one replayed turn went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replayed {
    /// The turn folder.
    pub turn: String,
    /// The tool.
    pub tool: String,
    /// `ok`, `failed` or `skipped`.
    pub outcome: &'static str,
    /// The element ids used now (for the elements the turn named).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub element_ids: Vec<String>,
    /// Effect observed now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// Effect observed when recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded_effect: Option<String>,
    /// First line of the result (or why it failed or was skipped).
    pub detail: String,
}

impl Replayed {
    /// One line for the text result.
    pub fn line(&self) -> String {
        let mut s = format!("{} {}: {}", self.turn, self.tool, self.outcome);
        if !self.element_ids.is_empty() {
            s.push_str(&format!(" on {}", self.element_ids.join(", ")));
        }
        match (&self.effect, &self.recorded_effect) {
            (Some(now), Some(then)) if now == then => s.push_str(&format!(", effect {now}")),
            (Some(now), Some(then)) => {
                s.push_str(&format!(", effect {now} (recorded: {then})"));
            }
            (Some(now), None) => s.push_str(&format!(", effect {now}")),
            (None, Some(then)) => s.push_str(&format!(", no effect reported (recorded: {then})")),
            (None, None) => {}
        }
        if !self.detail.is_empty() {
            s.push_str(" — ");
            s.push_str(&self.detail);
        }
        s
    }

    /// Whether the effect differs from the recorded one.
    pub fn differs(&self) -> bool {
        self.outcome == "ok" && self.effect != self.recorded_effect
    }
}

/// The arguments of `turn` with each element it named looked up in
/// `snap` (every `element_id` rewritten to the new id), and the new ids;
/// or why one cannot be.
pub fn rebind(turn: &Turn, snap: Option<&Snapshot>) -> Result<(Value, Vec<String>), String> {
    let mut arguments = turn.arguments.clone();
    if turn.elements.is_empty() {
        return Ok((arguments, Vec::new()));
    }
    let Some(snap) = snap else {
        return Err("no snapshot to find its elements in".to_owned());
    };
    let mut now: BTreeMap<&str, String> = BTreeMap::new();
    for (old, loc) in &turn.elements {
        let id = find(snap, loc).ok_or_else(|| {
            format!(
                "{} {:?}{} is not in the window now",
                loc.role,
                loc.name,
                if loc.occurrence > 0 {
                    format!(" (number {} of its kind)", loc.occurrence + 1)
                } else {
                    String::new()
                }
            )
        })?;
        now.insert(old.as_str(), id);
    }
    let mut used = Vec::new();
    let mut stack = vec![&mut arguments];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                for (k, x) in map.iter_mut() {
                    match (k.as_str(), x) {
                        ("element_id", Value::String(id)) => {
                            if let Some(new) = now.get(id.as_str()) {
                                id.clone_from(new);
                            }
                            used.push(id.clone());
                        }
                        (_, x) => stack.push(x),
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
    Ok((arguments, used))
}

/// The first line of `text`.
pub fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().trim().to_owned()
}

/// `replay_trajectory`: every recorded turn's tool called again, in
/// order, its element found anew; the effects compared.
pub async fn replay(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    let opts = replay_options(args)?;
    let same = |a: &Path, b: &Path| {
        a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    };
    if tb.recording().is_some_and(|d| same(d, &opts.dir)) {
        return args::fail(format!(
            "replay_trajectory: {} is being recorded into; set_recording {{\"enabled\": false}} or record elsewhere first",
            opts.dir.display()
        ));
    }
    let turns = read_trajectory(&opts.dir)?;
    let mut report: Vec<Replayed> = Vec::new();
    let mut stopped = None;
    for (i, (name, turn)) in turns.iter().enumerate() {
        if i > 0 && !opts.delay.is_zero() {
            tokio::time::sleep(opts.delay).await;
        }
        let mut line = Replayed {
            turn: name.clone(),
            tool: turn.tool.clone(),
            outcome: "skipped",
            element_ids: Vec::new(),
            effect: None,
            recorded_effect: turn.result.effect().map(str::to_owned),
            detail: String::new(),
        };
        if turn.result.is_error {
            line.detail = "it failed when recorded".into();
            report.push(line);
            continue;
        }
        let fresh = match turn.elements.is_empty() {
            true => None,
            false => {
                let base = tb.base_request();
                let req = tb
                    .session()?
                    .last_request()
                    .filter(|r| r.scope != Scope::Overview)
                    .cloned()
                    .unwrap_or(base);
                match tb.session()?.snapshot(&req).await {
                    Ok(s) => Some(s.clone()),
                    Err(e) => {
                        line.outcome = "failed";
                        line.detail = format!("snapshot to find its elements: {e}");
                        None
                    }
                }
            }
        };
        if line.outcome != "failed" {
            match rebind(turn, fresh.as_ref()) {
                Ok((arguments, ids)) => {
                    line.element_ids = ids;
                    let result = tb.call_boxed(&turn.tool, Some(arguments)).await;
                    line.outcome = if result.is_error { "failed" } else { "ok" };
                    let now = Recorded::of(&result);
                    line.effect = now.effect().map(str::to_owned);
                    line.detail = first_line(&now.text);
                }
                Err(why) => {
                    line.outcome = "failed";
                    line.detail = why;
                }
            }
        }
        let failed = line.outcome == "failed";
        report.push(line);
        if failed && opts.stop_on_error {
            stopped = Some(name.clone());
            break;
        }
    }
    let count = |o: &str| report.iter().filter(|r| r.outcome == o).count();
    let (ok, failed, skipped) = (count("ok"), count("failed"), count("skipped"));
    let differ: Vec<&str> = report
        .iter()
        .filter(|r| r.differs())
        .map(|r| r.turn.as_str())
        .collect();
    let mut text = format!(
        "replayed {} of {} turns from {}: {ok} ok, {failed} failed, {skipped} skipped",
        report.len(),
        turns.len(),
        opts.dir.display()
    );
    if let Some(t) = &stopped {
        text.push_str(&format!(
            "; stopped at {t} (stop_on_error; pass false to go on)"
        ));
    }
    if !differ.is_empty() {
        text.push_str(&format!(
            "; effect differs from the recording on {}",
            differ.join(", ")
        ));
    }
    for r in &report {
        text.push('\n');
        text.push_str(&r.line());
    }
    Ok(Output {
        blocks: vec![Block::Text(text)],
        structured: Some(json!({
            "ok": ok,
            "failed": failed,
            "skipped": skipped,
            "turns": report,
        })),
        is_error: failed > 0,
    })
}
