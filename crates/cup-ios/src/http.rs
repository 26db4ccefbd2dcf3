//! One HTTP/1.1 exchange on a fresh TCP connection: what WDA's HTTP
//! server needs, no more. The request carries `Host`, `Connection: close`
//! and, with a body, its `Content-Length`; the reply is read by its
//! `Content-Length`, as chunks (`Transfer-Encoding: chunked`), or up to the
//! connection's end. A connection per request keeps a half-dead
//! keep-alive socket (WDA restarted, a port forwarder reconnecting) from
//! ever being reused; on loopback or a USB forward it costs well under a
//! millisecond. Deadlines are the caller's (the whole exchange runs under
//! one `tokio::time::timeout`).

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest reply read (a big app's source or a screenshot is a few MB).
pub const MAX_BODY: usize = 256 * 1024 * 1024;
/// Largest status line and headers read.
const MAX_HEAD: usize = 64 * 1024;

/// A reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// Its status code.
    pub status: u16,
    /// Its body, de-chunked.
    pub body: Vec<u8>,
}

/// Why an exchange failed.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// No connection (refused, no route, unknown host).
    #[error("{0}")]
    Connect(std::io::Error),
    /// The connection broke while sending or reading.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// What came back is not HTTP/1.x, or is cut short.
    #[error("{0}")]
    Malformed(String),
}

/// `host:port` as the `Host` header writes it (IPv6 in brackets).
pub fn authority(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// Sends `method path` (with a JSON `body`) to `host:port` and reads the
/// reply.
///
/// # Errors
///
/// No connection, a broken one, or a reply that is not HTTP.
pub async fn exchange(
    host: &str,
    port: u16,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
) -> Result<Response, HttpError> {
    let mut stream = TcpStream::connect((host, port))
        .await
        .map_err(HttpError::Connect)?;
    // Small requests go out at once (no Nagle delay on loopback).
    stream.set_nodelay(true).ok();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\nUser-Agent: cup-ios\r\nConnection: close\r\n",
        authority(host, port)
    );
    match body {
        Some(b) => head.push_str(&format!(
            "Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n",
            b.len()
        )),
        None if method != "GET" => head.push_str("Content-Length: 0\r\n"),
        None => {}
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    if let Some(b) = body {
        out.extend_from_slice(b);
    }
    stream.write_all(&out).await?;
    stream.flush().await?;
    read_response(&mut stream).await
}

/// How the body of a reply ends.
enum Framing {
    Length(usize),
    Chunked,
    Close,
}

async fn more<R: AsyncRead + Unpin>(r: &mut R, buf: &mut Vec<u8>) -> Result<usize, HttpError> {
    let mut chunk = [0u8; 16 * 1024];
    let n = r.read(&mut chunk).await?;
    buf.extend_from_slice(&chunk[..n]);
    if buf.len() > MAX_BODY + MAX_HEAD {
        return Err(HttpError::Malformed(format!(
            "the reply is larger than {} MB",
            MAX_BODY >> 20
        )));
    }
    Ok(n)
}

fn cut_short() -> HttpError {
    HttpError::Malformed("the connection closed in the middle of the reply".to_owned())
}

/// Reads one reply (status, headers, body) from `r`.
///
/// # Errors
///
/// The bytes are not an HTTP/1.x reply, or end too early.
pub async fn read_response<R: AsyncRead + Unpin>(r: &mut R) -> Result<Response, HttpError> {
    let mut buf = Vec::with_capacity(16 * 1024);
    loop {
        let parsed = {
            let mut headers = [httparse::EMPTY_HEADER; 64];
            let mut resp = httparse::Response::new(&mut headers);
            match resp.parse(&buf) {
                Ok(httparse::Status::Complete(len)) => {
                    let status = resp.code.unwrap_or(0);
                    let mut framing = Framing::Close;
                    for h in resp.headers.iter() {
                        let value = String::from_utf8_lossy(h.value);
                        if h.name.eq_ignore_ascii_case("transfer-encoding")
                            && value.to_ascii_lowercase().contains("chunked")
                        {
                            framing = Framing::Chunked;
                        } else if h.name.eq_ignore_ascii_case("content-length")
                            && !matches!(framing, Framing::Chunked)
                        {
                            let n = value.trim().parse::<usize>().map_err(|_| {
                                HttpError::Malformed(format!("a bad Content-Length: {value}"))
                            })?;
                            framing = Framing::Length(n);
                        }
                    }
                    Some((len, status, framing))
                }
                Ok(httparse::Status::Partial) => None,
                Err(e) => {
                    return Err(HttpError::Malformed(format!(
                        "not an HTTP reply ({e}): {}",
                        String::from_utf8_lossy(&buf[..buf.len().min(40)])
                    )))
                }
            }
        };
        match parsed {
            // An interim reply: the real one follows.
            Some((len, 100..=199, _)) => {
                buf.drain(..len);
            }
            Some((len, status, framing)) => {
                let rest = buf.split_off(len);
                let body = if matches!(status, 204 | 304) {
                    Vec::new()
                } else {
                    read_body(r, rest, framing).await?
                };
                return Ok(Response { status, body });
            }
            None => {
                if buf.len() > MAX_HEAD {
                    return Err(HttpError::Malformed(
                        "the reply's headers never end".to_owned(),
                    ));
                }
                if more(r, &mut buf).await? == 0 {
                    return Err(if buf.is_empty() {
                        HttpError::Malformed("the connection closed without a reply".to_owned())
                    } else {
                        cut_short()
                    });
                }
            }
        }
    }
}

async fn read_body<R: AsyncRead + Unpin>(
    r: &mut R,
    mut buf: Vec<u8>,
    framing: Framing,
) -> Result<Vec<u8>, HttpError> {
    match framing {
        Framing::Length(n) => {
            if n > MAX_BODY {
                return Err(HttpError::Malformed(format!(
                    "the reply is larger than {} MB",
                    MAX_BODY >> 20
                )));
            }
            while buf.len() < n {
                if more(r, &mut buf).await? == 0 {
                    return Err(cut_short());
                }
            }
            buf.truncate(n);
            Ok(buf)
        }
        Framing::Close => {
            while more(r, &mut buf).await? > 0 {}
            Ok(buf)
        }
        Framing::Chunked => read_chunks(r, buf).await,
    }
}

fn find_crlf(b: &[u8]) -> Option<usize> {
    b.windows(2).position(|w| w == b"\r\n")
}

async fn read_chunks<R: AsyncRead + Unpin>(
    r: &mut R,
    mut buf: Vec<u8>,
) -> Result<Vec<u8>, HttpError> {
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let end = loop {
            if let Some(i) = find_crlf(&buf[pos..]) {
                break pos + i;
            }
            if more(r, &mut buf).await? == 0 {
                return Err(cut_short());
            }
        };
        let line = String::from_utf8_lossy(&buf[pos..end]).into_owned();
        let hex = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(hex, 16)
            .map_err(|_| HttpError::Malformed(format!("a bad chunk size: {line}")))?;
        pos = end + 2;
        if size == 0 {
            // Trailers, up to an empty line.
            loop {
                match find_crlf(&buf[pos..]) {
                    Some(0) => return Ok(out),
                    Some(i) => pos += i + 2,
                    None => {
                        if more(r, &mut buf).await? == 0 {
                            // The last CRLF missing is harmless.
                            return Ok(out);
                        }
                    }
                }
            }
        }
        if out.len() + size > MAX_BODY {
            return Err(HttpError::Malformed(format!(
                "the reply is larger than {} MB",
                MAX_BODY >> 20
            )));
        }
        while buf.len() < pos + size + 2 {
            if more(r, &mut buf).await? == 0 {
                return Err(cut_short());
            }
        }
        out.extend_from_slice(&buf[pos..pos + size]);
        pos += size + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn parse(bytes: &[u8]) -> Result<Response, HttpError> {
        let mut r: &[u8] = bytes;
        read_response(&mut r).await
    }

    #[tokio::test]
    async fn lengths_chunks_and_closes() {
        let r = parse(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer: x\r\n\r\nhello+extra")
            .await
            .expect("reply");
        assert_eq!((r.status, r.body.as_slice()), (200, &b"hello"[..]));
        let r = parse(
            b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n4;x=1\r\nWiki\r\n6\r\npedia!\r\n0\r\nX-Trailer: 1\r\n\r\n",
        )
        .await
        .expect("chunked");
        assert_eq!((r.status, r.body.as_slice()), (404, &b"Wikipedia!"[..]));
        let r = parse(b"HTTP/1.0 200 OK\r\n\r\n{\"value\":1}")
            .await
            .expect("to the end");
        assert_eq!(r.body, b"{\"value\":1}");
        let r = parse(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")
            .await
            .expect("after an interim reply");
        assert_eq!((r.status, r.body.len()), (204, 0));
    }

    #[tokio::test]
    async fn broken_replies_are_errors() {
        for bad in [
            &b""[..],
            b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
            b"SSH-2.0-OpenSSH_9.6\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
        ] {
            assert!(
                parse(bad).await.is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        assert_eq!(authority("::1", 8100), "[::1]:8100");
        assert_eq!(authority("localhost", 8100), "localhost:8100");
    }
}
