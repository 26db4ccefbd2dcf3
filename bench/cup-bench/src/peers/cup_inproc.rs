//! cup, in process: one [`cup::Session`] on the Linux adapter, a warm-up
//! snapshot, then N timed `session.snapshot(...)` calls (capture, pruning
//! and compact rendering included).
//!
//! The Linux adapter reads the desktop (`DISPLAY`, `DBUS_SESSION_BUS_ADDRESS`,
//! `AT_SPI_BUS_ADDRESS`, `XDG_RUNTIME_DIR`) from the process environment, so
//! the benchmark runs this in a child process of its own binary
//! (`linux-capture --measure-cup ...`) started with the sandbox's
//! environment, like the Python SDK's script.

use std::time::{Duration, Instant};

use cup::{Session, SnapshotRequest};
use cup_protocol::Scope;
use cup_sandbox::Sandbox;

use crate::measurement::{Measurement, Outcome};

/// The hidden flag of the binary that runs [`measure`] and prints JSON.
pub const MEASURE_FLAG: &str = "--measure-cup";

/// The flag of the measuring child that carries [`measure_app`]'s title
/// filter (only [`run_app`] passes it).
pub const APP_TITLE_FLAG: &str = "--app-title";

/// How long [`measure`] waits for `wait_for` to appear in the tree.
const WAIT_FOR: Duration = Duration::from_secs(20);

fn node_count(snapshot: &cup::Snapshot) -> u64 {
    let n = match snapshot.envelope.scope {
        Some(Scope::Overview) => snapshot.envelope.windows.as_ref().map_or(0, Vec::len),
        _ => snapshot.envelope.node_count(),
    };
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// Measures cup in this process on the desktop of the environment. With
/// `wait_for`, first polls (untimed) until the compact text contains it (a
/// web page loads after its window shows).
///
/// # Errors
///
/// When a snapshot fails or `wait_for` does not show up within 20 s.
pub async fn measure(
    scope: Scope,
    runs: usize,
    wait_for: Option<&str>,
) -> Result<Measurement, String> {
    measure_app(scope, None, runs, wait_for).await
}

/// [`measure`] with the request's window-title filter `app` (it applies
/// to [`Scope::Full`]).
///
/// # Errors
///
/// When a snapshot fails or `wait_for` does not show up within 20 s.
pub async fn measure_app(
    scope: Scope,
    app: Option<&str>,
    runs: usize,
    wait_for: Option<&str>,
) -> Result<Measurement, String> {
    let started = Instant::now();
    let mut session = Session::new(Box::new(cup_linux::LinuxAdapter::new()));
    let init_ms = started.elapsed().as_secs_f64() * 1e3;
    let request = SnapshotRequest {
        scope,
        app: app.map(str::to_owned),
        ..SnapshotRequest::default()
    };
    if let Some(marker) = wait_for {
        let deadline = Instant::now() + WAIT_FOR;
        loop {
            let text = match session.snapshot(&request).await {
                Ok(s) => s.text.clone(),
                Err(e) => format!("(snapshot failed: {e})"),
            };
            if text.contains(marker) {
                break;
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "'{marker}' did not appear in cup's snapshot within {} s; last output starts: {}",
                    WAIT_FOR.as_secs(),
                    text.lines().take(8).collect::<Vec<_>>().join(" / ")
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let warmup = session
        .snapshot(&request)
        .await
        .map_err(|e| format!("warm-up snapshot: {e}"))?;
    let warmup_nodes = Some(node_count(warmup));
    let mut times_ms = Vec::with_capacity(runs);
    let mut nodes_per_run = Vec::with_capacity(runs);
    let mut text = String::new();
    let mut notes = Vec::new();
    let mut envelope = None;
    let mut cpu_ms = Vec::with_capacity(runs);
    for run in 1..=runs.max(1) {
        let cpu = crate::cpu::Clock::start();
        let t = Instant::now();
        let snapshot = session
            .snapshot(&request)
            .await
            .map_err(|e| format!("snapshot {run}: {e}"))?;
        times_ms.push(t.elapsed().as_secs_f64() * 1e3);
        cpu_ms.extend(cpu.stop());
        nodes_per_run.push(Some(node_count(snapshot)));
        for note in &snapshot.notes {
            if !notes.contains(note) {
                notes.push(note.clone());
            }
        }
        text.clone_from(&snapshot.text);
        if run == runs.max(1) {
            envelope = serde_json::to_value(&snapshot.envelope).ok();
        }
    }
    Ok(Measurement {
        times_ms,
        text,
        nodes_per_run,
        warmup_nodes,
        init_ms: Some(init_ms),
        counts_elements: false,
        notes,
        cpu_ms,
        envelope,
    })
}

/// Runs [`measure`] in a child process of this binary with the sandbox's
/// environment.
pub async fn run(sandbox: &Sandbox, scope: Scope, runs: usize, wait_for: Option<&str>) -> Outcome {
    run_app(sandbox, scope, None, runs, wait_for).await
}

/// [`run`] with a window-title filter: the child gets `--app-title TITLE`
/// (which the binary passes to [`measure_app`]).
pub async fn run_app(
    sandbox: &Sandbox,
    scope: Scope,
    app: Option<&str>,
    runs: usize,
    wait_for: Option<&str>,
) -> Outcome {
    run_app_env(sandbox, scope, app, runs, wait_for, &[]).await
}

/// [`run_app`] with more environment for the child (e.g.
/// `CUP_BUSY_POLL=0`).
pub async fn run_app_env(
    sandbox: &Sandbox,
    scope: Scope,
    app: Option<&str>,
    runs: usize,
    wait_for: Option<&str>,
    env: &[(&str, &str)],
) -> Outcome {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let mut command = sandbox.command(exe);
    command.envs(env.iter().copied());
    command
        .arg(MEASURE_FLAG)
        .arg("--scope")
        .arg(scope.to_string())
        .arg("--runs")
        .arg(runs.to_string());
    if let Some(title) = app {
        command.arg(APP_TITLE_FLAG).arg(title);
    }
    if let Some(marker) = wait_for {
        command.arg("--wait-for").arg(marker);
    }
    super::run_json("cup", command, Duration::from_secs(300)).await
}
