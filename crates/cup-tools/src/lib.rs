//! The tools an agent calls (over MCP, or `cup call` in-process): the CUP
//! tools and the driver tools over one [`cup::Session`]. This layer knows
//! nothing of MCP: a call is a name and JSON arguments, a result is text
//! and image blocks, optional structured content, and an error flag.
//!
//! ## Layout
//!
//! - `catalog` (names, descriptions, input schemas), `args` (arguments with
//!   one-line errors), `results` (how results read).
//! - The tools: `cup_tools` (snapshot, find, page, wait, actions),
//!   `driver_tools` (window state, pointer input, screenshots), `visual`
//!   (agent cursor, highlight, marks), `config` (settings), `recording/`
//!   (trajectories and replay).
//! - `target` (which UI a front end acts on), `bindings/` (what the Python and
//!   Node bindings share).
//! - Page scripting (`page` with an `action`) goes through the
//!   [`cup::page::PageScripting`] that the front end makes
//!   ([`Toolbox::set_page_scripting`]).

pub mod args;
pub mod bindings;
pub mod catalog;
pub mod config;
mod cup_tools;
mod driver_tools;
pub mod recording;
pub mod results;
pub mod target;
pub mod visual;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::time::{Duration, Instant};

use cup::page::PageScripting;
use cup::{Point, Session, SnapshotRequest};
use serde_json::{json, Value};

pub use args::{Args, ToolError};
pub use catalog::{Profile, ToolSpec};
pub use target::Target;

/// Longest a tool call may take; past it the call fails (the server keeps
/// serving).
pub const CALL_DEADLINE: Duration = Duration::from_secs(90);

/// One block of a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// Text (compact CUP, a result line, JSON).
    Text(String),
    /// A PNG image.
    Png(Vec<u8>),
}

/// A tool's result.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Output {
    /// Content blocks, in order.
    pub blocks: Vec<Block>,
    /// Machine-readable result (action effects).
    pub structured: Option<Value>,
    /// The call failed; the text says why and what to do.
    pub is_error: bool,
}

impl Output {
    /// A text result.
    pub fn text(text: impl Into<String>) -> Output {
        Output {
            blocks: vec![Block::Text(text.into())],
            ..Output::default()
        }
    }

    /// A PNG image followed by a line about it.
    pub fn image(png: Vec<u8>, note: String) -> Output {
        Output {
            blocks: vec![Block::Png(png), Block::Text(note)],
            ..Output::default()
        }
    }

    /// An error result.
    pub fn error(message: impl Into<String>) -> Output {
        Output {
            blocks: vec![Block::Text(message.into())],
            structured: None,
            is_error: true,
        }
    }
}

/// Makes the session on first use (no adapter work before the first call).
pub type SessionMaker = Box<dyn Fn() -> Result<Session, String> + Send + Sync>;

/// Makes the page scripting (`page` with an `action`) when it is first
/// needed: the front end makes it (the cup binary: the web adapter of the
/// browser it targets); this layer only holds a [`PageScripting`].
pub type PageScriptingMaker = Box<dyn Fn() -> Result<Box<dyn PageScripting>, String> + Send + Sync>;

/// What a toolbox without a [`PageScriptingMaker`] says to `page` with an
/// `action`.
const NO_PAGE_SCRIPTING: &str =
    "page: this front end has no browser for page scripting (execute_javascript, get_text, query_dom)";

/// A session with the tools over it: one per MCP client.
pub struct Toolbox {
    profile: Profile,
    make: SessionMaker,
    session: Option<Session>,
    /// Page scripting, once made.
    scripting: Option<Box<dyn PageScripting>>,
    /// Makes it.
    make_scripting: PageScriptingMaker,
    /// Top-left of the last zoom image on the screen.
    zoom: Option<Point>,
    /// Where acting calls are recorded (`set_recording`), if they are.
    recording: Option<PathBuf>,
    /// The persistent settings, read anew at every call.
    config: config::Config,
    /// Why the config file could not be read at this call, if it could not.
    config_problem: Option<String>,
    /// The agent cursor, once drawn or asked about.
    cursor: Option<std::sync::Arc<cup_draw::AgentCursor>>,
    /// One call in a process of its own (`cup call`): no cursor unless
    /// asked.
    one_shot: bool,
    /// `--agent-cursor`: draw the cursor whatever the settings say.
    cursor_asked: bool,
}

impl std::fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox")
            .field("profile", &self.profile)
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

impl Toolbox {
    /// Tools of `profile` over the session `make` creates when first needed.
    pub fn new(profile: Profile, make: SessionMaker) -> Toolbox {
        Toolbox {
            profile,
            make,
            session: None,
            scripting: None,
            make_scripting: Box::new(|| Err(NO_PAGE_SCRIPTING.to_owned())),
            zoom: None,
            recording: None,
            config: config::Config::default(),
            config_problem: None,
            cursor: None,
            one_shot: false,
            cursor_asked: false,
        }
    }

    /// How page scripting is made when `page` first needs it (default:
    /// none; `page` with an `action` then says so).
    pub fn set_page_scripting(&mut self, make: PageScriptingMaker) {
        self.make_scripting = make;
    }

    /// Marks this toolbox as a one-shot `cup call`: the agent cursor is off
    /// unless `agent_cursor` asks for it.
    pub fn set_one_shot(&mut self, agent_cursor: bool) {
        self.one_shot = true;
        self.cursor_asked = agent_cursor;
    }

    /// The settings in effect.
    pub fn config(&self) -> &config::Config {
        &self.config
    }

    /// The snapshot request every tool starts from (the configured
    /// defaults).
    pub fn base_request(&self) -> SnapshotRequest {
        self.config.request()
    }

    /// Reads the config file again (another server or `cup call` may have
    /// changed it); an unreadable one gives the defaults, and says so in
    /// the log and in `get_config`.
    fn reload_config(&mut self) {
        match config::load(&config::path()) {
            Ok(c) => {
                self.config = c.unwrap_or_default();
                self.config_problem = None;
            }
            Err(e) => {
                tracing::warn!(error = %e, "config unreadable; using the defaults");
                self.config = config::Config::default();
                self.config_problem = Some(e);
            }
        }
    }

    /// The directory acting calls are recorded into, if any.
    pub fn recording(&self) -> Option<&Path> {
        self.recording.as_deref()
    }

    /// Records acting calls into `dir` from now on (`None`: stops), e.g.
    /// as an earlier `cup call` left it.
    pub fn set_recording(&mut self, dir: Option<PathBuf>) {
        self.recording = dir;
    }

    /// The tools offered.
    pub fn specs(&self) -> Vec<ToolSpec> {
        catalog::offered(self.profile)
    }

    /// The session (made now if needed).
    pub fn session(&mut self) -> Result<&mut Session, ToolError> {
        if self.session.is_none() {
            let s = (self.make)().map_err(ToolError)?;
            self.session = Some(s);
        }
        self.session
            .as_mut()
            .ok_or_else(|| ToolError("no session".into()))
    }

    /// Top-left of the last zoom image (for `from_zoom`).
    pub fn zoom_origin(&self) -> Option<Point> {
        self.zoom
    }

    /// Restores the zoom origin of an earlier process (`cup call`).
    pub fn set_zoom_origin(&mut self, origin: Option<Point>) {
        self.zoom = origin;
    }

    /// The session, if one was made.
    pub fn existing_session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// Page scripting (made now if needed).
    fn page_scripting(&mut self) -> Result<&dyn PageScripting, ToolError> {
        if self.scripting.is_none() {
            self.scripting = Some((self.make_scripting)().map_err(ToolError)?);
        }
        self.scripting
            .as_deref()
            .ok_or_else(|| ToolError("no browser".into()))
    }

    /// Which tool `name` calls, if this server offers it (Gen-1 names
    /// included).
    pub fn resolve(&self, name: &str) -> Option<&'static str> {
        if let Some(t) = catalog::spec(name).filter(|t| self.profile.offers(t.group)) {
            return Some(t.name);
        }
        let target = match catalog::canonical(name) {
            n if n != name => n,
            // Gen-1 launch_app on a server without the driver tools.
            _ if name == "launch_app" => "open_app",
            _ => return None,
        };
        catalog::spec(target).map(|t| t.name)
    }

    /// Calls tool `name` with `args`; never fails: errors are results with
    /// `is_error` set.
    pub async fn call(&mut self, name: &str, args: Option<Value>) -> Output {
        let Some(tool) = self.resolve(name) else {
            let names: Vec<&str> = self.specs().iter().map(|t| t.name).collect();
            return Output::error(format!(
                "unknown tool {name:?}; this server offers: {}",
                names.join(", ")
            ));
        };
        self.reload_config();
        let spec = catalog::spec(tool);
        let recorded = self.recording.is_some()
            && spec
                .as_ref()
                .is_some_and(|s| recording::records(tool, s.read_only));
        // What the recorder needs of the call, before it runs.
        let raw = if recorded {
            Some(args.clone().unwrap_or_else(|| json!({})))
        } else {
            None
        };
        let args = match Args::new(tool, args) {
            Ok(a) => a,
            Err(e) => return Output::error(e.0),
        };
        if let Some(spec) = &spec {
            if let Err(e) = args.check_schema(&spec.schema) {
                return Output::error(e.0);
            }
        }
        let pending = raw.map(|raw| recording::Pending::before(self, tool, raw, &args));
        let started = Instant::now();
        let run = self.dispatch(tool, &args);
        // A replay's calls each have the deadline; the replay as a whole
        // takes as long as its turns.
        let result = if tool == "replay_trajectory" {
            Ok(run.await)
        } else {
            tokio::time::timeout(CALL_DEADLINE, run).await
        };
        let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
        tracing::debug!(tool, elapsed_ms, "tool call");
        let mut out = match result {
            Ok(Ok(out)) => out,
            Ok(Err(e)) => Output::error(e.0),
            Err(_) => Output::error(format!(
                "{tool}: no answer within {} s (the app or browser may be hung); check it with list_windows or check_permissions, then retry",
                CALL_DEADLINE.as_secs()
            )),
        };
        if let (Some(pending), Some(dir)) = (pending, self.recording.clone()) {
            pending.after(self, &dir, elapsed_ms, &mut out).await;
        }
        out
    }

    /// [`Toolbox::call`], boxed (a replay calls tools from a tool).
    pub(crate) fn call_boxed<'s>(
        &'s mut self,
        name: &'s str,
        args: Option<Value>,
    ) -> Pin<Box<dyn Future<Output = Output> + Send + 's>> {
        Box::pin(self.call(name, args))
    }

    async fn dispatch(&mut self, tool: &str, args: &Args<'_>) -> Result<Output, ToolError> {
        match tool {
            "snapshot" | "snapshot_app" | "snapshot_desktop" | "overview" | "find" | "page"
            | "wait" | "screenshot" | "action" | "open_app" | "batch" => {
                cup_tools::call(self, tool, args).await
            }
            "set_recording" => {
                let (dir, out) = recording::set_recording(args)?;
                self.recording = dir;
                Ok(out)
            }
            "get_recording_state" => {
                args.only(&[])?;
                Ok(recording::state(self.recording.as_deref()))
            }
            "replay_trajectory" => recording::replay(self, args).await,
            "get_config" => {
                args.only(&[])?;
                Ok(config::shown(&self.config, self.config_problem.clone()))
            }
            "set_config" => {
                let (set, out) = config::set_tool(args)?;
                self.config = set;
                if self.config.agent_cursor.enabled == Some(false) {
                    if let Some(c) = self.cursor.clone() {
                        c.hide().await?;
                    }
                }
                Ok(out)
            }
            "get_agent_cursor_state"
            | "set_agent_cursor_enabled"
            | "set_agent_cursor_motion"
            | "set_agent_cursor_style"
            | "highlight" => visual::call(self, tool, args).await,
            _ => driver_tools::call(self, tool, args).await,
        }
    }

    /// Runs an acting tool; with `observe`, re-snapshots afterwards and
    /// appends the lines that changed, appeared or disappeared.
    async fn acting<F>(&mut self, observe: bool, act: F) -> Result<Output, ToolError>
    where
        F: for<'s> FnOnce(
            &'s mut Session,
        )
            -> Pin<Box<dyn Future<Output = Result<Output, ToolError>> + Send + 's>>,
    {
        let base = self.base_request();
        let session = self.session()?;
        if !observe {
            return act(session).await;
        }
        let req = session.last_request().cloned().unwrap_or(base);
        let before = match session.last() {
            Some(s) => s.clone(),
            None => session.snapshot(&req).await?.clone(),
        };
        let mut out = act(session).await?;
        if out.is_error {
            return Ok(out);
        }
        let after = session.snapshot(&req).await?;
        // A changes-only text (since) is compared whole, as rendered.
        let whole = |s: &cup::Snapshot| cup::Snapshot {
            text: s.whole_text(&req).into_owned(),
            ..s.clone()
        };
        let diff = if before.since.is_some() || after.since.is_some() {
            cup::observe::diff(&whole(&before), &whole(after))
        } else {
            cup::observe::diff(&before, after)
        };
        out.blocks.push(Block::Text(if diff.is_empty() {
            "# observed: the snapshot shows no change (ids are the new snapshot's)".to_owned()
        } else {
            diff.render()
        }));
        Ok(out)
    }

    /// A point of the arguments `x_key`/`y_key`, moved from zoom pixels to
    /// the screen with `from_zoom`.
    fn point(&self, args: &Args<'_>, x_key: &str, y_key: &str) -> Result<Option<Point>, ToolError> {
        let x = args.int(x_key, -100_000, 100_000)?;
        let y = args.int(y_key, -100_000, 100_000)?;
        let p = match (x, y) {
            (Some(x), Some(y)) => Point::new(x, y),
            (None, None) => return Ok(None),
            _ => {
                return args::fail(format!(
                    "{}: give both `{x_key}` and `{y_key}`",
                    args.tool()
                ))
            }
        };
        self.unzoom(args, p).map(Some)
    }

    fn unzoom(&self, args: &Args<'_>, p: Point) -> Result<Point, ToolError> {
        if !args.bool("from_zoom")?.unwrap_or(false) {
            return Ok(p);
        }
        let origin = self.zoom.ok_or_else(|| {
            ToolError(format!(
                "{}: from_zoom needs a zoom first; call zoom, or give screen pixels",
                args.tool()
            ))
        })?;
        Ok(Point::new(origin.x + p.x, origin.y + p.y))
    }
}

impl Toolbox {
    /// The snapshot request of `scope`-like arguments, from the configured
    /// defaults.
    fn request(&self, args: &Args<'_>) -> Result<SnapshotRequest, ToolError> {
        snapshot_request(self.base_request(), args)
    }
}

/// The snapshot request of `scope`-like arguments, from `base`.
fn snapshot_request(base: SnapshotRequest, args: &Args<'_>) -> Result<SnapshotRequest, ToolError> {
    let mut req = base;
    if let Some(scope) = args.choice("scope", &["foreground", "full", "desktop", "overview"])? {
        req.scope = scope
            .parse()
            .map_err(|e: cup_protocol::UnknownWord| ToolError(e.to_string()))?;
    }
    if let Some(d) = args.int("max_depth", 0, 999)? {
        req.limits.max_depth = usize::try_from(d).unwrap_or(999);
    }
    if let Some(detail) = args.choice(
        "detail",
        &["compact", "standard", "full", "minimal", "page"],
    )? {
        req.detail = detail
            .parse()
            .map_err(|e: cup_protocol::UnknownWord| ToolError(e.to_string()))?;
    }
    if let Some(bounds) = args.bool("bounds")? {
        req.bounds = bounds;
    }
    if let Some(t) = args.int("max_tokens", 0, 100_000_000)? {
        req.max_tokens = usize::try_from(t).unwrap_or(0);
    }
    if let Some(mode) = args.choice("ocr", &["auto", "always", "never"])? {
        req.ocr = mode.parse().map_err(ToolError)?;
    }
    Ok(req)
}
