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

/// Runs the script: 1 warm-up, then `runs` timed snapshots of `scope`.
pub async fn run(sandbox: &Sandbox, scope: Scope, runs: usize) -> Outcome {
    let python = python();
    if !python.is_file() {
        return Err(format!(
            "not installed ({} is missing): {}",
            python.display(),
            crate::SETUP_HINT
        ));
    }
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
