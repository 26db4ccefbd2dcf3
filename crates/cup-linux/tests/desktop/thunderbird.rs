//! Thunderbird (Gecko's chrome, its own widgets) on the sandbox desktop:
//! a local mail folder of 200 messages, read as what is on screen (its
//! message list keeps only a window of rows) without growing the app,
//! a message opened; and the account set-up form of a fresh profile
//! filled in. Nothing here reaches a network: the profiles are the
//! test's own, with a local folder only, and the form is not submitted.

use crate::support::{assert_read_right, nodes, rss_mib, until, Desk, TempDir};
use cup::{ActionParams, Effect, Session, Snapshot, SnapshotRequest};
use cup_protocol::compact::PageRequest;
use cup_protocol::{Direction, Node, Role, Scope, State};

const MESSAGES: usize = 200;

fn launch(desk: &Desk, profile: &str) -> cup_sandbox::App {
    desk.sandbox
        .launch(cup_sandbox::thunderbird::THUNDERBIRD, &["--profile", profile, "--no-remote"])
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

/// Whether `n` is a row of the message list (named "Sender N <...>, ...").
fn rows_of(n: &Node) -> bool {
    matches!(n.role, Role::Option | Role::Row) && n.name.starts_with("Sender ")
}

/// The message list's rows.
fn rows(snap: &Snapshot) -> Vec<&Node> {
    nodes(snap).into_iter().filter(|n| rows_of(n)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thunderbird_reads_a_folder_of_200_messages_and_opens_one() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-thunderbird");
    let profile = dir.path().join("profile");
    cup_sandbox::thunderbird::write_local_folder_profile(&profile, MESSAGES, false)
        .unwrap_or_else(|e| panic!("{}: {e}", profile.display()));
    let app = launch(&desk, &profile.display().to_string());
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
        // Thunderbird fills its window of rows over a few frames, and
        // the rows below the screen come last (a run once paged when it
        // held 2 of them): wait until at least 5 are there.
        s.text.contains(&format!("\"{MESSAGES} Messages\""))
            && rows(s).len() >= 5
            && s.text.contains("more items")
            && rows(s)
                .iter()
                .filter(|r| r.states.contains(&State::Offscreen))
                .count()
                >= 5
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

    // The rows below the screen are read as rows (not what each holds):
    // `page` lists the next of them by name, each with its bounds.
    let list = nodes(&snap)
        .into_iter()
        .find(|n| n.children.iter().any(rows_of))
        .map(|n| n.id.clone())
        .unwrap_or_else(|| panic!("no message list:\n{}", snap.text));
    let below = session
        .page(
            &list,
            &PageRequest {
                direction: Some(Direction::Down),
                ..PageRequest::default()
            },
        )
        .unwrap_or_else(|e| panic!("page {list}: {e}"));
    let paged: Vec<&str> = below
        .lines()
        .filter(|l| l.contains(" \"Sender ") && l.contains("Message number "))
        .collect();
    let has_size = |line: &str| {
        line.split_whitespace().any(|t| {
            t.split_once('x')
                .is_some_and(|(w, h)| w.parse::<u32>().is_ok() && h.parse::<u32>().is_ok())
        })
    };
    assert!(
        paged.len() >= 5 && paged.iter().all(|l| has_size(l) && l.contains("{off}")),
        "page lists the rows below the screen, off screen with their bounds:\n{below}"
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
    cup_sandbox::thunderbird::write_setup_profile(&profile)
        .unwrap_or_else(|e| panic!("{}: {e}", profile.display()));
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
