//! Capture of one page: `Accessibility.getFullAXTree` of every frame joined
//! with `DOMSnapshot.captureSnapshot` on backend node ids, so every laid-out
//! node has bounds. Same-process iframes come from the page's own session,
//! out-of-process ones from their iframe target's; each frame's boxes are
//! moved by its owner element's content box. Bounds are viewport-relative,
//! in CSS pixels times the device pixel ratio (screen pixels).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use cup_protocol::envelope::WebMcpTool;
use cup_protocol::{Node, Rect, State};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::browser::Browser;
use crate::cdp::CdpError;
use crate::layout::{CssRect, Layout};
use crate::mapping::{self, AxNode, DomInfo};
use crate::walker::{self, world, FrameWalk, WalkFrame, WalkPage};

/// What the page says of itself.
const PAGE_PROBE: &str = r"(async () => {
  let tools = [];
  try {
    const mc = navigator.modelContext;
    if (mc) {
      let t = typeof mc.getTools === 'function' ? await mc.getTools() : (mc.tools || mc._tools || []);
      if (t && typeof t.values === 'function' && !Array.isArray(t)) t = Array.from(t.values());
      tools = Array.from(t || []).map(x => ({name: String(x.name), description: x.description ?? null,
        inputSchema: x.inputSchema ?? null, annotations: x.annotations ?? null}));
    }
  } catch (e) {}
  return {dpr: window.devicePixelRatio || 1, w: window.innerWidth, h: window.innerHeight, tools};
})()";

/// The viewport of a page, in CSS pixels, and its pixel ratio.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Viewport {
    /// Width in CSS pixels.
    pub width: f64,
    /// Height in CSS pixels.
    pub height: f64,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
}

impl Viewport {
    /// The viewport in screen pixels, at 0,0.
    pub fn rect(&self) -> Rect {
        Rect::new(
            0,
            0,
            (self.width * self.dpr).round().max(0.0) as u64,
            (self.height * self.dpr).round().max(0.0) as u64,
        )
    }
}

/// One captured page.
#[derive(Debug, Clone, Default)]
pub struct PageTree {
    /// The root (the page's document); node ids hold native references
    /// (`page/frame-target/backend-id`) until the caller numbers them.
    pub root: Option<Node>,
    /// WebMCP tools the page offers.
    pub tools: Vec<WebMcpTool>,
    /// Frames that could not be read, and why.
    pub notes: Vec<String>,
    /// Nodes left out by the node cap or depth limit.
    pub cut: usize,
    /// The native facts the tree was built from, when asked for
    /// (`cup snapshot --native-dump`).
    pub facts: Option<Box<PageFacts>>,
}

/// The native facts of one page capture: what [`replay`] needs to build
/// the same tree again, without a browser (the web adapter's
/// `--native-dump`, and fixtures recorded from it).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageFacts {
    /// The page's target id.
    pub page: String,
    /// Its viewport.
    pub viewport: Option<Viewport>,
    /// `DOMSnapshot.captureSnapshot` of each target read, by target id.
    pub layouts: BTreeMap<String, Layout>,
    /// Every frame read: the page's main frame first, then its iframes.
    pub frames: Vec<FrameFacts>,
    /// Border boxes (screen pixels) from `DOM.getBoxModel` of the nodes
    /// the layout snapshot left out, by node reference.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub boxes: BTreeMap<String, Rect>,
    /// The walker's answers, frame by frame (the walker source; the
    /// fields above are then empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub walker: Option<WalkPage>,
}

/// One frame of [`PageFacts`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameFacts {
    /// The target whose session owns the frame's nodes.
    pub target: String,
    /// The key of its layout in [`PageFacts::layouts`].
    pub layout: String,
    /// Its owner element (target holding it, backend id); `None` for the
    /// main frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<(String, i64)>,
    /// Viewport position of its document origin minus its scroll.
    pub origin: (f64, f64),
    /// `Accessibility.getFullAXTree`'s nodes.
    pub ax: Vec<AxNode>,
}

/// A frame's data for the join.
struct Frame {
    /// Target whose session owns this frame's nodes.
    target: String,
    ax: Vec<AxNode>,
    layout: Arc<Layout>,
    /// The target whose snapshot `layout` is.
    layout_key: String,
    /// Viewport position of the frame's document origin minus its scroll.
    origin: (f64, f64),
}

/// Where the accessibility facts of a capture come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum AxSource {
    /// cup's walker, injected in an isolated world of every frame: roles,
    /// names, states, values and bounds in one pass (the default).
    #[default]
    Walker,
    /// Chromium's own tree (`Accessibility.getFullAXTree`) joined with the
    /// layout snapshot: slower, and the reference the walker is tested
    /// against.
    Chromium,
}

impl AxSource {
    /// The names [`AxSource::parse`] takes.
    pub const NAMES: [&'static str; 2] = ["walker", "chromium"];

    /// Reads `walker` or `chromium`.
    ///
    /// # Errors
    ///
    /// A one-line message naming the choices.
    pub fn parse(name: &str) -> Result<AxSource, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "walker" => Ok(AxSource::Walker),
            "chromium" => Ok(AxSource::Chromium),
            other => Err(format!(
                "unknown accessibility source '{other}': use walker (cup's page walker, the default) or chromium (Chromium's getFullAXTree)"
            )),
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            AxSource::Walker => "walker",
            AxSource::Chromium => "chromium",
        }
    }
}

/// What identifies a node within its frame target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeKey {
    /// A DOM node's `backendNodeId` (the Chromium source).
    Backend(i64),
    /// A walker id in cup's world of a frame (the walker source).
    Walker {
        /// The frame id.
        frame: String,
        /// The walker's stable id.
        id: i64,
    },
}

/// The native reference of a node: page target, frame target, node key
/// (`PAGE/TARGET/123` or `PAGE/TARGET/FRAME:45`).
pub fn node_ref(page: &str, frame_target: &str, key: &NodeKey) -> String {
    match key {
        NodeKey::Backend(b) => format!("{page}/{frame_target}/{b}"),
        NodeKey::Walker { frame, id } => format!("{page}/{frame_target}/{frame}:{id}"),
    }
}

/// Splits a reference made by [`node_ref`].
pub fn parse_ref(r: &str) -> Option<(&str, &str, NodeKey)> {
    let mut parts = r.rsplitn(3, '/');
    let last = parts.next()?;
    let key = match last.rsplit_once(':') {
        Some((frame, id)) if !frame.is_empty() => NodeKey::Walker {
            frame: frame.to_owned(),
            id: id.parse().ok()?,
        },
        Some(_) => return None,
        None => NodeKey::Backend(last.parse().ok()?),
    };
    let frame = parts.next()?;
    let page = parts.next()?;
    Some((page, frame, key))
}

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

/// The viewport of `page`.
///
/// # Errors
///
/// When the page does not answer.
pub async fn viewport(browser: &Browser, page: &str) -> Result<Viewport, CdpError> {
    // innerWidth/innerHeight: the whole viewport, scroll bars included, as
    // screenshots show it.
    let v = browser
        .evaluate(
            page,
            "({w: window.innerWidth, h: window.innerHeight, dpr: window.devicePixelRatio || 1})",
        )
        .await?;
    let n = |k: &str, d: f64| v.get(k).and_then(Value::as_f64).unwrap_or(d);
    Ok(Viewport {
        width: n("w", 0.0),
        height: n("h", 0.0),
        dpr: n("dpr", 1.0),
    })
}

/// Child frame ids of `tree` (`Page.getFrameTree`'s `frameTree`), with
/// their parents, depth first.
fn child_frames(tree: &Value, out: &mut Vec<(String, String)>) {
    let parent = tree
        .get("frame")
        .and_then(|f| f.get("id"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    for child in tree
        .get("childFrames")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
    {
        if let Some(id) = child
            .get("frame")
            .and_then(|f| f.get("id"))
            .and_then(Value::as_str)
        {
            out.push((id.to_owned(), parent.clone()));
        }
        child_frames(child, out);
    }
}

/// The backend id of the element that holds frame `frame` (an iframe of
/// a document of `holder`'s session).
async fn frame_owner(browser: &Browser, holder: &str, frame: &str) -> Result<i64, CdpError> {
    browser
        .call(holder, "DOM.getFrameOwner", json!({"frameId": frame}))
        .await?
        .get("backendNodeId")
        .and_then(Value::as_i64)
        .ok_or_else(|| CdpError::Protocol {
            method: "DOM.getFrameOwner".into(),
            code: 0,
            message: "no backendNodeId".into(),
        })
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

/// Reads page `page` (its main frame and every iframe) and builds its tree;
/// with `record`, the tree also carries the facts it was built from.
///
/// # Errors
///
/// When the page itself cannot be read; an iframe that cannot be read is
/// a note instead.
pub async fn capture_page(
    browser: &Browser,
    page: &str,
    source: AxSource,
    incremental: bool,
    max_depth: usize,
    max_nodes: usize,
    record: bool,
) -> Result<(PageTree, Viewport), CdpError> {
    match source {
        AxSource::Walker => {
            capture_walked(
                browser,
                page,
                incremental && !record,
                max_depth,
                max_nodes,
                record,
            )
            .await
        }
        AxSource::Chromium => capture_chromium(browser, page, max_depth, max_nodes, record).await,
    }
}

/// The viewport and WebMCP tools of `probe` (the answer to [`PAGE_PROBE`]).
fn read_probe(probe: &Value) -> (Viewport, Vec<WebMcpTool>) {
    let n = |k: &str, d: f64| probe.get(k).and_then(Value::as_f64).unwrap_or(d);
    let view = Viewport {
        width: n("w", 0.0),
        height: n("h", 0.0),
        dpr: n("dpr", 1.0),
    };
    let tools = probe
        .get("tools")
        .and_then(Value::as_array)
        .map(|t| {
            t.iter()
                .filter_map(|t| serde_json::from_value::<WebMcpTool>(strip_nulls(t)).ok())
                .collect()
        })
        .unwrap_or_default();
    (view, tools)
}

/// The walker source: every frame walked in cup's isolated world.
async fn capture_walked(
    browser: &Browser,
    page: &str,
    incremental: bool,
    max_depth: usize,
    max_nodes: usize,
    record: bool,
) -> Result<(PageTree, Viewport), CdpError> {
    let t0 = std::time::Instant::now();
    // A page target's id is its main frame's id.
    let ((main, main_raw), probe) = tokio::try_join!(
        world::read(browser, page, page, !incremental),
        browser.evaluate(page, PAGE_PROBE)
    )?;
    tracing::debug!(
        ms = t0.elapsed().as_secs_f64() * 1e3,
        nodes = main.nodes.len(),
        "page walked"
    );
    let (view, tools) = read_probe(&probe);
    let has_frames = main
        .nodes
        .iter()
        .any(|n| n.flags & walker::flag::FRAME != 0);
    let mut frames = vec![FrameWalk {
        target: page.to_owned(),
        frame: page.to_owned(),
        owner: None,
        walk: Some(main),
    }];
    let mut raws = vec![main_raw];
    let mut notes = Vec::new();
    if has_frames {
        walk_frames(
            browser,
            page,
            !incremental,
            &mut frames,
            &mut raws,
            &mut notes,
        )
        .await;
    }
    let (root, cut) = walker::build_walks(page, view, &frames, max_depth, max_nodes);
    tracing::debug!(ms = t0.elapsed().as_secs_f64() * 1e3, "tree built");
    let facts = record.then(|| {
        let frames = frames
            .iter()
            .zip(raws)
            .filter_map(|(f, raw)| {
                Some(WalkFrame {
                    target: f.target.clone(),
                    frame: f.frame.clone(),
                    owner: f.owner,
                    walk: raw?,
                })
            })
            .collect();
        Box::new(PageFacts {
            page: page.to_owned(),
            viewport: Some(view),
            walker: Some(WalkPage {
                page: page.to_owned(),
                viewport: Some(view),
                frames,
            }),
            ..PageFacts::default()
        })
    });
    Ok((
        PageTree {
            root,
            tools,
            notes,
            cut,
            facts,
        },
        view,
    ))
}

/// Walks the iframes of `page` (whose main frame is `frames[0]`):
/// same-process ones through the page's session, out-of-process ones
/// through their own target's; each hung under its owner element (an
/// owner the walk did not expose, such as a hidden iframe, is skipped).
async fn walk_frames(
    browser: &Browser,
    page: &str,
    whole: bool,
    frames: &mut Vec<FrameWalk>,
    raws: &mut Vec<Option<walker::RawWalk>>,
    notes: &mut Vec<String>,
) {
    let (tree, targets) = tokio::join!(
        browser.call(page, "Page.getFrameTree", json!({})),
        browser.targets()
    );
    let mut children = Vec::new();
    if let Some(tree) = tree.as_ref().ok().and_then(|t| t.get("frameTree")) {
        child_frames(tree, &mut children);
    }
    let iframe_targets: HashSet<String> = targets
        .map(|ts| {
            ts.into_iter()
                .filter(|t| t.kind == "iframe")
                .map(|t| t.id)
                .collect()
        })
        .unwrap_or_default();
    let in_tree: HashSet<String> = children.iter().map(|(f, _)| f.clone()).collect();
    let mut foreign: HashSet<String> = HashSet::new();
    for t in &iframe_targets {
        if !in_tree.contains(t) {
            children.push((t.clone(), page.to_owned()));
            foreign.insert(t.clone());
        }
    }
    // The main frame's id as the frame tree says (it is the page's id).
    let main_id = tree
        .as_ref()
        .ok()
        .and_then(|t| t.get("frameTree")?.get("frame")?.get("id")?.as_str())
        .unwrap_or(page)
        .to_owned();
    let mut index: HashMap<String, usize> = HashMap::new();
    index.insert(main_id, 0);
    index.insert(page.to_owned(), 0);
    for (frame, parent) in children {
        let Some(&p) = index.get(&parent) else {
            continue; // its parent was not walked (hidden, or not read)
        };
        let parent_holder = frames[p].target.clone();
        let parent_frame = frames[p].frame.clone();
        let own = if iframe_targets.contains(&frame) {
            frame.clone()
        } else {
            parent_holder.clone()
        };
        let read = async {
            let backend = frame_owner(browser, &parent_holder, &frame).await?;
            let id = world::id_of(browser, &parent_holder, &parent_frame, backend).await?;
            if id == 0 {
                return Ok(None);
            }
            let (walk, raw) = world::read(browser, &own, &frame, whole).await?;
            Ok::<_, CdpError>(Some((
                FrameWalk {
                    target: own.clone(),
                    frame: frame.clone(),
                    owner: Some((p, id)),
                    walk: Some(walk),
                },
                raw,
            )))
        };
        match read.await {
            Ok(Some((f, raw))) => {
                index.insert(frame.clone(), frames.len());
                frames.push(f);
                raws.push(raw);
            }
            Ok(None) => {}
            // An iframe target of another page has no owner here.
            Err(_) if foreign.contains(&frame) => {}
            Err(e) => notes.push(format!("iframe {frame} was not read: {e}")),
        }
    }
}

/// The Chromium source: `getFullAXTree` joined with the layout snapshot.
async fn capture_chromium(
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
    let mut notes = Vec::new();

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
        },
        view,
    ))
}

/// The tree of a page from its frames: the main frame's, with each
/// iframe's document under its owner element. Returns the root and how
/// many nodes the limits left out.
fn build_tree(
    page: &str,
    view: Viewport,
    main: &Frame,
    frames_by_owner: &HashMap<(String, i64), Frame>,
    max_depth: usize,
    max_nodes: usize,
) -> (Option<Node>, usize) {
    let mut builder = Builder {
        page,
        view,
        frames_by_owner,
        max_depth,
        max_nodes,
        count: 0,
        cut: 0,
    };
    let mut root = builder.frame_root(main, 0);
    if let Some(r) = root.as_mut() {
        if r.role == cup_protocol::Role::Document && r.bounds.is_none() {
            r.bounds = Some(view.rect());
        }
    }
    (root, builder.cut)
}

fn frame_facts(f: &Frame, owner: Option<(String, i64)>) -> FrameFacts {
    FrameFacts {
        target: f.target.clone(),
        layout: f.layout_key.clone(),
        owner,
        origin: f.origin,
        ax: f.ax.clone(),
    }
}

/// The facts of a capture, copied out of its frames (only when asked).
fn page_facts(
    page: &str,
    view: Viewport,
    main: &Frame,
    frames_by_owner: &HashMap<(String, i64), Frame>,
) -> PageFacts {
    let mut facts = PageFacts {
        page: page.to_owned(),
        viewport: Some(view),
        ..PageFacts::default()
    };
    facts.frames.push(frame_facts(main, None));
    let mut owned: Vec<_> = frames_by_owner.iter().collect();
    owned.sort_by(|a, b| a.0.cmp(b.0));
    for (owner, f) in owned {
        facts.frames.push(frame_facts(f, Some(owner.clone())));
    }
    for f in std::iter::once(main).chain(frames_by_owner.values()) {
        facts
            .layouts
            .entry(f.layout_key.clone())
            .or_insert_with(|| (*f.layout).clone());
    }
    facts
}

/// Why recorded facts cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// No frame, or the first is not the main frame.
    #[error("the page facts have no main frame (the first frame must have no owner)")]
    NoMainFrame,
    /// A frame names a layout the facts do not hold.
    #[error("frame of target {target} names layout {layout}, which the facts do not hold")]
    NoLayout {
        /// The frame's target.
        target: String,
        /// The missing key.
        layout: String,
    },
}

/// Builds the tree of a recorded page capture again, exactly as the
/// capture did (same join, same limits, same boxes).
///
/// # Errors
///
/// When the facts are inconsistent (hand-edited or cut files).
pub fn replay(
    facts: &PageFacts,
    max_depth: usize,
    max_nodes: usize,
) -> Result<PageTree, ReplayError> {
    let layouts: HashMap<&str, Arc<Layout>> = facts
        .layouts
        .iter()
        .map(|(k, l)| (k.as_str(), Arc::new(l.clone())))
        .collect();
    let frame = |f: &FrameFacts| {
        let layout =
            layouts
                .get(f.layout.as_str())
                .cloned()
                .ok_or_else(|| ReplayError::NoLayout {
                    target: f.target.clone(),
                    layout: f.layout.clone(),
                })?;
        Ok(Frame {
            target: f.target.clone(),
            ax: f.ax.clone(),
            layout,
            layout_key: f.layout.clone(),
            origin: f.origin,
        })
    };
    if let Some(w) = &facts.walker {
        if w.frames.first().is_none_or(|f| f.owner.is_some()) {
            return Err(ReplayError::NoMainFrame);
        }
        let (root, cut, notes) = walker::build(w, max_depth, max_nodes);
        return Ok(PageTree {
            root,
            cut,
            notes,
            ..PageTree::default()
        });
    }
    let (main, rest) = facts.frames.split_first().ok_or(ReplayError::NoMainFrame)?;
    if main.owner.is_some() {
        return Err(ReplayError::NoMainFrame);
    }
    let main = frame(main)?;
    let mut frames_by_owner = HashMap::new();
    for f in rest {
        if let Some(owner) = &f.owner {
            frames_by_owner.insert(owner.clone(), frame(f)?);
        }
    }
    let view = facts.viewport.unwrap_or(Viewport {
        width: 0.0,
        height: 0.0,
        dpr: 1.0,
    });
    let (mut root, cut) = build_tree(
        &facts.page,
        view,
        &main,
        &frames_by_owner,
        max_depth,
        max_nodes,
    );
    if let Some(root) = root.as_mut() {
        let boxes: HashMap<String, Rect> =
            facts.boxes.iter().map(|(k, r)| (k.clone(), *r)).collect();
        apply_boxes(root, &boxes, view);
    }
    Ok(PageTree {
        root,
        cut,
        ..PageTree::default()
    })
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

/// Gives the nodes without bounds their box from `boxes`, offscreen when
/// it is out of the viewport.
fn apply_boxes(root: &mut Node, boxes: &HashMap<String, Rect>, view: Viewport) {
    if boxes.is_empty() {
        return;
    }
    let viewport = view.rect();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.bounds.is_none() {
            if let Some(r) = boxes.get(&n.id) {
                n.bounds = Some(*r);
                if r.intersect(&viewport).is_empty() && !n.states.contains(&State::Offscreen) {
                    n.states.push(State::Offscreen);
                    n.states.sort_by_key(|s| s.name());
                }
            }
        }
        stack.extend(n.children.iter_mut());
    }
}

fn strip_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect::<Map<String, Value>>(),
        ),
        other => other.clone(),
    }
}

struct Builder<'a> {
    page: &'a str,
    view: Viewport,
    frames_by_owner: &'a HashMap<(String, i64), Frame>,
    max_depth: usize,
    max_nodes: usize,
    count: usize,
    cut: usize,
}

impl Builder<'_> {
    fn frame_root(&mut self, frame: &Frame, depth: usize) -> Option<Node> {
        let by_id: HashMap<&str, &AxNode> = frame.ax.iter().map(|n| (n.id.as_str(), n)).collect();
        let children: HashSet<&str> = frame
            .ax
            .iter()
            .flat_map(|n| n.child_ids.iter().map(String::as_str))
            .collect();
        let root = frame
            .ax
            .iter()
            .find(|n| !children.contains(n.id.as_str()))?;
        let mut out = self.build(frame, &by_id, root, depth);
        match out.len() {
            0 => None,
            1 => out.pop(),
            _ => {
                let mut doc = Node::new("", cup_protocol::Role::Document, "");
                doc.children = out;
                Some(doc)
            }
        }
    }

    fn screen_rect(&self, frame: &Frame, b: CssRect) -> Rect {
        let d = self.view.dpr;
        let x = ((frame.origin.0 + b.x) * d).round();
        let y = ((frame.origin.1 + b.y) * d).round();
        Rect::new(
            x as i64,
            y as i64,
            (b.w * d).round().max(0.0) as u64,
            (b.h * d).round().max(0.0) as u64,
        )
    }

    /// The CUP nodes for `ax`: itself, or its children when it is skipped.
    fn build(
        &mut self,
        frame: &Frame,
        by_id: &HashMap<&str, &AxNode>,
        ax: &AxNode,
        depth: usize,
    ) -> Vec<Node> {
        let dom = ax.backend_id.and_then(|b| frame.layout.nodes.get(&b));
        let info = dom.map(|d| DomInfo {
            tag: &d.tag,
            attrs: &d.attrs,
            bounds: d.bounds.map(|b| self.screen_rect(frame, b)),
            scrollable: d.scrollable,
        });
        let mapped = mapping::map(ax, info.as_ref());
        let child_depth = if mapped.is_some() { depth + 1 } else { depth };
        let mut kids = Vec::new();
        // A text field's inner editor and text repeat its value.
        let text_field = dom.is_some_and(|d| {
            d.tag == "textarea"
                || (d.tag == "input"
                    && !d.attrs.iter().any(|(k, v)| {
                        k == "type"
                            && matches!(
                                v.to_ascii_lowercase().as_str(),
                                "date" | "datetime-local" | "time" | "month" | "week"
                            )
                    }))
        });
        if text_field && mapped.is_some() {
            // Nothing below it.
        } else if child_depth <= self.max_depth {
            for id in &ax.child_ids {
                if let Some(child) = by_id.get(id.as_str()) {
                    kids.extend(self.build(frame, by_id, child, child_depth));
                }
            }
            // An iframe's document hangs under its owner element.
            if let Some(b) = ax.backend_id {
                if let Some(sub) = self.frames_by_owner.get(&(frame.target.clone(), b)) {
                    if let Some(doc) = self.frame_root(sub, child_depth) {
                        kids.push(doc);
                    }
                }
            }
        } else {
            self.cut += ax.child_ids.len();
        }
        let Some(mut node) = mapped else {
            return kids;
        };
        if self.count >= self.max_nodes {
            self.cut += 1 + kids.iter().map(Node::subtree_len).sum::<usize>();
            return Vec::new();
        }
        self.count += 1;
        if let Some(b) = node.bounds {
            if b.intersect(&self.view.rect()).is_empty() {
                node.states.push(State::Offscreen);
                node.states.sort_by_key(|s| s.name());
            }
        }
        node.id = ax
            .backend_id
            .map(|b| node_ref(self.page, &frame.target, &NodeKey::Backend(b)))
            .unwrap_or_default();
        node.children = kids;
        vec![node]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_round_trip() {
        let r = node_ref("PAGE1", "FRAME1", &NodeKey::Backend(42));
        assert_eq!(
            parse_ref(&r),
            Some(("PAGE1", "FRAME1", NodeKey::Backend(42)))
        );
        let key = NodeKey::Walker {
            frame: "F2".into(),
            id: 7,
        };
        let r = node_ref("PAGE1", "FRAME1", &key);
        assert_eq!(r, "PAGE1/FRAME1/F2:7");
        assert_eq!(parse_ref(&r), Some(("PAGE1", "FRAME1", key)));
        assert_eq!(parse_ref("nonsense"), None);
        assert_eq!(parse_ref("P/F/:3"), None);
        assert_eq!(parse_ref("P/F/x:y"), None);
    }

    #[test]
    fn frames_of_a_frame_tree() {
        let tree = json!({"frame": {"id": "A"}, "childFrames": [
            {"frame": {"id": "B"}, "childFrames": [{"frame": {"id": "C"}}]},
            {"frame": {"id": "D"}}
        ]});
        let mut out = Vec::new();
        child_frames(&tree, &mut out);
        assert_eq!(
            out,
            vec![
                ("B".to_owned(), "A".to_owned()),
                ("C".to_owned(), "B".to_owned()),
                ("D".to_owned(), "A".to_owned())
            ]
        );
    }
}
