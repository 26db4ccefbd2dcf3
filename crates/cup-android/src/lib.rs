//! Android for cup: a phone over adb, read and acted on through the
//! Session like any other platform.
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
//! serde structs, nothing mapped yet. Layout: [`adb`] (the transport: adb's
//! wire protocol to the adb server, every call with a deadline),
//! [`device`] (the commands a phone is sent), [`dump`] and [`facts`] (the
//! native facts), [`role`] and [`map`] (pure mapping to CUP), [`plan`]
//! (action plans), [`adapter`] (the `cup::Adapter`), [`sample`] (a synthetic
//! dump for benchmarks and size tests).

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
