//! # cup-bench
//!
//! Side-by-side benchmarks of cup against its peers. The `linux-capture`
//! binary captures the same window on a private headless desktop
//! ([`cup_sandbox`]) with cup (in process, release build), the reference
//! Python CUP SDK (in process, `bench/peers/python_sdk_capture.py`) and the
//! Cua Driver (`get_window_state` over MCP stdio), and prints min and median
//! times, node counts, output sizes in tokens and the targets.
//!
//! Peers are installed by `bench/peers/setup.sh` into `target/bench-peers`.

/// The allocator of the `cup` binary, so cup in process runs as it does
/// there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod actions;
pub mod apps;
pub mod cpu;
pub mod fleet;
pub mod measurement;
pub mod ocr;
pub mod peers;
pub mod report;
/// Waiting for an app to go quiet (shared with the live tests).
pub use cup_sandbox::settle;
pub mod stats;
pub mod tasks;
pub mod tokens;
pub mod web;

use std::path::PathBuf;

/// Logs of cup's own crates to stderr when `CUP_LOG` is set (an
/// `EnvFilter`, e.g. `cup_web=debug`), to see where a measured capture
/// spends its time; nothing otherwise.
pub fn init_logs() {
    if std::env::var_os("CUP_LOG").is_some_and(|v| !v.is_empty()) {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_env("CUP_LOG"))
            .with_writer(std::io::stderr)
            .try_init();
    }
}

/// The workspace root (two levels above this crate).
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .nth(2)
        .map_or_else(|| here.clone(), PathBuf::from)
}

/// Where `bench/peers/setup.sh` installs the peers: `$CUP_BENCH_PEERS`, else
/// `target/bench-peers` in the workspace.
pub fn peers_dir() -> PathBuf {
    std::env::var_os("CUP_BENCH_PEERS")
        .filter(|v| !v.is_empty())
        .map_or_else(
            || workspace_root().join("target").join("bench-peers"),
            PathBuf::from,
        )
}

/// Parses the `--runs N` (and `-h`/`--help`) arguments of a benchmark
/// binary: `Ok(None)` asks for the usage text.
///
/// # Errors
///
/// An unknown argument or a bad number (with `usage` appended).
pub fn parse_runs(args: &[String], usage: &str) -> Result<Option<usize>, String> {
    let mut runs = 7;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--runs" => {
                runs = it
                    .next()
                    .ok_or("--runs needs a value")?
                    .parse()
                    .map_err(|_| "--runs needs a whole number".to_owned())?;
                if runs == 0 {
                    return Err("--runs must be at least 1".into());
                }
            }
            other => return Err(format!("unknown argument '{other}'\n\n{usage}")),
        }
    }
    Ok(Some(runs))
}

/// The hint printed with every peer that is not installed.
pub const SETUP_HINT: &str = "run bench/peers/setup.sh (as root) first";
