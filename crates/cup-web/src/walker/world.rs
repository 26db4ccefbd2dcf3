//! Runs the walker: one isolated world per frame (`Page.createIsolatedWorld`,
//! made on first use and again after the frame navigated), the walker
//! installed there once, then one `Runtime.evaluate` per read that answers
//! one JSON string. Also resolves a walker id back to its element for
//! actions.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{json, Value};

use super::{Answer, RawWalk, Walk, SCRIPT};
use crate::browser::Browser;
use crate::cdp::{context_gone, exception_text, CdpError};

/// The name of cup's isolated world in every frame.
const WORLD: &str = "cup";

type Key = (String, String);

/// Isolated worlds made so far: (target, frame) → execution context id,
/// and the last walk of each (with the patches since applied).
#[derive(Debug, Default)]
pub struct Worlds {
    contexts: Mutex<HashMap<Key, i64>>,
    walks: Mutex<HashMap<Key, Arc<Walk>>>,
    built: Mutex<HashMap<String, Built>>,
}

/// A frame of a [`BuildKey`]: target, frame, owner (parent frame and
/// element), the revision of its walk.
pub type FrameKey = (String, String, Option<(usize, i64)>, Option<u64>);

/// What a page's tree was built from: its frames' walks (by revision),
/// where each hangs, the viewport and the limits. The same key builds the
/// same tree.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildKey {
    /// Per frame: target, frame, owner, walk revision.
    pub frames: Vec<FrameKey>,
    /// Viewport width, height and pixel ratio.
    pub view: (f64, f64, f64),
    /// Depth and node limits.
    pub limits: (usize, usize),
}

/// The last tree built for a page, and from what.
#[derive(Debug)]
struct Built {
    key: BuildKey,
    root: Option<cup_protocol::Node>,
    cut: usize,
    /// This build's number, unique in the process: equal numbers, equal
    /// trees (what a capture's revision says).
    generation: u64,
}

/// The next build's number.
static GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Worlds {
    /// The tree built last for `page`, when it was built from `key`, with
    /// its nodes left out and its build number.
    pub fn built(
        &self,
        page: &str,
        key: &BuildKey,
    ) -> Option<(Option<cup_protocol::Node>, usize, u64)> {
        let built = self.built.lock().unwrap_or_else(PoisonError::into_inner);
        built
            .get(page)
            .filter(|b| b.key == *key)
            .map(|b| (b.root.clone(), b.cut, b.generation))
    }

    /// The tree built last for `page` brought up to `key` by mapping again
    /// the rows that patches changed since (a click's checkbox, a typed
    /// value): a one-frame page whose walk changed by patches alone, the
    /// same viewport and limits, nothing left out by them, and every
    /// changed row mapped as before (an element still, or still not, with
    /// a walker id, not the document). The tree kept is patched in place
    /// and takes a new build number. `None` (nothing changed) otherwise:
    /// build the tree whole.
    pub fn patch_built(
        &self,
        page: &str,
        key: &BuildKey,
        frames: &[super::FrameWalk],
        view: crate::capture::Viewport,
    ) -> Option<(Option<cup_protocol::Node>, usize, u64)> {
        let [frame] = frames else { return None };
        let walk = frame.walk.as_deref()?;
        let mut built = self.built.lock().unwrap_or_else(PoisonError::into_inner);
        let b = built.get_mut(page)?;
        let ([old], [new]) = (b.key.frames.as_slice(), key.frames.as_slice()) else {
            return None;
        };
        if b.cut != 0
            || b.key.view != key.view
            || b.key.limits != key.limits
            || (&old.0, &old.1, old.2) != (&new.0, &new.1, new.2)
            || new.3 != Some(walk.rev)
        {
            return None;
        }
        let rows = walk.rows_since(old.3?)?;
        let root = b.root.as_mut()?;
        let mapper = super::tree::Rows {
            page,
            frames,
            view,
            viewport: view.rect(),
        };
        // Every replacement first: the kept tree changes only when all fit.
        let mut fresh = Vec::with_capacity(rows.len());
        for i in rows {
            let w = walk.nodes.get(i)?;
            if i == 0 || w.id <= 0 {
                return None;
            }
            let id = super::walker_ref(page, &frame.target, &frame.frame, w.id);
            let now = mapper.map_row(0, walk, i, (0.0, 0.0), 0);
            match (node_by_id(root, &id).is_some(), now) {
                (true, Some(n)) => fresh.push((id, n)),
                (false, None) => {}
                _ => return None,
            }
        }
        for (id, n) in fresh {
            let held = node_by_id(root, &id)?;
            let children = std::mem::take(&mut held.children);
            *held = n;
            held.children = children;
        }
        b.key = key.clone();
        b.generation = GENERATION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some((b.root.clone(), b.cut, b.generation))
    }

    /// Keeps the tree built for `page` from `key`; returns its build
    /// number.
    pub fn keep_built(
        &self,
        page: &str,
        key: BuildKey,
        root: Option<cup_protocol::Node>,
        cut: usize,
    ) -> u64 {
        let generation = GENERATION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.built
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(
                page.to_owned(),
                Built {
                    key,
                    root,
                    cut,
                    generation,
                },
            );
        generation
    }

    fn take_walk(&self, target: &str, frame: &str) -> Option<Arc<Walk>> {
        self.walks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(target.to_owned(), frame.to_owned()))
    }

    fn keep_walk(&self, target: &str, frame: &str, walk: Arc<Walk>) {
        self.walks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((target.to_owned(), frame.to_owned()), walk);
    }

    fn get(&self, target: &str, frame: &str) -> Option<i64> {
        self.contexts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(target.to_owned(), frame.to_owned()))
            .copied()
    }

    fn set(&self, target: &str, frame: &str, ctx: i64) {
        self.contexts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((target.to_owned(), frame.to_owned()), ctx);
    }

    fn forget(&self, target: &str, frame: &str) {
        self.contexts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(target.to_owned(), frame.to_owned()));
        self.take_walk(target, frame);
    }
}

/// The node of `root`'s tree whose id is `id`.
fn node_by_id<'a>(
    root: &'a mut cup_protocol::Node,
    id: &str,
) -> Option<&'a mut cup_protocol::Node> {
    if root.id == id {
        return Some(root);
    }
    root.children.iter_mut().find_map(|c| node_by_id(c, id))
}

fn protocol(method: &str, message: String) -> CdpError {
    CdpError::Protocol {
        method: method.into(),
        code: 0,
        message,
    }
}

/// Whether `e` says the world is gone (the frame navigated or closed), or
/// it has no walker (`__cupWalk is not defined`).
fn world_gone(e: &CdpError) -> bool {
    match e {
        CdpError::Protocol { message, .. } => {
            context_gone(message) || message.contains("__cupWalk is not defined")
        }
        _ => false,
    }
}

/// A new isolated world named `name` in `frame` (held by `target`'s
/// session): its execution context id. A page's main frame has the page's
/// target id; when `frame` is that id and the browser knows no such frame,
/// the frame tree's main frame is used.
///
/// # Errors
///
/// The browser's error.
pub(crate) async fn isolated_world(
    browser: &Browser,
    target: &str,
    frame: &str,
    name: &str,
) -> Result<i64, CdpError> {
    let make = |frame: String| async move {
        browser
            .call(
                target,
                "Page.createIsolatedWorld",
                json!({"frameId": frame, "worldName": name, "grantUniveralAccess": false}),
            )
            .await
    };
    let made = match make(frame.to_owned()).await {
        Err(CdpError::Protocol { .. }) if frame == target => {
            let tree = browser.call(target, "Page.getFrameTree", json!({})).await?;
            let main = tree
                .get("frameTree")
                .and_then(|t| t.get("frame"))
                .and_then(|f| f.get("id"))
                .and_then(Value::as_str)
                .ok_or_else(|| {
                    protocol(
                        "Page.getFrameTree",
                        "the page has no main frame yet; wait for it to load".into(),
                    )
                })?;
            make(main.to_owned()).await?
        }
        other => other?,
    };
    made.get("executionContextId")
        .and_then(Value::as_i64)
        .ok_or_else(|| {
            protocol(
                "Page.createIsolatedWorld",
                "no executionContextId in the answer".into(),
            )
        })
}

/// The context of cup's world in `frame` (held by `target`'s session),
/// made and given the walker when there is none yet.
async fn context(browser: &Browser, target: &str, frame: &str) -> Result<i64, CdpError> {
    if let Some(ctx) = browser.worlds().get(target, frame) {
        return Ok(ctx);
    }
    let ctx = isolated_world(browser, target, frame, WORLD).await?;
    let installed = browser
        .call(
            target,
            "Runtime.evaluate",
            json!({"expression": format!("globalThis.__cupWalk = {}; 0", SCRIPT.trim_end()),
                   "contextId": ctx, "returnByValue": true}),
        )
        .await?;
    if let Some(text) = exception_text(&installed) {
        return Err(protocol(
            "Runtime.evaluate",
            format!("the walker did not install: {text}"),
        ));
    }
    browser.worlds().set(target, frame, ctx);
    Ok(ctx)
}

/// Evaluates `expression` in cup's world of `frame`, making the world
/// again once when the frame navigated since.
async fn evaluate(
    browser: &Browser,
    target: &str,
    frame: &str,
    expression: &str,
    by_value: bool,
) -> Result<(i64, Value), CdpError> {
    let mut again = true;
    loop {
        let ctx = context(browser, target, frame).await?;
        let answer = browser
            .call(
                target,
                "Runtime.evaluate",
                json!({"expression": expression, "contextId": ctx, "returnByValue": by_value}),
            )
            .await
            .and_then(|r| match exception_text(&r) {
                Some(text) => Err(protocol("Runtime.evaluate", text)),
                None => Ok(r),
            });
        match answer {
            Err(e) if again && world_gone(&e) => {
                tracing::debug!(target, frame, error = %e, "cup's world is gone; making it again");
                browser.worlds().forget(target, frame);
                again = false;
            }
            Err(e) => return Err(e),
            Ok(r) => return Ok((ctx, r)),
        }
    }
}

/// Walks `frame` (held by `target`'s session); with `patch` (the
/// generation of the walk the caller holds) the walker may answer only
/// the rows changed since.
///
/// # Errors
///
/// The browser's error, or an answer that is not the walker's.
pub async fn walk(
    browser: &Browser,
    target: &str,
    frame: &str,
    patch: Option<u64>,
) -> Result<Answer, CdpError> {
    let expression = format!(
        "__cupWalk({{stringify: true, patch: {}}})",
        patch.unwrap_or(0)
    );
    let (_, r) = evaluate(browser, target, frame, &expression, true).await?;
    let text = r
        .get("result")
        .and_then(|r| r.get("value"))
        .and_then(Value::as_str)
        .ok_or_else(|| protocol("Runtime.evaluate", "the walker answered no text".into()))?;
    let answer = Answer::parse(text).map_err(|e| protocol("Runtime.evaluate", e.to_string()))?;
    let (kind, raw, ms) = match &answer {
        Answer::Whole(raw) => ("whole", Some(&**raw), raw.ms.as_ref()),
        Answer::Splice(s) => ("splice", Some(&s.walk), s.ms.as_ref()),
        Answer::Patch(p) => ("patch", None, p.ms.as_ref()),
    };
    tracing::debug!(
        target,
        frame,
        kind,
        why = raw.and_then(|r| r.why.as_deref()).unwrap_or(""),
        walker_ms = ms.and_then(|m| m.get("total")?.as_f64()),
        setup_ms = ms.and_then(|m| m.get("setup")?.as_f64()),
        walk_ms = ms.and_then(|m| m.get("walk")?.as_f64()),
        direct = raw.map_or(0, |r| r.direct),
        bytes = text.len(),
        "walker answered"
    );
    if let Some((n, first)) = raw.and_then(|r| Some((r.errors?, r.first_error.as_deref()?))) {
        tracing::warn!(
            target,
            frame,
            n,
            first,
            "the walker skipped subtrees it could not read (a bug in cup's walker: please report it with the page)"
        );
    }
    Ok(answer)
}

/// The current walk of `frame`: the last one patched when the walker says
/// only states changed since (mutation records, events and the focus tell
/// it), the last one with the changed subtrees walked again when nodes,
/// text or attributes changed, else a whole walk. With `whole` the walk is whole and its raw
/// answer is returned too (for `--native-dump`).
///
/// # Errors
///
/// The browser's error, or an answer that is not the walker's.
pub async fn read(
    browser: &Browser,
    target: &str,
    frame: &str,
    whole: bool,
) -> Result<(Arc<Walk>, Option<RawWalk>), CdpError> {
    let cached = if whole {
        None
    } else {
        browser.worlds().take_walk(target, frame)
    };
    let answer = walk(browser, target, frame, cached.as_ref().map(|w| w.gen)).await?;
    let raw = match answer {
        Answer::Patch(_) | Answer::Splice(_) => {
            if let Some(mut w) = cached {
                let held = Arc::make_mut(&mut w);
                let applied = match &answer {
                    Answer::Patch(p) => held.apply(p),
                    Answer::Splice(s) => held.splice(s),
                    Answer::Whole(_) => Ok(()),
                };
                match applied {
                    Ok(()) => {
                        browser.worlds().keep_walk(target, frame, Arc::clone(&w));
                        return Ok((w, None));
                    }
                    Err(e) => tracing::debug!(error = %e, "patch not applied; walking again"),
                }
            }
            match walk(browser, target, frame, None).await? {
                Answer::Whole(raw) => *raw,
                Answer::Patch(_) | Answer::Splice(_) => {
                    return Err(protocol(
                        "Runtime.evaluate",
                        "the walker answered a patch to a whole walk".into(),
                    ))
                }
            }
        }
        Answer::Whole(raw) => *raw,
    };
    let walk = Arc::new(
        raw.decode()
            .map_err(|e| protocol("Runtime.evaluate", e.to_string()))?,
    );
    browser.worlds().keep_walk(target, frame, Arc::clone(&walk));
    Ok((walk, whole.then_some(raw)))
}

/// The walker id of DOM node `backend` (of `frame`, held by `target`):
/// 0 when the last walk did not reach it.
///
/// # Errors
///
/// The browser's error (the node is gone).
pub async fn id_of(
    browser: &Browser,
    target: &str,
    frame: &str,
    backend: i64,
) -> Result<i64, CdpError> {
    let ctx = context(browser, target, frame).await?;
    let node = browser
        .call(
            target,
            "DOM.resolveNode",
            json!({"backendNodeId": backend, "executionContextId": ctx}),
        )
        .await?;
    let object = node
        .get("object")
        .and_then(|o| o.get("objectId"))
        .and_then(Value::as_str)
        .ok_or_else(|| protocol("DOM.resolveNode", "no objectId".into()))?;
    let r = browser
        .call(
            target,
            "Runtime.callFunctionOn",
            json!({"objectId": object, "returnByValue": true,
                   "functionDeclaration": "function() { var G = globalThis.__cupWalker; return (G && G.ids.get(this)) || 0; }"}),
        )
        .await?;
    Ok(r.get("result")
        .and_then(|r| r.get("value"))
        .and_then(Value::as_i64)
        .unwrap_or(0))
}

/// The backend DOM node id of the element of walker node `id` of `frame`
/// (held by `target`) that a snapshot showed as `node`. In a process that
/// has not walked the frame (a `cup action` after a `cup snapshot`), the
/// frame is walked once in a new world: a walk of the same page numbers
/// its nodes the same way, and the node of `id` must have `node`'s role
/// and name, else the page changed and the answer is `None`.
///
/// # Errors
///
/// The browser's error.
pub async fn find(
    browser: &Browser,
    target: &str,
    frame: &str,
    id: i64,
    node: &cup_protocol::Node,
) -> Result<Option<i64>, CdpError> {
    if browser.worlds().get(target, frame).is_none() {
        let (walk, _) = read(browser, target, frame, true).await?;
        let same = walk.nodes.iter().find(|n| n.id == id).is_some_and(|n| {
            let name = n.name.trim();
            let dom = crate::mapping::DomInfo {
                tag: &n.tag,
                ..crate::mapping::DomInfo::default()
            };
            name == node.name
                && crate::mapping::map(&n.ax_node(), Some(&dom))
                    .is_some_and(|m| m.role == node.role)
        });
        if !same {
            return Ok(None);
        }
    }
    backend_of(browser, target, frame, id).await
}

/// The backend DOM node id of walker node `id` of `frame` (held by
/// `target`), for actions; `None` when the element is no longer there
/// (the page changed or navigated since the snapshot).
///
/// # Errors
///
/// The browser's error.
pub async fn backend_of(
    browser: &Browser,
    target: &str,
    frame: &str,
    id: i64,
) -> Result<Option<i64>, CdpError> {
    let Some(_) = browser.worlds().get(target, frame) else {
        // No world: the frame was never walked in this connection, or it
        // navigated (a new world would not know the id).
        return Ok(None);
    };
    let found = evaluate(
        browser,
        target,
        frame,
        &format!("(globalThis.__cupWalker && __cupWalker.find({id})) || null"),
        false,
    )
    .await;
    let r = match found {
        Ok((_, r)) => r,
        Err(e) if world_gone(&e) => return Ok(None),
        Err(e) => return Err(e),
    };
    let Some(object) = r
        .get("result")
        .and_then(|r| r.get("objectId"))
        .and_then(Value::as_str)
    else {
        return Ok(None);
    };
    let described = browser
        .call(target, "DOM.describeNode", json!({"objectId": object}))
        .await?;
    let _ = browser
        .call(target, "Runtime.releaseObject", json!({"objectId": object}))
        .await;
    Ok(described
        .get("node")
        .and_then(|n| n.get("backendNodeId"))
        .and_then(Value::as_i64))
}

/// The backend DOM node id of every node of the last walk of `frame`, by
/// walker index (`None` for generated content): how a walk is joined
/// node for node with Chromium's own tree (the agreement test).
///
/// # Errors
///
/// The browser's error.
pub async fn backend_ids(
    browser: &Browser,
    target: &str,
    frame: &str,
) -> Result<Vec<Option<i64>>, CdpError> {
    let (_, r) = evaluate(
        browser,
        target,
        frame,
        "globalThis.__cupWalker.nodes",
        false,
    )
    .await?;
    let array = r
        .get("result")
        .and_then(|r| r.get("objectId"))
        .and_then(Value::as_str)
        .ok_or_else(|| protocol("Runtime.evaluate", "no walk to join".into()))?
        .to_owned();
    let props = browser
        .call(
            target,
            "Runtime.getProperties",
            json!({"objectId": array, "ownProperties": true}),
        )
        .await?;
    let mut objects: Vec<(usize, String)> = Vec::new();
    let mut len = 0;
    for p in props
        .get("result")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
    {
        let Some(i) = p
            .get("name")
            .and_then(Value::as_str)
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        len = len.max(i + 1);
        if let Some(o) = p
            .get("value")
            .and_then(|v| v.get("objectId"))
            .and_then(Value::as_str)
        {
            objects.push((i, o.to_owned()));
        }
    }
    let calls = objects
        .iter()
        .map(|(_, o)| browser.call(target, "DOM.describeNode", json!({"objectId": o})));
    let answers = futures::future::join_all(calls).await;
    let mut out = vec![None; len];
    for ((i, _), a) in objects.iter().zip(answers) {
        out[*i] = a
            .ok()
            .and_then(|d| d.get("node")?.get("backendNodeId")?.as_i64());
    }
    Ok(out)
}
