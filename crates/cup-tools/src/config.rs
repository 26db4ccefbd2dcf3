//! The persistent settings of the tools (`get_config`, `set_config`): a
//! JSON file that outlives servers and `cup call` invocations.
//!
//! Where: `$CUP_CONFIG`, else `$XDG_CONFIG_HOME/cup/config.json`, else
//! `~/.config/cup/config.json`. A missing file means the defaults. A file
//! that cannot be read gives the defaults too (and says so); `set_config`
//! then refuses to overwrite it, so nothing in it is lost.

use std::path::{Path, PathBuf};
use std::time::Duration;

use cup::SnapshotRequest;
use cup_draw::{motion, CursorSettings};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::args::{Args, ToolError};
use super::{Block, Output};

/// Version of the file's layout.
const SCHEMA_VERSION: u32 = 1;

/// What `get_window_state` returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaptureMode {
    /// The tree and the screenshot.
    Som,
    /// The tree only (no screen capture).
    Ax,
    /// The screenshot only (no tree walk).
    Vision,
}

/// Defaults of every snapshot the tools take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SnapshotDefaults {
    /// Pruning: compact, full or minimal.
    pub detail: String,
    /// Capture budget; past it the capture is partial and says so.
    pub deadline_ms: u64,
    /// Most nodes captured.
    pub max_nodes: u64,
    /// Cap on the compact text in characters (0 = none).
    pub max_chars: u64,
}

impl Default for SnapshotDefaults {
    fn default() -> Self {
        let req = SnapshotRequest::default();
        SnapshotDefaults {
            detail: "compact".into(),
            deadline_ms: u64::try_from(req.limits.deadline.as_millis()).unwrap_or(3000),
            max_nodes: u64::try_from(req.limits.max_nodes).unwrap_or(50_000),
            max_chars: u64::try_from(req.max_chars).unwrap_or(40_000),
        }
    }
}

/// The settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Layout version.
    pub schema_version: u32,
    /// What `get_window_state` returns (`include_screenshot` overrides).
    pub capture_mode: CaptureMode,
    /// Snapshot defaults.
    pub snapshot: SnapshotDefaults,
    /// The agent cursor (`set_agent_cursor_*`).
    pub agent_cursor: CursorSettings,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            schema_version: SCHEMA_VERSION,
            capture_mode: CaptureMode::Som,
            snapshot: SnapshotDefaults::default(),
            agent_cursor: CursorSettings::default(),
        }
    }
}

/// A settable key and the values it takes.
#[derive(Clone, Copy)]
enum Kind {
    Choice(&'static [&'static str]),
    Int(u64, u64),
    /// true, false, or "auto" (stored as null).
    OnOffAuto,
    Num(f64, f64),
}

/// Every key `set_config` takes.
const KEYS: &[(&str, Kind)] = &[
    ("capture_mode", Kind::Choice(&["som", "ax", "vision"])),
    (
        "snapshot.detail",
        Kind::Choice(&["compact", "full", "minimal", "page"]),
    ),
    ("snapshot.deadline_ms", Kind::Int(100, 60_000)),
    ("snapshot.max_nodes", Kind::Int(1, 1_000_000)),
    ("snapshot.max_chars", Kind::Int(0, 10_000_000)),
    ("agent_cursor.enabled", Kind::OnOffAuto),
];

/// Every key `set_config` takes: [`KEYS`] and the cursor's motion knobs.
fn kind_of(key: &str) -> Option<Kind> {
    if let Some(&(_, kind)) = KEYS.iter().find(|(k, _)| *k == key) {
        return Some(kind);
    }
    let knob = key.strip_prefix("agent_cursor.motion.")?;
    motion::KNOBS
        .iter()
        .find(|(n, _, _)| *n == knob)
        .map(|&(_, lo, hi)| Kind::Num(lo, hi))
}

/// The keys, for messages.
pub fn key_names() -> String {
    KEYS.iter()
        .map(|(k, _)| (*k).to_owned())
        .chain(
            motion::KNOBS
                .iter()
                .map(|(n, _, _)| format!("agent_cursor.motion.{n}")),
        )
        .collect::<Vec<_>>()
        .join(", ")
}

impl Config {
    /// The snapshot request every tool starts from.
    pub fn request(&self) -> SnapshotRequest {
        let mut req = SnapshotRequest::default();
        if let Ok(d) = self.snapshot.detail.parse() {
            req.detail = d;
        }
        req.limits.deadline = Duration::from_millis(self.snapshot.deadline_ms);
        req.limits.max_nodes = usize::try_from(self.snapshot.max_nodes).unwrap_or(usize::MAX);
        req.max_chars = usize::try_from(self.snapshot.max_chars).unwrap_or(usize::MAX);
        req
    }

    /// Sets `key` to `value`, checked; the config is unchanged on error.
    pub fn set(&mut self, key: &str, value: &Value) -> Result<(), String> {
        let Some(kind) = kind_of(key) else {
            return Err(format!(
                "set_config: unknown key {key:?}; keys: {}",
                key_names()
            ));
        };
        let checked = match kind {
            Kind::Choice(choices) => match value.as_str().map(|v| v.trim().to_ascii_lowercase()) {
                Some(v) if choices.contains(&v.as_str()) => Value::String(v),
                _ => {
                    return Err(format!(
                        "set_config: {key} must be one of {}, got {value}",
                        choices.join(", ")
                    ))
                }
            },
            Kind::Int(min, max) => match value.as_u64() {
                Some(v) if (min..=max).contains(&v) => Value::from(v),
                _ => {
                    return Err(format!(
                        "set_config: {key} must be an integer from {min} to {max}, got {value}"
                    ))
                }
            },
            Kind::OnOffAuto => match value {
                Value::Bool(b) => Value::Bool(*b),
                Value::Null => Value::Null,
                Value::String(s) if s.trim().eq_ignore_ascii_case("auto") => Value::Null,
                _ => {
                    return Err(format!(
                        "set_config: {key} must be true, false or \"auto\" (on where a person watches the display), got {value}"
                    ))
                }
            },
            Kind::Num(min, max) => match value.as_f64() {
                Some(v) if v.is_finite() && (min..=max).contains(&v) => Value::from(v),
                _ => {
                    return Err(format!(
                        "set_config: {key} must be a number from {min} to {max}, got {value}"
                    ))
                }
            },
        };
        let mut tree = serde_json::to_value(&*self).map_err(|e| e.to_string())?;
        let pointer = format!("/{}", key.replace('.', "/"));
        match tree.pointer_mut(&pointer) {
            Some(slot) => *slot = checked,
            None => return Err(format!("set_config: {key} is not in the config")),
        }
        *self = serde_json::from_value(tree).map_err(|e| format!("set_config: {key}: {e}"))?;
        Ok(())
    }
}

/// The config file's path.
pub fn path() -> PathBuf {
    if let Some(p) = std::env::var_os("CUP_CONFIG").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("cup").join("config.json")
}

/// The config in `path`: `Ok(None)` when there is no file, `Err` (why)
/// when it cannot be read.
pub fn load(path: &Path) -> Result<Option<Config>, String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let config: Config = serde_json::from_slice(&bytes)
        .map_err(|e| format!("{} is not a cup config ({e})", path.display()))?;
    let cursor = &config.agent_cursor;
    cursor
        .motion
        .check()
        .and_then(|()| cursor.style.stops().map(|_| ()))
        .and_then(|()| cursor.style.bloom().map(|_| ()))
        .map_err(|e| format!("{}: agent_cursor: {e}", path.display()))?;
    if config.schema_version != SCHEMA_VERSION {
        return Err(format!(
            "{} has schema_version {}, this cup reads {SCHEMA_VERSION}",
            path.display(),
            config.schema_version
        ));
    }
    Ok(Some(config))
}

/// Writes `config` to `path` (whole, or not at all).
pub fn save(path: &Path, config: &Config) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| fail(&e))?;
    }
    let mut bytes = serde_json::to_vec_pretty(config).map_err(|e| fail(&e))?;
    bytes.push(b'\n');
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            fail(&e)
        })
}

/// The settings as a result: the file, then the values.
pub fn shown(config: &Config, problem: Option<String>) -> Output {
    let path = path();
    let values = serde_json::to_value(config).unwrap_or_default();
    let mut text = match problem {
        Some(p) => format!("config: {p}; the defaults are in effect\n"),
        None => format!("config {} (defaults where unset)\n", path.display()),
    };
    text.push_str(&serde_json::to_string_pretty(&values).unwrap_or_default());
    Output {
        blocks: vec![Block::Text(text)],
        structured: Some(json!({"path": path, "config": values})),
        is_error: false,
    }
}

/// `set_config`: the settings with one changed, saved; and the result.
pub fn set_tool(args: &Args<'_>) -> Result<(Config, Output), ToolError> {
    args.only(&["key", "value"])?;
    let key = args.req_str("key", "\"capture_mode\"")?;
    let key = key.trim();
    let Some(value) = args.value("value") else {
        return Err(ToolError(format!(
            "set_config: missing `value` (the new value of {key})"
        )));
    };
    let path = path();
    let mut current = load(&path)
        .map_err(|e| {
            ToolError(format!(
                "set_config: {e}; fix or remove the file, then retry"
            ))
        })?
        .unwrap_or_default();
    current.set(key, value).map_err(ToolError)?;
    save(&path, &current)
        .map_err(|e| ToolError(format!("set_config: {e}; check the path or set CUP_CONFIG")))?;
    let mut out = shown(&current, None);
    out.blocks
        .insert(0, Block::Text(format!("set {key} in {}", path.display())));
    Ok((current, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked_and_shape_the_request() {
        let mut c = Config::default();
        assert_eq!(c.request(), SnapshotRequest::default());
        c.set("snapshot.deadline_ms", &json!(1500))
            .unwrap_or_else(|e| panic!("{e}"));
        c.set("snapshot.detail", &json!("Full"))
            .unwrap_or_else(|e| panic!("{e}"));
        c.set("capture_mode", &json!("ax"))
            .unwrap_or_else(|e| panic!("{e}"));
        let req = c.request();
        assert_eq!(req.limits.deadline, Duration::from_millis(1500));
        assert_eq!(req.detail, cup_protocol::compact::Detail::Full);
        assert_eq!(c.capture_mode, CaptureMode::Ax);
        let before = c.clone();
        for (key, value) in [
            ("snapshot.deadline_ms", json!(10)),
            ("snapshot.deadline_ms", json!("1500")),
            ("capture_mode", json!("pixels")),
            ("snapshot", json!({})),
            ("agent_cursor.enabled", json!("yes")),
            ("agent_cursor.motion.spring", json!(2.0)),
            ("agent_cursor.motion.speed", json!(1.0)),
        ] {
            let err = c.set(key, &value).err().unwrap_or_default();
            assert!(err.starts_with("set_config: "), "{key}: {err}");
            assert!(!err.contains('\n'), "{err}");
        }
        assert_eq!(c, before, "a refused value changes nothing");
        c.set("agent_cursor.enabled", &json!(false))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.agent_cursor.enabled, Some(false));
        c.set("agent_cursor.enabled", &json!("auto"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.agent_cursor.enabled, None);
        c.set("agent_cursor.motion.glide_duration_ms", &json!(1200))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.agent_cursor.motion.glide_duration_ms, 1200.0);
    }

    #[test]
    fn the_file_round_trips_and_a_broken_one_is_reported() {
        let dir = std::env::temp_dir().join(format!("cup-config-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let file = dir.join("cup").join("config.json");
        assert_eq!(load(&file), Ok(None));
        let mut c = Config::default();
        c.set("snapshot.max_nodes", &json!(1234))
            .unwrap_or_else(|e| panic!("{e}"));
        save(&file, &c).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(load(&file), Ok(Some(c)));
        // A partial file fills in the defaults.
        std::fs::write(&file, r#"{"capture_mode": "vision"}"#).unwrap_or_else(|e| panic!("{e}"));
        let partial = load(&file)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_default();
        assert_eq!(partial.capture_mode, CaptureMode::Vision);
        assert_eq!(partial.snapshot, SnapshotDefaults::default());
        std::fs::write(&file, "{not json").unwrap_or_else(|e| panic!("{e}"));
        let err = load(&file).err().unwrap_or_default();
        assert!(err.contains("is not a cup config"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
