//! The reference Python CUP SDK (`computeruseprotocol==0.1.0`), in process:
//! `bench/peers/python_sdk_capture.py` run with the venv that
//! `bench/peers/setup.sh` creates, in the sandbox's environment.

use std::path::PathBuf;
use std::time::Duration;

use cup_protocol::Scope;
use cup_sandbox::Sandbox;

use crate::measurement::Outcome;

/// The venv's interpreter.
pub fn python() -> PathBuf {
    crate::peers_dir().join("venv").join("bin").join("python")
}

/// The measuring script.
pub fn script() -> PathBuf {
    crate::workspace_root()
        .join("bench")
        .join("peers")
        .join("python_sdk_capture.py")
}

/// The venv's interpreter, or why the SDK is not installed.
fn installed_python() -> Result<PathBuf, String> {
    let python = python();
    if python.is_file() {
        Ok(python)
    } else {
        Err(format!(
            "not installed ({} is missing): {}",
            python.display(),
            crate::SETUP_HINT
        ))
    }
}

/// Runs the script: 1 warm-up, then `runs` timed snapshots of `scope`.
pub async fn run(sandbox: &Sandbox, scope: Scope, runs: usize) -> Outcome {
    let python = installed_python()?;
    let script = script();
    if !script.is_file() {
        return Err(format!("{} is missing", script.display()));
    }
    let mut command = sandbox.command(&python);
    command
        .arg(script)
        .arg("--scope")
        .arg(scope.to_string())
        .arg("--runs")
        .arg(runs.to_string());
    super::run_json("the Python SDK", command, Duration::from_secs(600)).await
}

/// The SDK's `serialize_compact` (detail "compact", its default size cap,
/// the envelope's window list as the header's list) run on an envelope
/// that another tool captured: the same tree in both formats.
const SERIALIZE: &str = r#"
import json, sys
from cup.format import serialize_compact
env = json.load(sys.stdin)
sys.stdout.write(serialize_compact(env, window_list=env.get("windows"), detail="compact"))
"#;

/// Renders `envelope` with the Python SDK's `serialize_compact`.
///
/// # Errors
///
/// When the venv is missing or the SDK fails on the envelope.
pub async fn serialize_compact(envelope: &serde_json::Value) -> Result<String, String> {
    use tokio::io::AsyncWriteExt;

    let python = installed_python()?;
    let json = serde_json::to_vec(envelope).map_err(|e| format!("envelope: {e}"))?;
    let mut child = tokio::process::Command::new(&python)
        .arg("-c")
        .arg(SERIALIZE)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("{} did not start: {e}", python.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(&json)
            .await
            .map_err(|e| format!("writing the envelope: {e}"))?;
    }
    let output = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .map_err(|_| "serialize_compact did not finish within 60 s".to_owned())?
        .map_err(|e| format!("serialize_compact: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "serialize_compact failed ({}): {}",
            output.status,
            super::tail(&output.stderr, 3)
        ));
    }
    String::from_utf8(output.stdout).map_err(|e| format!("serialize_compact output: {e}"))
}
