//! # cup-atspi-map
//!
//! The pure half of cup's AT-SPI layer: the native facts of one accessible
//! and their translation to CUP. Nothing here connects to anything, so it
//! is unit-tested with fixtures and clippy-checked on every target cup is
//! built for; `cup-atspi` reads the facts over D-Bus and calls this crate
//! to decide what they mean (as AccessKit keeps `accesskit_atspi_common`
//! apart from its connection).
//!
//! ## Layout
//!
//! - `facts`: the native facts of one accessible (`RawNode`, `Extents`,
//!   `RawValue`) and of a walked tree (`RawTree`), as `cup snapshot
//!   --native-dump` writes them; the AT-SPI role, state and interface types.
//! - `mapping/`: role, states, actions, text, attributes, platform data,
//!   `kinds` (role groups), `needs` (what a node is worth reading); fixture
//!   tests in `mapping/tests.rs`, fixtures built in `mapping/fixtures.rs`.

pub mod facts;
pub mod mapping;
