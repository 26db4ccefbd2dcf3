//! `cup mcp`: the MCP server on stdio (one client) or streamable HTTP
//! (several clients, bearer token).

use std::process::ExitCode;
use std::sync::Arc;

use cup::Session;

use crate::cli::McpArgs;
use crate::commands::Failure;
use crate::mcp;
use cup_tools::{Profile, SessionMaker};

/// A maker of sessions on the target of the command line (no I/O until a
/// tool needs the session).
pub fn session_maker() -> SessionMaker {
    Box::new(|| {
        crate::platform::adapter()
            .map(Session::new)
            .map_err(|f| f.message)
    })
}

pub fn run(args: &McpArgs) -> Result<ExitCode, Failure> {
    let profile = Profile::parse(&args.tools).map_err(Failure::usage)?;
    if args.list {
        let mut text = String::new();
        for t in cup_tools::catalog::offered(profile) {
            text.push_str(&format!("{:<20} {}\n", t.name, t.description));
        }
        crate::output::print(&text)?;
        return Ok(ExitCode::SUCCESS);
    }
    let runtime = crate::platform::runtime()?;
    match &args.http {
        None => runtime
            .block_on(mcp::serve_stdio(
                crate::platform::toolbox(profile, session_maker()),
                profile,
            ))
            .map_err(Failure::usage)?,
        Some(addr) => {
            let addr: std::net::SocketAddr = addr.parse().map_err(|e| {
                Failure::usage(format!(
                    "--http {addr:?}: {e}; give HOST:PORT, e.g. 127.0.0.1:8765"
                ))
            })?;
            mcp::http::check_bind(&addr, args.token.is_some()).map_err(Failure::usage)?;
            let (token, generated) = match &args.token {
                Some(t) if t.trim().len() >= 8 => (t.trim().to_owned(), false),
                Some(_) => {
                    return Err(Failure::usage(
                        "--token is too short; use at least 8 characters (or omit it to get a generated one)",
                    ))
                }
                None => (mcp::http::generate_token().map_err(Failure::usage)?, true),
            };
            runtime.block_on(async {
                let (listener, bound) = listen(addr).await?;
                // stdout is free with HTTP: say where to connect, machine-readably.
                let mut line = format!("cup mcp: serving http://{bound}/mcp");
                if generated {
                    line.push_str(&format!(" token {token}"));
                }
                crate::output::print(&format!("{line}\n"))?;
                eprintln_ready(&bound, generated);
                let make: Arc<dyn Fn() -> SessionMaker + Send + Sync> = Arc::new(session_maker);
                mcp::http::serve(listener, token, profile, make)
                    .await
                    .map_err(Failure::usage)
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Listens on `addr`: the listener and the address it got.
pub async fn listen(
    addr: std::net::SocketAddr,
) -> Result<(tokio::net::TcpListener, std::net::SocketAddr), Failure> {
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
        Failure::usage(format!(
            "cannot listen on {addr}: {e}; pick another port (0 picks a free one)"
        ))
    })?;
    let bound = listener
        .local_addr()
        .map_err(|e| Failure::usage(format!("cannot read the bound address: {e}")))?;
    Ok((listener, bound))
}

fn eprintln_ready(bound: &std::net::SocketAddr, generated: bool) {
    tracing::info!(
        %bound,
        generated_token = generated,
        "MCP over HTTP: clients send Authorization: Bearer <token>"
    );
}
