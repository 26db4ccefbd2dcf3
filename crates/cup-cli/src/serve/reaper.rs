//! Reaping as PID 1. In a container without an init, `cup serve` is PID 1:
//! processes whose parent died (the AT-SPI registry, an app's helpers) are
//! handed to it, and each stays a zombie until PID 1 collects it. Every
//! second, and whenever asked, the zombies that are not cup's own children
//! (those are collected by whoever started them, through their `Child`)
//! are reaped.

use std::collections::HashSet;

use rustix::process::{Pid, WaitOptions};

/// Zombie processes whose parent is this process.
fn own_zombies() -> Vec<u32> {
    let me = std::process::id();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                return false;
            };
            // After the command name in parentheses: state, ppid.
            let Some(rest) = stat.rfind(')').and_then(|i| stat.get(i + 1..)) else {
                return false;
            };
            let mut fields = rest.split_whitespace();
            fields.next() == Some("Z") && fields.next().and_then(|p| p.parse().ok()) == Some(me)
        })
        .collect()
}

/// Collects the zombies handed to this process, leaving `keep` (pids
/// whose `Child` its owner waits for); returns how many it collected.
pub fn reap(keep: &HashSet<u32>) -> usize {
    let mut reaped = 0;
    for pid in own_zombies() {
        if keep.contains(&pid) {
            continue;
        }
        let Some(p) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
            continue;
        };
        if let Ok(Some(_)) = rustix::process::waitpid(Some(p), WaitOptions::NOHANG) {
            reaped += 1;
            tracing::debug!(pid, "reaped an orphan");
        }
    }
    reaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zombie_child_is_reaped_unless_kept() {
        let child = std::process::Command::new("true").spawn();
        let Ok(child) = child else {
            panic!("cannot run `true`");
        };
        let pid = child.id();
        // Wait until it is a zombie.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !own_zombies().contains(&pid) {
            assert!(std::time::Instant::now() < deadline, "no zombie");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // Other tests' children are kept: only this one may go.
        let others =
            || -> HashSet<u32> { own_zombies().into_iter().filter(|p| *p != pid).collect() };
        let mut keep = others();
        keep.insert(pid);
        assert_eq!(reap(&keep), 0);
        assert!(own_zombies().contains(&pid));
        assert_eq!(reap(&others()), 1);
        assert!(!own_zombies().contains(&pid));
        drop(child);
    }
}
