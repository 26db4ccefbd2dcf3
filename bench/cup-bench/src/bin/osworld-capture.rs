//! `osworld-capture`: the accessibility observation of one app window, per
//! app of OSWorld's Linux app set, from cup (in process and over MCP),
//! OSWorld's own observation (`bench/peers/osworld/observe.py`), the Python
//! CUP SDK 0.1.0 and the Cua Driver 0.37.0, side by side.
//!
//! Each app runs on a private headless desktop of its own; each tool takes
//! 1 warm-up, then N timed observations. Prints per app and tool the min
//! and median time, the o200k tokens of the text, the usable elements
//! (a name, bounds and something to do), tokens per usable element,
//! whether the text fits OSWorld's 10,000-token cut, and ratios to cup in
//! process.
//!
//! ```text
//! bench/peers/setup.sh && cargo run --release -p cup-bench --bin osworld-capture [-- --runs 5 --apps calc,vlc --dump DIR]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Duration;

use anyhow::{bail, Context as _};
use cup_bench::apps::{self, AppSpec};
use cup_bench::measurement::Outcome;
use cup_bench::peers::{cua_driver, cup_inproc, cup_mcp, python_sdk, run_child, run_json};
use cup_bench::settle;
use cup_bench::stats::{summarize, Summary};
use cup_protocol::Scope;
use cup_sandbox::{Sandbox, SandboxOptions};
use serde_json::Value;

/// Longest wait for the app to go idle before a tool is timed.
const SETTLE_MAX: Duration = Duration::from_secs(20);
/// OSWorld's cut of the linearised tree (`a11y_tree_max_tokens`, cl100k).
const OSWORLD_MAX_TOKENS: usize = 10_000;
/// Deadline of the Python SDK's and OSWorld's whole run (warm-up included).
const PYTHON_DEADLINE: Duration = Duration::from_secs(600);

const USAGE: &str = "\
usage: osworld-capture [--runs N] [--apps calc,impress,writer,vlc,gimp,nautilus,terminal,thunderbird,thunderbird-setup,chromium,firefox] [--tools LIST] [--dump DIR]

Observes the same app window with cup (in process and over MCP), OSWorld's
accessibility-tree observation, the Python CUP SDK 0.1.0 and the Cua Driver
0.37.0, on a private headless desktop per app; 1 warm-up, then N timed runs
each (default 5). Install the peers first: bench/peers/setup.sh

  --runs N     timed runs per tool (default 5)
  --apps LIST  comma-separated subset of calc, impress, writer, vlc, gimp,
               nautilus, terminal, thunderbird, thunderbird-setup,
               chromium, firefox (default all)
  --tools LIST comma-separated subset of cup, cup-mcp, osworld, python-sdk,
               cua-driver (default all; cup in process always runs, as the
               others' ratios are to it)
  --dump DIR   also write each tool's last text to DIR/<app>-<tool>.txt";

#[derive(Debug)]
struct Options {
    runs: usize,
    apps: Vec<AppSpec>,
    tools: Vec<Tool>,
    dump: Option<PathBuf>,
}

/// The hidden child mode: measure cup in this process and print JSON.
#[derive(Debug)]
struct MeasureOptions {
    scope: Scope,
    app: Option<String>,
    runs: usize,
    wait_for: Option<String>,
}

enum Mode {
    Bench(Options),
    Measure(MeasureOptions),
    Help,
}

fn parse_args(args: &[String]) -> anyhow::Result<Mode> {
    let mut runs = 5;
    let mut apps = apps::OSWORLD.to_vec();
    let mut dump = None;
    let mut tools = Tool::ALL.to_vec();
    let mut measure = false;
    let mut scope = Scope::Foreground;
    let mut app = None;
    let mut wait_for = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(Mode::Help),
            "--runs" => {
                runs = value()?.parse().context("--runs needs a whole number")?;
                if runs == 0 {
                    bail!("--runs must be at least 1");
                }
            }
            "--apps" => {
                apps = value()?
                    .split(',')
                    .filter(|k| !k.is_empty())
                    .map(|k| {
                        apps::osworld_by_key(k).with_context(|| {
                            format!(
                                "unknown app '{k}' (calc, impress, writer, vlc, gimp, nautilus, terminal, thunderbird, thunderbird-setup, chromium, firefox)"
                            )
                        })
                    })
                    .collect::<anyhow::Result<_>>()?;
            }
            "--tools" => {
                tools = value()?
                    .split(',')
                    .filter(|k| !k.is_empty())
                    .map(|k| {
                        Tool::ALL
                            .into_iter()
                            .find(|t| t.file_key() == k)
                            .with_context(|| {
                                format!(
                                    "unknown tool '{k}' (cup, cup-mcp, osworld, python-sdk, cua-driver)"
                                )
                            })
                    })
                    .collect::<anyhow::Result<_>>()?;
                if !tools.contains(&Tool::Cup) {
                    tools.insert(0, Tool::Cup);
                }
            }
            "--dump" => dump = Some(PathBuf::from(value()?)),
            cup_inproc::MEASURE_FLAG => measure = true,
            cup_inproc::APP_TITLE_FLAG => app = Some(value()?.clone()),
            "--scope" => {
                scope = value()?
                    .parse()
                    .map_err(|e| anyhow::anyhow!("--scope: {e}"))?;
            }
            "--wait-for" => wait_for = Some(value()?.clone()),
            other => bail!("unknown argument '{other}'\n\n{USAGE}"),
        }
    }
    Ok(if measure {
        Mode::Measure(MeasureOptions {
            scope,
            app,
            runs,
            wait_for,
        })
    } else {
        Mode::Bench(Options {
            runs,
            apps,
            tools,
            dump,
        })
    })
}

/// Child mode: prints one JSON measurement of cup.
fn measure_cup(options: &MeasureOptions) -> anyhow::Result<()> {
    let measurement = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?
        .block_on(cup_inproc::measure_app(
            options.scope,
            options.app.as_deref(),
            options.runs,
            options.wait_for.as_deref(),
        ))
        .map_err(|e| anyhow::anyhow!(e))?;
    println!("{}", serde_json::to_string(&measurement)?);
    Ok(())
}

/// A tool of this benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Cup,
    CupMcp,
    OsWorld,
    PythonSdk,
    CuaDriver,
}

impl Tool {
    const ALL: [Tool; 5] = [
        Tool::Cup,
        Tool::CupMcp,
        Tool::OsWorld,
        Tool::PythonSdk,
        Tool::CuaDriver,
    ];

    fn label(self) -> &'static str {
        match self {
            Tool::Cup => "cup (in process)",
            Tool::CupMcp => "cup get_window_state (MCP)",
            Tool::OsWorld => "OSWorld a11y_tree",
            Tool::PythonSdk => "Python SDK",
            Tool::CuaDriver => "Cua get_window_state",
        }
    }

    fn file_key(self) -> &'static str {
        match self {
            Tool::Cup => "cup",
            Tool::CupMcp => "cup-mcp",
            Tool::OsWorld => "osworld",
            Tool::PythonSdk => "python-sdk",
            Tool::CuaDriver => "cua-driver",
        }
    }
}

/// What one tool gave on one app.
#[derive(Debug, Clone, Default)]
struct Observed {
    times_ms: Vec<f64>,
    /// The last text (cup, SDK, Cua; OSWorld's is dumped by its script).
    text: Option<String>,
    tokens_o200k: Option<usize>,
    tokens_cl100k: Option<usize>,
    /// Usable elements by this tool's own count (see the README).
    usable: Option<u64>,
    /// CUP compact lines with a name and bounds in the text.
    usable_in_text: Option<usize>,
    fits: Option<bool>,
    notes: Vec<String>,
}

#[derive(Debug)]
struct Row {
    app: AppSpec,
    tool: Tool,
    outcome: Result<Observed, String>,
}

impl Row {
    fn summary(&self) -> Option<Summary> {
        self.outcome
            .as_ref()
            .ok()
            .and_then(|o| summarize(&o.times_ms))
    }

    fn tokens_per_usable(&self) -> Option<f64> {
        let o = self.outcome.as_ref().ok()?;
        let usable = o
            .usable
            .or_else(|| o.usable_in_text.and_then(|n| u64::try_from(n).ok()))?;
        if usable == 0 {
            return None;
        }
        Some(o.tokens_o200k? as f64 / usable as f64)
    }
}

fn cl100k(text: &str) -> Result<usize, String> {
    static CL100K: OnceLock<Result<tiktoken_rs::CoreBPE, String>> = OnceLock::new();
    let bpe = CL100K
        .get_or_init(|| tiktoken_rs::cl100k_base().map_err(|e| format!("cl100k_base: {e}")))
        .as_ref()
        .map_err(Clone::clone)?;
    Ok(bpe.encode_ordinary(text).len())
}

/// Nodes of a CUP envelope (JSON) with a non-empty name, bounds and at
/// least one action.
fn usable_in_envelope(envelope: &Value) -> u64 {
    let mut stack: Vec<&Value> = envelope
        .get("tree")
        .and_then(Value::as_array)
        .map(|t| t.iter().collect())
        .unwrap_or_default();
    let mut usable = 0;
    while let Some(node) = stack.pop() {
        let named = node
            .get("name")
            .and_then(Value::as_str)
            .is_some_and(|n| !n.trim().is_empty());
        let bounded = node.get("bounds").is_some_and(Value::is_object);
        let acts = node
            .get("actions")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty());
        if named && bounded && acts {
            usable += 1;
        }
        if let Some(children) = node.get("children").and_then(Value::as_array) {
            stack.extend(children);
        }
    }
    usable
}

/// Whether `token` is compact bounds' position (`x,y`, integers).
fn is_position(token: &str) -> bool {
    token
        .split_once(',')
        .is_some_and(|(x, y)| is_int(x) && is_int(y))
}

fn is_int(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `token` is compact bounds' size (`wxh`).
fn is_size(token: &str) -> bool {
    token
        .split_once('x')
        .is_some_and(|(w, h)| is_int(w) && is_int(h))
}

/// CUP compact node lines with a non-empty name and bounds (the compact
/// format shows bounds only on nodes with an action other than focus).
fn usable_lines(text: &str) -> usize {
    text.lines()
        .filter(|line| {
            let line = line.trim_start();
            if !line.starts_with("[e") {
                return false;
            }
            // `[id] role "name" x,y wxh ...`: the name is quoted with `\"`
            // escapes; the bounds follow its closing quote.
            let Some(open) = line.find(" \"") else {
                return false;
            };
            let rest = &line[open + 2..];
            let mut escaped = false;
            let mut close = None;
            for (i, c) in rest.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        close = Some(i);
                        break;
                    }
                    _ => escaped = false,
                }
            }
            let Some(close) = close else {
                return false;
            };
            if close == 0 {
                return false;
            }
            let mut after = rest[close + 1..].split_whitespace();
            matches!((after.next(), after.next()), (Some(p), Some(s)) if is_position(p) && is_size(s))
        })
        .count()
}

/// Sizes of a CUP-style text (cup, the SDK, Cua).
fn observed_from_text(times_ms: Vec<f64>, text: String, cup_lines: bool) -> Observed {
    let tokens_o200k = cup_bench::tokens::count(&text).ok();
    let tokens_cl100k = cl100k(&text).ok();
    Observed {
        times_ms,
        tokens_o200k,
        tokens_cl100k,
        usable: None,
        usable_in_text: cup_lines.then(|| usable_lines(&text)),
        fits: tokens_cl100k.map(|n| n <= OSWORLD_MAX_TOKENS),
        notes: Vec::new(),
        text: Some(text),
    }
}

fn from_measurement(outcome: Outcome, tool: Tool) -> Result<Observed, String> {
    let m = outcome?;
    let cup_lines = tool != Tool::CuaDriver;
    let mut observed = observed_from_text(m.times_ms, m.text, cup_lines);
    if tool == Tool::Cup {
        observed.usable = m.envelope.as_ref().map(usable_in_envelope);
    }
    if tool == Tool::CuaDriver {
        if let Some(n) = m.nodes_per_run.iter().rev().flatten().next() {
            observed.notes.push(format!("{n} indexed elements"));
        }
    }
    observed.notes.extend(m.notes);
    Ok(observed)
}

/// OSWorld's venv interpreter.
fn osworld_python() -> PathBuf {
    cup_bench::peers_dir()
        .join("osworld")
        .join("venv")
        .join("bin")
        .join("python")
}

fn osworld_script() -> PathBuf {
    cup_bench::workspace_root()
        .join("bench")
        .join("peers")
        .join("osworld")
        .join("observe.py")
}

/// A number field of one of `observe.py`'s JSON lines.
fn field_f64(line: &Value, key: &str) -> Option<f64> {
    line.get(key).and_then(Value::as_f64)
}

fn field_usize(line: &Value, key: &str) -> Option<usize> {
    line.get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
}

/// Reads `observe.py`'s JSON lines: the time of a run is its walk + XML
/// (`ms`) plus its linearisation and trim (`linearize_ms`).
fn parse_osworld(stdout: &str) -> Result<Observed, String> {
    let lines: Vec<Value> = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with('{'))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let errors: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.get("error").and_then(Value::as_str))
        .collect();
    let runs: Vec<&Value> = lines.iter().filter(|l| l.get("ms").is_some()).collect();
    let Some(last) = runs.last() else {
        return Err(if errors.is_empty() {
            "observe.py printed no run".to_owned()
        } else {
            format!("observe.py: every run failed: {}", errors.join("; "))
        });
    };
    let times_ms = runs
        .iter()
        .filter_map(|l| Some(field_f64(l, "ms")? + field_f64(l, "linearize_ms").unwrap_or(0.0)))
        .collect();
    let mut notes = Vec::new();
    if let (Some(rows), Some(kept)) = (field_usize(last, "rows"), field_usize(last, "rows_kept")) {
        if kept < rows {
            notes.push(format!("cut: {kept} of {rows} rows reach the prompt"));
        } else {
            notes.push(format!("{rows} rows"));
        }
    }
    let linearize: Vec<f64> = runs
        .iter()
        .filter_map(|l| field_f64(l, "linearize_ms"))
        .collect();
    if let Some(s) = summarize(&linearize) {
        notes.push(format!("linearise {:.1} ms", s.median));
    }
    let probes: Vec<f64> = runs
        .iter()
        .filter_map(|l| field_f64(l, "probe_ms"))
        .collect();
    if let Some(s) = summarize(&probes) {
        notes.push(format!("+ libreoffice probe {:.0} ms, untimed", s.median));
    }
    if let Some(n) = field_usize(last, "xml_nodes") {
        notes.push(format!("{n} XML nodes"));
    }
    // Usable: rows a person can use (a control, editable, a selectable
    // item), as cup's count; the named rows with a place, labels and text
    // among them, are said beside it.
    let usable = last.get("usable_acting").and_then(Value::as_u64);
    if let (Some(_), Some(all)) = (usable, field_usize(last, "usable")) {
        notes.push(format!(
            "{all} named rows with a place (labels and text too)"
        ));
    }
    if !errors.is_empty() {
        notes.push(format!(
            "{} runs failed: {}",
            errors.len(),
            errors.join("; ")
        ));
    }
    Ok(Observed {
        times_ms,
        text: None,
        tokens_o200k: field_usize(last, "tokens_o200k"),
        tokens_cl100k: field_usize(last, "tokens_cl100k"),
        usable: usable.or_else(|| last.get("usable").and_then(Value::as_u64)),
        usable_in_text: None,
        fits: last.get("fits_10000").and_then(Value::as_bool),
        notes,
    })
}

/// OSWorld's observation: `observe.py --app TITLE --warmup 1 --runs N` with
/// its venv, in the sandbox's environment (the whole desktop, as OSWorld).
async fn osworld(
    sandbox: &Sandbox,
    app: AppSpec,
    runs: usize,
    dump: Option<&Path>,
) -> Result<Observed, String> {
    let python = osworld_python();
    if !python.is_file() {
        return Err(format!(
            "not installed ({} is missing): {}",
            python.display(),
            cup_bench::SETUP_HINT
        ));
    }
    let script = osworld_script();
    if !script.is_file() {
        return Err(format!("{} is missing", script.display()));
    }
    let mut command = sandbox.command(&python);
    command
        .arg(&script)
        .arg("--app")
        .arg(app.title())
        .arg("--warmup")
        .arg("1")
        .arg("--runs")
        .arg(runs.to_string());
    if let Some(dir) = dump {
        command
            .arg("--dump-full")
            .arg(dir.join(format!("{}-osworld.txt", app.key)))
            .arg("--dump")
            .arg(dir.join(format!("{}-osworld-trimmed.txt", app.key)))
            .arg("--dump-xml")
            .arg(dir.join(format!("{}-osworld.xml", app.key)));
    }
    let ran = run_child("OSWorld's observe.py", command, PYTHON_DEADLINE).await?;
    parse_osworld(&ran.stdout).map_err(|e| format!("{e}; stderr: {}", ran.stderr_tail))
}

/// The Python SDK's script, foreground scope, with this bench's deadline.
async fn python_sdk_foreground(sandbox: &Sandbox, runs: usize) -> Outcome {
    let python = python_sdk::python();
    if !python.is_file() {
        return Err(format!(
            "not installed ({} is missing): {}",
            python.display(),
            cup_bench::SETUP_HINT
        ));
    }
    let script = python_sdk::script();
    if !script.is_file() {
        return Err(format!("{} is missing", script.display()));
    }
    let mut command = sandbox.command(&python);
    command
        .arg(script)
        .arg("--scope")
        .arg(Scope::Foreground.to_string())
        .arg("--runs")
        .arg(runs.to_string());
    run_json("the Python SDK", command, PYTHON_DEADLINE).await
}

fn failed_rows(app: AppSpec, tools: &[Tool], reason: &str) -> Vec<Row> {
    tools
        .iter()
        .map(|&tool| Row {
            app,
            tool,
            outcome: Err(reason.to_owned()),
        })
        .collect()
}

/// Everything for one app, on a desktop of its own.
fn bench_app(
    rt: &tokio::runtime::Runtime,
    app: AppSpec,
    runs: usize,
    tools: &[Tool],
    dump: Option<&Path>,
) -> Vec<Row> {
    eprintln!("== {}: starting a private desktop", app.label);
    let sandbox = match Sandbox::start(SandboxOptions::default()) {
        Ok(s) => s,
        Err(e) => {
            return failed_rows(
                app,
                tools,
                &format!("the private desktop did not start: {e}"),
            )
        }
    };
    let rows = bench_in(rt, &sandbox, app, runs, tools, dump);
    if let Err(e) = sandbox.stop() {
        eprintln!("warning: stopping the private desktop: {e}");
    }
    rows
}

fn bench_in(
    rt: &tokio::runtime::Runtime,
    sandbox: &Sandbox,
    app: AppSpec,
    runs: usize,
    tools: &[Tool],
    dump: Option<&Path>,
) -> Vec<Row> {
    let scratch = sandbox.state_dir().join("bench");
    let args = match std::fs::create_dir_all(&scratch).and_then(|()| app.args(&scratch)) {
        Ok(args) => args,
        Err(e) => {
            return failed_rows(
                app,
                tools,
                &format!("cannot prepare {}: {e}", scratch.display()),
            )
        }
    };
    eprintln!(
        "== {}: launching {} on {}",
        app.label,
        app.program,
        sandbox.display()
    );
    let options = cup_sandbox::LaunchOptions {
        timeout: Duration::from_secs(90),
        env: app.env_in(&scratch),
    };
    let launched = match sandbox.launch_with(app.program, &args, &options) {
        Ok(a) => a,
        Err(e) => return failed_rows(app, tools, &format!("{} did not start: {e}", app.program)),
    };
    let settle = |tool: Tool| {
        let s = settle::wait_idle(launched.pid, SETTLE_MAX);
        let (state, then) = if s.idle {
            ("settled", "")
        } else {
            ("still", "; timing anyway")
        };
        eprintln!(
            "== {}: {} (app {state} at {:.0} % of a core after {:.1} s{then})",
            app.label,
            tool.label(),
            s.share * 100.0,
            s.waited.as_secs_f64()
        );
    };
    let mut rows = Vec::new();
    let mut push = |tool, outcome| rows.push(Row { app, tool, outcome });

    settle(Tool::Cup);
    let (scope, title) = match app.full_scope_title() {
        Some(title) => (Scope::Full, Some(title)),
        None => (Scope::Foreground, None),
    };
    let cup = rt.block_on(cup_inproc::run_app(
        sandbox,
        scope,
        title,
        runs,
        app.wait_for(),
    ));
    push(Tool::Cup, from_measurement(cup, Tool::Cup));

    if tools.contains(&Tool::CupMcp) {
        settle(Tool::CupMcp);
        let over_mcp = rt.block_on(cup_mcp::run(
            sandbox,
            launched.a11y_pid,
            runs,
            &scratch.join("cup-mcp"),
        ));
        push(
            Tool::CupMcp,
            from_measurement(over_mcp.window_state, Tool::CupMcp),
        );
    }
    if tools.contains(&Tool::OsWorld) {
        settle(Tool::OsWorld);
        push(
            Tool::OsWorld,
            rt.block_on(osworld(sandbox, app, runs, dump)),
        );
    }
    if tools.contains(&Tool::PythonSdk) {
        settle(Tool::PythonSdk);
        let sdk = rt.block_on(python_sdk_foreground(sandbox, runs));
        push(Tool::PythonSdk, from_measurement(sdk, Tool::PythonSdk));
    }
    if tools.contains(&Tool::CuaDriver) {
        settle(Tool::CuaDriver);
        let cua = rt.block_on(cua_driver::run(sandbox, launched.a11y_pid, runs, &scratch));
        push(
            Tool::CuaDriver,
            from_measurement(cua.window_state, Tool::CuaDriver),
        );
    }
    rows
}

fn dump_texts(dir: &Path, rows: &[Row]) -> anyhow::Result<()> {
    for row in rows {
        if let Ok(Observed {
            text: Some(text), ..
        }) = &row.outcome
        {
            let path = dir.join(format!("{}-{}.txt", row.app.key, row.tool.file_key()));
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(())
}

fn or_dash<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// One line of the table per app and tool.
fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(
        "| app | tool | min ms | median ms | x cup (median) | tokens o200k | usable | usable in text | tokens/usable | fits 10,000 (cl100k) | notes |\n",
    );
    out.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
    for row in rows {
        let label = row.tool.label();
        let o = match &row.outcome {
            Ok(o) => o,
            Err(e) => {
                let _ = writeln!(
                    out,
                    "| {} | {label} | FAILED | - | - | - | - | - | - | - | {} |",
                    row.app.key,
                    e.replace('|', "/").replace('\n', " ")
                );
                continue;
            }
        };
        let cup = rows
            .iter()
            .find(|r| r.app == row.app && r.tool == Tool::Cup)
            .and_then(Row::summary);
        let (min, median, ratio) = match row.summary() {
            Some(s) => (
                format!("{:.1}", s.min),
                format!("{:.1}", s.median),
                cup.filter(|c| c.median > 0.0).map_or_else(
                    || "-".to_owned(),
                    |c| format!("{:.1}x", s.median / c.median),
                ),
            ),
            None => ("-".to_owned(), "-".to_owned(), "-".to_owned()),
        };
        let fits = match (o.fits, o.tokens_cl100k) {
            (Some(true), Some(n)) => format!("yes ({n})"),
            (Some(false), Some(n)) => format!("no ({n})"),
            (Some(f), None) => if f { "yes" } else { "no" }.to_owned(),
            (None, _) => "-".to_owned(),
        };
        let _ = writeln!(
            out,
            "| {} | {label} | {min} | {median} | {ratio} | {} | {} | {} | {} | {fits} | {} |",
            row.app.key,
            or_dash(o.tokens_o200k),
            or_dash(o.usable),
            or_dash(o.usable_in_text),
            or_dash(row.tokens_per_usable().map(|t| format!("{t:.1}"))),
            o.notes.join("; ").replace('|', "/"),
        );
    }
    out
}

/// Per app: cup in process against each peer (time), and cup's tokens per
/// usable element against OSWorld's.
fn ratio_lines(rows: &[Row], apps: &[AppSpec]) -> String {
    let mut out = String::new();
    for app in apps {
        let find = |tool| rows.iter().find(|r| r.app == *app && r.tool == tool);
        let Some(cup) = find(Tool::Cup) else {
            continue;
        };
        let Some(cup_time) = cup.summary() else {
            let _ = writeln!(out, "{}: cup in process failed; no ratios", app.key);
            continue;
        };
        let mut parts = Vec::new();
        for tool in [
            Tool::CupMcp,
            Tool::OsWorld,
            Tool::PythonSdk,
            Tool::CuaDriver,
        ] {
            match find(tool).and_then(Row::summary) {
                Some(s) if cup_time.median > 0.0 => parts.push(format!(
                    "{} {:.1}x",
                    tool.label(),
                    s.median / cup_time.median
                )),
                _ => parts.push(format!("{} -", tool.label())),
            }
        }
        let _ = writeln!(
            out,
            "{}: peer median / cup in process median ({:.1} ms): {}",
            app.key,
            cup_time.median,
            parts.join(", ")
        );
        let per = |tool| find(tool).and_then(Row::tokens_per_usable);
        // cup's tokens per usable line of its own text (the envelope can
        // hold more than the capped, pruned text shows).
        let per_line = cup.outcome.as_ref().ok().and_then(|o| {
            let lines = o.usable_in_text.filter(|&n| n > 0)?;
            Some(o.tokens_o200k? as f64 / lines as f64)
        });
        match (per(Tool::Cup), per(Tool::OsWorld)) {
            (Some(c), Some(o)) if o > 0.0 => {
                let in_text = per_line.map_or_else(String::new, |l| {
                    format!("; per usable line of cup's text {l:.1} ({:.2}x)", l / o)
                });
                let _ = writeln!(
                    out,
                    "{}: tokens per usable element: cup {c:.1}, OSWorld {o:.1} (cup/OSWorld {:.2}x){in_text}",
                    app.key,
                    c / o
                );
            }
            (c, o) => {
                let _ = writeln!(
                    out,
                    "{}: tokens per usable element: cup {}, OSWorld {} (no ratio)",
                    app.key,
                    or_dash(c.map(|v| format!("{v:.1}"))),
                    or_dash(o.map(|v| format!("{v:.1}"))),
                );
            }
        }
    }
    out
}

fn bench(options: &Options) -> anyhow::Result<bool> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?;
    if let Some(dir) = &options.dump {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut rows = Vec::new();
    for app in &options.apps {
        rows.extend(bench_app(
            &rt,
            *app,
            options.runs,
            &options.tools,
            options.dump.as_deref(),
        ));
    }
    if let Some(dir) = &options.dump {
        dump_texts(dir, &rows)?;
    }
    println!();
    println!(
        "OSWorld app set, {} timed runs after 1 warm-up per tool; each app on its own private desktop \
         (Xvfb 1920x1080, no window manager). Times: cup in process (foreground snapshot, compact text), \
         cup and Cua over MCP stdio (get_window_state, no screenshot), OSWorld (walk + XML + linearise + trim, \
         whole desktop), Python SDK in process (foreground, compact). Tokens: o200k_base of the last text \
         (OSWorld: its whole table, before the cut). usable: elements with a name, bounds and an action \
         (cup: in its envelope; OSWorld: rows with a name, position and size whose element is a control, editable or a selectable item). usable in text: CUP lines \
         with a name and bounds. tokens/usable: tokens / usable (or usable in text where usable is -).",
        options.runs
    );
    println!();
    print!("{}", table(&rows));
    println!();
    print!("{}", ratio_lines(&rows, &options.apps));
    let missing_peer = rows
        .iter()
        .any(|r| matches!(&r.outcome, Err(e) if e.contains(cup_bench::SETUP_HINT)));
    if missing_peer {
        println!();
        println!("Some peers are not installed: {}.", cup_bench::SETUP_HINT);
    }
    Ok(rows
        .iter()
        .filter(|r| r.tool == Tool::Cup)
        .all(|r| r.outcome.is_ok()))
}

fn main() -> ExitCode {
    cup_bench::init_logs();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match parse_args(&args) {
        Ok(Mode::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Mode::Measure(options)) => measure_cup(&options).map(|()| true),
        Ok(Mode::Bench(options)) => bench(&options),
        Err(e) => Err(e),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("osworld-capture: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
