//! Capture of real pages in headless Chromium, served by the test's own
//! loopback servers: every input type, iframes (same-process and
//! out-of-process), an open shadow root, a 5,000-row list, bounds on every
//! laid-out node, schema-valid envelopes.

use crate::support::{nodes, Site, Web};
use cup_protocol::{Action, Role, State};
use cup_web::capture::{replay, PageFacts};
use cup_web::walker::{world, Answer};

/// Also the page of the recorded fixture `fixtures/form.json`
/// (`scripts/record-web-fixtures.sh`).
const FORM: &str = include_str!("pages/form.html");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn form_with_every_input_type_has_bounds_and_states() {
    let site = Site::serve(&[("/form.html", FORM.to_owned())]);
    let mut web = Web::open(&site.url("/form.html"));
    // The page's accessibility tree grows while it loads: wait for its
    // last element, named.
    let snap = web
        .snapshot_until(|s| {
            let all = nodes(s);
            all.iter()
                .any(|n| n.role == Role::Link && n.name == "Next page")
                && all.iter().any(|n| n.name == "Far below")
        })
        .await;
    let all = nodes(&snap);
    let find = |role: Role, name: &str| {
        all.iter()
            .find(|n| n.role == role && n.name.contains(name))
            .copied()
            .unwrap_or_else(|| panic!("no {role:?} {name:?} in:\n{}", snap.text))
    };
    let name = find(Role::TextBox, "Name");
    assert_eq!(name.value.as_deref(), Some("Ada"));
    assert_eq!(name.attributes.placeholder.as_deref(), Some("Full name"));
    assert!(name.actions.contains(&Action::Type));
    let sub = find(Role::Checkbox, "Subscribe");
    assert!(sub.states.contains(&State::Checked));
    assert!(find(Role::Checkbox, "Disabled")
        .states
        .contains(&State::Disabled));
    assert!(find(Role::Radio, "Fast").states.contains(&State::Checked));
    assert_eq!(find(Role::Slider, "Volume").value.as_deref(), Some("30"));
    assert_eq!(find(Role::SpinButton, "Count").value.as_deref(), Some("3"));
    assert!(find(Role::Combobox, "Country").value.as_deref() == Some("Japan"));
    find(Role::Button, "Send");
    find(Role::Link, "Next page");
    // Every node with a layout box has bounds: all but the document itself
    // and the options of the closed drop-down (not rendered).
    let closed: Vec<&str> = all
        .iter()
        .filter(|n| n.role == Role::Combobox)
        .flat_map(|n| n.iter().skip(1).map(|c| c.id.as_str()))
        .collect();
    let missing: Vec<String> = all
        .iter()
        .filter(|n| {
            n.bounds.is_none() && n.role != Role::Document && !closed.contains(&n.id.as_str())
        })
        .map(|n| format!("{} {:?} {:?}", n.id, n.role, n.name))
        .collect();
    assert!(missing.is_empty(), "nodes without bounds: {missing:?}");
    // The paragraph 3000 px down is offscreen.
    let far = all
        .iter()
        .find(|n| n.name == "Far below")
        .unwrap_or_else(|| panic!("no far text"));
    assert!(far.states.contains(&State::Offscreen), "{far:?}");
}

fn outer_page(cross_port: u16) -> String {
    format!(
        r#"<!doctype html><html><head><title>Frames</title></head><body style="margin:0">
<h1 style="margin:0;height:50px">Outer</h1>
<iframe src="/inner.html" style="position:absolute;left:100px;top:100px;width:400px;height:200px;border:0"></iframe>
<iframe src="http://localhost:{cross_port}/cross.html" style="position:absolute;left:600px;top:120px;width:400px;height:200px;border:0"></iframe>
<shadow-host></shadow-host>
<script>
customElements.define('shadow-host', class extends HTMLElement {{
  constructor() {{ super(); const r = this.attachShadow({{mode: 'open'}});
    r.innerHTML = '<button style="position:absolute;left:20px;top:400px;width:120px;height:30px">Shadow button</button>'; }}
}});
</script>
</body></html>"#
    )
}

const INNER: &str = r#"<!doctype html><html><body style="margin:0">
<button style="position:absolute;left:10px;top:20px;width:80px;height:30px">Same-site button</button>
</body></html>"#;

const CROSS: &str = r#"<!doctype html><html><body style="margin:0">
<button style="position:absolute;left:30px;top:40px;width:90px;height:30px">Cross-site button</button>
</body></html>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn iframes_in_and_out_of_process_and_shadow_roots_have_true_bounds() {
    let cross = Site::serve(&[("/cross.html", CROSS.to_owned())]);
    let site = Site::serve(&[
        ("/frames.html", outer_page(cross.port)),
        ("/inner.html", INNER.to_owned()),
    ]);
    let mut web = Web::open(&site.url("/frames.html"));
    let snap = web
        .snapshot_until(|s| {
            s.text.contains("Same-site button")
                && s.text.contains("Cross-site button")
                && s.text.contains("Shadow button")
        })
        .await;
    let all = nodes(&snap);
    let button = |name: &str| {
        all.iter()
            .find(|n| n.role == Role::Button && n.name == name)
            .copied()
            .unwrap_or_else(|| panic!("no button {name:?} in:\n{}", snap.text))
    };
    let b = |name: &str| {
        button(name)
            .bounds
            .map(|r| (r.x, r.y, r.w, r.h))
            .unwrap_or_else(|| panic!("{name} has no bounds"))
    };
    // Page coordinates: the frame's offset plus the element's place in it.
    assert_eq!(b("Same-site button"), (110, 120, 80, 30));
    assert_eq!(b("Cross-site button"), (630, 160, 90, 30));
    assert_eq!(b("Shadow button"), (20, 400, 120, 30));
    assert!(button("Cross-site button").actions.contains(&Action::Click));

    // The native dump of a capture builds the same tree again without the
    // browser: main frame, both iframes, the shadow root.
    web.session.adapter().record_native(true);
    let snap = web
        .snapshot_until(|s| s.text.contains("Cross-site button"))
        .await;
    let dump = web
        .session
        .adapter()
        .native_dump()
        .unwrap_or_else(|| panic!("the web adapter recorded no native facts"));
    assert_eq!(dump["platform"], "web");
    let pages = dump["pages"]
        .as_array()
        .unwrap_or_else(|| panic!("no pages in the dump: {dump}"));
    let limits = cup::CaptureLimits::default();
    let mut replayed = Vec::new();
    for page in pages {
        let facts: PageFacts = serde_json::from_value(page.clone())
            .unwrap_or_else(|e| panic!("page facts do not read back: {e}"));
        let frames = facts
            .walker
            .as_ref()
            .map_or(facts.frames.len(), |w| w.frames.len());
        assert_eq!(frames, 3, "main frame and two iframes");
        let tree = replay(&facts, limits.max_depth, limits.max_nodes)
            .unwrap_or_else(|e| panic!("replay: {e}"));
        replayed.extend(tree.root);
    }
    // The dump's ids name the snapshot's nodes by their native references.
    let ids = dump["ids"].as_object().unwrap_or_else(|| panic!("no ids"));
    let by_ref = |r: &str| {
        ids.iter()
            .find(|(_, v)| v.as_str() == Some(r))
            .map(|(k, _)| k.clone())
    };
    let seen: Vec<String> = replayed
        .iter()
        .flat_map(|r| r.iter())
        .map(|n| {
            format!(
                "{} {:?} {:?} {:?} {:?}",
                by_ref(&n.id).unwrap_or_default(),
                n.role,
                n.name,
                n.bounds,
                n.states
            )
        })
        .collect();
    let want: Vec<String> = nodes(&snap)
        .iter()
        .map(|n| {
            format!(
                "{} {:?} {:?} {:?} {:?}",
                n.id, n.role, n.name, n.bounds, n.states
            )
        })
        .collect();
    assert_eq!(
        seen, want,
        "the replayed tree differs from the captured one"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webmcp_tools_are_listed_in_the_envelope() {
    let site = Site::serve(&[(
        "/tools.html",
        r#"<!doctype html><title>Tools</title><h1>Store</h1><script>
navigator.modelContext = {tools: [{name: "add_to_cart", description: "Adds an item",
  inputSchema: {type: "object", properties: {sku: {type: "string"}}}}]};
</script>"#
            .to_owned(),
    )]);
    let mut web = Web::open(&site.url("/tools.html"));
    let snap = web
        .snapshot_until(|s| s.envelope.tools.as_ref().is_some_and(|t| !t.is_empty()))
        .await;
    let tools = snap.envelope.tools.clone().unwrap_or_default();
    assert_eq!(tools.len(), 1, "{:?}", snap.envelope.tools);
    assert_eq!(tools[0].name, "add_to_cart");
    assert_eq!(tools[0].description.as_deref(), Some("Adds an item"));
    assert!(snap.text.contains("WebMCP tool"), "{}", snap.text);
}

/// A page whose states change without structure (a checkbox, a text
/// field, an ARIA toggle, a select), and one click that changes structure.
const LIVE: &str = r#"<!doctype html><title>Live</title>
<label><input type="checkbox" id="c"> Gift wrap</label>
<label>Note <input id="t"></label>
<button id="p" aria-pressed="false" onclick="this.setAttribute('aria-pressed', this.getAttribute('aria-pressed') === 'true' ? 'false' : 'true')">Bold</button>
<select id="s"><option>Standard</option><option>Express</option></select>
<button onclick="const li = document.createElement('li'); li.textContent = 'Added ' + (document.querySelectorAll('#l li').length + 1); document.getElementById('l').append(li)">Add</button>
<ul id="l"><li>First</li></ul>
<p>Last line</p>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_snapshots_show_every_change_and_keep_ids() {
    use cup::ActionParams;
    let site = Site::serve(&[("/live.html", LIVE.to_owned())]);
    let mut web = Web::open(&site.url("/live.html"));
    let first = web
        .snapshot_until(|s| nodes(s).iter().any(|n| n.name == "Last line"))
        .await;
    let id_of = |snap: &cup::Snapshot, role: Role, name: &str| {
        nodes(snap)
            .iter()
            .find(|n| n.role == role && n.name.contains(name))
            .map(|n| n.id.clone())
            .unwrap_or_else(|| panic!("no {role:?} {name:?} in:\n{}", snap.text))
    };
    let node = |snap: &cup::Snapshot, id: &str| {
        nodes(snap)
            .into_iter()
            .find(|n| n.id == id)
            .cloned()
            .unwrap_or_else(|| panic!("no {id} in:\n{}", snap.text))
    };
    let check = id_of(&first, Role::Checkbox, "Gift wrap");
    let text = id_of(&first, Role::TextBox, "Note");
    let bold = id_of(&first, Role::Button, "Bold");
    let select = id_of(&first, Role::Combobox, "");
    let add = id_of(&first, Role::Button, "Add");
    let none = ActionParams::default();

    // States only: each shows in the very next snapshot, ids unchanged.
    web.session
        .action(&check, "click", &none)
        .await
        .expect("click");
    let s = snap(&mut web).await;
    assert!(
        node(&s, &check).states.contains(&State::Checked),
        "{}",
        s.text
    );
    assert_eq!(s.text.lines().count(), first.text.lines().count());
    web.session
        .action(
            &text,
            "type",
            &ActionParams {
                value: Some("wrapped".into()),
                ..ActionParams::default()
            },
        )
        .await
        .expect("type");
    let s = snap(&mut web).await;
    assert_eq!(
        node(&s, &text).value.as_deref(),
        Some("wrapped"),
        "{}",
        s.text
    );
    assert!(
        node(&s, &text).states.contains(&State::Focused),
        "{}",
        s.text
    );
    web.session
        .action(&bold, "click", &none)
        .await
        .expect("click");
    let s = snap(&mut web).await;
    assert!(
        node(&s, &bold).states.contains(&State::Pressed),
        "{}",
        s.text
    );
    assert!(
        !node(&s, &text).states.contains(&State::Focused),
        "{}",
        s.text
    );
    web.session
        .action(
            &select,
            "select",
            &ActionParams {
                value: Some("Express".into()),
                ..ActionParams::default()
            },
        )
        .await
        .expect("select");
    let s = snap(&mut web).await;
    assert_eq!(
        node(&s, &select).value.as_deref(),
        Some("Express"),
        "{}",
        s.text
    );
    // A value set by the page's script, with no event: still seen.
    let page = cup_web::WebAdapter::new(cup_web::Endpoint::Http {
        host: "127.0.0.1".into(),
        port: web.browser.port(),
    });
    page.page_script(
        None,
        &cup_web::PageScript::ExecuteJavascript(
            "document.getElementById('t').value = 'by script'; document.getElementById('c').checked = false; 1"
                .into(),
        ),
    )
    .await
    .unwrap_or_else(|e| panic!("script: {e}"));
    let s = snap(&mut web).await;
    assert_eq!(
        node(&s, &text).value.as_deref(),
        Some("by script"),
        "{}",
        s.text
    );
    assert!(
        !node(&s, &check).states.contains(&State::Checked),
        "{}",
        s.text
    );
    for id in [&check, &text, &bold, &select, &add] {
        assert_eq!(
            node(&s, id).id,
            node(&first, id).id,
            "ids of unchanged elements stay"
        );
    }

    // Structure: the new item is there at once, and every element that
    // was there keeps its id (the list item comes before "Last line": in
    // tree-order numbering its id would have moved).
    let before = s;
    web.session
        .action(&add, "click", &none)
        .await
        .expect("click");
    let s = snap(&mut web).await;
    let added = nodes(&s)
        .into_iter()
        .find(|n| n.name == "Added 2")
        .cloned()
        .unwrap_or_else(|| panic!("the added item is missing:\n{}", s.text));
    assert_eq!(node(&s, &check).name, "Gift wrap");
    for old in nodes(&before) {
        let now = node(&s, &old.id);
        assert_eq!(
            (now.role, &now.name),
            (old.role, &old.name),
            "{} changed its element:\nbefore:\n{}\nafter:\n{}",
            old.id,
            before.text,
            s.text
        );
    }
    assert!(
        nodes(&before).iter().all(|n| n.id != added.id),
        "the new item has a new id ({}):\n{}",
        added.id,
        s.text
    );

    // The mechanism itself, on a connection of its own: a state change is
    // answered as a patch of the walk held, a new node as a whole walk.
    let browser = page
        .browser()
        .await
        .unwrap_or_else(|e| panic!("no browser: {e}"));
    let target = browser
        .pages()
        .await
        .ok()
        .and_then(|p| p.first().map(|p| p.id.clone()))
        .unwrap_or_else(|| panic!("no page"));
    let (held, _) = world::read(&browser, &target, &target, false)
        .await
        .unwrap_or_else(|e| panic!("walk: {e}"));
    let script = |js: &str| cup_web::PageScript::ExecuteJavascript(js.to_owned());
    page.page_script(None, &script("document.getElementById('c').click(); 1"))
        .await
        .unwrap_or_else(|e| panic!("script: {e}"));
    let patch = match world::walk(&browser, &target, &target, Some(held.gen)).await {
        Ok(Answer::Patch(p)) => p,
        other => panic!("a checkbox click was not answered as a patch: {other:?}"),
    };
    assert_eq!((patch.patch, patch.count), (held.gen, held.nodes.len()));
    assert!(!patch.rows.is_empty(), "the patch names the checkbox's row");
    let mut walk = (*held).clone();
    walk.apply(&patch)
        .unwrap_or_else(|e| panic!("the patch does not apply: {e}"));
    page.page_script(
        None,
        &script(
            "var li = document.createElement('li'); li.textContent = 'Spliced in'; document.getElementById('l').append(li); 1",
        ),
    )
    .await
    .unwrap_or_else(|e| panic!("script: {e}"));
    let splice = match world::walk(&browser, &target, &target, Some(patch.gen)).await {
        Ok(Answer::Splice(s)) => s,
        other => panic!("a new list item was not answered as a splice: {other:?}"),
    };
    assert_eq!((splice.splice, splice.base), (patch.gen, held.nodes.len()));
    walk.splice(&splice)
        .unwrap_or_else(|e| panic!("the splice does not apply: {e}"));
    assert!(
        walk.nodes.len() > held.nodes.len() && walk.nodes.iter().any(|n| n.name == "Spliced in"),
        "the splice adds the new item's rows"
    );
    let whole = crate::support::whole_walk(&browser, &target, "after the splice").await;
    assert_eq!(
        walk.nodes, whole.nodes,
        "the spliced walk is the whole walk"
    );
}

/// An unchanged page is answered by the snapshot the session holds (the
/// adapter's tree reused at the same revision): the same text under a new
/// id, the old id still naming it for `since`; any change ends it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unchanged_page_is_answered_by_the_snapshot_held() {
    use cup::ActionParams;
    let site = Site::serve(&[("/live.html", LIVE.to_owned())]);
    let mut web = Web::open(&site.url("/live.html"));
    let first = web
        .snapshot_until(|s| nodes(s).iter().any(|n| n.name == "Last line"))
        .await;
    // Twice: the first may still see the page settle.
    let _ = snap(&mut web).await;
    let a = snap(&mut web).await;
    let b = snap(&mut web).await;
    assert_eq!(a.text, b.text);
    assert_ne!(a.id, b.id, "each snapshot has its own id");
    let a_num: u64 = a.id.trim_start_matches('s').parse().unwrap_or(0);
    assert_eq!(b.id, format!("s{}", a_num + 1));
    // The earlier id names the same content.
    let since = web
        .session
        .snapshot(&cup::SnapshotRequest {
            since: Some(a.id.clone()),
            ..cup::SnapshotRequest::default()
        })
        .await
        .map(|s| s.text.clone())
        .unwrap_or_else(|e| panic!("since {}: {e}", a.id));
    assert!(
        since.contains(&format!("no change since {}", a.id)),
        "{since}"
    );
    // A change is seen at once.
    let check = nodes(&first)
        .iter()
        .find(|n| n.role == Role::Checkbox && n.name.contains("Gift wrap"))
        .map(|n| n.id.clone())
        .unwrap_or_else(|| panic!("no check box:\n{}", first.text));
    web.session
        .action(&check, "click", &ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("click: {e}"));
    let c = snap(&mut web).await;
    assert_ne!(c.text, b.text, "the click shows:\n{}", c.text);
    // And a value the page's script sets without an event.
    let page = cup_web::WebAdapter::new(cup_web::Endpoint::Http {
        host: "127.0.0.1".into(),
        port: web.browser.port(),
    });
    page.page_script(
        None,
        &cup_web::PageScript::ExecuteJavascript(
            "document.getElementById('t').value = 'quietly'; 1".into(),
        ),
    )
    .await
    .unwrap_or_else(|e| panic!("script: {e}"));
    let d = snap(&mut web).await;
    assert!(d.text.contains("quietly"), "{}", d.text);
}

async fn snap(web: &mut Web) -> cup::Snapshot {
    web.session
        .snapshot(&cup::SnapshotRequest::default())
        .await
        .cloned()
        .unwrap_or_else(|e| panic!("snapshot: {e}"))
}
