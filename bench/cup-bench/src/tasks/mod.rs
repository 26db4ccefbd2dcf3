//! A task suite in the style of OSWorld's: each task makes its own files,
//! starts its app on a private desktop, runs a fixed plan through cup's MCP
//! tools (snapshot, `find` by words, act on the id found, read the next
//! snapshot; no coordinates, no ids written in advance) with the official
//! MCP client, and is judged by an oracle that reads the app's result (the
//! saved file, the file system, the app's settings, what a web server
//! received), never cup's report.

pub mod agent;
mod calc;
mod files;
mod gimp;
mod impress;
mod oracle;
mod terminal;
mod vlc;
mod web;
mod writer;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cup_sandbox::{LaunchOptions, Sandbox, SandboxOptions};

pub use agent::Agent;

/// How a task's app is started.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The program.
    pub program: &'static str,
    /// The Debian package that has it (said when it is missing).
    pub package: &'static str,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment.
    pub env: Vec<(String, String)>,
}

/// What a task's oracle, set-up and plan share: its folder, and a value
/// the set-up decided (a server's address) for the plan and the oracle.
#[derive(Debug)]
pub struct Ctx {
    /// The task's own folder (its files, the app's profile and `HOME`).
    pub dir: PathBuf,
    /// What the set-up left for the others (a web server).
    pub server: Option<web::Server>,
}

/// One task.
#[derive(Debug)]
pub struct Task {
    /// Short name (`--tasks`).
    pub key: &'static str,
    /// The app, as the report says it.
    pub app: &'static str,
    /// The instruction, as a person would give it.
    pub goal: &'static str,
    /// Makes the files and says how to start the app.
    pub prepare: fn(&mut Ctx) -> Result<Launch, String>,
    /// The fixed plan, over MCP.
    pub plan: fn(&mut Agent, &Ctx) -> Result<(), String>,
    /// Reads the app's result.
    pub check: fn(&Ctx) -> Result<(), String>,
}

/// Every task, in report order.
pub fn all() -> Vec<Task> {
    let mut tasks = Vec::new();
    tasks.extend(calc::tasks());
    tasks.extend(writer::tasks());
    tasks.extend(impress::tasks());
    tasks.extend(vlc::tasks());
    tasks.extend(gimp::tasks());
    tasks.extend(files::tasks());
    tasks.extend(terminal::tasks());
    tasks.extend(web::tasks());
    tasks
}

/// How one run of a task went.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// `Ok` or what failed (set-up, plan or oracle).
    pub result: Result<(), String>,
    /// Tool calls.
    pub calls: usize,
    /// Acting calls.
    pub steps: usize,
    /// o200k tokens of every tool result.
    pub tokens: usize,
    /// From the app's launch to the oracle's verdict.
    pub wall: Duration,
    /// The calls made, one line each.
    pub transcript: Vec<String>,
}

impl Outcome {
    fn failed(why: String, wall: Duration) -> Outcome {
        Outcome {
            result: Err(why),
            calls: 0,
            steps: 0,
            tokens: 0,
            wall,
            transcript: Vec::new(),
        }
    }
}

/// Runs `task` once on a private desktop of its own, with `cup` as the
/// MCP server.
pub fn run(task: &Task, cup: &Path) -> Outcome {
    let started = Instant::now();
    let sandbox = match Sandbox::start(SandboxOptions::default()) {
        Ok(s) => s,
        Err(e) => {
            return Outcome::failed(
                format!("the private desktop did not start: {e}"),
                started.elapsed(),
            )
        }
    };
    let outcome = run_in(&sandbox, task, cup, started);
    // To look at a failed run's desktop: CUP_TASKS_KEEP=DIR keeps it,
    // attachable with `cup sandbox env --state DIR/KEY.json`.
    if let (Err(_), Some(keep)) = (&outcome.result, std::env::var_os("CUP_TASKS_KEEP")) {
        let state = PathBuf::from(keep).join(format!("{}.json", task.key));
        let mut sandbox = sandbox;
        match sandbox.save(&state) {
            Ok(()) => {
                sandbox.detach();
                tracing::warn!("kept the desktop of {}: {}", task.key, state.display());
                return outcome;
            }
            Err(e) => tracing::warn!("cannot keep the desktop of {}: {e}", task.key),
        }
        if let Err(e) = sandbox.stop() {
            tracing::warn!("stopping the private desktop of {}: {e}", task.key);
        }
        return outcome;
    }
    if let Err(e) = sandbox.stop() {
        tracing::warn!("stopping the private desktop of {}: {e}", task.key);
    }
    outcome
}

fn run_in(sandbox: &Sandbox, task: &Task, cup: &Path, started: Instant) -> Outcome {
    let dir = sandbox.state_dir().join("task");
    let mut ctx = Ctx { dir, server: None };
    let launch = match std::fs::create_dir_all(&ctx.dir)
        .map_err(|e| format!("cannot create {}: {e}", ctx.dir.display()))
        .and_then(|()| (task.prepare)(&mut ctx))
    {
        Ok(l) => l,
        Err(e) => return Outcome::failed(format!("set-up: {e}"), started.elapsed()),
    };
    let options = LaunchOptions {
        timeout: Duration::from_secs(90),
        env: launch.env.clone(),
    };
    if let Err(e) = sandbox.launch_with(launch.program, &launch.args, &options) {
        let why = match e {
            cup_sandbox::SandboxError::MissingProgram { .. } => format!(
                "{} is not installed: apt-get install {} (scripts/install-deps.sh does)",
                launch.program, launch.package
            ),
            other => format!("{} did not start: {other}", launch.program),
        };
        return Outcome::failed(why, started.elapsed());
    }
    let mut agent = match Agent::start(sandbox, cup, &ctx.dir, &[]) {
        Ok(a) => a,
        Err(e) => return Outcome::failed(e, started.elapsed()),
    };
    let planned = (task.plan)(&mut agent, &ctx);
    let (calls, steps, tokens) = (agent.calls, agent.steps, agent.tokens);
    let transcript = std::mem::take(&mut agent.transcript);
    agent.stop();
    let result = planned
        .map_err(|e| format!("plan: {e}"))
        .and_then(|()| (task.check)(&ctx).map_err(|e| format!("oracle: {e}")));
    Outcome {
        result,
        calls,
        steps,
        tokens,
        wall: started.elapsed(),
        transcript,
    }
}
