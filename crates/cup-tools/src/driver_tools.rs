//! The driver tools: window state with a screenshot, pointer input at
//! elements or points, keys, typed text, values, scrolling, apps, windows,
//! zoom and the permission check.

use std::time::Duration;

use cup::{ActionParams, Button, Gesture, Point, ShotTarget};
use cup_protocol::keys::parse_combo;
use cup_protocol::{Direction, Modifier, Rect, Scope};
use serde_json::json;

use super::args::{fail, Args, ToolError};
use super::config::CaptureMode;
use super::cup_tools::{launch, region};
use super::results::{action_output, snapshot_text};
use super::{visual, Block, Output, Toolbox};

/// Wheel notches in a `by: page` scroll step.
const NOTCHES_PER_PAGE: u32 = 10;

/// Zoom padding on each side, as a share of the region's size.
const ZOOM_PADDING: f64 = 0.2;

pub(super) async fn call(
    tb: &mut Toolbox,
    tool: &str,
    args: &Args<'_>,
) -> Result<Output, ToolError> {
    match tool {
        "get_window_state" => window_state(tb, args).await,
        "click" => click(tb, args, 1, None).await,
        "double_click" => click(tb, args, 2, None).await,
        "right_click" => click(tb, args, 1, Some(Button::Right)).await,
        "mouse_down" | "mouse_up" => {
            args.only(&["x", "y", "button", "from_zoom", "observe"])?;
            let at = tb.point(args, "x", "y")?;
            let button = button(args)?;
            let observe = args.bool("observe")?.unwrap_or(false);
            let g = if tool == "mouse_down" {
                Gesture::Down { at, button }
            } else {
                Gesture::Up { at, button }
            };
            tb.pointing(at, None, false, None, async move |tb: &mut Toolbox| {
                gesture(tb, g, observe).await
            })
            .await
        }
        "drag" => drag(tb, args).await,
        "move_cursor" => {
            args.only(&["x", "y", "from_zoom", "observe"])?;
            let to = tb
                .point(args, "x", "y")?
                .ok_or_else(|| ToolError("move_cursor: missing `x` and `y`".into()))?;
            let observe = args.bool("observe")?.unwrap_or(false);
            tb.pointing(
                Some(to),
                None,
                false,
                None,
                async move |tb: &mut Toolbox| gesture(tb, Gesture::Move { to }, observe).await,
            )
            .await
        }
        "get_cursor_position" => {
            args.only(&[])?;
            let p = tb.session()?.cursor().await?;
            let mut out = Output::text(format!("pointer at {},{}", p.x, p.y));
            out.structured = Some(json!({"x": p.x, "y": p.y}));
            Ok(out)
        }
        "get_screen_size" => {
            args.only(&[])?;
            let s = tb.session()?.adapter().screen().await?;
            let mut text = format!("{}x{} px, scale {}\n", s.width, s.height, s.scale);
            for (i, m) in s.monitors.iter().enumerate() {
                text.push_str(&format!(
                    "monitor {i} {}: {}x{} at {},{}, scale {}{}\n",
                    m.name,
                    m.rect.w,
                    m.rect.h,
                    m.rect.x,
                    m.rect.y,
                    m.scale,
                    if m.primary { " (primary)" } else { "" }
                ));
            }
            let monitors: Vec<_> = s
                .monitors
                .iter()
                .map(|m| {
                    json!({"name": m.name, "x": m.rect.x, "y": m.rect.y, "w": m.rect.w,
                           "h": m.rect.h, "scale": m.scale, "primary": m.primary})
                })
                .collect();
            let mut out = Output::text(text);
            out.structured = Some(
                json!({"width": s.width, "height": s.height, "scale": s.scale,
                                         "monitors": monitors}),
            );
            Ok(out)
        }
        "hotkey" => {
            args.only(&["keys", "observe"])?;
            let keys = args.strings("keys", false)?;
            if keys.is_empty() {
                return fail("hotkey: missing `keys`, e.g. {\"keys\": \"ctrl+c\"} or {\"keys\": [\"ctrl\", \"c\"]}");
            }
            press(tb, args, keys.join("+")).await
        }
        "press_key" => {
            args.only(&["key", "modifier", "modifiers", "observe"])?;
            let key = args.req_str("key", "\"enter\"")?;
            let mut parts = args.strings("modifier", true)?;
            parts.extend(args.strings("modifiers", true)?);
            parts.push(key);
            press(tb, args, parts.join("+")).await
        }
        "type_text" => type_text(tb, args).await,
        "set_value" => {
            args.only(&["element_id", "value", "observe"])?;
            let id = args.req_str("element_id", "\"e5\"")?;
            let value = args
                .str("value")?
                .ok_or_else(|| ToolError("set_value: missing `value`".into()))?;
            let params = ActionParams {
                value: Some(value),
                ..ActionParams::default()
            };
            let observe = args.bool("observe")?.unwrap_or(false);
            tb.acting(observe, move |s| {
                Box::pin(
                    async move { Ok(action_output(&s.action(&id, "setvalue", &params).await?)) },
                )
            })
            .await
        }
        "scroll" => scroll(tb, args).await,
        "list_apps" => list_apps(tb, args).await,
        "list_windows" => {
            args.only(&[])?;
            let windows = tb.session()?.adapter().windows().await?;
            let mut text = format!("# {} window(s)\n", windows.len());
            for w in &windows {
                text.push_str(&format!(
                    "{:?} pid {} {}{}\n",
                    w.info.title,
                    w.info.pid.map_or_else(|| "-".to_owned(), |p| p.to_string()),
                    w.info.bounds.map_or_else(
                        || "no bounds".to_owned(),
                        |b| format!("{},{} {}x{}", b.x, b.y, b.w, b.h)
                    ),
                    if w.info.foreground { " [fg]" } else { "" }
                ));
            }
            let mut out = Output::text(text);
            out.structured =
                Some(json!({"windows": windows.iter().map(|w| &w.info).collect::<Vec<_>>()}));
            Ok(out)
        }
        "launch_app" => {
            args.only(&["name", "urls", "args", "observe"])?;
            let urls = args.strings("urls", false)?;
            let mut extra = args.strings("args", false)?;
            let observe = args.bool("observe")?.unwrap_or(false);
            let name = match args.str("name")? {
                Some(n) if !n.trim().is_empty() => n,
                _ if tb.session()?.adapter().platform() == cup_protocol::PlatformId::Web => {
                    // On the web the URLs are the apps.
                    let mut out = Output::default();
                    if urls.is_empty() {
                        return fail("launch_app: give `name` or `urls`");
                    }
                    for url in &urls {
                        let one = launch(tb, url, Vec::new(), observe).await?;
                        out.is_error |= one.is_error;
                        out.blocks.extend(one.blocks);
                    }
                    return Ok(out);
                }
                _ => return fail("launch_app: missing `name`, e.g. {\"name\": \"calculator\"}"),
            };
            extra.extend(urls);
            launch(tb, &name, extra, observe).await
        }
        "zoom" => zoom(tb, args).await,
        "check_permissions" => {
            args.only(&["prompt"])?;
            let prompt = args.bool("prompt")?.unwrap_or(true);
            let checks = tb.session()?.check_prompting(prompt).await;
            let mut text = String::new();
            for c in &checks {
                text.push_str(&format!(
                    "{} {}: {}{}\n",
                    if c.ok { "ok" } else { "MISSING" },
                    c.name,
                    c.detail,
                    if c.ok {
                        String::new()
                    } else {
                        format!(" — fix: {}", c.fix)
                    }
                ));
            }
            let all_ok = checks.iter().all(|c| c.ok);
            let mut out = Output::text(text);
            out.structured = Some(json!({
                "ok": all_ok,
                "checks": checks.iter().map(|c| json!({"name": c.name, "ok": c.ok, "detail": c.detail, "fix": c.fix})).collect::<Vec<_>>(),
            }));
            Ok(out)
        }
        other => fail(format!("unknown tool {other:?}")),
    }
}

fn button(args: &Args<'_>) -> Result<Button, ToolError> {
    Ok(
        match args.choice("button", &["left", "middle", "right", "back", "forward"])? {
            Some(b) => Button::from_name(&b).unwrap_or(Button::Left),
            None => Button::Left,
        },
    )
}

fn modifiers(args: &Args<'_>) -> Result<Vec<Modifier>, ToolError> {
    let mut names = args.strings("modifier", true)?;
    names.extend(args.strings("modifiers", true)?);
    let mut out = Vec::new();
    for n in names {
        let m = Modifier::from_name(&n).ok_or_else(|| {
            ToolError(format!(
                "{}: unknown modifier {n:?}; use ctrl, shift, alt or super (cmd, meta, win, option, control also work)",
                args.tool()
            ))
        })?;
        if !out.contains(&m) {
            out.push(m);
        }
    }
    Ok(out)
}

/// Runs a gesture and reports its effect.
async fn gesture(tb: &mut Toolbox, g: Gesture, observe: bool) -> Result<Output, ToolError> {
    tb.acting(observe, move |s| {
        Box::pin(async move { Ok(action_output(&s.input(&g).await?)) })
    })
    .await
}

async fn press(tb: &mut Toolbox, args: &Args<'_>, combo: String) -> Result<Output, ToolError> {
    parse_combo(&combo).map_err(|e| ToolError(format!("{}: {combo:?}: {e}", args.tool())))?;
    let observe = args.bool("observe")?.unwrap_or(false);
    tb.acting(observe, move |s| {
        Box::pin(async move { Ok(action_output(&s.press(&combo).await?)) })
    })
    .await
}

/// The centre of element `id` of the last snapshot.
fn centre_of(tb: &mut Toolbox, tool: &str, id: &str) -> Result<Point, ToolError> {
    visual::bounds_in_last(tb, tool, id).map(visual::centre)
}

/// Whether element `id` of the last snapshot lists `verb`, or takes it
/// through the pointer (double and right clicks on anything with bounds).
fn element_offers(tb: &mut Toolbox, id: &str, verb: &str) -> bool {
    let Some(last) = tb.session().ok().and_then(|s| s.last()) else {
        return true; // let the action say what is wrong
    };
    let Some(node) = last.node(id) else {
        return true;
    };
    let Some(action) = cup_protocol::Action::from_name(verb) else {
        return false;
    };
    node.actions.contains(&action)
        || (matches!(
            action,
            cup_protocol::Action::DoubleClick | cup_protocol::Action::RightClick
        ) && node.bounds.is_some())
}

async fn click(
    tb: &mut Toolbox,
    args: &Args<'_>,
    count: u8,
    forced: Option<Button>,
) -> Result<Output, ToolError> {
    let mut known = vec!["element_id", "x", "y", "from_zoom", "modifier", "observe"];
    if args.tool() == "click" {
        known.extend(["button", "count"]);
    }
    args.only(&known)?;
    let button = match forced {
        Some(b) => b,
        None => button(args)?,
    };
    let count = match args.int("count", 1, 3)? {
        Some(c) => u8::try_from(c).unwrap_or(1),
        None => count,
    };
    let modifiers = modifiers(args)?;
    let observe = args.bool("observe")?.unwrap_or(false);
    let (at, focus) = match (args.str("element_id")?, tb.point(args, "x", "y")?) {
        (Some(_), Some(_)) => {
            return fail(format!("{}: give element_id or x,y, not both", args.tool()))
        }
        (None, None) => {
            return fail(format!(
                "{}: give element_id (from the last snapshot) or x and y (screen pixels)",
                args.tool()
            ))
        }
        (None, Some(at)) => (at, None),
        (Some(id), None) => {
            let verb = match (button, count) {
                (Button::Left, 1) => Some("click"),
                (Button::Left, 2) => Some("doubleclick"),
                (Button::Right, 1) => Some("rightclick"),
                _ => None,
            };
            // The element's own verb (AT-SPI / DOM, pointer otherwise); an
            // element without it, or a click with modifiers, is clicked
            // with the pointer at its centre.
            let own = verb.filter(|v| modifiers.is_empty() && element_offers(tb, &id, v));
            let bounds = visual::bounds_of(tb, &id);
            if let Some(verb) = own {
                let params = ActionParams::default();
                return tb
                    .pointing(
                        bounds.map(visual::centre),
                        bounds,
                        true,
                        None,
                        async move |tb: &mut Toolbox| {
                            tb.acting(observe, move |s| {
                                Box::pin(async move {
                                    Ok(action_output(&s.action(&id, verb, &params).await?))
                                })
                            })
                            .await
                        },
                    )
                    .await;
            }
            (centre_of(tb, args.tool(), &id)?, bounds)
        }
    };
    let g = Gesture::Click {
        at,
        button,
        count,
        modifiers,
    };
    tb.pointing(
        Some(at),
        focus,
        true,
        None,
        async move |tb: &mut Toolbox| gesture(tb, g, observe).await,
    )
    .await
}

async fn drag(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&[
        "from_x",
        "from_y",
        "to_x",
        "to_y",
        "path",
        "button",
        "duration_ms",
        "steps",
        "modifier",
        "from_zoom",
        "observe",
    ])?;
    let mut path = Vec::new();
    if let Some(points) = args.array("path")? {
        for (i, p) in points.iter().enumerate() {
            let xy = p
                .as_array()
                .filter(|a| a.len() == 2)
                .and_then(|a| Some(Point::new(a.first()?.as_i64()?, a.get(1)?.as_i64()?)));
            let Some(xy) = xy else {
                return fail(format!(
                    "drag: path[{i}] must be [x, y] with integers, got {p}"
                ));
            };
            path.push(tb.unzoom(args, xy)?);
        }
    } else {
        let from = tb.point(args, "from_x", "from_y")?;
        let to = tb.point(args, "to_x", "to_y")?;
        match (from, to) {
            (Some(a), Some(b)) => path = vec![a, b],
            _ => {
                return fail(
                    "drag: give from_x, from_y, to_x, to_y (screen pixels), or path [[x,y],...]",
                )
            }
        }
    }
    if path.len() < 2 {
        return fail("drag: path needs at least two points");
    }
    let (first, last) = (path.first().copied(), path.last().copied());
    let g = Gesture::Drag {
        path,
        button: button(args)?,
        duration: Duration::from_millis(
            args.int("duration_ms", 0, 60_000)?
                .unwrap_or(300)
                .unsigned_abs(),
        ),
        steps: args
            .int("steps", 1, 10_000)?
            .and_then(|s| u32::try_from(s).ok()),
        modifiers: modifiers(args)?,
    };
    let observe = args.bool("observe")?.unwrap_or(false);
    tb.pointing(first, None, false, last, async move |tb: &mut Toolbox| {
        gesture(tb, g, observe).await
    })
    .await
}

async fn type_text(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&["text", "element_id", "delay_ms", "observe"])?;
    let text = args
        .str("text")?
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ToolError("type_text: missing `text`, e.g. {\"text\": \"hello\"}".into()))?;
    let delay = Duration::from_millis(args.int("delay_ms", 0, 5000)?.unwrap_or(0).unsigned_abs());
    let observe = args.bool("observe")?.unwrap_or(false);
    let id = args.str("element_id")?;
    tb.acting(observe, move |s| {
        Box::pin(async move {
            let mut pre = String::new();
            if let Some(id) = id {
                let focused = s.action(&id, "focus", &ActionParams::default()).await?;
                if !focused.success {
                    return Ok(action_output(&focused));
                }
                pre = format!("focused {id}; ");
            }
            let mut result = s.input(&Gesture::Type { text, delay }).await?;
            result.message = format!("{pre}{}", result.message);
            Ok(action_output(&result))
        })
    })
    .await
}

async fn scroll(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&[
        "element_id",
        "x",
        "y",
        "from_zoom",
        "modifier",
        "observe",
        "direction",
        "amount",
        "by",
    ])?;
    let direction: Direction = args
        .choice("direction", &["up", "down", "left", "right"])?
        .ok_or_else(|| ToolError("scroll: missing `direction` (up, down, left or right)".into()))?
        .parse()
        .map_err(|e: cup_protocol::UnknownWord| ToolError(e.to_string()))?;
    let amount = args.int("amount", 1, 100)?.unwrap_or(3);
    let per = if args.choice("by", &["line", "page"])?.as_deref() == Some("page") {
        NOTCHES_PER_PAGE
    } else {
        1
    };
    let notches = u32::try_from(amount).unwrap_or(3) * per;
    let modifiers = modifiers(args)?;
    let observe = args.bool("observe")?.unwrap_or(false);
    let at = tb.point(args, "x", "y")?;
    match (args.str("element_id")?, at) {
        (Some(id), None) if modifiers.is_empty() => {
            let params = ActionParams {
                direction: Some(direction),
                amount: Some(notches),
                ..ActionParams::default()
            };
            let bounds = visual::bounds_of(tb, &id);
            tb.pointing(
                bounds.map(visual::centre),
                bounds,
                false,
                None,
                async move |tb: &mut Toolbox| {
                    tb.acting(observe, move |s| {
                        Box::pin(async move {
                            Ok(action_output(&s.action(&id, "scroll", &params).await?))
                        })
                    })
                    .await
                },
            )
            .await
        }
        (Some(_), Some(_)) => fail("scroll: give element_id or x,y, not both"),
        (id, at) => {
            let at = match (id, at) {
                (Some(id), _) => Some(centre_of(tb, "scroll", &id)?),
                (None, at) => at,
            };
            let g = Gesture::Scroll {
                at,
                direction,
                amount: notches,
                modifiers,
            };
            tb.pointing(at, None, false, None, async move |tb: &mut Toolbox| {
                gesture(tb, g, observe).await
            })
            .await
        }
    }
}

/// Running: a process or a window (web pages have no pid of their own).
fn is_running(a: &cup::AppEntry) -> bool {
    !a.pids.is_empty() || !a.windows.is_empty()
}

async fn list_apps(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&["running_only"])?;
    let running_only = args.bool("running_only")?.unwrap_or(false);
    let apps = tb.session()?.apps().await?;
    let shown: Vec<&cup::AppEntry> = apps
        .iter()
        .filter(|a| !running_only || is_running(a))
        .collect();
    let running = apps.iter().filter(|a| is_running(a)).count();
    let mut text = format!("# {} app(s), {running} running\n", shown.len());
    for a in &shown {
        text.push_str(&format!("{:?} id={}", a.name, a.id));
        if !a.pids.is_empty() {
            let pids: Vec<String> = a.pids.iter().map(u32::to_string).collect();
            text.push_str(&format!(" running pid {}", pids.join(",")));
        }
        if !a.windows.is_empty() {
            text.push_str(&format!(" windows {:?}", a.windows));
        }
        if !a.installed && !a.pids.is_empty() {
            text.push_str(" (not installed as an app)");
        }
        text.push('\n');
    }
    let mut out = Output::text(text);
    out.structured = Some(json!({"apps": shown.iter().map(|a| json!({
        "name": a.name, "id": a.id, "pids": a.pids, "windows": a.windows, "installed": a.installed,
    })).collect::<Vec<_>>()}));
    Ok(out)
}

async fn window_state(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&[
        "window",
        "pid",
        "query",
        "include_screenshot",
        "screenshot_out_file",
        "max_depth",
        "detail",
        "marks",
    ])?;
    let marks = args.bool("marks")?.unwrap_or(false);
    let mut req = tb.request(args)?;
    let mode = tb.config().capture_mode;
    let wanted = args.str("window")?;
    let pid = args.int("pid", 1, i64::from(u32::MAX))?;
    let query = args.str("query")?;
    // The configured capture mode, unless the call says otherwise: som is
    // both, ax the tree only, vision the screenshot only (no tree walk).
    let include = args.bool("include_screenshot")?;
    let with_shot = include.unwrap_or(mode != CaptureMode::Ax);
    let with_tree = mode != CaptureMode::Vision || include == Some(false) || query.is_some();
    let out_file = args.str("screenshot_out_file")?;
    let session = tb.session()?;
    let title = match (wanted, pid) {
        (Some(w), _) => Some(w),
        (None, Some(pid)) => {
            let windows = session.adapter().windows().await?;
            let w = windows
                .iter()
                .filter(|w| w.info.pid == Some(pid))
                .max_by_key(|w| w.info.foreground)
                .ok_or_else(|| {
                    ToolError(format!(
                        "get_window_state: no window of pid {pid}; call list_windows to see the open ones"
                    ))
                })?;
            Some(w.info.title.clone())
        }
        (None, None) => None,
    };
    match &title {
        Some(t) => {
            req.scope = Scope::Full;
            req.app = Some(t.clone());
        }
        None => req.scope = Scope::Foreground,
    }
    let (text, window_title) = if with_tree {
        let snap = session.snapshot(&req).await?;
        let text = snapshot_text(snap, query.as_deref(), &req)?;
        let window_title = snap
            .envelope
            .tree
            .first()
            .map(|r| r.name.clone())
            .or(title)
            .unwrap_or_default();
        (text, window_title)
    } else {
        let window_title = match title {
            Some(t) => t,
            None => session
                .adapter()
                .windows()
                .await?
                .into_iter()
                .find(|w| w.info.foreground)
                .map(|w| w.info.title)
                .ok_or_else(|| {
                    ToolError(
                        "get_window_state: no foreground window; give `window` or `pid` (list_windows shows them)"
                            .into(),
                    )
                })?,
        };
        (
            format!("# capture_mode vision: the screenshot of {window_title:?} only (set_config capture_mode som for the tree too)"),
            window_title,
        )
    };
    let mut out = Output::text(text);
    if !with_shot {
        return Ok(out);
    }
    let target = if session.adapter().platform() == cup_protocol::PlatformId::Web {
        ShotTarget::Screen
    } else {
        ShotTarget::Window(window_title)
    };
    let (png, mut note, marked) = if marks {
        let (png, value, line) = visual::marked_shot(tb, &target).await?;
        let image = &value["image"];
        let note = format!(
            "screenshot {}x{} px at {},{} (screen pixels); {line}",
            image["width"], image["height"], image["x"], image["y"]
        );
        (png, note, Some(value))
    } else {
        let shot = session.screenshot(&target).await?;
        let note = format!(
            "screenshot {}x{} px at {},{} (screen pixels)",
            shot.width, shot.height, shot.x, shot.y
        );
        (shot.png, note, None)
    };
    out.structured = marked;
    match out_file {
        Some(path) => {
            std::fs::write(&path, &png).map_err(|e| {
                ToolError(format!(
                    "get_window_state: cannot write {path}: {e}; give a writable path"
                ))
            })?;
            note.push_str(&format!(" written to {path}"));
            out.blocks.push(Block::Text(note));
        }
        None => {
            out.blocks.push(Block::Png(png));
            out.blocks.push(Block::Text(note));
        }
    }
    Ok(out)
}

async fn zoom(tb: &mut Toolbox, args: &Args<'_>) -> Result<Output, ToolError> {
    args.only(&["x", "y", "w", "h"])?;
    let r = region(args, ["x", "y", "w", "h"])?
        .ok_or_else(|| ToolError("zoom: give x, y, w and h (screen pixels)".into()))?;
    let session = tb.session()?;
    let screen = session.adapter().screen().await?;
    let pad_x = (r.w as f64 * ZOOM_PADDING).round() as i64;
    let pad_y = (r.h as f64 * ZOOM_PADDING).round() as i64;
    let x0 = (r.x - pad_x).max(0);
    let y0 = (r.y - pad_y).max(0);
    let x1 = (r.x + i64::try_from(r.w).unwrap_or(0) + pad_x).min(screen.width);
    let y1 = (r.y + i64::try_from(r.h).unwrap_or(0) + pad_y).min(screen.height);
    if x1 <= x0 || y1 <= y0 {
        return fail(format!(
            "zoom: the region lies outside the screen (0,0 {}x{})",
            screen.width, screen.height
        ));
    }
    let padded = Rect::new(x0, y0, (x1 - x0).unsigned_abs(), (y1 - y0).unsigned_abs());
    let shot = session.screenshot(&ShotTarget::Region(padded)).await?;
    tb.zoom = Some(Point::new(shot.x, shot.y));
    let note = format!(
        "zoom {}x{} px at {},{} (native resolution); pointer tools with from_zoom:true take this image's pixels",
        shot.width, shot.height, shot.x, shot.y
    );
    Ok(Output::image(shot.png, note))
}
