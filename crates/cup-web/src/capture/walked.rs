//! The walker source of a capture: the page's main frame walked by cup's
//! walker in its isolated world, then every iframe (same-process ones
//! through the page's session, out-of-process ones through their own
//! target's), the tree built by [`crate::walker`].

use std::collections::{HashMap, HashSet};

use serde_json::json;

use super::{child_frames, frame_owner, read_probe, PageFacts, PageTree, Viewport, PAGE_PROBE};
use crate::browser::Browser;
use crate::cdp::CdpError;
use crate::walker::{self, world, FrameWalk, WalkFrame, WalkPage};

/// The walker source: every frame walked in cup's isolated world.
pub(super) async fn capture_walked(
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
    let mut notes: Vec<String> = super::loading_note(&probe).into_iter().collect();
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
    // An unchanged page (every frame's walk at the revision the last tree
    // was built from, the same viewport and limits) reuses that tree.
    let key = world::BuildKey {
        frames: frames
            .iter()
            .map(|f| {
                let rev = f.walk.as_ref().map(|w| w.rev);
                (f.target.clone(), f.frame.clone(), f.owner, rev)
            })
            .collect(),
        view: (view.width, view.height, view.dpr),
        limits: (max_depth, max_nodes),
    };
    let worlds = browser.worlds();
    // A page changed by patches alone (states and values) has the rows
    // they changed mapped again into that tree.
    let held = if incremental {
        worlds
            .built(page, &key)
            .or_else(|| worlds.patch_built(page, &key, &frames, view))
    } else {
        None
    };
    let (root, cut, revision) = match held {
        Some((root, cut, generation)) => (root, cut, Some(generation)),
        None => {
            let (root, cut) = walker::build_walks(page, view, &frames, max_depth, max_nodes);
            let revision = incremental.then(|| worlds.keep_built(page, key, root.clone(), cut));
            (root, cut, revision)
        }
    };
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
            revision,
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
