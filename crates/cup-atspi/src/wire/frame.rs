//! D-Bus message framing: encoding a method call, finding where a message
//! ends in a byte stream, and reading the header fields of a reply. Pure
//! byte work, no I/O; bodies are (de)serialized with `zvariant`.

use std::ops::Range;

use super::WireError;

/// Message types (D-Bus specification, "Message Format").
pub const METHOD_CALL: u8 = 1;
/// A method's reply.
pub const METHOD_RETURN: u8 = 2;
/// A method's error reply.
pub const ERROR: u8 = 3;

/// Flag: the sender expects no reply.
pub const NO_REPLY_EXPECTED: u8 = 0x1;

/// The largest message the specification allows (128 MiB).
pub const MAX_MESSAGE: usize = 128 * 1024 * 1024;

/// Header field codes.
const PATH: u8 = 1;
const INTERFACE: u8 = 2;
const MEMBER: u8 = 3;
const ERROR_NAME: u8 = 4;
const REPLY_SERIAL: u8 = 5;
const DESTINATION: u8 = 6;
const SENDER: u8 = 7;
const SIGNATURE: u8 = 8;

/// Byte order of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endian {
    /// `l`.
    Little,
    /// `B`.
    Big,
}

impl Endian {
    fn u32(self, b: &[u8]) -> u32 {
        let a = [b[0], b[1], b[2], b[3]];
        match self {
            Endian::Little => u32::from_le_bytes(a),
            Endian::Big => u32::from_be_bytes(a),
        }
    }
}

/// A method call to encode.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// Serial (non-zero).
    pub serial: u32,
    /// Destination bus name (`None` on a peer-to-peer connection).
    pub destination: Option<&'a str>,
    /// Object path.
    pub path: &'a str,
    /// Interface.
    pub interface: &'a str,
    /// Method.
    pub member: &'a str,
    /// Body signature, without outer parentheses ("" for no body).
    pub signature: &'a str,
    /// Body, little-endian D-Bus encoding starting at an 8-aligned offset.
    pub body: &'a [u8],
}

/// Appends `call`, little-endian, to `out`.
pub fn encode_call(call: &Call<'_>, out: &mut Vec<u8>) -> Result<(), WireError> {
    let mut fields = Fields::new();
    fields.string(PATH, b'o', call.path);
    fields.string(INTERFACE, b's', call.interface);
    fields.string(MEMBER, b's', call.member);
    if let Some(d) = call.destination {
        fields.string(DESTINATION, b's', d);
    }
    if !call.signature.is_empty() {
        fields.signature(SIGNATURE, call.signature)?;
    }
    fields.finish(METHOD_CALL, 0, call.serial, call.body, out)
}

/// Appends an error reply to the call `serial` from `sender` (a method call
/// we do not serve), little-endian, to `out`.
pub fn encode_error(
    serial: u32,
    reply_to: u32,
    destination: Option<&str>,
    name: &str,
    out: &mut Vec<u8>,
) -> Result<(), WireError> {
    let mut fields = Fields::new();
    fields.string(ERROR_NAME, b's', name);
    fields.u32(REPLY_SERIAL, reply_to);
    if let Some(d) = destination {
        fields.string(DESTINATION, b's', d);
    }
    fields.finish(ERROR, NO_REPLY_EXPECTED, serial, &[], out)
}

/// The header-field array under construction.
struct Fields(Vec<u8>);

impl Fields {
    fn new() -> Self {
        // Room for the fixed part and the array length.
        Fields(vec![0; 16])
    }

    fn pad(&mut self, align: usize) {
        while !self.0.len().is_multiple_of(align) {
            self.0.push(0);
        }
    }

    fn start(&mut self, code: u8, sig: u8) {
        self.pad(8);
        self.0.extend_from_slice(&[code, 1, sig, 0]);
    }

    fn string(&mut self, code: u8, sig: u8, s: &str) {
        self.start(code, sig);
        self.pad(4);
        let len = u32::try_from(s.len()).unwrap_or(u32::MAX);
        self.0.extend_from_slice(&len.to_le_bytes());
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
    }

    fn signature(&mut self, code: u8, s: &str) -> Result<(), WireError> {
        let len = u8::try_from(s.len())
            .map_err(|_| WireError::Protocol(format!("signature too long: {s}")))?;
        self.start(code, b'g');
        self.0.push(len);
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        Ok(())
    }

    fn u32(&mut self, code: u8, v: u32) {
        self.start(code, b'u');
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    fn finish(
        mut self,
        kind: u8,
        flags: u8,
        serial: u32,
        body: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<(), WireError> {
        let array_len = self.0.len() - 16;
        self.pad(8);
        let too_big = || WireError::Protocol("message too large".to_owned());
        let body_len = u32::try_from(body.len()).map_err(|_| too_big())?;
        if self.0.len() + body.len() > MAX_MESSAGE {
            return Err(too_big());
        }
        let array_len = u32::try_from(array_len).map_err(|_| too_big())?;
        self.0[..4].copy_from_slice(&[b'l', kind, flags, 1]);
        self.0[4..8].copy_from_slice(&body_len.to_le_bytes());
        self.0[8..12].copy_from_slice(&serial.to_le_bytes());
        self.0[12..16].copy_from_slice(&array_len.to_le_bytes());
        out.extend_from_slice(&self.0);
        out.extend_from_slice(body);
        Ok(())
    }
}

fn align(n: usize, to: usize) -> usize {
    n.div_ceil(to) * to
}

/// The total length of the message at the start of `buf`, once its fixed
/// header (16 bytes) has arrived; `None` before that.
pub fn message_len(buf: &[u8]) -> Result<Option<usize>, WireError> {
    if buf.len() < 16 {
        return Ok(None);
    }
    let endian = endian(buf[0])?;
    if buf[3] != 1 {
        return Err(WireError::Protocol(format!(
            "D-Bus protocol version {} (expected 1)",
            buf[3]
        )));
    }
    let body = endian.u32(&buf[4..8]) as usize;
    let fields = endian.u32(&buf[12..16]) as usize;
    let total = align(16 + fields, 8) + body;
    if total > MAX_MESSAGE {
        return Err(WireError::Protocol(format!(
            "message of {total} bytes (limit {MAX_MESSAGE})"
        )));
    }
    Ok(Some(total))
}

fn endian(b: u8) -> Result<Endian, WireError> {
    match b {
        b'l' => Ok(Endian::Little),
        b'B' => Ok(Endian::Big),
        other => Err(WireError::Protocol(format!(
            "bad byte-order mark {other:#04x}"
        ))),
    }
}

/// The header of one whole message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Message type.
    pub kind: u8,
    /// Flags.
    pub flags: u8,
    /// Byte order of the message (and its body).
    pub endian: Endian,
    /// Its serial.
    pub serial: u32,
    /// The call it answers.
    pub reply_serial: Option<u32>,
    /// The error's name (error replies).
    pub error_name: Option<String>,
    /// The sender's bus name (bus connections).
    pub sender: Option<String>,
    /// Body signature ("" for none).
    pub signature: String,
    /// Where the body lies in the message.
    pub body: Range<usize>,
}

/// Reads the header of the whole message `msg` (as long as [`message_len`]
/// says).
pub fn parse_header(msg: &[u8]) -> Result<Header, WireError> {
    let bad = |what: &str| WireError::Protocol(format!("malformed message header: {what}"));
    let total = message_len(msg)?.ok_or_else(|| bad("short"))?;
    if msg.len() < total {
        return Err(bad("short"));
    }
    let endian = endian(msg[0])?;
    let fields_end = 16 + endian.u32(&msg[12..16]) as usize;
    let mut h = Header {
        kind: msg[1],
        flags: msg[2],
        endian,
        serial: endian.u32(&msg[8..12]),
        reply_serial: None,
        error_name: None,
        sender: None,
        signature: String::new(),
        body: align(fields_end, 8)..total,
    };
    let mut at = 16;
    while at < fields_end {
        at = align(at, 8);
        if at + 4 > fields_end {
            return Err(bad("truncated field"));
        }
        let code = msg[at];
        let sig_len = msg[at + 1] as usize;
        if sig_len != 1 || msg.get(at + 3) != Some(&0) {
            return Err(bad("field of a compound type"));
        }
        let sig = msg[at + 2];
        at += 4;
        let (value, next) = field_value(msg, endian, sig, at, fields_end)
            .ok_or_else(|| bad("field value out of bounds"))?;
        at = next;
        match (code, value) {
            (REPLY_SERIAL, Value::U32(v)) => h.reply_serial = Some(v),
            (ERROR_NAME, Value::Str(s)) => h.error_name = Some(s.to_owned()),
            (SENDER, Value::Str(s)) => h.sender = Some(s.to_owned()),
            (SIGNATURE, Value::Str(s)) => s.clone_into(&mut h.signature),
            _ => {}
        }
    }
    Ok(h)
}

enum Value<'a> {
    U32(u32),
    Str(&'a str),
    Other,
}

/// The value of basic type `sig` at `at` (aligned here), and where it ends.
fn field_value(
    msg: &[u8],
    endian: Endian,
    sig: u8,
    at: usize,
    end: usize,
) -> Option<(Value<'_>, usize)> {
    let fixed = |size: usize| -> Option<usize> {
        let at = align(at, size);
        (at + size <= end).then_some(at)
    };
    match sig {
        b's' | b'o' => {
            let at = fixed(4)?;
            let len = endian.u32(&msg[at..at + 4]) as usize;
            let start = at + 4;
            let stop = start.checked_add(len)?;
            if stop >= end || msg[stop] != 0 {
                return None;
            }
            let s = std::str::from_utf8(&msg[start..stop]).ok()?;
            Some((Value::Str(s), stop + 1))
        }
        b'g' => {
            let len = *msg.get(at)? as usize;
            let stop = at + 1 + len;
            if stop >= end || msg[stop] != 0 {
                return None;
            }
            let s = std::str::from_utf8(&msg[at + 1..stop]).ok()?;
            Some((Value::Str(s), stop + 1))
        }
        b'u' => {
            let at = fixed(4)?;
            Some((Value::U32(endian.u32(&msg[at..at + 4])), at + 4))
        }
        b'y' => Some((Value::Other, fixed(1)? + 1)),
        b'n' | b'q' => Some((Value::Other, fixed(2)? + 2)),
        b'b' | b'i' | b'h' => Some((Value::Other, fixed(4)? + 4)),
        b'x' | b't' | b'd' => Some((Value::Other, fixed(8)? + 8)),
        _ => None,
    }
}

/// The signature of a body given the signature of the value that makes it
/// up: a top-level structure is the list of its fields (a call's arguments),
/// anything else stands as it is.
pub fn body_signature(value_signature: &str) -> &str {
    match value_signature
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
    {
        Some(inner) if is_one_struct(value_signature) => inner,
        _ => value_signature,
    }
}

/// `true` when `sig` is exactly one structure: its first `(` closes at the
/// very end.
fn is_one_struct(sig: &str) -> bool {
    let mut depth = 0usize;
    for (i, c) in sig.char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i == sig.len() - 1 && sig.starts_with('(');
                }
            }
            _ if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(destination: Option<&str>, signature: &str, body: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        encode_call(
            &Call {
                serial: 7,
                destination,
                path: "/org/a11y/atspi/accessible/root",
                interface: "org.a11y.atspi.Accessible",
                member: "GetRole",
                signature,
                body,
            },
            &mut out,
        )
        .expect("encodes");
        out
    }

    #[test]
    fn a_call_frames_itself() {
        let bytes = call(Some(":1.3"), "u", &[1, 0, 0, 0]);
        assert_eq!(message_len(&bytes).expect("valid"), Some(bytes.len()));
        assert_eq!(message_len(&bytes[..15]).expect("valid"), None);
        let h = parse_header(&bytes).expect("parses");
        assert_eq!(h.kind, METHOD_CALL);
        assert_eq!(h.serial, 7);
        assert_eq!(h.signature, "u");
        assert_eq!(&bytes[h.body.clone()], &[1, 0, 0, 0]);
        assert_eq!(h.body.start % 8, 0);
    }

    #[test]
    fn a_call_matches_zbus_encoding() {
        // The same call built by zbus: identical header fields and body.
        use atspi::zbus::message::Message;
        let msg = Message::method_call("/org/a11y/atspi/accessible/root", "GetRole")
            .and_then(|b| b.interface("org.a11y.atspi.Accessible"))
            .and_then(|b| b.destination(":1.3"))
            .and_then(|b| {
                b.serial(std::num::NonZeroU32::new(7).expect("non-zero"))
                    .build(&(1u32,))
            })
            .expect("zbus builds");
        let theirs = msg.data().to_vec();
        let ours = call(Some(":1.3"), "u", &[1, 0, 0, 0]);
        let (a, b) = (
            parse_header(&theirs).expect("parses"),
            parse_header(&ours).expect("parses"),
        );
        assert_eq!(a.signature, b.signature);
        assert_eq!(&theirs[a.body.clone()], &ours[b.body.clone()]);
        assert_eq!(a.serial, b.serial);
    }

    #[test]
    fn an_error_reply_reads_back() {
        let mut out = Vec::new();
        encode_error(
            3,
            9,
            Some(":1.1"),
            "org.freedesktop.DBus.Error.UnknownMethod",
            &mut out,
        )
        .expect("encodes");
        let h = parse_header(&out).expect("parses");
        assert_eq!(h.kind, ERROR);
        assert_eq!(h.reply_serial, Some(9));
        assert_eq!(
            h.error_name.as_deref(),
            Some("org.freedesktop.DBus.Error.UnknownMethod")
        );
        assert!(h.body.is_empty());
    }

    #[test]
    fn big_endian_headers_read() {
        // A big-endian reply: serial 5, reply serial 9, signature "s",
        // body "hi".
        let mut m = vec![b'B', METHOD_RETURN, 0, 1];
        m.extend_from_slice(&7u32.to_be_bytes()); // body: u32 len + "hi\0"
        m.extend_from_slice(&5u32.to_be_bytes());
        let mut fields = vec![REPLY_SERIAL, 1, b'u', 0];
        fields.extend_from_slice(&9u32.to_be_bytes());
        fields.extend_from_slice(&[SIGNATURE, 1, b'g', 0, 1, b's', 0]);
        m.extend_from_slice(&(fields.len() as u32).to_be_bytes());
        m.extend_from_slice(&fields);
        while m.len() % 8 != 0 {
            m.push(0);
        }
        m.extend_from_slice(&2u32.to_be_bytes());
        m.extend_from_slice(b"hi\0");
        let h = parse_header(&m).expect("parses");
        assert_eq!(h.endian, Endian::Big);
        assert_eq!((h.serial, h.reply_serial), (5, Some(9)));
        assert_eq!(h.signature, "s");
        assert_eq!(&m[h.body.clone()], &[0, 0, 0, 2, b'h', b'i', 0]);
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        let good = call(None, "", &[]);
        assert!(message_len(b"xxxxxxxxxxxxxxxxxxxx").is_err());
        let mut huge = good.clone();
        huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(message_len(&huge).is_err());
        // Every truncation or corruption of a field either parses or fails.
        for cut in 0..good.len() {
            let _ = parse_header(&good[..cut]);
            let mut bad = good.clone();
            bad[cut] ^= 0xff;
            let _ = parse_header(&bad);
        }
    }

    #[test]
    fn body_signatures() {
        assert_eq!(body_signature("(ii)"), "ii");
        assert_eq!(body_signature("(iiii)"), "iiii");
        assert_eq!(body_signature("(ss)"), "ss");
        assert_eq!(body_signature("(i)(i)"), "(i)(i)");
        assert_eq!(body_signature("a(sss)"), "a(sss)");
        assert_eq!(body_signature("((so)i)"), "(so)i");
        assert_eq!(body_signature(""), "");
        assert_eq!(body_signature("u"), "u");
    }
}
