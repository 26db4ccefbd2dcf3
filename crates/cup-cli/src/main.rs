//! `cup`: the Computer Use Protocol command line.
//!
//! A thin binary over the `cup-protocol` library. Exit codes:
//! 0 success; 1 the command ran but its answer is negative (`validate` found
//! violations, `find` matched nothing); 2 bad usage or unreadable input.

mod cli;
mod commands;
mod input;
mod last;
mod mcp;
mod output;
mod platform;
#[cfg(target_os = "linux")]
mod serve;
mod state_file;

use std::process::ExitCode;

/// A capture makes tens of thousands of small, short-lived allocations;
/// glibc's malloc spent about 17 % of cup's CPU on them.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;

/// Deep trees recurse deeply (JSON nesting, pruning, rendering): run the
/// command on a thread with a large stack instead of the 8 MiB main thread.
const STACK_BYTES: usize = 512 * 1024 * 1024;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    platform::configure(&cli.target);
    // Logs go to stderr (stdout carries results and, later, MCP).
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("CUP_LOG"))
        .with_writer(std::io::stderr)
        .init();
    let worker = std::thread::Builder::new()
        .name("cup".into())
        .stack_size(STACK_BYTES)
        .spawn(move || commands::run(cli));
    let result = match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            Err(commands::Failure::usage(
                "internal error: the command panicked",
            ))
        }),
        Err(e) => Err(commands::Failure::usage(format!(
            "cannot start the worker thread: {e}"
        ))),
    };
    match result {
        Ok(code) => code,
        Err(failure) => {
            output::error_line(&failure.message);
            ExitCode::from(failure.code)
        }
    }
}
