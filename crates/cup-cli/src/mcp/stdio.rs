//! The stdio transport: newline-delimited JSON-RPC, as rmcp's own, except
//! that a line that is not a message gets an answer. rmcp drops a line it
//! cannot parse without a word (a client that sent `{not json` waits for
//! ever); here it gets JSON-RPC's parse error (`-32700`, id null), JSON
//! that is no message gets `-32600`, and the server keeps serving.
//!
//! A reader task cuts standard input into lines (at most rmcp's 16 MiB
//! each), decodes them with rmcp's codec (the same compatibility rules:
//! a BOM, `\r\n`, notifications of other protocols ignored) and hands the
//! messages over a channel, so [`Transport::receive`] stays cancel-safe.
//! Every frame, rmcp's or an error answer, is written whole under one lock:
//! frames never interleave.

use std::io;
use std::sync::Arc;

use bytes::BytesMut;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::{JsonRpcMessageCodec, DEFAULT_MAX_LINE_LENGTH};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde_json::Value;
use tokio::io::{
    AsyncBufReadExt as _, AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _,
};
use tokio::sync::{mpsc, Mutex};
use tokio_util::codec::Decoder as _;

/// Messages read ahead of the server.
const AHEAD: usize = 16;

/// JSON-RPC's code for input that is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for JSON that is not a valid message.
pub const INVALID_REQUEST: i64 = -32600;

type Out<W> = Arc<Mutex<Option<W>>>;

/// What one line of input is.
#[derive(Debug)]
pub enum Line {
    /// A message for the server.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Nothing to do (a blank line, another protocol's notification).
    Skip,
    /// Not a message: this answer goes back.
    Answer(ErrorAnswer),
}

/// A JSON-RPC error response, its members in the usual order.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ErrorAnswer {
    jsonrpc: &'static str,
    /// The request's id; null when it cannot be read.
    pub id: Value,
    /// Code and message.
    pub error: ErrorBody,
}

/// The `error` member of an [`ErrorAnswer`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ErrorBody {
    /// [`PARSE_ERROR`] or [`INVALID_REQUEST`].
    pub code: i64,
    /// What was wrong and what to send instead (one line).
    pub message: String,
}

/// A JSON-RPC error response with `id` (null when it cannot be read).
pub fn error_answer(id: Value, code: i64, message: String) -> ErrorAnswer {
    ErrorAnswer {
        jsonrpc: "2.0",
        id,
        error: ErrorBody { code, message },
    }
}

/// Reads one line (without its `\n`).
pub fn classify(line: &[u8]) -> Line {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Skip;
    }
    let mut buf = BytesMut::with_capacity(line.len() + 1);
    buf.extend_from_slice(line);
    buf.extend_from_slice(b"\n");
    let mut codec = JsonRpcMessageCodec::<RxJsonRpcMessage<RoleServer>>::default();
    let typed = match codec.decode(&mut buf) {
        Ok(Some(message)) => return Line::Message(Box::new(message)),
        Ok(None) => return Line::Skip,
        Err(e) => e,
    };
    let text = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    match serde_json::from_slice::<Value>(text) {
        Err(e) => Line::Answer(error_answer(
            Value::Null,
            PARSE_ERROR,
            format!(
                "Parse error: {e}; send each JSON-RPC message as one line of valid JSON (nested at most 128 deep)"
            ),
        )),
        Ok(value) => {
            let id = value
                .get("id")
                .filter(|id| id.is_string() || id.is_number())
                .cloned()
                .unwrap_or(Value::Null);
            let why = typed.to_string();
            let why = why.strip_prefix("serde error ").unwrap_or(&why);
            Line::Answer(error_answer(
                id,
                INVALID_REQUEST,
                format!(
                    "Invalid Request: {why}; send a JSON-RPC 2.0 request, notification or response object"
                ),
            ))
        }
    }
}

/// Writes `frame` (one line) whole, or fails when the transport is closed.
async fn write_frame<W: AsyncWrite + Unpin>(out: &Out<W>, frame: &[u8]) -> io::Result<()> {
    let mut out = out.lock().await;
    let Some(w) = out.as_mut() else {
        return Err(io::Error::new(
            io::ErrorKind::NotConnected,
            "the transport is closed",
        ));
    };
    w.write_all(frame).await?;
    w.flush().await
}

fn frame_of(value: &impl serde::Serialize) -> io::Result<Vec<u8>> {
    let mut frame = serde_json::to_vec(value)?;
    frame.push(b'\n');
    Ok(frame)
}

/// The transport of one client on `read` and `write` (standard input and
/// output).
#[derive(Debug)]
pub struct LineTransport<W> {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    out: Out<W>,
    reader: tokio::task::JoinHandle<()>,
}

impl<W: AsyncWrite + Unpin + Send + 'static> LineTransport<W> {
    /// Starts reading `read`; answers and messages go to `write`.
    pub fn new<R: AsyncRead + Unpin + Send + 'static>(read: R, write: W) -> Self {
        let out: Out<W> = Arc::new(Mutex::new(Some(write)));
        let (tx, incoming) = mpsc::channel(AHEAD);
        let reader = tokio::spawn(read_lines(read, tx, Arc::clone(&out)));
        LineTransport {
            incoming,
            out,
            reader,
        }
    }
}

/// Cuts `read` into lines until it ends (or the server stops listening).
async fn read_lines<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(
    read: R,
    tx: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    out: Out<W>,
) {
    let mut read = tokio::io::BufReader::new(read);
    let limit = u64::try_from(DEFAULT_MAX_LINE_LENGTH)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = match (&mut read).take(limit).read_until(b'\n', &mut line).await {
            Ok(n) => n,
            Err(e) => {
                tracing::error!(error = %e, "cannot read standard input");
                return;
            }
        };
        if n == 0 {
            return;
        }
        let answer = if line.last() != Some(&b'\n') && line.len() as u64 >= limit {
            // Too long: drop the rest of the line too.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                match (&mut read).take(1 << 16).read_until(b'\n', &mut rest).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) if rest.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
            tracing::warn!(
                limit = DEFAULT_MAX_LINE_LENGTH,
                "dropped an oversized message"
            );
            Line::Answer(error_answer(
                Value::Null,
                PARSE_ERROR,
                format!(
                    "Parse error: the message is longer than {DEFAULT_MAX_LINE_LENGTH} bytes and was dropped; send smaller messages"
                ),
            ))
        } else {
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            classify(text.strip_suffix(b"\r").unwrap_or(text))
        };
        match answer {
            Line::Message(m) => {
                if tx.send(*m).await.is_err() {
                    return;
                }
            }
            Line::Skip => {}
            Line::Answer(a) => {
                tracing::info!(
                    code = a.error.code,
                    message = %a.error.message,
                    "answered a line that is not a message"
                );
                let sent = match frame_of(&a) {
                    Ok(frame) => write_frame(&out, &frame).await,
                    Err(e) => Err(e),
                };
                if let Err(e) = sent {
                    tracing::error!(error = %e, "cannot answer on standard output");
                    return;
                }
            }
        }
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> Transport<RoleServer> for LineTransport<W> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), io::Error>> + Send + 'static {
        let out = Arc::clone(&self.out);
        async move { write_frame(&out, &frame_of(&item)?).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.reader.abort();
        if let Some(mut w) = self.out.lock().await.take() {
            w.flush().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(line: &[u8]) -> Value {
        match classify(line) {
            Line::Answer(a) => serde_json::to_value(a).unwrap_or_default(),
            other => panic!(
                "{} is not answered: {other:?}",
                String::from_utf8_lossy(line)
            ),
        }
    }

    #[test]
    fn lines_that_are_not_json_get_a_parse_error_with_a_null_id() {
        for line in [
            b"{not json".to_vec(),
            format!("{}{}", "[".repeat(5000), "]".repeat(5000)).into_bytes(),
            b"\xff\xfe".to_vec(),
        ] {
            let a = answer(&line);
            assert_eq!(a["jsonrpc"], json!("2.0"));
            assert_eq!(a["id"], Value::Null, "{a}");
            assert_eq!(a["error"]["code"], json!(PARSE_ERROR), "{a}");
            let msg = a["error"]["message"].as_str().unwrap_or_default();
            assert!(
                msg.starts_with("Parse error: ") && !msg.contains('\n'),
                "{msg}"
            );
        }
    }

    #[test]
    fn json_that_is_no_message_is_an_invalid_request_with_its_id() {
        let a = answer(br#"{"jsonrpc":"2.0","id":7,"result":"#.as_slice());
        assert_eq!(a["error"]["code"], json!(PARSE_ERROR), "{a}");
        let a = answer(b"[1, 2]");
        assert_eq!(a["error"]["code"], json!(INVALID_REQUEST), "{a}");
        assert_eq!(a["id"], Value::Null, "{a}");
        let a = answer(br#"{"id": 7, "method": 5}"#);
        assert_eq!(a["error"]["code"], json!(INVALID_REQUEST), "{a}");
        assert_eq!(a["id"], json!(7), "{a}");
    }

    #[test]
    fn messages_pass_and_blank_lines_are_skipped() {
        let init = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        assert!(matches!(classify(init), Line::Message(_)));
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(init);
        assert!(matches!(classify(&bom), Line::Message(_)));
        assert!(matches!(classify(b"  "), Line::Skip));
        assert!(matches!(classify(b""), Line::Skip));
    }

    #[tokio::test]
    async fn the_transport_answers_bad_lines_and_passes_good_ones_in_order() {
        let (mut client, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, mut from_server) = tokio::io::duplex(1 << 20);
        let mut t = LineTransport::new(server_in, server_out);
        let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        let input = format!(
            "{{not json\n{deep}\r\n{}\n",
            r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#
        );
        client
            .write_all(input.as_bytes())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let got = t.receive().await;
        assert!(got.is_some(), "the valid line after two bad ones");
        drop(client);
        assert!(t.receive().await.is_none(), "input ended");
        t.close().await.unwrap_or_else(|e| panic!("{e}"));
        let mut text = String::new();
        from_server
            .read_to_string(&mut text)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let answers: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
            .collect();
        assert_eq!(answers.len(), 2, "{text}");
        assert!(
            text.starts_with(
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: "#
            ),
            "{text}"
        );
        for a in answers {
            assert_eq!(a["error"]["code"], json!(PARSE_ERROR), "{a}");
            assert_eq!(a["id"], Value::Null, "{a}");
        }
    }
}
