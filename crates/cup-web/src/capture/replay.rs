//! Replay: the tree of a recorded page capture ([`PageFacts`]) built
//! again without a browser, by the same join and limits as the capture.

use std::collections::HashMap;
use std::sync::Arc;

use cup_protocol::Rect;

use super::join::{apply_boxes, build_tree, Frame};
use super::{FrameFacts, PageFacts, PageTree, Viewport};
use crate::layout::Layout;
use crate::walker;

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
