//! The Chromium source of a capture, read from the browser:
//! `Accessibility.getFullAXTree` of every frame with the
//! `DOMSnapshot.captureSnapshot` of its target (the overflow candidates
//! asked whether they scroll), each iframe's origin from its owner's
//! content box, and `DOM.getBoxModel` for the nodes the snapshot left out.
//! The join itself is [`super::join`]'s.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use cup_protocol::{Node, Rect};
use serde_json::{json, Value};

use super::join::{apply_boxes, build_tree, page_facts, Frame};
use super::{
    child_frames, frame_owner, parse_ref, read_probe, NodeKey, PageTree, Viewport, PAGE_PROBE,
};
use crate::browser::Browser;
use crate::cdp::CdpError;
use crate::layout::Layout;
use crate::mapping::AxNode;

fn ax_nodes(result: &Value) -> Vec<AxNode> {
    result
        .get("nodes")
        .and_then(Value::as_array)
        .map(|n| n.iter().filter_map(AxNode::from_cdp).collect())
        .unwrap_or_default()
}

/// Most overflow candidates whose scroll size is asked (real pages have
/// few; past this, the rest are taken as not scrolling).
const MAX_SCROLL_CHECKS: usize = 200;

/// Whether the element's content overflows its box (called on it).
const OVERFLOWS: &str =
    "function() { return this.scrollHeight > this.clientHeight + 1 || this.scrollWidth > this.clientWidth + 1; }";

async fn snapshot(browser: &Browser, target: &str) -> Result<Layout, CdpError> {
    // Without DOM rects (they cost Chromium a third more): the overflow
    // styles name the few candidates, whose sizes are then asked.
    let result = browser
        .call(
            target,
            "DOMSnapshot.captureSnapshot",
            json!({"computedStyles": Layout::STYLES}),
        )
        .await?;
    let mut layout = Layout::parse(&result);
    let candidates: Vec<i64> = layout
        .nodes
        .iter()
        .filter(|(_, n)| n.overflow && n.bounds.is_some_and(|b| b.w > 0.0 && b.h > 0.0))
        .map(|(id, _)| *id)
        .take(MAX_SCROLL_CHECKS)
        .collect();
    let checks = candidates.iter().map(|backend| async move {
        let object = browser
            .call(target, "DOM.resolveNode", json!({"backendNodeId": backend}))
            .await
            .ok()?;
        let id = object.get("object")?.get("objectId")?.as_str()?.to_owned();
        let r = browser
            .call(
                target,
                "Runtime.callFunctionOn",
                json!({"objectId": id, "functionDeclaration": OVERFLOWS, "returnByValue": true}),
            )
            .await
            .ok()?;
        r.get("result")?.get("value")?.as_bool()
    });
    let answers = futures::future::join_all(checks).await;
    for (backend, scrolls) in candidates.iter().zip(answers) {
        if let Some(n) = layout.nodes.get_mut(backend) {
            n.scrollable = scrolls == Some(true);
        }
    }
    Ok(layout)
}

/// The content box origin of DOM node `backend` in `target`'s viewport.
async fn content_origin(
    browser: &Browser,
    target: &str,
    backend: i64,
) -> Result<(f64, f64), CdpError> {
    let model = browser
        .call(target, "DOM.getBoxModel", json!({"backendNodeId": backend}))
        .await?;
    let quad = model
        .get("model")
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let n = |i: usize| quad.get(i).and_then(Value::as_f64).unwrap_or(0.0);
    Ok((n(0), n(1)))
}

/// The Chromium source: `getFullAXTree` joined with the layout snapshot.
pub(super) async fn capture_chromium(
    browser: &Browser,
    page: &str,
    max_depth: usize,
    max_nodes: usize,
    record: bool,
) -> Result<(PageTree, Viewport), CdpError> {
    let t0 = std::time::Instant::now();
    let timed = |what: &'static str| {
        tracing::debug!(what, ms = t0.elapsed().as_secs_f64() * 1e3, "page read");
    };
    // The accessibility walk is asked first: the renderer answers in
    // order, and reading its (large) answer overlaps the layout snapshot.
    let (ax, layout, probe, frames) = tokio::try_join!(
        async {
            browser
                .call(page, "Accessibility.getFullAXTree", json!({}))
                .await
                .inspect(|_| timed("getFullAXTree"))
        },
        async {
            snapshot(browser, page)
                .await
                .inspect(|_| timed("captureSnapshot"))
        },
        browser.evaluate(page, PAGE_PROBE),
        browser.call(page, "Page.getFrameTree", json!({})),
    )?;
    let (view, tools) = read_probe(&probe);
    let layout = Arc::new(layout);
    let main_scroll = layout
        .documents
        .first()
        .map_or((0.0, 0.0), |d| (d.scroll_x, d.scroll_y));
    let mut frames_by_owner: HashMap<(String, i64), Frame> = HashMap::new();
    let mut notes: Vec<String> = super::loading_note(&probe).into_iter().collect();

    let mut children = Vec::new();
    if let Some(tree) = frames.get("frameTree") {
        child_frames(tree, &mut children);
    }
    let main_frame = frames
        .get("frameTree")
        .and_then(|t| t.get("frame"))
        .and_then(|f| f.get("id"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    // Out-of-process iframes are not in the page's frame tree; they are
    // iframe targets whose owner element is found from the page (others
    // belong to other pages and are skipped). A page without frame
    // elements has none: no call for them.
    let has_frames = layout
        .nodes
        .values()
        .any(|n| n.tag == "iframe" || n.tag == "frame");
    let iframe_targets: HashSet<String> = if has_frames {
        browser
            .targets()
            .await
            .map(|ts| {
                ts.into_iter()
                    .filter(|t| t.kind == "iframe")
                    .map(|t| t.id)
                    .collect()
            })
            .unwrap_or_default()
    } else {
        HashSet::new()
    };
    let in_tree: HashSet<String> = children.iter().map(|(f, _)| f.clone()).collect();
    let mut foreign: HashSet<String> = HashSet::new();
    for t in &iframe_targets {
        if !in_tree.contains(t) {
            children.push((t.clone(), main_frame.clone()));
            foreign.insert(t.clone());
        }
    }
    if !children.is_empty() {
        // Which target's session holds each frame's nodes.
        let mut holder: HashMap<String, String> = HashMap::new();
        for (frame, parent) in &children {
            let parent_holder = holder
                .get(parent)
                .cloned()
                .unwrap_or_else(|| page.to_owned());
            let own = if iframe_targets.contains(frame) {
                frame.clone()
            } else {
                parent_holder.clone()
            };
            holder.insert(frame.clone(), own.clone());
            let read = async {
                let owner = frame_owner(browser, &parent_holder, frame).await?;
                let (origin, ax, frame_layout, layout_key) = if own == parent_holder {
                    let (origin, ax) = tokio::try_join!(
                        content_origin(browser, &parent_holder, owner),
                        browser.call(
                            &own,
                            "Accessibility.getFullAXTree",
                            json!({"frameId": frame})
                        ),
                    )?;
                    (origin, ax, Arc::clone(&layout), page.to_owned())
                } else {
                    let (origin, ax, l) = tokio::try_join!(
                        content_origin(browser, &parent_holder, owner),
                        browser.call(&own, "Accessibility.getFullAXTree", json!({})),
                        snapshot(browser, &own),
                    )?;
                    (origin, ax, Arc::new(l), own.clone())
                };
                let scroll = frame_layout
                    .documents
                    .iter()
                    .find(|d| d.frame_id == *frame)
                    .map_or((0.0, 0.0), |d| (d.scroll_x, d.scroll_y));
                Ok::<_, CdpError>((
                    owner,
                    Frame {
                        target: own.clone(),
                        ax: ax_nodes(&ax),
                        layout: frame_layout,
                        layout_key,
                        origin: (origin.0 - scroll.0, origin.1 - scroll.1),
                    },
                ))
            };
            match read.await {
                Ok((owner, f)) => {
                    frames_by_owner.insert((parent_holder.clone(), owner), f);
                }
                // An iframe target of another page has no owner here.
                Err(_) if foreign.contains(frame) => {}
                Err(e) => notes.push(format!("iframe {frame} was not read: {e}")),
            }
        }
    }

    let main = Frame {
        target: page.to_owned(),
        ax: ax_nodes(&ax),
        layout,
        layout_key: page.to_owned(),
        origin: (-main_scroll.0, -main_scroll.1),
    };
    // Freeing a big page's raw tree takes tens of milliseconds: not on the
    // caller's time.
    tokio::task::spawn_blocking(move || drop(ax));
    let (mut root, cut) = build_tree(page, view, &main, &frames_by_owner, max_depth, max_nodes);
    tracing::debug!(ms = t0.elapsed().as_secs_f64() * 1e3, "tree built");
    let mut facts = record.then(|| Box::new(page_facts(page, view, &main, &frames_by_owner)));
    tokio::task::spawn_blocking(move || drop((main, frames_by_owner)));
    if let Some(root) = root.as_mut() {
        let boxes = missing_boxes(browser, page, view, root).await;
        apply_boxes(root, &boxes, view);
        if let Some(f) = facts.as_mut() {
            f.boxes = boxes.into_iter().collect();
        }
    }
    Ok((
        PageTree {
            root,
            tools,
            notes,
            cut,
            facts,
            revision: None,
        },
        view,
    ))
}

/// Most nodes whose box is asked for one by one (user-agent shadow
/// content such as a date field's parts is not in the layout snapshot).
const MAX_BOX_QUERIES: usize = 200;

/// The boxes of the page's own nodes the layout snapshot left out, from
/// `DOM.getBoxModel` (all in flight at once), by node reference; nodes
/// without a box (closed popups) have none.
async fn missing_boxes(
    browser: &Browser,
    page: &str,
    view: Viewport,
    root: &Node,
) -> HashMap<String, Rect> {
    let mut wanted = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        // A document has no box of its own to ask for (and asking makes
        // Chromium serialize its whole DOM): the page's is the viewport.
        if n.bounds.is_none() && n.role != cup_protocol::Role::Document {
            if let Some((p, frame, NodeKey::Backend(backend))) = parse_ref(&n.id) {
                if p == page && frame == page && wanted.len() < MAX_BOX_QUERIES {
                    wanted.push((n.id.clone(), backend));
                }
            }
        }
        stack.extend(n.children.iter());
    }
    tracing::debug!(boxes = wanted.len(), "asking for missing boxes");
    let mut found: HashMap<String, Rect> = HashMap::new();
    if wanted.is_empty() {
        return found;
    }
    let calls = wanted.iter().map(|(_, backend)| {
        browser.call(page, "DOM.getBoxModel", json!({"backendNodeId": backend}))
    });
    let answers = futures::future::join_all(calls).await;
    for ((id, _), answer) in wanted.into_iter().zip(answers) {
        let Ok(model) = answer else { continue };
        let Some(quad) = model
            .get("model")
            .and_then(|m| m.get("border"))
            .and_then(Value::as_array)
        else {
            continue;
        };
        let xs: Vec<f64> = quad.iter().step_by(2).filter_map(Value::as_f64).collect();
        let ys: Vec<f64> = quad
            .iter()
            .skip(1)
            .step_by(2)
            .filter_map(Value::as_f64)
            .collect();
        let (Some(x0), Some(y0)) = (
            xs.iter().copied().reduce(f64::min),
            ys.iter().copied().reduce(f64::min),
        ) else {
            continue;
        };
        let x1 = xs.iter().copied().fold(x0, f64::max);
        let y1 = ys.iter().copied().fold(y0, f64::max);
        let d = view.dpr;
        found.insert(
            id,
            Rect::new(
                (x0 * d).round() as i64,
                (y0 * d).round() as i64,
                ((x1 - x0) * d).round().max(0.0) as u64,
                ((y1 - y0) * d).round().max(0.0) as u64,
            ),
        );
    }
    found
}
