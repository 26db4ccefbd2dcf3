//! What an Android UI dump says of each node, unmapped: the native facts
//! cup keeps (`cup snapshot --native-dump` on Android).

use serde::{Deserialize, Serialize};

/// A node's rectangle in device pixels: left, top, right, bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bounds {
    /// Left edge.
    pub left: i64,
    /// Top edge.
    pub top: i64,
    /// Right edge (exclusive).
    pub right: i64,
    /// Bottom edge (exclusive).
    pub bottom: i64,
}

impl Bounds {
    /// Width (0 when the edges cross).
    pub fn width(&self) -> i64 {
        (self.right - self.left).max(0)
    }

    /// Height (0 when the edges cross).
    pub fn height(&self) -> i64 {
        (self.bottom - self.top).max(0)
    }

    /// The centre, where a tap lands.
    pub fn centre(&self) -> (i64, i64) {
        (self.left + self.width() / 2, self.top + self.height() / 2)
    }
}

/// One node of the dump.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AndroidNode {
    /// The view's class (`android.widget.Button`, Compose's
    /// `android.view.View`, an app's own subclass).
    pub class: String,
    /// Its package (`com.android.settings`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub package: String,
    /// Its text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Its content description (what TalkBack reads).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub content_desc: String,
    /// Its hint (androidx, API 26+; Appium).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hint: String,
    /// Its resource id (`com.android.settings:id/title`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_id: String,
    /// Its rectangle in device pixels (clipped to the screen by the dump);
    /// `None` when the dump has none or it does not parse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Bounds>,
    /// Boolean attributes the dump set to `true` (`checkable`, `checked`,
    /// `clickable`, `enabled`, `focusable`, `focused`, `scrollable`,
    /// `long-clickable`, `password`, `selected`, `visible-to-user`,
    /// `displayed`, `NAF`), in the dump's spelling.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// Boolean attributes the dump set to `false` (an absent attribute is
    /// neither: older dumps lack `visible-to-user`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unset: Vec<String>,
    /// The window's display (androidx, API 30+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display: Option<u32>,
    /// Its children, in the dump's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<AndroidNode>,
}

impl AndroidNode {
    /// Whether the dump set `flag` to `true`.
    pub fn is(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }

    /// Whether the dump set `flag` to `false`.
    pub fn is_not(&self, flag: &str) -> bool {
        self.unset.iter().any(|f| f == flag)
    }

    /// This node and every descendant, depth first.
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(AndroidNode::count).sum::<usize>()
    }
}

/// Which of the three shapes a dump had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// AOSP `uiautomator dump` (one window).
    Aosp,
    /// androidx `dumpWindowHierarchy` (every window; `visible-to-user`).
    Androidx,
    /// Appium UiAutomator2's page source (elements named by class).
    Appium,
}

/// A whole dump.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dump {
    /// The shape it was read from.
    pub shape: Shape,
    /// The screen's rotation (0–3), as the dump tells it.
    pub rotation: u8,
    /// The screen's size in device pixels, where the dump tells it
    /// (Appium).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<(u32, u32)>,
    /// The windows' roots.
    pub roots: Vec<AndroidNode>,
}
