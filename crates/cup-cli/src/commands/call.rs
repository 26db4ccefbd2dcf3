//! `cup call TOOL '<json>'` and `cup TOOL '<json>'`: one MCP tool run
//! in-process, no server or daemon. The latest snapshot is kept between
//! invocations (as for `cup snapshot` / `cup action`), so ids printed by
//! one call can be used by the next.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cup::Session;
use serde_json::Value;

use crate::cli::CallArgs;
use crate::commands::Failure;
use crate::{last, output};
use cup_tools::{Block, Profile};

/// Runs `cup call`.
pub fn run(args: &CallArgs) -> Result<ExitCode, Failure> {
    call(
        &args.tool,
        args.arguments.as_deref(),
        args.output.as_deref(),
        args.json,
        args.agent_cursor,
    )
}

/// Runs `cup TOOL [JSON] [-o FILE] [--json]` (an external subcommand).
pub fn run_external(words: &[String]) -> Result<ExitCode, Failure> {
    let Some((tool, rest)) = words.split_first() else {
        return Err(Failure::usage("no tool given; try cup call --help"));
    };
    let mut arguments = None;
    let mut out = None;
    let mut json = false;
    let mut agent_cursor = false;
    let mut it = rest.iter();
    while let Some(w) = it.next() {
        match w.as_str() {
            "--json" => json = true,
            "--agent-cursor" => agent_cursor = true,
            "-o" | "--output" => {
                out = Some(
                    it.next()
                        .ok_or_else(|| Failure::usage(format!("{w} needs a file")))?,
                )
            }
            _ if arguments.is_none() => arguments = Some(w.as_str()),
            other => {
                return Err(Failure::usage(format!(
                    "unexpected {other:?}; usage: cup {tool} '{{\"arg\": ...}}' [-o FILE] [--json] [--agent-cursor]"
                )))
            }
        }
    }
    call(tool, arguments, out.map(Path::new), json, agent_cursor)
}

fn call(
    tool: &str,
    arguments: Option<&str>,
    out_file: Option<&Path>,
    json: bool,
    agent_cursor: bool,
) -> Result<ExitCode, Failure> {
    let arguments: Option<Value> = match arguments.map(str::trim).filter(|a| !a.is_empty()) {
        None => None,
        Some(text) => Some(crate::input::parse_json("arguments", text)?),
    };
    let mut toolbox = crate::platform::toolbox(
        Profile::All,
        Box::new(|| {
            let mut session = crate::platform::adapter()
                .map(Session::new)
                .map_err(|f| f.message)?;
            if let Ok(snap) = last::load() {
                session.restore(snap);
            }
            Ok(session)
        }),
    );
    toolbox.set_one_shot(agent_cursor);
    if toolbox.resolve(tool).is_none() {
        let names: Vec<&str> = toolbox.specs().iter().map(|t| t.name).collect();
        return Err(Failure::usage(format!(
            "unknown command or tool {tool:?}; tools: {}",
            names.join(", ")
        )));
    }
    // The zoom origin (for from_zoom) and recording (set_recording) go on
    // across invocations, per desktop or browser.
    let zoom = Kept::new("CUP_ZOOM_STATE", "cup-last-zoom");
    let kept_zoom = zoom.load().and_then(|v| {
        Some(cup::Point::new(
            v.get("x")?.as_i64()?,
            v.get("y")?.as_i64()?,
        ))
    });
    toolbox.set_zoom_origin(kept_zoom);
    let recording = Kept::new("CUP_RECORDING_STATE", "cup-recording");
    let kept_recording = recording.load().and_then(|v| v.as_str().map(PathBuf::from));
    toolbox.set_recording(kept_recording.clone());
    let runtime = crate::platform::runtime()?;
    let result = runtime.block_on(toolbox.call(tool, arguments));
    if toolbox.recording() != kept_recording.as_deref() {
        recording.store(toolbox.recording().map(|d| serde_json::json!(d)));
    }
    if let Some(z) = toolbox.zoom_origin().filter(|z| Some(*z) != kept_zoom) {
        zoom.store(Some(serde_json::json!({"x": z.x, "y": z.y})));
    }
    if let Some(session) = toolbox.existing_session() {
        if session.last_request().is_some() {
            if let Some(snap) = session.last() {
                last::save(snap);
            }
        }
    }
    if json {
        let mcp = crate::mcp::to_result(result.clone());
        let mut text = serde_json::to_string_pretty(&mcp)
            .map_err(|e| Failure::usage(format!("cannot serialize the result: {e}")))?;
        text.push('\n');
        output::print(&text)?;
    } else {
        let mut text = String::new();
        let mut images = 0;
        for block in &result.blocks {
            match block {
                Block::Text(t) => {
                    text.push_str(t);
                    if !t.ends_with('\n') {
                        text.push('\n');
                    }
                }
                Block::Png(png) => {
                    images += 1;
                    match out_file {
                        Some(path) if images == 1 => {
                            std::fs::write(path, png).map_err(|e| {
                                Failure::usage(format!("cannot write {}: {e}", path.display()))
                            })?;
                            text.push_str(&format!(
                                "[image/png, {} bytes, saved to {}]\n",
                                png.len(),
                                path.display()
                            ));
                        }
                        _ => text.push_str(&format!(
                            "[image/png, {} bytes; pass -o FILE to save it]\n",
                            png.len()
                        )),
                    }
                }
            }
        }
        output::print(&text)?;
    }
    Ok(if result.is_error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A value `cup call` keeps between invocations for the current desktop
/// or browser: a state file (`$env_var`, else `<temp>/<stem>-<uid>.json`)
/// holding `{"target": <key>, "value": ...}`; another target's is ignored.
struct Kept {
    file: PathBuf,
    target: String,
}

impl Kept {
    fn new(env_var: &str, stem: &str) -> Kept {
        Kept {
            file: crate::state_file::path(None, env_var, stem),
            target: crate::platform::target_key(),
        }
    }

    /// The value kept for this target.
    fn load(&self) -> Option<Value> {
        let v: Value = serde_json::from_slice(&std::fs::read(&self.file).ok()?).ok()?;
        (v.get("target").and_then(Value::as_str) == Some(self.target.as_str()))
            .then(|| v.get("value").cloned())
            .flatten()
    }

    /// Keeps `value` for this target (`None`: forgets it); a failure only
    /// loses it for the next invocation, and is logged.
    fn store(&self, value: Option<Value>) {
        let written = match value {
            Some(v) => std::fs::write(
                &self.file,
                serde_json::json!({"target": self.target, "value": v}).to_string(),
            ),
            None => match std::fs::remove_file(&self.file) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                other => other,
            },
        };
        if let Err(e) = written {
            tracing::warn!(path = %self.file.display(), error = %e, "cannot keep state for the next cup call");
        }
    }
}
