//! Reading a D-Bus message body by hand, for the one reply too large to
//! go through `zvariant` at speed: `Cache.GetItems` (hundreds of structs,
//! each three object references, a string array and a `u32` array). Its
//! strings are borrowed from the body, not copied, and object paths are
//! taken as the app sent them (a malformed one only fails the calls made
//! on it later).

use super::WireError;

/// A reply's body as it came: byte order, signature and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawBody {
    /// Big-endian (`B`) rather than little-endian (`l`).
    pub big_endian: bool,
    /// The body's signature, without outer parentheses.
    pub signature: String,
    /// The body, starting at an 8-aligned offset of its message.
    pub bytes: Vec<u8>,
}

/// A cursor over a body; offsets are aligned from the body's start.
#[derive(Debug)]
pub struct BodyReader<'a> {
    buf: &'a [u8],
    pos: usize,
    big: bool,
}

fn short() -> WireError {
    WireError::Body("reply body ends early".to_owned())
}

impl<'a> BodyReader<'a> {
    /// A reader at the start of `body`.
    pub fn new(body: &'a RawBody) -> Self {
        BodyReader {
            buf: &body.bytes,
            pos: 0,
            big: body.big_endian,
        }
    }

    /// Skips the padding up to a multiple of `n` (a power of two).
    pub fn align(&mut self, n: usize) -> Result<(), WireError> {
        let to = self.pos.next_multiple_of(n);
        if to > self.buf.len() {
            return Err(short());
        }
        self.pos = to;
        Ok(())
    }

    /// A `u32` (`u`).
    pub fn u32(&mut self) -> Result<u32, WireError> {
        self.align(4)?;
        let bytes: [u8; 4] = self
            .buf
            .get(self.pos..self.pos + 4)
            .and_then(|b| b.try_into().ok())
            .ok_or_else(short)?;
        self.pos += 4;
        Ok(if self.big {
            u32::from_be_bytes(bytes)
        } else {
            u32::from_le_bytes(bytes)
        })
    }

    /// An `i32` (`i`).
    pub fn i32(&mut self) -> Result<i32, WireError> {
        self.u32().map(|v| i32::from_ne_bytes(v.to_ne_bytes()))
    }

    /// A string or object path (`s`, `o`): length, bytes, NUL.
    pub fn str(&mut self) -> Result<&'a str, WireError> {
        let len = self.u32()? as usize;
        let end = self.pos.checked_add(len).ok_or_else(short)?;
        let bytes = self.buf.get(self.pos..end).ok_or_else(short)?;
        if self.buf.get(end) != Some(&0) {
            return Err(WireError::Body("string without its NUL".to_owned()));
        }
        let s = std::str::from_utf8(bytes)
            .map_err(|_| WireError::Body("string is not UTF-8".to_owned()))?;
        self.pos = end + 1;
        Ok(s)
    }

    /// An array whose elements align to `element_align`: `each` reads one
    /// element, and is called until the array's bytes are used up.
    pub fn array(
        &mut self,
        element_align: usize,
        mut each: impl FnMut(&mut Self) -> Result<(), WireError>,
    ) -> Result<(), WireError> {
        let len = self.u32()? as usize;
        self.align(element_align)?;
        let end = self.pos.checked_add(len).ok_or_else(short)?;
        if end > self.buf.len() {
            return Err(short());
        }
        while self.pos < end {
            self.align(element_align)?;
            each(self)?;
        }
        if self.pos != end {
            return Err(WireError::Body(
                "array element runs past the array".to_owned(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use atspi::zbus::zvariant::{self, serialized::Context};

    fn encode<T: serde::Serialize + zvariant::Type>(value: &T, big: bool) -> RawBody {
        let endian = if big { zvariant::BE } else { zvariant::LE };
        let data = zvariant::to_bytes(Context::new_dbus(endian, 0), value).expect("encodes");
        RawBody {
            big_endian: big,
            signature: T::SIGNATURE.to_string(),
            bytes: data.bytes().to_vec(),
        }
    }

    #[test]
    fn reads_what_zvariant_writes_in_both_byte_orders() {
        let value: (u32, Vec<(String, i32)>, String) =
            (7, vec![("a".into(), -1), ("bé".into(), 2)], "tail".into());
        for big in [false, true] {
            let body = encode(&value, big);
            let mut r = BodyReader::new(&body);
            assert_eq!(r.u32().expect("reads"), 7);
            let mut got = Vec::new();
            r.array(8, |r| {
                let s = r.str()?;
                got.push((s.to_owned(), r.i32()?));
                Ok(())
            })
            .expect("reads");
            assert_eq!(got, value.1);
            assert_eq!(r.str().expect("reads"), "tail");
        }
    }

    #[test]
    fn truncated_or_malformed_bodies_are_errors_not_panics() {
        let body = encode(&(vec!["one".to_owned(), "two".to_owned()],), false);
        for cut in 0..body.bytes.len() {
            let short = RawBody {
                bytes: body.bytes[..cut].to_vec(),
                ..body.clone()
            };
            let mut r = BodyReader::new(&short);
            let read = r.array(4, |r| r.str().map(drop));
            assert!(read.is_err(), "cut at {cut}");
        }
        let mut bad = body.clone();
        bad.bytes[0] = 0xff; // array length far past the end
        assert!(BodyReader::new(&bad)
            .array(4, |r| r.str().map(drop))
            .is_err());
    }
}
