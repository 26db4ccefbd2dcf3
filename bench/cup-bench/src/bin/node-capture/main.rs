//! `node-capture`: Node packages capturing the same UI.
//!
//! cup's Node package (`cup-rs`, bindings/node: a napi-rs addon under a
//! TypeScript layer) against the reference TypeScript CUP SDK
//! (`computeruseprotocol` 0.1.0, built from the folder given with
//! `--reference-ts`), and against cup itself in process (Rust, the same
//! adapter, request and runtime as the addon's): the same foreground
//! snapshot as compact text, on one page in one headless Chromium (the web
//! adapters) and on gtk3-widget-factory on a private desktop (the Linux
//! adapters). Per tool: warm captures in one process (1 warm-up, N timed;
//! min and median) and fresh processes timing start-up + import + the
//! first capture. Prints a table, the parts and the targets as PASS/FAIL.
//!
//! ```text
//! bindings/node/build.sh --release
//! cargo run --release -p cup-bench --bin node-capture -- --reference-ts ../shared/reference/typescript-sdk
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context as _};
use cup::{Session, SnapshotRequest};
use cup_bench::measurement::Measurement;
use cup_bench::report::{self, Status};
use cup_bench::stats::{summarize, Summary};
use cup_bench::{apps, settle, web};
use cup_sandbox::{Browser, BrowserOptions, Sandbox, SandboxOptions};
use serde_json::{json, Value};

mod child;
mod summary;
use child::*;
use summary::*;

/// Fewest timed runs per tool (warm) and fresh processes per tool.
const MIN_RUNS: usize = 9;
/// Timed warm captures per tool by default: more than the minimum, since
/// cup-rs and cup in process are held within 10 % of each other on two
/// noisy cores (a capture takes 10-30 ms).
const DEFAULT_RUNS: usize = 21;
/// Longest wait for the app to go idle before a tool is timed.
const SETTLE_MAX: Duration = Duration::from_secs(20);
/// Longest wait for the machine to go quiet before a tool is timed.
const MACHINE_MAX: Duration = Duration::from_secs(60);
/// The machine counts as quiet at or below this many busy cores (the app
/// under test included: gtk3-widget-factory's spinner takes ~0.2).
const MACHINE_BUSY: f64 = 0.6;
/// Longest a measuring child may take.
const CHILD_TIMEOUT: Duration = Duration::from_secs(600);
/// The speed-up over the reference the issue asks for.
const SPEEDUP: f64 = 10.0;
/// The most cup-rs may take over cup in process, as a ratio.
const OVERHEAD: f64 = 1.10;
/// The hidden flag that runs cup in process in a child and prints JSON.
const MEASURE_FLAG: &str = "--measure-rust";
/// What to run when cup-rs is not built.
const CUP_RS_HINT: &str = "run bindings/node/build.sh --release";

const USAGE: &str = "\
usage: node-capture --reference-ts DIR [--runs N] [--cold-runs K] [--on web,gtk3]

Node packages taking the same foreground snapshot (compact text): cup's own
(cup-rs, bindings/node; build it with bindings/node/build.sh --release) and the
reference TypeScript CUP SDK 0.1.0, built from DIR into
target/bench-peers/typescript-sdk (copy, npm ci, npm run build; skipped when
built from the same source), against cup in process (Rust). On one page in a
headless Chromium (web adapters) and on gtk3-widget-factory on a private
desktop (Linux adapters).

  --reference-ts DIR  the reference TypeScript SDK's source folder
  --runs N            timed captures per tool after 1 warm-up (default 21, minimum 9)
  --cold-runs K       fresh processes per tool timing import + first capture (default and minimum 9)
  --on LIST           comma-separated subset of web, gtk3 (default both)";

/// Where the tools capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The web bench's large page in one headless Chromium.
    Web,
    /// gtk3-widget-factory on a private desktop.
    Gtk3,
}

impl Place {
    const ALL: [Place; 2] = [Place::Web, Place::Gtk3];

    fn key(self) -> &'static str {
        match self {
            Place::Web => "web",
            Place::Gtk3 => "gtk3",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Place::Web => "large page, Chromium",
            Place::Gtk3 => "gtk3-widget-factory",
        }
    }

    /// The platform argument of the children.
    fn platform(self) -> &'static str {
        match self {
            Place::Web => "web",
            Place::Gtk3 => "desktop",
        }
    }
}

/// A tool under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    /// cup in process: `cup::Session` in a child of this binary.
    Rust,
    /// cup-rs in a child node, every web snapshot a whole walk.
    CupRs,
    /// cup-rs with its defaults (web: repeated snapshots re-read what
    /// changed).
    CupRsDefault,
    /// The reference TypeScript SDK in a child node.
    Reference,
}

impl Tool {
    fn label(self) -> &'static str {
        match self {
            Tool::Rust => "cup in process (Rust)",
            Tool::CupRs => "cup-rs (Node)",
            Tool::CupRsDefault => "cup-rs (Node), repeated",
            Tool::Reference => "reference TS SDK",
        }
    }

    /// The row this one's ratio is against.
    fn baseline(self) -> Option<Tool> {
        match self {
            Tool::Rust | Tool::CupRsDefault => None,
            Tool::CupRs => Some(Tool::Rust),
            Tool::Reference => Some(Tool::CupRs),
        }
    }
}

#[derive(Debug)]
struct Options {
    runs: usize,
    cold_runs: usize,
    reference_ts: Option<PathBuf>,
    places: Vec<Place>,
}

fn parse_args(args: &[String]) -> anyhow::Result<Option<Options>> {
    let mut options = Options {
        runs: DEFAULT_RUNS,
        cold_runs: MIN_RUNS,
        reference_ts: None,
        places: Place::ALL.to_vec(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--reference-ts" => options.reference_ts = Some(PathBuf::from(value()?)),
            "--runs" | "--cold-runs" => {
                let n: usize = value()?
                    .parse()
                    .with_context(|| format!("{arg} needs a whole number"))?;
                if n < MIN_RUNS {
                    eprintln!("node-capture: {arg} {n} is below the minimum: {MIN_RUNS} are run");
                }
                if arg == "--runs" {
                    options.runs = n.max(MIN_RUNS);
                } else {
                    options.cold_runs = n.max(MIN_RUNS);
                }
            }
            "--on" => {
                options.places = value()?
                    .split(',')
                    .filter(|k| !k.is_empty())
                    .map(|k| {
                        Place::ALL
                            .into_iter()
                            .find(|p| p.key() == k)
                            .with_context(|| format!("unknown place '{k}' (web, gtk3)"))
                    })
                    .collect::<anyhow::Result<_>>()?;
            }
            other => bail!("unknown argument '{other}'\n\n{USAGE}"),
        }
    }
    Ok(Some(options))
}

fn epoch_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

// ---------------------------------------------------------------------------
// cup in process, in a child of this binary (--measure-rust)
// ---------------------------------------------------------------------------

/// Runs in the child: the adapter the Node package makes for the same
/// options (`cup_tools::Target`), on the same kind of runtime (single
/// thread), the same request (`SnapshotRequest::default()`: foreground,
/// compact, 999 levels, 40,000 characters). Prints JSON.
fn measure_rust(args: &[String]) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut platform = "desktop".to_owned();
    let mut cdp_url = None;
    let mut runs = MIN_RUNS;
    let mut cold = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().with_context(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--platform" => platform = value()?.clone(),
            "--cdp-url" => cdp_url = Some(value()?.clone()),
            "--runs" => runs = value()?.parse().context("--runs needs a whole number")?,
            "--cold" => cold = true,
            other => bail!("unknown argument '{other}'"),
        }
    }
    let rt = cup_tools::target::runtime().map_err(anyhow::Error::msg)?;
    let target = cup_tools::Target {
        platform: Some(platform),
        cdp_url,
        ..cup_tools::Target::default()
    };
    let adapter = target.adapter().map_err(anyhow::Error::msg)?;
    let mut session = Session::new(adapter);
    let created = started.elapsed().as_secs_f64() * 1e3;
    let request = SnapshotRequest::default();
    let nodes = |s: &cup::Snapshot| u64::try_from(s.envelope.node_count()).ok();
    let mut out = if cold {
        let t = Instant::now();
        let snap = rt
            .block_on(session.snapshot(&request))
            .map_err(|e| anyhow::anyhow!("the first snapshot: {e}"))?;
        let first = t.elapsed().as_secs_f64() * 1e3;
        json!({
            "times_ms": [started.elapsed().as_secs_f64() * 1e3],
            "text": snap.text,
            "nodes_per_run": [nodes(snap)],
            "init_ms": created,
            "session_ms": created,
            "first_snapshot_ms": first,
            "first_text_epoch_ms": epoch_ms(),
        })
    } else {
        let warm = rt
            .block_on(session.snapshot(&request))
            .map_err(|e| anyhow::anyhow!("the warm-up snapshot: {e}"))?;
        let mut m = Measurement {
            warmup_nodes: nodes(warm),
            init_ms: Some(created),
            ..Measurement::default()
        };
        // What the Node package does beside the capture: every snapshot's
        // envelope as JSON text (timed apart, after each timed capture).
        let mut json_ms = Vec::with_capacity(runs);
        let mut json_bytes = 0;
        for run in 1..=runs.max(1) {
            let cpu = cup_bench::cpu::Clock::start();
            let t = Instant::now();
            let snap = rt
                .block_on(session.snapshot(&request))
                .map_err(|e| anyhow::anyhow!("snapshot {run}: {e}"))?;
            m.times_ms.push(t.elapsed().as_secs_f64() * 1e3);
            m.cpu_ms.extend(cpu.stop());
            m.nodes_per_run.push(nodes(snap));
            m.text.clone_from(&snap.text);
            let t = Instant::now();
            json_bytes = serde_json::to_string(&snap.envelope).map_or(0, |j| j.len());
            json_ms.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let mut out = serde_json::to_value(&m)?;
        out["envelope_json_ms"] = json!(summarize(&json_ms).map(|s| s.median));
        out["envelope_json_bytes"] = json!(json_bytes);
        out
    };
    out["package"] = json!(format!("cup {} (Rust)", env!("CARGO_PKG_VERSION")));
    println!("{out}");
    Ok(())
}

/// How the children reach the place: a command with its environment, the
/// pid to settle on, the browser's address.
struct Env<'a> {
    place: Place,
    pid: u32,
    sandbox: Option<&'a Sandbox>,
    cdp_port: Option<u16>,
}

impl Env<'_> {
    fn command(&self, program: &std::ffi::OsStr, tool: Tool) -> Command {
        let mut c = match self.sandbox {
            Some(s) => s.command(program),
            None => Command::new(program),
        };
        for name in [
            "CUP_PLATFORM",
            "CUP_CDP_URL",
            "CUP_AX_SOURCE",
            "CUP_WEB_INCREMENTAL",
        ] {
            c.env_remove(name);
        }
        if let Some(port) = self.cdp_port {
            // The reference reads these; cup-rs and cup are given the URL.
            c.env("CUP_CDP_HOST", "127.0.0.1")
                .env("CUP_CDP_PORT", port.to_string());
            // Every snapshot walks the page whole, as the reference reads it
            // whole each time (the same work); the repeated row keeps cup's
            // default.
            if tool != Tool::CupRsDefault {
                c.env("CUP_WEB_INCREMENTAL", "0");
            }
        }
        c
    }

    fn cdp_url(&self) -> Option<String> {
        self.cdp_port.map(|p| format!("http://127.0.0.1:{p}"))
    }

    /// The child measuring `tool`: warm with `runs` timed captures, or a
    /// fresh process timing its first capture.
    fn child(
        &self,
        tool: Tool,
        packages: &Packages,
        runs: Option<usize>,
    ) -> Result<Command, String> {
        let mut args: Vec<String> = Vec::new();
        let mut c = if tool == Tool::Rust {
            let exe =
                std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
            let mut c = self.command(exe.as_os_str(), tool);
            c.arg(MEASURE_FLAG);
            c
        } else {
            let module = match tool {
                Tool::Reference => packages.reference.clone()?,
                _ => packages.cup_rs.clone()?,
            };
            let mut c = self.command(std::ffi::OsStr::new("node"), tool);
            c.arg(&packages.script).arg("--module").arg(module);
            c
        };
        args.extend(["--platform".into(), self.place.platform().into()]);
        if let Some(url) = self.cdp_url().filter(|_| tool != Tool::Reference) {
            args.extend(["--cdp-url".into(), url]);
        }
        match runs {
            Some(n) => args.extend(["--runs".into(), n.to_string()]),
            None => args.push("--cold".into()),
        }
        c.args(args);
        Ok(c)
    }

    /// Why the reference's Linux adapter did not run, checked here with
    /// the two calls it starts with: `gdbus --version` (its check that
    /// gdbus is installed) and an AT-SPI call through `gdbus call
    /// --session`, on the desktop's session bus.
    fn diagnose_reference_linux(&self) -> Vec<String> {
        let first_line = |b: &[u8]| {
            String::from_utf8_lossy(b)
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim()
                .to_owned()
        };
        let gdbus = std::ffi::OsStr::new("gdbus");
        let mut notes = Vec::new();
        match self.command(gdbus, Tool::Reference).arg("--version").output() {
            Ok(o) if o.status.success() => {
                notes.push(format!("`gdbus --version` (its check that gdbus is installed) succeeds here: {}", first_line(&o.stdout)));
            }
            Ok(o) => notes.push(format!(
                "diagnosis: `gdbus --version`, the reference's check that gdbus is installed, fails with this machine's gdbus ({}; \"{}\"), so it says gdbus is missing although it is there",
                o.status,
                first_line(&o.stderr)
            )),
            Err(e) => notes.push(format!("diagnosis: gdbus does not run here ({e})")),
        }
        let call = self
            .command(gdbus, Tool::Reference)
            .args([
                "call",
                "--session",
                "--timeout",
                "5",
                "--dest",
                "org.a11y.atspi.Registry",
                "--object-path",
                "/org/a11y/atspi/accessible/root",
                "--method",
                "org.a11y.atspi.Accessible.GetRoleName",
            ])
            .output();
        match call {
            Ok(o) if o.status.success() => notes.push(format!(
                "diagnosis: its AT-SPI calls on the session bus (gdbus call --session --dest org.a11y.atspi.Registry) answer here: {}",
                first_line(&o.stdout)
            )),
            Ok(o) => notes.push(format!(
                "diagnosis: past that check it would still fail: it makes every AT-SPI call with `gdbus call --session --dest org.a11y.atspi.Registry`, and on this desktop's session bus that gives \"{}\" (AT-SPI is served on the accessibility bus, AT_SPI_BUS_ADDRESS, which it never asks for)",
                first_line(&o.stderr)
            )),
            Err(e) => notes.push(format!("diagnosis: gdbus call does not run here ({e})")),
        }
        notes
    }

    /// Waits (untimed) for a quiet machine and an idle app; says so.
    fn settle(&self, what: &str) {
        let m = settle::wait_machine_idle(MACHINE_BUSY, MACHINE_MAX);
        let s = settle::wait_idle(self.pid, SETTLE_MAX);
        let then = if s.idle && m.idle {
            ""
        } else {
            "; timing anyway"
        };
        eprintln!(
            "== {}: {what} (machine {:.1} of {} cores busy{}, app {} at {:.0} % of a core after {:.1} s{then})",
            self.place.label(),
            m.busy,
            m.cpus,
            if m.idle { "" } else { " after 60 s" },
            if s.idle { "settled" } else { "still busy" },
            s.share * 100.0,
            (m.waited + s.waited).as_secs_f64()
        );
    }
}

/// One tool on one place.
#[derive(Debug)]
struct Row {
    place: Place,
    tool: Tool,
    warm: Result<Child, String>,
    cold: Vec<Result<Child, String>>,
    notes: Vec<String>,
}

impl Row {
    fn summary(&self) -> Option<Summary> {
        self.warm
            .as_ref()
            .ok()
            .and_then(|c| summarize(&c.m.times_ms))
    }

    fn cold_values(&self, figure: impl Fn(&Child) -> Option<f64>) -> Vec<f64> {
        self.cold
            .iter()
            .filter_map(|c| c.as_ref().ok())
            .filter_map(figure)
            .collect()
    }

    /// Spawn to the first compact text, over the fresh processes.
    fn cold(&self) -> Option<Summary> {
        summarize(&self.cold_values(|c| c.first_text_ms))
    }

    fn cold_median(&self, figure: impl Fn(&Child) -> Option<f64>) -> Option<f64> {
        summarize(&self.cold_values(figure)).map(|s| s.median)
    }

    fn nodes(&self) -> Vec<u64> {
        let mut all: Vec<u64> = self
            .warm
            .as_ref()
            .map(|c| c.m.nodes_per_run.iter().flatten().copied().collect())
            .unwrap_or_default();
        all.sort_unstable();
        all.dedup();
        all
    }
}

fn find(rows: &[Row], place: Place, tool: Tool) -> Option<&Row> {
    rows.iter().find(|r| r.place == place && r.tool == tool)
}

/// Every tool on one place: warm runs (cup in process and cup-rs in ABBA
/// order, so drift hits both alike), then the fresh processes, round by
/// round.
fn measure(
    rt: &tokio::runtime::Runtime,
    env: &Env<'_>,
    packages: &Packages,
    options: &Options,
) -> Vec<Row> {
    let run = |tool: Tool, runs: Option<usize>, phase: &str| -> Result<Child, String> {
        let cmd = env.child(tool, packages, runs)?;
        env.settle(&format!("{} {phase}", tool.label()));
        let what = format!("{} on {}", tool.label(), env.place.label());
        rt.block_on(run_child(&what, cmd))
    };
    let first = options.runs.div_ceil(2);
    let second = options.runs - first;
    let phase = |n: usize| format!("1 warm-up + {n} runs");
    let rust_a = run(Tool::Rust, Some(first), &phase(first));
    let cup_a = run(Tool::CupRs, Some(first), &phase(first));
    let cup_b = run(Tool::CupRs, Some(second), &phase(second));
    let rust_b = run(Tool::Rust, Some(second), &phase(second));
    let mut tools = vec![
        (Tool::Rust, merge(rust_a, rust_b)),
        (Tool::CupRs, merge(cup_a, cup_b)),
    ];
    if env.place == Place::Web {
        tools.push((
            Tool::CupRsDefault,
            run(Tool::CupRsDefault, Some(options.runs), &phase(options.runs)),
        ));
    }
    tools.push((
        Tool::Reference,
        run(Tool::Reference, Some(options.runs), &phase(options.runs)),
    ));
    let mut rows: Vec<Row> = tools
        .into_iter()
        .map(|(tool, warm)| {
            let notes = match tool {
                Tool::CupRs => packages.cup_rs_notes.clone(),
                Tool::Reference if env.place == Place::Gtk3 && packages.reference.is_ok() => {
                    match &warm {
                        Err(_) => env.diagnose_reference_linux(),
                        Ok(_) => Vec::new(),
                    }
                }
                _ => Vec::new(),
            };
            Row {
                place: env.place,
                tool,
                notes,
                warm,
                cold: Vec::new(),
            }
        })
        .collect();
    for round in 1..=options.cold_runs {
        for row in rows
            .iter_mut()
            .filter(|r| r.warm.is_ok() && r.tool != Tool::CupRsDefault)
        {
            let phase = format!("fresh process {round}/{}", options.cold_runs);
            row.cold.push(run(row.tool, None, &phase));
        }
    }
    rows
}

/// The web place: the large page of `web-capture` served from here, one
/// headless Chromium.
fn on_web(
    rt: &tokio::runtime::Runtime,
    packages: &Packages,
    options: &Options,
) -> anyhow::Result<Vec<Row>> {
    let port =
        web::serve(vec![("/large.html".into(), web::large_page())]).map_err(anyhow::Error::msg)?;
    eprintln!("== starting headless Chromium");
    let browser = Browser::start(&BrowserOptions {
        window_size: (1280, 800),
        ..BrowserOptions::default()
    })
    .context("Chromium did not start (scripts/install-deps.sh installs it)")?;
    let cdp = browser.port();
    let opened = {
        let adapter = cup_web::WebAdapter::new(cup_web::Endpoint::Http {
            host: "127.0.0.1".into(),
            port: cdp,
        });
        rt.block_on(web::open(
            &adapter,
            &format!("http://127.0.0.1:{port}/large.html"),
            "Footer link 20",
        ))
    };
    let rows = opened.map(|()| {
        let env = Env {
            place: Place::Web,
            pid: browser.pid(),
            sandbox: None,
            cdp_port: Some(cdp),
        };
        measure(rt, &env, packages, options)
    });
    browser.stop();
    rows.map_err(anyhow::Error::msg)
}

/// The desktop place: gtk3-widget-factory on a private desktop.
fn on_gtk3(
    rt: &tokio::runtime::Runtime,
    packages: &Packages,
    options: &Options,
) -> anyhow::Result<Vec<Row>> {
    let app = apps::by_key("gtk3").context("gtk3-widget-factory is not in the app list")?;
    eprintln!("== starting a private desktop");
    let sandbox = Sandbox::start(SandboxOptions::default())
        .map_err(|e| anyhow::anyhow!("the private desktop did not start: {e}"))?;
    let scratch = sandbox.state_dir().join("bench");
    let rows = std::fs::create_dir_all(&scratch)
        .map_err(anyhow::Error::from)
        .and_then(|()| app.args(&scratch).map_err(anyhow::Error::from))
        .and_then(|args| {
            eprintln!("== launching {} on {}", app.program, sandbox.display());
            sandbox
                .launch(app.program, &args)
                .map_err(|e| anyhow::anyhow!("{} did not start: {e}", app.program))
        })
        .map(|launched| {
            let env = Env {
                place: Place::Gtk3,
                pid: launched.pid,
                sandbox: Some(&sandbox),
                cdp_port: None,
            };
            measure(rt, &env, packages, options)
        });
    if let Err(e) = sandbox.stop() {
        eprintln!("warning: stopping the private desktop: {e}");
    }
    rows
}

fn bench(options: &Options) -> anyhow::Result<bool> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?;
    let (cup_rs, cup_rs_notes) = cup_rs_module();
    let packages = Packages {
        cup_rs,
        cup_rs_notes,
        reference: reference_module(options.reference_ts.as_deref()),
        script: cup_bench::workspace_root()
            .join("bench")
            .join("peers")
            .join("node_capture.mjs"),
    };
    if let Err(e) = &packages.reference {
        eprintln!("== the reference SDK is not there: {e}");
    }
    let mut rows = Vec::new();
    for place in &options.places {
        rows.extend(match place {
            Place::Web => on_web(&rt, &packages, options)?,
            Place::Gtk3 => on_gtk3(&rt, &packages, options)?,
        });
    }

    println!();
    println!(
        "Node packages taking a foreground snapshot as compact text (`await session.snapshot()`), \
         {} timed captures after 1 warm-up per tool in one process (cup in process and cup-rs: \
         two processes each, in the order cup, cup-rs, cup-rs, cup, halves pooled), and {} fresh \
         processes per tool for the first capture. Web: the web bench's large page in one \
         headless Chromium (1280x800); every snapshot a whole walk (CUP_WEB_INCREMENTAL=0) but \
         the `repeated` row, which is cup-rs's default. Desktop: gtk3-widget-factory on a \
         private desktop (Xvfb 1920x1080, no window manager). cup in process: cup::Session in a \
         child of this binary with the adapter, runtime and request the Node package makes. \
         x: cup-rs against cup in process, the reference against cup-rs. cpu ms: the measuring \
         process's CPU time per capture (every thread), median.",
        options.runs, options.cold_runs
    );
    println!();
    print!("{}", table(&rows));
    println!();
    print!("{}", parts(&rows, options.cold_runs));
    println!();
    let checks = checks(&rows, &options.places);
    print!("{}", check_lines(&checks));
    Ok(checks
        .iter()
        .filter(|c| c.required)
        .all(|c| c.status == Status::Pass))
}

fn main() -> ExitCode {
    cup_bench::init_logs();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(MEASURE_FLAG) {
        return match measure_rust(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("node-capture {MEASURE_FLAG}: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    let result = match parse_args(&args) {
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Some(options)) => bench(&options),
        Err(e) => Err(e),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("node-capture: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
