//! Actions on real pages in headless Chromium, each checked against what
//! the page shows afterwards: clicks, toggles, typing (Unicode, replacing),
//! set value, select, increment, dismiss, keys, scroll with paging, and
//! screenshots.

use crate::support::{nodes, Site, Web};
use cup::{ActionParams, Direction, Effect, ShotTarget};
use cup_protocol::compact::PageRequest;
use cup_protocol::{Role, State};
use cup_web::{Endpoint, PageScript, WebAdapter};

const PAGE: &str = r#"<!doctype html><html><head><title>Actions</title></head><body>
<button id="b" onclick="this.dataset.n=(+this.dataset.n||0)+1; document.getElementById('out').textContent='Clicked '+this.dataset.n">Send</button>
<p id="out">Not clicked</p>
<label><input type="checkbox"> Subscribe</label>
<label><input type="checkbox" disabled> Locked</label>
<label>Name <input type="text" value="Ada"></label>
<label>Count <input type="number" value="3" min="0" max="10"></label>
<label>Volume <input type="range" value="30" min="0" max="100"></label>
<label>Country <select><option>France</option><option selected>Japan</option><option value="pe">Peru</option></select></label>
<div contenteditable="true" aria-label="Rich text">Old text</div>
<dialog id="d"><p>Are you sure?</p><button>OK</button></dialog>
<button onclick="document.getElementById('d').showModal()">Open dialog</button>
<div role="list" aria-label="Rows" style="height:200px;overflow:auto;border:1px solid">
ROWS
</div>
<div style="height:2000px">Spacer</div>
</body></html>"#;

fn page() -> String {
    let rows: String = (1..=5000)
        .map(|i| format!("<div role=\"listitem\" style=\"height:20px\">Row {i}</div>"))
        .collect();
    PAGE.replace("ROWS", &rows)
}

/// What the page itself holds: `expr` evaluated in the foreground page
/// through `page`, a connection of its own (not cup's read-back).
async fn in_page(page: &WebAdapter, expr: &str) -> serde_json::Value {
    page.page_script(None, &PageScript::ExecuteJavascript(expr.to_owned()))
        .await
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

fn value(v: &str) -> ActionParams {
    ActionParams {
        value: Some(v.to_owned()),
        ..ActionParams::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_verb_reports_what_the_page_shows() {
    let site = Site::serve(&[("/a.html", page())]);
    let mut web = Web::open(&site.url("/a.html"));
    // The page's tree grows while it loads: wait for its last control.
    let snap = web
        .snapshot_until(|s| {
            let all = nodes(s);
            all.iter()
                .any(|n| n.role == Role::Generic && n.name.contains("Rich text"))
                && all
                    .iter()
                    .any(|n| n.role == Role::Button && n.name == "Open dialog")
        })
        .await;
    let id = |role: Role, name: &str| {
        nodes(&snap)
            .into_iter()
            .find(|n| n.role == role && n.name.contains(name))
            .map(|n| n.id.clone())
            .unwrap_or_else(|| panic!("no {role:?} {name:?} in:\n{}", snap.text))
    };
    let page = WebAdapter::new(Endpoint::Http {
        host: "127.0.0.1".into(),
        port: web.browser.port(),
    });
    let s = &mut web.session;
    let none = ActionParams::default();

    // Click: the page's own text changes.
    let r = s
        .action(&id(Role::Button, "Send"), "click", &none)
        .await
        .expect("click");
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert!(r.changes.iter().any(|c| c.target == "page"), "{r:?}");

    // Toggle: checked appears.
    let check = id(Role::Checkbox, "Subscribe");
    let r = s.action(&check, "toggle", &none).await.expect("toggle");
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert!(
        r.changes.iter().any(
            |c| c.target == check && c.after.as_deref().is_some_and(|a| a.contains("+checked"))
        ),
        "{r:?}"
    );

    // A disabled check box: clicked, nothing happens, and cup says so.
    let r = s
        .action(&id(Role::Checkbox, "Locked"), "click", &none)
        .await
        .expect("click disabled");
    assert_eq!(r.effect, Effect::NoChange, "{r:?}");

    // Type replaces the text and reads it back exactly.
    let name = id(Role::TextBox, "Name");
    let text = "héllo ✓ 日本 \"q\"";
    let r = s.action(&name, "type", &value(text)).await.expect("type");
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert!(r.message.contains("reads back exactly"), "{r:?}");
    let field = "document.querySelector('input[type=text]').value";
    assert_eq!(in_page(&page, field).await, text);
    let r = s
        .action(&name, "type", &value("second"))
        .await
        .expect("retype");
    assert!(r.message.contains("reads back exactly"), "{r:?}");
    assert_eq!(in_page(&page, field).await, "second", "type replaces");

    // Rich text (contenteditable).
    let rich = id(Role::Generic, "Rich text");
    let r = s
        .action(&rich, "type", &value("New text"))
        .await
        .expect("rich");
    assert!(r.message.contains("reads back exactly"), "{r:?}");
    assert_eq!(
        in_page(
            &page,
            "document.querySelector('[contenteditable]').textContent"
        )
        .await,
        "New text"
    );

    // Spin button and slider.
    let count = id(Role::SpinButton, "Count");
    let r = s
        .action(&count, "increment", &none)
        .await
        .expect("increment");
    assert!(
        r.changes
            .iter()
            .any(|c| c.field == "value" && c.after.as_deref() == Some("4")),
        "{r:?}"
    );
    assert_eq!(
        in_page(&page, "document.querySelector('input[type=number]').value").await,
        "4"
    );
    let r = s
        .action(&id(Role::Slider, "Volume"), "setvalue", &value("70"))
        .await
        .expect("setvalue");
    assert!(r.message.contains("reads back exactly"), "{r:?}");
    assert_eq!(
        in_page(&page, "document.querySelector('input[type=range]').value").await,
        "70"
    );

    // Select by label, by value; a missing option lists the options.
    let country = id(Role::Combobox, "Country");
    let r = s
        .action(&country, "select", &value("Peru"))
        .await
        .expect("select");
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert!(r.message.contains("Peru"), "{r:?}");
    assert_eq!(
        in_page(&page, "document.querySelector('select').value").await,
        "pe"
    );
    let err = s
        .action(&country, "select", &value("Mars"))
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.contains("no option \"Mars\"") && err.contains("\"France\""),
        "{err}"
    );

    // A modal dialog, opened then dismissed.
    let r = s
        .action(&id(Role::Button, "Open dialog"), "click", &none)
        .await
        .expect("open dialog");
    assert!(
        r.changes
            .iter()
            .any(|c| c.field == "dialogs" && c.after.as_deref() == Some("1")),
        "{r:?}"
    );
    let snap = web
        .snapshot_until(|s| s.text.contains("Are you sure?"))
        .await;
    let dialog = nodes(&snap)
        .into_iter()
        .find(|n| n.role == Role::Dialog)
        .map(|n| n.id.clone())
        .unwrap_or_else(|| panic!("no dialog in:\n{}", snap.text));
    let r = web
        .session
        .action(&dialog, "dismiss", &ActionParams::default())
        .await
        .expect("dismiss");
    assert!(
        r.changes
            .iter()
            .any(|c| c.field == "dialogs" && c.after.as_deref() == Some("0")),
        "{r:?}"
    );

    // Keys: ctrl+a in a focused field selects its text.
    let snap = web
        .snapshot_until(|s| !s.text.contains("Are you sure?"))
        .await;
    let name = nodes(&snap)
        .into_iter()
        .find(|n| n.role == Role::TextBox && n.name.contains("Name"))
        .map(|n| n.id.clone())
        .unwrap_or_default();
    web.session
        .action(&name, "focus", &ActionParams::default())
        .await
        .expect("focus");
    let r = web.session.press("ctrl+a").await.expect("press");
    assert!(r.changes.iter().any(|c| c.field == "selection"), "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_list_is_clipped_paged_and_scrolled() {
    let site = Site::serve(&[("/a.html", page())]);
    let mut web = Web::open(&site.url("/a.html"));
    let snap = web.snapshot_until(|s| s.text.contains("Row 1")).await;
    assert!(!snap.text.contains("Row 4999"), "the whole list was shown");
    let list = nodes(&snap)
        .into_iter()
        .find(|n| n.role == Role::List && n.name == "Rows")
        .map(|n| (n.id.clone(), n.actions.clone()))
        .unwrap_or_else(|| panic!("no list in:\n{}", snap.text));
    assert!(
        list.1.contains(&cup_protocol::Action::Scroll),
        "{:?}",
        list.1
    );
    assert!(
        snap.text.contains("more"),
        "no clipping hint:\n{}",
        snap.text
    );
    let visible_last = (1..=5000)
        .rev()
        .find(|i| snap.text.contains(&format!("\"Row {i}\"")))
        .unwrap_or(0);
    assert!(
        visible_last > 0 && visible_last < 30,
        "last row shown: {visible_last}"
    );

    // page: the next rows, without scrolling.
    let next = web
        .session
        .page(
            &list.0,
            &PageRequest {
                direction: Some(Direction::Down),
                ..PageRequest::default()
            },
        )
        .expect("page");
    assert!(
        next.contains(&format!("Row {}", visible_last + 1)),
        "page did not show the next row:\n{next}"
    );

    // scroll, then a new snapshot shows later rows.
    let r = web
        .session
        .action(
            &list.0,
            "scroll",
            &ActionParams {
                direction: Some(Direction::Down),
                amount: Some(5),
                ..ActionParams::default()
            },
        )
        .await
        .expect("scroll");
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    let snap = web.snapshot_until(|s| !s.text.contains("\"Row 1\"")).await;
    assert!(
        snap.text.contains("Row 30"),
        "after scrolling:\n{}",
        snap.text
    );
    let offscreen_rows = nodes(&snap)
        .into_iter()
        .filter(|n| n.role == Role::ListItem && n.states.contains(&State::Offscreen))
        .count();
    assert!(offscreen_rows > 4000, "{offscreen_rows}");

    // Screenshots: the viewport, a region, the whole page.
    let view = web
        .session
        .screenshot(&ShotTarget::Screen)
        .await
        .expect("shot");
    assert!(view.png.starts_with(b"\x89PNG"));
    assert_eq!(i64::from(view.width), snap.envelope.screen.w);
    let region = web
        .session
        .screenshot(&ShotTarget::Region(cup_protocol::Rect::new(
            10, 20, 200, 100,
        )))
        .await
        .expect("region");
    assert_eq!(
        (region.width, region.height, region.x, region.y),
        (200, 100, 10, 20)
    );
    let full = web
        .session
        .screenshot(&ShotTarget::FullPage)
        .await
        .expect("full");
    assert!(
        full.height > view.height,
        "{} vs {}",
        full.height,
        view.height
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_scripting_returns_values_text_and_dom_and_surfaces_errors() {
    use cup_web::{Endpoint, PageScript, WebAdapter};
    let site = Site::serve(&[(
        "/t.html",
        r#"<!doctype html><title>Table</title><table><tr><td><a href="/a" data-id="7">Alpha</a></td></tr>
<tr><td><a href="/b" data-id="8">Beta</a></td></tr></table>"#
            .to_owned(),
    )]);
    let web = Web::open(&site.url("/t.html"));
    let adapter = WebAdapter::new(Endpoint::Http {
        host: "127.0.0.1".into(),
        port: web.browser.port(),
    });
    let start = std::time::Instant::now();
    let text = loop {
        let t = adapter
            .page_script(None, &PageScript::GetText)
            .await
            .expect("text");
        if t.as_str().is_some_and(|s| s.contains("Beta")) || start.elapsed().as_secs() > 10 {
            break t;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert!(
        text.as_str()
            .is_some_and(|t| t.contains("Alpha") && t.contains("Beta")),
        "{text}"
    );
    let v = adapter
        .page_script(
            None,
            &PageScript::ExecuteJavascript("(async () => 6 * 7)()".into()),
        )
        .await
        .expect("js");
    assert_eq!(v, serde_json::json!(42));
    let rows = adapter
        .page_script(
            Some("Table"),
            &PageScript::QueryDom {
                selector: "a[data-id]".into(),
                attributes: vec!["href".into(), "data-id".into()],
            },
        )
        .await
        .expect("query");
    assert_eq!(
        rows,
        serde_json::json!([
            {"tag": "a", "innerText": "Alpha", "href": "/a", "data-id": "7"},
            {"tag": "a", "innerText": "Beta", "href": "/b", "data-id": "8"}
        ])
    );
    let err = adapter
        .page_script(
            None,
            &PageScript::ExecuteJavascript("(() => { throw new Error('boom') })()".into()),
        )
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.contains("the page threw") && err.contains("boom"),
        "{err}"
    );
    let err = adapter
        .page_script(
            None,
            &PageScript::QueryDom {
                selector: "a[".into(),
                attributes: vec![],
            },
        )
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("not a valid selector"), "{err}");
    // open_app on the web opens a page in a new tab and waits for it.
    let mut web = web;
    let launched = web
        .session
        .open_app(&site.url("/t.html?second"))
        .await
        .expect("open");
    let window = launched.window.expect("a window for the new tab");
    assert_eq!(window.info.title, "Table");
    assert!(window
        .info
        .url
        .as_deref()
        .is_some_and(|u| u.ends_with("?second")));
    let pages = web.session.adapter().windows().await.expect("windows");
    assert_eq!(pages.len(), 2, "{pages:?}");
    let err = web
        .session
        .open_app("calculator")
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("not a web address"), "{err}");
    let err = adapter
        .page_script(Some("no such page"), &PageScript::GetText)
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("no page matches"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_dialogs_are_reported_and_closed_never_hang() {
    let site = Site::serve(&[(
        "/d.html",
        r#"<!doctype html><title>Dialogs</title>
<button onclick="alert('Saved!')">Save</button>
<button onclick="document.getElementById('r').textContent = 'answer ' + confirm('Delete?')">Delete</button>
<p id="r">no answer</p>"#
            .to_owned(),
    )]);
    let mut web = Web::open(&site.url("/d.html"));
    let snap = web.snapshot_until(|s| s.text.contains("Delete")).await;
    let id = |name: &str| {
        nodes(&snap)
            .into_iter()
            .find(|n| n.role == Role::Button && n.name == name)
            .map(|n| n.id.clone())
            .unwrap_or_else(|| panic!("no {name} in:\n{}", snap.text))
    };
    let (save, delete) = (id("Save"), id("Delete"));
    let none = ActionParams::default();
    let started = std::time::Instant::now();
    let r = web
        .session
        .action(&save, "click", &none)
        .await
        .expect("click");
    assert!(
        started.elapsed().as_secs() < 5,
        "the click waited for the alert"
    );
    assert_eq!(r.effect, Effect::Confirmed, "{r:?}");
    assert!(
        r.changes.iter().any(
            |c| c.field == "dialog" && c.after.as_deref().is_some_and(|a| a.contains("Saved!"))
        ),
        "{r:?}"
    );
    // The page answers nothing while the alert is open: a snapshot says so
    // at once, with what to do.
    let started = std::time::Instant::now();
    let err = web
        .session
        .snapshot(&cup::SnapshotRequest::default())
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.contains("dialog blocks the page") && err.contains("press escape"),
        "{err}"
    );
    assert!(started.elapsed().as_secs() < 2, "the snapshot waited");
    // Other actions are refused with what to do; escape dismisses it.
    let err = web
        .session
        .action(&delete, "click", &none)
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("press escape"), "{err}");
    let r = web.session.press("escape").await.expect("escape");
    assert!(r.message.starts_with("Dismissed"), "{r:?}");

    // confirm(): enter accepts it, and the page reads the answer.
    let r = web
        .session
        .action(&delete, "click", &none)
        .await
        .expect("click");
    assert!(
        r.changes
            .iter()
            .any(|c| c.field == "dialog"
                && c.after.as_deref().is_some_and(|a| a.contains("confirm"))),
        "{r:?}"
    );
    let r = web.session.press("enter").await.expect("enter");
    assert!(r.message.starts_with("Accepted"), "{r:?}");
    let answered = |s: &cup::Snapshot| nodes(s).iter().any(|n| n.name == "answer true");
    let after = web.snapshot_until(answered).await;
    assert!(answered(&after), "{}", after.text);
}
