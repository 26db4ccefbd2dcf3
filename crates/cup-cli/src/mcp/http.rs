//! Streamable HTTP: rmcp's service behind a bearer-token check, on a
//! hyper listener. Each MCP session (client) gets its own [`CupServer`],
//! hence its own snapshot state. A bind outside loopback needs an explicit
//! token; without `--token` one is generated and printed. A JSON body
//! that is no JSON-RPC message is answered `400` with JSON-RPC's error
//! (`-32700` parse error, `-32600` invalid request).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::{combinators::BoxBody, BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tower_service::Service as _;

use super::stdio::{self, ErrorAnswer};
use super::CupServer;
use cup_tools::{Profile, SessionMaker};

/// Bytes of randomness in a generated token.
const TOKEN_BYTES: usize = 24;

/// A fresh random token (hex) from the system's random source.
pub fn generate_token() -> Result<String, String> {
    use std::io::Read as _;
    let mut buf = [0u8; TOKEN_BYTES];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut buf))
        .map_err(|e| format!("cannot read /dev/urandom for a token: {e}; pass --token"))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether the `Authorization` header carries `token` (constant-time
/// comparison).
fn authorized<B>(req: &Request<B>, token: &str) -> bool {
    let Some(given) = req
        .headers()
        .get(http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    let (a, b) = (given.trim().as_bytes(), token.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn unauthorized() -> Answer {
    let body = Full::new(Bytes::from_static(
        b"{\"error\":\"missing or wrong bearer token; send Authorization: Bearer <token> (printed by cup mcp --http)\"}",
    ))
    .boxed();
    let mut resp = Response::new(body);
    *resp.status_mut() = StatusCode::UNAUTHORIZED;
    resp.headers_mut().insert(
        http::header::WWW_AUTHENTICATE,
        http::HeaderValue::from_static("Bearer"),
    );
    resp.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    resp
}

pub fn json_response(
    status: StatusCode,
    body: &impl serde::Serialize,
) -> Response<BoxBody<Bytes, Infallible>> {
    let text = serde_json::to_vec(body).unwrap_or_default();
    let mut resp = Response::new(Full::new(Bytes::from(text)).boxed());
    *resp.status_mut() = status;
    resp.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    resp
}

/// Why a POST body is no JSON-RPC message, as the answer to give (rmcp
/// would answer `415 Unsupported Media Type` with a bare serde message):
/// `-32700` when it is not JSON (or nested deeper than 128), `-32600` when
/// it is JSON but no message; `None` when it is a message.
pub fn body_error(body: &[u8]) -> Option<ErrorAnswer> {
    let value = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(v) => v,
        Err(e) => {
            return Some(stdio::error_answer(
                serde_json::Value::Null,
                stdio::PARSE_ERROR,
                format!("Parse error: {e}; send one JSON-RPC message as valid JSON (nested at most 128 deep)"),
            ))
        }
    };
    let e = serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(body).err()?;
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned()
        .unwrap_or(serde_json::Value::Null);
    Some(stdio::error_answer(
        id,
        stdio::INVALID_REQUEST,
        format!(
            "Invalid Request: {e}; send a JSON-RPC 2.0 request, notification or response object"
        ),
    ))
}

/// The body of a JSON POST read (up to `max` bytes) and checked: the
/// request rebuilt for rmcp, or the answer to give instead.
async fn checked_post(
    req: Request<Incoming>,
    max: usize,
) -> Result<Request<Full<Bytes>>, Response<BoxBody<Bytes, Infallible>>> {
    let (parts, body) = req.into_parts();
    let bytes = match http_body_util::Limited::new(body, max).collect().await {
        Ok(c) => c.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            let why = format!(
                "Invalid Request: the body is longer than {max} bytes; send smaller requests"
            );
            let answer = stdio::error_answer(serde_json::Value::Null, stdio::INVALID_REQUEST, why);
            return Err(json_response(StatusCode::PAYLOAD_TOO_LARGE, &answer));
        }
        Err(e) => {
            let mut resp = Response::new(
                Full::new(Bytes::from(format!("cannot read the request body: {e}"))).boxed(),
            );
            *resp.status_mut() = StatusCode::BAD_REQUEST;
            return Err(resp);
        }
    };
    if let Some(answer) = body_error(&bytes) {
        tracing::info!(code = answer.error.code, message = %answer.error.message, "refused a POST body");
        return Err(json_response(StatusCode::BAD_REQUEST, &answer));
    }
    Ok(Request::from_parts(parts, Full::new(bytes)))
}

/// `true` for a POST that declares a JSON body (the requests rmcp parses;
/// it answers any other itself).
fn is_json_post<B>(req: &Request<B>) -> bool {
    req.method() == http::Method::POST
        && req
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// Checks that `addr` may be served with the given token: a non-loopback
/// address needs an explicit one.
pub fn check_bind(addr: &SocketAddr, explicit_token: bool) -> Result<(), String> {
    if !addr.ip().is_loopback() && !explicit_token {
        return Err(format!(
            "refusing to serve on {addr} (not loopback) without --token: anyone who reaches it could drive this desktop; pass --token SECRET (and use TLS in front), or bind 127.0.0.1"
        ));
    }
    Ok(())
}

/// An HTTP response with a body of any kind (what rmcp's service answers).
pub type Answer = Response<BoxBody<Bytes, Infallible>>;

/// MCP over streamable HTTP behind the bearer check: rmcp's service, each
/// new MCP session served by a [`CupServer`] from the factory. Shared by
/// `cup mcp --http` ([`serve`]) and `cup serve`, which routes more paths.
#[derive(Clone)]
pub struct McpHttp {
    service: StreamableHttpService<CupServer, LocalSessionManager>,
    token: Arc<str>,
    max_body: usize,
}

impl McpHttp {
    /// The MCP endpoint on `addr` (the Host check is for loopback servers;
    /// elsewhere the token guards access); `keep_alive`: how long a
    /// session without requests lives (rmcp's default: 5 minutes).
    pub fn new(
        addr: &SocketAddr,
        token: String,
        factory: impl Fn() -> Result<CupServer, std::io::Error> + Send + Sync + 'static,
        keep_alive: Option<std::time::Duration>,
    ) -> McpHttp {
        let mut config = StreamableHttpServerConfig::default();
        if !addr.ip().is_loopback() {
            config = config.disable_allowed_hosts();
        }
        let max_body = config.max_request_body_bytes;
        let mut sessions = LocalSessionManager::default();
        if keep_alive.is_some() {
            sessions.session_config.keep_alive = keep_alive;
        }
        McpHttp {
            service: StreamableHttpService::new(factory, Arc::new(sessions), config),
            token: token.into(),
            max_body,
        }
    }

    /// Whether `req` carries the token.
    pub fn authorized<B>(&self, req: &Request<B>) -> bool {
        authorized(req, &self.token)
    }

    /// Answers one request: `401` without the token, JSON-RPC's error for
    /// a body that is no message, else what rmcp answers.
    pub async fn handle(&self, req: Request<Incoming>, peer: SocketAddr) -> Answer {
        if !self.authorized(&req) {
            tracing::info!(%peer, "refused: no or wrong bearer token");
            return unauthorized();
        }
        let mut service = self.service.clone();
        let answer = if is_json_post(&req) {
            match checked_post(req, self.max_body).await {
                Ok(req) => service.call(req).await,
                Err(answer) => Ok(answer),
            }
        } else {
            service.call(req).await
        };
        match answer {
            Ok(a) => a,
            Err(never) => match never {},
        }
    }
}

/// Accepts HTTP/1 connections on `listener` and answers each request with
/// `handler`, until `stop` is cancelled (then no new connection is taken;
/// those open finish on their own).
pub async fn accept<H, F>(
    listener: tokio::net::TcpListener,
    handler: H,
    stop: tokio_util::sync::CancellationToken,
) where
    H: Fn(Request<Incoming>, SocketAddr) -> F + Clone + Send + Sync + 'static,
    F: std::future::Future<Output = Answer> + Send + 'static,
{
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(c) => c,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    continue;
                }
            },
            () = stop.cancelled() => return,
        };
        let handler = handler.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                let answer = handler(req, peer);
                async move { Ok::<_, Infallible>(answer.await) }
            });
            let conn = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = conn.await {
                tracing::debug!(%peer, error = %e, "connection ended");
            }
        });
    }
}

/// Serves MCP over HTTP on `listener` until the process ends (`cup mcp
/// --http`).
pub async fn serve(
    listener: tokio::net::TcpListener,
    token: String,
    profile: Profile,
    make: Arc<dyn Fn() -> SessionMaker + Send + Sync>,
) -> Result<(), String> {
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    let factory = move || {
        Ok(CupServer::new(
            crate::platform::toolbox(profile, make()),
            profile,
            true,
        ))
    };
    let mcp = McpHttp::new(&addr, token, factory, None);
    let handler = move |req: Request<Incoming>, peer: SocketAddr| {
        let mcp = mcp.clone();
        async move { mcp.handle(req, peer).await }
    };
    accept(
        listener,
        handler,
        tokio_util::sync::CancellationToken::new(),
    )
    .await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_must_match_exactly() {
        let req = |h: Option<&str>| {
            let mut b = Request::builder();
            if let Some(h) = h {
                b = b.header("authorization", h);
            }
            b.body(()).unwrap_or_default()
        };
        assert!(authorized(&req(Some("Bearer s3cret")), "s3cret"));
        assert!(!authorized(&req(Some("Bearer s3cre")), "s3cret"));
        assert!(!authorized(&req(Some("s3cret")), "s3cret"));
        assert!(!authorized(&req(None), "s3cret"));
    }

    #[test]
    fn bodies_that_are_no_message_get_json_rpc_errors() {
        let code = |body: &[u8]| body_error(body).map(|a| (a.error.code, a.id));
        assert_eq!(
            code(b"{not json"),
            Some((stdio::PARSE_ERROR, serde_json::Value::Null))
        );
        let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        assert_eq!(
            code(deep.as_bytes()),
            Some((stdio::PARSE_ERROR, serde_json::Value::Null))
        );
        assert_eq!(
            code(br#"{"id": "a", "method": 5}"#),
            Some((stdio::INVALID_REQUEST, serde_json::json!("a")))
        );
        assert_eq!(
            code(b"{\"jsonrpc\": \"2.0\", \"id\": 1,\n \"method\": \"ping\"}"),
            None
        );
    }

    #[test]
    fn non_loopback_binds_need_a_token() {
        let lo: SocketAddr = "127.0.0.1:1"
            .parse()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 1)));
        let any = SocketAddr::from(([0, 0, 0, 0], 1));
        assert!(check_bind(&lo, false).is_ok());
        assert!(check_bind(&any, false).is_err());
        assert!(check_bind(&any, true).is_ok());
        assert_eq!(
            generate_token().map(|t| t.len()).ok(),
            Some(TOKEN_BYTES * 2)
        );
    }
}
