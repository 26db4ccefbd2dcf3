//! Thunderbird (Gecko's chrome, its own widgets) on the sandbox desktop:
//! a local mail folder of 200 messages, read as what is on screen (its
//! message list keeps only a window of rows) without growing the app,
//! a message opened; and the account set-up form of a fresh profile
//! filled in. Nothing here reaches a network: the profiles are the
//! test's own, with a local folder only, and the form is not submitted.

use std::path::Path;

use crate::support::{assert_read_right, nodes, rss_mib, until, Desk, TempDir};
use cup::{ActionParams, Effect, Session, Snapshot, SnapshotRequest};
use cup_protocol::{Node, Role, Scope, State};

const MESSAGES: usize = 200;

/// Preferences that keep a fresh profile quiet: no default-client
/// question, no telemetry notice, no donation page.
const QUIET: &str = r#"user_pref("mail.shell.checkDefaultClient", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("mail.rights.version", 1);
user_pref("app.donation.eoy.version.viewed", 999);
user_pref("mailnews.start_page.enabled", false);
"#;

/// A profile whose only account is Local Folders, its Inbox an mbox of
/// [`MESSAGES`] messages (Thunderbird finds the file and indexes it).
fn local_folder_profile(dir: &Path) -> String {
    let folders = dir.join("Mail").join("Local Folders");
    std::fs::create_dir_all(&folders).unwrap_or_else(|e| panic!("{}: {e}", folders.display()));
    let prefs = format!(
        r#"{QUIET}user_pref("mail.accountmanager.accounts", "account1");
user_pref("mail.accountmanager.localfoldersserver", "server1");
user_pref("mail.account.account1.server", "server1");
user_pref("mail.server.server1.type", "none");
user_pref("mail.server.server1.hostname", "Local Folders");
user_pref("mail.server.server1.name", "Local Folders");
user_pref("mail.server.server1.userName", "nobody");
user_pref("mail.server.server1.directory", "{}");
user_pref("mail.server.server1.directory-rel", "[ProfD]Mail/Local Folders");
"#,
        folders.display()
    );
    std::fs::write(dir.join("user.js"), prefs).unwrap_or_else(|e| panic!("user.js: {e}"));
    let mut mbox = String::new();
    for i in 0..MESSAGES {
        // 2023-11-14 22:13:20 UTC plus an hour a message.
        let (day, hour) = (14 + (22 + i) / 24, (22 + i) % 24);
        mbox.push_str(&format!(
            "From sender{i}@example.org Tue Nov {day} {hour:02}:13:20 2023\n\
             From: Sender {i} <sender{i}@example.org>\n\
             To: me@example.org\n\
             Subject: Message number {i}\n\
             Date: {day} Nov 2023 {hour:02}:13:20 +0000\n\
             Message-ID: <m{i}@example.org>\n\n\
             Body of message {i}.\n\n"
        ));
    }
    std::fs::write(folders.join("Inbox"), mbox).unwrap_or_else(|e| panic!("Inbox: {e}"));
    dir.display().to_string()
}

fn launch(desk: &Desk, profile: &str) -> cup_sandbox::App {
    desk.sandbox
        .launch("thunderbird", &["--profile", profile, "--no-remote"])
        .unwrap_or_else(|e| {
            panic!("cannot launch thunderbird: {e} (apt-get install thunderbird, or scripts/install-deps.sh)")
        })
}

fn foreground() -> SnapshotRequest {
    SnapshotRequest {
        scope: Scope::Foreground,
        ..SnapshotRequest::default()
    }
}

fn named<'a>(snap: &'a Snapshot, role: Role, name: &str) -> Option<&'a Node> {
    nodes(snap)
        .into_iter()
        .find(|n| n.role == role && n.name == name)
}

async fn act(
    session: &mut Session,
    id: &str,
    verb: &str,
    value: Option<&str>,
) -> cup::ActionResult {
    let params = ActionParams {
        value: value.map(str::to_owned),
        ..ActionParams::default()
    };
    let done = session
        .action(id, verb, &params)
        .await
        .unwrap_or_else(|e| panic!("{verb} {id}: {e}"));
    assert!(done.success, "{verb} {id}: {done:?}");
    done
}

/// The message list's rows (options named "Sender N <...>, ...").
fn rows(snap: &Snapshot) -> Vec<&Node> {
    nodes(snap)
        .into_iter()
        .filter(|n| n.role == Role::Option && n.name.starts_with("Sender "))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thunderbird_reads_a_folder_of_200_messages_and_opens_one() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-thunderbird");
    let profile = local_folder_profile(&dir.path().join("profile"));
    let app = launch(&desk, &profile);
    let mut session = desk.session();
    let req = foreground();

    // The account's folder row is collapsed at first: its tree item
    // offers only "activate" (which selects it), so cup expands it with
    // the tree's keys, confirmed by its expanded state.
    let account = |s: &Snapshot| {
        nodes(s)
            .into_iter()
            .find(|n| {
                n.role == Role::TreeItem
                    && n.name == "Local Folders"
                    && n.states.contains(&State::Collapsed)
            })
            .map(|n| n.id.clone())
    };
    let snap = until(
        &mut session,
        &req,
        "the Local Folders row, collapsed",
        90,
        true,
        |s| account(s).is_some(),
    )
    .await;
    let id = account(&snap).unwrap_or_default();
    let expanded = act(&mut session, &id, "expand", None).await;
    assert_eq!(expanded.effect, Effect::Confirmed, "{expanded:?}");
    assert!(
        expanded
            .changes
            .iter()
            .any(|c| c.after.as_deref().is_some_and(|a| a.contains("+expanded"))),
        "{expanded:?}"
    );
    let snap = until(&mut session, &req, "the Inbox row", 30, true, |s| {
        named(s, Role::TreeItem, "Inbox").is_some()
    })
    .await;
    let inbox = named(&snap, Role::TreeItem, "Inbox")
        .map(|n| n.id.clone())
        .unwrap_or_default();
    act(&mut session, &inbox, "click", None).await;

    // The list counts 200 messages and shows those on screen: Thunderbird
    // keeps a window of rows; cup reads them and folds the rest.
    let snap = until(&mut session, &req, "the Inbox's messages", 60, true, |s| {
        // Thunderbird fills its window of rows over a few frames: the
        // rows below the screen are there once the fold says so.
        s.text.contains(&format!("\"{MESSAGES} Messages\""))
            && rows(s).len() >= 5
            && s.text.contains("more items")
    })
    .await;
    assert_read_right(&snap);
    let shown = rows(&snap);
    assert!(
        shown.len() < MESSAGES,
        "{} rows:\n{}",
        shown.len(),
        snap.text
    );
    assert!(
        shown.iter().all(|r| r.bounds.is_some()),
        "every row on screen has bounds:\n{}",
        snap.text
    );
    assert!(
        snap.text.contains("more items") && snap.text.contains("page(element_id="),
        "the rows off screen are folded with the way to page them:\n{}",
        snap.text
    );

    // Reading does not grow the app: 100 snapshots of the list.
    let pid = i64::from(app.a11y_pid);
    let before = rss_mib(pid);
    for _ in 0..100 {
        session
            .snapshot(&req)
            .await
            .unwrap_or_else(|e| panic!("snapshot: {e}"));
    }
    let after = rss_mib(pid);
    assert!(
        after <= before + 50,
        "Thunderbird grew from {before} MiB to {after} MiB over 100 snapshots"
    );

    // Open the newest message (the list's first row) in a tab; its body
    // is read from the message's document.
    let snap = session
        .snapshot(&req)
        .await
        .unwrap_or_else(|e| panic!("snapshot: {e}"));
    let first = rows(snap)
        .first()
        .map(|n| (n.id.clone(), n.name.clone()))
        .unwrap_or_else(|| panic!("no message row:\n{}", snap.text));
    let number = first
        .1
        .split("Message number ")
        .nth(1)
        .and_then(|t| t.split(',').next())
        .unwrap_or_else(|| panic!("no subject in {:?}", first.1))
        .to_owned();
    let opened = act(&mut session, &first.0, "doubleclick", None).await;
    assert_eq!(opened.effect, Effect::Confirmed, "{opened:?}");
    let body = format!("Body of message {number}.");
    // Its tab is named once the message has loaded (until then Gecko
    // names it from its close button): both are waited for.
    let tab = format!("Message number {number}");
    let snap = until(
        &mut session,
        &req,
        "the message's body and tab",
        60,
        true,
        |s| s.text.contains(&body) && named(s, Role::Tab, &tab).is_some(),
    )
    .await;
    assert!(
        named(&snap, Role::Button, "Reply").is_some(),
        "{}",
        snap.text
    );
    assert_read_right(&snap);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thunderbird_account_set_up_form_is_filled() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-thunderbird-setup");
    let profile = dir.path().join("profile");
    std::fs::create_dir_all(&profile).unwrap_or_else(|e| panic!("{}: {e}", profile.display()));
    std::fs::write(profile.join("user.js"), QUIET).unwrap_or_else(|e| panic!("user.js: {e}"));
    launch(&desk, &profile.display().to_string());
    let mut session = desk.session();
    let req = foreground();

    let field = |s: &Snapshot, name: &str| named(s, Role::TextBox, name).map(|n| n.id.clone());
    let snap = until(
        &mut session,
        &req,
        "the account set-up form",
        90,
        true,
        |s| field(s, "Email address*").is_some() && named(s, Role::Button, "Continue").is_some(),
    )
    .await;
    assert_read_right(&snap);
    let continue_enabled = |s: &Snapshot| {
        named(s, Role::Button, "Continue").is_some_and(|b| !b.states.contains(&State::Disabled))
    };
    assert!(
        !continue_enabled(&snap),
        "Continue waits for an address:\n{}",
        snap.text
    );

    let name = field(&snap, "Full name*").unwrap_or_else(|| panic!("no Full name:\n{}", snap.text));
    let typed = act(&mut session, &name, "type", Some("Ada Lovelace")).await;
    assert!(typed.message.contains("reads back exactly"), "{typed:?}");
    let email = field(&snap, "Email address*").unwrap_or_default();
    let typed = act(&mut session, &email, "type", Some("ada@example.org")).await;
    assert!(typed.message.contains("reads back exactly"), "{typed:?}");

    // The form took both: its Continue button is enabled by the page.
    let snap = until(
        &mut session,
        &req,
        "Continue enabled",
        30,
        true,
        continue_enabled,
    )
    .await;
    let value = |s: &Snapshot, name: &str| {
        named(s, Role::TextBox, name)
            .and_then(|n| n.value.clone())
            .unwrap_or_default()
    };
    assert_eq!(value(&snap, "Full name*"), "Ada Lovelace", "{}", snap.text);
    assert_eq!(
        value(&snap, "Email address*"),
        "ada@example.org",
        "{}",
        snap.text
    );
}
