//! MCP surface benchmark (issue 6): how fast each MCP server answers
//! `initialize` after launch, and how large its `tools/list` is (bytes and
//! o200k tokens) — the cost an agent pays on every turn. cup (release
//! build, each tool profile) side by side with the Python CUP SDK's MCP
//! server and the Cua Driver 0.37.0, all on one private headless desktop.
//!
//! ```sh
//! bench/peers/setup.sh && cargo build --release -p cup-cli
//! cargo run --release -p cup-bench --bin mcp-surface -- --runs 9
//! ```

// A report binary: its output is the table.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::time::Instant;

use cup_bench::peers::cua_driver::{self, McpClient};
use cup_bench::stats::summarize;
use cup_bench::tokens;
use cup_sandbox::{Sandbox, SandboxOptions};
use serde_json::{json, Value};

/// One server to measure.
struct Server {
    label: String,
    program: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

/// What was measured of one server.
struct Measured {
    label: String,
    init_ms: Vec<f64>,
    tools: usize,
    bytes: usize,
    tokens: usize,
    error: Option<String>,
}

fn runs_arg() -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .filter(|n| *n >= 1)
        .unwrap_or(7)
}

fn cup_binary() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("cup")))
        .unwrap_or_else(|| PathBuf::from("target/release/cup"))
}

fn peers_dir() -> PathBuf {
    std::env::var_os("CUP_BENCH_PEERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-peers")
        })
}

/// Launches `server`, times spawn -> `initialize` answer; the first run
/// also lists the tools.
async fn once(
    sandbox: &Sandbox,
    server: &Server,
    scratch: &Path,
    list: bool,
) -> Result<(f64, Option<Value>), String> {
    let mut command = sandbox.command(&server.program);
    command.args(&server.args).env("HOME", scratch);
    for (k, v) in &server.env {
        command.env(k, v);
    }
    let started = Instant::now();
    let mut client = McpClient::spawn(command, &scratch.join("server.stderr.log"))?;
    client.initialize().await?;
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let tools = if list {
        Some(client.list_tools().await?)
    } else {
        None
    };
    client.shutdown().await;
    Ok((ms, tools))
}

async fn measure(sandbox: &Sandbox, server: &Server, runs: usize, scratch: &Path) -> Measured {
    let mut m = Measured {
        label: server.label.clone(),
        init_ms: Vec::new(),
        tools: 0,
        bytes: 0,
        tokens: 0,
        error: None,
    };
    if let Err(e) = std::fs::create_dir_all(scratch) {
        m.error = Some(format!("scratch dir: {e}"));
        return m;
    }
    if !server.program.exists() {
        m.error = Some(format!("{} not found", server.program.display()));
        return m;
    }
    // One warm-up launch (page cache), which also lists the tools.
    match once(sandbox, server, scratch, true).await {
        Ok((_, Some(tools))) => {
            let list = tools.get("tools").cloned().unwrap_or(json!([]));
            m.tools = list.as_array().map_or(0, Vec::len);
            let text = list.to_string();
            m.bytes = text.len();
            m.tokens = tokens::count(&text).unwrap_or(0);
        }
        Ok((_, None)) => {}
        Err(e) => {
            m.error = Some(e);
            return m;
        }
    }
    for _ in 0..runs {
        match once(sandbox, server, scratch, false).await {
            Ok((ms, _)) => m.init_ms.push(ms),
            Err(e) => {
                m.error = Some(e);
                break;
            }
        }
    }
    m
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    cup_bench::init_logs();
    let runs = runs_arg();
    let cup = cup_binary();
    if !cup.exists() {
        anyhow::bail!(
            "{} not found; build it first: cargo build --release -p cup-cli",
            cup.display()
        );
    }
    let peers = peers_dir();
    let sandbox = Sandbox::start(SandboxOptions::default())
        .map_err(|e| anyhow::anyhow!("cannot start the sandbox: {e}"))?;
    let scratch = std::env::temp_dir().join(format!("cup-bench-mcp-{}", std::process::id()));

    let mut servers: Vec<Server> = ["all", "cup", "driver"]
        .iter()
        .map(|profile| Server {
            label: format!("cup mcp --tools {profile}"),
            program: cup.clone(),
            args: vec!["mcp".into(), "--tools".into(), (*profile).into()],
            env: Vec::new(),
        })
        .collect();
    servers.push(Server {
        label: "Python CUP SDK (python -m cup.mcp)".into(),
        program: peers.join("venv/bin/python"),
        args: vec!["-m".into(), "cup.mcp".into()],
        env: Vec::new(),
    });
    servers.push(Server {
        label: "Cua Driver 0.37.0 (cua-driver mcp)".into(),
        program: cua_driver::binary(),
        args: vec!["mcp".into()],
        env: vec![("CUA_DRIVER_RS_TELEMETRY_ENABLED".into(), "false".into())],
    });

    let mut results = Vec::new();
    for (i, server) in servers.iter().enumerate() {
        eprintln!("mcp-surface: {} ({} runs)", server.label, runs);
        results.push(measure(&sandbox, server, runs, &scratch.join(i.to_string())).await);
    }
    drop(sandbox);
    let _ = std::fs::remove_dir_all(&scratch);

    let default = results
        .first()
        .map(|m| (summarize(&m.init_ms), m.bytes, m.tokens));
    let mut out = format!(
        "MCP surface: initialize after launch ({runs} runs, after a warm-up) and tools/list size\n\n| server | tools | initialize min | median | tools/list bytes | o200k tokens | tokens vs cup (all) |\n|---|---|---|---|---|---|---|\n"
    );
    for m in &results {
        if let Some(e) = &m.error {
            out.push_str(&format!("| {} | FAILED: {e} | | | | | |\n", m.label));
            continue;
        }
        let s = summarize(&m.init_ms);
        let ratio = match default {
            Some((_, _, t)) if t > 0 => format!("{:.1}x", m.tokens as f64 / t as f64),
            _ => "-".into(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {ratio} |\n",
            m.label,
            m.tools,
            s.as_ref()
                .map_or("-".into(), |s| format!("{:.1} ms", s.min)),
            s.as_ref()
                .map_or("-".into(), |s| format!("{:.1} ms", s.median)),
            m.bytes,
            m.tokens
        ));
    }
    let mut pass = true;
    if let Some((Some(s), _, _)) = &default {
        let ok = s.median <= 50.0;
        pass &= ok;
        out.push_str(&format!(
            "\ntarget: cup initialize within 50 ms of launch: median {:.1} ms {}\n",
            s.median,
            if ok { "PASS" } else { "FAIL" }
        ));
    }
    for m in results.iter().take(3) {
        let ok = m.error.is_none() && m.tokens > 0 && m.tokens <= 10_000;
        pass &= ok;
        out.push_str(&format!(
            "target: {} tools/list <= 10,000 tokens: {} {}\n",
            m.label,
            m.tokens,
            if ok { "PASS" } else { "FAIL" }
        ));
    }
    for m in results.iter().skip(3) {
        if let (Some(mine), Some(theirs)) = (
            default.as_ref().and_then(|d| d.0.as_ref()),
            summarize(&m.init_ms),
        ) {
            out.push_str(&format!(
                "ratio: {} initialize median / cup's: {:.0}x\n",
                m.label,
                theirs.median / mine.median
            ));
        }
    }
    print!("{out}");
    if !pass {
        std::process::exit(1);
    }
    Ok(())
}
