//! `cup browser start|stop`: a Chromium with remote debugging on a free
//! loopback port and a fresh profile, kept between invocations through a
//! state file; `start` prints the export lines that point `cup` at it.

use std::path::PathBuf;
use std::process::ExitCode;

use cup_sandbox::{Browser, BrowserOptions, BrowserState};

use crate::cli::{BrowserCommand, BrowserStartArgs, BrowserStateArg};
use crate::commands::Failure;
use crate::output;

/// Environment variable naming the state file.
const STATE_ENV: &str = "CUP_BROWSER_STATE";

pub fn run(command: &BrowserCommand) -> Result<ExitCode, Failure> {
    match command {
        BrowserCommand::Start(args) => start(args),
        BrowserCommand::Stop(args) => stop(args),
    }
}

fn state_path(arg: &BrowserStateArg) -> PathBuf {
    crate::state_file::path(arg.state.as_ref(), STATE_ENV, "cup-browser")
}

fn read_state(path: &PathBuf) -> Option<BrowserState> {
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}

fn start(args: &BrowserStartArgs) -> Result<ExitCode, Failure> {
    let path = state_path(&args.state);
    if let Some(old) = read_state(&path) {
        if std::path::Path::new(&format!("/proc/{}", old.pid)).exists() {
            return Err(Failure::usage(format!(
                "a browser started by cup is already running (pid {}, port {}); stop it with `cup browser stop` or pass another --state",
                old.pid, old.port
            )));
        }
    }
    let (w, h) = args
        .size
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)))
        .ok_or_else(|| {
            Failure::usage(format!(
                "--size {:?}: expected WIDTHxHEIGHT, e.g. 1280x800",
                args.size
            ))
        })?;
    let has_display = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty());
    let headless = args.headless || !has_display;
    let browser = Browser::start(&BrowserOptions {
        headless,
        url: args.url.clone(),
        window_size: (w, h),
        ..BrowserOptions::default()
    })
    .map_err(|e| Failure {
        code: 1,
        message: e.to_string(),
    })?;
    let state = browser.save_and_detach(&path).map_err(|e| Failure {
        code: 1,
        message: e.to_string(),
    })?;
    output::print(&format!(
        "export CUP_PLATFORM=web\nexport CUP_CDP_PORT={}\nexport CUP_BROWSER_STATE='{}'\n",
        state.port,
        path.display()
    ))?;
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!(
            "cup: Chromium pid {} ({}), DevTools on 127.0.0.1:{}; next: cup snapshot --platform web --cdp-port {}; end: cup browser stop\n",
            state.pid,
            if headless { "headless" } else { "on $DISPLAY" },
            state.port,
            state.port
        )
        .as_bytes(),
    );
    Ok(ExitCode::SUCCESS)
}

fn stop(args: &BrowserStateArg) -> Result<ExitCode, Failure> {
    let path = state_path(args);
    let state = read_state(&path).ok_or_else(|| Failure {
        code: 1,
        message: format!(
            "no browser state at {}: nothing started by `cup browser start` to stop (pass --state FILE if it was saved elsewhere)",
            path.display()
        ),
    })?;
    Browser::stop_state(&state);
    let _ = std::fs::remove_file(&path);
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!(
            "cup: browser pid {} stopped ({} removed)\n",
            state.pid,
            path.display()
        )
        .as_bytes(),
    );
    Ok(ExitCode::SUCCESS)
}
