//! `/metrics` in Prometheus' text format: tool calls by tool and outcome,
//! their latency (a histogram per tool: snapshots and actions apart),
//! calls in flight, MCP sessions (open, started, refused), readiness, and
//! memory (cup's own resident set and the desktop's processes').

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::mcp::CallObserver;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// One tool's latency histogram.
#[derive(Debug, Default, Clone)]
struct Histogram {
    /// Calls at or under each bound of [`BUCKETS`] (not cumulative).
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

impl Histogram {
    fn observe(&mut self, seconds: f64) {
        if let Some(i) = BUCKETS.iter().position(|b| seconds <= *b) {
            self.buckets[i] += 1;
        }
        self.count += 1;
        self.sum += seconds;
    }
}

/// The server's counters.
#[derive(Debug, Default)]
pub struct Metrics {
    /// (tool, outcome) → calls.
    calls: Mutex<BTreeMap<(String, &'static str), u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
    in_flight: AtomicU64,
    sessions_started: AtomicU64,
    sessions_refused: AtomicU64,
    unauthorized: AtomicU64,
    /// Tool names the server offers (others are counted as `unknown`, so
    /// a client cannot grow the label set).
    known: Vec<String>,
}

impl Metrics {
    /// Counters for a server offering `tools`.
    pub fn new(tools: Vec<String>) -> Metrics {
        Metrics {
            known: tools,
            ..Metrics::default()
        }
    }

    fn label(&self, tool: &str) -> String {
        if self.known.iter().any(|t| t == tool) {
            tool.to_owned()
        } else {
            "unknown".to_owned()
        }
    }

    /// Calls running now.
    pub fn in_flight(&self) -> u64 {
        self.in_flight.load(Ordering::Relaxed)
    }

    /// A session was opened.
    pub fn session_started(&self) {
        self.sessions_started.fetch_add(1, Ordering::Relaxed);
    }

    /// A session was refused (all slots taken, or shutting down).
    pub fn session_refused(&self) {
        self.sessions_refused.fetch_add(1, Ordering::Relaxed);
    }

    /// A request came without the right token.
    pub fn unauthorized(&self) {
        self.unauthorized.fetch_add(1, Ordering::Relaxed);
    }

    /// The text of `/metrics`, with the gauges read now.
    pub fn render(&self, gauges: &Gauges) -> String {
        let mut out = String::new();
        let head = |out: &mut String, name: &str, kind: &str, help: &str| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
        };
        head(
            &mut out,
            "cup_tool_calls_total",
            "counter",
            "Tool calls answered, by tool and outcome (ok, error, cancelled).",
        );
        if let Ok(calls) = self.calls.lock() {
            for ((tool, outcome), n) in calls.iter() {
                let _ = writeln!(
                    out,
                    "cup_tool_calls_total{{tool=\"{tool}\",outcome=\"{outcome}\"}} {n}"
                );
            }
        }
        head(
            &mut out,
            "cup_tool_call_duration_seconds",
            "histogram",
            "Time from a tool call's arrival to its answer, by tool.",
        );
        if let Ok(latency) = self.latency.lock() {
            for (tool, h) in latency.iter() {
                let mut cumulative = 0;
                for (bound, n) in BUCKETS.iter().zip(h.buckets) {
                    cumulative += n;
                    let _ = writeln!(
                        out,
                        "cup_tool_call_duration_seconds_bucket{{tool=\"{tool}\",le=\"{bound}\"}} {cumulative}"
                    );
                }
                let _ = writeln!(
                    out,
                    "cup_tool_call_duration_seconds_bucket{{tool=\"{tool}\",le=\"+Inf\"}} {}\n\
                     cup_tool_call_duration_seconds_sum{{tool=\"{tool}\"}} {}\n\
                     cup_tool_call_duration_seconds_count{{tool=\"{tool}\"}} {}",
                    h.count, h.sum, h.count
                );
            }
        }
        let simple: [(&str, &str, &str, u64); 8] = [
            (
                "cup_tool_calls_in_flight",
                "gauge",
                "Tool calls running now.",
                self.in_flight(),
            ),
            (
                "cup_sessions",
                "gauge",
                "MCP sessions open now.",
                gauges.sessions,
            ),
            (
                "cup_sessions_max",
                "gauge",
                "MCP sessions this server takes at once (--max-sessions).",
                gauges.max_sessions,
            ),
            (
                "cup_sessions_started_total",
                "counter",
                "MCP sessions opened.",
                self.sessions_started.load(Ordering::Relaxed),
            ),
            (
                "cup_sessions_refused_total",
                "counter",
                "MCP sessions refused: every slot taken, or shutting down.",
                self.sessions_refused.load(Ordering::Relaxed),
            ),
            (
                "cup_unauthorized_requests_total",
                "counter",
                "Requests to /mcp without the right bearer token.",
                self.unauthorized.load(Ordering::Relaxed),
            ),
            (
                "cup_ready",
                "gauge",
                "1 while /readyz answers 200.",
                u64::from(gauges.ready),
            ),
            (
                "cup_uptime_seconds",
                "gauge",
                "Seconds since the server started.",
                gauges.uptime_seconds,
            ),
        ];
        for (name, kind, help, value) in simple {
            head(&mut out, name, kind, help);
            let _ = writeln!(out, "{name} {value}");
        }
        head(
            &mut out,
            "process_resident_memory_bytes",
            "gauge",
            "Resident memory of the cup process.",
        );
        let _ = writeln!(out, "process_resident_memory_bytes {}", gauges.rss_bytes);
        head(
            &mut out,
            "cup_desktop_resident_memory_bytes",
            "gauge",
            "Resident memory of the desktop's processes (X server, buses, apps, browser), summed.",
        );
        let _ = writeln!(
            out,
            "cup_desktop_resident_memory_bytes {}",
            gauges.desktop_rss_bytes
        );
        out
    }
}

impl CallObserver for Metrics {
    fn started(&self, _tool: &str) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    fn finished(&self, tool: &str, outcome: &'static str, elapsed: Duration) {
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
        let tool = self.label(tool);
        if let Ok(mut calls) = self.calls.lock() {
            *calls.entry((tool.clone(), outcome)).or_default() += 1;
        }
        if let Ok(mut latency) = self.latency.lock() {
            latency
                .entry(tool)
                .or_default()
                .observe(elapsed.as_secs_f64());
        }
    }
}

/// Values read when `/metrics` is asked.
#[derive(Debug, Default, Clone, Copy)]
pub struct Gauges {
    pub sessions: u64,
    pub max_sessions: u64,
    pub ready: bool,
    pub uptime_seconds: u64,
    pub rss_bytes: u64,
    pub desktop_rss_bytes: u64,
}

/// Resident memory of `pid` in bytes (`VmRSS` of `/proc/PID/status`).
pub fn rss_bytes(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kib| kib.parse::<u64>().ok())
        })
        .map_or(0, |kib| kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_counted_and_timed_by_tool() {
        let m = Metrics::new(vec!["snapshot".into(), "click".into()]);
        m.started("snapshot");
        assert_eq!(m.in_flight(), 1);
        m.finished("snapshot", "ok", Duration::from_millis(20));
        m.started("snapshot");
        m.finished("snapshot", "ok", Duration::from_millis(300));
        m.started("click");
        m.finished("click", "error", Duration::from_millis(3));
        m.started("no-such-tool\"");
        m.finished("no-such-tool\"", "error", Duration::from_millis(1));
        assert_eq!(m.in_flight(), 0);
        m.session_started();
        let text = m.render(&Gauges {
            sessions: 1,
            max_sessions: 1,
            ready: true,
            ..Gauges::default()
        });
        for line in [
            "cup_tool_calls_total{tool=\"snapshot\",outcome=\"ok\"} 2",
            "cup_tool_calls_total{tool=\"click\",outcome=\"error\"} 1",
            "cup_tool_calls_total{tool=\"unknown\",outcome=\"error\"} 1",
            "cup_tool_call_duration_seconds_bucket{tool=\"snapshot\",le=\"0.025\"} 1",
            "cup_tool_call_duration_seconds_bucket{tool=\"snapshot\",le=\"0.5\"} 2",
            "cup_tool_call_duration_seconds_bucket{tool=\"snapshot\",le=\"+Inf\"} 2",
            "cup_tool_call_duration_seconds_count{tool=\"snapshot\"} 2",
            "cup_sessions 1",
            "cup_sessions_started_total 1",
            "cup_ready 1",
            "# TYPE cup_tool_call_duration_seconds histogram",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "{line} missing in:\n{text}"
            );
        }
        // A client's made-up tool name never becomes a label.
        assert!(!text.contains("no-such-tool"));
        assert!(rss_bytes(std::process::id()) > 0);
    }
}
