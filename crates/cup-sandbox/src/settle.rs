//! Waiting for an app to go quiet: before a bench times a tool on it, and
//! before a live test reads an app that lays itself out after it shows.
//!
//! An app is busy for a while after it shows its window: Chromium loads
//! the page, builds its accessibility tree and starts helper processes
//! (its first seconds run at ~95 % of a core here). Whichever tool is timed
//! first would pay for that, so before each tool the bench waits until the
//! app's process tree uses (or waits to use: a loaded machine) less than
//! [`IDLE_SHARE`] of a core over
//! [`WINDOW`], or holds steady below [`STEADY_MAX`] (an app that animates
//! all the time, like gtk3-widget-factory's spinner at ~20 %), for at most
//! a given time.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Below this share of one core, the app counts as idle.
pub const IDLE_SHARE: f64 = 0.05;
/// Two windows in a row within this share of each other, both below
/// [`STEADY_MAX`], count as steady background work.
pub const STEADY_BAND: f64 = 0.05;
/// Above this share of one core, the app is still starting up.
pub const STEADY_MAX: f64 = 0.5;
/// The window CPU use is measured over.
pub const WINDOW: Duration = Duration::from_millis(500);
/// Clock ticks per second of `/proc/<pid>/stat` (`USER_HZ`, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// How the wait ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settled {
    /// Time spent waiting.
    pub waited: Duration,
    /// CPU share of one core in the last window.
    pub share: f64,
    /// `true` when the share fell below [`IDLE_SHARE`], or held steady,
    /// in time.
    pub idle: bool,
}

/// Whether the app is done starting up, from the CPU share of the last
/// two windows.
pub fn settled(previous: Option<f64>, share: f64) -> bool {
    share < IDLE_SHARE
        || previous.is_some_and(|p| {
            p < STEADY_MAX && share < STEADY_MAX && (p - share).abs() < STEADY_BAND
        })
}

/// Parent pid and CPU ticks (user + system) from the text of
/// `/proc/<pid>/stat`; `None` when it does not parse.
pub fn parse_stat(text: &str) -> Option<(u32, u64)> {
    // The command name (field 2) is in parentheses and may hold spaces or
    // parentheses itself: the fields after it start past the last ')'.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // rest[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
    let ppid = fields.get(1)?.parse().ok()?;
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((ppid, utime + stime))
}

/// Ticks the threads of the process at `dir` (`/proc/<pid>`) have waited
/// to run so far: the second field of each thread's `schedstat`, in
/// nanoseconds. On a loaded machine a busy process gets only part of a
/// core and waits for the rest; counting the wait keeps its demand near a
/// whole core, where its CPU use alone would look like steady background
/// work. 0 without schedstats.
fn waited_ticks(dir: &std::path::Path) -> u64 {
    let Ok(tasks) = std::fs::read_dir(dir.join("task")) else {
        return 0;
    };
    let nanos: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|text| text.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum();
    nanos / (1_000_000_000 / TICKS_PER_SECOND as u64)
}

/// CPU ticks used, and waited for, so far by `root` and all its
/// descendants (processes
/// that ended are not counted, which only makes the app look quieter for
/// one window).
fn tree_ticks(root: u32) -> u64 {
    let mut procs: HashMap<u32, (u32, u64)> = HashMap::new();
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for entry in dir.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
                continue;
            };
            if let Some((ppid, ticks)) = std::fs::read_to_string(entry.path().join("stat"))
                .ok()
                .as_deref()
                .and_then(parse_stat)
            {
                procs.insert(pid, (ppid, ticks + waited_ticks(&entry.path())));
            }
        }
    }
    tree_sum(root, &procs)
}

/// Sum of the ticks of `root` and its descendants in `procs` (pid →
/// (ppid, ticks)).
pub fn tree_sum(root: u32, procs: &HashMap<u32, (u32, u64)>) -> u64 {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for (&pid, &(ppid, _)) in procs {
        children.entry(ppid).or_default().push(pid);
    }
    let mut total = 0;
    let mut stack = vec![root];
    while let Some(pid) = stack.pop() {
        if let Some(&(_, ticks)) = procs.get(&pid) {
            total += ticks;
        }
        if let Some(kids) = children.get(&pid) {
            stack.extend(kids.iter().filter(|&&k| k != pid));
        }
    }
    total
}

/// Waits until the process tree of `root` is [`settled`], or `max` has
/// passed.
pub fn wait_idle(root: u32, max: Duration) -> Settled {
    let started = Instant::now();
    let mut before = tree_ticks(root);
    let mut previous = None;
    loop {
        std::thread::sleep(WINDOW);
        let now = tree_ticks(root);
        let share = now.saturating_sub(before) as f64 / TICKS_PER_SECOND / WINDOW.as_secs_f64();
        before = now;
        let idle = settled(previous, share);
        previous = Some(share);
        if idle || started.elapsed() >= max {
            return Settled {
                waited: started.elapsed(),
                share,
                idle,
            };
        }
    }
}

/// The whole machine's busy and total CPU ticks (every CPU, since boot)
/// and its CPU count, from the text of `/proc/stat`: busy is everything
/// but idle and iowait; `None` when the first line does not parse.
pub fn parse_machine_stat(text: &str) -> Option<(u64, u64, usize)> {
    let first = text.lines().next()?;
    let mut fields = first.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    let values: Vec<u64> = fields.map(str::parse).collect::<Result<_, _>>().ok()?;
    // user nice system idle iowait irq softirq steal (guest counts are
    // already in user and nice).
    let total: u64 = values.iter().take(8).sum();
    let idle = values.get(3)? + values.get(4).copied().unwrap_or(0);
    let cpus = text
        .lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count()
        .max(1);
    Some((total.saturating_sub(idle), total, cpus))
}

fn machine_ticks() -> Option<(u64, u64, usize)> {
    parse_machine_stat(&std::fs::read_to_string("/proc/stat").ok()?)
}

/// How a wait for a quiet machine ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Machine {
    /// Time spent waiting.
    pub waited: Duration,
    /// Cores busy (of [`Machine::cpus`]) in the last window, every process.
    pub busy: f64,
    /// CPUs of the machine.
    pub cpus: usize,
    /// `true` when `busy` fell to the limit in time.
    pub idle: bool,
}

/// Waits until the whole machine uses at most `max_busy` cores over
/// [`WINDOW`] (another program's build or test would move the timings on
/// a machine of 2 cores), or `max` has passed. The app under test counts
/// too: give a limit above its steady use.
pub fn wait_machine_idle(max_busy: f64, max: Duration) -> Machine {
    let started = Instant::now();
    let Some(mut before) = machine_ticks() else {
        return Machine {
            waited: Duration::ZERO,
            busy: f64::NAN,
            cpus: 0,
            idle: true,
        };
    };
    loop {
        std::thread::sleep(WINDOW);
        let Some(now) = machine_ticks() else {
            return Machine {
                waited: started.elapsed(),
                busy: f64::NAN,
                cpus: before.2,
                idle: true,
            };
        };
        let busy = now.0.saturating_sub(before.0) as f64;
        let total = now.1.saturating_sub(before.1) as f64;
        let cores = if total > 0.0 {
            busy / total * now.2 as f64
        } else {
            0.0
        };
        before = now;
        let idle = cores <= max_busy;
        if idle || started.elapsed() >= max {
            return Machine {
                waited: started.elapsed(),
                busy: cores,
                cpus: now.2,
                idle,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_with_odd_command_names() {
        let line = "4242 (Web Content (x)) S 4200 4242 4242 0 -1 4194560 100 0 0 0 \
                    250 75 0 0 20 0 12 0 123456 1000000 500 18446744073709551615";
        assert_eq!(parse_stat(line), Some((4200, 325)));
        assert_eq!(parse_stat("garbage"), None);
        assert_eq!(parse_stat("1 (x) S"), None);
    }

    #[test]
    fn sums_the_whole_tree_only() {
        let procs: HashMap<u32, (u32, u64)> = [
            (10, (1, 5)),   // root
            (11, (10, 7)),  // child
            (12, (11, 11)), // grandchild
            (20, (1, 100)), // unrelated
        ]
        .into_iter()
        .collect();
        assert_eq!(tree_sum(10, &procs), 23);
        assert_eq!(tree_sum(11, &procs), 18);
        assert_eq!(tree_sum(99, &procs), 0);
    }

    #[test]
    fn settles_when_quiet_or_steady_below_half_a_core() {
        assert!(settled(None, 0.0));
        assert!(!settled(None, 0.22));
        // gtk3-widget-factory's spinner: ~22 % all the time.
        assert!(settled(Some(0.22), 0.20));
        // Chromium starting: busy, then falling.
        assert!(!settled(Some(0.94), 0.95));
        assert!(!settled(Some(0.94), 0.17));
        assert!(settled(Some(0.17), 0.02));
    }

    #[test]
    fn a_process_that_sleeps_is_idle() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep(1) runs");
        let settled = wait_idle(child.id(), Duration::from_secs(3));
        let _ = child.kill();
        let _ = child.wait();
        assert!(settled.idle, "{settled:?}");
    }

    #[test]
    fn a_busy_process_is_not_idle() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .expect("sh runs");
        let settled = wait_idle(child.id(), Duration::from_millis(1200));
        let _ = child.kill();
        let _ = child.wait();
        assert!(!settled.idle, "{settled:?}");
        assert!(settled.share > 0.2, "{settled:?}");
    }

    #[test]
    fn parses_the_machine_line_of_proc_stat() {
        let text = "cpu  100 5 50 800 20 3 2 0 0 0\ncpu0 50 2 25 400 10 1 1 0 0 0\ncpu1 50 3 25 400 10 2 1 0 0 0\nintr 1 2 3\n";
        // busy = 100 + 5 + 50 + 3 + 2 = 160; total = 980.
        assert_eq!(parse_machine_stat(text), Some((160, 980, 2)));
        assert_eq!(parse_machine_stat("intr 1 2"), None);
        assert_eq!(parse_machine_stat(""), None);
    }
}
