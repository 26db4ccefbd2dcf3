//! Incremental walks against whole walks: on every page of the agreement
//! corpus, seeded random changes in the document and inside its open
//! shadow roots (nodes added and removed, text changed, classes, styles,
//! `hidden`, `aria-hidden`, labels, list items, table rows, whole subtrees
//! replaced, the page or an element scrolled) are made by the page's own script; after
//! each, the walk the walker answers incrementally (a splice of the
//! changed subtrees, or a patch of states) is applied to the walk held and
//! must equal, node for node (role, name, description, value, states,
//! level, id, box, tag, attributes, tree), a whole walk of the same page
//! state. Most steps must be answered as splices, else the mechanism
//! under test is not the one that ran.

#![allow(clippy::print_stderr)]

use std::time::Duration;

use cup_web::walker::{world, Answer, Walk};

use crate::agreement::{open_page, Corpus, PAGES};
use crate::support::{whole_walk, Site, Web};

/// Changes per page.
const STEPS: u32 = 16;

/// The page's own script: `__cupMutate(seed)` makes 1–3 seeded random
/// changes and says what it did. Classes `cupx` / `cupy` get rules before
/// the first walk (a new style sheet later would make every walk whole).
const MUTATOR: &str = r##"
(function () {
  var st = document.createElement('style');
  st.textContent = '.cupx{display:none} .cupy{display:inline-block;padding:3px} .cupz{visibility:hidden}';
  document.head.appendChild(st);
  var n = 0;
  window.__cupMutate = function (seed) {
    var x = seed >>> 0 || 1;
    function rnd(k) { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x % k; }
    var skip = { SCRIPT: 1, STYLE: 1, HEAD: 1, HTML: 1, TITLE: 1, META: 1, LINK: 1, IFRAME: 1, TEMPLATE: 1 };
    // Elements of the document and of every open shadow root in it.
    var all = [];
    (function collect(root) {
      root.querySelectorAll('*').forEach(function (e) {
        if (!skip[e.tagName]) all.push(e);
        if (e.shadowRoot) collect(e.shadowRoot);
      });
    })(document.body);
    var done = [];
    var times = 1 + rnd(3);
    for (var t = 0; t < times && all.length; t++) {
      var el = all[rnd(all.length)];
      var what = rnd(16);
      n++;
      var tag = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
      switch (what) {
        case 0: el.appendChild(document.createTextNode(' added ' + n)); break;
        case 1: var sp = document.createElement('span'); sp.textContent = 'word ' + n; el.appendChild(sp); break;
        case 2: var b = document.createElement('button'); b.textContent = 'Button ' + n; el.insertBefore(b, el.firstChild); break;
        case 3: if (el.parentNode && el !== document.body) el.remove(); break;
        case 4:
          var tn = null;
          for (var c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3 && c.data.trim()) { tn = c; break; }
          if (tn) tn.data = 'changed ' + n; else el.appendChild(document.createTextNode('text ' + n));
          break;
        case 5: el.classList.toggle(['cupx', 'cupy', 'cupz'][rnd(3)]); break;
        case 6: el.style.display = el.style.display === 'none' ? '' : 'none'; break;
        case 7: el.hidden = !el.hidden; break;
        case 8: el.setAttribute('aria-label', 'label ' + n); break;
        case 9:
          var list = document.querySelector(['ul', 'ol', 'tbody', 'select'][rnd(4)]);
          if (list) {
            var item = document.createElement(list.tagName === 'TBODY' ? 'tr' : list.tagName === 'SELECT' ? 'option' : 'li');
            if (item.tagName === 'TR') item.innerHTML = '<td>cell ' + n + '</td><td>more</td>';
            else item.textContent = 'item ' + n;
            list.appendChild(item);
            tag = list.tagName.toLowerCase();
          }
          break;
        case 10: el.innerHTML = '<p>para ' + n + ' <b>bold</b> <a href="#x">link</a></p>'; break;
        case 11: el.title = 'title ' + n; break;
        case 12: if (el.getAttribute('aria-hidden') === 'true') el.removeAttribute('aria-hidden'); else el.setAttribute('aria-hidden', 'true'); break;
        case 13: var d = document.createElement('div'); d.innerHTML = 'new <i>block</i> ' + n; el.after(d); break;
        case 14: window.scrollBy(0, rnd(2) ? 150 : -150); tag = 'window'; break;
        case 15: el.scrollTop += 40; el.scrollLeft += 10; break;
      }
      done.push(what + '@' + tag);
    }
    return done.join(', ');
  };
  return 1;
})()
"##;

/// The first difference between two walks, if any.
fn difference(got: &Walk, want: &Walk) -> Option<String> {
    if got.nodes.len() != want.nodes.len() {
        let first = got
            .nodes
            .iter()
            .zip(&want.nodes)
            .position(|(a, b)| a != b)
            .unwrap_or(got.nodes.len().min(want.nodes.len()));
        return Some(format!(
            "{} nodes, a whole walk has {}; first difference at {first}:\n  spliced {:?}\n  whole   {:?}",
            got.nodes.len(),
            want.nodes.len(),
            got.nodes.get(first),
            want.nodes.get(first)
        ));
    }
    if let Some(i) = got.nodes.iter().zip(&want.nodes).position(|(a, b)| a != b) {
        return Some(format!(
            "node {i}:\n  spliced {:?}\n  whole   {:?}",
            got.nodes[i], want.nodes[i]
        ));
    }
    (got.children != want.children).then(|| "the same nodes in another tree".to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incremental_walks_equal_whole_walks_after_random_changes() {
    let corpus = Corpus::open();
    let (site, browser) = (&corpus.site, corpus.browser().await);
    let (mut spliced, mut patched, mut whole) = (0u32, 0u32, 0u32);
    let mut failures = Vec::new();
    let mut why = std::collections::BTreeMap::new();
    for (p, (path, _)) in PAGES.iter().enumerate() {
        let page = open_page(&browser, site, path).await;
        browser
            .evaluate(&page, MUTATOR)
            .await
            .unwrap_or_else(|e| panic!("{path}: mutator: {e}"));
        tokio::time::sleep(Duration::from_millis(300)).await;
        let mut held = whole_walk(&browser, &page, &format!("{path} first")).await;
        for step in 0..STEPS {
            let seed = 7919 * (p as u32 + 1) + 104_729 * (step + 1);
            let did = browser
                .evaluate(&page, &format!("__cupMutate({seed})"))
                .await
                .unwrap_or_else(|e| panic!("{path}: mutate: {e}"));
            let did = did.as_str().unwrap_or_default().to_owned();
            let tag = format!("{path} step {step} ({did})");
            let mut got = held.clone();
            match world::walk(&browser, &page, &page, Some(held.gen)).await {
                Ok(Answer::Splice(s)) => {
                    assert_eq!(
                        s.walk.first_error, None,
                        "{tag}: the splice skipped subtrees"
                    );
                    got.splice(&s)
                        .unwrap_or_else(|e| panic!("{tag}: splice: {e}"));
                    spliced += 1;
                }
                Ok(Answer::Patch(pt)) => {
                    got.apply(&pt)
                        .unwrap_or_else(|e| panic!("{tag}: patch: {e}"));
                    patched += 1;
                }
                Ok(Answer::Whole(raw)) => {
                    got = raw.decode().unwrap_or_else(|e| panic!("{tag}: {e}"));
                    whole += 1;
                    *why.entry(raw.why.unwrap_or_default()).or_insert(0u32) += 1;
                }
                Err(e) => panic!("{tag}: walk: {e}"),
            }
            let want = whole_walk(&browser, &page, &tag).await;
            if let Some(d) = difference(&got, &want) {
                failures.push(format!("{tag}: {d}"));
            }
            held = want;
        }
    }
    eprintln!(
        "{} changes: {spliced} answered as splices, {patched} as patches, {whole} as whole walks; {} differ from a whole walk",
        spliced + patched + whole,
        failures.len()
    );
    for (reason, n) in &why {
        eprintln!("  whole: {n} x {reason}");
    }
    assert!(
        failures.is_empty(),
        "incremental walks that differ from a whole walk:\n{}",
        failures.join("\n")
    );
    assert!(
        spliced * 2 >= spliced + patched + whole,
        "at least half the changes must be answered as splices ({spliced} of {})",
        spliced + patched + whole
    );
}

/// A list scrolled inside an open shadow root, on a page that scrolls.
const SHADOW_SCROLL: &str = r#"<!doctype html><title>Shadow scroll</title>
<x-list></x-list>
<div style="height:3000px">Below the list</div>
<script>
customElements.define('x-list', class extends HTMLElement {
  constructor() {
    super();
    const r = this.attachShadow({mode: 'open'});
    let items = '';
    for (let i = 0; i < 30; i++) items += '<button style="display:block;height:30px">Item ' + i + '</button>';
    r.innerHTML = '<div style="height:100px;overflow:auto">' + items + '</div>';
  }
});
</script>"#;

/// Reads `page` incrementally after `what` and applies the answer to
/// `walk`: it must be a splice of no subtree (boxes only).
async fn boxes_only(browser: &cup_web::browser::Browser, page: &str, walk: &mut Walk, what: &str) {
    match world::walk(browser, page, page, Some(walk.gen)).await {
        Ok(Answer::Splice(s)) => {
            assert!(
                s.parts.is_empty(),
                "{what}: nothing to walk again: {:?}",
                s.parts
            );
            walk.splice(&s)
                .unwrap_or_else(|e| panic!("{what}: the splice does not apply: {e}"));
        }
        other => panic!("{what} was not answered as a splice: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scroll_inside_a_shadow_root_moves_the_boxes_of_the_next_walk() {
    let site = Site::serve(&[("/scroll.html", SHADOW_SCROLL.to_owned())]);
    let web = Web::open(&site.url("/scroll.html"));
    let browser = web.cdp().await;
    let page = open_page(&browser, &site, "/scroll.html").await;
    let item = |w: &Walk, name: &str| {
        w.nodes
            .iter()
            .find(|n| n.name == name)
            .and_then(|n| n.bounds)
            .unwrap_or_else(|| panic!("no {name} with a box"))
    };
    let held = whole_walk(&browser, &page, "the first walk").await;
    // Nothing changed: a patch of nothing.
    let mut after = held.clone();
    match world::walk(&browser, &page, &page, Some(held.gen)).await {
        Ok(Answer::Patch(p)) => {
            assert!(p.rows.is_empty(), "nothing changed: {p:?}");
            after
                .apply(&p)
                .unwrap_or_else(|e| panic!("the patch does not apply: {e}"));
        }
        other => panic!("an unchanged page was not answered as a patch: {other:?}"),
    }
    browser
        .evaluate(
            &page,
            "document.querySelector('x-list').shadowRoot.querySelector('div').scrollTop = 200; 1",
        )
        .await
        .unwrap_or_else(|e| panic!("scroll: {e}"));
    // The scroll event comes with the next frame.
    tokio::time::sleep(Duration::from_millis(300)).await;
    boxes_only(&browser, &page, &mut after, "a scroll in a shadow root").await;
    let whole = whole_walk(&browser, &page, "after the scroll").await;
    assert_eq!(
        after.nodes, whole.nodes,
        "the spliced walk is the whole walk"
    );
    let (before, now) = (item(&held, "Item 10"), item(&after, "Item 10"));
    assert!(
        (before.1 - now.1 - 200.0).abs() < 1.0,
        "Item 10 moved up by the scroll: {before:?} -> {now:?}"
    );

    // The page scrolled: the same, read before the scroll event comes.
    browser
        .evaluate(&page, "window.scrollBy(0, 120); 1")
        .await
        .unwrap_or_else(|e| panic!("scroll: {e}"));
    // (The whole walk above is the walker's latest.)
    let held = whole;
    let mut after = held.clone();
    boxes_only(&browser, &page, &mut after, "a scroll of the page").await;
    assert_eq!(after.scroll, (0.0, 120.0), "the walk's scroll offset");
    let (before, now) = (item(&held, "Item 10"), item(&after, "Item 10"));
    assert!(
        (before.1 - now.1 - 120.0).abs() < 1.0,
        "Item 10 moved up by the page's scroll: {before:?} -> {now:?}"
    );
}
