//! Command-line definition.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// cup — the Computer Use Protocol: see and act on any UI as a compact,
/// schema-valid accessibility tree.
#[derive(Debug, Parser)]
#[command(name = "cup", version, about, long_about = None, after_help = EXIT_CODES)]
pub struct Cli {
    /// Where the live commands look.
    #[command(flatten)]
    pub target: TargetArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Which UI the live commands see and act on.
#[derive(Debug, Args, Clone, Default)]
pub struct TargetArgs {
    /// desktop (this machine's accessibility API; linux, windows or macos name it), web (a Chromium over the DevTools protocol), android (a phone over adb) or ios (an iPhone's WebDriverAgent) [default: $CUP_PLATFORM, else web when a --cdp option is given, else desktop].
    #[arg(long, global = true, value_parser = ["desktop", "linux", "windows", "macos", "web", "android", "ios"])]
    pub platform: Option<String>,
    /// Android: the device's adb serial (adb devices lists them) [default: $ANDROID_SERIAL, else the only device connected].
    #[arg(long, global = true)]
    pub serial: Option<String>,
    /// iOS: WebDriverAgent's URL [default: $CUP_WDA_URL, else http://127.0.0.1:8100].
    #[arg(long, global = true)]
    pub wda_url: Option<String>,
    /// DevTools port of the browser [default: $CUP_CDP_PORT, else 9222].
    #[arg(long, global = true)]
    pub cdp_port: Option<u16>,
    /// DevTools host of the browser [default: $CUP_CDP_HOST, else 127.0.0.1].
    #[arg(long, global = true)]
    pub cdp_host: Option<String>,
    /// The browser's DevTools address as a URL (http://host:port or its ws:// URL).
    #[arg(long, global = true)]
    pub cdp_url: Option<String>,
    /// Where web snapshots read the page: walker (cup's page walker, fast, with bounds) or chromium (Chromium's getFullAXTree, the reference) [default: $CUP_AX_SOURCE, else walker].
    #[arg(long, global = true, value_parser = ["walker", "chromium"])]
    pub ax_source: Option<String>,
}

const EXIT_CODES: &str = "Exit codes: 0 success; 1 negative answer (validate found violations, find matched nothing); 2 bad usage or unreadable input.";

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a CUP envelope (JSON) as compact text.
    Render(RenderArgs),
    /// Check a CUP envelope against the CUP JSON Schema; one line per violation.
    Validate(InputArg),
    /// Search a CUP envelope for elements.
    Find(FindArgs),
    /// Show more items of a container whose hint says "more items".
    Page(PageArgs),
    /// Capture the live UI: compact text (or the envelope with --json).
    Snapshot(SnapshotArgs),
    /// Act on an element of the last `cup snapshot` and report the effect observed.
    Action(ActionArgs),
    /// Press a key combo (ctrl+s, alt+f4, shift, kp_enter, ...).
    Press(PressArgs),
    /// Launch an installed app by name and wait for its window.
    Open(OpenArgs),
    /// Run a JSON list of steps (actions, press, wait, open_app, snapshot), stopping at the first failure.
    Batch(BatchArgs),
    /// Save a PNG screenshot of the screen, one monitor, a window or a region.
    Screenshot(ScreenshotArgs),
    /// A private headless desktop (Xvfb, D-Bus, AT-SPI) for apps, tests and agents in containers.
    #[command(subcommand)]
    Sandbox(SandboxCommand),
    /// Grant what a desktop needs before cup can act on it: `cup setup kde` lets this cup use
    /// KWin's fake input (a desktop file naming it); `cup setup gnome` installs and enables cup's
    /// GNOME Shell extension (window places, activation, screenshots).
    Setup(SetupArgs),
    /// Page scripting in the browser: run JavaScript, get the page text, query the DOM.
    #[command(subcommand)]
    Web(WebCommand),
    /// A Chromium with remote debugging for `--platform web` (start prints the export lines to use it).
    #[command(subcommand)]
    Browser(BrowserCommand),
    /// Serve the CUP and driver tools over MCP (stdio, or streamable HTTP with --http).
    Mcp(McpArgs),
    /// One private desktop served over MCP (streamable HTTP), for containers and fleets: /mcp, /healthz, /readyz, /metrics.
    Serve(ServeArgs),
    /// Run one MCP tool in-process and print its result: cup call TOOL '{"arg": ...}'.
    Call(CallArgs),
    /// Any MCP tool by name: cup TOOL '{"arg": ...}' (as cup call).
    #[command(external_subcommand)]
    Tool(Vec<String>),
}

/// `cup mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Which tools to offer: cup, driver or all.
    #[arg(long, default_value = "all")]
    pub tools: String,
    /// Serve streamable HTTP on this address (e.g. 127.0.0.1:8765; port 0 picks a free one) instead of stdio.
    #[arg(long)]
    pub http: Option<String>,
    /// Bearer token HTTP clients must send [default: generated and printed on stderr]. Required for a non-loopback --http address.
    #[arg(long, env = "CUP_MCP_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Print the tools offered (name and description, one per line) and exit; no server.
    #[arg(long, conflicts_with_all = ["http", "token"])]
    pub list: bool,
}

/// `cup serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to serve on: MCP at /mcp (bearer token), probes at /healthz, /readyz and /metrics (no token, no content).
    #[arg(long, default_value = "127.0.0.1:8765", env = "CUP_SERVE_LISTEN")]
    pub listen: String,
    /// File holding the bearer token [default: $CUP_MCP_TOKEN, else generated and printed]. A non-loopback --listen needs one.
    #[arg(long, value_name = "PATH")]
    pub token_file: Option<PathBuf>,
    /// A program to start on the desktop, waited for until its window is on the accessibility bus; repeat for more. Words split as a shell does: --app "gedit --new-window".
    #[arg(long = "app", value_name = "COMMAND")]
    pub apps: Vec<String>,
    /// Open this page in a Chromium on the desktop (DevTools on loopback, for the page tools).
    #[arg(long, value_name = "URL")]
    pub browser: Option<String>,
    /// Screen size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1920x1080")]
    pub size: String,
    /// Run the openbox window manager on the desktop.
    #[arg(long)]
    pub window_manager: bool,
    /// MCP sessions at once; a further one is refused (409). All sessions share one screen: keep 1 for one agent per desktop.
    #[arg(long, default_value_t = 1)]
    pub max_sessions: usize,
    /// Exit (0) after this many seconds without an MCP request [default: never].
    #[arg(long, value_name = "SECONDS")]
    pub idle_timeout: Option<u64>,
    /// Exit (0) this many seconds after the start, e.g. to end a Job [default: never].
    #[arg(long, value_name = "SECONDS")]
    pub max_lifetime: Option<u64>,
    /// Seconds between SIGTERM and the exit: calls in flight finish, then the desktop stops.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    pub grace: u64,
    /// Which tools to offer: cup, driver or all.
    #[arg(long, default_value = "all")]
    pub tools: String,
    /// Once the desktop is up, write its environment here (`export DISPLAY=...` lines, mode 0600: DISPLAY, XAUTHORITY, the buses), so programs beside the server (the Python or Node package in process) can drive the same desktop; removed at the end.
    #[arg(long, value_name = "PATH")]
    pub env_file: Option<PathBuf>,
}

/// `cup call`.
#[derive(Debug, Args)]
pub struct CallArgs {
    /// The tool, e.g. snapshot, click, get_window_state (cup mcp lists them all with --list).
    pub tool: String,
    /// Its arguments as a JSON object (default {}).
    pub arguments: Option<String>,
    /// Save image results (PNG) to this file.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Print the whole MCP result (content, structuredContent, isError) as JSON.
    #[arg(long)]
    pub json: bool,
    /// Draw the agent cursor for this call's pointer action (off by default for a one-shot call).
    #[arg(long)]
    pub agent_cursor: bool,
}

/// `cup web ...` (the browser of --cdp-port / $CUP_CDP_PORT).
#[derive(Debug, Subcommand)]
pub enum WebCommand {
    /// Run JavaScript in the page and print its value as JSON (promises are awaited).
    Js(WebJsArgs),
    /// Print the page's text (document.body.innerText).
    Text(WebPageArg),
    /// Print tag, text and chosen attributes of the elements matching a CSS selector, as JSON.
    Query(WebQueryArgs),
}

/// Which page.
#[derive(Debug, Args)]
pub struct WebPageArg {
    /// The page whose title or URL contains this [default: the foreground page].
    #[arg(long)]
    pub page: Option<String>,
}

/// `cup web js`.
#[derive(Debug, Args)]
pub struct WebJsArgs {
    /// The JavaScript, e.g. "document.title" or "(() => { ... })()".
    pub javascript: String,
    #[command(flatten)]
    pub page: WebPageArg,
}

/// `cup web query`.
// The help text's CSS selectors ("a[href]") read as links to rustdoc.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Debug, Args)]
pub struct WebQueryArgs {
    /// CSS selector, e.g. "table tr" or "a[href]".
    pub selector: String,
    /// Attributes to include (repeat or comma-separate), e.g. --attr href,data-id.
    #[arg(long = "attr", value_delimiter = ',')]
    pub attributes: Vec<String>,
    #[command(flatten)]
    pub page: WebPageArg,
}

/// `cup browser ...`.
#[derive(Debug, Subcommand)]
pub enum BrowserCommand {
    /// Start Chromium on a free loopback DevTools port with a fresh profile (headless, or on $DISPLAY); prints export lines (use: eval "$(cup browser start URL)").
    Start(BrowserStartArgs),
    /// Stop the browser that `cup browser start` started and remove its profile.
    Stop(BrowserStateArg),
}

/// Where the browser's state is kept.
#[derive(Debug, Args)]
pub struct BrowserStateArg {
    /// State file of the browser [default: $CUP_BROWSER_STATE, else cup-browser-UID.json in the temp dir].
    #[arg(long)]
    pub state: Option<PathBuf>,
}

/// `cup browser start`.
#[derive(Debug, Args)]
pub struct BrowserStartArgs {
    /// The page to open.
    pub url: Option<String>,
    /// Run without a window (the default when DISPLAY is unset).
    #[arg(long)]
    pub headless: bool,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x800")]
    pub size: String,
    #[command(flatten)]
    pub state: BrowserStateArg,
}

/// `cup sandbox ...`.
#[derive(Debug, Subcommand)]
pub enum SandboxCommand {
    /// Start a private desktop and print its environment as `export` lines (use: eval "$(cup sandbox start)").
    Start(SandboxStartArgs),
    /// Launch an app in the sandbox and wait until its window is on the accessibility bus.
    Run(SandboxRunArgs),
    /// Print the environment of the running sandbox as `export` lines.
    Env(SandboxStateArg),
    /// Stop the sandbox: end only the processes it started, remove its files.
    Stop(SandboxStateArg),
    /// (Internal: started by `cup sandbox start --wayland kde`.) Allow
    /// this cup KWin's fake input in the desktop's DATA_HOME, then hold a
    /// fake-input device so that the headless seat keeps a pointer.
    #[command(hide = true)]
    HoldPointer(SandboxHoldPointerArgs),
}

/// `cup sandbox hold-pointer` (internal).
#[derive(Debug, Args)]
pub struct SandboxHoldPointerArgs {
    /// The desktop user's data directory (KWin's XDG_DATA_HOME).
    #[arg(long, required_unless_present = "gnome")]
    pub data_home: Option<PathBuf>,
    /// GNOME: hold a remote-desktop session's keyboard and pointer.
    #[arg(long)]
    pub gnome: bool,
}

/// `cup action`.
#[derive(Debug, Args)]
pub struct ActionArgs {
    /// Element id from the last `cup snapshot` (e.g. e12).
    pub id: String,
    /// click, toggle, type, setvalue, select, expand, collapse, scroll, increment, decrement, focus, dismiss, rightclick, doubleclick, longpress.
    pub verb: String,
    /// Text for type / setvalue.
    #[arg(long)]
    pub value: Option<String>,
    /// up, down, left or right (scroll).
    #[arg(long)]
    pub direction: Option<String>,
    /// Wheel steps for scroll.
    #[arg(long)]
    pub amount: Option<u32>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `cup press`.
#[derive(Debug, Args)]
pub struct PressArgs {
    /// The combo, e.g. ctrl+shift+p.
    pub combo: String,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `cup open`.
#[derive(Debug, Args)]
pub struct OpenArgs {
    /// Part of the app's name ("widget factory", "calculator").
    pub name: String,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `cup screenshot`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("what").args(["window", "region", "monitor", "full_page"])))]
pub struct ScreenshotArgs {
    /// A window: its title (or part of it) or its reference from `cup snapshot --json`.
    #[arg(long)]
    pub window: Option<String>,
    /// A rectangle in screen pixels: x,y,w,h.
    #[arg(long)]
    pub region: Option<String>,
    /// The whole scrollable page (web).
    #[arg(long)]
    pub full_page: bool,
    /// One monitor by index (0 = first).
    #[arg(long)]
    pub monitor: Option<usize>,
    /// Output PNG file (- for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Set-of-marks: draw a box and the id of each actionable element of the last snapshot (cup snapshot; one is taken if there is none) on the image.
    #[arg(long, conflicts_with = "full_page")]
    pub marks: bool,
}

/// `cup batch`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// JSON file with a list of steps, or - for standard input.
    pub file: PathBuf,
}

/// Where the sandbox's state is kept.
#[derive(Debug, Args)]
pub struct SandboxStateArg {
    /// State file of the sandbox [default: $CUP_SANDBOX_STATE, else cup-sandbox-UID.json in the temp dir].
    #[arg(long)]
    pub state: Option<PathBuf>,
}

/// `cup setup`.
#[derive(Debug, Args)]
pub struct SetupArgs {
    /// The desktop: kde (KWin's fake input for pointer and keys) or gnome
    /// (cup's GNOME Shell extension: window places and screenshots).
    #[arg(value_parser = ["kde", "gnome"])]
    pub desktop: String,
    /// The program to allow (kde) [default: this cup].
    #[arg(long)]
    pub exe: Option<PathBuf>,
}

/// `cup sandbox start`.
#[derive(Debug, Args)]
pub struct SandboxStartArgs {
    /// Screen size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1920x1080")]
    pub size: String,
    /// Also run a light window manager (openbox).
    #[arg(long, conflicts_with = "wayland")]
    pub wm: bool,
    /// A Wayland desktop instead of an X11 one (run as `nobody` when cup
    /// runs as root), optionally naming its compositor: sway (the
    /// default, headless), kde (KWin's virtual backend) or gnome (GNOME
    /// Shell headless, with cup's extension).
    #[arg(long, num_args = 0..=1, default_missing_value = "sway", value_name = "COMPOSITOR", value_parser = ["sway", "kde", "kwin", "gnome"])]
    pub wayland: Option<String>,
    /// The Wayland compositor, as `--wayland COMPOSITOR` names it (kwin is
    /// kde).
    #[arg(long, requires = "wayland", value_parser = ["sway", "kwin", "kde", "gnome"])]
    pub compositor: Option<String>,
    /// GNOME without cup's GNOME Shell extension (to see what cup says
    /// without it).
    #[arg(long, requires = "wayland")]
    pub without_extension: bool,
    #[command(flatten)]
    pub state: SandboxStateArg,
}

/// `cup sandbox run`.
#[derive(Debug, Args)]
pub struct SandboxRunArgs {
    /// Seconds to wait for the app's window on the accessibility bus.
    #[arg(long, default_value_t = 20)]
    pub timeout: u64,
    #[command(flatten)]
    pub state: SandboxStateArg,
    /// The program and its arguments (after --).
    #[arg(required = true, last = true, num_args = 1..)]
    pub command: Vec<String>,
}

/// `cup snapshot`.
#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// overview (window list), foreground (the active window), desktop (the desktop surface) or full (every window).
    #[arg(long, default_value = "foreground")]
    pub scope: String,
    /// With --scope full: only windows whose title contains this.
    #[arg(long)]
    pub app: Option<String>,
    /// Pruning: compact (alias standard), full, minimal, or page (the whole page: nothing clipped to the viewport).
    #[arg(long, default_value = "compact")]
    pub detail: String,
    /// Deepest level captured (root = 0).
    #[arg(long, default_value_t = 999)]
    pub depth: usize,
    /// Print the CUP envelope (JSON) instead of compact text.
    #[arg(long)]
    pub json: bool,
    /// Cap on the compact text in characters (0 = no cap).
    #[arg(long, default_value_t = cup_protocol::compact::MAX_OUTPUT_CHARS)]
    pub max_chars: usize,
    /// Capture budget in milliseconds; past it the capture is returned partial and says so.
    #[arg(long, default_value_t = 3000)]
    pub deadline_ms: u64,
    /// Most nodes captured; past it the capture is returned partial and says so.
    #[arg(long, default_value_t = 50_000)]
    pub max_nodes: usize,
    /// Also write the raw native facts the capture read (JSON) to FILE: attach it to a mapping bug report.
    #[arg(long, value_name = "FILE")]
    pub native_dump: Option<PathBuf>,
    /// Only what changed since the kept snapshot: `last` (or its id, as
    /// its header says). Elements it had keep their ids.
    #[arg(long, value_name = "ID")]
    pub since: Option<String>,
    /// When windows are read from their pixels (OCR): auto (windows that give no accessibility tree), always, never.
    #[arg(long, default_value = "auto")]
    pub ocr: String,
    /// Leave the bounds (x,y wxh) off the lines: for agents that act by id only (fewer tokens).
    #[arg(long)]
    pub no_bounds: bool,
    /// Budget in o200k tokens (at least 100; 0 = none): lines are kept by need (the focus, the screen, what acts, landmarks, headings) and the rest left out with a note; --max-chars then does not apply.
    #[arg(long, default_value_t = 0)]
    pub max_tokens: usize,
}

/// An input file.
#[derive(Debug, Args)]
pub struct InputArg {
    /// Envelope JSON file, or - for standard input.
    pub file: PathBuf,
}

/// `cup render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Envelope JSON file, or - for standard input.
    pub file: PathBuf,
    /// Pruning: compact (alias standard), full, minimal, or page (the whole page: nothing clipped to the viewport).
    #[arg(long, default_value = "compact")]
    pub detail: String,
    /// Cap on the output in characters, notice included (0 = no cap).
    #[arg(long, default_value_t = cup_protocol::compact::MAX_OUTPUT_CHARS)]
    pub max_chars: usize,
    /// Leave the bounds (x,y wxh) off the lines: for agents that act by id only (fewer tokens).
    #[arg(long)]
    pub no_bounds: bool,
    /// Budget in o200k tokens (at least 100; 0 = none): lines are kept by need (the focus, the screen, what acts, landmarks, headings) and the rest left out with a note; --max-chars then does not apply.
    #[arg(long, default_value_t = 0)]
    pub max_tokens: usize,
}

/// `cup find`.
#[derive(Debug, Args)]
pub struct FindArgs {
    /// Envelope JSON file, or - for standard input.
    pub file: PathBuf,
    /// Free-form query, e.g. "the play button" or "search input".
    pub query: Option<String>,
    /// Role or role word, e.g. button, "search bar", input.
    #[arg(long)]
    pub role: Option<String>,
    /// Name to match.
    #[arg(long)]
    pub name: Option<String>,
    /// State the element must have, e.g. focused, checked, disabled.
    #[arg(long)]
    pub state: Option<String>,
    /// Maximum number of matches.
    #[arg(long, default_value_t = cup_protocol::search::DEFAULT_LIMIT)]
    pub limit: usize,
}

/// `cup page`.
#[derive(Debug, Args)]
pub struct PageArgs {
    /// Envelope JSON file, or - for standard input.
    pub file: PathBuf,
    /// Container id, e.g. e12.
    pub id: String,
    /// up, down, left or right.
    #[arg(long)]
    pub direction: Option<String>,
    /// Index of the first item (0-based).
    #[arg(long)]
    pub offset: Option<usize>,
    /// Items per page.
    #[arg(long)]
    pub limit: Option<usize>,
}
