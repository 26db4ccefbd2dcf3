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

/// The boolean attributes cup keeps, in the dumps' spelling.
pub const FLAG_NAMES: [&str; 16] = [
    "checkable",
    "checked",
    "clickable",
    "enabled",
    "focusable",
    "focused",
    "scrollable",
    "long-clickable",
    "password",
    "selected",
    "visible-to-user",
    "displayed",
    "NAF",
    "heading",
    "a11y-important",
    "showing-hint",
];

/// A set of [`FLAG_NAMES`] (a bit each; 3,000 nodes' flags without an
/// allocation), written as the list of their names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags(u32);

impl Flags {
    /// The bit of `name`, if cup keeps it.
    fn bit(name: &str) -> Option<u32> {
        FLAG_NAMES.iter().position(|f| *f == name).map(|i| 1 << i)
    }

    /// Adds `name`; `false` when cup does not keep that attribute.
    pub fn insert(&mut self, name: &str) -> bool {
        Flags::bit(name).map(|b| self.0 |= b).is_some()
    }

    /// Whether `name` is in the set.
    pub fn has(&self, name: &str) -> bool {
        Flags::bit(name).is_some_and(|b| self.0 & b != 0)
    }

    /// No flag set.
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// The names in the set, in [`FLAG_NAMES`]' order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        FLAG_NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
    }
}

impl Serialize for Flags {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.names())
    }
}

impl<'de> Deserialize<'de> for Flags {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        let mut flags = Flags::default();
        for n in &names {
            if !flags.insert(n) {
                return Err(serde::de::Error::custom(format!(
                    "unknown flag {n:?}; cup keeps {}",
                    FLAG_NAMES.join(", ")
                )));
            }
        }
        Ok(flags)
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
    /// Boolean attributes the dump set to `true` ([`FLAG_NAMES`]).
    #[serde(default, skip_serializing_if = "Flags::is_empty")]
    pub flags: Flags,
    /// Boolean attributes the dump set to `false` (an absent attribute is
    /// neither: older dumps lack `visible-to-user`).
    #[serde(default, skip_serializing_if = "Flags::is_empty")]
    pub unset: Flags,
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
        self.flags.has(flag)
    }

    /// Whether the dump set `flag` to `false`.
    pub fn is_not(&self, flag: &str) -> bool {
        self.unset.has(flag)
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
