//! cup over its own MCP server, the path the Cua Driver is timed on:
//! `target/release/cup mcp` in the sandbox, the same minimal stdio client,
//! `get_window_state` of the app's pid with `include_screenshot: false`
//! (tree only, default detail) and `list_windows`. So the ratio to Cua
//! compares the same path (process boundary, JSON-RPC, text result), not
//! cup in process against Cua over stdio.

use std::path::{Path, PathBuf};
use std::time::Instant;

use cup_sandbox::Sandbox;
use serde_json::{json, Value};

use super::cua_driver::{structured, text_of, timed, CuaResults, McpClient};
use crate::measurement::Measurement;

/// The release `cup` binary.
pub fn binary() -> PathBuf {
    crate::workspace_root()
        .join("target")
        .join("release")
        .join("cup")
}

/// The raw node count in a compact header (`# N nodes (M before pruning)`).
pub fn raw_nodes(result: &Value) -> Option<u64> {
    let text = text_of(result);
    let (_, rest) = text.split_once(" nodes (")?;
    rest.split_whitespace().next()?.parse().ok()
}

/// Starts `cup mcp` with the command `command_for` makes for the binary
/// (e.g. the sandbox's, with its environment), its settings file and
/// stderr log under `scratch`, and initializes it.
///
/// # Errors
///
/// When the binary is missing, or the server does not start or initialize.
pub async fn start(
    command_for: impl FnOnce(&Path) -> std::process::Command,
    scratch: &Path,
) -> Result<McpClient, String> {
    let binary = binary();
    if !binary.is_file() {
        return Err(format!(
            "{} is missing: run cargo build --release -p cup-cli",
            binary.display()
        ));
    }
    if let Some(newer) = newer_source(&binary) {
        return Err(format!(
            "{} is older than {}: run cargo build --release -p cup-cli (a bench measures the code as it is)",
            binary.display(),
            newer.display()
        ));
    }
    std::fs::create_dir_all(scratch)
        .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    let mut command = command_for(&binary);
    command
        .arg("mcp")
        .env("CUP_CONFIG", scratch.join("cup-config.json"));
    let mut client = McpClient::spawn(command, &scratch.join("cup-mcp.stderr.log"))?;
    if let Err(e) = client.initialize().await {
        client.shutdown().await;
        return Err(e);
    }
    Ok(client)
}

/// A source file of the workspace's crates (or `Cargo.lock`) changed
/// after `binary` was built, if any: the binary does not run the code as
/// it is.
fn newer_source(binary: &Path) -> Option<PathBuf> {
    let built = std::fs::metadata(binary).and_then(|m| m.modified()).ok()?;
    let root = crate::workspace_root();
    let mut stack = vec![root.join("crates")];
    let mut newest: Option<(std::time::SystemTime, PathBuf)> = None;
    let mut consider = |path: PathBuf| {
        if let Ok(at) = std::fs::metadata(&path).and_then(|m| m.modified()) {
            if newest.as_ref().is_none_or(|(t, _)| at > *t) {
                newest = Some((at, path));
            }
        }
    };
    consider(root.join("Cargo.lock"));
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if path.is_dir() {
                // Tests, fixtures and build output are not in the binary.
                if !matches!(
                    name.as_ref(),
                    "tests" | "target" | "node_modules" | "fixtures"
                ) {
                    stack.push(path);
                }
            } else if name == "Cargo.toml"
                || ((name.ends_with(".rs") || name.ends_with(".js"))
                    && path.components().any(|c| c.as_os_str() == "src"))
            {
                consider(path);
            }
        }
    }
    newest.filter(|(at, _)| *at > built).map(|(_, path)| path)
}

/// Starts `cup mcp` in the sandbox (its settings file under `scratch`) and
/// times `get_window_state` on the window of `pid` and `list_windows`.
pub async fn run(sandbox: &Sandbox, pid: u32, runs: usize, scratch: &Path) -> CuaResults {
    let started = Instant::now();
    let mut client = match start(|b| sandbox.command(b), scratch).await {
        Ok(c) => c,
        Err(e) => return CuaResults::failed(e),
    };
    let init_ms = started.elapsed().as_secs_f64() * 1e3;
    let results = measure(&mut client, pid, runs, init_ms).await;
    client.shutdown().await;
    results
}

async fn measure(client: &mut McpClient, pid: u32, runs: usize, init_ms: f64) -> CuaResults {
    let with_init = |r: Result<(Measurement, Vec<Value>), String>| {
        r.map(|(mut m, _)| {
            m.init_ms = Some(init_ms);
            m
        })
    };
    let window_state = with_init(
        timed(
            client,
            "get_window_state",
            &json!({"pid": pid, "include_screenshot": false}),
            runs,
            raw_nodes,
        )
        .await,
    );
    let list_windows = with_init(
        timed(client, "list_windows", &json!({}), runs, |r| {
            structured(r, "windows")
                .and_then(Value::as_array)
                .and_then(|w| u64::try_from(w.len()).ok())
        })
        .await,
    );
    CuaResults {
        window_state,
        list_windows,
    }
}
