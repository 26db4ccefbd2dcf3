//! `list_apps`: the installed applications (desktop entries shown in menus)
//! and the running ones (processes that own a window), joined by program
//! name. Processes without a window are not apps and are not listed.

use std::collections::BTreeMap;
use std::path::Path;

use cup::{AppEntry, WindowHandle};

use super::entry::Entry;
use super::exec;

/// The program an entry runs (basename of its first Exec word).
fn program_of(entry: &Entry) -> Option<String> {
    let argv = exec::command_line(entry, "").ok()?;
    let first = argv.first()?;
    let base = Path::new(first).file_name()?.to_string_lossy().into_owned();
    // `env VAR=x prog` and interpreters: the last word before the arguments
    // is not known in general; the first is what /proc shows for most.
    Some(base)
}

/// Names a process goes by: its executable's basename and its `comm`
/// (which the kernel cuts to 15 bytes).
fn process_names(pid: u32) -> Vec<String> {
    let mut names = Vec::new();
    if let Ok(exe) = std::fs::read_link(format!("/proc/{pid}/exe")) {
        if let Some(base) = exe.file_name() {
            names.push(base.to_string_lossy().into_owned());
        }
    }
    if let Ok(comm) = std::fs::read_to_string(format!("/proc/{pid}/comm")) {
        names.push(comm.trim().to_owned());
    }
    names
}

/// Joins `installed` entries with the processes of `windows`. Entries
/// hidden from menus (`NoDisplay`) are listed only while running.
pub fn join(installed: &[Entry], windows: &[WindowHandle]) -> Vec<AppEntry> {
    let mut by_pid: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for w in windows {
        if let Some(pid) = w.info.pid.and_then(|p| u32::try_from(p).ok()) {
            by_pid.entry(pid).or_default().push(w.info.title.clone());
        }
    }
    let listed: Vec<&Entry> = installed.iter().filter(|e| !e.hidden).collect();
    let mut apps: Vec<AppEntry> = listed
        .iter()
        .map(|e| AppEntry {
            name: e.name.clone(),
            id: e.id.clone(),
            pids: Vec::new(),
            windows: Vec::new(),
            installed: true,
        })
        .collect();
    let programs: Vec<Option<String>> = listed.iter().map(|e| program_of(e)).collect();
    for (pid, titles) in by_pid {
        let names = process_names(pid);
        let slot = programs.iter().position(|p| {
            p.as_ref()
                .is_some_and(|p| names.iter().any(|n| n == p || p.starts_with(n.as_str())))
        });
        match slot.and_then(|i| apps.get_mut(i)) {
            Some(app) => {
                app.pids.push(pid);
                app.windows.extend(titles);
            }
            None => apps.push(AppEntry {
                name: titles
                    .first()
                    .cloned()
                    .or_else(|| names.first().cloned())
                    .unwrap_or_else(|| format!("pid {pid}")),
                id: names.first().cloned().unwrap_or_default(),
                pids: vec![pid],
                windows: titles,
                installed: false,
            }),
        }
    }
    let mut apps: Vec<AppEntry> = apps
        .into_iter()
        .zip(
            listed
                .iter()
                .map(|e| e.no_display)
                .chain(std::iter::repeat(false)),
        )
        .filter(|(a, no_display)| !no_display || !a.pids.is_empty())
        .map(|(a, _)| a)
        .collect();
    // Running first, then by name.
    apps.sort_by(|a, b| {
        a.pids
            .is_empty()
            .cmp(&b.pids.is_empty())
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    apps
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::WindowInfo;

    #[test]
    fn running_apps_come_first_and_windowless_entries_are_installed_only() {
        let entries = vec![
            Entry {
                id: "zeta".into(),
                name: "Zeta".into(),
                exec: "zeta %U".into(),
                ..Entry::default()
            },
            Entry {
                id: "hidden".into(),
                name: "Hidden".into(),
                exec: "h".into(),
                no_display: true,
                ..Entry::default()
            },
            Entry {
                id: "alpha".into(),
                name: "Alpha".into(),
                exec: "alpha".into(),
                ..Entry::default()
            },
        ];
        // This test process owns the window: it is running, and no entry runs it.
        let me = std::process::id();
        let windows = vec![WindowHandle {
            info: WindowInfo {
                title: "Mine".into(),
                pid: Some(i64::from(me)),
                ..WindowInfo::default()
            },
            native: String::new(),
        }];
        let apps = join(&entries, &windows);
        let names: Vec<&str> = apps.iter().map(|a| a.name.as_str()).collect();
        // "Hidden" (NoDisplay) is not running: not listed.
        assert_eq!(names, vec!["Mine", "Alpha", "Zeta"]);
        assert_eq!(apps[0].pids, vec![me]);
        assert!(!apps[0].installed);
        assert!(apps[1].installed && apps[1].pids.is_empty());
    }
}
