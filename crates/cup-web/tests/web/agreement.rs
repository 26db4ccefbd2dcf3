//! cup's page walker against Chromium's own accessibility tree, node for
//! node: a corpus of our own pages (`pages/agreement/`: forms, tables,
//! ARIA widgets, labels of every kind, CSS content, hidden subtrees,
//! shadow DOM, iframes, dialogs, and the probe pages the walker's rules
//! were learnt from) read by the walker and by `getFullAXTree` in the same
//! page state, joined on backend DOM node ids. Role, name (as cup keeps
//! it: trimmed), description, value and states must agree on ≥ 99 % of
//! the nodes both expose, the walker must find ≥ 99 % of Chromium's, and
//! every difference must be one of the explained classes below.

#![allow(clippy::print_stderr)]

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use cup_web::mapping::AxNode;
use cup_web::walker::{world, Answer, WalkNode};
use serde_json::{json, Value};

use crate::support::{Site, Web};

/// The corpus (also changed at random by `splice.rs`).
pub const PAGES: &[(&str, &str)] = &[
    ("/forms.html", include_str!("pages/agreement/forms.html")),
    ("/tables.html", include_str!("pages/agreement/tables.html")),
    (
        "/widgets.html",
        include_str!("pages/agreement/widgets.html"),
    ),
    (
        "/content.html",
        include_str!("pages/agreement/content.html"),
    ),
    ("/shadow.html", include_str!("pages/agreement/shadow.html")),
    ("/styled.html", include_str!("pages/agreement/styled.html")),
    ("/modal.html", include_str!("pages/agreement/modal.html")),
    ("/probe.html", include_str!("pages/agreement/probe.html")),
    ("/probe2.html", include_str!("pages/agreement/probe2.html")),
    ("/probe3.html", include_str!("pages/agreement/probe3.html")),
    ("/probe4.html", include_str!("pages/agreement/probe4.html")),
    ("/probe5.html", include_str!("pages/agreement/probe5.html")),
    (
        "/framework.html",
        include_str!("pages/agreement/framework.html"),
    ),
];

/// The corpus page whose sheets are big enough that the walker reads every
/// element's style instead of matching selectors ([`RawWalk::direct`]).
///
/// [`RawWalk::direct`]: cup_web::walker::RawWalk::direct
const DIRECT_PAGE: &str = "/framework.html";

/// The iframe document of content.html.
const CHILD: &str = include_str!("pages/agreement/child.html");

/// The corpus served on loopback and a headless Chromium showing its
/// first page.
pub struct Corpus {
    /// The corpus pages and the iframe document.
    pub site: Site,
    web: Web,
}

impl Corpus {
    /// Serves the corpus and starts a browser on its first page.
    pub fn open() -> Self {
        let mut served: Vec<(&str, String)> =
            PAGES.iter().map(|(p, h)| (*p, (*h).to_owned())).collect();
        served.push(("/child.html", CHILD.to_owned()));
        let site = Site::serve(&served);
        let web = Web::open(&site.url(PAGES[0].0));
        Self { site, web }
    }

    /// A CDP connection to the browser.
    pub async fn browser(&self) -> std::sync::Arc<cup_web::browser::Browser> {
        self.web.cdp().await
    }
}

/// Compared states, from Chromium's properties.
fn chromium_states(ax: &AxNode) -> Vec<&'static str> {
    let mut out = Vec::new();
    let s = |k: &str| ax.prop(k).and_then(Value::as_str).map(str::to_owned);
    // As cup's mapping reads a flag: a boolean, or the string "true".
    let b = |k: &str| match ax.prop(k) {
        Some(Value::Bool(v)) => Some(*v),
        Some(Value::String(v)) => Some(v == "true"),
        _ => None,
    };
    match s("checked").as_deref() {
        Some("true") => out.push("checked"),
        Some("mixed") => out.push("mixed"),
        _ => {}
    }
    match s("pressed").as_deref() {
        Some("true") => out.push("pressed"),
        Some("mixed") => out.push("mixed"),
        _ => {}
    }
    if b("selected") == Some(true) {
        out.push("selected");
    }
    match b("expanded") {
        Some(true) => out.push("expanded"),
        Some(false) => out.push("collapsed"),
        None => {}
    }
    for k in [
        "disabled",
        "readonly",
        "required",
        "focused",
        "modal",
        "multiselectable",
        "focusable",
        "busy",
    ] {
        if b(k) == Some(true) {
            out.push(k);
        }
    }
    if ax.prop("editable").is_some() {
        out.push("editable");
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Compared states of a walker node (its AxNode view, as cup maps it).
fn walker_states(w: &WalkNode) -> Vec<&'static str> {
    chromium_states(&w.ax_node())
}

fn values_equal(a: Option<&str>, b: Option<&str>) -> bool {
    let a = a.unwrap_or_default();
    let b = b.unwrap_or_default();
    if a == b {
        return true;
    }
    matches!((a.parse::<f64>(), b.parse::<f64>()), (Ok(x), Ok(y)) if (x - y).abs() < 1e-6)
}

/// Backend ids of the nodes inside user-agent and closed shadow roots
/// (`DOM.getDocument` with `pierce`).
fn shadow_sets(node: &Value, kind: Option<&str>, sets: &mut Sets) {
    if let Some(b) = node.get("backendNodeId").and_then(Value::as_i64) {
        match kind {
            Some("user-agent") => {
                sets.ua.insert(b);
            }
            Some("closed") => {
                sets.closed.insert(b);
            }
            Some("pseudo") => {
                sets.pseudo.insert(b);
            }
            Some("marker") => {
                sets.pseudo.insert(b);
                sets.marker.insert(b);
            }
            _ => {}
        }
    }
    let list = |k: &str| {
        node.get(k)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    for c in list("children") {
        shadow_sets(&c, kind, sets);
    }
    for c in list("pseudoElements") {
        let marker = c.get("pseudoType").and_then(Value::as_str) == Some("marker");
        let k = kind.or(Some(if marker { "marker" } else { "pseudo" }));
        shadow_sets(&c, k, sets);
    }
    for r in list("shadowRoots") {
        let k = r.get("shadowRootType").and_then(Value::as_str);
        // Inside a user-agent root everything stays user-agent.
        let k = if kind == Some("user-agent") { kind } else { k };
        shadow_sets(&r, k, sets);
    }
}

/// Backend ids of special DOM nodes of a page.
#[derive(Default)]
struct Sets {
    /// In user-agent shadow trees.
    ua: HashSet<i64>,
    /// In closed shadow roots.
    closed: HashSet<i64>,
    /// `::before`/`::after`/`::marker` pseudo elements.
    pseudo: HashSet<i64>,
    /// `::marker` pseudo elements.
    marker: HashSet<i64>,
}

#[derive(Default)]
struct Tally {
    chromium: usize,
    joined: usize,
    role: usize,
    name: usize,
    description: usize,
    value: usize,
    states: usize,
    apart: HashMap<&'static str, usize>,
    differences: Vec<String>,
    unexplained: Vec<String>,
}

fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        100.0
    } else {
        n as f64 * 100.0 / of as f64
    }
}

/// Navigates the browser's first page to `path` of `site` and waits until
/// it has loaded; returns the page's target id.
pub async fn open_page(browser: &cup_web::browser::Browser, site: &Site, path: &str) -> String {
    let page = browser
        .pages()
        .await
        .ok()
        .and_then(|p| p.first().map(|p| p.id.clone()))
        .unwrap_or_else(|| panic!("no page target"));
    browser
        .call(&page, "Page.navigate", json!({"url": site.url(path)}))
        .await
        .unwrap_or_else(|e| panic!("{path}: navigate: {e}"));
    let start = Instant::now();
    loop {
        let ready = browser
            .evaluate(
                &page,
                "document.readyState === 'complete' && location.pathname",
            )
            .await
            .ok();
        if ready.as_ref().and_then(Value::as_str) == Some(path) {
            return page;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{path} did not load within 30 s (readyState and path read: {ready:?})"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_walker_agrees_with_chromium_node_for_node() {
    let corpus = Corpus::open();
    let (site, browser) = (&corpus.site, corpus.browser().await);
    let mut t = Tally::default();
    for (path, _) in PAGES {
        let page = open_page(&browser, site, path).await;
        // Layout settles (images, the iframe) before both reads.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let raw = match world::walk(&browser, &page, &page, None).await {
            Ok(Answer::Whole(raw)) => raw,
            Ok(Answer::Patch(_) | Answer::Splice(_)) => panic!("{path}: a patch to a whole walk"),
            Err(e) => panic!("{path}: walk: {e}"),
        };
        assert_eq!(
            (raw.errors, raw.first_error.as_deref()),
            (None, None),
            "{path}: the walker skipped subtrees"
        );
        // The corpus's own sheets are matched; the framework-sized ones are
        // read from each element's style (both properties and pseudo
        // content), and must agree with Chromium just the same.
        let direct = if *path == DIRECT_PAGE { 3 } else { 0 };
        assert_eq!(raw.direct, direct, "{path}: what the walker read directly");
        let walk = raw.decode().unwrap_or_else(|e| panic!("{path}: {e}"));
        let backends = world::backend_ids(&browser, &page, &page)
            .await
            .unwrap_or_else(|e| panic!("{path}: backend ids: {e}"));
        let ax: Vec<AxNode> = browser
            .call(&page, "Accessibility.getFullAXTree", json!({}))
            .await
            .unwrap_or_else(|e| panic!("{path}: getFullAXTree: {e}"))
            .get("nodes")
            .and_then(Value::as_array)
            .map(|n| n.iter().filter_map(AxNode::from_cdp).collect())
            .unwrap_or_default();
        let doc = browser
            .call(
                &page,
                "DOM.getDocument",
                json!({"depth": -1, "pierce": true}),
            )
            .await
            .unwrap_or_else(|e| panic!("{path}: getDocument: {e}"));
        let mut sets = Sets::default();
        if let Some(root) = doc.get("root") {
            shadow_sets(root, None, &mut sets);
        }
        compare(path, &walk.nodes, &backends, &ax, &sets, &mut t);
    }

    let fields = [
        ("role", t.role),
        ("name", t.name),
        ("description", t.description),
        ("value", t.value),
        ("states", t.states),
    ];
    eprintln!(
        "agreement over {} pages: {} of {} Chromium nodes joined ({:.2} %)",
        PAGES.len(),
        t.joined,
        t.chromium,
        pct(t.joined, t.chromium)
    );
    for (f, n) in fields {
        eprintln!(
            "  {f}: {n} of {} agree ({:.2} %)",
            t.joined,
            pct(n, t.joined)
        );
    }
    let mut apart: Vec<_> = t.apart.iter().collect();
    apart.sort();
    for (why, n) in apart {
        eprintln!("  apart: {n} {why}");
    }
    for d in &t.differences {
        eprintln!("  difference: {d}");
    }
    assert!(t.joined > 500, "too few nodes compared: {}", t.joined);
    assert!(
        pct(t.joined, t.chromium) >= 99.0,
        "the walker found {} of Chromium's {} nodes",
        t.joined,
        t.chromium
    );
    for (f, n) in fields {
        assert!(
            pct(n, t.joined) >= 99.0,
            "{f} agrees on {n} of {} nodes only",
            t.joined
        );
    }
    assert!(
        t.unexplained.is_empty(),
        "differences no class explains:\n{}",
        t.unexplained.join("\n")
    );
}

/// Why Chromium exposes a node the walker does not, when the reason is
/// known and accepted (each counted apart, not in the agreement).
fn apart_reason(a: &AxNode, b: i64, sets: &Sets) -> Option<&'static str> {
    let (ua, closed) = (&sets.ua, &sets.closed);
    if ua.contains(&b) {
        // A text field's inner editor, a date field's parts, a select's
        // popup, media controls: page scripts cannot see them.
        return Some("nodes in user-agent shadow trees (invisible to page scripts)");
    }
    if closed.contains(&b) {
        return Some("nodes in closed shadow roots (page scripts cannot enter them)");
    }
    if a.role == "ListMarker" {
        return Some("list markers (cup leaves them out on either path)");
    }
    None
}

fn compare(
    path: &str,
    walk: &[WalkNode],
    backends: &[Option<i64>],
    ax: &[AxNode],
    sets: &Sets,
    t: &mut Tally,
) {
    // Chromium's parents, to know what a node is inside of.
    let by_id: HashMap<&str, &AxNode> = ax.iter().map(|a| (a.id.as_str(), a)).collect();
    let mut parent: HashMap<&str, &str> = HashMap::new();
    for a in ax {
        for c in &a.child_ids {
            parent.insert(c.as_str(), a.id.as_str());
        }
    }
    let inside = |a: &AxNode, test: &dyn Fn(&AxNode) -> bool| {
        let mut at = parent.get(a.id.as_str()).copied();
        while let Some(id) = at {
            let Some(p) = by_id.get(id) else { break };
            if test(p) {
                return true;
            }
            at = parent.get(id).copied();
        }
        false
    };
    let generated = |a: &AxNode| {
        a.backend_id.is_some_and(|b| sets.pseudo.contains(&b))
            || inside(a, &|p: &AxNode| {
                p.backend_id.is_some_and(|b| sets.pseudo.contains(&b))
            })
    };
    let mut exposed: HashMap<i64, &AxNode> = HashMap::new();
    // Generated content (no DOM node for page scripts): compared as a
    // multiset of (role, name) with the walker's generated nodes.
    let mut chromium_generated: Vec<(&str, String)> = Vec::new();
    let in_marker = |a: &AxNode| {
        a.backend_id.is_some_and(|b| sets.marker.contains(&b))
            || inside(a, &|p: &AxNode| {
                p.backend_id.is_some_and(|b| sets.marker.contains(&b))
            })
    };
    for a in ax {
        if a.ignored || a.role == "InlineTextBox" {
            continue;
        }
        if a.role != "ListMarker" && in_marker(a) {
            // The bullet of an li whose role is not listitem (an option, a
            // treeitem): Chromium emits it as text.
            *t.apart
                .entry("list-marker text of an li with another role (cup leaves it out)")
                .or_default() += 1;
            continue;
        }
        if a.role != "ListMarker" && generated(a) {
            chromium_generated.push((a.role.as_str(), a.name.trim().to_owned()));
            continue;
        }
        if let Some(b) = a.backend_id {
            exposed.entry(b).or_insert(a);
        }
    }
    let mut walker_generated: Vec<(&str, String)> = walk
        .iter()
        .filter(|w| w.flags & cup_web::walker::flag::PSEUDO != 0)
        .map(|w| (w.role.as_str(), w.name.trim().to_owned()))
        .collect();
    for g in chromium_generated {
        t.chromium += 1;
        if let Some(i) = walker_generated.iter().position(|w| *w == g) {
            walker_generated.swap_remove(i);
            t.joined += 1;
            for n in [
                &mut t.role,
                &mut t.name,
                &mut t.description,
                &mut t.value,
                &mut t.states,
            ] {
                *n += 1;
            }
        } else {
            let d = format!("{path}: only Chromium has generated {} {:?}", g.0, g.1);
            t.differences.push(d.clone());
            if g.0 == "generic" && g.1.is_empty() {
                t.differences.push(
                    "    because Chromium exposes an empty ::before/::after box (inline-block or block) as a generic of its own; the walker keeps only generated text".into(),
                );
            } else if g.0 == "StaticText"
                && !g.1.is_empty()
                && g.1.chars().all(|c| c.is_ascii_digit())
            {
                t.differences.push(
                    "    because a CSS counter() value cannot be read by page scripts (the rest of the generated text is there)".into(),
                );
            } else {
                t.unexplained.push(d);
            }
        }
    }
    let mut walked: HashMap<i64, &WalkNode> = HashMap::new();
    for (i, w) in walk.iter().enumerate() {
        if let Some(Some(b)) = backends.get(i) {
            walked.entry(*b).or_insert(w);
        }
    }
    let mut ids: Vec<i64> = exposed.keys().copied().collect();
    ids.sort_unstable();
    for b in ids {
        let a = exposed[&b];
        let Some(w) = walked.get(&b) else {
            if let Some(why) = apart_reason(a, b, sets) {
                *t.apart.entry(why).or_default() += 1;
                continue;
            }
            t.chromium += 1;
            let d = format!(
                "{path}: only Chromium has {} {:?} (node {b})",
                a.role, a.name
            );
            t.differences.push(d.clone());
            let math = a.role.starts_with("MathML")
                || inside(a, &|p: &AxNode| p.role.starts_with("MathML"));
            match explain_missing(path, a, math) {
                Some(why) => t.differences.push(format!("    because {why}")),
                None => t.unexplained.push(d),
            }
            continue;
        };
        t.chromium += 1;
        t.joined += 1;
        let mut diff = Vec::new();
        if a.role == w.role {
            t.role += 1;
        } else {
            diff.push(format!("role {} vs walker {}", a.role, w.role));
        }
        if a.name.trim() == w.name.trim() {
            t.name += 1;
        } else {
            diff.push(format!("name {:?} vs walker {:?}", a.name, w.name));
        }
        if a.description.as_deref().unwrap_or_default() == w.description {
            t.description += 1;
        } else {
            diff.push(format!(
                "description {:?} vs walker {:?}",
                a.description, w.description
            ));
        }
        let wv = w.ax_node().value;
        if values_equal(a.value.as_deref(), wv.as_deref()) {
            t.value += 1;
        } else {
            diff.push(format!("value {:?} vs walker {wv:?}", a.value));
        }
        let (cs, ws) = (chromium_states(a), walker_states(w));
        if cs == ws {
            t.states += 1;
        } else {
            diff.push(format!("states {cs:?} vs walker {ws:?}"));
        }
        if !diff.is_empty() {
            let d = format!(
                "{path}: {} {:?} (node {b}): {}",
                a.role,
                a.name,
                diff.join("; ")
            );
            t.differences.push(d.clone());
            match explain_difference(path, a, w) {
                Some(why) => t.differences.push(format!("    because {why}")),
                None => t.unexplained.push(d),
            }
        }
    }
    // Nodes only the walker has.
    for (b, w) in &walked {
        if !exposed.contains_key(b) {
            let d = format!(
                "{path}: only the walker has {} {:?} (node {b})",
                w.role, w.name
            );
            t.differences.push(d.clone());
            t.unexplained.push(d);
        }
    }
}

/// The known reasons Chromium exposes a node the walker does not.
fn explain_missing(path: &str, a: &AxNode, math: bool) -> Option<&'static str> {
    if math {
        return Some("the walker reads a <math> element as one node, not its MathML parts");
    }
    if a.role == "StaticText" && a.name.trim().is_empty() {
        return Some(
            "a whitespace-only text Chromium keeps between inline boxes; cup drops unnamed text on either path",
        );
    }
    match (path, a.role.as_str()) {
        (_, "generic") if a.name.is_empty() && path != "/probe5.html" => Some(
            "Chromium keeps an unnamed container by its layout rules (here a zero-size inline-block); cup's compact pruning hoists unnamed generics away, so no output line changes",
        ),
        // probe5.html adds click listeners with addEventListener: Chromium
        // keeps such an element (a <span> as a generic, an <a> without
        // href as a link); listeners are invisible to page scripts.
        ("/probe5.html", "generic" | "link") => Some(
            "Chromium keeps elements with a click listener added by script, which page scripts cannot see",
        ),
        _ => None,
    }
}

/// The known reasons a joined node differs.
fn explain_difference(path: &str, a: &AxNode, w: &WalkNode) -> Option<&'static str> {
    let _ = path;
    match a.role.as_str() {
        "log" if w.flags & cup_web::walker::flag::BUSY != 0 => Some(
            "getFullAXTree reports no busy state for aria-busy=\"true\" on this live region (role=log); the walker keeps the ARIA state as written",
        ),
        "Video" | "Audio" if w.name.is_empty() => Some(
            "Chromium names a media element that cannot play from its user-agent controls ('Unable to play media.') and takes their states; page scripts cannot see them",
        ),
        _ => None,
    }
}
