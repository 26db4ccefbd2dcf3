//! Trajectory recording and replay (the driver tools `set_recording`,
//! `get_recording_state` and `replay_trajectory`).
//!
//! While recording, every call of a tool that acts writes a turn folder
//! `turn-NNNNN/` into the recording directory:
//!
//! - `action.json`: the tool, its arguments, the element every
//!   `element_id` in them named (role, name and which of the elements with
//!   that role and name it was, in document order; a `batch`'s steps
//!   included), the result (text, error flag, observed effect), the time
//!   and how long the call took, the point a click aimed at and where the
//!   screenshot's top-left pixel is on the screen;
//! - `snapshot.txt`: the foreground window's compact CUP text after the
//!   call (captured without replacing the agent's latest snapshot, so the
//!   ids it acts on do not change);
//! - `screenshot.png`: that window after the call (the page viewport on the
//!   web);
//! - `click.png`, for a click-family call (click, double_click,
//!   right_click, mouse_down, mouse_up): the screenshot with the point it
//!   aimed at marked.
//!
//! Turns are numbered after the highest one already in the directory, so
//! recording again into the same directory adds to it and overwrites
//! nothing. Replay calls each turn's tool with its arguments again; each
//! `element_id` is looked up anew by the recorded role, name and
//! occurrence in a fresh snapshot (ids are per snapshot), and the effect
//! each call observes now is compared with the recorded one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use cup::{Session, ShotTarget, Snapshot, SnapshotRequest};
use cup_protocol::Node;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

mod marker;
mod recorder;
mod replay;

pub(super) use recorder::Pending;
pub(super) use replay::replay;

use super::args::{fail, Args, ToolError};
use super::{Block, Output};

/// Name of a turn's record in its folder.
const ACTION_FILE: &str = "action.json";
/// Prefix of turn folders (`turn-00001`).
const TURN_PREFIX: &str = "turn-";

/// Tools whose calls aim at a point (`click.png` marks it).
pub const CLICKS: &[&str] = &[
    "click",
    "double_click",
    "right_click",
    "mouse_down",
    "mouse_up",
];

/// Tools that act but are not turns of a trajectory (they steer the
/// recorder, replay one, or change settings).
const NOT_RECORDED: &[&str] = &["set_recording", "replay_trajectory", "set_config"];

/// Whether a call of `tool` (which acts) is written as a turn.
pub fn records(tool: &str, read_only: bool) -> bool {
    !read_only && !NOT_RECORDED.contains(&tool)
}

/// The element an `element_id` named, in terms that outlive the snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Locator {
    /// CUP role (as in the envelope).
    pub role: String,
    /// Accessible name.
    pub name: String,
    /// Which of the elements with this role and name (0 = the first, in
    /// document order across windows).
    pub occurrence: usize,
}

fn role_word(n: &Node) -> String {
    serde_json::to_value(n.role)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn nodes(snap: &Snapshot) -> impl Iterator<Item = &Node> {
    snap.envelope.tree.iter().flat_map(Node::iter)
}

/// The locator of element `id` in `snap`.
pub fn locate(snap: &Snapshot, id: &str) -> Option<Locator> {
    let node = nodes(snap).find(|n| n.id == id)?;
    let role = role_word(node);
    let occurrence = nodes(snap)
        .take_while(|n| n.id != id)
        .filter(|n| n.name == node.name && role_word(n) == role)
        .count();
    Some(Locator {
        role,
        name: node.name.clone(),
        occurrence,
    })
}

/// Every string under an `element_id` key in `v`, at any depth (a
/// `batch`'s steps have their own).
pub fn element_ids(v: &Value) -> Vec<&str> {
    let mut out = Vec::new();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                for (k, x) in map {
                    match (k.as_str(), x) {
                        ("element_id", Value::String(id)) => out.push(id.as_str()),
                        _ => stack.push(x),
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    out
}

/// The locator of every element `arguments` name that `snap` has.
pub fn locate_all(snap: &Snapshot, arguments: &Value) -> BTreeMap<String, Locator> {
    element_ids(arguments)
        .into_iter()
        .filter_map(|id| Some((id.to_owned(), locate(snap, id)?)))
        .collect()
}

/// The id of the element `loc` names in `snap`.
pub fn find(snap: &Snapshot, loc: &Locator) -> Option<String> {
    nodes(snap)
        .filter(|n| n.name == loc.name && role_word(n) == loc.role)
        .nth(loc.occurrence)
        .map(|n| n.id.clone())
}

/// What a call returned, as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    /// The text blocks, joined.
    pub text: String,
    /// The call failed.
    pub is_error: bool,
    /// The machine-readable result (an action's observed effect).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured: Option<Value>,
}

impl Recorded {
    /// The record of `out`.
    pub fn of(out: &Output) -> Recorded {
        let text: Vec<&str> = out
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::Text(t) => Some(t.as_str()),
                Block::Png(_) => None,
            })
            .collect();
        Recorded {
            text: text.join("\n"),
            is_error: out.is_error,
            structured: out.structured.clone(),
        }
    }

    /// The observed effect, if the result has one.
    pub fn effect(&self) -> Option<&str> {
        self.structured.as_ref()?.get("effect")?.as_str()
    }
}

/// One turn of a trajectory (`action.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// The tool called.
    pub tool: String,
    /// Its arguments, as given.
    pub arguments: Value,
    /// The elements its `element_id`s named, by id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub elements: BTreeMap<String, Locator>,
    /// What it returned.
    pub result: Recorded,
    /// When it was called (UTC, ISO 8601).
    pub timestamp: String,
    /// How long the call took.
    pub elapsed_ms: f64,
    /// Why the look after the call is missing, if it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_error: Option<String>,
    /// The screen point a click-family call aimed at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub click_point: Option<[i64; 2]>,
    /// Where `screenshot.png`'s top-left pixel is on the screen (a screen
    /// point `p` is pixel `p - screenshot_origin` of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot_origin: Option<[i64; 2]>,
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` of `t`.
pub fn iso8601(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_millis()
    )
}

/// Turn numbers of the turn folders in `dir`, ascending.
fn turn_numbers(dir: &Path) -> std::io::Result<Vec<(u32, PathBuf)>> {
    let mut turns: Vec<(u32, PathBuf)> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let n = name.strip_prefix(TURN_PREFIX)?.parse::<u32>().ok()?;
            Some((n, e.path()))
        })
        .collect();
    turns.sort();
    Ok(turns)
}

/// The number the next turn written into `dir` gets.
pub fn next_turn(dir: &Path) -> u32 {
    turn_numbers(dir)
        .ok()
        .and_then(|t| t.last().map(|(n, _)| n + 1))
        .unwrap_or(1)
}

/// `~/x` and `~` with the home directory; relative paths from the current
/// directory.
fn expand(path: &str) -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let p = match (path.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            home.join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(path),
    };
    if p.is_absolute() {
        p
    } else {
        std::env::current_dir().map_or(p.clone(), |d| d.join(&p))
    }
}

/// `set_recording`: the new recording directory (`None`: stopped).
pub fn set_recording(args: &Args<'_>) -> Result<(Option<PathBuf>, Output), ToolError> {
    args.only(&["enabled", "output_dir"])?;
    let Some(enabled) = args.bool("enabled")? else {
        return fail("set_recording: missing `enabled` (true to record, false to stop)");
    };
    if !enabled {
        return Ok((None, Output::text("recording stopped")));
    }
    let Some(dir) = args.str("output_dir")?.filter(|d| !d.trim().is_empty()) else {
        return fail("set_recording: `output_dir` is required to record; give a directory (created if missing)");
    };
    let dir = expand(dir.trim());
    writable_dir(&dir).map_err(|e| ToolError(format!("set_recording: {e}")))?;
    let out = state(Some(&dir));
    Ok((Some(dir), out))
}

/// Makes sure turns can be written into `dir`: creates it when missing,
/// then proves it writable by creating and removing a probe file. The
/// error names the directory, the OS's reason and what to do.
pub fn writable_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| {
        format!(
            "cannot create {}: {e}; give a writable directory",
            dir.display()
        )
    })?;
    if !dir.is_dir() {
        return Err(format!(
            "{} is not a directory; give a directory",
            dir.display()
        ));
    }
    let probe = dir.join(format!(".cup-write-probe-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| {
            format!(
                "cannot write into {}: {e}; give a writable directory",
                dir.display()
            )
        })
}

/// `get_recording_state`.
pub fn state(dir: Option<&Path>) -> Output {
    let (text, structured) = match dir {
        Some(d) => {
            let next = next_turn(d);
            (
                format!("recording into {} (next turn {next})", d.display()),
                json!({"enabled": true, "output_dir": d, "next_turn": next}),
            )
        }
        None => (
            "not recording; set_recording {\"enabled\": true, \"output_dir\": ...} starts"
                .to_owned(),
            json!({"enabled": false}),
        ),
    };
    Output {
        blocks: vec![Block::Text(text)],
        structured: Some(structured),
        is_error: false,
    }
}

/// What the recorder saw after a call.
#[derive(Debug)]
pub struct Look {
    /// Compact text of the foreground window.
    pub text: Option<String>,
    /// Its screenshot.
    pub png: Option<Vec<u8>>,
    /// Where the screenshot's top-left corner is on the screen.
    pub origin: (i64, i64),
    /// Why part of it is missing.
    pub error: Option<String>,
}

/// Looks at the foreground window after a call (`req`: the configured
/// defaults), without replacing the session's latest snapshot.
pub async fn look(session: &Session, req: &SnapshotRequest) -> Look {
    let snap = match session.look(req).await {
        Ok(s) => s,
        Err(e) => {
            return Look {
                text: None,
                png: None,
                origin: (0, 0),
                error: Some(format!("snapshot: {e}")),
            }
        }
    };
    let target = if session.adapter().platform() == cup_protocol::PlatformId::Web {
        ShotTarget::Screen
    } else {
        match snap.envelope.tree.first() {
            Some(w) => ShotTarget::Window(w.name.clone()),
            None => ShotTarget::Screen,
        }
    };
    match session.adapter().screenshot(&target).await {
        Ok(shot) => Look {
            text: Some(snap.text),
            png: Some(shot.png),
            origin: (shot.x, shot.y),
            error: None,
        },
        Err(e) => Look {
            text: Some(snap.text),
            png: None,
            origin: (0, 0),
            error: Some(format!("screenshot: {e}")),
        },
    }
}

/// Creates the folder of turn `n` in `dir`, or of the first free number
/// after it: another recorder (a second MCP client, a `cup call`) may take
/// the same number at the same time, the folder's creation decides, and
/// the one that lost takes the next number.
fn claim_turn(dir: &Path, mut n: u32) -> std::io::Result<PathBuf> {
    loop {
        let folder = dir.join(format!("{TURN_PREFIX}{n:05}"));
        match std::fs::create_dir(&folder) {
            Ok(()) => return Ok(folder),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < u32::MAX => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Writes `turn` (and the look after it) as the next turn folder of `dir`;
/// returns the folder.
pub fn write_turn(dir: &Path, turn: &Turn, look: &Look) -> std::io::Result<PathBuf> {
    let folder = claim_turn(dir, next_turn(dir))?;
    let mut turn = turn.clone();
    if look.png.is_some() {
        turn.screenshot_origin = Some([look.origin.0, look.origin.1]);
    }
    let click = match (turn.click_point, &look.png) {
        (Some([x, y]), Some(png)) => {
            match marker::mark(png, x - look.origin.0, y - look.origin.1) {
                Ok(marked) => Some(marked),
                Err(e) => {
                    let note = format!("click.png: {e}");
                    turn.state_error = Some(match turn.state_error.take() {
                        Some(s) => format!("{s}; {note}"),
                        None => note,
                    });
                    None
                }
            }
        }
        _ => None,
    };
    let mut record = serde_json::to_vec_pretty(&turn).map_err(std::io::Error::other)?;
    record.push(b'\n');
    std::fs::write(folder.join(ACTION_FILE), record)?;
    if let Some(text) = &look.text {
        std::fs::write(folder.join("snapshot.txt"), text)?;
    }
    if let Some(png) = &look.png {
        std::fs::write(folder.join("screenshot.png"), png)?;
    }
    if let Some(png) = click {
        std::fs::write(folder.join("click.png"), png)?;
    }
    Ok(folder)
}

/// The turns recorded in `dir`, in order.
pub fn read_trajectory(dir: &Path) -> Result<Vec<(String, Turn)>, ToolError> {
    let turns = turn_numbers(dir).map_err(|e| {
        ToolError(format!(
            "replay_trajectory: cannot read {}: {e}; give a directory set_recording wrote",
            dir.display()
        ))
    })?;
    if turns.is_empty() {
        return fail(format!(
            "replay_trajectory: {} holds no turn folders (turn-00001, ...); give a directory set_recording wrote",
            dir.display()
        ));
    }
    turns
        .into_iter()
        .map(|(_, path)| {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let file = path.join(ACTION_FILE);
            let bytes = std::fs::read(&file).map_err(|e| {
                ToolError(format!(
                    "replay_trajectory: cannot read {}: {e}; remove the turn folder or record again",
                    file.display()
                ))
            })?;
            let turn: Turn = serde_json::from_slice(&bytes).map_err(|e| {
                ToolError(format!(
                    "replay_trajectory: {} is not a turn record ({e}); remove the turn folder or record again",
                    file.display()
                ))
            })?;
            Ok((name, turn))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::replay::rebind;
    use super::*;
    use cup_protocol::{Envelope, Role, Screen};
    use std::time::Duration;

    fn node(id: &str, role: Role, name: &str, children: Vec<Node>) -> Node {
        let mut n = Node::new(id, role, name);
        n.children = children;
        n
    }

    fn snapshot(tree: Vec<Node>) -> Snapshot {
        Snapshot {
            envelope: Envelope::new(
                cup_protocol::PlatformId::Linux,
                Screen {
                    w: 1920,
                    h: 1080,
                    scale: None,
                },
                tree,
            ),
            refs: Default::default(),
            id: "s1".to_owned(),
            since: None,
            next_id: 0,
            notes: Vec::new(),
            text: String::new(),
        }
    }

    fn turn(tool: &str, arguments: Value, elements: BTreeMap<String, Locator>) -> Turn {
        Turn {
            tool: tool.into(),
            arguments,
            elements,
            result: Recorded {
                text: String::new(),
                is_error: false,
                structured: None,
            },
            timestamp: String::new(),
            elapsed_ms: 0.0,
            state_error: None,
            click_point: None,
            screenshot_origin: None,
        }
    }

    #[test]
    fn an_element_is_found_again_by_role_name_and_occurrence() {
        let before = snapshot(vec![node(
            "e0",
            Role::Window,
            "W",
            vec![
                node("e1", Role::Button, "OK", vec![]),
                node("e2", Role::Checkbox, "OK", vec![]),
                node("e3", Role::Button, "OK", vec![]),
            ],
        )]);
        let loc = locate(&before, "e3").unwrap_or_else(|| panic!("e3 not located"));
        assert_eq!(loc.role, "button");
        assert_eq!(loc.occurrence, 1);
        // Ids moved: a new element came first.
        let after = snapshot(vec![node(
            "e0",
            Role::Window,
            "W",
            vec![
                node("e1", Role::Text, "hello", vec![]),
                node("e2", Role::Button, "OK", vec![]),
                node("e3", Role::Checkbox, "OK", vec![]),
                node("e4", Role::Button, "OK", vec![]),
            ],
        )]);
        assert_eq!(find(&after, &loc).as_deref(), Some("e4"));
        let turn = turn(
            "click",
            json!({"element_id": "e3", "count": 1}),
            BTreeMap::from([("e3".to_owned(), loc.clone())]),
        );
        let (args, ids) = rebind(&turn, Some(&after)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(args, json!({"element_id": "e4", "count": 1}));
        assert_eq!(ids, vec!["e4"]);
        // Gone: said, not guessed.
        let gone = snapshot(vec![node("e0", Role::Window, "W", vec![])]);
        let err = rebind(&turn, Some(&gone)).err().unwrap_or_default();
        assert!(
            err.contains("button \"OK\" (number 2 of its kind)"),
            "{err}"
        );
        assert!(locate(&before, "e9").is_none());
    }

    #[test]
    fn a_batchs_steps_are_located_and_rebound_each() {
        let before = snapshot(vec![node(
            "e0",
            Role::Window,
            "W",
            vec![
                node("e1", Role::TextBox, "Name", vec![]),
                node("e2", Role::Button, "Save", vec![]),
            ],
        )]);
        let arguments = json!({"actions": [
            {"action": "type", "element_id": "e1", "value": "Ada"},
            {"action": "click", "element_id": "e2"},
            {"action": "press", "keys": "enter"},
            {"action": "click", "element_id": "e9"},
        ]});
        let mut ids = element_ids(&arguments);
        ids.sort_unstable();
        assert_eq!(ids, vec!["e1", "e2", "e9"]);
        // e9 was not in the snapshot: no locator, left as given.
        let elements = locate_all(&before, &arguments);
        assert_eq!(elements.keys().collect::<Vec<_>>(), vec!["e1", "e2"]);
        let after = snapshot(vec![node(
            "e0",
            Role::Window,
            "W",
            vec![
                node("e1", Role::Heading, "Form", vec![]),
                node("e2", Role::TextBox, "Name", vec![]),
                node("e3", Role::Button, "Save", vec![]),
            ],
        )]);
        let turn = turn("batch", arguments, elements);
        let (args, _) = rebind(&turn, Some(&after)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            args,
            json!({"actions": [
                {"action": "type", "element_id": "e2", "value": "Ada"},
                {"action": "click", "element_id": "e3"},
                {"action": "press", "keys": "enter"},
                {"action": "click", "element_id": "e9"},
            ]})
        );
    }

    #[test]
    fn a_recording_directory_must_be_writable() {
        let dir = std::env::temp_dir().join(format!("cup-rec-probe-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let new = dir.join("made/here");
        assert_eq!(writable_dir(&new), Ok(()));
        assert!(new.is_dir());
        assert_eq!(
            std::fs::read_dir(&new).map(Iterator::count).ok(),
            Some(0),
            "the probe is removed"
        );
        let file = dir.join("a-file");
        std::fs::write(&file, "x").unwrap_or_else(|e| panic!("{e}"));
        let err = writable_dir(&file).err().unwrap_or_default();
        assert!(err.contains("a-file") && !err.contains('\n'), "{err}");
        let proc = writable_dir(Path::new("/proc/self"))
            .err()
            .unwrap_or_default();
        assert!(
            proc.starts_with("cannot write into /proc/self: ")
                && proc.ends_with("; give a writable directory"),
            "{proc}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn timestamps_are_iso_8601_utc() {
        assert_eq!(iso8601(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(1_795_912_245_123);
        assert_eq!(iso8601(t), "2026-11-29T00:30:45.123Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(iso8601(leap), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn turns_are_written_after_the_highest_and_read_back_in_order() {
        let dir = std::env::temp_dir().join(format!("cup-rec-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("turn-00007")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(next_turn(&dir), 8);
        std::fs::remove_dir_all(dir.join("turn-00007")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(next_turn(&dir), 1);
        let done = |tool: &str| Turn {
            result: Recorded {
                text: "done".into(),
                is_error: false,
                structured: Some(json!({"effect": "confirmed"})),
            },
            timestamp: iso8601(SystemTime::now()),
            ..turn(tool, json!({}), BTreeMap::new())
        };
        let look = Look {
            text: Some("# CUP".into()),
            png: None,
            origin: (0, 0),
            error: None,
        };
        for tool in ["click", "press_key"] {
            write_turn(&dir, &done(tool), &look).unwrap_or_else(|e| panic!("{e}"));
        }
        let read = read_trajectory(&dir).unwrap_or_else(|e| panic!("{e}"));
        let names: Vec<(&str, &str)> = read
            .iter()
            .map(|(n, t)| (n.as_str(), t.tool.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![("turn-00001", "click"), ("turn-00002", "press_key")]
        );
        assert_eq!(read[0].1.result.effect(), Some("confirmed"));
        assert!(dir.join("turn-00002/snapshot.txt").exists());
        // A number taken meanwhile (by another recorder) is skipped.
        std::fs::create_dir(dir.join("turn-00003")).unwrap_or_else(|e| panic!("{e}"));
        let next = claim_turn(&dir, 3).unwrap_or_else(|e| panic!("{e}"));
        assert!(next.ends_with("turn-00004"), "{}", next.display());
        std::fs::remove_dir_all(&next).unwrap_or_else(|e| panic!("{e}"));
        std::fs::remove_dir_all(dir.join("turn-00003")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.join("turn-00003"), "not a folder").unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir(dir.join("turn-00004")).unwrap_or_else(|e| panic!("{e}"));
        let err = read_trajectory(&dir).err().map(|e| e.0).unwrap_or_default();
        assert!(err.contains("cannot read"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
        let empty = read_trajectory(&dir).err().map(|e| e.0).unwrap_or_default();
        assert!(empty.contains("cannot read"), "{empty}");
    }
}
