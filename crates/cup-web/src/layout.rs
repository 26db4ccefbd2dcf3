//! `DOMSnapshot.captureSnapshot` read into what the join needs: for every
//! laid-out DOM node of every document, its tag, attributes, border box
//! (document coordinates, CSS pixels) and whether it scrolls; per document,
//! its frame and scroll offset.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A box in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct CssRect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// One DOM node of the snapshot.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DomNode {
    /// Lowercase tag (`#text` for text nodes).
    pub tag: String,
    /// Attributes, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attrs: Vec<(String, String)>,
    /// Border box in its document's coordinates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<CssRect>,
    /// Scrollable overflow larger than the client box.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub scrollable: bool,
    /// Overflow `auto`/`scroll` on an axis: it scrolls if its content is
    /// larger than its box (known from DOM rects, or asked the page).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub overflow: bool,
    /// Index of its document in [`Layout::documents`].
    pub document: usize,
}

/// One document (the page, or an iframe's).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Document {
    /// Its frame id.
    pub frame_id: String,
    /// Its URL.
    pub url: String,
    /// Scroll offset of its viewport.
    pub scroll_x: f64,
    /// Scroll offset of its viewport.
    pub scroll_y: f64,
}

/// The whole snapshot, keyed by backend node id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Layout {
    /// Every DOM node with a backend id.
    pub nodes: HashMap<i64, DomNode>,
    /// The documents.
    pub documents: Vec<Document>,
}

fn string_at(strings: &[String], v: Option<&Value>) -> String {
    v.and_then(Value::as_i64)
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| strings.get(i))
        .cloned()
        .unwrap_or_default()
}

fn rect(v: Option<&Value>) -> Option<CssRect> {
    let a = v?.as_array()?;
    let n = |i: usize| a.get(i).and_then(Value::as_f64);
    Some(CssRect {
        x: n(0)?,
        y: n(1)?,
        w: n(2)?,
        h: n(3)?,
    })
}

fn array<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

impl Layout {
    /// The `computedStyles` to ask `captureSnapshot` for.
    pub const STYLES: [&'static str; 2] = ["overflow-x", "overflow-y"];

    /// Reads a `captureSnapshot` result (with [`Layout::STYLES`]; with
    /// `includeDOMRects: true` the scroll containers are known here,
    /// otherwise [`DomNode::overflow`] marks the candidates).
    pub fn parse(result: &Value) -> Layout {
        let strings: Vec<String> = array(result, "strings")
            .iter()
            .map(|s| s.as_str().unwrap_or_default().to_owned())
            .collect();
        let mut layout = Layout::default();
        for (doc_index, doc) in array(result, "documents").iter().enumerate() {
            layout.documents.push(Document {
                frame_id: string_at(&strings, doc.get("frameId")),
                url: string_at(&strings, doc.get("documentURL")),
                scroll_x: doc
                    .get("scrollOffsetX")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0),
                scroll_y: doc
                    .get("scrollOffsetY")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0),
            });
            let Some(nodes) = doc.get("nodes") else {
                continue;
            };
            let backend = array(nodes, "backendNodeId");
            let names = array(nodes, "nodeName");
            let attributes = array(nodes, "attributes");
            let mut by_index: Vec<Option<i64>> = Vec::with_capacity(backend.len());
            for (i, b) in backend.iter().enumerate() {
                let Some(id) = b.as_i64() else {
                    by_index.push(None);
                    continue;
                };
                by_index.push(Some(id));
                let attrs = attributes
                    .get(i)
                    .and_then(Value::as_array)
                    .map(|pairs| {
                        pairs
                            .chunks(2)
                            .map(|kv| {
                                (
                                    string_at(&strings, kv.first()).to_ascii_lowercase(),
                                    string_at(&strings, kv.get(1)),
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                layout.nodes.insert(
                    id,
                    DomNode {
                        tag: string_at(&strings, names.get(i)).to_ascii_lowercase(),
                        attrs,
                        bounds: None,
                        scrollable: false,
                        overflow: false,
                        document: doc_index,
                    },
                );
            }
            let Some(lay) = doc.get("layout") else {
                continue;
            };
            let node_index = array(lay, "nodeIndex");
            let bounds = array(lay, "bounds");
            let scroll = array(lay, "scrollRects");
            let client = array(lay, "clientRects");
            let styles = array(lay, "styles");
            for (k, ni) in node_index.iter().enumerate() {
                let Some(id) = ni
                    .as_i64()
                    .and_then(|i| usize::try_from(i).ok())
                    .and_then(|i| by_index.get(i).copied().flatten())
                else {
                    continue;
                };
                let Some(node) = layout.nodes.get_mut(&id) else {
                    continue;
                };
                // A node may have several layout objects (text fragments);
                // the first is its box.
                if node.bounds.is_none() {
                    node.bounds = rect(bounds.get(k));
                }
                // Scrolls: overflow auto/scroll on an axis whose content is
                // larger than the client box (the page itself scrolls as
                // the viewport, not as an element).
                let style: Vec<String> = styles
                    .get(k)
                    .and_then(Value::as_array)
                    .map(|v| v.iter().map(|i| string_at(&strings, Some(i))).collect())
                    .unwrap_or_default();
                let scrolls = |axis: usize| {
                    style
                        .get(axis)
                        .is_some_and(|o| o == "auto" || o == "scroll" || o == "overlay")
                };
                node.overflow =
                    (scrolls(0) || scrolls(1)) && node.tag != "html" && node.tag != "body";
                if let (Some(s), Some(c)) = (rect(scroll.get(k)), rect(client.get(k))) {
                    let x = scrolls(0) && s.w > c.w + 1.0;
                    let y = scrolls(1) && s.h > c.h + 1.0;
                    if (x || y)
                        && c.w > 0.0
                        && c.h > 0.0
                        && node.tag != "html"
                        && node.tag != "body"
                    {
                        node.scrollable = true;
                    }
                }
            }
        }
        layout
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn nodes_documents_bounds_and_scrollers() {
        let result = json!({
            "strings": ["http://x/", "F1", "DIV", "class", "list", "INPUT", "type", "text", "#text", "hidden", "auto", "visible"],
            "documents": [{
                "documentURL": 0, "frameId": 1, "scrollOffsetX": 0, "scrollOffsetY": 120,
                "nodes": {
                    "backendNodeId": [10, 11, 12],
                    "nodeName": [2, 5, 8],
                    "attributes": [[3, 4], [6, 7], []]
                },
                "layout": {
                    "nodeIndex": [0, 1, 2, 2],
                    "bounds": [[0, 100, 300, 200], [5, 6, 70, 20], [1, 1, 1, 1], [2, 2, 2, 2]],
                    "scrollRects": [[0, 0, 300, 5000], [0, 0, 70, 20], [0,0,0,0], [0,0,0,0]],
                    "clientRects": [[0, 0, 285, 200], [0, 0, 60, 10], [0,0,0,0], [0,0,0,0]],
                    "styles": [[9, 10], [11, 11], [], []],
                    "text": []
                }
            }]
        });
        let layout = Layout::parse(&result);
        assert_eq!(layout.documents.len(), 1);
        assert_eq!(layout.documents[0].frame_id, "F1");
        assert_eq!(layout.documents[0].scroll_y, 120.0);
        let list = &layout.nodes[&10];
        assert_eq!(list.tag, "div");
        assert_eq!(list.attrs, vec![("class".to_owned(), "list".to_owned())]);
        assert!(list.scrollable);
        assert_eq!(
            list.bounds,
            Some(CssRect {
                x: 0.0,
                y: 100.0,
                w: 300.0,
                h: 200.0
            })
        );
        let input = &layout.nodes[&11];
        assert!(!input.scrollable);
        assert_eq!(input.attrs, vec![("type".to_owned(), "text".to_owned())]);
        assert_eq!(layout.nodes[&12].bounds.map(|b| b.x), Some(1.0));
    }
}
