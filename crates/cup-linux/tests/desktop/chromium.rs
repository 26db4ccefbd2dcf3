//! Chromium over AT-SPI: web content with --force-renderer-accessibility,
//! a stable tree, and the advice when it is missing.

use std::path::Path;

use crate::support::{find, has, nodes, request, snapshot, Desk};
use cup_protocol::{Role, Scope, State};

fn page() -> (crate::support::TempDir, String) {
    let dir = crate::support::TempDir::new("cup-chromium-page");
    let path = dir.path().join("form.html");
    std::fs::write(
        &path,
        r##"<!doctype html><html><head><title>Order</title></head><body>
<h1>Order form</h1>
<label><input type=checkbox checked> Gift wrap</label>
<label><input type=checkbox> Express</label>
<button type=button>Submit order</button>
<a href="#more">More details</a>
</body></html>"##,
    )
    .unwrap_or_else(|e| panic!("write the page: {e}"));
    (dir, format!("file://{}", path.display()))
}

fn chromium_args(profile: &Path, url: &str, a11y: bool) -> Vec<String> {
    let mut args = vec![
        "--no-sandbox".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-gpu".to_owned(),
        "--disable-background-networking".to_owned(),
        format!("--user-data-dir={}", profile.display()),
        "--window-size=1200,900".to_owned(),
    ];
    if a11y {
        args.push("--force-renderer-accessibility".to_owned());
    }
    args.push(url.to_owned());
    args
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_web_content_is_captured_and_stable() {
    // The page's folder (with Chromium's profile) goes after the desktop,
    // once Chromium no longer writes in it.
    let (dir, url) = page();
    let desk = Desk::start();
    let profile = dir.path().join("profile");
    let args = chromium_args(&profile, &url, true);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    desk.launch("chromium", &args);
    let mut session = desk.session();

    // The page loads after the window appears: wait for the heading.
    let mut snap = snapshot(&mut session, &request(Scope::Foreground)).await;
    for _ in 0..50 {
        if !find(&snap, Role::Heading, "Order form").is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        snap = snapshot(&mut session, &request(Scope::Foreground)).await;
    }
    assert_eq!(
        find(&snap, Role::Heading, "Order form").len(),
        1,
        "{}",
        snap.text
    );
    let gift = find(&snap, Role::Checkbox, "Gift wrap");
    assert_eq!(gift.len(), 1, "{}", snap.text);
    assert!(has(gift[0], State::Checked));
    let express = find(&snap, Role::Checkbox, "Express");
    assert!(express.len() == 1 && !has(express[0], State::Checked));
    assert_eq!(find(&snap, Role::Button, "Submit order").len(), 1);
    assert_eq!(find(&snap, Role::Link, "More details").len(), 1);
    assert!(snap.text.contains("hdg \"Order form\""), "{}", snap.text);
    // No right-click noise on every web node.
    assert!(!snap.text.contains("rclk"), "{}", snap.text);
    crate::support::assert_bounds_on_screen(&snap);

    let counts: Vec<usize> = {
        let mut v = vec![nodes(&snap).len()];
        for _ in 0..3 {
            let s = snapshot(&mut session, &request(Scope::Foreground)).await;
            v.push(nodes(&s).len());
        }
        v
    };
    assert!(
        counts.windows(2).all(|w| w[0] == w[1]),
        "node counts vary: {counts:?}"
    );
}

/// In cup's desktop (the bus's `org.a11y.Status.IsEnabled` set, the
/// accessibility variables in the apps' environment) Chromium started
/// without `--force-renderer-accessibility` shows its page: it turns its
/// renderers' accessibility on when cup first reads it, and the capture
/// reads again until the document is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_without_the_flag_shows_its_page_in_a_cup_desktop() {
    let (dir, url) = page();
    let desk = Desk::start();
    let profile = dir.path().join("profile");
    let args = chromium_args(&profile, &url, false);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    desk.launch("chromium", &args);
    let mut session = desk.session();
    // The very first read already finds the document (read again until
    // Chromium has turned its renderer's accessibility on).
    let first = snapshot(&mut session, &request(Scope::Foreground)).await;
    assert!(
        !first.text.contains("--force-renderer-accessibility"),
        "the first snapshot:\n{}",
        first.text
    );
    // The page loads after the window appears: wait for the heading.
    let snap = crate::support::until(
        &mut session,
        &request(Scope::Foreground),
        "the page's heading",
        30,
        false,
        |s| !find(s, Role::Heading, "Order form").is_empty(),
    )
    .await;
    assert!(
        !find(&snap, Role::Button, "Submit order").is_empty(),
        "{}",
        snap.text
    );
    assert!(
        !snap.text.contains("--force-renderer-accessibility") && !snap.text.contains("(ocr)"),
        "no advice and no text from pixels when the page is in the tree:\n{}",
        snap.text
    );
}

/// A Chromium whose accessibility is off (`ACCESSIBILITY_ENABLED=0`, as on
/// a desktop where nothing turned it on) gives no tree: the snapshot says
/// how to turn it on, and meanwhile reads the window from its pixels.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_with_accessibility_off_says_how_to_fix_it() {
    // The page's folder (with Chromium's profile) goes after the desktop,
    // once Chromium no longer writes in it.
    let (dir, url) = page();
    let desk = Desk::start();
    let profile = dir.path().join("profile");
    let mut chromium = desk
        .sandbox
        .command("chromium")
        .args(chromium_args(&profile, &url, false))
        .env("ACCESSIBILITY_ENABLED", "0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run chromium: {e} (scripts/install-deps.sh)"));
    let mut session = desk.session();
    // No tree to wait on: snapshots until the page's text is read from
    // the window's pixels, at most 60 s; each snapshot is a round trip to
    // the desktop and a read of its pixels, so no pause between them.
    let started = std::time::Instant::now();
    let mut text = String::new();
    while started.elapsed() < std::time::Duration::from_secs(60) {
        match session.snapshot(&request(Scope::Foreground)).await {
            Ok(s) => {
                text.clone_from(&s.text);
                if text.contains("Submit order") {
                    break;
                }
            }
            Err(e) => text = e.to_string(),
        }
    }
    let _ = chromium.kill();
    let _ = chromium.wait();
    assert!(text.contains("--force-renderer-accessibility"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("Submit order") && l.ends_with("(ocr)")),
        "the page's text, from the pixels:\n{text}"
    );
}
