//! A quiet Firefox profile for a desktop without a network: no first-run
//! pages, no update, telemetry, safe-browsing or other background traffic
//! (each would time out here, and some open tabs of their own).

use std::path::Path;

/// Debian's Firefox ESR binary.
pub const FIREFOX: &str = "firefox-esr";

/// The preferences (`user.js`) of [`write_quiet_profile`].
const PREFS: &[(&str, &str)] = &[
    ("browser.shell.checkDefaultBrowser", "false"),
    ("browser.startup.homepage_override.mstone", "\"ignore\""),
    ("startup.homepage_welcome_url", "\"about:blank\""),
    ("startup.homepage_welcome_url.additional", "\"\""),
    ("browser.aboutwelcome.enabled", "false"),
    ("trailhead.firstrun.didSeeAboutWelcome", "true"),
    ("datareporting.policy.dataSubmissionEnabled", "false"),
    ("datareporting.policy.firstRunURL", "\"\""),
    ("datareporting.healthreport.uploadEnabled", "false"),
    ("toolkit.telemetry.reportingpolicy.firstRun", "false"),
    ("app.update.disabledForTesting", "true"),
    ("app.normandy.enabled", "false"),
    ("browser.newtabpage.enabled", "false"),
    ("browser.startup.page", "0"),
    ("network.captive-portal-service.enabled", "false"),
    ("network.connectivity-service.enabled", "false"),
    ("browser.safebrowsing.malware.enabled", "false"),
    ("browser.safebrowsing.phishing.enabled", "false"),
    ("browser.safebrowsing.downloads.enabled", "false"),
    ("extensions.update.enabled", "false"),
    ("extensions.pocket.enabled", "false"),
    ("identity.fxaccounts.enabled", "false"),
    ("browser.tabs.warnOnClose", "false"),
    ("browser.sessionstore.resume_from_crash", "false"),
    ("browser.translations.automaticallyPopup", "false"),
    ("browser.uitour.enabled", "false"),
    ("browser.discovery.enabled", "false"),
    ("toolkit.startup.max_resumed_crashes", "-1"),
    ("ui.prefersReducedMotion", "1"),
];

/// The `user.js` text of a quiet profile.
pub fn quiet_prefs() -> String {
    PREFS
        .iter()
        .map(|(k, v)| format!("user_pref(\"{k}\", {v});\n"))
        .collect()
}

/// Makes `dir` (created if missing) a quiet Firefox profile: start
/// Firefox with `--no-remote --new-instance --profile DIR URL`.
///
/// # Errors
///
/// When the folder or its `user.js` cannot be written.
pub fn write_quiet_profile(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("user.js"), quiet_prefs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pref_is_one_user_pref_line() {
        let prefs = quiet_prefs();
        assert_eq!(prefs.lines().count(), PREFS.len());
        assert!(prefs
            .lines()
            .all(|l| l.starts_with("user_pref(\"") && l.ends_with(");")));
        assert!(prefs.contains("user_pref(\"startup.homepage_welcome_url\", \"about:blank\");"));
    }
}
