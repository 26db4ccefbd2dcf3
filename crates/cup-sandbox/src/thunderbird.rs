//! Thunderbird profiles for a desktop without a network: quiet (no
//! default-client question, telemetry notice or donation page), either
//! fresh (Thunderbird opens its account set-up) or with one local mail
//! folder of generated messages and no server account at all.

use std::fmt::Write as _;
use std::path::Path;

/// Debian's Thunderbird binary.
pub const THUNDERBIRD: &str = "thunderbird";

/// Preferences that keep a fresh profile quiet.
const QUIET: &[(&str, &str)] = &[
    ("mail.shell.checkDefaultClient", "false"),
    ("datareporting.policy.dataSubmissionEnabled", "false"),
    ("toolkit.telemetry.reportingpolicy.firstRun", "false"),
    ("mail.rights.version", "1"),
    ("app.donation.eoy.version.viewed", "999"),
    ("mailnews.start_page.enabled", "false"),
];

/// The folder the local account keeps its mail in, inside a profile.
const LOCAL_FOLDERS: &str = "Mail/Local Folders";

/// The Inbox's folder URI (the local account's user is `nobody`).
const INBOX_URI: &str = "mailbox://nobody@Local%20Folders/Inbox";

fn prefs(pairs: &[(&str, String)]) -> String {
    let mut out = String::new();
    for (k, v) in QUIET {
        let _ = writeln!(out, "user_pref(\"{k}\", {v});");
    }
    for (k, v) in pairs {
        let _ = writeln!(out, "user_pref(\"{k}\", {v});");
    }
    out
}

/// JSON string literal of `s` (a path in a preference).
fn quoted(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// Makes `dir` (created if missing) a fresh quiet profile: Thunderbird
/// starts on its account set-up. Start it with `--profile DIR --no-remote`.
///
/// # Errors
///
/// When the folder or its `user.js` cannot be written.
pub fn write_setup_profile(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("user.js"), prefs(&[]))
}

/// The mbox text of `count` messages, newest last: message `i` is from
/// "Sender i <senderi@example.org>", its subject "Message number i", its
/// body "Body of message i.", sent an hour after message `i - 1`
/// (from 2023-11-14 22:13:20 UTC).
pub fn mbox(count: usize) -> String {
    let mut out = String::with_capacity(count * 260);
    for i in 0..count {
        let (day, hour) = (14 + (22 + i) / 24, (22 + i) % 24);
        let _ = write!(
            out,
            "From sender{i}@example.org Tue Nov {day} {hour:02}:13:20 2023\n\
             From: Sender {i} <sender{i}@example.org>\n\
             To: me@example.org\n\
             Subject: Message number {i}\n\
             Date: {day} Nov 2023 {hour:02}:13:20 +0000\n\
             Message-ID: <m{i}@example.org>\n\n\
             Body of message {i}.\n\n"
        );
    }
    out
}

/// Makes `dir` (created if missing) a quiet profile whose only account is
/// Local Folders, its Inbox an mbox of `messages` messages ([`mbox`];
/// Thunderbird finds the file and indexes it). With `open_inbox`, the
/// first window opens on the Inbox (its saved session names it);
/// otherwise on the account's page, the folder collapsed.
///
/// # Errors
///
/// When a folder or file cannot be written.
pub fn write_local_folder_profile(
    dir: &Path,
    messages: usize,
    open_inbox: bool,
) -> std::io::Result<()> {
    let folders = dir.join(LOCAL_FOLDERS);
    std::fs::create_dir_all(&folders)?;
    let user_js = prefs(&[
        ("mail.accountmanager.accounts", quoted("account1")),
        ("mail.accountmanager.localfoldersserver", quoted("server1")),
        ("mail.account.account1.server", quoted("server1")),
        ("mail.server.server1.type", quoted("none")),
        ("mail.server.server1.hostname", quoted("Local Folders")),
        ("mail.server.server1.name", quoted("Local Folders")),
        ("mail.server.server1.userName", quoted("nobody")),
        (
            "mail.server.server1.directory",
            quoted(&folders.display().to_string()),
        ),
        (
            "mail.server.server1.directory-rel",
            quoted(&format!("[ProfD]{LOCAL_FOLDERS}")),
        ),
    ]);
    std::fs::write(dir.join("user.js"), user_js)?;
    std::fs::write(folders.join("Inbox"), mbox(messages))?;
    if open_inbox {
        // What Thunderbird saves when it quits with the Inbox shown in
        // its one mail tab.
        let session = serde_json::json!({
            "rev": 0,
            "windows": [{
                "type": "3pane",
                "tabs": {
                    "rev": 0,
                    "selectedIndex": 0,
                    "tabs": [{
                        "mode": "mail3PaneTab",
                        "state": {
                            "firstTab": true,
                            "folderPaneVisible": true,
                            "folderURI": INBOX_URI,
                            "messagePaneVisible": true
                        },
                        "ext": {}
                    }]
                }
            }]
        });
        std::fs::write(dir.join("session.json"), session.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mbox_holds_every_message_once() {
        let text = mbox(200);
        assert_eq!(text.matches("\nSubject: Message number ").count(), 200);
        assert!(text.starts_with("From sender0@example.org Tue Nov 14 22:13:20 2023\n"));
        assert!(text.contains("Date: 23 Nov 2023 05:13:20 +0000\nMessage-ID: <m199@example.org>"));
    }

    #[test]
    fn a_local_folder_profile_names_its_folder_and_may_open_the_inbox() {
        let dir = std::env::temp_dir().join(format!("cup-tb-profile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write_local_folder_profile(&dir, 3, true).expect("profile");
        let user_js = std::fs::read_to_string(dir.join("user.js")).expect("user.js");
        assert!(user_js.contains("user_pref(\"mail.shell.checkDefaultClient\", false);"));
        assert!(user_js.contains(&format!(
            "user_pref(\"mail.server.server1.directory\", {});",
            quoted(&dir.join(LOCAL_FOLDERS).display().to_string())
        )));
        let session: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("session.json")).expect("session.json"),
        )
        .expect("json");
        assert_eq!(
            session["windows"][0]["tabs"]["tabs"][0]["state"]["folderURI"],
            INBOX_URI
        );
        let inbox = std::fs::read_to_string(dir.join(LOCAL_FOLDERS).join("Inbox")).expect("mbox");
        assert_eq!(inbox.matches("\nSubject: ").count(), 3);

        std::fs::remove_dir_all(&dir).expect("clean");
        write_local_folder_profile(&dir, 1, false).expect("profile");
        assert!(!dir.join("session.json").exists());
        std::fs::remove_dir_all(&dir).expect("clean");
    }
}
