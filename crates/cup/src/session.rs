//! The Session: captures through an adapter, keeps the latest snapshot for
//! `find`, `page` and (later) actions, and renders compact text.

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use cup_protocol::compact::{self, render_overview, Detail, PageRequest, RenderOptions};
use cup_protocol::search::{self, FindQuery};
use cup_protocol::{AppInfo, Envelope, Node, Scope, Screen};

use crate::adapter::{Adapter, AdapterError, Capture, CaptureLimits, ScreenInfo, WindowHandle};

/// What to capture.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotRequest {
    /// overview, foreground, desktop or full.
    pub scope: Scope,
    /// With `Scope::Full`: only windows whose title contains this
    /// (case-insensitive).
    pub app: Option<String>,
    /// Pruning of the compact text.
    pub detail: Detail,
    /// Character cap of the compact text (0 = none).
    pub max_chars: usize,
    /// Depth, node and time limits of the capture.
    pub limits: CaptureLimits,
}

impl Default for SnapshotRequest {
    fn default() -> Self {
        SnapshotRequest {
            scope: Scope::Foreground,
            app: None,
            detail: Detail::Compact,
            max_chars: compact::MAX_OUTPUT_CHARS,
            limits: CaptureLimits::default(),
        }
    }
}

/// The result of a snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The envelope (schema-valid).
    pub envelope: Envelope,
    /// Native reference of every node id.
    pub refs: HashMap<String, String>,
    /// Header notes (partial capture, advice).
    pub notes: Vec<String>,
    /// The compact text (or the overview text for `Scope::Overview`).
    pub text: String,
}

impl Snapshot {
    /// The node with id `id`, in any of the captured windows.
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.envelope
            .tree
            .iter()
            .find_map(|r| r.iter().find(|n| n.id == id))
    }
}

/// Errors of the session. Each message says what to do next.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The adapter failed.
    #[error(transparent)]
    Adapter(#[from] AdapterError),
    /// `find` or `page` before any snapshot.
    #[error("no snapshot yet; take one first (cup snapshot / the snapshot tool)")]
    NoSnapshot,
    /// Bad search.
    #[error(transparent)]
    Search(#[from] search::SearchError),
    /// Bad page request.
    #[error(transparent)]
    Page(#[from] compact::PageError),
    /// An action that could not start (unknown verb or id, bad params).
    #[error(transparent)]
    Action(#[from] crate::execute::ActionError),
}

/// A session on one adapter.
pub struct Session {
    pub(crate) adapter: Box<dyn Adapter>,
    pub(crate) last: Option<Snapshot>,
    pub(crate) page_cursors: HashMap<String, usize>,
    pub(crate) last_request: Option<SnapshotRequest>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("platform", &self.adapter.platform())
            .field("has_snapshot", &self.last.is_some())
            .finish()
    }
}

fn now_ms() -> Option<i64> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .ok()
        .and_then(|d| i64::try_from(d.as_millis()).ok())
}

fn screen_of(info: &ScreenInfo) -> Screen {
    Screen {
        w: info.width,
        h: info.height,
        scale: Some(info.scale),
    }
}

impl Session {
    /// A session on `adapter`.
    pub fn new(adapter: Box<dyn Adapter>) -> Self {
        Session {
            adapter,
            last: None,
            page_cursors: HashMap::new(),
            last_request: None,
        }
    }

    /// The adapter.
    pub fn adapter(&self) -> &dyn Adapter {
        self.adapter.as_ref()
    }

    /// The latest snapshot.
    pub fn last(&self) -> Option<&Snapshot> {
        self.last.as_ref()
    }

    /// The request of the latest snapshot taken by this session.
    pub fn last_request(&self) -> Option<&SnapshotRequest> {
        self.last_request.as_ref()
    }

    /// Makes `snapshot` (kept from an earlier process, e.g. by the CLI) the
    /// latest one, so its ids can be acted on. Adapters check that each
    /// element is still the same before acting.
    pub fn restore(&mut self, snapshot: Snapshot) {
        self.page_cursors.clear();
        self.last = Some(snapshot);
    }

    /// Captures and keeps a snapshot.
    pub async fn snapshot(&mut self, req: &SnapshotRequest) -> Result<&Snapshot, SessionError> {
        let snapshot = self.take_snapshot(req).await?;
        self.page_cursors.clear();
        self.last_request = Some(req.clone());
        Ok(self.last.insert(snapshot))
    }

    /// Captures without keeping: the latest snapshot, and so the ids an
    /// agent acts on, stay as they were (a trajectory recorder's look
    /// after an action).
    pub async fn look(&self, req: &SnapshotRequest) -> Result<Snapshot, SessionError> {
        self.take_snapshot(req).await
    }

    async fn take_snapshot(&self, req: &SnapshotRequest) -> Result<Snapshot, SessionError> {
        let platform = self.adapter.platform();
        let started = std::time::Instant::now();
        let listing = async {
            match req.scope {
                Scope::Foreground | Scope::Full => self.adapter.windows_for_capture().await,
                Scope::Overview | Scope::Desktop => self.adapter.windows().await,
            }
        };
        let (screen, windows) = tokio::try_join!(self.adapter.screen(), listing)?;
        tracing::debug!(
            elapsed_ms = started.elapsed().as_secs_f64() * 1e3,
            windows = windows.len(),
            "screen and windows"
        );
        let screen = screen_of(&screen);
        let infos = || windows.iter().map(|w| w.info.clone()).collect::<Vec<_>>();

        let overview = |notes: Vec<String>| {
            let mut env = Envelope::new(platform, screen, Vec::new());
            env.scope = Some(Scope::Overview);
            env.timestamp = now_ms();
            env.windows = Some(infos());
            let mut text = render_overview(
                platform,
                &screen,
                env.windows.as_deref().unwrap_or_default(),
            );
            for n in &notes {
                text.push_str("# ");
                text.push_str(n);
                text.push('\n');
            }
            Snapshot {
                envelope: env,
                refs: HashMap::new(),
                notes,
                text,
            }
        };

        let (targets, app, header_windows, scope): (
            Vec<WindowHandle>,
            Option<AppInfo>,
            bool,
            Scope,
        ) = match req.scope {
            Scope::Overview => {
                return Ok(overview(
                    self.adapter.display_note().await.into_iter().collect(),
                ))
            }
            Scope::Foreground => {
                let fg = windows
                    .iter()
                    .find(|w| w.info.foreground)
                    .or_else(|| windows.first())
                    .cloned()
                    .ok_or_else(|| {
                        AdapterError::NotFound(
                            "no window is open; start an app (cup open APP) and try again"
                                .to_owned(),
                        )
                    })?;
                let app = AppInfo {
                    name: Some(fg.info.title.clone()),
                    pid: fg.info.pid,
                    bundle_id: None,
                };
                (vec![fg], Some(app), true, Scope::Foreground)
            }
            Scope::Desktop => match self.adapter.desktop().await? {
                Some(d) => {
                    let app = AppInfo {
                        name: Some("Desktop".to_owned()),
                        pid: d.info.pid,
                        bundle_id: None,
                    };
                    (vec![d], Some(app), false, Scope::Desktop)
                }
                None => {
                    return Ok(overview(vec![
                    "no desktop surface (no file-manager desktop window); showing the window list"
                        .to_owned(),
                ]))
                }
            },
            Scope::Full => {
                let chosen: Vec<WindowHandle> = match req.app.as_deref().map(str::to_lowercase) {
                    Some(needle) => windows
                        .iter()
                        .filter(|w| w.info.title.to_lowercase().contains(&needle))
                        .cloned()
                        .collect(),
                    None => windows.clone(),
                };
                if chosen.is_empty() {
                    let titles: Vec<&str> = windows.iter().map(|w| w.info.title.as_str()).collect();
                    return Err(AdapterError::NotFound(match &req.app {
                        Some(app) => format!(
                            "no window title contains '{app}'; open windows: {}",
                            if titles.is_empty() {
                                "none".to_owned()
                            } else {
                                titles.join(", ")
                            }
                        ),
                        None => "no window is open; start an app and try again".to_owned(),
                    })
                    .into());
                }
                (chosen, None, false, Scope::Full)
            }
        };

        let Capture {
            tree,
            refs,
            partial,
            mut notes,
            tools,
        } = self.adapter.capture(&targets, &req.limits).await?;
        tracing::debug!(
            elapsed_ms = started.elapsed().as_secs_f64() * 1e3,
            "captured"
        );
        if let Some(p) = &partial {
            notes.insert(
                0,
                format!(
                    "partial capture: {}; {} subtree(s) missing — raise the deadline/node limit or narrow the scope",
                    p.reason, p.missing
                ),
            );
        }
        let mut env = Envelope::new(platform, screen, tree);
        env.timestamp = now_ms();
        env.scope = Some(scope);
        env.app = app;
        if !tools.is_empty() {
            env.tools = Some(tools);
        }
        if header_windows {
            env.windows = Some(infos());
        }
        let text = compact::render(
            &env,
            &RenderOptions {
                detail: req.detail,
                max_chars: req.max_chars,
                notes: notes.clone(),
            },
        );
        Ok(Snapshot {
            envelope: env,
            refs,
            notes,
            text,
        })
    }

    /// Searches the latest snapshot's full tree.
    pub fn find(&self, query: &FindQuery) -> Result<Vec<Node>, SessionError> {
        let last = self.last.as_ref().ok_or(SessionError::NoSnapshot)?;
        Ok(search::find(&last.envelope.tree, query)?
            .into_iter()
            .map(|m| {
                let mut n = m.node.clone();
                n.children.clear();
                n
            })
            .collect())
    }

    /// A page of the items of container `id` in the latest snapshot; the
    /// cursor moves with each call in a direction.
    pub fn page(&mut self, id: &str, req: &PageRequest) -> Result<String, SessionError> {
        let last = self.last.as_ref().ok_or(SessionError::NoSnapshot)?;
        let cursor = if req.direction.is_some() && req.offset.is_none() {
            self.page_cursors.get(id).copied()
        } else {
            None
        };
        let p = compact::page(&last.envelope, id, req, cursor)?;
        self.page_cursors.insert(id.to_owned(), p.offset);
        Ok(p.text)
    }
}
