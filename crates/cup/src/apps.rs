//! Installed apps matched by name, for every platform's `open_app`: the
//! same name, a prefix, a word's prefix, a part, or the letters in order,
//! on the display name and on the launch target's file name.

use std::path::Path;

/// One launchable app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct App {
    /// Display name (a shortcut's or bundle's name without extension).
    pub name: String,
    /// What the platform opens: a shortcut, an executable, an app bundle,
    /// or a platform-specific id.
    pub target: String,
}

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
}
