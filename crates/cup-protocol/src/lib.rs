//! # cup-protocol
//!
//! The pure core of the Computer Use Protocol (CUP): envelope and node types
//! with the exact serde shape of `cup.schema.json`, the closed vocabulary
//! (59 roles, 16 states, 15 actions) with compact short codes, the spec's
//! per-platform mapping tables as data, the compact text format (serializer,
//! pruning, paging, overview and a parser), search, and key-combo parsing.
//!
//! This crate performs no I/O and contains no platform code; it compiles on
//! every OS. Platform adapters translate native trees into these types.
//!
//! ## Layout
//!
//! - Types: `envelope`, `node`, `vocab` (roles, states, actions and their
//!   compact codes), `mappings` (the spec's per-platform tables), `text`
//!   (string limits), `checked` (strict deserializers), `schema` (JSON Schema
//!   validation).
//! - `compact/`: the compact text (pruning, rendering, lines, `page`, the
//!   overview, the text cut) and its parser.
//! - `search/`: `find` (query parsing, tokens, synonyms, scoring).
//! - `keys`: key combos.

pub mod checked;
pub mod compact;
pub mod envelope;
pub mod keys;
pub mod mappings;
pub mod node;
pub mod schema;
pub mod search;
pub mod text;
pub mod vocab;

pub use envelope::{
    AppInfo, Envelope, PlatformId, Scope, Screen, WebMcpTool, WindowInfo, CUP_VERSION,
};
pub use keys::{parse_combo, Combo, Key, KeyError, Modifier, NamedKey};
pub use node::{Attributes, Node, Orientation, PlatformData, Rect};
pub use search::{find, FindQuery, Match, SearchError};
pub use vocab::{Action, Direction, Role, State, UnknownWord};
