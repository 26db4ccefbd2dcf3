//! Process bookkeeping through `/proc` and the `kill` program (the workspace
//! forbids `unsafe`, so no `libc::kill`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::error::SandboxError;

/// One line of `/proc/PID/stat`, the fields the sandbox needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ProcStat {
    pub pid: u32,
    /// `R`, `S`, `D`, `Z` (zombie), `X` (dead), ...
    pub state: char,
    pub ppid: u32,
    pub pgid: u32,
    /// Clock ticks since boot; with the pid it names one process for good.
    pub start_time: u64,
}

impl ProcStat {
    /// Running, sleeping or stopped: anything but a zombie or a dead task.
    /// (The main thread alone may show `Z` while other threads still run;
    /// [`stat`] reports such a process as `D`, so it counts as live.)
    pub fn is_live(&self) -> bool {
        !is_dead_state(self.state)
    }
}

fn is_dead_state(state: char) -> bool {
    matches!(state, 'Z' | 'X' | 'x')
}

/// Whether some thread of `pid` other than a zombie main thread still runs.
fn has_live_thread(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.filter_map(Result::ok).any(|task| {
        std::fs::read_to_string(task.path().join("stat"))
            .ok()
            .and_then(|text| parse_stat(&text))
            .is_some_and(|t| !is_dead_state(t.state))
    })
}

/// Parses the text of `/proc/PID/stat`. The command name (field 2) is in
/// parentheses and may itself contain spaces and parentheses, so the fields
/// are counted from the last `)`.
/// How busy the machine is, for a time-out's message: ` (load average
/// 3.42 over the last minute on 2 cores: a loaded machine starts programs
/// slowly)`, or nothing when /proc/loadavg cannot be read.
pub(crate) fn load_note() -> String {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| parse_load(&s))
        .map(|load| {
            let why = if load >= cores as f64 {
                ": a loaded machine starts programs slowly"
            } else {
                ""
            };
            format!(" (load average {load:.2} over the last minute on {cores} cores{why})")
        })
        .unwrap_or_default()
}

/// The one-minute load average of a /proc/loadavg line.
pub(crate) fn parse_load(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok()
}

pub(crate) fn parse_stat(text: &str) -> Option<ProcStat> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let pid = text.get(..open)?.trim().parse().ok()?;
    let rest: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    Some(ProcStat {
        pid,
        state: rest.first()?.chars().next()?,
        ppid: rest.get(1)?.parse().ok()?,
        pgid: rest.get(2)?.parse().ok()?,
        start_time: rest.get(19)?.parse().ok()?,
    })
}

/// The stat of `pid`, or `None` once the process is gone (reaped).
pub(crate) fn stat(pid: u32) -> Option<ProcStat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut stat = parse_stat(&text)?;
    // A multi-threaded process whose main thread exited first looks like a
    // zombie, but cannot be reaped before its last thread ends (Chromium
    // does this on SIGTERM).
    if stat.state == 'Z' && has_live_thread(pid) {
        stat.state = 'D';
    }
    Some(stat)
}

/// Every process visible in `/proc`.
pub(crate) fn all() -> Vec<ProcStat> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|entry| {
        let name = entry.ok()?.file_name();
        let pid: u32 = name.to_str()?.parse().ok()?;
        stat(pid)
    })
    .collect()
}

/// `true` while `pid` is the process that started at `start_time` and is
/// not a zombie.
pub(crate) fn is_running(pid: u32, start_time: u64) -> bool {
    stat(pid).is_some_and(|s| s.start_time == start_time && s.is_live())
}

/// The program name of a process: the file name of `argv[0]` (what
/// `/proc/PID/cmdline` starts with), else the kernel's `comm`.
pub(crate) fn program_name(pid: u32) -> Option<String> {
    if let Ok(bytes) = std::fs::read(format!("/proc/{pid}/cmdline")) {
        let argv0 = bytes.split(|&b| b == 0).next().unwrap_or_default();
        if !argv0.is_empty() {
            let argv0 = String::from_utf8_lossy(argv0);
            // Chromium rewrites its command line as one space-separated string.
            let first = argv0.split(' ').next().unwrap_or_default();
            return Some(basename(first));
        }
    }
    let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    Some(comm.trim_end().to_owned())
}

/// The last component of a path, as a string.
pub(crate) fn basename(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
}

/// Whether the initial environment of `pid` holds exactly the entry `entry`
/// (`NAME=value`). Unreadable (other user, gone) means no.
pub(crate) fn environ_has(pid: u32, entry: &[u8]) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|bytes| bytes.split(|&b| b == 0).any(|e| e == entry))
}

/// `pid`, its parent, its parent's parent, ... up to PID 1.
pub(crate) fn self_and_ancestors(pid: u32) -> Vec<u32> {
    let mut chain = vec![pid];
    let mut current = pid;
    while let Some(s) = stat(current) {
        if s.ppid == 0 || chain.contains(&s.ppid) {
            break;
        }
        chain.push(s.ppid);
        current = s.ppid;
    }
    chain
}

/// Whether `ancestor` is `pid` or one of its ancestors.
pub(crate) fn descends_from(pid: u32, ancestor: u32) -> bool {
    self_and_ancestors(pid).contains(&ancestor)
}

/// Sends `signal` ("TERM", "KILL") to each pid with one run of `kill`.
/// Pids that are already gone are ignored.
pub(crate) fn signal(pids: &[u32], signal: &str) -> Result<(), SandboxError> {
    if pids.is_empty() {
        return Ok(());
    }
    let kill = find_program("kill").ok_or_else(|| crate::missing("kill"))?;
    tracing::debug!(?pids, signal, "signalling");
    let status = Command::new(kill)
        .arg("-s")
        .arg(signal)
        .arg("--")
        .args(pids.iter().map(u32::to_string))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|source| SandboxError::Spawn {
            program: "kill".into(),
            source,
        })?;
    // A non-zero status only means that some pid was already gone.
    tracing::trace!(%status, "kill finished");
    Ok(())
}

/// Polls until none of `targets` (pid, start time) is running any more, or
/// `timeout` passes; `reap` runs on every round (to wait for our own
/// children). Returns the ones still running.
pub(crate) fn wait_gone(
    targets: &[(u32, u64)],
    timeout: Duration,
    mut reap: impl FnMut(),
) -> Vec<(u32, u64)> {
    let deadline = Instant::now() + timeout;
    loop {
        reap();
        let left: Vec<(u32, u64)> = targets
            .iter()
            .copied()
            .filter(|&(pid, start)| is_running(pid, start))
            .collect();
        if left.is_empty() || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Looks `name` up like a shell: an absolute or relative path is taken as
/// is, otherwise each directory of `PATH` (then /usr/sbin, /sbin) is tried.
pub(crate) fn find_program(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if name.contains('/') {
        let p = PathBuf::from(name);
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin", "/bin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|p| executable(p))
}

/// The last `lines` lines of a log file, for error messages.
pub(crate) fn log_tail(path: &Path, lines: usize) -> String {
    let Ok(bytes) = std::fs::read(path) else {
        return String::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    all[all.len().saturating_sub(lines)..].join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_average_is_read() {
        assert_eq!(parse_load("3.42 2.10 1.05 3/512 12345\n"), Some(3.42));
        assert_eq!(parse_load(""), None);
        assert!(load_note().is_empty() || load_note().contains("load average"));
    }

    #[test]
    fn parses_stat_with_odd_command_names() {
        let line =
            "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 987654 1000 10";
        let s = parse_stat(line).expect("parses");
        assert_eq!(s.pid, 4242);
        assert_eq!(s.state, 'S');
        assert_eq!(s.ppid, 1);
        assert_eq!(s.pgid, 4242);
        assert_eq!(s.start_time, 987_654);
        assert!(s.is_live());
        assert!(parse_stat("garbage").is_none());
    }

    #[test]
    fn reads_own_process() {
        let me = std::process::id();
        let s = stat(me).expect("own stat");
        assert!(is_running(me, s.start_time));
        assert!(!is_running(me, s.start_time + 1));
        assert!(self_and_ancestors(me).len() >= 2);
        assert!(program_name(me).is_some());
    }
}
