//! Installed apps as the adapters answer with them: the list
//! [`Adapter::apps`](crate::Adapter::apps) starts from ([`entries`]; the
//! adapter then adds what runs), and the app
//! [`Adapter::open_app`](crate::Adapter::open_app) launches ([`pick`]),
//! matched by [`apps::best`](crate::apps::best).

use crate::adapter::{AdapterError, AppEntry};
use crate::apps::{best, App};

/// The installed app `name` names best (the same name, a prefix, a word's
/// prefix, a part, the letters in order: [`apps::score`](crate::apps::score)).
///
/// # Errors
///
/// [`AdapterError::NotFound`]: `no installed app matches '{name}'; list
/// apps to see their names`.
///
/// ```
/// use cup::apps::App;
///
/// let installed = [App { name: "Calculator".into(), target: "calc.exe".into() }];
/// assert_eq!(cup::installed::pick("calc", &installed).map(|a| a.target), Ok("calc.exe".into()));
/// assert!(cup::installed::pick("paint", &installed).is_err());
/// ```
pub fn pick(name: &str, installed: &[App]) -> Result<App, AdapterError> {
    best(name, installed).cloned().ok_or_else(|| {
        AdapterError::NotFound(format!(
            "no installed app matches '{name}'; list apps to see their names"
        ))
    })
}

/// One [`AppEntry`] for each installed app, in order: its name, its launch
/// target as the id, installed, with no process nor window yet.
pub fn entries(installed: &[App]) -> Vec<AppEntry> {
    installed
        .iter()
        .map(|a| AppEntry {
            name: a.name.clone(),
            id: a.target.clone(),
            pids: Vec::new(),
            windows: Vec::new(),
            installed: true,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Installed apps from (name, launch target) pairs.
    fn installed(pairs: &[(&str, &str)]) -> Vec<App> {
        pairs
            .iter()
            .map(|&(name, target)| App {
                name: name.into(),
                target: target.into(),
            })
            .collect()
    }

    #[test]
    fn a_name_picks_the_best_installed_app_or_says_how_to_see_them() {
        let all = installed(&[
            ("Visual Studio Code", "/Applications/Visual Studio Code.app"),
            ("Notes", "/System/Applications/Notes.app"),
        ]);
        assert_eq!(pick("notes", &all), Ok(all[1].clone()));
        assert_eq!(pick("vscode", &all), Ok(all[0].clone()), "letters in order");
        assert_eq!(
            pick("Photoshop", &all),
            Err(AdapterError::NotFound(
                "no installed app matches 'Photoshop'; list apps to see their names".into()
            ))
        );
        assert!(pick("", &all).is_err(), "an empty name matches nothing");
    }

    #[test]
    fn entries_list_installed_apps_by_name_and_target() {
        let all = installed(&[("Notepad", "notepad.exe"), ("Paint", "mspaint.exe")]);
        let got = entries(&all);
        assert_eq!(got.len(), 2);
        assert_eq!(
            (got[0].name.as_str(), got[0].id.as_str()),
            ("Notepad", "notepad.exe")
        );
        assert_eq!(got[1].id, "mspaint.exe");
        assert!(got
            .iter()
            .all(|e| e.installed && e.pids.is_empty() && e.windows.is_empty()));
        assert!(entries(&[]).is_empty());
    }
}
