//! The OS layer: the only code that calls macOS (Accessibility, Core
//! Graphics). It makes calls and fills the plain structs of
//! [`crate::facts`]; it decides nothing that can be decided from those
//! facts (that is the rest of the crate, tested on every OS). Every
//! `unsafe` block is an FFI call with its safety comment.

pub mod act;
pub mod ax;
pub mod cg;
pub mod input;
pub mod launch;
pub mod observe;
pub mod shot;
