//! Where the browser is: `CUP_CDP_HOST`/`CUP_CDP_PORT` (default
//! 127.0.0.1:9222), a `host:port`, an `http://host:port` URL or the
//! browser's `ws://.../devtools/browser/...` URL; and the discovery of the
//! browser's WebSocket through `GET /json/version`.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use crate::cdp::CdpError;

/// Deadline of the discovery request.
const HTTP_TIMEOUT: Duration = Duration::from_secs(5);

/// The default DevTools port.
pub const DEFAULT_PORT: u16 = 9222;

/// A browser's DevTools endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// The HTTP endpoint (`/json/version` says where the WebSocket is).
    Http {
        /// Host name or address.
        host: String,
        /// Port.
        port: u16,
    },
    /// The browser's WebSocket URL itself.
    WebSocket(String),
}

impl Endpoint {
    /// `CUP_CDP_URL`, else `CUP_CDP_HOST` / `CUP_CDP_PORT`, else
    /// 127.0.0.1:9222.
    ///
    /// # Errors
    ///
    /// When a variable is set to something unusable.
    pub fn from_env() -> Result<Endpoint, String> {
        let var = |n: &str| std::env::var(n).ok().filter(|v| !v.trim().is_empty());
        if let Some(url) = var("CUP_CDP_URL") {
            return Endpoint::parse(&url);
        }
        let host = var("CUP_CDP_HOST").unwrap_or_else(|| "127.0.0.1".into());
        let port = match var("CUP_CDP_PORT") {
            Some(p) => p.trim().parse().map_err(|_| {
                format!("CUP_CDP_PORT={p:?} is not a port number; set it to e.g. 9222")
            })?,
            None => DEFAULT_PORT,
        };
        Ok(Endpoint::Http {
            host: host.trim().to_owned(),
            port,
        })
    }

    /// Parses `9222`, `host:port`, `http://host:port[/...]` or
    /// `ws://host:port/devtools/browser/ID`.
    ///
    /// # Errors
    ///
    /// A one-line reason with an example of what works.
    pub fn parse(text: &str) -> Result<Endpoint, String> {
        let t = text.trim();
        let bad = || {
            format!(
                "{t:?} is not a DevTools address; give a port (9222), host:port, http://host:port or the ws:// URL"
            )
        };
        if t.starts_with("ws://") || t.starts_with("wss://") {
            return Ok(Endpoint::WebSocket(t.to_owned()));
        }
        let rest = t
            .strip_prefix("http://")
            .or_else(|| t.strip_prefix("https://"))
            .unwrap_or(t);
        let authority = rest.split('/').next().unwrap_or_default();
        if let Ok(port) = authority.parse::<u16>() {
            return Ok(Endpoint::Http {
                host: "127.0.0.1".into(),
                port,
            });
        }
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) => (h, p.parse::<u16>().map_err(|_| bad())?),
            None => (authority, DEFAULT_PORT),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() {
            return Err(bad());
        }
        Ok(Endpoint::Http {
            host: host.to_owned(),
            port,
        })
    }

    /// How to name it in messages.
    pub fn describe(&self) -> String {
        match self {
            Endpoint::Http { host, port } => format!("{host}:{port}"),
            Endpoint::WebSocket(url) => url.clone(),
        }
    }

    /// The browser's WebSocket URL (asking `/json/version` for an HTTP
    /// endpoint; its host is replaced by ours, as the browser names itself
    /// by the address it bound).
    ///
    /// # Errors
    ///
    /// [`CdpError::Connect`] when nothing answers or the answer is not
    /// DevTools'.
    pub async fn websocket_url(&self) -> Result<String, CdpError> {
        let (host, port) = match self {
            Endpoint::WebSocket(url) => return Ok(url.clone()),
            Endpoint::Http { host, port } => (host, *port),
        };
        let connect_error = |reason: String| CdpError::Connect {
            url: format!("http://{host}:{port}"),
            reason,
        };
        let body = tokio::time::timeout(HTTP_TIMEOUT, http_get(host, port, "/json/version"))
            .await
            .map_err(|_| connect_error(format!("no answer within {} s", HTTP_TIMEOUT.as_secs())))?
            .map_err(connect_error)?;
        let version: Value = serde_json::from_str(&body)
            .map_err(|e| connect_error(format!("/json/version is not JSON ({e})")))?;
        let ws = version
            .get("webSocketDebuggerUrl")
            .and_then(Value::as_str)
            .ok_or_else(|| connect_error("/json/version has no webSocketDebuggerUrl".into()))?;
        Ok(rewrite_host(ws, host, port))
    }
}

/// `ws://OTHER/devtools/...` → `ws://host:port/devtools/...`.
fn rewrite_host(ws: &str, host: &str, port: u16) -> String {
    let path = ws
        .strip_prefix("ws://")
        .and_then(|r| r.find('/').map(|i| &r[i..]))
        .unwrap_or("/");
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_owned()
    };
    format!("ws://{host}:{port}{path}")
}

/// A minimal HTTP/1.1 GET (DevTools answers with a `Content-Length`
/// body and closes).
async fn http_get(host: &str, port: u16, path: &str) -> Result<String, String> {
    let mut stream = tokio::net::TcpStream::connect((host, port))
        .await
        .map_err(|e| e.to_string())?;
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    // DevTools may keep the connection open: read until the body is as
    // long as its Content-Length says.
    let mut raw = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let n = stream.read(&mut chunk).await.map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&chunk[..n]);
        if raw.len() > 4 << 20 {
            return Err("the answer is too large".into());
        }
        if let Some(end) = find(&raw, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if length.is_some_and(|len| raw.len() >= end + 4 + len) {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or("the answer is not HTTP")?;
    let status = head.lines().next().unwrap_or_default();
    if !status.contains(" 200") {
        return Err(format!("{path} answered {status:?}"));
    }
    Ok(body.to_owned())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse() {
        let http = |h: &str, p| Endpoint::Http {
            host: h.into(),
            port: p,
        };
        assert_eq!(Endpoint::parse("9333"), Ok(http("127.0.0.1", 9333)));
        assert_eq!(
            Endpoint::parse("localhost:9000"),
            Ok(http("localhost", 9000))
        );
        assert_eq!(
            Endpoint::parse("http://10.0.0.2:9222/json"),
            Ok(http("10.0.0.2", 9222))
        );
        assert_eq!(Endpoint::parse("[::1]:9222"), Ok(http("::1", 9222)));
        assert_eq!(Endpoint::parse("example"), Ok(http("example", 9222)));
        assert_eq!(
            Endpoint::parse("ws://127.0.0.1:9222/devtools/browser/abc"),
            Ok(Endpoint::WebSocket(
                "ws://127.0.0.1:9222/devtools/browser/abc".into()
            ))
        );
        assert!(Endpoint::parse("host:port").is_err());
        assert!(Endpoint::parse(":9x").is_err());
    }

    #[test]
    fn websocket_host_is_ours() {
        assert_eq!(
            rewrite_host("ws://0.0.0.0:9222/devtools/browser/x", "10.1.1.1", 9333),
            "ws://10.1.1.1:9333/devtools/browser/x"
        );
        assert_eq!(
            rewrite_host("ws://a/devtools/browser/x", "::1", 9222),
            "ws://[::1]:9222/devtools/browser/x"
        );
    }
}
