//! Firefox ESR (Gecko) on the sandbox desktop, with a fresh profile and
//! pages served on loopback: the first snapshot of a freshly loaded page
//! names every control with bounds (Gecko sends web content's facts only
//! once asked: see cup-linux's `capture::warm`), and every action on web
//! content reports the effect it caused, read back by a fresh snapshot.

use std::time::{Duration, Instant};

use crate::support::firefox::{self, Pages};
use crate::support::{find, has, nodes, snapshot, Desk};
use cup::{ActionParams, ActionResult, Effect, Session, Snapshot, SnapshotRequest};
use cup_protocol::{Direction, Node, Role, Scope, State};

const TYPED: &str = "Zoë ✓ 東京 👍🏽";

const FORM: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>Form test</title></head>
<body>
<h1>Hello</h1>
<p><label>Name <input id="name" type="text"></label>
<label><input id="agree" type="checkbox"> Agree</label>
<button id="go" onclick="out.textContent = 'Clicked ' + (++window.clicks)">Go</button></p>
<p id="out">Not clicked</p>
<p><label>Size <select id="size" onchange="sized.textContent = 'Size changed to ' + this.value"><option>Small</option><option>Medium</option><option>Large</option></select></label></p>
<p id="sized">Size not changed</p>
<p><label>Notes <textarea id="notes"></textarea></label></p>
<div id="editor" contenteditable="true" role="textbox" aria-label="Editor" style="min-height: 2em; border: 1px solid"></div>
<p><a href="/second">Second page</a></p>
<div style="height: 4000px">Tall content</div>
<p>Bottom line</p>
<script>window.clicks = 0;</script>
</body></html>"#;

const SECOND: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>Second page</title></head>
<body><h1>Arrived</h1></body></html>"#;

fn request(title: &str) -> SnapshotRequest {
    SnapshotRequest {
        scope: Scope::Full,
        app: Some(title.into()),
        ..SnapshotRequest::default()
    }
}

/// Waits (by window titles only, which touch no web content) until the
/// window of the page titled `title` is there.
async fn wait_for_title(session: &mut Session, title: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let overview = SnapshotRequest {
        scope: Scope::Overview,
        ..SnapshotRequest::default()
    };
    loop {
        let snap = snapshot(session, &overview).await;
        if snap.text.contains(title) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no window titled {title:?} within 60 s; the windows:\n{}",
            snap.text
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn one<'a>(snap: &'a Snapshot, role: Role, name: &str) -> &'a Node {
    let found = find(snap, role, name);
    assert_eq!(
        found.len(),
        1,
        "one {role:?} {name:?} expected in:\n{}",
        snap.text
    );
    found[0]
}

/// The editable field labelled `name` (input, textarea, contenteditable).
fn field<'a>(snap: &'a Snapshot, name: &str) -> &'a Node {
    let found: Vec<&Node> = nodes(snap)
        .into_iter()
        .filter(|n| n.name == name && n.actions.contains(&cup_protocol::Action::Type))
        .collect();
    assert_eq!(found.len(), 1, "one field {name:?} in:\n{}", snap.text);
    found[0]
}

async fn act(session: &mut Session, id: &str, verb: &str, params: &ActionParams) -> ActionResult {
    let result = session
        .action(id, verb, params)
        .await
        .unwrap_or_else(|e| panic!("{verb} {id}: {e}"));
    assert!(result.success, "{verb} {id}: {result:?}");
    assert_eq!(result.effect, Effect::Confirmed, "{verb} {id}: {result:?}");
    result
}

fn changed(result: &ActionResult, target: &str, field: &str) -> bool {
    result
        .changes
        .iter()
        .any(|c| c.target == target && c.field == field)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn firefox_web_content_from_the_first_snapshot_and_every_action_confirmed() {
    let desk = Desk::start();
    let pages = Pages::serve(&[("/", FORM), ("/second", SECOND)]);
    let profile = firefox::profile("cup-firefox");
    let _firefox = firefox::launch(&desk, &profile, &pages.url("/"));
    let mut session = desk.session();
    wait_for_title(&mut session, "Form test").await;

    // The first snapshot of the page: every control named, with bounds
    // and its actions.
    let req = request("Form test");
    let snap = snapshot(&mut session, &req).await;
    assert!(
        !snap.text.contains("# partial capture"),
        "first snapshot partial:\n{}",
        snap.text
    );
    let heading = one(&snap, Role::Heading, "Hello");
    assert!(heading.bounds.is_some(), "{heading:?}");
    let controls = [
        (Role::Checkbox, "Agree"),
        (Role::Button, "Go"),
        (Role::Combobox, "Size"),
        (Role::Link, "Second page"),
    ];
    for (role, name) in controls {
        let n = one(&snap, role, name);
        assert!(
            n.bounds.is_some(),
            "{role:?} {name:?} has no bounds:\n{}",
            snap.text
        );
        assert!(
            !n.actions.is_empty(),
            "{role:?} {name:?} has no actions:\n{}",
            snap.text
        );
    }
    for name in ["Name", "Notes", "Editor"] {
        let n = field(&snap, name);
        assert!(
            n.bounds.is_some(),
            "field {name:?} has no bounds:\n{}",
            snap.text
        );
    }
    assert_eq!(
        one(&snap, Role::Combobox, "Size").value.as_deref(),
        Some("Small"),
        "{}",
        snap.text
    );

    // Click: the page reacts.
    let go = one(&snap, Role::Button, "Go").id.clone();
    let clicked = act(&mut session, &go, "click", &ActionParams::default()).await;
    let after = snapshot(&mut session, &req).await;
    assert_eq!(
        find(&after, Role::Text, "Clicked 1").len(),
        1,
        "{clicked:?}\n{}",
        after.text
    );

    // Toggle: checked, as the result says.
    let agree = one(&after, Role::Checkbox, "Agree").id.clone();
    let toggled = act(&mut session, &agree, "toggle", &ActionParams::default()).await;
    assert!(
        toggled.changes.iter().any(
            |c| c.target == agree && c.after.as_deref().is_some_and(|a| a.contains("+checked"))
        ),
        "{toggled:?}"
    );
    let after = snapshot(&mut session, &req).await;
    assert!(
        has(one(&after, Role::Checkbox, "Agree"), State::Checked),
        "{}",
        after.text
    );

    // Select an option of the <select>.
    let large: Vec<&Node> = nodes(&after)
        .into_iter()
        .filter(|n| n.name == "Large" && n.actions.contains(&cup_protocol::Action::Select))
        .collect();
    assert_eq!(large.len(), 1, "{}", after.text);
    let large = large[0].id.clone();
    act(&mut session, &large, "select", &ActionParams::default()).await;
    let after = snapshot(&mut session, &req).await;
    assert_eq!(
        one(&after, Role::Combobox, "Size").value.as_deref(),
        Some("Large"),
        "{}",
        after.text
    );
    // The page heard it (its change handler ran), as for a person's
    // choice; then the drop-down chooses by an option's name.
    assert!(
        after.text.contains("Size changed to Large"),
        "{}",
        after.text
    );
    let size = one(&after, Role::Combobox, "Size").id.clone();
    let params = ActionParams {
        value: Some("Medium".into()),
        ..ActionParams::default()
    };
    act(&mut session, &size, "select", &params).await;
    let after = snapshot(&mut session, &req).await;
    assert_eq!(
        one(&after, Role::Combobox, "Size").value.as_deref(),
        Some("Medium"),
        "{}",
        after.text
    );
    assert!(
        after.text.contains("Size changed to Medium"),
        "{}",
        after.text
    );

    // Type into an input, a textarea and a contenteditable.
    for name in ["Name", "Notes", "Editor"] {
        let id = field(&after, name).id.clone();
        let params = ActionParams {
            value: Some(TYPED.into()),
            ..ActionParams::default()
        };
        let typed = act(&mut session, &id, "type", &params).await;
        assert!(
            typed.message.contains("reads back exactly"),
            "{name}: {typed:?}"
        );
        assert!(changed(&typed, &id, "text"), "{name}: {typed:?}");
        let fresh = snapshot(&mut session, &req).await;
        assert_eq!(
            field(&fresh, name).value.as_deref(),
            Some(TYPED),
            "{name}:\n{}",
            fresh.text
        );
    }

    // Scroll the long page: the content moves.
    let after = snapshot(&mut session, &req).await;
    let doc = one(&after, Role::Document, "Form test").id.clone();
    let params = ActionParams {
        direction: Some(Direction::Down),
        amount: Some(5),
        ..ActionParams::default()
    };
    let scrolled = act(&mut session, &doc, "scroll", &params).await;
    assert!(changed(&scrolled, &doc, "scroll"), "{scrolled:?}");

    // Follow the link: the next page loads.
    let after = snapshot(&mut session, &req).await;
    let link = one(&after, Role::Link, "Second page").id.clone();
    act(&mut session, &link, "click", &ActionParams::default()).await;
    wait_for_title(&mut session, "Second page").await;
    let second = snapshot(&mut session, &request("Second page")).await;
    let arrived = one(&second, Role::Heading, "Arrived");
    assert!(arrived.bounds.is_some(), "{}", second.text);
}
