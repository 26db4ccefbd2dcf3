//! The measuring children of `node-capture`: one process per tool, what
//! each printed, and where the packages it imports are.

use super::*;

// ---------------------------------------------------------------------------
// The children
// ---------------------------------------------------------------------------

/// What one measuring child printed, and how long it ran.
#[derive(Debug, Clone)]
pub(crate) struct Child {
    pub(crate) m: Measurement,
    pub(crate) extra: Value,
    /// Spawn to exit, as seen from here.
    pub(crate) wall_ms: f64,
    /// Spawn to the first text, from the child's Unix time of its first
    /// text (cold runs).
    pub(crate) first_text_ms: Option<f64>,
}

impl Child {
    pub(crate) fn f64(&self, key: &str) -> Option<f64> {
        self.extra.get(key).and_then(Value::as_f64)
    }

    pub(crate) fn str(&self, key: &str) -> Option<&str> {
        self.extra.get(key).and_then(Value::as_str)
    }
}

pub(crate) async fn run_child(what: &str, command: Command) -> Result<Child, String> {
    let spawned = epoch_ms();
    let ran = cup_bench::peers::run_child(what, command, CHILD_TIMEOUT).await?;
    let line = ran
        .stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or_else(|| format!("{what} printed nothing; stderr: {}", ran.stderr_tail))?;
    let extra: Value =
        serde_json::from_str(line).map_err(|e| format!("{what}: its output is not JSON ({e})"))?;
    let m: Measurement = serde_json::from_value(extra.clone())
        .map_err(|e| format!("{what}: its output is not a measurement ({e})"))?;
    let first_text_ms = extra
        .get("first_text_epoch_ms")
        .and_then(Value::as_f64)
        .map(|t| t - spawned);
    Ok(Child {
        m,
        extra,
        wall_ms: ran.wall_ms,
        first_text_ms,
    })
}

/// The two halves of an ABBA pair as one measurement.
pub(crate) fn merge(a: Result<Child, String>, b: Result<Child, String>) -> Result<Child, String> {
    let (mut a, b) = (a?, b?);
    a.m.times_ms.extend(b.m.times_ms);
    a.m.cpu_ms.extend(b.m.cpu_ms);
    a.m.nodes_per_run.extend(b.m.nodes_per_run);
    a.m.text = b.m.text;
    for note in b.m.notes {
        if !a.m.notes.contains(&note) {
            a.m.notes.push(note);
        }
    }
    Ok(a)
}

/// What the tools need: cup-rs's module, the reference's, the script.
pub(crate) struct Packages {
    pub(crate) cup_rs: Result<PathBuf, String>,
    pub(crate) cup_rs_notes: Vec<String>,
    pub(crate) reference: Result<PathBuf, String>,
    pub(crate) script: PathBuf,
}

/// cup-rs's ES module entry (what `import { Session } from "cup-rs"`
/// loads), or why it is not there; remarks on the build.
pub(crate) fn cup_rs_module() -> (Result<PathBuf, String>, Vec<String>) {
    let root = cup_bench::workspace_root();
    let dir = root.join("bindings").join("node");
    let entry = dir.join("index.mjs");
    let addon = dir.join("cup.linux-x64-gnu.node");
    for file in [&entry, &dir.join("dist").join("index.js"), &addon] {
        if !file.is_file() {
            return (
                Err(format!(
                    "not built ({} is missing): {CUP_RS_HINT}",
                    file.display()
                )),
                Vec::new(),
            );
        }
    }
    let mut notes = Vec::new();
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let lib = |profile: &str| root.join("target").join(profile).join("libcup_node.so");
    let (copy, release, debug) = (
        modified(&addon),
        modified(&lib("release")),
        modified(&lib("debug")),
    );
    if let (Some(copy), Some(debug)) = (copy, debug) {
        if release.is_none_or(|r| debug > r) && copy >= debug {
            notes.push(format!(
                "{} was copied after the last debug build and no release build is newer: it may be a debug build ({CUP_RS_HINT})",
                addon.display()
            ));
        }
    }
    if let (Some(copy), Some(release)) = (copy, release) {
        if release > copy {
            notes.push(format!(
                "target/release/libcup_node.so is newer than {}: {CUP_RS_HINT} to measure it",
                addon.display()
            ));
        }
    }
    (Ok(entry), notes)
}

/// Builds the reference from `dir` (bench/peers/setup-typescript-sdk.sh,
/// skipped when built from the same source); its ES module entry.
pub(crate) fn reference_module(dir: Option<&Path>) -> Result<PathBuf, String> {
    let dir = dir.ok_or("no --reference-ts DIR given (the reference SDK's source folder)")?;
    let dest = cup_bench::peers_dir().join("typescript-sdk");
    let script = cup_bench::workspace_root()
        .join("bench")
        .join("peers")
        .join("setup-typescript-sdk.sh");
    eprintln!("== the reference TypeScript SDK: {}", script.display());
    let out = Command::new("bash")
        .arg(&script)
        .arg(dir)
        .arg(&dest)
        .stdout(std::process::Stdio::inherit())
        .stderr(std::process::Stdio::piped())
        .output()
        .map_err(|e| format!("{} did not start: {e}", script.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprint!("{stderr}");
    if !out.status.success() {
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!(
            "building it from {} failed ({}): {last}",
            dir.display(),
            out.status
        ));
    }
    let entry = dest.join("dist").join("index.js");
    if entry.is_file() {
        Ok(entry)
    } else {
        Err(format!("{} is missing after the build", entry.display()))
    }
}
