//! The summary of `node-capture`: the table, the parts and the targets.

use super::*;

// ---------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------

pub(crate) fn ms(v: Option<f64>) -> String {
    v.map_or("-".to_owned(), |v| {
        if v < 100.0 {
            format!("{v:.1}")
        } else {
            format!("{v:.0}")
        }
    })
}

/// `peer / base` for min and median, as `1.03 / 1.05` (two decimals below
/// 10, one above).
pub(crate) fn ratios(peer: Option<Summary>, base: Option<Summary>) -> String {
    match (peer, base) {
        (Some(p), Some(b)) if b.min > 0.0 && b.median > 0.0 => {
            let f = |r: f64| {
                if r < 10.0 {
                    format!("{r:.2}x")
                } else {
                    format!("{r:.1}x")
                }
            };
            format!("{} / {}", f(p.min / b.min), f(p.median / b.median))
        }
        _ => "-".to_owned(),
    }
}

pub(crate) fn table(rows: &[Row]) -> String {
    let header = [
        "where",
        "tool",
        "nodes",
        "min ms",
        "median ms",
        "cpu ms",
        "x min / median",
        "1st min ms",
        "1st median ms",
        "x 1st min / median",
        "process ms",
    ];
    let mut cells: Vec<[String; 11]> = Vec::new();
    let mut footnotes: Vec<String> = Vec::new();
    for row in rows {
        let mut mark = String::new();
        let mut note = |text: String, footnotes: &mut Vec<String>| {
            footnotes.push(format!(
                "[{}] {} / {}: {text}",
                footnotes.len() + 1,
                row.place.label(),
                row.tool.label()
            ));
            let _ = write!(mark, " [{}]", footnotes.len());
        };
        let base = row.tool.baseline().and_then(|b| find(rows, row.place, b));
        match &row.warm {
            Err(reason) => {
                note(format!("FAILED: {reason}"), &mut footnotes);
                for text in &row.notes {
                    note(text.clone(), &mut footnotes);
                }
                let mut r: [String; 11] = Default::default();
                r[0] = row.place.label().to_owned();
                r[1] = row.tool.label().to_owned();
                r[2] = format!("FAILED{mark}");
                for c in &mut r[3..] {
                    *c = "-".to_owned();
                }
                cells.push(r);
            }
            Ok(child) => {
                for text in row.notes.iter().chain(&child.m.notes) {
                    note(text.clone(), &mut footnotes);
                }
                let failed: Vec<&String> =
                    row.cold.iter().filter_map(|c| c.as_ref().err()).collect();
                if let Some(first) = failed.first() {
                    note(
                        format!(
                            "{} of {} fresh processes failed: {first}",
                            failed.len(),
                            row.cold.len()
                        ),
                        &mut footnotes,
                    );
                }
                let nodes = match row.nodes().as_slice() {
                    [] => "?".to_owned(),
                    [n] => n.to_string(),
                    [first, .., last] => format!("{first}..{last} (varies)"),
                };
                let summary = row.summary();
                let cold = row.cold();
                cells.push([
                    row.place.label().to_owned(),
                    row.tool.label().to_owned(),
                    format!("{nodes}{mark}"),
                    ms(summary.map(|s| s.min)),
                    ms(summary.map(|s| s.median)),
                    ms(summarize(&child.m.cpu_ms).map(|s| s.median)),
                    ratios(summary, base.and_then(Row::summary)),
                    ms(cold.map(|s| s.min)),
                    ms(cold.map(|s| s.median)),
                    ratios(cold, base.and_then(Row::cold)),
                    ms(row.cold_median(|c| Some(c.wall_ms))),
                ]);
            }
        }
    }
    report::markdown(&header, &cells, 3, &footnotes)
}

/// The packages, and the fresh processes' parts.
pub(crate) fn parts(rows: &[Row], cold_runs: usize) -> String {
    let mut out = String::from("Packages:\n");
    let mut seen = Vec::new();
    for row in rows {
        if let Ok(c) = &row.warm {
            let package = c.str("package").unwrap_or("?");
            let node = c
                .str("node")
                .map_or(String::new(), |v| format!(", node {v}"));
            let line = format!("  {}: {package}{node}", row.tool.label());
            if !seen.contains(&line) {
                seen.push(line.clone());
                let _ = writeln!(out, "{line}");
            }
        }
    }
    let _ = writeln!(
        out,
        "\n1st: spawn of a fresh process to its first compact text (the child's Unix time then, \
         minus the spawn's here), min and median of {cold_runs}; process: spawn to exit. Parts \
         (medians):"
    );
    for row in rows.iter().filter(|r| r.cold.iter().any(Result::is_ok)) {
        let part = |key: &'static str| ms(row.cold_median(move |c| c.f64(key)));
        let body = match row.tool {
            Tool::Rust => format!(
                "runtime + Session::new {} ms + first snapshot {} ms",
                part("session_ms"),
                part("first_snapshot_ms")
            ),
            _ => format!(
                "node start-up {} ms + import {} ms + Session.create {} ms + first snapshot {} ms",
                part("node_start_ms"),
                part("import_ms"),
                part("session_ms"),
                part("first_snapshot_ms")
            ),
        };
        let _ = writeln!(
            out,
            "  {} / {}: {body}; spawn -> first text {} ms",
            row.place.label(),
            row.tool.label(),
            ms(row.cold().map(|s| s.median))
        );
    }
    let mut places: Vec<Place> = rows.iter().map(|r| r.place).collect();
    places.dedup();
    let mut header = false;
    for place in places {
        let (Some(Ok(rust)), Some(Ok(node))) = (
            find(rows, place, Tool::Rust).map(|r| r.warm.as_ref()),
            find(rows, place, Tool::CupRs).map(|r| r.warm.as_ref()),
        ) else {
            continue;
        };
        if !header {
            let _ = writeln!(
                out,
                "\nCPU per warm capture, mean over the timed captures (/proc/self/task/*/schedstat of the measuring process):"
            );
            header = true;
        }
        let mean = |c: &Child| {
            let n = c.m.cpu_ms.len();
            (n > 0).then(|| c.m.cpu_ms.iter().sum::<f64>() / n as f64)
        };
        let _ = writeln!(
            out,
            "  {}: cup in process {} ms (every thread); cup-rs {} ms, of which its cup-io thread \
             (the capture) {} ms and JavaScript's main thread {} ms (the rest: napi's runtime, V8's \
             helpers). The envelope's JSON, which the addon writes only for compact: false: \
             serde_json::to_string of the same envelope took {} ms ({} bytes) in cup's process.",
            place.label(),
            ms(mean(rust)),
            ms(mean(node)),
            ms(node.f64("io_thread_cpu_ms")),
            ms(node.f64("main_thread_cpu_ms")),
            ms(rust.f64("envelope_json_ms")),
            rust.extra
                .get("envelope_json_bytes")
                .and_then(Value::as_u64)
                .map_or("?".to_owned(), |b| b.to_string()),
        );
    }
    out
}

/// A target line (`required` ones decide the exit code), or a figure for
/// information (`info`).
pub(crate) struct Check {
    pub(crate) status: Status,
    pub(crate) text: String,
    pub(crate) required: bool,
    pub(crate) info: bool,
}

impl Check {
    /// A check the run must pass.
    pub(crate) fn required(status: Status, text: String) -> Check {
        Check {
            status,
            text,
            required: true,
            info: false,
        }
    }
}

pub(crate) fn median_min(
    rows: &[Row],
    place: Place,
    tool: Tool,
    cold: bool,
) -> Result<Summary, String> {
    match find(rows, place, tool) {
        None => Err("not run".to_owned()),
        Some(Row { warm: Err(e), .. }) => Err(format!("failed: {e}")),
        Some(row) => {
            if cold { row.cold() } else { row.summary() }.ok_or_else(|| "no timings".to_owned())
        }
    }
}

pub(crate) fn checks(rows: &[Row], places: &[Place]) -> Vec<Check> {
    let mut out = Vec::new();
    let pass = |ok: bool| if ok { Status::Pass } else { Status::Fail };
    for &place in places {
        let label = place.label();
        // cup-rs within 10 % of cup in process, the same capture.
        let what = format!(
            "{label}: cup-rs capture within {:.0} % of cup in process (Rust), min and median",
            (OVERHEAD - 1.0) * 100.0
        );
        out.push(
            match (
                median_min(rows, place, Tool::CupRs, false),
                median_min(rows, place, Tool::Rust, false),
            ) {
                (Ok(n), Ok(r)) => {
                    let (a, b) = (n.min / r.min, n.median / r.median);
                    Check::required(
                        pass(a <= OVERHEAD && b <= OVERHEAD),
                        format!(
                            "{what}: min {:.1} vs {:.1} ms ({a:.2}x), median {:.1} vs {:.1} ms ({b:.2}x)",
                            n.min, r.min, n.median, r.median
                        ),
                    )
                }
                (Err(e), _) => Check::required(Status::Fail, format!("{what}: cup-rs {e}")),
                (_, Err(e)) => {
                    Check::required(Status::Fail, format!("{what}: cup in process {e}"))
                }
            },
        );
        // The same capture: the same nodes.
        let what = format!(
            "{label}: the same capture: cup-rs's node counts (before pruning) = cup in process's"
        );
        let nodes = |tool| find(rows, place, tool).map(Row::nodes).unwrap_or_default();
        let (n, r) = (nodes(Tool::CupRs), nodes(Tool::Rust));
        out.push(Check::required(
            pass(!n.is_empty() && n == r),
            format!("{what}: {n:?} vs {r:?}"),
        ));
        // >= 10x faster than the reference: capture and import + first capture.
        let reference_ran = find(rows, place, Tool::Reference).is_some_and(|r| r.warm.is_ok());
        for (cold, name) in [(false, "capture"), (true, "import + first capture")] {
            let what = format!(
                "{label}: cup-rs >= {SPEEDUP:.0}x faster than the reference TS SDK, {name}, min and median"
            );
            out.push(
                match (
                    median_min(rows, place, Tool::CupRs, cold),
                    median_min(rows, place, Tool::Reference, cold),
                ) {
                    (Ok(n), Ok(p)) => {
                        let (a, b) = (p.min / n.min, p.median / n.median);
                        Check::required(
                            pass(a >= SPEEDUP && b >= SPEEDUP),
                            format!(
                                "{what}: min {:.1} vs {:.1} ms ({a:.1}x), median {:.1} vs {:.1} ms ({b:.1}x)",
                                n.min, p.min, n.median, p.median
                            ),
                        )
                    }
                    (Err(e), _) => Check::required(Status::Fail, format!("{what}: cup-rs {e}")),
                    // The issue asks for the desktop comparison only where
                    // the reference's Linux adapter runs at all.
                    (_, Err(e)) => Check {
                        status: Status::Unchecked,
                        text: format!(
                            "{what}: the reference {}{}",
                            e,
                            if place == Place::Gtk3 && !reference_ran {
                                " (its Linux adapter does not run: not a target here)"
                            } else {
                                ""
                            }
                        ),
                        required: place != Place::Gtk3 || reference_ran,
                        info: false,
                    },
                },
            );
        }
        // Information: what cup-rs costs over cup on a first capture.
        if let (Ok(n), Ok(r)) = (
            median_min(rows, place, Tool::CupRs, true),
            median_min(rows, place, Tool::Rust, true),
        ) {
            out.push(Check {
                status: Status::Unchecked,
                text: format!(
                    "{label}: spawn -> first text, cup-rs in node {:.1} ms vs cup's own process {:.1} ms (median; the node start-up and import are the difference)",
                    n.median, r.median
                ),
                required: false,
                info: true,
            });
        }
        if place == Place::Web {
            if let (Ok(d), Ok(p)) = (
                median_min(rows, place, Tool::CupRsDefault, false),
                median_min(rows, place, Tool::Reference, false),
            ) {
                out.push(Check {
                    status: Status::Unchecked,
                    text: format!(
                        "{label}: cup-rs's default (repeated snapshots of the unchanged page re-read what changed) {:.1} ms vs the reference {:.1} ms, median ({:.1}x)",
                        d.median,
                        p.median,
                        p.median / d.median
                    ),
                    required: false,
                    info: true,
                });
            }
        }
    }
    out
}

pub(crate) fn check_lines(checks: &[Check]) -> String {
    let mut out = String::new();
    for c in checks {
        let tag = match c.status {
            _ if c.info => "INFO     ",
            Status::Pass => "PASS     ",
            Status::Fail => "FAIL     ",
            Status::Unchecked => "UNCHECKED",
        };
        let _ = writeln!(out, "{tag} {}", c.text);
    }
    out
}
