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
use crate::tools::{Block, Profile, Toolbox};
use crate::{last, output};

/// Runs `cup call`.
pub fn run(args: &CallArgs) -> Result<ExitCode, Failure> {
    call(
        &args.tool,
        args.arguments.as_deref(),
        args.output.as_deref(),
        args.json,
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
    let mut it = rest.iter();
    while let Some(w) = it.next() {
        match w.as_str() {
            "--json" => json = true,
            "-o" | "--output" => {
                out = Some(
                    it.next()
                        .ok_or_else(|| Failure::usage(format!("{w} needs a file")))?,
                )
            }
            _ if arguments.is_none() => arguments = Some(w.as_str()),
            other => {
                return Err(Failure::usage(format!(
                    "unexpected {other:?}; usage: cup {tool} '{{\"arg\": ...}}' [-o FILE] [--json]"
                )))
            }
        }
    }
    call(tool, arguments, out.map(Path::new), json)
}

fn call(
    tool: &str,
    arguments: Option<&str>,
    out_file: Option<&Path>,
    json: bool,
) -> Result<ExitCode, Failure> {
    let arguments: Option<Value> = match arguments.map(str::trim).filter(|a| !a.is_empty()) {
        None => None,
        Some(text) => Some(crate::input::parse_json("arguments", text)?),
    };
    let mut toolbox = Toolbox::new(
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
    if toolbox.resolve(tool).is_none() {
        let names: Vec<&str> = toolbox.specs().iter().map(|t| t.name).collect();
        return Err(Failure::usage(format!(
            "unknown command or tool {tool:?}; tools: {}",
            names.join(", ")
        )));
    }
    let zoom_file = crate::state_file::path(None, "CUP_ZOOM_STATE", "cup-last-zoom");
    let key = crate::platform::target_key();
    let kept_zoom = std::fs::read(&zoom_file)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .filter(|v| v.get("target").and_then(Value::as_str) == Some(key.as_str()))
        .and_then(|v| {
            Some(cup::Point::new(
                v.get("x")?.as_i64()?,
                v.get("y")?.as_i64()?,
            ))
        });
    toolbox.set_zoom_origin(kept_zoom);
    // Recording (set_recording) goes on across invocations, per desktop.
    let recording_file = crate::state_file::path(None, "CUP_RECORDING_STATE", "cup-recording");
    let kept_recording = std::fs::read(&recording_file)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .filter(|v| v.get("target").and_then(Value::as_str) == Some(key.as_str()))
        .and_then(|v| v.get("dir").and_then(Value::as_str).map(PathBuf::from));
    toolbox.set_recording(kept_recording.clone());
    let runtime = crate::platform::runtime()?;
    let result = runtime.block_on(toolbox.call(tool, arguments));
    if toolbox.recording() != kept_recording.as_deref() {
        let kept = match toolbox.recording() {
            Some(dir) => std::fs::write(
                &recording_file,
                serde_json::json!({"target": key, "dir": dir}).to_string(),
            ),
            None => std::fs::remove_file(&recording_file),
        };
        if let Err(e) = kept {
            tracing::warn!(path = %recording_file.display(), error = %e, "cannot keep the recording state");
        }
    }
    if let Some(z) = toolbox.zoom_origin().filter(|z| Some(*z) != kept_zoom) {
        let kept = serde_json::json!({"target": key, "x": z.x, "y": z.y});
        if let Err(e) = std::fs::write(&zoom_file, kept.to_string()) {
            tracing::warn!(path = %zoom_file.display(), error = %e, "cannot keep the zoom origin");
        }
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
