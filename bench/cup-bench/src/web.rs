//! The web capture benchmark (issue 5): the same page in one headless
//! Chromium read by cup (in process, CDP), the Python CUP SDK 0.1.0 (its web
//! adapter, in process in Python) and Playwright MCP 0.0.83
//! (`browser_snapshot` over MCP stdio, connected to the same browser).

use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::net::TcpListener;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use cup::{CaptureLimits, Session, SnapshotRequest};
use cup_protocol::Scope;
use serde_json::{json, Value};

use crate::measurement::{Measurement, Outcome};
use crate::peers::cua_driver::{text_of, McpClient};

/// The pinned Playwright MCP.
pub const PLAYWRIGHT_VERSION: &str = "0.0.83";

/// Where `bench/peers/setup.sh` installs Playwright MCP's CLI.
pub fn playwright_cli() -> PathBuf {
    crate::peers_dir()
        .join(format!("playwright-mcp-{PLAYWRIGHT_VERSION}"))
        .join("node_modules")
        .join("@playwright")
        .join("mcp")
        .join("cli.js")
}

/// A realistic large page: navigation, articles, a form, a table, a
/// footer (≈750 tags).
pub fn large_page() -> String {
    let mut p = String::from(
        "<!doctype html><html><head><title>Large page</title></head><body><header><nav><ul>",
    );
    for i in 1..=30 {
        let _ = write!(p, "<li><a href=\"/section/{i}\">Section {i}</a></li>");
    }
    p.push_str("</ul></nav><form role=\"search\"><input type=\"search\" aria-label=\"Search\"><button>Go</button></form></header><main><h1>Shipping details</h1>");
    for a in 1..=15 {
        let _ = write!(
            p,
            "<article><h2>Article {a}</h2><p>Paragraph one of article {a} with <a href=\"/a/{a}\">a link</a> and <em>emphasis</em>.</p><p>Second paragraph of article {a}.</p><ul>"
        );
        for i in 1..=10 {
            let _ = write!(p, "<li>Point {i} of article {a}</li>");
        }
        p.push_str("</ul><button>Like</button><button>Share</button></article>");
    }
    p.push_str("<form><fieldset><legend>Address</legend>");
    for f in [
        "Name", "Street", "City", "Postcode", "Country", "Phone", "Email",
    ] {
        let _ = write!(p, "<label>{f} <input name=\"{f}\"></label>");
    }
    p.push_str("<label><input type=\"checkbox\"> Gift wrap</label><select><option>Standard</option><option>Express</option></select><button>Order</button></fieldset></form><table><thead><tr><th>Item</th><th>Qty</th><th>Price</th><th>Total</th><th>Action</th></tr></thead><tbody>");
    for r in 1..=50 {
        let _ = write!(
            p,
            "<tr><td>Item {r}</td><td>{r}</td><td>{r}.00</td><td>{r}0.00</td><td><button>Remove</button></td></tr>"
        );
    }
    p.push_str("</tbody></table></main><footer>");
    for i in 1..=20 {
        let _ = write!(p, "<a href=\"/f/{i}\">Footer link {i}</a> ");
    }
    p.push_str("</footer></body></html>");
    p
}

/// A page whose accessibility tree has about 10,000 nodes.
pub fn huge_page() -> String {
    let mut p = String::from(
        "<!doctype html><html><head><title>Huge page</title></head><body><h1>Catalogue</h1><ul>",
    );
    for i in 1..=2500 {
        let _ = write!(p, "<li><a href=\"/p/{i}\">Product {i}</a></li>");
    }
    p.push_str("</ul></body></html>");
    p
}

/// Counts the tags of an HTML text.
pub fn tag_count(html: &str) -> usize {
    html.matches('<').count() - html.matches("</").count() - html.matches("<!").count()
}

/// Serves `pages` (path → HTML) on a loopback port, for the life of the
/// process.
///
/// # Errors
///
/// When no port can be bound.
pub fn serve(pages: Vec<(String, String)>) -> Result<u16, String> {
    let listener =
        TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot bind a port: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?
        .port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut buf = [0u8; 8192];
            let n = stream.read(&mut buf).unwrap_or(0);
            let head = String::from_utf8_lossy(&buf[..n]);
            let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
            let body = pages
                .iter()
                .find(|(p, _)| *p == path)
                .map_or_else(|| "not found".to_owned(), |(_, b)| b.clone());
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    Ok(port)
}

/// Navigates the browser's page to `url` and waits until `marker` is in
/// its text.
///
/// # Errors
///
/// When the browser does not answer or the page does not load in 20 s.
pub async fn open(adapter: &cup_web::WebAdapter, url: &str, marker: &str) -> Result<(), String> {
    let browser = adapter.browser().await.map_err(|e| e.to_string())?;
    let pages = browser.pages().await.map_err(|e| e.to_string())?;
    let page = pages.first().ok_or("the browser has no page")?;
    browser
        .call(&page.id, "Page.navigate", json!({ "url": url }))
        .await
        .map_err(|e| e.to_string())?;
    wait_text(adapter, marker, url).await?;
    wait_until_still(adapter).await;
    Ok(())
}

/// Waits (at most 20 s) until the page stops growing: its element count
/// and text length the same for 1 s. A web app (JupyterLab) shows the
/// marker before it has built the rest of the page (its DOM grows from
/// 1,300 to 1,750 elements over the next second or two as the kernel
/// starts), and every tool must read the same page.
async fn wait_until_still(adapter: &cup_web::WebAdapter) {
    const SIZE: &str = "document.getElementsByTagName('*').length + ':' + (document.body ? document.body.innerText.length : 0)";
    let start = Instant::now();
    let (mut last, mut since) = (String::new(), Instant::now());
    while start.elapsed() < Duration::from_secs(20) {
        let now = adapter
            .page_script(
                None,
                &cup_web::PageScript::ExecuteJavascript(SIZE.to_owned()),
            )
            .await
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        if now != last {
            (last, since) = (now, Instant::now());
        } else if since.elapsed() >= Duration::from_secs(1) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tracing::warn!("the page was still changing after 20 s: measured as it is");
}

/// What cup measured, plus how many of its nodes have bounds.
#[derive(Debug, Clone)]
pub struct CupRun {
    /// Timings and output.
    pub m: Measurement,
    /// Nodes with bounds / all nodes (last run).
    pub with_bounds: (usize, usize),
    /// The last run's whole page as compact text (`detail` page, no
    /// character cap): the same content as the peers' whole-page texts.
    pub page_text: String,
    /// The same without bounds (`bounds: false`): what Playwright MCP's
    /// snapshot carries, ids, roles, names, states and values.
    pub page_text_no_bounds: String,
    /// Options without bounds (those of a closed `<select>`: no box).
    pub boxless_options: usize,
    /// The walker's own time in the page (its clock, every frame summed),
    /// ms, per snapshot: read in as many untimed snapshots after the timed
    /// ones (they record the native facts, which costs a copy). Empty for
    /// Chromium's tree.
    pub walker_ms: Vec<f64>,
}

/// The walker's time in the page of the capture `dump` recorded (the
/// native dump's frames' `ms.total`, summed).
fn walker_total_ms(dump: &Value) -> Option<f64> {
    let frames = dump
        .get("pages")?
        .as_array()?
        .iter()
        .filter_map(|p| p.get("walker")?.get("frames")?.as_array())
        .flatten();
    let mut total = None;
    for f in frames {
        let ms = f.get("walk")?.get("ms")?.get("total")?.as_f64()?;
        *total.get_or_insert(0.0) += ms;
    }
    total
}

/// cup's web adapter on the browser at `port`.
fn cup_adapter(port: u16) -> cup_web::WebAdapter {
    cup_web::WebAdapter::new(cup_web::Endpoint::Http {
        host: "127.0.0.1".into(),
        port,
    })
}

/// A foreground snapshot with a deadline long enough for the largest page.
fn foreground() -> SnapshotRequest {
    SnapshotRequest {
        scope: Scope::Foreground,
        limits: CaptureLimits {
            deadline: Duration::from_secs(30),
            ..CaptureLimits::default()
        },
        ..SnapshotRequest::default()
    }
}

/// The first node of `snap` named `name`.
fn named<'a>(snap: &'a cup::Snapshot, name: &str) -> Option<&'a cup_protocol::Node> {
    snap.envelope
        .tree
        .iter()
        .flat_map(|r| r.iter())
        .find(|n| n.name == name)
}

/// The id and name of the last node of `snap`.
fn last_node(snap: &cup::Snapshot) -> Option<(String, String)> {
    snap.envelope
        .tree
        .iter()
        .flat_map(|r| r.iter())
        .last()
        .map(|n| (n.id.clone(), n.name.clone()))
}

/// Adds a timed snapshot to `m`.
fn record(m: &mut Measurement, ms: f64, cpu_ms: Option<f64>, snap: &cup::Snapshot) {
    m.times_ms.push(ms);
    m.cpu_ms.extend(cpu_ms);
    m.nodes_per_run
        .push(u64::try_from(snap.envelope.node_count()).ok());
    m.text.clone_from(&snap.text);
}

/// cup in this process: a session on the web adapter, 1 warm-up, `runs`
/// timed foreground snapshots.
///
/// # Errors
///
/// When a snapshot fails.
pub async fn measure_cup(
    port: u16,
    runs: usize,
    source: cup_web::AxSource,
    incremental: bool,
) -> Result<CupRun, String> {
    let started = Instant::now();
    let mut session = Session::new(Box::new(
        cup_adapter(port)
            .with_ax_source(source)
            .with_incremental(incremental),
    ));
    let init_ms = started.elapsed().as_secs_f64() * 1e3;
    let req = foreground();
    let warm = session.snapshot(&req).await.map_err(|e| e.to_string())?;
    let mut m = Measurement {
        warmup_nodes: u64::try_from(warm.envelope.node_count()).ok(),
        init_ms: Some(init_ms),
        ..Measurement::default()
    };
    let mut with_bounds = (0, 0);
    let mut page_text = String::new();
    let mut page_text_no_bounds = String::new();
    let mut boxless_options = 0;
    let runs = runs.max(1);
    for run in 0..runs {
        let cpu = crate::cpu::Clock::start();
        let t = Instant::now();
        let snap = session.snapshot(&req).await.map_err(|e| e.to_string())?;
        record(&mut m, t.elapsed().as_secs_f64() * 1e3, cpu.stop(), snap);
        if run + 1 < runs {
            continue;
        }
        let whole = |bounds| {
            cup_protocol::compact::render(
                &snap.envelope,
                &cup_protocol::compact::RenderOptions {
                    detail: cup_protocol::compact::Detail::Page,
                    max_chars: 0,
                    bounds,
                    ..cup_protocol::compact::RenderOptions::default()
                },
            )
        };
        page_text = whole(true);
        page_text_no_bounds = whole(false);
        let all: Vec<_> = snap.envelope.tree.iter().flat_map(|r| r.iter()).collect();
        with_bounds = (all.iter().filter(|n| n.bounds.is_some()).count(), all.len());
        boxless_options = all
            .iter()
            .filter(|n| n.bounds.is_none() && n.role == cup_protocol::Role::Option)
            .count();
    }
    let mut walker_ms = Vec::new();
    if source == cup_web::AxSource::Walker {
        session.adapter().record_native(true);
        for _ in 0..runs {
            session.snapshot(&req).await.map_err(|e| e.to_string())?;
            walker_ms.extend(
                session
                    .adapter()
                    .native_dump()
                    .as_ref()
                    .and_then(walker_total_ms),
            );
        }
        session.adapter().record_native(false);
    }
    Ok(CupRun {
        m,
        with_bounds,
        page_text,
        page_text_no_bounds,
        boxless_options,
        walker_ms,
    })
}

/// Logs the browser's page into the Django admin at `login_url` (its
/// form, filled and sent by a page script), then waits for `marker`.
///
/// # Errors
///
/// The login page or the page after it not showing in 20 s.
pub async fn django_login(
    adapter: &cup_web::WebAdapter,
    login_url: &str,
    (user, password): (&str, &str),
    marker: &str,
) -> Result<(), String> {
    open(adapter, login_url, "Username").await?;
    let script = cup_sandbox::webapps::django_login_script(user, password);
    adapter
        .page_script(None, &cup_web::PageScript::ExecuteJavascript(script))
        .await
        .map_err(|e| format!("the login script failed: {e}"))?;
    wait_text(adapter, marker, "the page after the login").await?;
    wait_until_still(adapter).await;
    Ok(())
}

/// Waits up to 20 s until the page's text holds `marker`.
async fn wait_text(adapter: &cup_web::WebAdapter, marker: &str, what: &str) -> Result<(), String> {
    let start = Instant::now();
    loop {
        let text = adapter
            .page_script(None, &cup_web::PageScript::GetText)
            .await
            .unwrap_or(Value::Null);
        if text.as_str().is_some_and(|t| t.contains(marker)) {
            return Ok(());
        }
        if start.elapsed() > Duration::from_secs(20) {
            return Err(format!("{what} did not show {marker:?} within 20 s"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// How many elements the page's document has (`getElementsByTagName('*')`).
///
/// # Errors
///
/// The script failing.
pub async fn dom_tags(adapter: &cup_web::WebAdapter) -> Result<u64, String> {
    adapter
        .page_script(
            None,
            &cup_web::PageScript::ExecuteJavascript(
                "document.getElementsByTagName('*').length".into(),
            ),
        )
        .await
        .map_err(|e| e.to_string())?
        .as_u64()
        .ok_or_else(|| "the tag count is not a number".to_owned())
}

/// The checkbox the repeated-snapshot run clicks on the large page.
pub const CLICKED: &str = "Gift wrap";

/// cup in this process, a snapshot right after each click: one warm-up
/// snapshot and click, then `runs` times a click on the large page's
/// checkbox (not timed) and the snapshot after it (timed). Each snapshot
/// must show the checkbox's new state; the ids of the checkbox and of the
/// page's last node must not change.
///
/// # Errors
///
/// A failed snapshot or click, a snapshot that does not show the click,
/// or ids that moved.
pub async fn measure_cup_after_click(port: u16, runs: usize) -> Result<Measurement, String> {
    let mut session = Session::new(Box::new(cup_adapter(port)));
    let req = foreground();
    let checkbox = |snap: &cup::Snapshot| {
        named(snap, CLICKED)
            .filter(|n| n.role == cup_protocol::Role::Checkbox)
            .map(|n| {
                (
                    n.id.clone(),
                    n.states.contains(&cup_protocol::State::Checked),
                )
            })
    };
    let first = session.snapshot(&req).await.map_err(|e| e.to_string())?;
    let (id, mut checked) =
        checkbox(first).ok_or_else(|| format!("no checkbox {CLICKED:?} on the page"))?;
    let last = last_node(first);
    let params = cup::ActionParams::default();
    let mut m = Measurement::default();
    for run in 0..=runs.max(1) {
        session
            .action(&id, "click", &params)
            .await
            .map_err(|e| format!("click: {e}"))?;
        let cpu = crate::cpu::Clock::start();
        let t = Instant::now();
        let snap = session.snapshot(&req).await.map_err(|e| e.to_string())?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let cpu_ms = cpu.stop();
        let (now_id, now_checked) =
            checkbox(snap).ok_or_else(|| format!("the checkbox is gone after click {run}"))?;
        if now_id != id || last_node(snap) != last {
            return Err(format!(
                "ids moved after click {run}: checkbox {id} -> {now_id}, last node {last:?} -> {:?}",
                last_node(snap)
            ));
        }
        if now_checked == checked {
            return Err(format!(
                "the snapshot after click {run} does not show the checkbox's new state"
            ));
        }
        checked = now_checked;
        if run > 0 {
            record(&mut m, ms, cpu_ms, snap); // run 0 is the warm-up
        }
    }
    Ok(m)
}

/// The list item the structural-change run adds and removes.
pub const ADDED: &str = "Point added by the page";

/// cup's snapshot of the large page right after the page's own script
/// changed its structure: odd runs add a list item to article 5, even runs
/// remove it (the script runs over a connection of its own, not timed).
/// Each snapshot must show the change, and the ids of the form's checkbox
/// and of the page's last node must stay as they were. `incremental`:
/// cup's default (the walker walks the changed list again); without, a
/// whole walk after the same change (the browser lays the page out again
/// either way).
pub async fn measure_cup_after_change(
    port: u16,
    runs: usize,
    incremental: bool,
) -> Result<Measurement, String> {
    let mut session = Session::new(Box::new(cup_adapter(port).with_incremental(incremental)));
    let page = cup_adapter(port);
    let req = foreground();
    let find = |snap: &cup::Snapshot, name: &str| named(snap, name).map(|n| n.id.clone());
    let first = session.snapshot(&req).await.map_err(|e| e.to_string())?;
    let check = find(first, CLICKED).ok_or_else(|| format!("no {CLICKED:?} on the page"))?;
    let last = last_node(first);
    let mut m = Measurement::default();
    for run in 0..=runs.max(1) {
        let add = run % 2 == 0;
        let js = if add {
            format!(
                "(() => {{ const li = document.createElement('li'); li.id = 'cup-added'; li.textContent = {ADDED:?}; document.querySelectorAll('article')[4].querySelector('ul').append(li); return 1; }})()"
            )
        } else {
            "(() => { document.getElementById('cup-added').remove(); return 1; })()".to_owned()
        };
        page.page_script(None, &cup_web::PageScript::ExecuteJavascript(js))
            .await
            .map_err(|e| format!("page script: {e}"))?;
        let cpu = crate::cpu::Clock::start();
        let t = Instant::now();
        let snap = session.snapshot(&req).await.map_err(|e| e.to_string())?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let cpu_ms = cpu.stop();
        if find(snap, ADDED).is_some() != add {
            return Err(format!(
                "the snapshot after change {run} does not show the item {}",
                if add { "added" } else { "removed" }
            ));
        }
        if find(snap, CLICKED).as_ref() != Some(&check) || last_node(snap) != last {
            return Err(format!(
                "ids moved after change {run}: checkbox {check} -> {:?}, last node {last:?} -> {:?}",
                find(snap, CLICKED),
                last_node(snap)
            ));
        }
        if run > 0 {
            record(&mut m, ms, cpu_ms, snap); // run 0 is the warm-up
        }
    }
    Ok(m)
}

/// The Python SDK's web adapter on the browser at `port`.
pub async fn measure_python(port: u16, runs: usize) -> Outcome {
    let python = crate::peers::python_sdk::python();
    if !python.is_file() {
        return Err(format!(
            "not installed ({} is missing): {}",
            python.display(),
            crate::SETUP_HINT
        ));
    }
    let mut command = std::process::Command::new(python);
    command
        .arg(crate::peers::python_sdk::script())
        .args(["--platform", "web", "--scope", "foreground", "--runs"])
        .arg(runs.to_string())
        .env("CUP_CDP_HOST", "127.0.0.1")
        .env("CUP_CDP_PORT", port.to_string());
    crate::peers::run_json("the Python SDK", command, Duration::from_secs(600)).await
}

/// Playwright MCP connected to the browser at `port`: `initialize`, then
/// 1 warm-up and `runs` timed `browser_snapshot` calls.
pub async fn measure_playwright(port: u16, runs: usize, scratch: &std::path::Path) -> Outcome {
    let cli = playwright_cli();
    if !cli.is_file() {
        return Err(format!(
            "not installed ({} is missing): {}",
            cli.display(),
            crate::SETUP_HINT
        ));
    }
    std::fs::create_dir_all(scratch).map_err(|e| format!("scratch dir: {e}"))?;
    let mut command = std::process::Command::new("node");
    command
        .arg(&cli)
        .arg("--cdp-endpoint")
        .arg(format!("http://127.0.0.1:{port}"))
        .arg("--output-dir")
        .arg(scratch);
    let started = Instant::now();
    let mut client = McpClient::spawn(command, &scratch.join("playwright-mcp.log"))?;
    let result = async {
        client.initialize().await?;
        let init_ms = started.elapsed().as_secs_f64() * 1e3;
        client.call_tool("browser_snapshot", json!({})).await?;
        let mut m = Measurement {
            init_ms: Some(init_ms),
            ..Measurement::default()
        };
        for _ in 0..runs.max(1) {
            let t = Instant::now();
            let r = client.call_tool("browser_snapshot", json!({})).await?;
            m.times_ms.push(t.elapsed().as_secs_f64() * 1e3);
            m.text = text_of(&r);
            // Elements with a ref.
            let refs = m.text.matches("[ref=").count();
            m.nodes_per_run.push(u64::try_from(refs).ok());
        }
        m.counts_elements = true;
        Ok::<Measurement, String>(m)
    }
    .await;
    client.shutdown().await;
    result
}

/// cup over its own MCP server on the browser at `port`, the path Playwright
/// MCP is timed on: `cup mcp --platform web`, 1 warm-up and `runs` timed
/// `snapshot` calls (the same compact text cup returns in process).
pub async fn measure_cup_mcp(port: u16, runs: usize, scratch: &std::path::Path) -> Outcome {
    let started = Instant::now();
    let mut client = crate::peers::cup_mcp::start(
        |binary| {
            let mut c = std::process::Command::new(binary);
            // Every snapshot walks the page whole, as Playwright MCP
            // reads it whole (the same work).
            c.env("CUP_PLATFORM", "web")
                .env("CUP_WEB_INCREMENTAL", "0")
                .env("CUP_CDP_HOST", "127.0.0.1")
                .env("CUP_CDP_PORT", port.to_string());
            c
        },
        scratch,
    )
    .await?;
    let init_ms = started.elapsed().as_secs_f64() * 1e3;
    let result = crate::peers::cua_driver::timed(
        &mut client,
        "snapshot",
        &json!({}),
        runs,
        crate::peers::cup_mcp::raw_nodes,
    )
    .await
    .map(|(mut m, _)| {
        m.init_ms = Some(init_ms);
        m
    });
    client.shutdown().await;
    result
}
