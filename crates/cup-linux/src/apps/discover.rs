//! Installed applications: the `applications` folders of the XDG data
//! directories, user first (an id found earlier wins), subfolders giving
//! ids with `-`; hidden entries, entries for other desktops and entries
//! whose `TryExec` program is missing are left out.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::entry::{self, Entry};

/// The folders searched, best first.
pub fn application_dirs() -> Vec<PathBuf> {
    let var = |n: &str| std::env::var(n).ok().filter(|v| !v.is_empty());
    let home = var("HOME").map(PathBuf::from);
    let data_home = var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".local/share")));
    let data_dirs = var("XDG_DATA_DIRS").unwrap_or_else(|| "/usr/local/share:/usr/share".into());
    data_home
        .into_iter()
        .chain(
            data_dirs
                .split(':')
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
        )
        .map(|d| d.join("applications"))
        .collect()
}

/// Whether `program` can be run: an existing file, or found in `PATH`.
pub fn runnable(program: &str) -> bool {
    let path = Path::new(program);
    if path.is_absolute() {
        return path.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>, depth: usize) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for item in read.flatten() {
        let path = item.path();
        let name = item.file_name().to_string_lossy().into_owned();
        if path.is_dir() && depth < 4 {
            collect(&path, &format!("{prefix}{name}-"), out, depth + 1);
        } else if let Some(stem) = name.strip_suffix(".desktop") {
            out.push((format!("{prefix}{stem}"), path));
        }
    }
}

/// Every installed application entry for this locale and desktop.
pub fn installed() -> Vec<(Entry, PathBuf)> {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        .unwrap_or_default();
    let desktops = std::env::var("XDG_CURRENT_DESKTOP").unwrap_or_default();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for dir in application_dirs() {
        let mut files = Vec::new();
        collect(&dir, "", &mut files, 0);
        files.sort();
        for (id, path) in files {
            if !seen.insert(id.clone()) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Some(e) = entry::parse(&id, &text, &locale) else {
                continue;
            };
            if e.hidden || !entry::shown_in(&e, &desktops) {
                continue;
            }
            if e.try_exec.as_deref().is_some_and(|t| !runnable(t)) {
                continue;
            }
            out.push((e, path));
        }
    }
    out
}
