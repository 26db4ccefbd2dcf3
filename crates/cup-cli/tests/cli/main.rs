//! Integration tests of the `cup` binary: commands, the MCP server, the
//! sandbox commands, the web platform.
//!
//! One test binary for the crate (each file a module): one link, not one
//! per file, and the tests of every file share the runner's threads.

mod common;

mod act;
mod android;
mod cli;
mod gnome;
mod kde;
mod licences;
mod mcp;
mod sandbox;
mod serve;
mod web;
