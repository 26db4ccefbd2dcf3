//! The Session: captures through an adapter, keeps the latest snapshot for
//! `find`, `page` and (later) actions, and renders compact text.

use std::collections::{HashMap, VecDeque};
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
    /// Budget of the compact text in o200k tokens (0 = none): lines are
    /// kept by need (the focus, the screen, what acts, landmarks and
    /// headings) until it is spent; `max_chars` then does not apply.
    pub max_tokens: usize,
    /// Depth, node and time limits of the capture.
    pub limits: CaptureLimits,
    /// Only what changed since this snapshot: `"last"` or a kept
    /// snapshot's id (`Snapshot::id`, e.g. `"s4"`). The ids of elements it
    /// had stay the same; see [`crate::since`].
    pub since: Option<String>,
    /// Bounds on the lines of actionable elements (default `true`, as the
    /// spec puts them); `false` for agents that act by id only. The
    /// envelope keeps them either way.
    pub bounds: bool,
    /// When windows are read from their pixels (OCR): `auto` (default)
    /// for windows that give no tree, `always`, `never`.
    pub ocr: crate::ocr::OcrMode,
}

impl Default for SnapshotRequest {
    fn default() -> Self {
        SnapshotRequest {
            scope: Scope::Foreground,
            app: None,
            detail: Detail::Compact,
            max_chars: compact::MAX_OUTPUT_CHARS,
            max_tokens: 0,
            limits: CaptureLimits::default(),
            since: None,
            bounds: true,
            ocr: crate::ocr::OcrMode::Auto,
        }
    }
}

impl SnapshotRequest {
    /// Refuses a request that cannot be met: a token budget too small for
    /// a header and a window line.
    pub fn check(&self) -> Result<(), SessionError> {
        if self.max_tokens != 0 && self.max_tokens < compact::MIN_TOKENS {
            return Err(SessionError::Request(format!(
                "max_tokens {} is too small: give at least {} (or 0 for no budget)",
                self.max_tokens,
                compact::MIN_TOKENS
            )));
        }
        Ok(())
    }

    /// How the compact text of this request is rendered, with `notes`.
    pub fn render_options(&self, notes: Vec<String>) -> RenderOptions {
        RenderOptions {
            detail: self.detail,
            max_chars: self.max_chars,
            notes,
            bounds: self.bounds,
            tokens: (self.max_tokens > 0).then(|| crate::tokens::budget(self.max_tokens)),
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
    /// The compact text (or the overview text for `Scope::Overview`); with
    /// `since`, only what changed (see [`crate::since`]).
    pub text: String,
    /// This snapshot's id in its session (`s1`, `s2`, ...), what `since`
    /// names.
    pub id: String,
    /// The snapshot whose changes `text` shows, when it shows changes
    /// only.
    pub since: Option<String>,
    /// Past every element id this snapshot's chain has given: the next
    /// new element's number.
    pub next_id: u64,
}

impl Snapshot {
    /// The whole compact text, as `req` renders it (its detail, caps and
    /// bounds): `text` itself unless it shows changes only.
    pub fn whole_text(&self, req: &SnapshotRequest) -> std::borrow::Cow<'_, str> {
        if self.since.is_none() || self.envelope.scope == Some(Scope::Overview) {
            return std::borrow::Cow::Borrowed(&self.text);
        }
        std::borrow::Cow::Owned(compact::render(
            &self.envelope,
            &req.render_options(self.notes.clone()),
        ))
    }

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
    /// `since` names no snapshot this session keeps.
    #[error("{0}")]
    Since(String),
    /// A request that cannot be met as asked (the message says how).
    #[error("{0}")]
    Request(String),
    /// A wait that did not see what it waited for in time.
    #[error("{0}")]
    Timeout(String),
}

/// Snapshots a session keeps for `since`, the latest included.
pub const KEPT: usize = 4;

/// A session on one adapter.
pub struct Session {
    pub(crate) adapter: Box<dyn Adapter>,
    pub(crate) last: Option<Snapshot>,
    /// The snapshots before `last` that `since` can name, oldest first.
    pub(crate) earlier: VecDeque<Snapshot>,
    /// Snapshots taken (the last one's id is `s{taken}`).
    pub(crate) taken: u64,
    pub(crate) page_cursors: HashMap<String, usize>,
    pub(crate) last_request: Option<SnapshotRequest>,
    /// The reader of windows without a tree (started on first use).
    pub(crate) ocr: crate::ocr::Ocr,
    /// What `last` was made from, when the adapter gave its capture a
    /// revision: a capture at the same revision for the same request,
    /// screen and windows is answered with `last` itself (renamed).
    held: Option<Held>,
    /// Ids of snapshots answered by a later one with the same content
    /// (renamed), for `since`: old id, the id that holds it now.
    renamed: HashMap<String, String>,
}

/// What a held snapshot was made from (see [`Session::snapshot`]).
#[derive(Debug, Clone, PartialEq)]
struct Held {
    revision: u64,
    request: SnapshotRequest,
    screen: Screen,
    windows: Vec<cup_protocol::envelope::WindowInfo>,
    notes: Vec<String>,
    tools: Vec<cup_protocol::envelope::WebMcpTool>,
}

/// A snapshot taken: a new one (and what to hold it by), or the latest
/// one again (nothing changed).
enum Taken {
    New(Box<(Snapshot, Option<Held>)>),
    Same,
}

/// The windows a snapshot's scope picked, and how its envelope names them.
struct Chosen {
    targets: Vec<WindowHandle>,
    app: Option<AppInfo>,
    header_windows: bool,
    scope: Scope,
}

/// What a snapshot's scope picked from the window list.
enum Pick {
    /// The window list alone, with these notes.
    Overview(Vec<String>),
    /// Windows to capture.
    Capture(Chosen),
}

/// The window list alone, or what was captured of the windows picked.
enum Outcome {
    /// The window list alone, with these notes.
    Overview(Vec<String>),
    /// The windows picked and their capture.
    Captured(Chosen, Box<Capture>),
}

/// Snapshots of at least this many nodes are freed on a thread of their
/// own: a 10,000-node page's snapshot took 2-3 ms to free, on the path of
/// the snapshot that pushed it out (counting the nodes takes microseconds).
const DROP_ASIDE_NODES: usize = 2_000;

/// Frees `snapshot`: a large one on a thread of its own, off the caller's
/// path; a small one (or when no thread can be made) here.
fn drop_aside(snapshot: Snapshot) {
    if snapshot.envelope.node_count() < DROP_ASIDE_NODES {
        return;
    }
    // A failed spawn drops the closure, and the snapshot with it, here.
    let _ = std::thread::Builder::new()
        .name("cup-free".into())
        .spawn(move || drop(snapshot));
}

/// Old ids a session remembers as renamed (past this, all are forgotten:
/// `since` then names only kept snapshots by their own ids).
const RENAMED_MAX: usize = 256;

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
            earlier: VecDeque::new(),
            taken: 0,
            page_cursors: HashMap::new(),
            last_request: None,
            ocr: crate::ocr::Ocr::default(),
            held: None,
            renamed: HashMap::new(),
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
        if let Some(n) = snapshot.id.strip_prefix('s').and_then(|n| n.parse().ok()) {
            self.taken = self.taken.max(n);
        }
        self.earlier.clear();
        self.last = Some(snapshot);
    }

    /// Captures and keeps a snapshot. With `req.since`, its text says only
    /// what changed since that snapshot (see [`crate::since`]).
    ///
    /// # Errors
    ///
    /// The adapter's; [`SessionError::Since`] when `since` names no kept
    /// snapshot.
    pub async fn snapshot(&mut self, req: &SnapshotRequest) -> Result<&Snapshot, SessionError> {
        req.check()?;
        let id = format!("s{}", self.taken + 1);
        let taken = self.take_snapshot(req, &id).await?;
        self.taken += 1;
        self.page_cursors.clear();
        self.last_request = Some(req.clone());
        let (snapshot, held) = match taken {
            Taken::New(new) => *new,
            Taken::Same => {
                // Nothing changed: the latest snapshot answers, under the
                // new id (its old id still names it for `since`).
                if let Some(last) = self.last.as_mut() {
                    let old = std::mem::replace(&mut last.id, id.clone());
                    if self.renamed.len() >= RENAMED_MAX {
                        self.renamed.clear();
                    }
                    for holder in self.renamed.values_mut().filter(|h| **h == old) {
                        holder.clone_from(&id);
                    }
                    self.renamed.insert(old, id);
                    last.envelope.timestamp = now_ms();
                    return Ok(last);
                }
                return Err(SessionError::NoSnapshot);
            }
        };
        self.held = held;
        if let Some(previous) = self.last.take() {
            self.earlier.push_back(previous);
            while self.earlier.len() >= KEPT {
                if let Some(oldest) = self.earlier.pop_front() {
                    drop_aside(oldest);
                }
            }
        }
        Ok(self.last.insert(snapshot))
    }

    /// Captures without keeping: the latest snapshot, and so the ids an
    /// agent acts on, stay as they were (a trajectory recorder's look
    /// after an action).
    pub async fn look(&self, req: &SnapshotRequest) -> Result<Snapshot, SessionError> {
        match self.take_snapshot(req, "(not kept)").await? {
            Taken::New(new) => Ok(new.0),
            Taken::Same => {
                let mut same = self.last.clone().ok_or(SessionError::NoSnapshot)?;
                "(not kept)".clone_into(&mut same.id);
                same.envelope.timestamp = now_ms();
                Ok(same)
            }
        }
    }

    /// The kept snapshot `since` names: `last` or an id.
    fn base(&self, since: &str) -> Result<&Snapshot, SessionError> {
        let since = since.trim();
        let found = if since.eq_ignore_ascii_case("last") {
            self.last.as_ref()
        } else {
            let since = self.renamed.get(since).map_or(since, String::as_str);
            self.last
                .iter()
                .chain(self.earlier.iter())
                .find(|s| s.id == since)
        };
        found.ok_or_else(|| {
            let kept: Vec<&str> = self
                .earlier
                .iter()
                .chain(self.last.iter())
                .map(|s| s.id.as_str())
                .collect();
            SessionError::Since(if kept.is_empty() {
                format!("since {since}: no snapshot yet; take a whole one first (without since)")
            } else {
                format!(
                    "since {since}: not a kept snapshot (kept: {}, or \"last\"); take a whole one (without since)",
                    kept.join(", ")
                )
            })
        })
    }

    /// What `req`'s scope picks from `windows`: the windows to capture, or
    /// the window list alone.
    async fn pick(
        &self,
        req: &SnapshotRequest,
        windows: &[WindowHandle],
    ) -> Result<Pick, SessionError> {
        Ok(match req.scope {
            Scope::Overview => {
                Pick::Overview(self.adapter.display_note().await.into_iter().collect())
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
                Pick::Capture(Chosen {
                    targets: vec![fg],
                    app: Some(app),
                    header_windows: true,
                    scope: Scope::Foreground,
                })
            }
            Scope::Desktop => match self.adapter.desktop().await? {
                Some(d) => {
                    let app = AppInfo {
                        name: Some("Desktop".to_owned()),
                        pid: d.info.pid,
                        bundle_id: None,
                    };
                    Pick::Capture(Chosen {
                        targets: vec![d],
                        app: Some(app),
                        header_windows: false,
                        scope: Scope::Desktop,
                    })
                }
                None => Pick::Overview(vec![
                    "no desktop surface (no file-manager desktop window); showing the window list"
                        .to_owned(),
                ]),
            },
            Scope::Full => {
                let chosen: Vec<WindowHandle> = match req.app.as_deref().map(str::to_lowercase) {
                    Some(needle) => windows
                        .iter()
                        .filter(|w| w.info.title.to_lowercase().contains(&needle))
                        .cloned()
                        .collect(),
                    None => windows.to_vec(),
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
                Pick::Capture(Chosen {
                    targets: chosen,
                    app: None,
                    header_windows: false,
                    scope: Scope::Full,
                })
            }
        })
    }

    async fn take_snapshot(&self, req: &SnapshotRequest, id: &str) -> Result<Taken, SessionError> {
        let base = req.since.as_deref().map(|s| self.base(s)).transpose()?;
        // The snapshot `since` names, as the caller named it (an id a
        // later snapshot answered for stays its name).
        let since_name = |b: &Snapshot| -> String {
            match req.since.as_deref().map(str::trim) {
                Some(s) if !s.eq_ignore_ascii_case("last") => s.to_owned(),
                _ => b.id.clone(),
            }
        };
        let platform = self.adapter.platform();
        let started = std::time::Instant::now();
        // The screen is read beside the window listing and the capture:
        // nothing before the envelope needs it, and on the web each of
        // them is a round trip to the browser.
        let work = async {
            let windows = match req.scope {
                Scope::Foreground | Scope::Full => self.adapter.windows_for_capture().await?,
                Scope::Overview | Scope::Desktop => self.adapter.windows().await?,
            };
            let outcome = match self.pick(req, &windows).await? {
                Pick::Overview(notes) => Outcome::Overview(notes),
                Pick::Capture(chosen) => {
                    let capture = self.adapter.capture(&chosen.targets, &req.limits).await?;
                    Outcome::Captured(chosen, Box::new(capture))
                }
            };
            Ok::<_, SessionError>((windows, outcome))
        };
        let screen = async { self.adapter.screen().await.map_err(SessionError::from) };
        let (screen, (windows, outcome)) = tokio::try_join!(screen, work)?;
        tracing::debug!(
            elapsed_ms = started.elapsed().as_secs_f64() * 1e3,
            windows = windows.len(),
            "screen, windows and capture"
        );
        let screen = screen_of(&screen);
        let infos = || windows.iter().map(|w| w.info.clone()).collect::<Vec<_>>();

        let (
            Chosen {
                app,
                header_windows,
                scope,
                ..
            },
            capture,
        ) = match outcome {
            Outcome::Captured(chosen, capture) => (chosen, capture),
            Outcome::Overview(notes) => {
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
                return Ok(Taken::New(Box::new((
                    Snapshot {
                        envelope: env,
                        refs: HashMap::new(),
                        notes,
                        text,
                        id: id.to_owned(),
                        since: None,
                        next_id: base.map_or(0, |b| b.next_id),
                    },
                    None,
                ))));
            }
        };
        let Capture {
            mut tree,
            mut refs,
            partial,
            mut notes,
            tools,
            revision,
        } = *capture;
        // The adapter read what the held snapshot was made from, for the
        // same request on the same screen and windows: it answers again
        // (no ids, pixels, pruning or rendering to redo). Not for changes
        // since a snapshot, nor when the held one has text read from
        // pixels (pixels change without the tree).
        let held = revision
            .filter(|_| partial.is_none() && base.is_none())
            .map(|revision| Held {
                revision,
                request: req.clone(),
                screen,
                windows: infos(),
                notes: notes.clone(),
                tools: tools.clone(),
            });
        if held.is_some() && held == self.held && self.last.is_some() {
            return Ok(Taken::Same);
        }
        // Ids: the base's for the elements it had, new ones past the chain's.
        let mut next_id = match base {
            Some(b) => {
                let mut next = b.next_id.max(crate::since::next_free(&b.envelope.tree));
                crate::since::stabilize(&b.envelope.tree, &b.refs, &mut next, &mut tree, &mut refs);
                next
            }
            None => 0,
        };
        next_id = next_id.max(crate::since::next_free(&tree));
        // Text read from pixels takes ids no snapshot of this session gave
        // (an id never names two elements). In a partial capture an empty
        // window may be one that did not answer: `auto` leaves it.
        let mut ocr_id = self
            .last
            .iter()
            .chain(self.earlier.iter())
            .map(|s| s.next_id)
            .fold(next_id, u64::max);
        let ocr_mode = match (req.ocr, &partial) {
            (crate::ocr::OcrMode::Auto, Some(_)) => crate::ocr::OcrMode::Never,
            (mode, _) => mode,
        };
        self.ocr
            .read_windows(
                self.adapter.as_ref(),
                platform,
                ocr_mode,
                &mut tree,
                &mut ocr_id,
                &mut notes,
            )
            .await;
        self.ocr
            .read_regions(
                self.adapter.as_ref(),
                platform,
                ocr_mode,
                &mut tree,
                &mut ocr_id,
                &mut notes,
            )
            .await;
        next_id = next_id.max(ocr_id);
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
        let text = match base {
            None => compact::render(&env, &req.render_options(notes.clone())),
            Some(b) => {
                let whole = |env: &Envelope, notes: &[String]| {
                    compact::render(
                        env,
                        &RenderOptions {
                            max_chars: 0,
                            tokens: None,
                            ..req.render_options(notes.to_vec())
                        },
                    )
                };
                let found = crate::since::changes(
                    &whole(&b.envelope, &b.notes),
                    &whole(&env, &notes),
                    &format!("changes since {} (this is {id})", since_name(b)),
                    &format!(
                        "no change since {} (this is {id}); its lines stand",
                        since_name(b)
                    ),
                );
                if req.max_tokens > 0 {
                    crate::since::cap_tokens(found.text, crate::tokens::budget(req.max_tokens))
                } else {
                    crate::since::cap(found.text, req.max_chars)
                }
            }
        };
        let read_pixels = env.nodes().any(Node::is_from_pixels);
        Ok(Taken::New(Box::new((
            Snapshot {
                envelope: env,
                refs,
                notes,
                text,
                id: id.to_owned(),
                since: base.map(since_name),
                next_id,
            },
            held.filter(|_| !read_pixels),
        ))))
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
