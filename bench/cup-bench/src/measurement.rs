//! What a tool measured: the JSON that the measuring child processes print
//! (`linux-capture --measure-cup`, `python_sdk_capture.py`) and what the Cua
//! Driver client collects.

use serde::{Deserialize, Serialize};

/// Timings and output of one tool for one app and scope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Wall time of each timed run (warm-up excluded), in milliseconds.
    pub times_ms: Vec<f64>,
    /// The text the tool returned on its last run (what an agent reads).
    pub text: String,
    /// Node count of each timed run (`None` where the tool did not say).
    #[serde(default)]
    pub nodes_per_run: Vec<Option<u64>>,
    /// Node count of the warm-up run.
    #[serde(default)]
    pub warmup_nodes: Option<u64>,
    /// Time to set the tool up (session, MCP initialize), not in `times_ms`.
    #[serde(default)]
    pub init_ms: Option<f64>,
    /// The counts are the tool's indexed elements, not tree nodes (Cua).
    #[serde(default)]
    pub counts_elements: bool,
    /// Remarks for the report (truncated walks, ...).
    #[serde(default)]
    pub notes: Vec<String>,
    /// CPU time of each timed run in the measuring process, in
    /// milliseconds (cup only; empty where not measured).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpu_ms: Vec<f64>,
    /// The envelope behind `text` (cup only), so another serializer can be
    /// run on the same tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub envelope: Option<serde_json::Value>,
}

impl Measurement {
    /// The distinct node counts over the warm-up and the timed runs, sorted.
    pub fn distinct_nodes(&self) -> Vec<u64> {
        let mut all: Vec<u64> = self
            .warmup_nodes
            .iter()
            .copied()
            .chain(self.nodes_per_run.iter().flatten().copied())
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

/// A measurement, or why there is none (missing setup, crash, timeout).
pub type Outcome = Result<Measurement, String>;

/// Parses the JSON object a measuring child printed as its last stdout line.
///
/// # Errors
///
/// When there is no such line or it is not a measurement.
pub fn parse_last_line(stdout: &str) -> Result<Measurement, String> {
    let line = stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or("it printed nothing on stdout")?;
    serde_json::from_str(line).map_err(|e| format!("its output is not a measurement ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_python_output() {
        let m = parse_last_line(
            "noise\n{\"times_ms\": [1.5, 2.0], \"text\": \"# CUP\\n\", \"nodes\": 3, \"nodes_per_run\": [3, null]}\n",
        );
        let m = m.unwrap_or_default();
        assert_eq!(m.times_ms, vec![1.5, 2.0]);
        assert_eq!(m.nodes_per_run, vec![Some(3), None]);
        assert_eq!(m.distinct_nodes(), vec![3]);
        assert!(parse_last_line("").is_err());
    }
}
