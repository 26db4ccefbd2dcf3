//! The OS layer: the only code that calls Windows. It makes calls and
//! fills the plain structs of [`crate::facts`]; it decides nothing that
//! can be decided from those facts (that is the rest of the crate, tested
//! on every OS). Every `unsafe` block is an FFI call with its safety
//! comment.

pub mod act;
pub mod events;
pub mod input;
pub mod shot;
pub mod uia;
pub mod win32;

use windows::core::HRESULT;

use crate::walk::{classify, ReadError};

/// A failed call as a read error (transient or not, by its HRESULT).
pub fn read_error(e: &windows::core::Error, what: &str) -> ReadError {
    classify(hresult_bits(e.code()), what)
}

/// An HRESULT as its unsigned bits (`0x80004005`).
pub fn hresult_bits(hr: HRESULT) -> u32 {
    u32::from_ne_bytes(hr.0.to_ne_bytes())
}

/// A call's error as one line: which call, which HRESULT.
pub fn call_error(e: &windows::core::Error, what: &str) -> String {
    let bits = hresult_bits(e.code());
    format!(
        "{what} failed: HRESULT 0x{bits:08X}{}",
        crate::walk::hresult_name(bits)
    )
}
