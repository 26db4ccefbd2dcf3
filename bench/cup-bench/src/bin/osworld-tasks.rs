//! `osworld-tasks`: the task suite in the style of OSWorld's (see
//! `cup_bench::tasks`), each task run N times in a row, each run on a
//! private desktop of its own, through `cup mcp` and the official MCP
//! client. Prints per task: passes, acting steps, tool calls, o200k tokens
//! the agent read and wall time (medians of the runs); exits 1 when a run
//! failed, with what failed and the calls it made.
//!
//!   cargo run -p cup-bench --bin osworld-tasks -- [--runs 3] [--tasks calc-sum,files-rename] [--cup target/debug/cup]
//!
//! The test command runs it with the debug cup, three runs.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cup_bench::tasks::{self, Outcome};

const USAGE: &str = "usage: osworld-tasks [--runs N] [--tasks KEY,KEY...] [--cup PATH]";

struct Options {
    runs: usize,
    only: Option<Vec<String>>,
    cup: PathBuf,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        runs: 3,
        only: None,
        cup: cup_bench::workspace_root()
            .join("target")
            .join("debug")
            .join("cup"),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--runs" => {
                options.runs = value()?
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("--runs needs a whole number above 0\n{USAGE}"))?;
            }
            "--tasks" => options.only = Some(value()?.split(',').map(str::to_owned).collect()),
            "--cup" => options.cup = PathBuf::from(value()?),
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(options)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() -> ExitCode {
    cup_bench::init_logs();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if !options.cup.is_file() {
        eprintln!(
            "osworld-tasks: {} is missing: build it (cargo build -p cup-cli) or give --cup PATH",
            options.cup.display()
        );
        return ExitCode::from(2);
    }
    let all = tasks::all();
    if let Some(only) = &options.only {
        if let Some(unknown) = only.iter().find(|k| !all.iter().any(|t| &t.key == k)) {
            let keys: Vec<&str> = all.iter().map(|t| t.key).collect();
            eprintln!(
                "osworld-tasks: no task {unknown:?}; the tasks: {}",
                keys.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let chosen: Vec<_> = all
        .iter()
        .filter(|t| {
            options
                .only
                .as_ref()
                .is_none_or(|o| o.iter().any(|k| k == t.key))
        })
        .collect();
    let started = Instant::now();
    let mut results: Vec<Vec<Outcome>> = vec![Vec::new(); chosen.len()];
    for run in 1..=options.runs {
        for (i, task) in chosen.iter().enumerate() {
            let outcome = tasks::run(task, &options.cup);
            let verdict = match &outcome.result {
                Ok(()) => "pass".to_owned(),
                Err(e) => format!("FAIL: {}", e.lines().next().unwrap_or_default()),
            };
            eprintln!(
                "== run {run}/{} {:<18} {verdict} ({} steps, {} calls, {} tokens, {:.1} s)",
                options.runs,
                task.key,
                outcome.steps,
                outcome.calls,
                outcome.tokens,
                outcome.wall.as_secs_f64()
            );
            if let Err(e) = &outcome.result {
                eprintln!("{e}\n-- the calls:\n{}", outcome.transcript.join("\n"));
            }
            results[i].push(outcome);
        }
    }
    println!(
        "\n{} tasks x {} runs through `cup mcp` ({}) and the official MCP client, {:.0} s",
        chosen.len(),
        options.runs,
        options.cup.display(),
        started.elapsed().as_secs_f64()
    );
    println!("| task | app | goal | passed | steps | tool calls | tokens read | wall s |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut passed = 0;
    let mut total = 0;
    for (task, outcomes) in chosen.iter().zip(&results) {
        let ok = outcomes.iter().filter(|o| o.result.is_ok()).count();
        passed += ok;
        total += outcomes.len();
        let m = |f: &dyn Fn(&Outcome) -> f64| median(outcomes.iter().map(f).collect());
        println!(
            "| {} | {} | {} | {ok}/{} | {:.0} | {:.0} | {:.0} | {:.1} |",
            task.key,
            task.app,
            task.goal,
            outcomes.len(),
            m(&|o| o.steps as f64),
            m(&|o| o.calls as f64),
            m(&|o| o.tokens as f64),
            m(&|o| o.wall.as_secs_f64()),
        );
    }
    println!("\n{passed}/{total} task runs passed (medians of the runs per task)");
    if passed == total {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
