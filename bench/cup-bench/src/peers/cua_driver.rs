//! The Cua Driver 0.37.0 (the Linux binary of its PyPI wheel) over MCP
//! stdio: a minimal newline-delimited JSON-RPC client. `initialize`, then
//! `notifications/initialized`, then `tools/call`: `list_windows` (the
//! window of the app's pid; also timed as the overview analogue) and
//! `get_window_state` with `include_screenshot: false` (tree only, default
//! markdown format, default limits). The driver runs with a scratch `HOME`
//! and telemetry off; every request has a deadline.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use cup_sandbox::Sandbox;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

use crate::measurement::{Measurement, Outcome};

/// The version the benchmark pins.
pub const VERSION: &str = "0.37.0";

/// Deadline of one request (its cold `initialize` takes ~0.5 s, a
/// Chromium walk ~1-2 s).
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// Where `bench/peers/setup.sh` unpacks the binary.
pub fn binary() -> PathBuf {
    crate::peers_dir()
        .join(format!("cua-driver-{VERSION}"))
        .join("cua_driver")
        .join("bin")
        .join("cua-driver")
}

/// A running `cua-driver mcp`.
#[derive(Debug)]
pub struct McpClient {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    next_id: u64,
    log: PathBuf,
}

impl McpClient {
    /// Starts `binary mcp` in the sandbox with `home` as its scratch `HOME`.
    ///
    /// # Errors
    ///
    /// When the scratch directory or the process cannot be made.
    pub fn start(sandbox: &Sandbox, binary: &Path, home: &Path) -> Result<Self, String> {
        Self::start_with(sandbox, binary, home, &[])
    }

    /// [`McpClient::start`] with more environment variables (its Wayland
    /// mode: `CUA_DRIVER_RS_ENABLE_WAYLAND=1`).
    ///
    /// # Errors
    ///
    /// When the scratch directory or the process cannot be made.
    pub fn start_with(
        sandbox: &Sandbox,
        binary: &Path,
        home: &Path,
        env: &[(&str, &str)],
    ) -> Result<Self, String> {
        std::fs::create_dir_all(home)
            .map_err(|e| format!("cannot create {}: {e}", home.display()))?;
        let mut command = sandbox.command(binary);
        command
            .arg("mcp")
            .env("HOME", home)
            .env("CUA_DRIVER_RS_TELEMETRY_ENABLED", "false")
            .envs(env.iter().copied());
        Self::spawn(command, &home.join("cua-driver.stderr.log"))
    }

    /// Starts any stdio MCP server `command`, its stderr going to `log`.
    ///
    /// # Errors
    ///
    /// When the log or the process cannot be made.
    pub fn spawn(mut command: std::process::Command, log: &Path) -> Result<Self, String> {
        let stderr = std::fs::File::create(log)
            .map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        command.stderr(stderr);
        let mut command = tokio::process::Command::from(command);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command
            .spawn()
            .map_err(|e| format!("the MCP server did not start: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        Ok(Self {
            child,
            stdin,
            stdout: BufReader::new(stdout).lines(),
            next_id: 1,
            log: log.to_path_buf(),
        })
    }

    /// The last lines of the driver's stderr.
    fn log_tail(&self) -> String {
        std::fs::read(&self.log)
            .map(|bytes| super::tail(&bytes, 3))
            .unwrap_or_default()
    }

    async fn send(&mut self, message: &Value) -> Result<(), String> {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .await
            .map_err(|e| format!("writing to cua-driver: {e}; stderr: {}", self.log_tail()))?;
        self.stdin
            .flush()
            .await
            .map_err(|e| format!("writing to cua-driver: {e}"))
    }

    /// Sends a request and waits for the response with its id (other lines,
    /// e.g. notifications, are skipped). Returns `result`.
    async fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        let read = async {
            loop {
                let line = self
                    .stdout
                    .next_line()
                    .await
                    .map_err(|e| format!("reading from cua-driver: {e}"))?
                    .ok_or("cua-driver closed its stdout")?;
                let Ok(message) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                if message.get("id").and_then(Value::as_u64) == Some(id) {
                    return Ok::<Value, String>(message);
                }
            }
        };
        let message = match tokio::time::timeout(CALL_TIMEOUT, read).await {
            Ok(Ok(message)) => message,
            Ok(Err(e)) => return Err(format!("{method}: {e}; stderr: {}", self.log_tail())),
            Err(_) => {
                return Err(format!(
                    "{method}: no answer within {} s",
                    CALL_TIMEOUT.as_secs()
                ))
            }
        };
        if let Some(error) = message.get("error") {
            return Err(format!("{method}: error {error}"));
        }
        message
            .get("result")
            .cloned()
            .ok_or_else(|| format!("{method}: response without result"))
    }

    /// The MCP handshake.
    ///
    /// # Errors
    ///
    /// When the driver does not answer in time or answers with an error.
    pub async fn initialize(&mut self) -> Result<(), String> {
        self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "cup-bench", "version": env!("CARGO_PKG_VERSION")},
            }),
        )
        .await?;
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await
    }

    /// `tools/list` (the whole result).
    ///
    /// # Errors
    ///
    /// When the server does not answer in time or answers with an error.
    pub async fn list_tools(&mut self) -> Result<Value, String> {
        self.request("tools/list", json!({})).await
    }

    /// `tools/call`; a result with `isError: true` is an error.
    ///
    /// # Errors
    ///
    /// When the call fails, times out or reports `isError`.
    pub async fn call_tool(&mut self, name: &str, arguments: Value) -> Result<Value, String> {
        let result = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await?;
        if result.get("isError").and_then(Value::as_bool) == Some(true) {
            return Err(format!("{name} failed: {}", text_of(&result)));
        }
        Ok(result)
    }

    /// The window of `pid` to read (`list_windows`, then [`pick_window`]).
    ///
    /// # Errors
    ///
    /// When the call fails or the process has no window.
    pub async fn window_of(&mut self, pid: u32) -> Result<u64, String> {
        let list = self
            .call_tool("list_windows", json!({ "pid": pid }))
            .await?;
        pick_window(&list, pid).ok_or_else(|| {
            format!(
                "list_windows has no window of pid {pid}: {}",
                text_of(&list)
            )
        })
    }

    /// Closes stdin (the driver exits at EOF) and reaps it; kills it if it
    /// is still running after 2 s.
    pub async fn shutdown(mut self) {
        drop(self.stdin);
        if tokio::time::timeout(Duration::from_secs(2), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// The text content blocks of a tool result, joined by newlines (what the
/// model reads; image blocks are off with `include_screenshot: false`).
pub fn text_of(result: &Value) -> String {
    result
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// A field of a tool result's `structuredContent`.
pub fn structured<'a>(result: &'a Value, key: &str) -> Option<&'a Value> {
    result.get("structuredContent").and_then(|s| s.get(key))
}

/// The window of `pid` to read: on screen first, then the largest.
pub fn pick_window(list: &Value, pid: u32) -> Option<u64> {
    let windows = structured(list, "windows")?.as_array()?;
    windows
        .iter()
        .filter(|w| w.get("pid").and_then(Value::as_u64) == Some(u64::from(pid)))
        .max_by_key(|w| {
            let on_screen = w.get("is_on_screen").and_then(Value::as_bool) == Some(true);
            let size = |k: &str| {
                w.get("bounds")
                    .and_then(|b| b.get(k))
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0)
            };
            // Whole pixels are enough to order window areas.
            let area = (size("width") * size("height")) as i64;
            (on_screen, area)
        })
        .and_then(|w| w.get("window_id").and_then(Value::as_u64))
}

/// Warm-up + `runs` timed calls of one tool; `nodes` reads the count
/// (any MCP server: the Cua Driver, `cup mcp`).
pub(crate) async fn timed(
    client: &mut McpClient,
    tool: &str,
    arguments: &Value,
    runs: usize,
    nodes: impl Fn(&Value) -> Option<u64>,
) -> Result<(Measurement, Vec<Value>), String> {
    let warmup = client.call_tool(tool, arguments.clone()).await?;
    let mut m = Measurement {
        warmup_nodes: nodes(&warmup),
        ..Measurement::default()
    };
    let mut results = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let result = client.call_tool(tool, arguments.clone()).await?;
        m.times_ms.push(t.elapsed().as_secs_f64() * 1e3);
        m.nodes_per_run.push(nodes(&result));
        m.text = text_of(&result);
        results.push(result);
    }
    Ok((m, results))
}

/// What [`run`] measured: the window read and the window list.
#[derive(Debug)]
pub struct CuaResults {
    /// `get_window_state` of the app's window (foreground analogue).
    pub window_state: Outcome,
    /// `list_windows` without a filter (overview analogue).
    pub list_windows: Outcome,
}

impl CuaResults {
    /// Both failed for `reason`.
    pub fn failed(reason: String) -> CuaResults {
        CuaResults {
            window_state: Err(reason.clone()),
            list_windows: Err(reason),
        }
    }
}

/// Starts `cua-driver mcp` in the sandbox (scratch `HOME` under
/// `scratch`), and times `get_window_state` on the window of `pid`
/// and `list_windows`.
pub async fn run(sandbox: &Sandbox, pid: u32, runs: usize, scratch: &Path) -> CuaResults {
    run_with(sandbox, pid, runs, scratch, &[]).await
}

/// [`run`] with more environment variables for the driver.
pub async fn run_with(
    sandbox: &Sandbox,
    pid: u32,
    runs: usize,
    scratch: &Path,
    env: &[(&str, &str)],
) -> CuaResults {
    let binary = binary();
    if !binary.is_file() {
        let reason = format!(
            "not installed ({} is missing): {}",
            binary.display(),
            crate::SETUP_HINT
        );
        return CuaResults::failed(reason);
    }
    let started = Instant::now();
    let mut client = match McpClient::start_with(sandbox, &binary, &scratch.join("cua-home"), env) {
        Ok(client) => client,
        Err(e) => return CuaResults::failed(e),
    };
    let results = measure(&mut client, pid, runs, started).await;
    client.shutdown().await;
    results
}

async fn measure(client: &mut McpClient, pid: u32, runs: usize, started: Instant) -> CuaResults {
    if let Err(e) = client.initialize().await {
        return CuaResults::failed(e);
    }
    let init_ms = started.elapsed().as_secs_f64() * 1e3;
    let window_state = async {
        let window_id = client.window_of(pid).await?;
        let arguments = json!({"pid": pid, "window_id": window_id, "include_screenshot": false});
        let (mut m, results) = timed(client, "get_window_state", &arguments, runs, |r| {
            structured(r, "element_count").and_then(Value::as_u64)
        })
        .await?;
        let truncated = results
            .iter()
            .filter(|r| structured(r, "truncated").and_then(Value::as_bool) == Some(true))
            .count();
        if truncated > 0 {
            let reason = results
                .iter()
                .find_map(|r| structured(r, "truncation_reason").and_then(Value::as_str))
                .unwrap_or("?");
            m.notes.push(format!(
                "truncated on {truncated} of {} runs ({reason})",
                results.len()
            ));
        }
        m.counts_elements = true;
        m.init_ms = Some(init_ms);
        Ok::<Measurement, String>(m)
    }
    .await;
    let list_windows = async {
        let (mut m, _) = timed(client, "list_windows", &json!({}), runs, |r| {
            structured(r, "windows")
                .and_then(Value::as_array)
                .and_then(|w| u64::try_from(w.len()).ok())
        })
        .await?;
        m.init_ms = Some(init_ms);
        Ok::<Measurement, String>(m)
    }
    .await;
    CuaResults {
        window_state,
        list_windows,
    }
}
