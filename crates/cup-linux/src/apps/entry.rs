//! Desktop entries (`.desktop` files, freedesktop Desktop Entry spec):
//! parsing without I/O, with localized keys.

use std::collections::HashMap;

/// One application entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// Desktop-file id (`org.gtk.Demo4`, `gtk3-widget-factory`).
    pub id: String,
    /// `Name`, localized.
    pub name: String,
    /// `GenericName`, localized.
    pub generic_name: String,
    /// `Keywords`, localized.
    pub keywords: Vec<String>,
    /// `Exec`.
    pub exec: String,
    /// `TryExec`.
    pub try_exec: Option<String>,
    /// `Icon`.
    pub icon: Option<String>,
    /// `NoDisplay=true`: installed, but not listed in menus.
    pub no_display: bool,
    /// `Hidden=true`: deleted; never used.
    pub hidden: bool,
    /// `OnlyShowIn`.
    pub only_show_in: Vec<String>,
    /// `NotShowIn`.
    pub not_show_in: Vec<String>,
    /// `Terminal=true`.
    pub terminal: bool,
    /// `Path` (working directory).
    pub path: Option<String>,
}

/// The locale keys to try, best first, from a POSIX locale
/// (`de_DE.UTF-8@euro` → `de_DE@euro`, `de_DE`, `de@euro`, `de`).
pub fn locale_keys(locale: &str) -> Vec<String> {
    let locale = locale.trim();
    if locale.is_empty() || locale == "C" || locale == "POSIX" {
        return Vec::new();
    }
    let (rest, modifier) = match locale.split_once('@') {
        Some((r, m)) => (r, Some(m)),
        None => (locale, None),
    };
    let rest = rest.split('.').next().unwrap_or(rest);
    let (lang, country) = match rest.split_once('_') {
        Some((l, c)) => (l, Some(c)),
        None => (rest, None),
    };
    let mut keys = Vec::new();
    if let (Some(c), Some(m)) = (country, modifier) {
        keys.push(format!("{lang}_{c}@{m}"));
    }
    if let Some(c) = country {
        keys.push(format!("{lang}_{c}"));
    }
    if let Some(m) = modifier {
        keys.push(format!("{lang}@{m}"));
    }
    keys.push(lang.to_owned());
    keys
}

fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => out.push(' '),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn list(value: &str) -> Vec<String> {
    value
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Parses the `[Desktop Entry]` group of `text`; `None` unless it is an
/// application with an `Exec` line.
pub fn parse(id: &str, text: &str, locale: &str) -> Option<Entry> {
    let mut group = false;
    let mut keys: HashMap<String, String> = HashMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('[') {
            group = line == "[Desktop Entry]";
            continue;
        }
        if !group {
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            keys.entry(k.trim().to_owned())
                .or_insert_with(|| v.trim().to_owned());
        }
    }
    if keys.get("Type").map(String::as_str) != Some("Application") {
        return None;
    }
    let locales = locale_keys(locale);
    let localized = |key: &str| -> Option<String> {
        locales
            .iter()
            .find_map(|l| keys.get(&format!("{key}[{l}]")))
            .or_else(|| keys.get(key))
            .map(|v| unescape(v))
    };
    let flag = |key: &str| {
        keys.get(key)
            .is_some_and(|v| v.eq_ignore_ascii_case("true"))
    };
    let exec = keys.get("Exec").cloned().filter(|e| !e.is_empty())?;
    Some(Entry {
        id: id.to_owned(),
        name: localized("Name")?,
        generic_name: localized("GenericName").unwrap_or_default(),
        keywords: localized("Keywords").map(|k| list(&k)).unwrap_or_default(),
        exec,
        try_exec: keys.get("TryExec").cloned().filter(|t| !t.is_empty()),
        icon: keys.get("Icon").cloned(),
        no_display: flag("NoDisplay"),
        hidden: flag("Hidden"),
        only_show_in: keys.get("OnlyShowIn").map(|v| list(v)).unwrap_or_default(),
        not_show_in: keys.get("NotShowIn").map(|v| list(v)).unwrap_or_default(),
        terminal: flag("Terminal"),
        path: keys.get("Path").cloned().filter(|p| !p.is_empty()),
    })
}

/// Whether the entry is shown in `desktops` (`XDG_CURRENT_DESKTOP`,
/// colon-separated).
pub fn shown_in(entry: &Entry, desktops: &str) -> bool {
    let current: Vec<&str> = desktops.split(':').filter(|d| !d.is_empty()).collect();
    if !entry.only_show_in.is_empty()
        && !entry
            .only_show_in
            .iter()
            .any(|d| current.iter().any(|c| c.eq_ignore_ascii_case(d)))
    {
        return false;
    }
    !entry
        .not_show_in
        .iter()
        .any(|d| current.iter().any(|c| c.eq_ignore_ascii_case(d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHROMIUM: &str = "[Desktop Entry]\nVersion=1.0\nName=Chromium Web Browser\nName[de]=Chromium-Webbrowser\nGenericName=Web Browser\nKeywords=browser;web;\nExec=/usr/bin/chromium %U\nTerminal=false\nType=Application\nIcon=chromium\n\n[Desktop Action NewWindow]\nName=New Window\nExec=/usr/bin/chromium\n";

    #[test]
    fn parses_and_localizes() {
        let e = parse("chromium", CHROMIUM, "de_DE.UTF-8").unwrap_or_default();
        assert_eq!(e.name, "Chromium-Webbrowser");
        assert_eq!(e.generic_name, "Web Browser");
        assert_eq!(e.keywords, vec!["browser", "web"]);
        assert_eq!(e.exec, "/usr/bin/chromium %U");
        let en = parse("chromium", CHROMIUM, "C").unwrap_or_default();
        assert_eq!(en.name, "Chromium Web Browser");
    }

    #[test]
    fn only_applications_with_exec() {
        assert!(parse("x", "[Desktop Entry]\nType=Link\nName=x\nURL=y", "C").is_none());
        assert!(parse("x", "[Desktop Entry]\nType=Application\nName=x", "C").is_none());
        let hidden = parse(
            "x",
            "[Desktop Entry]\nType=Application\nName=x\nExec=x\nHidden=true\nNoDisplay=true",
            "C",
        )
        .unwrap_or_default();
        assert!(hidden.hidden && hidden.no_display);
    }

    #[test]
    fn locale_fallbacks_and_show_in() {
        assert_eq!(
            locale_keys("sr_RS.UTF-8@latin"),
            vec!["sr_RS@latin", "sr_RS", "sr@latin", "sr"]
        );
        assert!(locale_keys("C.UTF-8").len() == 1 || locale_keys("C").is_empty());
        let gnome_only = Entry {
            only_show_in: vec!["GNOME".into()],
            ..Entry::default()
        };
        assert!(shown_in(&gnome_only, "ubuntu:GNOME"));
        assert!(!shown_in(&gnome_only, "KDE"));
        assert!(!shown_in(&gnome_only, ""));
    }

    #[test]
    fn escapes() {
        assert_eq!(unescape(r"a\sb\\c\n"), "a b\\c\n");
    }
}
