//! Installed apps: the `.app` bundles of the app folders (one level of
//! subfolders, as Launchpad shows them: `Utilities`, vendor folders),
//! matched by name fuzzily with [`cup::apps`]. Launch Services opens the
//! one chosen (`open -a BUNDLE`, the OS layer).

use std::path::{Path, PathBuf};

pub use cup::apps::{best, score, App};

/// The folders apps are installed in: the system's, the user's, and the
/// one Finder lives in.
pub fn app_dirs(home: Option<&str>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = [
        "/Applications",
        "/System/Applications",
        "/System/Library/CoreServices",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    if let Some(h) = home.filter(|h| !h.is_empty()) {
        out.push(Path::new(h).join("Applications"));
    }
    out
}

/// The `.app` bundles in `dir` and its subfolders (not inside bundles).
/// In `/System/Library/CoreServices` only Finder is an app people open.
pub fn scan(dir: &Path) -> Vec<App> {
    fn walk(dir: &Path, depth: usize, out: &mut Vec<App>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.is_dir() {
                continue;
            }
            let is_app = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("app"));
            if is_app {
                let name = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if !name.is_empty() {
                    out.push(App {
                        name,
                        target: path.to_string_lossy().into_owned(),
                    });
                }
            } else if depth < 1 {
                walk(&path, depth + 1, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, 0, &mut out);
    if dir.ends_with("CoreServices") {
        out.retain(|a| a.name == "Finder");
    }
    out
}

/// Every installed app, each name once (the first folder wins).
pub fn installed(dirs: &[PathBuf]) -> Vec<App> {
    let mut out: Vec<App> = Vec::new();
    for app in dirs.iter().flat_map(|d| scan(d)) {
        if !out.iter().any(|a| a.name.eq_ignore_ascii_case(&app.name)) {
            out.push(app);
        }
    }
    out
}

/// Whether a running app called `owner` (`kCGWindowOwnerName`, the
/// bundle's short name: `Code` for `Visual Studio Code.app`) is the bundle
/// `app`: once folded, one name holds the other (3 letters at least).
pub fn is_owner(app: &App, owner: &str) -> bool {
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (o, a) = (fold(owner), fold(&app.name));
    if o.is_empty() || a.is_empty() {
        return false;
    }
    o == a || (o.len().min(a.len()) >= 3 && (a.contains(&o) || o.contains(&a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundles_are_found_one_folder_deep_and_matched() {
        let root = std::env::temp_dir().join(format!("cup-mac-apps-{}", std::process::id()));
        let apps = root.join("Applications");
        for d in [
            "Safari.app/Contents/MacOS",
            "Visual Studio Code.app/Contents",
            "Utilities/Terminal.app",
            "Utilities/Deep/Hidden.app",
            "Notes",
        ] {
            std::fs::create_dir_all(apps.join(d)).expect("dirs");
        }
        std::fs::write(apps.join("readme.app"), b"").expect("a file, not a bundle");
        let core = root.join("CoreServices");
        for d in ["Finder.app", "Dock.app"] {
            std::fs::create_dir_all(core.join(d)).expect("dirs");
        }
        let all = installed(&[apps.clone(), core]);
        let mut names: Vec<&str> = all.iter().map(|a| a.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            ["Finder", "Safari", "Terminal", "Visual Studio Code"]
        );
        assert_eq!(
            best("code", &all).map(|a| a.name.as_str()),
            Some("Visual Studio Code")
        );
        assert_eq!(
            best("term", &all).map(|a| a.name.as_str()),
            Some("Terminal")
        );
        assert!(best("photoshop", &all).is_none());
        let code = best("vscode", &all).expect("letters in order");
        assert!(is_owner(code, "Visual Studio Code"));
        assert!(is_owner(code, "Code"));
        assert!(!is_owner(code, "Code Helper"));
        assert!(!is_owner(code, "VS"));
        let _ = std::fs::remove_dir_all(&root);
        assert_eq!(app_dirs(Some("/Users/ann")).len(), 4);
        assert_eq!(app_dirs(None).len(), 3);
    }
}
