//! Integration tests of the web adapter in headless Chromium.
//!
//! One test binary for the crate (each file a module): one link, not one
//! per file, and the tests of every file share the runner's threads.

mod support;

mod actions;
mod agreement;
mod capture;
mod corpus;
mod ocr;
mod overlay;
mod splice;
