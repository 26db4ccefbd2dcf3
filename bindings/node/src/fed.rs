//! The adapter behind a session whose platform is written in JavaScript
//! (`Session.create({ adapter })`): the TypeScript layer asks the
//! JavaScript adapter for the screen, the windows and the trees a snapshot
//! needs and hands them over with the snapshot call; cup's own Session
//! then numbers the ids, builds and checks the envelope, prunes, writes
//! the compact text, and later searches and pages, exactly as for its own
//! platforms. Actions go back to the JavaScript adapter (by the native
//! reference of the id), in the TypeScript layer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use cup::{Adapter, AdapterError, Capture, CaptureLimits, Monitor, ScreenInfo, WindowHandle};
use cup_protocol::{Node, PlatformId, Rect, WindowInfo};
use serde::Deserialize;

/// What the JavaScript adapter gave for one snapshot.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Feed {
    /// Screen width, height (pixels) and scale.
    pub screen: (i64, i64, f64),
    /// Every top-level window (`getWindowList`).
    #[serde(default)]
    pub windows: Vec<WindowInfo>,
    /// The desktop surface's window, when the scope asked and there is one.
    #[serde(default)]
    pub desktop: Option<WindowInfo>,
    /// The captured trees (`captureTree`) with cup's ids, and each id's
    /// native reference (the adapter's own id): see [`Feed::parse`].
    #[serde(skip)]
    pub tree: Vec<Node>,
    /// The native references of [`Feed::tree`]'s ids.
    #[serde(skip)]
    pub refs: HashMap<String, String>,
}

impl Feed {
    /// The facts from their JSON: the tree's nodes must be CUP nodes but
    /// for their ids, which are the adapter's own (any string): cup's ids
    /// (`e0`… in pre-order across the trees) replace them.
    pub fn parse(json: &str) -> Result<Feed, String> {
        #[derive(Deserialize)]
        struct Raw {
            #[serde(flatten)]
            feed: Feed,
            #[serde(default)]
            tree: Vec<serde_json::Value>,
        }
        let raw: Raw = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let mut tree = raw.tree;
        let mut refs = HashMap::new();
        let mut next = 0;
        renumber(&mut tree, &mut next, &mut refs);
        let tree: Vec<Node> = serde_json::from_value(serde_json::Value::Array(tree))
            .map_err(|e| format!("the tree: {e}"))?;
        Ok(Feed {
            tree,
            refs,
            ..raw.feed
        })
    }
}

/// Gives the nodes cup's ids (`e0`… in pre-order), each old id (a string,
/// or the JSON of whatever it was) kept as the new id's reference.
fn renumber(nodes: &mut [serde_json::Value], next: &mut usize, refs: &mut HashMap<String, String>) {
    for n in nodes {
        let Some(obj) = n.as_object_mut() else {
            continue;
        };
        let id = format!("e{next}");
        *next += 1;
        let old = match obj.insert("id".into(), serde_json::Value::String(id.clone())) {
            Some(serde_json::Value::String(s)) => s,
            Some(other) => other.to_string(),
            None => String::new(),
        };
        refs.insert(id, old);
        if let Some(serde_json::Value::Array(kids)) = obj.get_mut("children") {
            renumber(kids, next, refs);
        }
    }
}

/// A platform whose facts come from JavaScript, one snapshot at a time
/// (clones share the facts: one is the session's, one the feeder's).
#[derive(Debug, Clone)]
pub struct FedAdapter {
    platform: PlatformId,
    feed: Arc<Mutex<Feed>>,
}

impl FedAdapter {
    /// An adapter for `platform` (a CUP platform name).
    pub fn new(platform: PlatformId) -> Self {
        FedAdapter {
            platform,
            feed: Arc::new(Mutex::new(Feed::default())),
        }
    }

    /// The facts of the next snapshot.
    pub fn set(&self, feed: Feed) {
        *self.feed.lock().unwrap_or_else(PoisonError::into_inner) = feed;
    }

    fn get(&self) -> Feed {
        self.feed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

fn handle(i: usize, info: WindowInfo) -> WindowHandle {
    WindowHandle {
        info,
        native: format!("w{i}"),
    }
}

#[async_trait]
impl Adapter for FedAdapter {
    fn platform(&self) -> PlatformId {
        self.platform
    }

    async fn screen(&self) -> Result<ScreenInfo, AdapterError> {
        let (w, h, scale) = self.get().screen;
        let rect = Rect::new(
            0,
            0,
            u64::try_from(w).unwrap_or(0),
            u64::try_from(h).unwrap_or(0),
        );
        Ok(ScreenInfo {
            width: w,
            height: h,
            scale,
            monitors: vec![Monitor {
                name: "screen".into(),
                rect,
                primary: true,
                scale,
            }],
        })
    }

    async fn windows(&self) -> Result<Vec<WindowHandle>, AdapterError> {
        Ok(self
            .get()
            .windows
            .into_iter()
            .enumerate()
            .map(|(i, w)| handle(i, w))
            .collect())
    }

    async fn desktop(&self) -> Result<Option<WindowHandle>, AdapterError> {
        Ok(self.get().desktop.map(|w| handle(usize::MAX, w)))
    }

    /// The trees the JavaScript adapter captured for this snapshot (it
    /// was asked for the same windows), cut to the limits' depth and node
    /// count.
    async fn capture(
        &self,
        _windows: &[WindowHandle],
        limits: &CaptureLimits,
    ) -> Result<Capture, AdapterError> {
        let feed = self.get();
        let (mut tree, mut refs) = (feed.tree, feed.refs);
        let mut kept = 0;
        let mut cut = 0;
        fn limit(
            nodes: &mut Vec<Node>,
            depth: usize,
            max_depth: usize,
            max_nodes: usize,
            kept: &mut usize,
            cut: &mut usize,
        ) {
            nodes.retain_mut(|n| {
                if *kept >= max_nodes {
                    *cut += 1;
                    return false;
                }
                *kept += 1;
                if depth >= max_depth {
                    *cut += usize::from(!n.children.is_empty());
                    n.children.clear();
                } else {
                    limit(&mut n.children, depth + 1, max_depth, max_nodes, kept, cut);
                }
                true
            });
        }
        limit(
            &mut tree,
            0,
            limits.max_depth,
            limits.max_nodes,
            &mut kept,
            &mut cut,
        );
        let mut live = std::collections::HashSet::new();
        fn ids(nodes: &[Node], out: &mut std::collections::HashSet<String>) {
            for n in nodes {
                out.insert(n.id.clone());
                ids(&n.children, out);
            }
        }
        ids(&tree, &mut live);
        refs.retain(|id, _| live.contains(id));
        Ok(Capture {
            tree,
            refs,
            partial: (cut > 0).then(|| cup::Partial {
                reason: format!(
                    "the tree was cut at depth {} or {} nodes",
                    limits.max_depth, limits.max_nodes
                ),
                missing: cut,
            }),
            ..Capture::default()
        })
    }
}
