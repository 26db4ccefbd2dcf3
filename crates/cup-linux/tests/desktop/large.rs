//! OSWorld's apps on large content, read as an agent's first snapshot
//! reads them: Writer on a 30-page document, Impress on a deck of 20
//! slides, Nautilus on a folder of 500 files. Each snapshot is complete,
//! holds what is on screen with bounds, folds or says the rest (and how to
//! reach it), and fits the default budget without a cut.

use std::time::Duration;

use crate::support::{
    assert_read_right, complete_snapshot, nodes, unbounded, until, Desk, TempDir,
};
use cup::SnapshotRequest;
use cup_protocol::{Role, Scope};
use cup_sandbox::LaunchOptions;

fn libreoffice(
    desk: &Desk,
    module: &str,
    dir: &TempDir,
    file: &std::path::Path,
) -> cup_sandbox::App {
    let profile = cup_sandbox::libreoffice::write_quiet_profile(&dir.path().join("profile"))
        .unwrap_or_else(|e| panic!("profile: {e}"));
    let options = LaunchOptions {
        timeout: Duration::from_secs(90),
        env: vec![("SAL_USE_VCLPLUGIN".into(), "gtk3".into())],
    };
    let file = file.display().to_string();
    desk.sandbox
        .launch_with(
            "soffice",
            &[format!("--{module}").as_str(), "--norestore", "--nologo", profile.as_str(), file.as_str()],
            &options,
        )
        .unwrap_or_else(|e| {
            panic!("cannot launch soffice: {e} (apt-get install libreoffice-{module} libreoffice-gtk3, or scripts/install-deps.sh)")
        })
}

/// Waits, listing windows only, until LibreOffice's window is titled with
/// the file it opened, then until LibreOffice is quiet (its process tree
/// under 5 % of a core, run-queue waits counted: `cup_sandbox::settle`):
/// it lays the document out after it shows it. A walk of the document
/// during that layout makes LibreOffice 7.4 create its paragraphs'
/// accessibles early, and those keep answering `GetText` with "" (40 s
/// later still; 1 run in 5-10 beside two busy loops, with or without cup's
/// busy poll). The window listing asks no document for its children.
async fn opened(session: &mut cup::Session, app: &cup_sandbox::App, file: &str) {
    let overview = SnapshotRequest {
        scope: Scope::Overview,
        ..SnapshotRequest::default()
    };
    until(
        session,
        &overview,
        &format!("a window titled {file}"),
        90,
        false,
        |s| {
            s.envelope
                .windows
                .as_deref()
                .unwrap_or_default()
                .iter()
                .any(|w| w.title.contains(file))
        },
    )
    .await;
    // Not quiet within the time: read anyway (the test's own checks say
    // what came of it).
    // (The wait samples /proc with sleeps: off the runtime's threads.)
    let pid = app.pid;
    let _ = tokio::task::spawn_blocking(move || {
        cup_sandbox::settle::wait_idle(pid, Duration::from_secs(60))
    })
    .await;
}

fn foreground() -> SnapshotRequest {
    SnapshotRequest {
        scope: Scope::Foreground,
        ..SnapshotRequest::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writer_on_thirty_pages_reads_the_screen_and_says_the_rest() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-writer-long");
    let paragraphs: String = (1..=600)
        .map(|i| {
            format!("<text:p>Paragraph {i}: the figures for region {} rose by {} percent, and the board asked for a review of the costs that followed.</text:p>\n", i % 7, i % 13)
        })
        .collect();
    let file = dir.path().join("long.fodt");
    std::fs::write(
        &file,
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<office:document xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.3\" office:mimetype=\"application/vnd.oasis.opendocument.text\"><office:body><office:text>\n{paragraphs}</office:text></office:body></office:document>\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let app = libreoffice(&desk, "writer", &dir, &file);
    let mut session = desk.session();
    opened(&mut session, &app, "long.fodt").await;
    let snap = until(
        &mut session,
        &foreground(),
        "the document's first page, every control laid out",
        60,
        true,
        |s| s.text.contains("\"Paragraph 1: ") && unbounded(s).is_none(),
    )
    .await;
    assert_read_right(&snap);
    let shown = nodes(&snap)
        .into_iter()
        .filter(|n| n.name.starts_with("Paragraph "))
        .count();
    assert!(
        (5..100).contains(&shown),
        "{shown} paragraphs read:\n{}",
        snap.text
    );
    assert!(
        snap.text.contains(
            "shows only what is on screen (0% of the way down): scroll it down to read the rest"
        ),
        "no word of the 29 pages below:\n{}",
        snap.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn impress_on_twenty_slides_lists_the_thumbnails_on_screen() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-impress-deck");
    let pages: String = (1..=20)
        .map(|i| format!("<draw:page draw:name=\"Slide{i}\"><draw:frame svg:x=\"2cm\" svg:y=\"1cm\" svg:width=\"24cm\" svg:height=\"3cm\"><draw:text-box><text:p>Topic {i}</text:p></draw:text-box></draw:frame></draw:page>"))
        .collect();
    let file = dir.path().join("deck.fodp");
    std::fs::write(
        &file,
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<office:document xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:draw=\"urn:oasis:names:tc:opendocument:xmlns:drawing:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" xmlns:svg=\"urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0\" xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\" office:version=\"1.3\" office:mimetype=\"application/vnd.oasis.opendocument.presentation\"><office:styles/><office:master-styles><style:master-page style:name=\"Default\"/></office:master-styles><office:body><office:presentation>{pages}</office:presentation></office:body></office:document>\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let app = libreoffice(&desk, "impress", &dir, &file);
    let mut session = desk.session();
    opened(&mut session, &app, "deck.fodp").await;
    let snap = until(
        &mut session,
        &foreground(),
        "the slide pane, every control laid out",
        60,
        true,
        |s| {
            s.text.contains("\"Slides View\"")
                && s.text.contains("\"Slide1\"")
                && unbounded(s).is_none()
        },
    )
    .await;
    assert_read_right(&snap);
    let thumbnails: Vec<&str> = nodes(&snap)
        .into_iter()
        .filter(|n| n.name.starts_with("Slide") && n.name[5..].parse::<u32>().is_ok())
        .map(|n| n.name.as_str())
        .collect();
    assert!(
        (5..20).contains(&thumbnails.len()),
        "thumbnails read: {thumbnails:?}\n{}",
        snap.text
    );
    assert!(
        snap.text
            .contains("document \"Slides View\" shows only what is on screen"),
        "no word of the slides below:\n{}",
        snap.text
    );
    // The slide shown, with its title.
    assert!(snap.text.contains("\"Topic 1\""), "{}", snap.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nautilus_on_five_hundred_files_folds_the_rows_off_screen() {
    let desk = Desk::start();
    let dir = TempDir::new("cup-nautilus-500");
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..500 {
        std::fs::write(
            files.join(format!("note-{i:03}.txt")),
            format!("note {i}\n"),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    let home = dir.path().display().to_string();
    let options = LaunchOptions {
        timeout: Duration::from_secs(60),
        env: vec![("HOME".into(), home)],
    };
    let folder = files.display().to_string();
    desk.sandbox
        .launch_with("nautilus", &["--new-window", folder.as_str()], &options)
        .unwrap_or_else(|e| panic!("cannot launch nautilus: {e} (apt-get install nautilus, or scripts/install-deps.sh)"));
    let mut session = desk.session();
    let snap = until(
        &mut session,
        &foreground(),
        "the folder's files",
        60,
        true,
        |s| s.text.contains("\"note-000.txt\""),
    )
    .await;
    assert_read_right(&snap);
    // Files with a place on the screen.
    let files_placed = |s: &cup::Snapshot| {
        nodes(s)
            .into_iter()
            .filter(|n| n.role == Role::Cell && n.name.starts_with("note-") && n.bounds.is_some())
            .count()
    };
    let on_screen = files_placed(&snap);
    assert!(
        (4..100).contains(&on_screen),
        "{on_screen} files on screen:\n{}",
        snap.text
    );
    let listed = snap.text.matches("cel \"note-").count();
    assert!(
        listed < 100,
        "{listed} file lines: the rows off screen were not folded"
    );
    assert!(
        snap.text.contains("offscreen items without bounds under"),
        "no fold line for the files off screen:\n{}",
        snap.text
    );
    // find still reaches a file far down the folder.
    let found = session
        .find(&cup_protocol::FindQuery {
            name: Some("note-450.txt".into()),
            ..cup_protocol::FindQuery::default()
        })
        .unwrap_or_else(|e| panic!("find: {e}"));
    assert!(!found.is_empty(), "find did not reach note-450.txt");

    // Scrolled to the folder's end, the files now on screen come with
    // their places and lines. (What a file holds below its cell was never
    // read while it was off screen: it is read once GTK shows it.)
    let view = nodes(&snap)
        .into_iter()
        .find(|n| n.children.iter().any(|c| c.role == Role::Table))
        .map(|n| n.id.clone())
        .unwrap_or_else(|| panic!("no scrolled view around the files:\n{}", snap.text));
    let placed = |s: &cup::Snapshot, name: &str| {
        nodes(s)
            .into_iter()
            .any(|n| n.role == Role::Cell && n.name == name && n.bounds.is_some())
    };
    let mut end = None;
    for _ in 0..40 {
        let scrolled = session
            .action(
                &view,
                "scroll",
                &cup::ActionParams {
                    direction: Some(cup_protocol::Direction::Down),
                    amount: Some(25),
                    ..cup::ActionParams::default()
                },
            )
            .await
            .unwrap_or_else(|e| panic!("scroll {view}: {e}"));
        assert!(scrolled.success, "{scrolled:?}");
        let now = complete_snapshot(&mut session, &foreground()).await;
        if placed(&now, "note-499.txt") {
            end = Some(now);
            break;
        }
    }
    let end = end.unwrap_or_else(|| panic!("note-499.txt never came on screen"));
    // GTK 4.8 leaves the rows scrolled away with the places they had: the
    // first files are not on screen any more, and no more files are placed
    // than the view holds.
    assert!(!placed(&end, "note-000.txt"), "{}", end.text);
    let on_screen = files_placed(&end);
    assert!(
        (4..100).contains(&on_screen),
        "{on_screen} files placed at the end:\n{}",
        end.text
    );
    assert_read_right(&end);
    assert!(end.text.contains("cel \"note-499.txt\""), "{}", end.text);
    // Its content was read once it came on screen.
    let last = nodes(&end)
        .into_iter()
        .find(|n| n.role == Role::Cell && n.name == "note-499.txt")
        .unwrap_or_else(|| panic!("no cell note-499.txt:\n{}", end.text));
    assert!(
        !last.children.is_empty(),
        "note-499.txt's content was not read: {last:?}"
    );

    // The list view (ctrl+1) keeps the place: a row a file, its name in a
    // text below it (GTK names neither row nor cell). The rows on screen
    // are placed with their names read; the rows GTK keeps off screen are
    // folded.
    let pressed = session
        .press("ctrl+1")
        .await
        .unwrap_or_else(|e| panic!("press ctrl+1: {e}"));
    assert!(pressed.success, "{pressed:?}");
    let named_rows = |s: &cup::Snapshot| -> Vec<String> {
        nodes(s)
            .into_iter()
            .filter(|n| n.role == Role::Row && n.bounds.is_some())
            .filter_map(|row| {
                let mut below: Vec<&cup_protocol::Node> = row.children.iter().collect();
                while let Some(n) = below.pop() {
                    if n.role == Role::Text && n.name.starts_with("note-") {
                        return Some(n.name.clone());
                    }
                    below.extend(n.children.iter());
                }
                None
            })
            .collect()
    };
    let list = until(
        &mut session,
        &foreground(),
        "the list view's rows",
        30,
        true,
        |s| named_rows(s).len() >= 4,
    )
    .await;
    assert_read_right(&list);
    let rows = named_rows(&list);
    assert!(
        rows.len() < 100,
        "{} rows placed:\n{}",
        rows.len(),
        list.text
    );
    assert!(
        rows.iter().any(|r| r.as_str() >= "note-400.txt"),
        "the list view does not show the folder's end: {rows:?}\n{}",
        list.text
    );
    assert!(
        list.text.contains("offscreen items without bounds under"),
        "no fold line for the rows off screen:\n{}",
        list.text
    );
}
