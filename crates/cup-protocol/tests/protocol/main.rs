//! Integration tests of the protocol crate: conformance with the reference
//! SDKs, properties, pruning, the schema.
//!
//! One test binary for the crate (each file a module): one link, not one
//! per file, and the tests of every file share the runner's threads.

mod budget;
mod conformance;
mod folding;
mod properties;
mod pruning;
mod schema;
mod text_runs;
