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

/// The device a dump came from: `wm size` and `wm density`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Device {
    /// Its adb serial (`emulator-5554`, `R58M…`, `192.168.1.20:5555`).
    #[serde(default)]
    pub serial: String,
    /// Its model (`ro.product.model`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub model: String,
    /// The screen's width in device pixels, in its natural orientation.
    pub width: u32,
    /// The screen's height in device pixels, in its natural orientation.
    pub height: u32,
    /// Its density in dots per inch (`wm density`; 160 = scale 1).
    pub density: u32,
}

impl Device {
    /// Device pixels per density-independent pixel (`density / 160`).
    pub fn scale(&self) -> f64 {
        if self.density == 0 {
            1.0
        } else {
            f64::from(self.density) / 160.0
        }
    }

    /// The screen's size at `rotation` (0–3; 1 and 3 are landscape on a
    /// phone whose natural orientation is portrait).
    pub fn size_at(&self, rotation: u8) -> (u32, u32) {
        if rotation % 2 == 1 {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        }
    }
}

/// The foreground app, from `dumpsys window`'s `mCurrentFocus`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Focus {
    /// Its package.
    pub package: String,
    /// Its activity (or window title, for a system window).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub activity: String,
}

/// What one capture read from the device: the `--native-dump` format of
/// the Android adapter, and of its fixtures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NativeDump {
    /// Always `android`.
    pub platform: String,
    /// Where it came from (recorded by `cup snapshot --native-dump`, or
    /// how a fixture was built).
    pub source: String,
    /// The device.
    pub device: Device,
    /// The rotation the device reported (the dump's own wins when they
    /// differ: its bounds are in its rotation).
    #[serde(default)]
    pub rotation: u8,
    /// The foreground app.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<Focus>,
    /// The UI dump as the device printed it.
    pub xml: String,
}
