//! `open_app`: find an installed application by name (desktop entries,
//! [`matcher`]), start it without a shell ([`exec`]) on the adapter's
//! desktop, and wait until a window of that process is visible.

pub mod discover;
pub mod entry;
pub mod exec;
pub mod list;
pub mod matcher;

use std::process::{Command, Stdio};
use std::time::Duration;

use cup::{Adapter, AdapterError, Launched};
use std::os::unix::process::CommandExt;

use crate::adapter::LinuxAdapter;

/// How long to wait for the window.
pub const WINDOW_TIMEOUT: Duration = Duration::from_secs(20);

/// Parent pid of `pid` (from /proc).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Whether `pid` is `root` or one of its descendants.
fn descends_from(mut pid: u32, root: u32) -> bool {
    for _ in 0..64 {
        if pid == root {
            return true;
        }
        match parent_of(pid) {
            Some(p) if p > 1 => pid = p,
            _ => return false,
        }
    }
    false
}

/// Launches the best match for `name` (with `args` after the entry's own
/// arguments: files, URLs, flags) and waits for its window.
pub async fn open(
    adapter: &LinuxAdapter,
    name: &str,
    args: &[String],
) -> Result<Launched, AdapterError> {
    let installed = tokio::task::spawn_blocking(discover::installed)
        .await
        .map_err(|e| AdapterError::Platform(format!("app discovery failed: {e}")))?;
    if installed.is_empty() {
        return Err(AdapterError::NotFound(format!(
            "no installed applications found in {}; install the app or check XDG_DATA_DIRS",
            discover::application_dirs()
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let entries: Vec<entry::Entry> = installed.iter().map(|(e, _)| e.clone()).collect();
    let Some((chosen, _)) = matcher::best(name, &entries) else {
        let mut names: Vec<&str> = entries
            .iter()
            .filter(|e| !e.no_display)
            .map(|e| e.name.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        return Err(AdapterError::NotFound(format!(
            "no installed app matches {name:?}; installed: {}",
            names.join(", ")
        )));
    };
    let file = installed
        .iter()
        .find(|(e, _)| e.id == chosen.id)
        .map(|(_, p)| p.display().to_string())
        .unwrap_or_default();
    let extra = args;
    let argv =
        exec::command_line(chosen, &file).map_err(|e| AdapterError::Platform(e.to_string()))?;
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| AdapterError::Platform(format!("{}: empty Exec line", chosen.id)))?;

    let desktop = adapter.desktop();
    let mut command = Command::new(program);
    command
        .args(args)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    if let Some(d) = &desktop.display {
        command.env("DISPLAY", d);
    }
    if let Some(x) = &desktop.xauthority {
        command.env("XAUTHORITY", x);
    }
    if let Some(b) = &desktop.session_bus {
        command.env("DBUS_SESSION_BUS_ADDRESS", b);
    }
    if let Some(b) = &desktop.a11y_bus {
        command.env("AT_SPI_BUS_ADDRESS", b);
    }
    // A Wayland desktop's clients find its compositor (an absolute path
    // works without XDG_RUNTIME_DIR), and sway's IPC.
    if let Some(w) = &desktop.wayland {
        command.env("WAYLAND_DISPLAY", w);
    }
    if let Some(s) = &desktop.swaysock {
        command.env("SWAYSOCK", s);
    }
    if let Some(dir) = &chosen.path {
        command.current_dir(dir);
    }
    let mut child = command.spawn().map_err(|e| {
        AdapterError::Platform(format!(
            "cannot start {} ({program}): {e}; check that it is installed",
            chosen.name
        ))
    })?;
    let pid = child.id();
    // Reap it whenever it exits (a long-lived server must not collect zombies).
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    tracing::info!(app = %chosen.name, id = %chosen.id, pid, "launched");

    let deadline = tokio::time::Instant::now() + WINDOW_TIMEOUT;
    let mut step = Duration::from_millis(50);
    loop {
        if let Ok(windows) = adapter.windows().await {
            let mine = windows.into_iter().find(|w| {
                w.info
                    .pid
                    .and_then(|p| u32::try_from(p).ok())
                    .is_some_and(|p| descends_from(p, pid))
            });
            if let Some(window) = mine {
                return Ok(Launched {
                    name: chosen.name.clone(),
                    pid,
                    window: Some(window),
                });
            }
        }
        if tokio::time::Instant::now() >= deadline {
            return Ok(Launched {
                name: chosen.name.clone(),
                pid,
                window: None,
            });
        }
        tokio::time::sleep(step).await;
        step = (step * 2).min(Duration::from_millis(400));
    }
}
