//! The visual layer's tools: the agent cursor (`get_agent_cursor_state`,
//! `set_agent_cursor_enabled`, `set_agent_cursor_motion`,
//! `set_agent_cursor_style`), drawn before every pointer action while it
//! is on; `highlight`; and set-of-marks screenshots (`marks: true`).

use std::sync::Arc;
use std::time::Duration;

use cup::{Point, ShotTarget};
use cup_draw::marks::{self, Mark};
use cup_draw::{motion, AgentCursor, CursorSettings};
use cup_protocol::{Action, Rect, State};
use serde_json::{json, Value};

use super::args::{fail, Args, ToolError};
use super::config::{self, Config};
use super::{Block, Output, Toolbox};

/// Longest `highlight` flash.
const MAX_HIGHLIGHT_MS: i64 = 10_000;
/// A `highlight` flash when no duration is given.
const DEFAULT_HIGHLIGHT_MS: i64 = 1500;

/// Whether the cursor is on, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CursorOn {
    /// Drawn before pointer actions.
    pub on: bool,
    /// Why (which setting or rule decided).
    pub why: String,
}

impl Toolbox {
    /// The overlay-backed cursor of this session (made on first use).
    async fn agent_cursor(&mut self) -> Result<Arc<AgentCursor>, ToolError> {
        if let Some(c) = &self.cursor {
            return Ok(c.clone());
        }
        let overlay = self.session()?.adapter().overlay().await?;
        let c = Arc::new(AgentCursor::new(overlay));
        self.cursor = Some(c.clone());
        Ok(c)
    }

    /// Whether the cursor is drawn: off for a `cup call` unless asked;
    /// else the setting; else (auto) on where a person watches the display
    /// and not under CI.
    pub(super) async fn cursor_on(&mut self) -> CursorOn {
        if self.one_shot && !self.cursor_asked {
            return CursorOn {
                on: false,
                why: "off for a one-shot cup call (pass --agent-cursor to draw it)".into(),
            };
        }
        let configured = if self.cursor_asked {
            Some(true)
        } else {
            self.config.agent_cursor.enabled
        };
        if let Some(on) = configured {
            return CursorOn {
                on,
                why: if self.cursor_asked {
                    "asked for (--agent-cursor)".into()
                } else {
                    format!("agent_cursor.enabled is {on} in the config")
                },
            };
        }
        if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
            return CursorOn {
                on: false,
                why: "auto: off under CI (CI is set)".into(),
            };
        }
        match self.agent_cursor().await {
            Ok(c) if c.overlay().attended().await => CursorOn {
                on: true,
                why: "auto: on, a person may watch this display".into(),
            },
            Ok(_) => CursorOn {
                on: false,
                why: "auto: off on a virtual display or headless browser (nobody watches)".into(),
            },
            Err(e) => CursorOn {
                on: false,
                why: format!("auto: off, no overlay here ({})", e.0),
            },
        }
    }

    /// Runs a pointer action at `to` with the agent cursor around it when
    /// it is on ([`cup_draw::pointing`]); notes of drawing
    /// problems are appended to the result.
    pub(super) async fn pointing<F>(
        &mut self,
        to: Option<Point>,
        focus: Option<Rect>,
        clicked: bool,
        end: Option<Point>,
        act: F,
    ) -> Result<Output, ToolError>
    where
        F: AsyncFnOnce(&mut Toolbox) -> Result<Output, ToolError>,
    {
        let Some(to) = to else {
            return act(self).await;
        };
        let mut notes = Vec::new();
        let cursor = if self.cursor_on().await.on {
            match self.agent_cursor().await {
                Ok(c) => Some(c),
                Err(e) => {
                    notes.push(format!("# agent cursor not drawn: {}", e.0));
                    None
                }
            }
        } else {
            None
        };
        // A first flight starts at the real pointer.
        let start = match &cursor {
            Some(c) if c.position().await.is_none() => match self.session() {
                Ok(s) => s.cursor().await.ok(),
                Err(_) => None,
            },
            _ => None,
        };
        let settings = self.config.agent_cursor.clone();
        let (result, drawn) = cup_draw::pointing(
            cursor.as_deref(),
            &settings,
            start,
            to,
            focus,
            clicked,
            end,
            act(self),
        )
        .await;
        notes.extend(drawn);
        let mut out = result?;
        out.blocks.extend(notes.into_iter().map(Block::Text));
        Ok(out)
    }
}

/// The bounds of element `id` in the last snapshot, if it has them.
pub(super) fn bounds_of(tb: &mut Toolbox, id: &str) -> Option<Rect> {
    tb.session().ok()?.last()?.node(id)?.bounds
}

/// The bounds of element `id` in the last snapshot; errors of `tool` say
/// what is missing (a snapshot, the id, the bounds) and what to do.
pub(super) fn bounds_in_last(tb: &mut Toolbox, tool: &str, id: &str) -> Result<Rect, ToolError> {
    let last = tb
        .session()?
        .last()
        .ok_or_else(|| ToolError(format!("{tool}: no snapshot yet; take one first")))?;
    let node = last.node(id).ok_or_else(|| {
        ToolError(format!(
            "{tool}: element {id:?} is not in the last snapshot; take a new snapshot and use its ids"
        ))
    })?;
    node.bounds.ok_or_else(|| {
        ToolError(format!(
            "{tool}: {id} has no bounds (not rendered); scroll it into view and snapshot again"
        ))
    })
}

/// The centre of a rectangle.
pub(super) fn centre(r: Rect) -> Point {
    let half = |v: u64| i64::try_from(v / 2).unwrap_or(0);
    Point::new(r.x + half(r.w), r.y + half(r.h))
}

pub(super) async fn call(
    tb: &mut Toolbox,
    tool: &str,
    args: &Args<'_>,
) -> Result<Output, ToolError> {
    match tool {
        "get_agent_cursor_state" => {
            args.only(&[])?;
            Ok(state(tb).await)
        }
        "set_agent_cursor_enabled" => {
            args.only(&["enabled"])?;
            let on = args.bool("enabled")?.ok_or_else(|| {
                ToolError(
                    "set_agent_cursor_enabled: missing `enabled`, e.g. {\"enabled\": false}".into(),
                )
            })?;
            let saved = save(tb, args.tool(), |c| {
                c.agent_cursor.enabled = Some(on);
                Ok(())
            })?;
            tb.config = saved;
            if !on {
                if let Some(c) = tb.cursor.clone() {
                    c.hide().await?;
                }
            }
            Ok(state(tb).await)
        }
        "set_agent_cursor_motion" => {
            let names: Vec<&str> = motion::KNOBS.iter().map(|k| k.0).collect();
            args.only(&names)?;
            let mut given = Vec::new();
            for name in &names {
                if let Some(v) = args.value(name).filter(|v| !v.is_null()) {
                    let n = v.as_f64().ok_or_else(|| {
                        ToolError(format!(
                            "set_agent_cursor_motion: `{name}` must be a number, got {v}"
                        ))
                    })?;
                    given.push((*name, n));
                }
            }
            let saved = save(tb, args.tool(), |c| {
                for (name, v) in &given {
                    c.agent_cursor.motion.set(name, *v)?;
                }
                Ok(())
            })?;
            tb.config = saved;
            Ok(state(tb).await)
        }
        "set_agent_cursor_style" => {
            args.only(&["gradient_colors", "bloom_color", "image_path"])?;
            let gradient = match args.value("gradient_colors") {
                None | Some(Value::Null) => None,
                Some(_) => Some(args.strings("gradient_colors", false)?),
            };
            let bloom = args.str("bloom_color")?;
            let image = args.str("image_path")?;
            let saved = save(tb, args.tool(), |c| {
                let s = &mut c.agent_cursor.style;
                if let Some(g) = gradient {
                    s.gradient_colors = g;
                }
                if let Some(b) = bloom {
                    s.bloom_color = b.trim().to_owned();
                }
                if let Some(i) = image {
                    let i = i.trim();
                    s.image_path = if i.is_empty() {
                        String::new()
                    } else {
                        // Kept absolute: the server may run elsewhere later.
                        cup_draw::expand_home(i).to_string_lossy().into_owned()
                    };
                }
                s.check()
            })?;
            tb.config = saved;
            Ok(state(tb).await)
        }
        "highlight" => highlight(tb, args).await,
        other => fail(format!("{other}: not a visual tool")),
    }
}

/// Changes the saved config with `change` (checked), writes it, and gives
/// the config now in effect; nothing is written when `change` fails.
fn save(
    tb: &Toolbox,
    tool: &str,
    change: impl FnOnce(&mut Config) -> Result<(), String>,
) -> Result<Config, ToolError> {
    let path = config::path();
    let mut current = config::load(&path)
        .map_err(|e| ToolError(format!("{tool}: {e}; fix or remove the file, then retry")))?
        .unwrap_or_else(|| tb.config.clone());
    change(&mut current).map_err(|e| ToolError(format!("{tool}: {e}")))?;
    config::save(&path, &current)
        .map_err(|e| ToolError(format!("{tool}: {e}; check the path or set CUP_CONFIG")))?;
    Ok(current)
}

/// The cursor's state as a result.
async fn state(tb: &mut Toolbox) -> Output {
    let on = tb.cursor_on().await;
    let s: CursorSettings = tb.config.agent_cursor.clone();
    let (visible, at) = match &tb.cursor {
        Some(c) => (c.visible().await, c.position().await),
        None => (false, None),
    };
    let m = s.motion;
    let text = format!(
        "agent cursor {} ({}); glide {} ms, dwell {} ms, idle hide {} ms; start_handle {}, end_handle {}, arc_size {}, arc_flow {}, spring {}; {}",
        if on.on { "on" } else { "off" },
        on.why,
        m.glide_duration_ms,
        m.dwell_after_click_ms,
        m.idle_hide_ms,
        m.start_handle,
        m.end_handle,
        m.arc_size,
        m.arc_flow,
        m.spring,
        if s.style.image_path.is_empty() {
            format!(
                "arrow {} bloom {}",
                if s.style.gradient_colors.is_empty() {
                    "default gradient".to_owned()
                } else {
                    s.style.gradient_colors.join("→")
                },
                if s.style.bloom_color.is_empty() {
                    "default"
                } else {
                    s.style.bloom_color.as_str()
                }
            )
        } else {
            format!("image {}", s.style.image_path)
        }
    );
    let mut out = Output::text(text);
    out.structured = Some(json!({
        "enabled": on.on,
        "why": on.why,
        "configured": s.enabled.map_or(json!("auto"), Value::Bool),
        "motion": serde_json::to_value(m).unwrap_or_default(),
        "style": serde_json::to_value(&s.style).unwrap_or_default(),
        "visible": visible,
        "position": at.map(|p| json!({"x": p.x, "y": p.y})),
    }));
    out
}

async fn highlight(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&["element_id", "x", "y", "w", "h", "duration_ms", "color"])?;
    let rect =
        match (
            args.str("element_id")?,
            super::cup_tools::region(args, ["x", "y", "w", "h"])?,
        ) {
            (Some(_), Some(_)) => return fail("highlight: give element_id or x,y,w,h, not both"),
            (None, None) => return fail(
                "highlight: give element_id (from the last snapshot) or x, y, w, h (screen pixels)",
            ),
            (None, Some(r)) => r,
            (Some(id), None) => bounds_in_last(tb, "highlight", &id)?,
        };
    let ms = args
        .int("duration_ms", 1, MAX_HIGHLIGHT_MS)?
        .unwrap_or(DEFAULT_HIGHLIGHT_MS);
    let colour = match args.str("color")? {
        Some(c) => {
            cup_draw::parse_colour(&c).map_err(|e| ToolError(format!("highlight: color: {e}")))?
        }
        None => tb
            .config
            .agent_cursor
            .style
            .bloom()
            .unwrap_or(cup_draw::DEFAULT_BLOOM),
    };
    let cursor = tb.agent_cursor().await?;
    cursor
        .highlight(rect, colour, Duration::from_millis(ms.unsigned_abs()))
        .await?;
    let mut out = Output::text(format!(
        "highlighted {},{} {}x{} for {ms} ms",
        rect.x, rect.y, rect.w, rect.h
    ));
    out.structured =
        Some(json!({"x": rect.x, "y": rect.y, "w": rect.w, "h": rect.h, "duration_ms": ms}));
    Ok(out)
}

/// Whether an element counts as actionable for marks: it takes an action
/// other than focus, and is not offscreen.
fn markable(n: &cup_protocol::Node) -> bool {
    n.actions.iter().any(|a| *a != Action::Focus) && !n.states.contains(&State::Offscreen)
}

/// A screenshot of `target` with the actionable elements of the latest
/// snapshot marked (one is taken when there is none): the PNG, the marks
/// as drawn, and a line listing the ids.
pub(super) async fn marked_shot(
    tb: &mut Toolbox,
    target: &ShotTarget,
) -> Result<(Vec<u8>, Value, String), ToolError> {
    let base = tb.base_request();
    marked(tb.session()?, &base, target).await
}

/// A set-of-marks screenshot of `target` on a session (what `marks: true`
/// gives): `base` is the snapshot taken when the
/// session has none.
pub async fn marked(
    session: &mut cup::Session,
    base: &cup::SnapshotRequest,
    target: &ShotTarget,
) -> Result<(Vec<u8>, Value, String), ToolError> {
    if session.last().is_none() {
        session.snapshot(base).await?;
    }
    let scale = session
        .adapter()
        .screen()
        .await
        .map(|s| s.scale)
        .unwrap_or(1.0);
    let mut list = Vec::new();
    if let Some(last) = session.last() {
        for root in &last.envelope.tree {
            for n in root.iter() {
                if let Some(b) = n.bounds.filter(|_| markable(n)) {
                    list.push(Mark {
                        id: n.id.clone(),
                        rect: b,
                    });
                }
            }
        }
    }
    let marks::MarkedShot { png, image, drawn } =
        marks::screenshot(session.adapter(), target, &list, scale).await?;
    let ids: Vec<&str> = drawn.placed.iter().map(|p| p.id.as_str()).collect();
    let mut line = format!("marks: {} ({})", ids.len(), ids.join(" "));
    if !drawn.unplaced.is_empty() {
        line.push_str(&format!(
            "; no room for the labels of {}",
            drawn.unplaced.join(" ")
        ));
    }
    let value = json!({
        "image": {"x": image.x, "y": image.y, "width": image.w, "height": image.h},
        "marks": serde_json::to_value(&drawn.placed).unwrap_or_default(),
        "unplaced": drawn.unplaced,
    });
    Ok((png, value, line))
}
