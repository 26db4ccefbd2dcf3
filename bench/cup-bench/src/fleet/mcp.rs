//! A small blocking MCP client over streamable HTTP (one TCP connection
//! per request, `Connection: close`): initialize, call a tool, end the
//! session. Enough to drive a fleet of `cup serve` desktops from plain
//! threads and time every call; answers may come as JSON or as an SSE
//! stream, chunked or not.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use serde_json::{json, Value};

/// The protocol version the client asks for.
const PROTOCOL: &str = "2025-06-18";

/// An HTTP answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC message answering request `id`: the body itself
    /// (`application/json`) or the SSE event that carries it.
    pub fn message(&self, id: u64) -> Option<Value> {
        let text = String::from_utf8_lossy(&self.body);
        let is_sse = self
            .header("content-type")
            .is_some_and(|c| c.starts_with("text/event-stream"));
        if !is_sse {
            return serde_json::from_str(&text).ok();
        }
        sse_data(&text)
            .into_iter()
            .filter_map(|d| serde_json::from_str::<Value>(&d).ok())
            .find(|m| m.get("id").and_then(Value::as_u64) == Some(id))
    }
}

/// The `data` of each event of an SSE stream (multi-line data joined).
pub fn sse_data(stream: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut data: Vec<&str> = Vec::new();
    for line in stream.lines().chain(std::iter::once("")) {
        if line.is_empty() {
            if !data.is_empty() {
                out.push(data.join("\n"));
                data.clear();
            }
        } else if let Some(d) = line.strip_prefix("data:") {
            data.push(d.strip_prefix(' ').unwrap_or(d));
        }
    }
    out
}

/// A chunked body decoded (`None` when the chunks are cut short).
pub fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = body.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&body[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        body = &body[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(body.get(..size)?);
        body = body.get(size + 2..)?;
    }
}

/// Parses a whole HTTP/1.1 response.
pub fn parse_response(raw: &[u8]) -> Option<Answer> {
    let head_end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..head_end]).ok()?;
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            Some((k.trim().to_owned(), v.trim().to_owned()))
        })
        .collect();
    let mut answer = Answer {
        status,
        headers,
        body: raw[head_end + 4..].to_vec(),
    };
    if answer
        .header("transfer-encoding")
        .is_some_and(|t| t.eq_ignore_ascii_case("chunked"))
    {
        answer.body = dechunk(&answer.body)?;
    }
    Some(answer)
}

/// One request to `addr`: method, path, headers, body; the whole answer.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
    timeout: Duration,
) -> Result<Answer, String> {
    let mut stream =
        TcpStream::connect_timeout(&addr, timeout).map_err(|e| format!("connect {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| e.to_string())?;
    let mut text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        text.push_str(&format!("{k}: {v}\r\n"));
    }
    text.push_str("\r\n");
    text.push_str(body);
    stream
        .write_all(text.as_bytes())
        .map_err(|e| format!("send to {addr}: {e}"))?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .map_err(|e| format!("read from {addr}: {e}"))?;
    parse_response(&raw).ok_or_else(|| format!("no HTTP answer from {addr}"))
}

/// One MCP session.
#[derive(Debug)]
pub struct Client {
    addr: SocketAddr,
    token: String,
    session: Option<String>,
    next_id: u64,
    timeout: Duration,
}

impl Client {
    pub fn new(addr: SocketAddr, token: &str, timeout: Duration) -> Client {
        Client {
            addr,
            token: token.to_owned(),
            session: None,
            next_id: 1,
            timeout,
        }
    }

    fn post(&self, body: &Value) -> Result<Answer, String> {
        let auth = format!("Bearer {}", self.token);
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("Authorization", auth.as_str()),
        ];
        if let Some(s) = &self.session {
            headers.push(("Mcp-Session-Id", s.as_str()));
            headers.push(("MCP-Protocol-Version", PROTOCOL));
        }
        request(
            self.addr,
            "POST",
            "/mcp",
            &headers,
            &body.to_string(),
            self.timeout,
        )
    }

    /// `initialize` and `notifications/initialized`: the HTTP status of the
    /// initialize (200 when a session was opened).
    pub fn initialize(&mut self) -> Result<u16, String> {
        let id = self.next_id;
        self.next_id += 1;
        let answer = self.post(&json!({
            "jsonrpc": "2.0", "id": id, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                       "clientInfo": {"name": "cup-fleet", "version": "1"}}
        }))?;
        if answer.status != 200 {
            return Ok(answer.status);
        }
        self.session = answer.header("mcp-session-id").map(str::to_owned);
        if self.session.is_none() {
            return Err("the initialize answer has no Mcp-Session-Id".into());
        }
        let done = self.post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        if !(200..300).contains(&done.status) {
            return Err(format!("notifications/initialized: HTTP {}", done.status));
        }
        Ok(200)
    }

    /// Calls `tool`: whether the result is an error result, and its text;
    /// `Err` when no result came.
    pub fn call(&mut self, tool: &str, args: Value) -> Result<(bool, String), String> {
        let id = self.next_id;
        self.next_id += 1;
        let answer = self.post(&json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": args}
        }))?;
        if answer.status != 200 {
            return Err(format!("{tool}: HTTP {}", answer.status));
        }
        let message = answer
            .message(id)
            .ok_or_else(|| format!("{tool}: no answer to request {id}"))?;
        if let Some(e) = message.get("error") {
            return Err(format!("{tool}: {e}"));
        }
        let result = message.get("result").cloned().unwrap_or(Value::Null);
        let text: String = result
            .get("content")
            .and_then(Value::as_array)
            .map(|blocks| {
                blocks
                    .iter()
                    .filter_map(|b| b.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        let is_error = result.get("isError").and_then(Value::as_bool) == Some(true);
        Ok((is_error, text))
    }

    /// Ends the session (`DELETE /mcp`).
    pub fn close(&mut self) -> Result<u16, String> {
        let Some(session) = self.session.take() else {
            return Ok(0);
        };
        let auth = format!("Bearer {}", self.token);
        let answer = request(
            self.addr,
            "DELETE",
            "/mcp",
            &[
                ("Authorization", auth.as_str()),
                ("Mcp-Session-Id", session.as_str()),
                ("MCP-Protocol-Version", PROTOCOL),
            ],
            "",
            self.timeout,
        )?;
        Ok(answer.status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_sse_answers_are_read() {
        let events = "id: 0\nretry: 3000\ndata: \n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n\n";
        let chunked = format!("{:x}\r\n{events}\r\n0\r\n\r\n", events.len());
        let raw = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\nmcp-session-id: abc\r\n\r\n{chunked}"
        );
        let a = parse_response(raw.as_bytes()).unwrap_or_else(|| panic!("unparsed"));
        assert_eq!(a.status, 200);
        assert_eq!(a.header("Mcp-Session-Id"), Some("abc"));
        assert_eq!(
            a.message(2).and_then(|m| m.get("id").cloned()),
            Some(json!(2))
        );
        assert_eq!(a.message(3), None);
        assert_eq!(dechunk(b"5\r\nabc"), None);
        assert_eq!(sse_data("data: a\ndata: b\n\ndata: c"), ["a\nb", "c"]);
    }
}
