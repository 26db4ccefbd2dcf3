//! The addon under the npm package `cup-rs`.
//!
//! The TypeScript layer (`ts/`) gives the CUP TypeScript API, both
//! generations (the seed's `capture`/`execute`/… and the reference SDK's
//! `snapshot`/`action`/…); this addon gives it cup: a
//! [`session::NativeSession`] over the facade's Session and the platform
//! adapters (captures and actions run on a thread of the session's own,
//! never on JavaScript's), and the pure protocol helpers (pruning, compact
//! text, search, key combos, schema checks) of `cup-protocol`. Trees cross
//! as JSON text, which the TypeScript layer parses (V8's `JSON.parse` is
//! faster than building the objects through Node-API).

// napi-derive registers the exported functions only outside `cfg(test)`
// (clippy --all-targets builds that too): unused there, not dead.
#![cfg_attr(test, allow(dead_code))]

/// The allocator of the `cup` binary (a capture allocates many small
/// strings; glibc's malloc made the addon's captures slower than cup's).
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod engine;
mod errors;
mod fed;
mod helpers;
mod session;

/// JSON text of a value cup made.
pub(crate) fn to_json<T: serde::Serialize>(v: &T) -> napi::Result<String> {
    serde_json::to_string(v).map_err(|e| errors::failure(format!("cannot encode a result: {e}")))
}

/// cup's version (the crate's).
#[napi_derive::napi]
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
