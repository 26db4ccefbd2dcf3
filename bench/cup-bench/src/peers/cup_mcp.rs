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
fn raw_nodes(result: &Value) -> Option<u64> {
    let text = text_of(result);
    let (_, rest) = text.split_once(" nodes (")?;
    rest.split_whitespace().next()?.parse().ok()
}

/// Starts `cup mcp` in the sandbox (its settings file under `scratch`) and
/// times `get_window_state` on the window of `pid` and `list_windows`.
pub async fn run(sandbox: &Sandbox, pid: u32, runs: usize, scratch: &Path) -> CuaResults {
    let binary = binary();
    let failed = |reason: String| CuaResults {
        window_state: Err(reason.clone()),
        list_windows: Err(reason),
    };
    if !binary.is_file() {
        return failed(format!(
            "{} is missing: run cargo build --release -p cup-cli",
            binary.display()
        ));
    }
    if let Err(e) = std::fs::create_dir_all(scratch) {
        return failed(format!("cannot create {}: {e}", scratch.display()));
    }
    let started = Instant::now();
    let mut command = sandbox.command(&binary);
    command
        .arg("mcp")
        .env("CUP_CONFIG", scratch.join("cup-config.json"));
    let mut client = match McpClient::spawn(command, &scratch.join("cup-mcp.stderr.log")) {
        Ok(c) => c,
        Err(e) => return failed(e),
    };
    let results = measure(&mut client, pid, runs, started).await;
    client.shutdown().await;
    results
}

async fn measure(client: &mut McpClient, pid: u32, runs: usize, started: Instant) -> CuaResults {
    if let Err(e) = client.initialize().await {
        return CuaResults {
            window_state: Err(e.clone()),
            list_windows: Err(e),
        };
    }
    let init_ms = started.elapsed().as_secs_f64() * 1e3;
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
