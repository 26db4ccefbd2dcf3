//! The walker's answers as it sends them: a whole walk in the compact
//! encoding ([`RawWalk`]), or the rows and subtrees changed since the walk
//! the reader holds ([`Patch`], [`Splice`]), told apart by [`Answer`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::WalkError;

/// The walker's answer for one frame, as it sends it (the compact
/// encoding): a string table, pre-order depths, and columns. This is also
/// the native fact `--native-dump` records for the walker path.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RawWalk {
    /// Format version.
    pub v: u32,
    /// Generation: the walker counts its answers (a patch names the one it
    /// changes).
    pub gen: u64,
    /// The frame's document URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// `[innerWidth, innerHeight, devicePixelRatio, scrollX, scrollY]`.
    pub viewport: Vec<f64>,
    /// Number of nodes.
    pub count: usize,
    /// String table (index 0 is the empty string).
    pub strings: Vec<String>,
    /// Pre-order depth of each node (its parent is the last node one
    /// level up).
    pub depth: Vec<u32>,
    /// Role (string index; Chromium's role names).
    pub role: Vec<u32>,
    /// Name (string index).
    pub name: Vec<u32>,
    /// State bits ([`super::flag`]).
    pub flags: Vec<u32>,
    /// Stable ids, as deltas from the previous node's (0: no DOM node).
    pub id: Vec<i64>,
    /// Border boxes: x, y, w, h per node in units of 1/`scale` CSS px,
    /// viewport-relative; w = h = -1: no box.
    pub bounds: Vec<i64>,
    /// Units of [`RawWalk::bounds`] per CSS px.
    pub scale: f64,
    /// Tag name (string index; 0 for text and generated content).
    pub tag: Vec<u32>,
    /// Sparse: node index, description string index, ...
    pub desc: Vec<u32>,
    /// Sparse: node index, value string index, ...
    pub value: Vec<u32>,
    /// Sparse: node index, level, ...
    pub level: Vec<u32>,
    /// The sparse extras.
    pub extra: Extra,
    /// Nodes the walker could not read (each skipped with its subtree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<u32>,
    /// The first of those errors.
    #[serde(rename = "firstError", skip_serializing_if = "Option::is_none")]
    pub first_error: Option<String>,
    /// Why an incremental read was answered with a whole walk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// What the walker read from every element's computed style instead of
    /// matching the page's selectors: bit 1 the sparingly read properties
    /// (display, visibility, position...), bit 2 `::before`/`::after`
    /// content. It does so when a sheet cannot be read, or when the sheets
    /// hold so many selectors that matching them costs more.
    #[serde(skip_serializing_if = "is_zero")]
    pub direct: u8,
    /// The walker's own time, ms (`setup`, `walk`, `total`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<Value>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Sparse columns of [`RawWalk`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Extra {
    /// node, placeholder string, ...
    pub placeholder: Vec<u32>,
    /// node, URL string (links, images, the document), ...
    pub url: Vec<u32>,
    /// node, minimum, ... (`null` when not a number)
    pub valuemin: Vec<Option<f64>>,
    /// node, maximum, ...
    pub valuemax: Vec<Option<f64>>,
    /// node, value text string, ...
    pub valuetext: Vec<u32>,
    /// iframe node, content left, content top (CSS px from its border
    /// box), ...
    pub frames: Vec<f64>,
    /// node, attribute name string, value string, ... (type, role,
    /// onclick and the ARIA properties read as they are)
    pub attrs: Vec<u32>,
}

/// The walker's answer when only states changed since the walk the reader
/// holds: the changed rows (state bits and value) of that walk.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Patch {
    /// The generation it changes.
    pub patch: u64,
    /// The generation it makes.
    pub gen: u64,
    /// Nodes of the walk (unchanged).
    pub count: usize,
    /// node index, state bits, value, ...
    pub rows: Vec<Value>,
    /// As [`RawWalk::viewport`].
    pub viewport: Vec<f64>,
    /// The walker's own time, ms (`total`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<Value>,
}

/// The walker's answer when nodes were added, removed or changed since the
/// walk the reader holds: the subtrees walked again, put in place of their
/// old rows one after the other, then the rows whose name, states or value
/// changed around them and every box (the layout may have moved anything).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Splice {
    /// The generation it changes.
    pub splice: u64,
    /// The generation it makes.
    pub gen: u64,
    /// Nodes of the walk it changes.
    pub base: usize,
    /// Nodes of the walk it makes.
    pub count: usize,
    /// Per subtree, in order: first row replaced, rows replaced, rows
    /// added, parent row (indices of the walk as the parts before left it).
    pub parts: Vec<i64>,
    /// The rows added, part after part (each part's top rows at depth 0).
    pub walk: RawWalk,
    /// node index, state bits, value, ... (indices of the new walk).
    pub rows: Vec<Value>,
    /// node index, name, description, ...
    pub names: Vec<Value>,
    /// Every node's box, as [`RawWalk::bounds`] (units of 1/`walk.scale`).
    pub bounds: Vec<i64>,
    /// As [`RawWalk::viewport`].
    pub viewport: Vec<f64>,
    /// The walker's own time, ms (`find`, `walk`, `around`, `boxes`,
    /// `total`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<Value>,
}

/// What the walker answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A whole walk.
    Whole(Box<RawWalk>),
    /// Rows changed since the walk the reader holds.
    Patch(Patch),
    /// Subtrees walked again since the walk the reader holds.
    Splice(Box<Splice>),
}

impl Answer {
    /// Reads the walker's JSON string.
    ///
    /// # Errors
    ///
    /// [`WalkError::Parse`] when it is not the walker's JSON.
    pub fn parse(text: &str) -> Result<Answer, WalkError> {
        // A patch is small and says so in its first keys.
        if text.starts_with("{\"v\":1,\"patch\"") {
            serde_json::from_str(text)
                .map(Answer::Patch)
                .map_err(|e| WalkError::Parse(e.to_string()))
        } else if text.starts_with("{\"v\":1,\"splice\"") {
            serde_json::from_str(text)
                .map(|s| Answer::Splice(Box::new(s)))
                .map_err(|e| WalkError::Parse(e.to_string()))
        } else {
            RawWalk::parse(text).map(|w| Answer::Whole(Box::new(w)))
        }
    }
}

impl RawWalk {
    /// Reads the walker's JSON string.
    ///
    /// # Errors
    ///
    /// [`WalkError::Parse`] when it is not the walker's JSON.
    pub fn parse(text: &str) -> Result<RawWalk, WalkError> {
        serde_json::from_str(text).map_err(|e| WalkError::Parse(e.to_string()))
    }
}
