//! One D-Bus connection for method calls: a writer task that sends every
//! call queued since it last ran in one `write`, and a reader task that
//! reads whatever has arrived in one `read` and hands each reply to its
//! caller by serial.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use futures::channel::oneshot;
use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::UnixStream;
use tokio::sync::Notify;

use atspi::zbus::zvariant::{self, serialized, DynamicType, Signature, Type};

use super::address::{self, UnixAddress};
use super::frame::{self, Endian};
use super::WireError;

/// The reply to a call: its body and how to read it.
#[derive(Debug, Clone)]
pub struct Reply {
    endian: Endian,
    signature: String,
    body: Vec<u8>,
}

impl Reply {
    /// Decodes the body as `R`; a reply of another signature is an error.
    pub fn decode<R: DeserializeOwned + Type>(&self) -> Result<R, WireError> {
        let matches = R::SIGNATURE == self.signature.as_str()
            || (matches!(R::SIGNATURE, Signature::Structure(_)) && {
                // "(sig)" without allocating for it.
                let mut wrapped = [0u8; 256];
                let n = self.signature.len();
                match wrapped.get_mut(..n + 2) {
                    Some(w) => {
                        w[0] = b'(';
                        w[1..=n].copy_from_slice(self.signature.as_bytes());
                        w[n + 1] = b')';
                        std::str::from_utf8(w).is_ok_and(|w| R::SIGNATURE == w)
                    }
                    None => R::SIGNATURE == format!("({})", self.signature).as_str(),
                }
            });
        if !matches {
            return Err(WireError::Body(format!(
                "reply of signature '{}' where '{}' was expected",
                self.signature,
                R::SIGNATURE
            )));
        }
        let endian = match self.endian {
            Endian::Little => zvariant::LE,
            Endian::Big => zvariant::BE,
        };
        let data = serialized::Data::new(&self.body[..], serialized::Context::new_dbus(endian, 0));
        data.deserialize::<R>()
            .map(|(r, _)| r)
            .map_err(|e| WireError::Body(e.to_string()))
    }

    /// The body as it came, for decoding by hand ([`super::BodyReader`]).
    pub fn into_raw(self) -> super::RawBody {
        super::RawBody {
            big_endian: matches!(self.endian, Endian::Big),
            signature: self.signature,
            bytes: self.body,
        }
    }

    /// The text of an error reply: its first argument, when a string.
    fn error_message(self) -> String {
        if !self.signature.starts_with('s') {
            return String::new();
        }
        // Only the first argument is read.
        let first = Reply {
            signature: "s".to_owned(),
            ..self
        };
        first.decode::<String>().unwrap_or_default()
    }
}

type Waiter = oneshot::Sender<Result<Reply, WireError>>;

#[derive(Debug, Default)]
struct State {
    next_serial: u32,
    /// Encoded messages the writer has not sent yet.
    outbox: Vec<u8>,
    /// Callers waiting for a reply, by the serial of their call.
    pending: HashMap<u32, Waiter>,
    /// Why the connection is closed, once it is.
    closed: Option<String>,
}

impl State {
    /// The serial of the next message (never 0).
    fn take_serial(&mut self) -> u32 {
        let serial = self.next_serial.max(1);
        self.next_serial = serial.checked_add(1).unwrap_or(1);
        serial
    }
}

#[derive(Debug, Default)]
struct Shared {
    state: Mutex<State>,
    wake_writer: Notify,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        // A poisoned lock only means a panic elsewhere; the state itself
        // (queues and maps) stays consistent between statements.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Marks the connection closed and fails every waiting call.
    fn close(&self, why: String) {
        let waiters: Vec<Waiter> = {
            let mut st = self.state();
            if st.closed.is_none() {
                st.closed = Some(why.clone());
            }
            st.pending.drain().map(|(_, w)| w).collect()
        };
        for w in waiters {
            let _ = w.send(Err(WireError::Closed(why.clone())));
        }
    }
}

/// Aborts the reader and writer tasks once the last handle is gone.
#[derive(Debug)]
struct Tasks([tokio::task::AbortHandle; 2]);

impl Drop for Tasks {
    fn drop(&mut self) {
        for t in &self.0 {
            t.abort();
        }
    }
}

/// A D-Bus connection that makes method calls (no signals, no objects of
/// its own). Cheap to clone; closes when the last clone is dropped.
#[derive(Debug, Clone)]
pub struct WireConn {
    shared: Arc<Shared>,
    _tasks: Arc<Tasks>,
}

impl WireConn {
    /// Connects and authenticates to the server at `address`. With `bus`,
    /// it is a message bus (the connection says `Hello`); without, a peer
    /// (an application's own socket). Runs until the caller's deadline.
    pub async fn connect(address: &str, bus: bool) -> Result<Self, WireError> {
        let mut stream = match address::parse(address)? {
            UnixAddress::Path(p) => UnixStream::connect(&p)
                .await
                .map_err(|e| WireError::Io(format!("cannot connect to {}: {e}", p.display())))?,
            UnixAddress::Abstract(name) => connect_abstract(&name)?,
        };
        authenticate(&mut stream).await?;
        let (r, w) = stream.into_split();
        let shared = Arc::new(Shared::default());
        let reader = tokio::spawn(read_loop(shared.clone(), r)).abort_handle();
        let writer = tokio::spawn(write_loop(shared.clone(), w)).abort_handle();
        let conn = WireConn {
            shared,
            _tasks: Arc::new(Tasks([reader, writer])),
        };
        if bus {
            conn.call(
                Some("org.freedesktop.DBus"),
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus",
                "Hello",
                "",
                &[],
            )
            .await?;
        }
        Ok(conn)
    }

    /// `true` once the connection has failed or the peer has closed it.
    pub fn is_closed(&self) -> bool {
        self.shared.state().closed.is_some()
    }

    /// Calls `interface.member` on `path` with an encoded body of
    /// `signature` (little-endian, without the outer parentheses of the
    /// argument tuple), and waits for its reply.
    pub async fn call(
        &self,
        destination: Option<&str>,
        path: &str,
        interface: &str,
        member: &str,
        signature: &str,
        body: &[u8],
    ) -> Result<Reply, WireError> {
        let (tx, rx) = oneshot::channel();
        let serial = {
            let mut st = self.shared.state();
            if let Some(why) = &st.closed {
                return Err(WireError::Closed(why.clone()));
            }
            let serial = st.take_serial();
            frame::encode_call(
                &frame::Call {
                    serial,
                    destination,
                    path,
                    interface,
                    member,
                    signature,
                    body,
                },
                &mut st.outbox,
            )?;
            st.pending.insert(serial, tx);
            serial
        };
        tracing::trace!(serial, member, "wire call");
        self.shared.wake_writer.notify_one();
        // A caller that gives up (its deadline passed) takes its waiter
        // out of the map.
        let _forget = Forget {
            shared: &self.shared,
            serial,
        };
        rx.await
            .unwrap_or_else(|_| Err(WireError::Closed("connection closed".to_owned())))
    }

    /// [`WireConn::call`] with the body and the reply as Rust values.
    pub async fn call_typed<B, R>(
        &self,
        destination: Option<&str>,
        path: &str,
        interface: &str,
        member: &str,
        body: &B,
    ) -> Result<R, WireError>
    where
        B: Serialize + DynamicType,
        R: DeserializeOwned + Type,
    {
        let signature = body.signature().to_string();
        let data = zvariant::to_bytes(serialized::Context::new_dbus(zvariant::LE, 0), body)
            .map_err(|e| WireError::Body(e.to_string()))?;
        self.call(
            destination,
            path,
            interface,
            member,
            frame::body_signature(&signature),
            data.bytes(),
        )
        .await?
        .decode()
    }
}

struct Forget<'a> {
    shared: &'a Shared,
    serial: u32,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.shared.state().pending.remove(&self.serial);
    }
}

fn connect_abstract(name: &[u8]) -> Result<UnixStream, WireError> {
    use std::os::linux::net::SocketAddrExt;
    let io = |e: std::io::Error| WireError::Io(format!("abstract socket: {e}"));
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(name).map_err(io)?;
    let std = std::os::unix::net::UnixStream::connect_addr(&addr).map_err(io)?;
    std.set_nonblocking(true).map_err(io)?;
    UnixStream::from_std(std).map_err(io)
}

/// SASL `EXTERNAL` (the server checks our uid on the socket), then `BEGIN`.
async fn authenticate(stream: &mut UnixStream) -> Result<(), WireError> {
    use std::os::unix::fs::MetadataExt;
    let io = |e: std::io::Error| WireError::Io(format!("authentication: {e}"));
    // Our effective uid, which owns /proc/self.
    let hello = match std::fs::metadata("/proc/self") {
        Ok(m) => {
            let hex: String = m
                .uid()
                .to_string()
                .bytes()
                .map(|b| format!("{b:02x}"))
                .collect();
            format!("\0AUTH EXTERNAL {hex}\r\n")
        }
        Err(_) => "\0AUTH EXTERNAL\r\n".to_owned(),
    };
    stream.write_all(hello.as_bytes()).await.map_err(io)?;
    for _ in 0..4 {
        let line = read_line(stream).await?;
        if line.starts_with("OK ") || line == "OK" {
            stream.write_all(b"BEGIN\r\n").await.map_err(io)?;
            return Ok(());
        }
        if line.starts_with("DATA") {
            stream.write_all(b"DATA\r\n").await.map_err(io)?;
            continue;
        }
        return Err(WireError::Auth(format!("the server answered '{line}'")));
    }
    Err(WireError::Auth("no OK after the DATA exchange".to_owned()))
}

/// One `\r\n`-ended line of the authentication exchange (the server sends
/// nothing beyond it before `BEGIN`).
async fn read_line(stream: &mut UnixStream) -> Result<String, WireError> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while !line.ends_with(b"\r\n") {
        if line.len() > 4096 {
            return Err(WireError::Auth("overlong authentication line".to_owned()));
        }
        let n = stream
            .read(&mut byte)
            .await
            .map_err(|e| WireError::Io(format!("authentication: {e}")))?;
        if n == 0 {
            return Err(WireError::Auth(
                "the server closed the connection".to_owned(),
            ));
        }
        line.push(byte[0]);
    }
    line.truncate(line.len() - 2);
    Ok(String::from_utf8_lossy(&line).into_owned())
}

async fn write_loop(shared: Arc<Shared>, mut w: OwnedWriteHalf) {
    let mut buf = Vec::new();
    loop {
        shared.wake_writer.notified().await;
        loop {
            {
                let mut st = shared.state();
                if st.closed.is_some() {
                    return;
                }
                std::mem::swap(&mut st.outbox, &mut buf);
            }
            if buf.is_empty() {
                break;
            }
            tracing::trace!(bytes = buf.len(), "wire write");
            if let Err(e) = w.write_all(&buf).await {
                shared.close(format!("write failed: {e}"));
                return;
            }
            buf.clear();
        }
    }
}

const READ_CHUNK: usize = 64 * 1024;

async fn read_loop(shared: Arc<Shared>, mut r: OwnedReadHalf) {
    let mut buf: Vec<u8> = Vec::with_capacity(READ_CHUNK);
    loop {
        let mut start = 0;
        let mut want = 0;
        loop {
            let rest = &buf[start..];
            match frame::message_len(rest) {
                Err(e) => return shared.close(e.to_string()),
                Ok(Some(n)) if n <= rest.len() => {
                    if let Err(e) = dispatch(&shared, &rest[..n]) {
                        return shared.close(e.to_string());
                    }
                    start += n;
                }
                Ok(Some(n)) => {
                    want = n - rest.len();
                    break;
                }
                Ok(None) => break,
            }
        }
        buf.reserve(want);
        buf.drain(..start);
        if buf.capacity() - buf.len() < READ_CHUNK / 4 {
            buf.reserve(READ_CHUNK);
        }
        match r.read_buf(&mut buf).await {
            Ok(0) => return shared.close("the peer closed the connection".to_owned()),
            Ok(n) => tracing::trace!(bytes = n, "wire read"),
            Err(e) => return shared.close(format!("read failed: {e}")),
        }
    }
}

/// Hands a reply to its caller; answers a method call addressed to us
/// with an error (we serve no objects).
fn dispatch(shared: &Shared, msg: &[u8]) -> Result<(), WireError> {
    let h = frame::parse_header(msg)?;
    match (h.kind, h.reply_serial) {
        (frame::METHOD_RETURN | frame::ERROR, Some(serial)) => {
            tracing::trace!(serial, "wire reply");
            let Some(waiter) = shared.state().pending.remove(&serial) else {
                return Ok(()); // its caller gave up
            };
            let reply = Reply {
                endian: h.endian,
                signature: h.signature,
                body: msg[h.body].to_vec(),
            };
            let result = if h.kind == frame::ERROR {
                Err(WireError::Method {
                    name: h.error_name.unwrap_or_default(),
                    message: reply.error_message(),
                })
            } else {
                Ok(reply)
            };
            let _ = waiter.send(result);
        }
        (frame::METHOD_CALL, _) if h.flags & frame::NO_REPLY_EXPECTED == 0 => {
            let mut st = shared.state();
            let serial = st.take_serial();
            frame::encode_error(
                serial,
                h.serial,
                h.sender.as_deref(),
                "org.freedesktop.DBus.Error.UnknownMethod",
                &mut st.outbox,
            )?;
            drop(st);
            shared.wake_writer.notify_one();
        }
        _ => {} // signals
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(signature: &str, body: Vec<u8>) -> Reply {
        Reply {
            endian: Endian::Little,
            signature: signature.to_owned(),
            body,
        }
    }

    fn encode<T: Serialize + DynamicType>(v: &T) -> Vec<u8> {
        zvariant::to_bytes(serialized::Context::new_dbus(zvariant::LE, 0), v)
            .expect("encodes")
            .bytes()
            .to_vec()
    }

    #[test]
    fn replies_decode_by_signature() {
        let r = reply("(iiii)", encode(&(1i32, 2i32, 3i32, 4i32)));
        assert_eq!(
            r.decode::<(i32, i32, i32, i32)>().expect("decodes"),
            (1, 2, 3, 4)
        );
        // Two arguments read as a tuple.
        let r = reply("ss", encode(&("a", "b")));
        assert_eq!(
            r.decode::<(String, String)>().expect("decodes"),
            ("a".to_owned(), "b".to_owned())
        );
        let r = reply("a(sss)", encode(&vec![("x", "y", "z")]));
        assert_eq!(
            r.decode::<Vec<(String, String, String)>>()
                .expect("decodes")
                .len(),
            1
        );
        let r = reply("", Vec::new());
        r.decode::<()>().expect("an empty reply is ()");
    }

    #[test]
    fn a_reply_of_another_signature_is_an_error() {
        let r = reply("s", encode(&"text"));
        let e = r.decode::<u32>().expect_err("u is not s");
        assert!(e.to_string().contains("'s' where 'u'"), "{e}");
        // A truncated body fails cleanly.
        let r = reply("s", vec![200, 0, 0, 0, b'x']);
        assert!(r.decode::<String>().is_err());
    }
}
