//! The report: one table row per app, tool and scope, then the issue's
//! targets as PASS/FAIL lines.

use std::fmt::Write as _;

use cup_protocol::Scope;

use crate::apps::AppSpec;
use crate::measurement::{Measurement, Outcome};
use crate::stats::{summarize, Summary};
use crate::tokens;

/// A tool under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// cup, in process (release build).
    Cup,
    /// cup over its own MCP server (`cup mcp`, stdio), the Cua Driver's path.
    CupMcp,
    /// The Python CUP SDK 0.1.0, in process.
    PythonSdk,
    /// The Cua Driver 0.37.0 over MCP stdio.
    CuaDriver,
}

impl Tool {
    /// The tool's name in the table, for a scope.
    pub fn label(self, scope: Scope) -> &'static str {
        match (self, scope) {
            (Tool::Cup, _) => "cup",
            (Tool::CupMcp, Scope::Overview) => "cup list_windows (MCP)",
            (Tool::CupMcp, _) => "cup get_window_state (MCP)",
            (Tool::PythonSdk, _) => "Python SDK",
            (Tool::CuaDriver, Scope::Overview) => "Cua list_windows",
            (Tool::CuaDriver, _) => "Cua get_window_state",
        }
    }
}

/// One measured (or failed) combination.
#[derive(Debug, Clone)]
pub struct Row {
    /// The app.
    pub app: AppSpec,
    /// The tool.
    pub tool: Tool,
    /// Foreground or overview.
    pub scope: Scope,
    /// What it measured.
    pub outcome: Outcome,
}

impl Row {
    fn summary(&self) -> Option<Summary> {
        self.outcome
            .as_ref()
            .ok()
            .and_then(|m| summarize(&m.times_ms))
    }

    /// Element lines the agent reads in the text: CUP compact lines
    /// (`[eN] ...`) or Cua markdown rows (`- ...`); foreground only.
    fn shown(&self) -> Option<usize> {
        let m = self.outcome.as_ref().ok()?;
        if self.scope == Scope::Overview {
            return None;
        }
        let marker = match self.tool {
            Tool::CuaDriver => "- ",
            Tool::Cup | Tool::CupMcp | Tool::PythonSdk => "[e",
        };
        Some(
            m.text
                .lines()
                .filter(|l| l.trim_start().starts_with(marker))
                .count(),
        )
    }

    fn tokens(&self) -> Option<usize> {
        self.outcome
            .as_ref()
            .ok()
            .and_then(|m| tokens::count(&m.text).ok())
    }
}

fn nodes_cell(m: &Measurement) -> String {
    let mut timed: Vec<u64> = m.nodes_per_run.iter().flatten().copied().collect();
    timed.sort_unstable();
    timed.dedup();
    let unit = if m.counts_elements { " el" } else { "" };
    match timed.as_slice() {
        [] => "?".to_owned(),
        [n] => format!("{n}{unit}"),
        [first, .., last] => format!("{first}..{last}{unit} (varies)"),
    }
}

fn find<'a>(rows: &'a [Row], app: &AppSpec, tool: Tool, scope: Scope) -> Option<&'a Row> {
    rows.iter()
        .find(|r| r.app.key == app.key && r.tool == tool && r.scope == scope)
}

/// Median CPU time per run, where the tool's process was measured.
pub fn cpu_cell(m: &Measurement) -> String {
    summarize(&m.cpu_ms).map_or("-".to_owned(), |s| format!("{:.1}", s.median))
}

/// The table (Markdown), and below it every failure with its reason and
/// the notes of the measurements.
pub fn table(rows: &[Row]) -> String {
    let header = [
        "app",
        "scope",
        "tool",
        "min ms",
        "median ms",
        "cpu ms",
        "nodes",
        "shown",
        "tokens",
        "peer/cup",
    ];
    let mut cells: Vec<[String; 10]> = Vec::new();
    let mut footnotes: Vec<String> = Vec::new();
    for row in rows {
        let scope = row.scope.to_string();
        let base = [
            row.app.label.to_owned(),
            scope,
            row.tool.label(row.scope).to_owned(),
        ];
        let [a, s, t] = base;
        match &row.outcome {
            Err(reason) => {
                footnotes.push(format!(
                    "[{}] {} / {} / {}: FAILED: {reason}",
                    footnotes.len() + 1,
                    row.app.label,
                    row.scope,
                    row.tool.label(row.scope)
                ));
                let mark = format!("FAILED [{}]", footnotes.len());
                cells.push([
                    a,
                    s,
                    t,
                    mark,
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                ]);
            }
            Ok(m) => {
                let summary = row.summary();
                // Against cup on the same path: Cua (over MCP) against cup
                // over MCP, the rest against cup in process.
                let baseline = if row.tool == Tool::CuaDriver {
                    Tool::CupMcp
                } else {
                    Tool::Cup
                };
                let ratio = match (row.tool, summary) {
                    (Tool::Cup, _) => "-".to_owned(),
                    (_, Some(peer)) => find(rows, &row.app, baseline, row.scope)
                        .and_then(Row::summary)
                        .filter(|cup| cup.median > 0.0)
                        .map_or("-".to_owned(), |cup| {
                            format!("{:.1}x", peer.median / cup.median)
                        }),
                    (_, None) => "-".to_owned(),
                };
                let mut min = summary.map_or("-".to_owned(), |s| format!("{:.1}", s.min));
                for note in &m.notes {
                    footnotes.push(format!(
                        "[{}] {} / {} / {}: {note}",
                        footnotes.len() + 1,
                        row.app.label,
                        row.scope,
                        row.tool.label(row.scope)
                    ));
                    let _ = write!(min, " [{}]", footnotes.len());
                }
                cells.push([
                    a,
                    s,
                    t,
                    min,
                    summary.map_or("-".to_owned(), |s| format!("{:.1}", s.median)),
                    cpu_cell(m),
                    nodes_cell(m),
                    row.shown().map_or("-".to_owned(), |n| n.to_string()),
                    row.tokens().map_or("?".to_owned(), |n| n.to_string()),
                    ratio,
                ]);
            }
        }
    }
    markdown(&header, &cells, 3, &footnotes)
}

/// A Markdown table: `header`, then `cells` (columns from `first_numeric`
/// on right-aligned), then the footnotes after a blank line.
pub fn markdown<R: AsRef<[String]>>(
    header: &[&str],
    cells: &[R],
    first_numeric: usize,
    footnotes: &[String],
) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in cells {
        for (w, c) in widths.iter_mut().zip(row.as_ref()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let numeric = |i: usize| i >= first_numeric;
    let line = |cols: &[String]| {
        let mut out = String::from("|");
        for (i, (c, w)) in cols.iter().zip(&widths).enumerate() {
            let pad = " ".repeat(w.saturating_sub(c.chars().count()));
            if numeric(i) {
                let _ = write!(out, " {pad}{c} |");
            } else {
                let _ = write!(out, " {c}{pad} |");
            }
        }
        out.push('\n');
        out
    };
    let mut out = line(&header.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>());
    out.push('|');
    for (i, w) in widths.iter().enumerate() {
        if numeric(i) {
            let _ = write!(out, "{}:|", "-".repeat(w + 1));
        } else {
            let _ = write!(out, "{}|", "-".repeat(w + 2));
        }
    }
    out.push('\n');
    for row in cells {
        out.push_str(&line(row.as_ref()));
    }
    if !footnotes.is_empty() {
        out.push('\n');
        for f in footnotes {
            out.push_str(f);
            out.push('\n');
        }
    }
    out
}

/// The result of one target check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Met.
    Pass,
    /// Not met (or cup failed).
    Fail,
    /// A peer needed for the comparison has no result.
    Unchecked,
}

/// One target of the issue, checked.
#[derive(Debug, Clone)]
pub struct Check {
    /// Met or not.
    pub status: Status,
    /// What was checked and the numbers.
    pub text: String,
}

fn check(pass: bool, text: String) -> Check {
    Check {
        status: if pass { Status::Pass } else { Status::Fail },
        text,
    }
}

fn median_of(rows: &[Row], app: &AppSpec, tool: Tool, scope: Scope) -> Result<f64, String> {
    match find(rows, app, tool, scope).map(|r| (&r.outcome, r.summary())) {
        None => Err("not measured".to_owned()),
        Some((Err(_), _)) => Err("failed".to_owned()),
        Some((Ok(_), None)) => Err("no timings".to_owned()),
        Some((Ok(_), Some(s))) => Ok(s.median),
    }
}

fn latency(rows: &[Row], app: &AppSpec, scope: Scope, limit_ms: f64) -> Check {
    let what = format!("{} {scope}: cup median <= {limit_ms:.0} ms", app.label);
    match median_of(rows, app, Tool::Cup, scope) {
        Ok(median) => check(median <= limit_ms, format!("{what}: {median:.1} ms")),
        Err(e) => check(false, format!("{what}: cup {e}")),
    }
}

/// cup's foreground median ≤ 1/10 of `peer`'s, both on the same `path`.
fn tenth(rows: &[Row], app: &AppSpec, cup: Tool, peer: Tool, path: &str) -> Check {
    let what = format!(
        "{} foreground, same path ({path}): {} median <= 1/10 of {}'s",
        app.label,
        cup.label(Scope::Foreground),
        peer.label(Scope::Foreground)
    );
    match (
        median_of(rows, app, cup, Scope::Foreground),
        median_of(rows, app, peer, Scope::Foreground),
    ) {
        (Err(e), _) => check(false, format!("{what}: cup {e}")),
        (Ok(_), Err(e)) => Check {
            status: Status::Unchecked,
            text: format!("{what}: {e} ({})", crate::SETUP_HINT),
        },
        (Ok(c), Ok(p)) => check(
            c <= p / 10.0,
            format!(
                "{what}: {c:.1} ms vs {p:.1} ms (limit {:.1} ms; {:.1}x faster)",
                p / 10.0,
                p / c
            ),
        ),
    }
}

/// The targets for the apps that were run.
pub fn checks(rows: &[Row], apps: &[AppSpec]) -> Vec<Check> {
    let mut out = Vec::new();
    for app in apps {
        match app.key {
            "gtk3" => {
                out.push(latency(rows, app, Scope::Foreground, 40.0));
                // Each peer against cup on its own path.
                out.push(tenth(rows, app, Tool::Cup, Tool::PythonSdk, "in process"));
                out.push(tenth(rows, app, Tool::CupMcp, Tool::CuaDriver, "MCP stdio"));
            }
            "gtk4" => out.push(latency(rows, app, Scope::Foreground, 120.0)),
            "chromium" => {
                out.push(latency(rows, app, Scope::Foreground, 200.0));
                let what = format!("{} foreground: same node count on every run", app.label);
                out.push(
                    match find(rows, app, Tool::Cup, Scope::Foreground).map(|r| &r.outcome) {
                        Some(Ok(m)) => {
                            let counts = m.distinct_nodes();
                            check(
                                counts.len() == 1,
                                format!(
                                    "{what} (warm-up + {} runs): {}",
                                    m.times_ms.len(),
                                    counts
                                        .iter()
                                        .map(u64::to_string)
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            )
                        }
                        _ => check(false, format!("{what}: cup failed")),
                    },
                );
            }
            _ => {}
        }
        out.push(latency(rows, app, Scope::Overview, 20.0));
        let what = format!(
            "{} foreground: cup's compact output not larger than the Python SDK's (o200k tokens)",
            app.label
        );
        let tokens_of = |tool| find(rows, app, tool, Scope::Foreground).and_then(Row::tokens);
        out.push(match (tokens_of(Tool::Cup), tokens_of(Tool::PythonSdk)) {
            (None, _) => check(false, format!("{what}: cup failed")),
            (Some(_), None) => Check {
                status: Status::Unchecked,
                text: format!("{what}: Python SDK not measured ({})", crate::SETUP_HINT),
            },
            (Some(cup), Some(py)) => {
                let shown = |tool| {
                    find(rows, app, tool, Scope::Foreground)
                        .and_then(Row::shown)
                        .map_or("?".to_owned(), |n| n.to_string())
                };
                let mut text = format!(
                    "{what}: {cup} tokens ({} element lines) vs {py} tokens ({} element lines)",
                    shown(Tool::Cup),
                    shown(Tool::PythonSdk)
                );
                let sdk_text = find(rows, app, Tool::PythonSdk, Scope::Foreground)
                    .and_then(|r| r.outcome.as_ref().ok())
                    .map(|m| m.text.as_str());
                if let (false, Some((off, lines))) = (cup <= py, sdk_text.map(offscreen_lines)) {
                    if lines > 0 && off * 5 >= lines * 4 {
                        text.push_str(&format!(
                            "; {off} of the SDK's {lines} element lines are marked offscreen and the rest of the window is pruned away (it reads VISIBLE without SHOWING as offscreen), so its text is not the window's content: see the same-tree line"
                        ));
                    }
                }
                check(cup <= py, text)
            }
        });
    }
    out
}

/// Element lines of a compact text marked offscreen, and all of them.
fn offscreen_lines(text: &str) -> (usize, usize) {
    let elements: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("[e"))
        .collect();
    let off = elements
        .iter()
        .filter(|l| l.contains("{off") || l.contains(",off"))
        .count();
    (off, elements.len())
}

/// cup's measurement of `app`'s foreground window, when it succeeded.
fn cup_foreground<'a>(rows: &'a [Row], app: &AppSpec) -> Option<&'a Measurement> {
    find(rows, app, Tool::Cup, Scope::Foreground).and_then(|r| r.outcome.as_ref().ok())
}

/// The envelope cup captured for `app`'s foreground window, if it did.
pub fn cup_envelope<'a>(rows: &'a [Row], app: &AppSpec) -> Option<&'a serde_json::Value> {
    cup_foreground(rows, app).and_then(|m| m.envelope.as_ref())
}

/// The tree part of a compact text: what follows the `#` header and its
/// blank line.
fn tree_part(text: &str) -> &str {
    text.split_once("\n\n").map_or(text, |(_, tree)| tree)
}

/// Like for like: the tree lines of cup's compact text against those of
/// the Python SDK's `serialize_compact` run on the very envelope cup
/// captured (`py_text`), so the formats are compared on the same tree
/// whatever each tool's capture keeps (the SDK marks nearly every GTK 4
/// node offscreen, for one). Headers are left out: they list the windows,
/// which is not the tree (cup writes `(untitled)` where the SDK writes an
/// empty title).
pub fn same_tree_check(rows: &[Row], app: &AppSpec, py_text: Result<String, String>) -> Check {
    let what = format!(
        "{} foreground, same tree: cup's compact tree lines not larger than the Python SDK's serialize_compact of cup's envelope (o200k tokens, headers excluded)",
        app.label
    );
    let cup = cup_foreground(rows, app).map(|m| tokens::count(tree_part(&m.text)));
    match (cup, py_text) {
        (None, _) => check(false, format!("{what}: cup failed")),
        (Some(_), Err(e)) => Check {
            status: Status::Unchecked,
            text: format!("{what}: {e}"),
        },
        (Some(cup), Ok(text)) => match (cup, tokens::count(tree_part(&text))) {
            (Ok(cup), Ok(py)) => check(cup <= py, format!("{what}: {cup} vs {py} tokens")),
            (Err(e), _) | (_, Err(e)) => check(false, format!("{what}: token count failed: {e}")),
        },
    }
}

/// What D13's folding (items without a place on screen, closed menus)
/// saves on cup's foreground text: the same envelope rendered with and
/// without it, in o200k tokens. A pass when folding never adds.
pub fn folding_check(rows: &[Row], app: &AppSpec) -> Check {
    let what = format!(
        "{} foreground: cup's compact text with D13's folding vs the same envelope without it (o200k tokens)",
        app.label
    );
    let Some(env) = cup_envelope(rows, app) else {
        return check(false, format!("{what}: cup captured no envelope"));
    };
    let env: cup_protocol::Envelope = match serde_json::from_value(env.clone()) {
        Ok(e) => e,
        Err(e) => return check(false, format!("{what}: the envelope does not parse: {e}")),
    };
    let opts = cup_protocol::compact::RenderOptions::default();
    let with = cup_protocol::compact::render_folding(&env, &opts, true);
    let without = cup_protocol::compact::render_folding(&env, &opts, false);
    match (tokens::count(&with), tokens::count(&without)) {
        (Ok(a), Ok(b)) => check(
            a <= b,
            format!(
                "{what}: {a} vs {b} tokens, {} vs {} lines",
                with.lines().count(),
                without.lines().count()
            ),
        ),
        (Err(e), _) | (_, Err(e)) => check(false, format!("{what}: token count failed: {e}")),
    }
}

/// The check lines, e.g. `PASS  gtk4-demo foreground: ...`.
pub fn check_lines(checks: &[Check]) -> String {
    let mut out = String::new();
    for c in checks {
        let tag = match c.status {
            Status::Pass => "PASS     ",
            Status::Fail => "FAIL     ",
            Status::Unchecked => "UNCHECKED",
        };
        let _ = writeln!(out, "{tag} {}", c.text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{offscreen_lines, tree_part};

    #[test]
    fn offscreen_element_lines_are_counted() {
        let text = "# CUP 0.1.0 | linux | 1920x1080\n# 3 nodes\n\n[e0] win \"W\"\n  [e1] lst \"L\" {off} [sel]\n  [e2] btn \"B\" {dis,off} [clk]\n";
        assert_eq!(offscreen_lines(text), (2, 3));
        assert_eq!(offscreen_lines(""), (0, 0));
    }

    #[test]
    fn tree_part_drops_the_header() {
        let text =
            "# CUP 0.1.0 | linux | 1920x1080\n#   (untitled)\n\n[e0] win \"A\"\n  [e1] btn \"B\"\n";
        assert_eq!(tree_part(text), "[e0] win \"A\"\n  [e1] btn \"B\"\n");
        assert_eq!(tree_part("[e0] win"), "[e0] win");
    }
}
