//! # cup-ios
//!
//! The iOS adapter of cup: iPhone and iPad apps read and driven through
//! WebDriverAgent (WDA), the XCTest runner that serves HTTP on the device
//! (port 8100, forwarded to this machine by `iproxy` or go-ios; starting
//! WDA is the user's). [`IosAdapter::new`]`("http://127.0.0.1:8100")` is
//! cup's [`cup::Adapter`] for it.
//!
//! The crate is split the way the other adapters are: a thin transport
//! that only makes calls, and plain code for everything else.
//!
//! - [`http`]: one HTTP/1.1 exchange on a fresh TCP connection
//!   (`Content-Length`, chunked, or to the end).
//! - [`client`]: the WDA client — deadlines on every request, the session
//!   made on first use, WDA's errors and a missing WDA as one line each.
//! - [`facts`]: serde structs of what WDA says (its JSON source, screen,
//!   app in front) and [`facts::NativeDump`], the `--native-dump` format.
//! - [`map`]: facts → CUP nodes (roles, names, values, states, actions,
//!   bounds in device pixels, pruning, ids and [`refs`]); one submodule per
//!   part of a node (`role`, `text`, `states`, `attributes`) and `tree`
//!   for a whole dump.
//! - [`plan`]: every CUP action, key and gesture as WDA requests, no I/O:
//!   `requests` (plain routes), `touch` (W3C touch actions), `verbs`
//!   (element actions), `combo` (keys), `gestures` (pixel gestures).
//! - [`apps`]: what `open_app` means by a name (WDA lists no apps).
//! - [`adapter`]: [`IosAdapter`], which ties them together.
//!
//! Tested here without a device: the mapping with native-dump fixtures of
//! seven iOS screens (`tests/fixtures`, built from WDA's documented
//! attribute values) checked element by element and against the CUP
//! schema; the plans and the parsing as unit tests; the client and the
//! adapter end to end against recorded WDA exchanges replayed by a small
//! HTTP server in the tests, which fails on any request it did not expect.

pub mod adapter;
pub mod apps;
pub mod client;
pub mod facts;
pub mod http;
pub mod map;
pub mod plan;
pub mod refs;

#[cfg(test)]
mod fixture_tests;
#[cfg(test)]
mod http_tests;

pub use adapter::IosAdapter;
pub use client::{WdaClient, WdaError, DEFAULT_URL};
pub use facts::NativeDump;
