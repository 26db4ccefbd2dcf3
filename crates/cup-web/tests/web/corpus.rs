//! The web corpus of issue 50, read whole: Python's "Built-in Types" page
//! and rustdoc's `Vec` page (Debian's python3-doc and rust-doc), the Django
//! admin's changelist of 100 orders and a change form, and JupyterLab with
//! a notebook open, each served on this machine by
//! `cup_sandbox::webapps` (`scripts/install-webapps.sh` installs them).
//!
//! On each page: the whole page's text (`detail=page`) is complete, parses
//! back, and every interactive element Chromium's own accessibility tree
//! has (a role cup maps to one with a meaningful action, and a name) is in
//! cup's text, by role and name, with an id cup can act on.

#![allow(clippy::print_stderr)]

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use cup::{Snapshot, SnapshotRequest};
use cup_protocol::compact::{parse, Detail, Line};
use cup_protocol::{Role, Scope};
use cup_sandbox::webapps;
use cup_web::mapping::AxNode;
use cup_web::{Endpoint, PageScript, WebAdapter};
use serde_json::{json, Value};

use crate::support::Web;

fn venv() -> PathBuf {
    webapps::venv_in(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cup-web-corpus-{}-{name}", std::process::id()))
}

/// Page scripts on the browser of `web`.
fn scripts(web: &Web) -> WebAdapter {
    WebAdapter::new(Endpoint::Http {
        host: "127.0.0.1".into(),
        port: web.browser.port(),
    })
}

/// Waits (30 s at most) until the page's text holds `marker`.
async fn wait_text(web: &Web, marker: &str) {
    let adapter = scripts(web);
    let start = Instant::now();
    loop {
        let text = adapter
            .page_script(None, &PageScript::GetText)
            .await
            .unwrap_or(Value::Null);
        if text.as_str().is_some_and(|t| t.contains(marker)) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the page did not show {marker:?} within 30 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn navigate(web: &Web, url: &str) {
    let adapter = scripts(web);
    let script = format!(
        "location.href = {}; true",
        serde_json::to_string(url).unwrap_or_default()
    );
    adapter
        .page_script(None, &PageScript::ExecuteJavascript(script))
        .await
        .unwrap_or_else(|e| panic!("navigate to {url}: {e}"));
}

/// The whole page, as an agent reading it whole gets it.
async fn whole(web: &mut Web) -> Snapshot {
    let req = SnapshotRequest {
        scope: Scope::Foreground,
        detail: Detail::Page,
        max_chars: 0,
        limits: cup::CaptureLimits {
            deadline: Duration::from_secs(30),
            ..cup::CaptureLimits::default()
        },
        ..SnapshotRequest::default()
    };
    web.session
        .snapshot(&req)
        .await
        .unwrap_or_else(|e| panic!("whole-page snapshot: {e}"))
        .clone()
}

/// Chromium's interactive elements of the page: (role, name) of each node
/// of `getFullAXTree` that cup's mapping gives a meaningful action and a
/// name.
async fn chromium_interactive(web: &Web) -> Vec<(Role, String)> {
    let cdp = web.cdp().await;
    let pages = cdp.pages().await.unwrap_or_else(|e| panic!("pages: {e}"));
    let page = pages
        .first()
        .unwrap_or_else(|| panic!("no page"))
        .id
        .clone();
    let tree = cdp
        .call(&page, "Accessibility.getFullAXTree", json!({}))
        .await
        .unwrap_or_else(|e| panic!("getFullAXTree: {e}"));
    tree.get("nodes")
        .and_then(Value::as_array)
        .map(|n| n.iter().filter_map(AxNode::from_cdp).collect::<Vec<_>>())
        .unwrap_or_default()
        .iter()
        .filter_map(|ax| cup_web::mapping::map(ax, None))
        .filter(|n| n.has_meaningful_action() && !words(&n.name).is_empty())
        .map(|n| (n.role, words(&n.name)))
        .collect()
}

/// A name without its white space (no-break spaces included): the walker
/// and Chromium space inline runs apart differently (`T>ⓘ` and `T> ⓘ`).
fn words(name: &str) -> String {
    name.split_whitespace().collect()
}

/// The checks of every corpus page; `what` names it in failures. A live
/// app changes as it settles (JupyterLab's debugger button is renamed once
/// its kernel says it can debug): cup's read is compared with Chromium's
/// only when Chromium's tree was the same just before and just after it
/// (read again until it is, 10 times at most).
async fn read_whole_and_check(web: &mut Web, what: &str) {
    let mut tries = 0;
    let (snap, expected) = loop {
        let mut before = chromium_interactive(web).await;
        let snap = whole(web).await;
        let mut after = chromium_interactive(web).await;
        before.sort();
        after.sort();
        tries += 1;
        if before == after || tries == 10 {
            break (snap, after);
        }
        eprintln!("{what}: the page changed during the read; reading again");
    };
    assert!(
        !snap.notes.iter().any(|n| n.contains("partial")),
        "{what}: the whole page is partial: {:?}",
        snap.notes
    );
    let doc = parse(&snap.text).unwrap_or_else(|e| panic!("{what}: the text does not parse: {e}"));
    let shown: HashSet<&str> = doc
        .lines
        .iter()
        .filter_map(|l| match l {
            Line::Node { fields, .. } => Some(fields.id.as_str()),
            _ => None,
        })
        .collect();
    assert!(shown.len() > 20, "{what}: only {} lines", shown.len());
    // cup's elements by role and name, those with a line of their own.
    let mut cup: HashMap<(Role, String), usize> = HashMap::new();
    for root in &snap.envelope.tree {
        for n in root.iter() {
            if shown.contains(n.id.as_str()) {
                *cup.entry((n.role, words(&n.name))).or_default() += 1;
            }
        }
    }
    assert!(
        !expected.is_empty(),
        "{what}: Chromium lists no interactive element"
    );
    let mut missing = Vec::new();
    for key in &expected {
        match cup.get_mut(key) {
            Some(n) if *n > 0 => *n -= 1,
            _ => missing.push(key.clone()),
        }
    }
    eprintln!(
        "{what}: {} lines, {} interactive elements in Chromium's tree, {} not in cup's text",
        shown.len(),
        expected.len(),
        missing.len()
    );
    assert!(
        missing.is_empty(),
        "{what}: {} of Chromium's {} interactive elements are not in cup's text: {:?}",
        missing.len(),
        expected.len(),
        &missing[..missing.len().min(12)]
    );
}

/// `max_tokens=2000` on the whole Sphinx page (over 80,000 tokens): the
/// text costs at most 2,000 o200k tokens, parses back, and keeps the
/// focused element (the last search box of the page, far below the fold).
async fn budget_keeps_the_focus(web: &mut Web) {
    let focus = "const q = [...document.querySelectorAll('input[name=q]')].pop(); \
                 q.focus(); document.activeElement === q";
    let focused = scripts(web)
        .page_script(None, &PageScript::ExecuteJavascript(focus.into()))
        .await
        .unwrap_or_else(|e| panic!("focus the search box: {e}"));
    assert_eq!(focused, json!(true), "the page has a search box to focus");
    let req = SnapshotRequest {
        detail: Detail::Page,
        max_tokens: 2000,
        limits: cup::CaptureLimits {
            deadline: Duration::from_secs(30),
            ..cup::CaptureLimits::default()
        },
        ..SnapshotRequest::default()
    };
    let snap = web
        .session
        .snapshot(&req)
        .await
        .unwrap_or_else(|e| panic!("budgeted snapshot: {e}"));
    let text = &snap.text;
    let cost = cup::tokens::count(text);
    eprintln!(
        "Python's page in 2,000 tokens: {cost} tokens, {} lines",
        text.lines().count()
    );
    assert!(cost <= 2000, "{cost} tokens over 2,000:\n{text}");
    assert!(text.contains("# max_tokens 2000: "), "{text}");
    parse(text).unwrap_or_else(|e| panic!("the budgeted text parses: {e}\n{text}"));
    let focused = text
        .lines()
        .find(|l| {
            let states = l.split_once(" {").map_or("", |(_, s)| s);
            states
                .split('}')
                .next()
                .unwrap_or("")
                .split(',')
                .any(|s| s == "foc")
                && !l.trim_start().starts_with("[e0]")
        })
        .unwrap_or_else(|| panic!("no focused element in:\n{text}"));
    assert!(
        focused.contains(" sbx ") || focused.contains(" tbx "),
        "the focused line is the search box: {focused}"
    );
}

/// The ids of `id` and its ancestors in `snap` (root first), and of its
/// descendants.
fn family(snap: &Snapshot, id: &str) -> HashSet<String> {
    fn path<'a>(
        n: &'a cup_protocol::Node,
        id: &str,
        out: &mut Vec<&'a cup_protocol::Node>,
    ) -> bool {
        out.push(n);
        if n.id == id || n.children.iter().any(|c| path(c, id, out)) {
            return true;
        }
        out.pop();
        false
    }
    let mut chain = Vec::new();
    for root in &snap.envelope.tree {
        if path(root, id, &mut chain) {
            break;
        }
    }
    let mut ids: HashSet<String> = chain.iter().map(|n| n.id.clone()).collect();
    if let Some(n) = chain.last() {
        ids.extend(n.iter().map(|d| d.id.clone()));
    }
    ids
}

/// Each line of a compact text by its id.
fn lines_by_id(text: &str) -> HashMap<String, String> {
    text.split_once("\n\n")
        .map_or("", |(_, b)| b)
        .lines()
        .filter_map(|l| {
            let t = l.trim_start().strip_prefix('[')?;
            Some((t.split(']').next()?.to_owned(), l.trim_start().to_owned()))
        })
        .collect()
}

/// A snapshot with `since: "last"` after an action, checked against the
/// whole texts before and after: every line it shows is of an element
/// whose line changed or that appeared, or of an ancestor placing one;
/// every such element is shown; what went is listed. With `only`, the
/// changed elements are `only` and what it holds. Returns the text.
async fn since_is_exact(web: &mut Web, only: Option<&str>, what: &str) -> String {
    let before = web
        .session
        .last()
        .map(|s| s.whole_text(&SnapshotRequest::default()).into_owned())
        .unwrap_or_default();
    let req = SnapshotRequest {
        since: Some("last".into()),
        ..SnapshotRequest::default()
    };
    let snap = web
        .session
        .snapshot(&req)
        .await
        .unwrap_or_else(|e| panic!("since after {what}: {e}"))
        .clone();
    let text = snap.text.clone();
    assert!(
        text.contains("# changes since s"),
        "{what}: not a changes-only text:\n{text}"
    );
    let after = snap.whole_text(&SnapshotRequest::default()).into_owned();
    let (old, new) = (lines_by_id(&before), lines_by_id(&after));
    let changed: HashSet<String> = new
        .iter()
        .filter(|(id, line)| old.get(*id) != Some(line))
        .map(|(id, _)| id.clone())
        .collect();
    let shown: HashSet<String> = lines_by_id(&text).into_keys().collect();
    let missing: Vec<&String> = changed.iter().filter(|i| !shown.contains(*i)).collect();
    assert!(
        missing.is_empty(),
        "{what}: changed but not shown {missing:?}:\n{text}"
    );
    for id in &shown {
        if changed.contains(id) {
            continue;
        }
        // An ancestor placing a changed line: an unchanged line of the
        // whole text with a changed element below it.
        let placing = changed.iter().any(|c| family(&snap, c).contains(id));
        assert!(placing, "{what}: {id} is shown but did not change:\n{text}");
    }
    let went: Vec<&String> = old.keys().filter(|i| !new.contains_key(*i)).collect();
    for id in &went {
        assert!(
            text.contains(&format!(" {id}")),
            "{what}: {id} went unsaid:\n{text}"
        );
    }
    if let Some(id) = only {
        let allowed = family(&snap, id);
        let stray: Vec<&String> = changed.iter().filter(|i| !allowed.contains(*i)).collect();
        assert!(
            stray.is_empty(),
            "{what}: other elements changed ({stray:?}):\n{text}"
        );
        assert!(changed.contains(id), "{what}: {id} did not change:\n{text}");
    }
    let cost = cup::tokens::count(&text);
    eprintln!(
        "{what}: changes-only {cost} tokens ({} changed, {} went), whole {}",
        changed.len(),
        went.len(),
        cup::tokens::count(&after)
    );
    text
}

/// The id of the first element of `snap` with `role` whose name contains
/// `name`.
fn id_of(snap: &Snapshot, role: Role, name: &str) -> String {
    snap.envelope
        .tree
        .iter()
        .flat_map(|r| r.iter())
        .find(|n| n.role == role && n.name.contains(name))
        .map(|n| n.id.clone())
        .unwrap_or_else(|| panic!("no {role:?} named {name:?} in:\n{}", snap.text))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documentation_pages_read_whole() {
    webapps::check_docs().unwrap_or_else(|e| panic!("{e}"));
    let port = webapps::serve_dir(webapps::DOC_ROOT.into()).unwrap_or_else(|e| panic!("{e}"));
    let url = |page: &str| format!("http://127.0.0.1:{port}/{page}");
    let mut web = Web::open(&url(webapps::PYTHON_DOC_PAGE));
    wait_text(&web, "Truth Value Testing").await;
    read_whole_and_check(&mut web, "Python's Built-in Types").await;
    budget_keeps_the_focus(&mut web).await;
    navigate(&web, &url(webapps::RUST_DOC_PAGE)).await;
    wait_text(&web, "A contiguous growable array type").await;
    read_whole_and_check(&mut web, "rustdoc's Vec").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn django_admin_reads_whole() {
    let django =
        webapps::DjangoAdmin::start(&scratch("django"), &venv()).unwrap_or_else(|e| panic!("{e}"));
    let mut web = Web::open(&django.url("/admin/login/?next=/admin/shop/order/"));
    wait_text(&web, "Username").await;
    let (user, password) = webapps::DJANGO_USER;
    let login = webapps::django_login_script(user, password);
    scripts(&web)
        .page_script(None, &PageScript::ExecuteJavascript(login))
        .await
        .unwrap_or_else(|e| panic!("login: {e}"));
    wait_text(&web, "ORD-1100").await;
    read_whole_and_check(&mut web, "the Django changelist").await;
    // The action select, chosen through cup: since shows that select
    // (its value, its options' states) and nothing else.
    let snap = web
        .session
        .snapshot(&SnapshotRequest::default())
        .await
        .unwrap_or_else(|e| panic!("snapshot: {e}"))
        .clone();
    let select = id_of(&snap, Role::Combobox, "Action");
    let chosen = web
        .session
        .action(
            &select,
            "select",
            &cup::ActionParams {
                value: Some("Delete selected orders".into()),
                ..cup::ActionParams::default()
            },
        )
        .await
        .unwrap_or_else(|e| panic!("select an action: {e}"));
    assert!(chosen.success, "select an action: {}", chosen.message);
    let text = since_is_exact(&mut web, Some(&select), "the action select").await;
    assert!(text.contains("val=\"Delete selected orders\""), "{text}");
    navigate(&web, &django.url("/admin/shop/order/1/change/")).await;
    wait_text(&web, "Change order").await;
    read_whole_and_check(&mut web, "the Django change form").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jupyterlab_notebook_reads_whole() {
    let lab =
        webapps::JupyterLab::start(&scratch("jupyter"), &venv()).unwrap_or_else(|e| panic!("{e}"));
    let mut web = Web::open(&lab.notebook_url());
    wait_text(&web, webapps::NOTEBOOK.1).await;
    // The kernel started: the page stops changing its status bar.
    wait_text(&web, "| Idle").await;
    read_whole_and_check(&mut web, "JupyterLab's notebook").await;
    // A cell edited through cup: since shows that cell's editor with the
    // new text, and nothing else.
    let snap = web
        .session
        .snapshot(&SnapshotRequest::default())
        .await
        .unwrap_or_else(|e| panic!("snapshot: {e}"))
        .clone();
    let editor = snap
        .envelope
        .tree
        .iter()
        .flat_map(|r| r.iter())
        .find(|n| n.role == Role::TextBox && n.states.contains(&cup_protocol::State::Editable))
        .map(|n| n.id.clone())
        .unwrap_or_else(|| panic!("no cell editor in:\n{}", snap.text));
    let typed = web
        .session
        .action(
            &editor,
            "type",
            &cup::ActionParams {
                value: Some("total = 6 * 7".into()),
                ..cup::ActionParams::default()
            },
        )
        .await
        .unwrap_or_else(|e| panic!("type into a cell: {e}"));
    assert!(typed.success, "type into a cell: {}", typed.message);
    // JupyterLab answers an edit with more than the text: the cell edited
    // becomes the active one (its toolbar moves, the cell type shown
    // changes); since shows exactly what changed, the edit among it.
    let text = since_is_exact(&mut web, None, "the cell edit").await;
    let line = lines_by_id(&text)
        .remove(&editor)
        .unwrap_or_else(|| panic!("the edited cell {editor} is not in:\n{text}"));
    assert!(line.contains("total = 6 * 7"), "{line}");
}
