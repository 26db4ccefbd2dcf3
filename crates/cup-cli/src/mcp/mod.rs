//! The MCP server: the [`cup_tools`] over the official Rust MCP SDK
//! (rmcp), on stdio or streamable HTTP ([`http`]). One [`CupServer`] per
//! client: each has its own session (snapshot, ids, zoom). Nothing touches
//! the desktop or the browser before the first tool call, so `initialize`
//! is answered at once.

pub mod http;
pub mod stdio;

use std::borrow::Cow;
use std::sync::Arc;

use base64::Engine as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use tokio::sync::Mutex;

use cup_tools::{Block, Output, Profile, Toolbox};

/// What the server tells the agent once (shared conventions live here,
/// not in every tool description).
const INSTRUCTIONS: &str = "cup: see and act on the desktop or a browser page through its accessibility tree (CUP).\n\
Workflow: snapshot (or get_window_state) -> act on ids with action/click/type_text/set_value -> snapshot again after the UI changed. Ids come from the latest snapshot and go stale after the next one; a stale id is refused with advice.\n\
Every acting tool reports the effect cup observed: confirmed (with the changes), no_change, or unverified. observe:true also returns the snapshot lines that changed.\n\
Coordinates are screen pixels, the same as snapshot bounds (web: the page viewport's). Modifiers: ctrl, shift, alt, super.";

/// Told of every tool call a server answers (`cup serve`'s metrics).
pub trait CallObserver: Send + Sync + std::fmt::Debug {
    /// A call of `tool` starts.
    fn started(&self, tool: &str);
    /// It ended: `outcome` is `ok`, `error` (an error result) or
    /// `cancelled` (the client or the server gave up on it); `elapsed`
    /// includes the wait for the client's previous call.
    fn finished(&self, tool: &str, outcome: &'static str, elapsed: std::time::Duration);
}

/// Tells the observer that a call ended, also when its future is dropped
/// half-way (`cancelled`).
struct Timing<'a> {
    observer: &'a dyn CallObserver,
    tool: &'a str,
    started: std::time::Instant,
    outcome: &'static str,
}

impl Drop for Timing<'_> {
    fn drop(&mut self) {
        self.observer
            .finished(self.tool, self.outcome, self.started.elapsed());
    }
}

/// The MCP server of one client.
#[derive(Debug, Clone)]
pub struct CupServer {
    tools: Arc<Mutex<Toolbox>>,
    listed: Arc<Vec<Tool>>,
    versions: &'static [ProtocolVersion],
    observer: Option<Arc<dyn CallObserver>>,
    /// Held while the session lives (`cup serve`'s session slots): dropped
    /// with the last clone of the server, when rmcp ends the session.
    _held: Option<Arc<dyn std::fmt::Debug + Send + Sync>>,
}

/// The tool list of `profile` as MCP tools.
pub fn mcp_tools(profile: Profile) -> Vec<Tool> {
    cup_tools::catalog::offered(profile)
        .into_iter()
        .map(|spec| {
            let mut tool = Tool::new(spec.name, spec.description, spec.schema);
            let mut hints = ToolAnnotations::new();
            hints.read_only_hint = Some(spec.read_only);
            if !spec.read_only {
                hints.destructive_hint = Some(false);
            }
            tool.annotations = Some(hints);
            tool
        })
        .collect()
}

impl CupServer {
    /// A server for one client over `toolbox`. `sessions` keeps to the
    /// protocol versions that have sessions (HTTP: the state of a client
    /// lives in its MCP session).
    pub fn new(toolbox: Toolbox, profile: Profile, sessions: bool) -> CupServer {
        CupServer {
            tools: Arc::new(Mutex::new(toolbox)),
            listed: Arc::new(mcp_tools(profile)),
            versions: if sessions {
                ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25)
            } else {
                ProtocolVersion::KNOWN_VERSIONS
            },
            observer: None,
            _held: None,
        }
    }

    /// Tells `observer` of every tool call.
    #[cfg(target_os = "linux")]
    #[must_use]
    pub fn observed(mut self, observer: Arc<dyn CallObserver>) -> CupServer {
        self.observer = Some(observer);
        self
    }

    /// Keeps `value` alive as long as this session.
    #[cfg(target_os = "linux")]
    #[must_use]
    pub fn holding(mut self, value: Arc<dyn std::fmt::Debug + Send + Sync>) -> CupServer {
        self._held = Some(value);
        self
    }
}

/// An [`Output`] as an MCP tool result.
pub fn to_result(out: Output) -> CallToolResult {
    let content: Vec<ContentBlock> = out
        .blocks
        .into_iter()
        .map(|b| match b {
            Block::Text(t) => ContentBlock::text(t),
            Block::Png(png) => ContentBlock::image(
                base64::engine::general_purpose::STANDARD.encode(png),
                "image/png",
            ),
        })
        .collect();
    let mut result = if out.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    result.structured_content = out.structured;
    result
}

impl ServerHandler for CupServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("cup", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(self.versions)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(
            self.listed.as_ref().clone(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.map(serde_json::Value::Object);
        let mut timing = self.observer.as_deref().map(|observer| {
            observer.started(&request.name);
            Timing {
                observer,
                tool: &request.name,
                started: std::time::Instant::now(),
                outcome: "cancelled",
            }
        });
        let out = self.tools.lock().await.call(&request.name, args).await;
        if let Some(t) = &mut timing {
            t.outcome = if out.is_error { "error" } else { "ok" };
        }
        drop(timing);
        Ok(to_result(out).into())
    }
}

/// Serves one client on stdin/stdout until it disconnects; a line that is
/// not a JSON-RPC message is answered with an error ([`stdio`]).
pub async fn serve_stdio(toolbox: Toolbox, profile: Profile) -> Result<(), String> {
    use rmcp::ServiceExt as _;
    let server = CupServer::new(toolbox, profile, false);
    let (read, write) = rmcp::transport::stdio();
    let running = server
        .serve(stdio::LineTransport::new(read, write))
        .await
        .map_err(|e| format!("MCP handshake on stdio failed: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| format!("the MCP server stopped: {e}"))?;
    Ok(())
}
