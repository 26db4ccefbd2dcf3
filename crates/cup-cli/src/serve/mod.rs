//! `cup serve`: one process per desktop, for containers and fleets. It
//! listens at once (so `/healthz` answers during start-up), starts its
//! private desktop (sealed: the X server takes only clients with its
//! cookie) with the apps and browser asked for, then serves MCP over
//! streamable HTTP with a bearer token until SIGTERM/SIGINT, the idle
//! timeout or the maximum lifetime; then it refuses new sessions, lets
//! the calls in flight finish (within the grace period), stops the
//! desktop, and exits 0 with nothing left behind. As PID 1 it reaps the
//! orphans handed to it.

mod desktop;
mod metrics;
mod reaper;
mod routes;

use std::collections::HashSet;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::cli::ServeArgs;
use crate::commands::Failure;
use crate::mcp::http::McpHttp;
use crate::mcp::CupServer;
use cup_tools::Profile;

/// How long each part of the desktop may take to answer a readiness
/// check.
const CHECK_TIMEOUT: Duration = Duration::from_secs(1);
/// How long a readiness answer is reused (probes from several places).
const READY_CACHE: Duration = Duration::from_millis(500);
/// What stopping the desktop takes at most (its processes get 2 s after
/// SIGTERM): kept out of the grace period the calls in flight get.
const DESKTOP_STOP: Duration = Duration::from_secs(3);

const STARTING: u8 = 0;
const UP: u8 = 1;
const STOPPING: u8 = 2;

/// The server's shared state.
pub struct Server {
    started: Instant,
    phase: AtomicU8,
    running: Mutex<Option<desktop::Running>>,
    desktop: OnceLock<cup_linux::Desktop>,
    cdp_port: OnceLock<u16>,
    metrics: Arc<metrics::Metrics>,
    slots: Arc<Semaphore>,
    max_sessions: usize,
    /// Permits offered to the session rmcp is creating.
    handoff: Mutex<Vec<OwnedSemaphorePermit>>,
    /// One session opens at a time (so a permit goes to its own session).
    opening: tokio::sync::Mutex<()>,
    /// Milliseconds after `started` of the last MCP request.
    last_request: AtomicU64,
    ready_cache: Mutex<Option<(Instant, bool)>>,
    stop: CancellationToken,
}

/// Why the server stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Reason {
    Signal(&'static str),
    Idle,
    Lifetime,
    /// A core process of the desktop exited: the server ends with exit
    /// code 1, so the orchestrator restarts it (a desktop is not restarted
    /// under its sessions).
    DesktopDied(String),
}

impl Server {
    fn new(max_sessions: usize, tools: Vec<String>) -> Server {
        Server {
            started: Instant::now(),
            phase: AtomicU8::new(STARTING),
            running: Mutex::new(None),
            desktop: OnceLock::new(),
            cdp_port: OnceLock::new(),
            metrics: Arc::new(metrics::Metrics::new(tools)),
            slots: Arc::new(Semaphore::new(max_sessions)),
            max_sessions,
            handoff: Mutex::new(Vec::new()),
            opening: tokio::sync::Mutex::new(()),
            last_request: AtomicU64::new(0),
            ready_cache: Mutex::new(None),
            stop: CancellationToken::new(),
        }
    }

    fn stopping(&self) -> bool {
        self.phase.load(Ordering::SeqCst) == STOPPING
    }

    /// Notes an MCP request (for the idle timeout).
    fn touch(&self) {
        let ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_request.store(ms, Ordering::Relaxed);
    }

    fn idle_for(&self) -> Duration {
        let last = Duration::from_millis(self.last_request.load(Ordering::Relaxed));
        self.started.elapsed().saturating_sub(last)
    }

    fn offer(&self, permit: OwnedSemaphorePermit) {
        if let Ok(mut h) = self.handoff.lock() {
            h.push(permit);
        }
    }

    fn claim(&self) -> Option<OwnedSemaphorePermit> {
        self.handoff.lock().ok()?.pop()
    }

    fn take_back_unclaimed(&self) {
        if let Ok(mut h) = self.handoff.lock() {
            h.clear();
        }
    }

    /// Whether the desktop is up and every part of it answers.
    async fn ready(self: &Arc<Self>) -> bool {
        if self.phase.load(Ordering::SeqCst) != UP {
            return false;
        }
        if let Ok(cache) = self.ready_cache.lock() {
            if let Some((at, ok)) = *cache {
                if at.elapsed() < READY_CACHE {
                    return ok;
                }
            }
        }
        let me = Arc::clone(self);
        let answer = tokio::task::spawn_blocking(move || {
            let running = me.running.lock().ok()?;
            Some(running.as_ref()?.ready(CHECK_TIMEOUT))
        })
        .await
        .ok()
        .flatten();
        let ok = matches!(answer, Some(Ok(())));
        let was = self
            .ready_cache
            .lock()
            .ok()
            .and_then(|mut c| c.replace((Instant::now(), ok)))
            .map(|(_, ok)| ok);
        if was != Some(ok) {
            match &answer {
                Some(Err(why)) => tracing::warn!(%why, "not ready"),
                Some(Ok(())) => tracing::info!("ready"),
                None => tracing::warn!("not ready: the desktop is gone"),
            }
        }
        ok && !self.stopping()
    }

    async fn metrics_text(self: &Arc<Self>) -> String {
        let me = Arc::clone(self);
        let desktop_rss = tokio::task::spawn_blocking(move || {
            me.running.lock().ok().map_or(0, |r| {
                r.as_ref().map_or(0, |r| {
                    r.pids().into_iter().map(metrics::rss_bytes).sum::<u64>()
                })
            })
        })
        .await
        .unwrap_or(0);
        let ready = self
            .ready_cache
            .lock()
            .ok()
            .and_then(|c| *c)
            .is_some_and(|(_, ok)| ok)
            && self.phase.load(Ordering::SeqCst) == UP;
        let max = self.max_sessions as u64;
        self.metrics.render(&metrics::Gauges {
            sessions: max.saturating_sub(self.slots.available_permits() as u64),
            max_sessions: max,
            ready,
            uptime_seconds: self.started.elapsed().as_secs(),
            rss_bytes: metrics::rss_bytes(std::process::id()),
            desktop_rss_bytes: desktop_rss,
        })
    }
}

/// The session slot a session holds while it lives.
#[derive(Debug)]
struct Slot {
    _permit: OwnedSemaphorePermit,
}

/// The token: `--token-file`, else `CUP_MCP_TOKEN`, else a generated one
/// (`true`: print it).
fn token(args: &ServeArgs) -> Result<(String, bool), Failure> {
    let given = match &args.token_file {
        Some(path) => Some(std::fs::read_to_string(path).map_err(|e| {
            Failure::usage(format!(
                "--token-file {}: {e}; give a readable file holding the token",
                path.display()
            ))
        })?),
        None => std::env::var("CUP_MCP_TOKEN")
            .ok()
            .filter(|t| !t.trim().is_empty()),
    };
    match given {
        Some(t) if t.trim().len() >= 8 => Ok((t.trim().to_owned(), false)),
        Some(_) => Err(Failure::usage(
            "the token is too short; use at least 8 characters (from --token-file or CUP_MCP_TOKEN)",
        )),
        None => Ok((crate::mcp::http::generate_token().map_err(Failure::usage)?, true)),
    }
}

pub fn run(args: &ServeArgs) -> Result<ExitCode, Failure> {
    let profile = Profile::parse(&args.tools).map_err(Failure::usage)?;
    let addr: SocketAddr = args.listen.parse().map_err(|e| {
        Failure::usage(format!(
            "--listen {:?}: {e}; give HOST:PORT, e.g. 0.0.0.0:8765",
            args.listen
        ))
    })?;
    let (token, generated) = token(args)?;
    crate::mcp::http::check_bind(&addr, !generated).map_err(|e| {
        Failure::usage(e.replace(
            "without --token",
            "without a token (--token-file or CUP_MCP_TOKEN)",
        ))
    })?;
    if args.max_sessions == 0 {
        return Err(Failure::usage("--max-sessions must be at least 1"));
    }
    let plan = desktop::Plan {
        size: crate::commands::sandbox::parse_size(&args.size)?,
        window_manager: args.window_manager,
        apps: args
            .apps
            .iter()
            .map(|a| desktop::words(a))
            .collect::<Result<_, _>>()
            .map_err(Failure::usage)?,
        browser: args.browser.clone(),
    };
    let runtime = crate::platform::runtime()?;
    runtime.block_on(serve(args, profile, addr, token, generated, plan))
}

async fn serve(
    args: &ServeArgs,
    profile: Profile,
    addr: SocketAddr,
    token: String,
    generated: bool,
    plan: desktop::Plan,
) -> Result<ExitCode, Failure> {
    let (listener, bound) = crate::commands::mcp::listen(addr).await?;
    let tools: Vec<String> = cup_tools::catalog::offered(profile)
        .into_iter()
        .map(|t| t.name.to_owned())
        .collect();
    let server = Arc::new(Server::new(args.max_sessions, tools));
    let mcp = McpHttp::new(&bound, token.clone(), factory(&server, profile), None);
    let mut line = format!("cup serve: serving http://{bound}/mcp");
    if generated {
        line.push_str(&format!(" token {token}"));
    }
    crate::output::print(&format!("{line}\n"))?;

    // The desktop starts while the probes already answer.
    let mut starting = {
        let server = Arc::clone(&server);
        let env_file = args.env_file.clone();
        tokio::task::spawn_blocking(move || {
            let t = Instant::now();
            let running = desktop::start(&plan)?;
            if let Some(path) = &env_file {
                running.write_env(path)?;
            }
            let d = running.desktop();
            if let (Some(display), Some(file)) = (&d.display, &d.xauthority) {
                cup_linux::setup::register_x_cookie(display, file);
            }
            let _ = server.desktop.set(d);
            if let Some(b) = &running.browser {
                let _ = server.cdp_port.set(b.port());
            }
            if let Ok(mut r) = server.running.lock() {
                *r = Some(running);
            }
            tracing::info!(ms = t.elapsed().as_millis(), "desktop up");
            Ok::<(), String>(())
        })
    };
    let accepting = {
        let for_requests = Arc::clone(&server);
        let handler =
            move |req, peer| routes::handle(Arc::clone(&for_requests), mcp.clone(), req, peer);
        tokio::spawn(crate::mcp::http::accept(
            listener,
            handler,
            server.stop.clone(),
        ))
    };
    let reaping =
        (std::process::id() == 1).then(|| tokio::spawn(reap_orphans(Arc::clone(&server))));

    let started = tokio::select! {
        r = &mut starting => Some(r.map_err(|e| format!("the desktop start-up failed: {e}")).and_then(|r| r)),
        reason = stop_reason(&server, args) => {
            // Stopped before the desktop was up: its start-up ends first
            // (within its own deadlines), then it is stopped below.
            tracing::info!(?reason, "stopping during start-up");
            server.phase.store(STOPPING, Ordering::SeqCst);
            if let Ok(Err(e)) = starting.await {
                tracing::info!(error = %e, "the start-up ended with an error");
            }
            None
        }
    };
    let mut failure = None;
    let reason = match started {
        Some(Ok(())) => {
            server.phase.store(UP, Ordering::SeqCst);
            let reason = stop_reason(&server, args).await;
            if let Reason::DesktopDied(what) = &reason {
                tracing::error!(%what, "the desktop died");
                failure = Some(format!(
                    "the desktop died ({what} exited); cup serve ends so that it is started again"
                ));
            }
            Some(reason)
        }
        Some(Err(e)) => {
            failure = Some(e);
            None
        }
        None => None,
    };
    tracing::info!(?reason, "shutting down");
    // From here new sessions get 503 and /readyz says no, while the open
    // sessions are still served: the calls in flight get the grace period
    // (less what stopping the desktop takes), and their clients can still
    // connect to take the answers.
    server.phase.store(STOPPING, Ordering::SeqCst);
    let grace = Duration::from_secs(args.grace).saturating_sub(DESKTOP_STOP);
    let until = Instant::now() + grace;
    while server.metrics.in_flight() > 0 && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    if server.metrics.in_flight() > 0 {
        tracing::warn!(
            calls = server.metrics.in_flight(),
            "calls still running at the end of the grace period: cancelled"
        );
    } else {
        // The answers' last bytes on their way.
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.stop.cancel();
    let _ = accepting.await;
    let stopped = {
        let server = Arc::clone(&server);
        tokio::task::spawn_blocking(move || {
            // A start-up still under way ends first (it holds no lock).
            let running = server.running.lock().ok().and_then(|mut r| r.take());
            running.map_or(Ok(()), desktop::Running::stop)
        })
        .await
        .unwrap_or_else(|e| Err(format!("stopping the desktop: {e}")))
    };
    if let Some(path) = &args.env_file {
        let _ = std::fs::remove_file(path);
    }
    if let Some(r) = reaping {
        r.abort();
        reaper::reap(&HashSet::new());
    }
    if let Some(e) = failure {
        return Err(Failure {
            code: 1,
            message: e,
        });
    }
    stopped.map_err(|e| Failure {
        code: 1,
        message: e,
    })?;
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}

/// A maker of the CupServer of each new MCP session: the tools on this
/// desktop (page tools on its browser), counted in the metrics, holding a
/// session slot.
fn factory(
    server: &Arc<Server>,
    profile: Profile,
) -> impl Fn() -> Result<CupServer, std::io::Error> + Send + Sync + 'static {
    let server = Arc::clone(server);
    move || {
        let for_session = Arc::clone(&server);
        let make: cup_tools::SessionMaker = Box::new(move || {
            let desktop = for_session.desktop.get().cloned().ok_or_else(|| {
                "the desktop is still starting; wait until /readyz answers 200".to_owned()
            })?;
            let adapter = cup_linux::LinuxAdapter::for_desktop(desktop);
            Ok(cup::Session::new(Box::new(adapter)))
        });
        let mut tools = cup_tools::Toolbox::new(profile, make);
        let for_pages = Arc::clone(&server);
        tools.set_page_scripting(Box::new(move || {
            let endpoint = for_pages
                .cdp_port
                .get()
                .map(|port| cup_web::Endpoint::Http {
                    host: "127.0.0.1".into(),
                    port: *port,
                })
                .ok_or_else(|| "this desktop has no browser with page tools; start cup serve with --browser URL".to_owned())?;
            Ok(Box::new(cup_web::WebAdapter::new(endpoint)) as Box<dyn cup::page::PageScripting>)
        }));
        server.metrics.session_started();
        let mut cup = CupServer::new(tools, profile, true).observed(server.metrics.clone());
        if let Some(permit) = server.claim() {
            cup = cup.holding(Arc::new(Slot { _permit: permit }));
        }
        Ok(cup)
    }
}

/// Waits for the first reason to stop: SIGTERM or SIGINT, no MCP request
/// for `--idle-timeout` seconds (and no call running), `--max-lifetime`
/// seconds since the start.
async fn stop_reason(server: &Arc<Server>, args: &ServeArgs) -> Reason {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).ok();
    let mut int = signal(SignalKind::interrupt()).ok();
    let lifetime = args.max_lifetime.map(Duration::from_secs);
    let idle = args.idle_timeout.map(Duration::from_secs);
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    loop {
        tokio::select! {
            Some(()) = async { term.as_mut()?.recv().await } => return Reason::Signal("SIGTERM"),
            Some(()) = async { int.as_mut()?.recv().await } => return Reason::Signal("SIGINT"),
            _ = tick.tick() => {
                if lifetime.is_some_and(|l| server.started.elapsed() >= l) {
                    return Reason::Lifetime;
                }
                let dead = server
                    .running
                    .try_lock()
                    .ok()
                    .and_then(|r| r.as_ref().map(|r| r.sandbox.exited()))
                    .unwrap_or_default();
                if !dead.is_empty() {
                    return Reason::DesktopDied(dead.join(", "));
                }
                if idle.is_some_and(|i| server.idle_for() >= i && server.metrics.in_flight() == 0) {
                    return Reason::Idle;
                }
            }
        }
    }
}

/// Reaps, every second, the orphans handed to PID 1.
async fn reap_orphans(server: Arc<Server>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tick.tick().await;
        // The desktop's own processes are left to it (busy: next time).
        let keep: Option<HashSet<u32>> = server.running.try_lock().ok().map(|r| {
            r.as_ref()
                .map(desktop::Running::pids)
                .unwrap_or_default()
                .into_iter()
                .collect()
        });
        if let Some(keep) = keep {
            let _ = tokio::task::spawn_blocking(move || reaper::reap(&keep)).await;
        }
    }
}
