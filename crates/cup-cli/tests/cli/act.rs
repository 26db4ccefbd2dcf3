//! `cup action`, `cup press`, `cup batch`, `cup open` and `cup screenshot`
//! on a real private desktop, each its own process: ids printed by one
//! `cup snapshot` are acted on by later invocations, and refused once the
//! element behind an id is gone.

use std::process::Output;

use crate::common::{cup, exports, path_str, state_file, text};
use serde_json::Value;

/// The id of the first line of `snapshot` that contains every one of
/// `parts` and none of `not`.
fn id_of(snapshot: &str, parts: &[&str], not: &[&str]) -> String {
    snapshot
        .lines()
        .find(|l| parts.iter().all(|p| l.contains(p)) && !not.iter().any(|n| l.contains(n)))
        .and_then(|l| {
            let start = l.find("[e")? + 1;
            let end = start + l[start..].find(']')?;
            Some(l[start..end].to_owned())
        })
        .unwrap_or_else(|| panic!("no line with {parts:?} (without {not:?}) in:\n{snapshot}"))
}

fn ok(out: &Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what}: exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn ids_from_one_invocation_work_in_the_next() {
    let state = state_file("act");
    let s = path_str(&state.0);
    let started = cup(&["sandbox", "start", "--state", s], &[]);
    let mut env = exports(&ok(&started, "sandbox start"));
    let dir = state.0.parent().unwrap_or_else(|| panic!("no parent"));
    let last = dir.join("last-snapshot.json");
    env.push(("CUP_SNAPSHOT_STATE".into(), path_str(&last).to_owned()));

    let run = cup(
        &["sandbox", "run", "--state", s, "--", "gtk3-widget-factory"],
        &[],
    );
    let run = ok(&run, "sandbox run");
    let pid = run
        .split("pid ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|p| p.parse::<u32>().ok())
        .unwrap_or_else(|| panic!("no pid in {run}"));

    let snap = ok(&cup(&["snapshot"], &env), "snapshot");
    // The native facts behind a capture, for a mapping bug report: the
    // raw AT-SPI reads of every captured node, under the same ids.
    let dump_path = dir.join("native.json");
    ok(
        &cup(&["snapshot", "--native-dump", path_str(&dump_path)], &env),
        "snapshot --native-dump",
    );
    let dump: Value = serde_json::from_str(
        &std::fs::read_to_string(&dump_path).unwrap_or_else(|e| panic!("the dump: {e}")),
    )
    .unwrap_or_else(|e| panic!("the dump is JSON: {e}"));
    assert_eq!(dump["platform"], "linux");
    assert_eq!(dump["windows"][0]["id"], "e0", "{dump}");
    let raw = dump.to_string();
    assert!(
        raw.contains("\"name\":\"checkbutton\""),
        "a raw check button"
    );
    assert!(raw.contains("\"bus_name\":"), "raw AT-SPI facts");
    // An enabled, unchecked check button.
    let check = id_of(&snap, &["chk \"checkbutton\""], &["{"]);
    let clicked = ok(&cup(&["action", &check, "click"], &env), "click");
    assert!(clicked.starts_with("ok [confirmed]"), "{clicked}");
    assert!(
        clicked.contains(&format!("{check} states: - -> +checked")),
        "{clicked}"
    );
    // Only what changed since the kept snapshot, in another process: the
    // check button, checked, by its id, under the lines that place it.
    let changed = ok(
        &cup(&["snapshot", "--since", "last"], &env),
        "snapshot --since",
    );
    assert!(changed.contains("# changes since s"), "{changed}");
    let line = changed
        .lines()
        .find(|l| l.contains(&format!("[{check}] chk")))
        .unwrap_or_else(|| panic!("no {check} in:\n{changed}"));
    assert!(line.contains("chk}") || line.contains(",chk"), "{line}");
    assert!(
        changed.len() * 10 <= snap.len(),
        "{} of {} characters:\n{changed}",
        changed.len(),
        snap.len()
    );
    let unknown = cup(&["snapshot", "--since", "s999"], &env);
    assert!(!unknown.status.success(), "an unknown since fails");
    assert!(
        text(&unknown.stderr).contains("since s999: not a kept snapshot"),
        "{}",
        text(&unknown.stderr)
    );

    // Same id, another process, JSON out: unchecked again, with evidence.
    let json = ok(
        &cup(&["action", &check, "toggle", "--json"], &env),
        "toggle",
    );
    let result: Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("not JSON ({e}): {json}"));
    assert_eq!(result["success"], true);
    assert_eq!(result["effect"], "confirmed");
    assert!(
        result["changes"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["target"] == check.as_str()
                && c["after"].as_str().is_some_and(|a| a.contains("-checked")))),
        "{json}"
    );

    // Typing replaces the entry's text and reads it back.
    let entry = id_of(&snap, &["tbx", "val=\"entry\""], &["dis"]);
    let typed = "héllo ✓ 日本 \"q\"";
    let out = ok(
        &cup(&["action", &entry, "type", "--value", typed], &env),
        "type",
    );
    assert!(out.contains("reads back exactly"), "{out}");
    let after = ok(&cup(&["snapshot"], &env), "snapshot");
    assert!(after.contains("héllo ✓ 日本"), "{after}");

    // Keys.
    let pressed = ok(&cup(&["press", "ctrl+a"], &env), "press");
    assert!(pressed.starts_with("ok ["), "{pressed}");
    let bad = cup(&["press", "ctrl+nosuchkey"], &env);
    assert!(!bad.status.success());
    assert!(
        text(&bad.stderr).contains("unknown key"),
        "{}",
        text(&bad.stderr)
    );

    // A missing id names the snapshot; a verb the element lacks lists its verbs.
    let missing = cup(&["action", "e99999", "click"], &env);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        text(&missing.stderr).contains("take a new snapshot"),
        "{}",
        text(&missing.stderr)
    );
    let unsupported = cup(&["action", &check, "expand"], &env);
    assert!(
        text(&unsupported.stderr).contains("it supports"),
        "{}",
        text(&unsupported.stderr)
    );

    // A batch: every step's result, in order.
    let check_now = id_of(&after, &["chk \"checkbutton\""], &["{"]);
    let steps = dir.join("steps.json");
    std::fs::write(
        &steps,
        format!(
            r#"[{{"action":"toggle","element_id":"{check_now}"}},{{"action":"wait","ms":50}},{{"action":"press_keys","keys":"ctrl+a"}}]"#
        ),
    )
    .unwrap_or_else(|e| panic!("write steps: {e}"));
    let out = ok(&cup(&["batch", path_str(&steps)], &env), "batch");
    let results: Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    let results = results.as_array().cloned().unwrap_or_default();
    assert_eq!(results.len(), 3, "{out}");
    assert_eq!(results[0]["effect"], "confirmed", "{out}");
    assert_eq!(results[1]["message"], "Waited 50ms", "{out}");

    // A batch stops at the first failure.
    std::fs::write(
        &steps,
        r#"[{"action":"click","element_id":"e99999"},{"action":"press","keys":"a"}]"#,
    )
    .unwrap_or_else(|e| panic!("write steps: {e}"));
    let failed = cup(&["batch", path_str(&steps)], &env);
    assert_eq!(failed.status.code(), Some(1));
    let results: Value = serde_json::from_str(&text(&failed.stdout))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&failed.stdout)));
    assert_eq!(results.as_array().map(Vec::len), Some(1));
    assert!(results[0]["error"]
        .as_str()
        .is_some_and(|e| e.contains("e99999")));

    // A screenshot of the window, by title.
    let png = dir.join("window.png");
    let out = ok(
        &cup(
            &["screenshot", "--window", "widget", "-o", path_str(&png)],
            &env,
        ),
        "screenshot",
    );
    let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("read png: {e}"));
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    // The size printed is the size in the PNG header (IHDR).
    let be =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let size = format!("{}x{}", be(16), be(20));
    assert!(be(16) > 300 && be(20) > 300, "{size}");
    assert!(out.contains(&format!(": {size} at ")), "{out} vs {size}");
    let bad_region = cup(
        &["screenshot", "--region", "1,2,3", "-o", path_str(&png)],
        &env,
    );
    assert_eq!(bad_region.status.code(), Some(2));
    assert!(
        text(&bad_region.stderr).contains("x,y,w,h"),
        "{}",
        text(&bad_region.stderr)
    );

    // The app restarts: the kept ids point at elements that are gone, and
    // acting on one is refused instead of hitting whatever is there now.
    ok(&cup(&["snapshot"], &env), "snapshot");
    let killed = std::process::Command::new("kill")
        .arg(pid.to_string())
        .status()
        .unwrap_or_else(|e| panic!("kill: {e}"));
    assert!(killed.success());
    ok(
        &cup(
            &["sandbox", "run", "--state", s, "--", "gtk3-widget-factory"],
            &[],
        ),
        "sandbox run again",
    );
    let stale = cup(&["action", &check, "click"], &env);
    assert_eq!(stale.status.code(), Some(1));
    assert!(
        text(&stale.stderr).contains("no longer exists"),
        "{}",
        text(&stale.stderr)
    );

    // open_app finds the installed app by a loose name and waits for its
    // window.
    let opened = ok(&cup(&["open", "widget factory"], &env), "open");
    assert!(
        opened.starts_with("ok [confirmed]") && opened.contains("window"),
        "{opened}"
    );
}
