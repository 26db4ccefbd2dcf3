//! The CUP envelope: the top-level object of a capture.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::node::{Node, Rect};
use crate::vocab::UnknownWord;

/// Protocol version cup emits.
pub const CUP_VERSION: &str = "0.1.0";

/// A capture: screen, app, scope and the tree. Key order in JSON follows the
/// schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    /// Schema version (`major.minor.patch`).
    #[serde(deserialize_with = "crate::checked::version")]
    pub version: String,
    /// Source platform.
    pub platform: PlatformId,
    /// Unix epoch milliseconds of the capture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
    /// Screen the tree lies on.
    pub screen: Screen,
    /// Application the tree was captured from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<AppInfo>,
    /// Capture scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    /// Root nodes, usually one per window.
    pub tree: Vec<Node>,
    /// Open top-level windows (overview and foreground scopes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub windows: Option<Vec<WindowInfo>>,
    /// WebMCP tools exposed by a web page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<WebMcpTool>>,
}

impl Envelope {
    /// An envelope with the current version and no optional fields.
    pub fn new(platform: PlatformId, screen: Screen, tree: Vec<Node>) -> Self {
        Envelope {
            version: CUP_VERSION.to_owned(),
            platform,
            timestamp: None,
            screen,
            app: None,
            scope: None,
            tree,
            windows: None,
            tools: None,
        }
    }

    /// Total number of nodes in the tree.
    pub fn node_count(&self) -> usize {
        self.tree.iter().map(Node::subtree_len).sum()
    }

    /// Pre-order iterator over every node of every root.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.tree.iter().flat_map(Node::iter)
    }

    /// The node with this id, if any.
    pub fn find_node(&self, id: &str) -> Option<&Node> {
        self.nodes().find(|n| n.id == id)
    }
}

/// Platform that produced a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlatformId {
    /// Windows (UI Automation).
    Windows,
    /// macOS (AX).
    Macos,
    /// Linux (AT-SPI2).
    Linux,
    /// Web (Chrome DevTools Protocol).
    Web,
    /// Android.
    Android,
    /// iOS.
    Ios,
}

impl PlatformId {
    /// All platforms, in schema order.
    pub const ALL: [PlatformId; 6] = [
        PlatformId::Windows,
        PlatformId::Macos,
        PlatformId::Linux,
        PlatformId::Web,
        PlatformId::Android,
        PlatformId::Ios,
    ];

    /// Lowercase id, as in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            PlatformId::Windows => "windows",
            PlatformId::Macos => "macos",
            PlatformId::Linux => "linux",
            PlatformId::Web => "web",
            PlatformId::Android => "android",
            PlatformId::Ios => "ios",
        }
    }
}

impl fmt::Display for PlatformId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PlatformId {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PlatformId::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownWord {
                kind: "platform",
                value: s.to_owned(),
                expected: "windows, macos, linux, web, android, ios".to_owned(),
            })
    }
}

/// Capture scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Window list only, no tree walk.
    Overview,
    /// The foreground window.
    Foreground,
    /// The desktop surface.
    Desktop,
    /// Every window.
    Full,
}

impl Scope {
    /// Lowercase name.
    pub const fn name(self) -> &'static str {
        match self {
            Scope::Overview => "overview",
            Scope::Foreground => "foreground",
            Scope::Desktop => "desktop",
            Scope::Full => "full",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scope {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "overview" => Ok(Scope::Overview),
            "foreground" => Ok(Scope::Foreground),
            "desktop" => Ok(Scope::Desktop),
            "full" => Ok(Scope::Full),
            _ => Err(UnknownWord {
                kind: "scope",
                value: s.to_owned(),
                expected: "overview, foreground, desktop, full".to_owned(),
            }),
        }
    }
}

/// Screen size in physical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Screen {
    /// Width.
    pub w: i64,
    /// Height.
    pub h: i64,
    /// Display scale factor; omitted when 1.0.
    #[serde(default, skip_serializing_if = "scale_is_default")]
    pub scale: Option<f64>,
}

fn scale_is_default(scale: &Option<f64>) -> bool {
    !scale.is_some_and(|s| s.is_finite() && s != 1.0)
}

impl Screen {
    /// A screen of this size at scale 1.
    pub const fn new(w: i64, h: i64) -> Self {
        Screen { w, h, scale: None }
    }

    /// The screen as a rectangle at the origin.
    pub fn rect(&self) -> Rect {
        Rect::new(
            0,
            0,
            u64::try_from(self.w).unwrap_or(0),
            u64::try_from(self.h).unwrap_or(0),
        )
    }
}

/// Application the tree was captured from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AppInfo {
    /// Application name or window title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// OS process id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<i64>,
    /// Bundle id or package name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle_id: Option<String>,
}

/// One open top-level window (extra keys allowed by the schema).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WindowInfo {
    /// Window title.
    #[serde(default)]
    pub title: String,
    /// OS process id, `null` when unknown.
    #[serde(default)]
    pub pid: Option<i64>,
    /// Whether this is the foreground window.
    #[serde(default)]
    pub foreground: bool,
    /// Window rectangle, `null` when unknown.
    #[serde(default)]
    pub bounds: Option<Rect>,
    /// Page URL (web).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Any other property.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A WebMCP tool a page exposes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WebMcpTool {
    /// Tool name.
    pub name: String,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Map<String, Value>>,
    /// Any other property (e.g. `inputSchema`, `annotations`).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_one_is_omitted() {
        let s = Screen {
            w: 10,
            h: 20,
            scale: Some(1.0),
        };
        assert_eq!(
            serde_json::to_string(&s).expect("json"),
            r#"{"w":10,"h":20}"#
        );
        let s = Screen {
            w: 10,
            h: 20,
            scale: Some(1.5),
        };
        assert_eq!(
            serde_json::to_string(&s).expect("json"),
            r#"{"w":10,"h":20,"scale":1.5}"#
        );
    }

    #[test]
    fn extra_top_level_key_is_rejected() {
        let err = serde_json::from_str::<Envelope>(
            r#"{"version":"0.1.0","platform":"web","screen":{"w":1,"h":1},"tree":[],"extra":1}"#,
        )
        .expect_err("must fail");
        assert!(err.to_string().contains("extra"), "{err}");
    }
}
