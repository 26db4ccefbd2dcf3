//! `visual-cost`: what the visual layer costs (issue 23), in one run on one
//! private desktop with gtk3-widget-factory.
//!
//! - An element click until its effect is known: plain
//!   (`session.action`), and through the agent cursor's wrapper with the
//!   cursor off (what `cup mcp` runs around every pointer action), the
//!   two interleaved run by run; and with the cursor on (drawn on the X11
//!   overlay, glide and dwell at 0 ms: the drawing alone).
//! - A 1920x1080 screenshot, plain and with 150 set-of-marks (the
//!   window's actionable elements, topped up with a grid of cells to 150).
//!
//! ```text
//! cargo run --release -p cup-bench --bin visual-cost [-- --runs 9]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context as _};
use cup::{ActionParams, Point, Session, ShotTarget, SnapshotRequest};
use cup_bench::stats::summarize;
use cup_draw::marks::{self, Mark};
use cup_draw::{pointing, AgentCursor, CursorSettings, Motion};
use cup_linux::{Desktop, LinuxAdapter};
use cup_protocol::{Action, Rect, Role, Scope, State};
use cup_sandbox::{Sandbox, SandboxOptions};

const USAGE: &str = "\
usage: visual-cost [--runs N]

Times an element click plain and with the agent cursor off and on, and a
1920x1080 screenshot plain and with 150 marks, on one private desktop with
gtk3-widget-factory; 1 warm-up, then N timed runs each (default 9).";

/// Marks on the marked screenshot.
const MARKS: usize = 150;

fn session_on(sandbox: &Sandbox) -> Session {
    Session::new(Box::new(LinuxAdapter::for_desktop(Desktop {
        display: Some(sandbox.display().to_owned()),
        session_bus: Some(sandbox.session_bus_address().to_owned()),
        a11y_bus: Some(sandbox.a11y_address().to_owned()),
        xauthority: Some(sandbox.xauthority()),
        ..Desktop::default()
    })))
}

/// The first enabled check button: id and bounds.
async fn check_button(session: &mut Session) -> anyhow::Result<(String, Rect)> {
    let req = SnapshotRequest {
        scope: Scope::Foreground,
        ..SnapshotRequest::default()
    };
    let snap = session.snapshot(&req).await.context("snapshot")?;
    snap.envelope
        .tree
        .iter()
        .flat_map(|r| r.iter())
        .find(|n| {
            n.role == Role::Checkbox
                && n.name == "checkbutton"
                && !n.states.contains(&State::Disabled)
        })
        .and_then(|n| Some((n.id.clone(), n.bounds?)))
        .context("no enabled check button in gtk3-widget-factory")
}

/// How a click is made.
enum How<'a> {
    /// `session.action` alone.
    Plain,
    /// Through the cursor's wrapper, drawn by `cursor` if any (`None`:
    /// off) with `settings`.
    Wrapped(Option<&'a AgentCursor>, &'a CursorSettings),
}

/// One timed click made `how`.
async fn click(
    session: &mut Session,
    how: &How<'_>,
    id: &str,
    at: Rect,
) -> anyhow::Result<(f64, String)> {
    let centre = Point::new(at.x + (at.w / 2) as i64, at.y + (at.h / 2) as i64);
    let params = ActionParams::default();
    let t = Instant::now();
    let result = match *how {
        How::Plain => session.action(id, "click", &params).await,
        How::Wrapped(cursor, settings) => {
            let (r, notes) = pointing(
                cursor,
                settings,
                None,
                centre,
                Some(at),
                true,
                None,
                session.action(id, "click", &params),
            )
            .await;
            if !notes.is_empty() {
                bail!("the cursor was not drawn: {}", notes.join("; "));
            }
            r
        }
    }
    .context("click")?;
    Ok((t.elapsed().as_secs_f64() * 1e3, result.effect.to_string()))
}

struct Row {
    what: String,
    times: Vec<f64>,
    note: String,
}

fn line(row: &Row, base: Option<f64>) -> String {
    let s = summarize(&row.times);
    let (min, med) = s.map_or((f64::NAN, f64::NAN), |s| (s.min, s.median));
    let ratio = base.map_or("-".to_owned(), |b| format!("{:.2}x", med / b));
    format!(
        "{:<44} {:>9.2} {:>9.2} {:>8}  {}",
        row.what, min, med, ratio, row.note
    )
}

fn median(times: &[f64]) -> f64 {
    summarize(times).map_or(f64::NAN, |s| s.median)
}

async fn measure(sandbox: &Sandbox, runs: usize) -> anyhow::Result<bool> {
    let mut session = session_on(sandbox);
    let (id, bounds) = check_button(&mut session).await?;
    let off = CursorSettings {
        enabled: Some(false),
        ..CursorSettings::default()
    };
    let on = CursorSettings {
        enabled: Some(true),
        motion: Motion {
            glide_duration_ms: 0.0,
            dwell_after_click_ms: 0.0,
            idle_hide_ms: 60_000.0,
            ..Motion::default()
        },
        ..CursorSettings::default()
    };
    let overlay = session
        .adapter()
        .overlay()
        .await
        .context("the X11 overlay")?;
    let cursor = Arc::new(AgentCursor::new(overlay));

    // Plain and off interleaved (the same drift for both), then on.
    let (mut t_plain, mut t_off, mut t_on) = (Vec::new(), Vec::new(), Vec::new());
    let mut effects = Vec::new();
    for round in 0..=runs {
        let (a, e1) = click(&mut session, &How::Plain, &id, bounds).await?;
        let (b, e2) = click(&mut session, &How::Wrapped(None, &off), &id, bounds).await?;
        if round > 0 {
            t_plain.push(a);
            t_off.push(b);
            effects.extend([e1, e2]);
        }
    }
    for round in 0..=runs {
        let (c, e) = click(&mut session, &How::Wrapped(Some(&cursor), &on), &id, bounds).await?;
        if round > 0 {
            t_on.push(c);
            effects.push(e);
        }
    }
    cursor.hide().await.context("hiding the cursor")?;
    let confirmed = effects.iter().filter(|e| *e == "confirmed").count();

    // Screenshots: plain, and with 150 marks.
    let req = SnapshotRequest {
        scope: Scope::Foreground,
        ..SnapshotRequest::default()
    };
    let snap = session.snapshot(&req).await.context("snapshot")?.clone();
    let mut list: Vec<Mark> = snap
        .envelope
        .tree
        .iter()
        .flat_map(|r| r.iter())
        .filter(|n| n.actions.iter().any(|a| *a != Action::Focus))
        .filter_map(|n| {
            Some(Mark {
                id: n.id.clone(),
                rect: n.bounds?,
            })
        })
        .take(MARKS)
        .collect();
    let from_app = list.len();
    // Top up with 40x24 cells right of the window.
    let mut i = 0;
    while list.len() < MARKS {
        list.push(Mark {
            id: format!("g{i}"),
            rect: Rect::new(1400 + (i % 8) * 60, 40 + (i / 8) * 44, 40, 24),
        });
        i += 1;
    }
    let (mut t_shot, mut t_marks) = (Vec::new(), Vec::new());
    let mut placed = 0;
    let adapter = session.adapter();
    for round in 0..=runs {
        let t = Instant::now();
        let shot = adapter
            .screenshot(&ShotTarget::Screen)
            .await
            .context("screenshot")?;
        let a = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        let marked = marks::screenshot(adapter, &ShotTarget::Screen, &list, 1.0)
            .await
            .context("marked screenshot")?;
        let b = t.elapsed().as_secs_f64() * 1e3;
        placed = marked.drawn.placed.len();
        if round > 0 {
            t_shot.push(a);
            t_marks.push(b);
        }
        if shot.width != 1920 || marked.image.w != 1920 {
            bail!("the screen is not 1920 pixels wide");
        }
    }

    let rows_click = [
        Row {
            what: "element click -> effect, plain".into(),
            times: t_plain.clone(),
            note: String::new(),
        },
        Row {
            what: "element click -> effect, cursor off".into(),
            times: t_off.clone(),
            note: "interleaved with plain".into(),
        },
        Row {
            what: "element click -> effect, cursor on (0 ms glide)".into(),
            times: t_on,
            note: "drawing, ripple and focus frame only".into(),
        },
    ];
    let rows_shot = [
        Row {
            what: "screenshot 1920x1080".into(),
            times: t_shot.clone(),
            note: String::new(),
        },
        Row {
            what: format!("screenshot 1920x1080 with {MARKS} marks"),
            times: t_marks.clone(),
            note: format!("{from_app} from the window, {placed} labels placed"),
        },
    ];
    println!();
    println!(
        "Visual layer cost, {runs} timed runs after 1 warm-up; one private desktop (Xvfb \
         1920x1080, no window manager, no compositor), gtk3-widget-factory, cup in process. \
         {confirmed}/{} clicks reported confirmed.",
        effects.len()
    );
    println!();
    println!(
        "{:<44} {:>9} {:>9} {:>8}",
        "task", "min ms", "median", "x first"
    );
    let base = median(&t_plain);
    for r in &rows_click {
        println!("{}", line(r, Some(base)));
    }
    let base = median(&t_shot);
    for r in &rows_shot {
        println!("{}", line(r, Some(base)));
    }
    println!();
    // "Nothing measurable": the medians differ by less than the plain
    // runs' own spread (median absolute deviation) or 5 %.
    let (p, o) = (median(&t_plain), median(&t_off));
    let mut dev: Vec<f64> = t_plain.iter().map(|t| (t - p).abs()).collect();
    dev.sort_by(f64::total_cmp);
    let mad = dev.get(dev.len() / 2).copied().unwrap_or(0.0);
    let slack = mad.max(0.05 * p);
    let checks = [
        (
            format!(
                "cursor off adds nothing measurable to a click: median {o:.2} vs {p:.2} ms (difference {:.2} ms <= {slack:.2} ms, the larger of the plain runs' MAD and 5 %)",
                o - p
            ),
            o - p <= slack,
        ),
        (
            format!(
                "marks screenshot <= 2x plain: median {:.1} vs {:.1} ms ({:.2}x)",
                median(&t_marks),
                median(&t_shot),
                median(&t_marks) / median(&t_shot)
            ),
            median(&t_marks) <= 2.0 * median(&t_shot),
        ),
        (
            format!("every click confirmed ({confirmed}/{})", effects.len()),
            confirmed == effects.len(),
        ),
    ];
    for (what, ok) in &checks {
        println!("{} {what}", if *ok { "PASS" } else { "FAIL" });
    }
    Ok(checks.iter().all(|(_, ok)| *ok))
}

fn bench(runs: usize) -> anyhow::Result<bool> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?;
    eprintln!("== starting a private desktop");
    let sandbox = Sandbox::start(SandboxOptions::default()).context(
        "the private desktop did not start (scripts/install-deps.sh installs Xvfb, D-Bus, AT-SPI)",
    )?;
    eprintln!("== launching gtk3-widget-factory on {}", sandbox.display());
    let result = match sandbox.launch("gtk3-widget-factory", &[] as &[&str]) {
        Ok(_) => rt.block_on(measure(&sandbox, runs)),
        Err(e) => Err(anyhow::anyhow!(
            "gtk3-widget-factory did not start: {e} (scripts/install-deps.sh installs it)"
        )),
    };
    if let Err(e) = sandbox.stop() {
        eprintln!("warning: stopping the private desktop: {e}");
    }
    result
}

fn main() -> ExitCode {
    cup_bench::init_logs();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut args = args;
    if !args.iter().any(|a| a == "--runs") {
        args.extend(["--runs".to_owned(), "9".to_owned()]);
    }
    let result = match cup_bench::parse_runs(&args, USAGE).map_err(anyhow::Error::msg) {
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Some(runs)) => bench(runs),
        Err(e) => Err(e),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("visual-cost: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
