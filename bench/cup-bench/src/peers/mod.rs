//! The tools under test: cup (in a child process of this binary, in process
//! there, and over its own MCP server), the Python CUP SDK (in process, in a
//! child Python) and the Cua Driver (over MCP stdio).

pub mod cua_driver;
pub mod cup_inproc;
pub mod cup_mcp;
pub mod python_sdk;

use std::process::Stdio;
use std::time::Duration;

use crate::measurement::{self, Measurement};

/// The last lines of a child's stderr, for error reports.
pub(crate) fn tail(stderr: &[u8], lines: usize) -> String {
    let text = String::from_utf8_lossy(stderr);
    let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    all[all.len().saturating_sub(lines)..].join(" | ")
}

/// What a finished child printed.
#[derive(Debug)]
pub struct Ran {
    /// Its stdout.
    pub stdout: String,
    /// The last lines of its stderr, on one line.
    pub stderr_tail: String,
    /// Its wall time, spawn to exit, as seen from here.
    pub wall_ms: f64,
}

/// Runs a child to completion (killed after `timeout`); an error if it
/// does not start, time out or exit with success.
pub async fn run_child(
    what: &str,
    command: std::process::Command,
    timeout: Duration,
) -> Result<Ran, String> {
    let mut command = tokio::process::Command::from(command);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let started = std::time::Instant::now();
    let child = command
        .spawn()
        .map_err(|e| format!("{what} did not start: {e}"))?;
    let output = tokio::time::timeout(timeout, child.wait_with_output())
        .await
        .map_err(|_| format!("{what} did not finish within {} s", timeout.as_secs()))?
        .map_err(|e| format!("{what}: {e}"))?;
    let wall_ms = started.elapsed().as_secs_f64() * 1e3;
    if std::env::var_os("CUP_LOG").is_some_and(|v| !v.is_empty()) {
        // The child's logs (a measuring child logs under CUP_LOG too).
        use std::io::Write as _;
        let _ = std::io::stderr().write_all(&output.stderr);
    }
    let stderr_tail = tail(&output.stderr, 3);
    if !output.status.success() {
        return Err(format!("{what} failed ({}): {stderr_tail}", output.status));
    }
    Ok(Ran {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr_tail,
        wall_ms,
    })
}

/// Runs a measuring child to completion (killed after `timeout`) and parses
/// the measurement it prints as its last stdout line.
pub async fn run_json(
    what: &str,
    command: std::process::Command,
    timeout: Duration,
) -> Result<Measurement, String> {
    let ran = run_child(what, command, timeout).await?;
    measurement::parse_last_line(&ran.stdout)
        .map_err(|e| format!("{what}: {e}; stderr: {}", ran.stderr_tail))
}
