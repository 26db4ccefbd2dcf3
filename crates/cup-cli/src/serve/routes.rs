//! What `cup serve` answers: `/mcp` (MCP over streamable HTTP, bearer
//! token, at most `--max-sessions` sessions at once), and, without a token
//! and without content, `/healthz` (the process answers), `/readyz` (the
//! desktop answers, false while starting and shutting down) and
//! `/metrics` (Prometheus' text format).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;

use super::Server;
use crate::mcp::http::{json_response, Answer, McpHttp};
use crate::mcp::stdio;

fn text(status: StatusCode, content_type: &'static str, body: String) -> Answer {
    let mut resp = Response::new(
        Full::new(Bytes::from(body))
            .map_err(|e: Infallible| match e {})
            .boxed(),
    );
    *resp.status_mut() = status;
    resp.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static(content_type),
    );
    resp
}

/// A JSON-RPC error answer with `status` (no id: the request is refused
/// before it is read).
fn refuse(status: StatusCode, message: String) -> Answer {
    let answer = stdio::error_answer(serde_json::Value::Null, stdio::INVALID_REQUEST, message);
    json_response(status, &answer)
}

/// A POST that opens a new MCP session (it carries no session id).
fn opens_session<B>(req: &Request<B>) -> bool {
    req.method() == http::Method::POST && !req.headers().contains_key("mcp-session-id")
}

/// Answers one request.
pub async fn handle(
    server: Arc<Server>,
    mcp: McpHttp,
    req: Request<Incoming>,
    peer: SocketAddr,
) -> Answer {
    let path = req.uri().path().to_owned();
    match (req.method(), path.as_str()) {
        (&http::Method::GET, "/healthz") => {
            text(StatusCode::OK, "text/plain; charset=utf-8", "ok\n".into())
        }
        (&http::Method::GET, "/readyz") => {
            if server.ready().await {
                text(
                    StatusCode::OK,
                    "text/plain; charset=utf-8",
                    "ready\n".into(),
                )
            } else {
                text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "text/plain; charset=utf-8",
                    "not ready\n".into(),
                )
            }
        }
        (&http::Method::GET, "/metrics") => text(
            StatusCode::OK,
            "text/plain; version=0.0.4; charset=utf-8",
            server.metrics_text().await,
        ),
        (_, "/mcp") => mcp_request(server, mcp, req, peer).await,
        _ => refuse(
            StatusCode::NOT_FOUND,
            format!("no {path} here: MCP is at /mcp; probes at /healthz, /readyz, /metrics"),
        ),
    }
}

async fn mcp_request(
    server: Arc<Server>,
    mcp: McpHttp,
    req: Request<Incoming>,
    peer: SocketAddr,
) -> Answer {
    if !mcp.authorized(&req) {
        server.metrics.unauthorized();
        return mcp.handle(req, peer).await;
    }
    server.touch();
    if !opens_session(&req) {
        return mcp.handle(req, peer).await;
    }
    if server.stopping() {
        server.metrics.session_refused();
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "this desktop is shutting down; connect to another one".into(),
        );
    }
    let _opening = server.opening.lock().await;
    let Ok(permit) = Arc::clone(&server.slots).try_acquire_owned() else {
        server.metrics.session_refused();
        tracing::info!(%peer, "refused a session: every slot is taken");
        return refuse(
            StatusCode::CONFLICT,
            format!(
                "this desktop already has {} MCP session(s), its limit (--max-sessions {}): one desktop serves one agent, whose sessions share one screen; end the other session (DELETE /mcp) or connect to another desktop",
                server.max_sessions, server.max_sessions
            ),
        );
    };
    // The factory of the session rmcp creates takes the permit; an
    // initialize that fails leaves it here, and it is given back.
    server.offer(permit);
    let answer = mcp.handle(req, peer).await;
    server.take_back_unclaimed();
    answer
}
