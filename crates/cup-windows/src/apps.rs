//! Installed apps from the Start menu's shortcuts (`.lnk` files under
//! `%ProgramData%` and `%AppData%`'s `Microsoft\Windows\Start Menu\Programs`),
//! plus the App Paths programs and the system's own, matched by name
//! fuzzily: no PowerShell, plain file reads.

use std::path::{Path, PathBuf};

/// One launchable app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct App {
    /// Display name (the shortcut's file name without `.lnk`).
    pub name: String,
    /// What `ShellExecuteEx` opens: the shortcut, an executable, or a
    /// `shell:AppsFolder\<AUMID>` of a packaged app.
    pub target: String,
}

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

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// How well `query` names `app` (0 = not at all; higher is better):
/// the same name, a prefix, a word's prefix, a part, the letters in order.
pub fn score(query: &str, app: &App) -> u32 {
    let q = fold(query.trim());
    let n = fold(&app.name);
    let exe = fold(
        Path::new(&app.target.replace('\\', "/"))
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
            .as_str(),
    );
    if q.is_empty() {
        return 0;
    }
    if n == q || exe == q {
        return 100;
    }
    if n.starts_with(&q) {
        return 80;
    }
    if n.split_whitespace().any(|w| w.starts_with(&q)) || exe.starts_with(&q) {
        return 60;
    }
    if n.contains(&q) {
        return 40;
    }
    let mut it = n.chars();
    if q.chars()
        .filter(|c| !c.is_whitespace())
        .all(|c| it.any(|x| x == c))
    {
        return 10;
    }
    0
}

/// The best match of `query` among `apps` (ties: the shorter name).
pub fn best<'a>(query: &str, apps: &'a [App]) -> Option<&'a App> {
    apps.iter()
        .map(|a| (score(query, a), a))
        .filter(|(s, _)| *s > 0)
        .max_by(|(sa, a), (sb, b)| sa.cmp(sb).then(b.name.len().cmp(&a.name.len())))
        .map(|(_, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(name: &str, target: &str) -> App {
        App {
            name: name.into(),
            target: target.into(),
        }
    }

    #[test]
    fn names_match_exactly_by_prefix_word_part_or_letters() {
        let apps = vec![
            app("Notepad", r"C:\Windows\notepad.exe"),
            app("Notepad++", r"C:\ProgramData\...\Notepad++.lnk"),
            app("Visual Studio Code", r"C:\...\Visual Studio Code.lnk"),
            app("Registry Editor", "regedit.exe"),
        ];
        assert_eq!(
            best("notepad", &apps).map(|a| a.name.as_str()),
            Some("Notepad")
        );
        assert_eq!(
            best("code", &apps).map(|a| a.name.as_str()),
            Some("Visual Studio Code")
        );
        assert_eq!(
            best("regedit", &apps).map(|a| a.name.as_str()),
            Some("Registry Editor")
        );
        assert_eq!(
            best("vsc", &apps).map(|a| a.name.as_str()),
            Some("Visual Studio Code")
        );
        assert_eq!(best("photoshop", &apps), None);
    }

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
