//! Installed apps from the Start menu's shortcuts (`.lnk` files under
//! `%ProgramData%` and `%AppData%`'s `Microsoft\Windows\Start Menu\Programs`),
//! plus the App Paths programs and the system's own, matched by name
//! fuzzily: no PowerShell, plain file reads.

use std::path::{Path, PathBuf};

pub use cup::apps::{best, score, App};

/// Shortcuts (`.lnk`, `.url`, `.exe`) under `dir`, recursively (depth 4),
/// uninstallers and help files left out.
pub fn scan(dir: &Path) -> Vec<App> {
    fn walk(dir: &Path, depth: usize, out: &mut Vec<App>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if depth < 4 {
                    walk(&path, depth + 1, out);
                }
                continue;
            }
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            if !matches!(ext.as_str(), "lnk" | "url" | "exe") {
                continue;
            }
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let lower = name.to_lowercase();
            if lower.contains("uninstall") || lower.ends_with(" help") || lower.is_empty() {
                continue;
            }
            out.push(App {
                name,
                target: path.to_string_lossy().into_owned(),
            });
        }
    }
    let mut out = Vec::new();
    walk(dir, 0, &mut out);
    out
}

/// The Start menu folders of this user and of all users.
pub fn start_menu_dirs(program_data: Option<&str>, app_data: Option<&str>) -> Vec<PathBuf> {
    [program_data, app_data]
        .into_iter()
        .flatten()
        .map(|base| Path::new(base).join(r"Microsoft\Windows\Start Menu\Programs"))
        .collect()
}

/// Programs every Windows (and Wine) has in its system folder, for when
/// the Start menu does not list them.
pub const SYSTEM_PROGRAMS: &[(&str, &str)] = &[
    ("Notepad", "notepad.exe"),
    ("WordPad", "wordpad.exe"),
    ("Registry Editor", "regedit.exe"),
    ("Command Prompt", "cmd.exe"),
    ("Task Manager", "taskmgr.exe"),
    ("Calculator", "calc.exe"),
    ("Paint", "mspaint.exe"),
    ("Control Panel", "control.exe"),
    ("File Explorer", "explorer.exe"),
    ("Wine configuration", "winecfg.exe"),
    ("Wine file manager", "winefile.exe"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_menu_is_scanned_for_shortcuts() {
        let dir = std::env::temp_dir().join(format!("cup-apps-{}", std::process::id()));
        let sub = dir.join("Accessories");
        std::fs::create_dir_all(&sub).expect("dirs");
        for f in ["Paint.lnk", "Uninstall Foo.lnk", "readme.txt"] {
            std::fs::write(sub.join(f), b"").expect("file");
        }
        std::fs::write(dir.join("Firefox.lnk"), b"").expect("file");
        let mut names: Vec<String> = scan(&dir).into_iter().map(|a| a.name).collect();
        names.sort();
        assert_eq!(names, ["Firefox", "Paint"]);
        let _ = std::fs::remove_dir_all(&dir);
        let dirs = start_menu_dirs(Some(r"C:\ProgramData"), None);
        assert_eq!(dirs.len(), 1);
    }
}
