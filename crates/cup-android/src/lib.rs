//! Android for cup (issue 40, started): the native facts of a UI dump.
//!
//! Android's accessibility tree reaches a computer over adb as XML, in
//! three shapes ([`dump::parse`] reads them all into one [`facts::Dump`]):
//! - AOSP `uiautomator dump`: `<hierarchy rotation>` with nested `<node>`s
//!   (`index text resource-id class package content-desc checkable
//!   checked clickable enabled focusable focused scrollable long-clickable
//!   password selected bounds="[l,t][r,b]"`, optionally `NAF`);
//! - androidx `UiDevice.dumpWindowHierarchy`: the same, plus
//!   `visible-to-user`, `drawing-order`, `hint`, `display-id`, every
//!   window's root in one `<hierarchy>`;
//! - Appium UiAutomator2's page source: elements named by their class
//!   under `<hierarchy class="hierarchy" rotation width height>`, with
//!   `displayed` and more.
//!
//! The facts are the `--native-dump` format of the Android adapter: plain
//! serde structs, nothing mapped yet. The mapping to CUP, the adb
//! transport and the actions are the rest of issue 40.

pub mod adapter;
pub mod adb;
pub mod device;
pub mod dump;
pub mod facts;
pub mod map;
pub mod plan;
pub mod role;
pub mod sample;

pub use adapter::AndroidAdapter;

#[cfg(test)]
mod fixture_tests;
