//! Capture of one page, from either source ([`AxSource`]): cup's walker
//! (the default), or `Accessibility.getFullAXTree` of every frame joined
//! with `DOMSnapshot.captureSnapshot` on backend node ids, so every laid-out
//! node has bounds. Same-process iframes come from the page's own session,
//! out-of-process ones from their iframe target's; each frame's boxes are
//! moved by its owner element's content box. Bounds are viewport-relative,
//! in CSS pixels times the device pixel ratio (screen pixels).
//!
//! This module holds what a capture is (its types, node references, the
//! page probe) and chooses the source; the rest is in its submodules:
//!
//! - `walked`: the walker source (every frame walked in cup's world);
//! - `chromium`: the Chromium source (`getFullAXTree` and `DOMSnapshot`
//!   read from the browser);
//! - `join`: the Chromium source's join of both into CUP nodes (pure);
//! - `replay`: a recorded capture built again without a browser.

mod chromium;
mod join;
mod replay;
mod walked;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use cup_protocol::envelope::WebMcpTool;
use cup_protocol::{Node, Rect};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::browser::Browser;
use crate::cdp::CdpError;
use crate::layout::Layout;
use crate::mapping::AxNode;
use crate::walker::WalkPage;
use chromium::capture_chromium;
use walked::capture_walked;

pub use replay::{replay, ReplayError};

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
  return {dpr: window.devicePixelRatio || 1, w: window.innerWidth, h: window.innerHeight, tools,
    ready: document.readyState, url: location.href};
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
    /// The number of the build this tree is (the same number: the same
    /// tree, reused for an unchanged page); None when not kept.
    pub revision: Option<u64>,
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
/// The snapshot's note when the probe found the page still loading
/// (`document.readyState` other than `complete`), with the URL it loads.
fn loading_note(probe: &Value) -> Option<String> {
    let ready = probe.get("ready")?.as_str()?;
    if ready == "complete" {
        return None;
    }
    let url = probe.get("url").and_then(Value::as_str).unwrap_or("?");
    Some(format!(
        "{} (document.readyState \"{ready}\", {url}): this may be half the page; wait(until=\"load\") waits for it",
        cup::page::LOADING_NOTE
    ))
}

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
