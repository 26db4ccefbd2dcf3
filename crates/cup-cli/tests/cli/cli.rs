//! The `cup` binary end to end: output bytes, exit codes and error lines.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../cup-protocol/data/example.json"
);
const VECTORS: &str =
    include_str!("../../../cup-protocol/tests/fixtures/reference-sdk-vectors.json");

fn cup(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cup"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cup starts");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("cup finishes")
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("utf-8")
}

/// A JSON file in a per-process folder of the temp dir, removed (with the
/// folder, once empty) when dropped.
struct TempJson(std::path::PathBuf);

impl std::ops::Deref for TempJson {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempJson {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

fn temp_json(name: &str, content: &str) -> TempJson {
    let dir = std::env::temp_dir().join(format!("cup-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("write temp file");
    TempJson(path)
}

#[test]
fn render_example_equals_the_reference_sdks_output() {
    let v: serde_json::Value = serde_json::from_str(VECTORS).expect("vectors");
    let out = cup(&["render", EXAMPLE], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        v["example_json_compact"]["compact"]
            .as_str()
            .expect("compact")
    );
    let out = cup(&["render", "--detail", "full", EXAMPLE], None);
    assert_eq!(
        text(&out.stdout),
        v["example_json_compact"]["full"].as_str().expect("full")
    );
}

#[test]
fn render_reads_stdin_and_honours_max_chars() {
    let example = std::fs::read_to_string(EXAMPLE).expect("example");
    let out = cup(&["render", "-", "--max-chars", "400"], Some(&example));
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(s.chars().count() <= 400, "{s}");
    assert!(s.contains("# OUTPUT TRUNCATED — showing "), "{s}");
    let out = cup(&["render", "-", "--detail", "minimal"], Some(&example));
    assert!(text(&out.stdout).contains("[e4] btn \"Start\""));
    // --no-bounds: the same lines without x,y wxh.
    let with = text(&cup(&["render", "-"], Some(&example)).stdout);
    let without = text(&cup(&["render", "-", "--no-bounds"], Some(&example)).stdout);
    assert!(
        with.contains("[e4] btn \"Start\" 1014,1392 45x48 [clk]"),
        "{with}"
    );
    assert!(without.contains("[e4] btn \"Start\" [clk]\n"), "{without}");
    assert_eq!(with.lines().count(), without.lines().count());
}

#[test]
fn validate_accepts_the_example() {
    let out = cup(&["validate", EXAMPLE], None);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).ends_with(": valid CUP envelope\n"));
}

fn envelope_with(node: &str, extra_top_level: &str) -> String {
    format!(
        r#"{{"version":"0.1.0","platform":"linux","screen":{{"w":10,"h":10}},"tree":[{node}]{extra_top_level}}}"#
    )
}

#[test]
fn validate_rejects_bad_role_bad_id_and_extra_key_with_paths() {
    for (case, json, want) in [
        (
            "bad role",
            envelope_with(r#"{"id":"e0","role":"buton","name":""}"#, ""),
            "$.tree[0].role: \"buton\" is not one of",
        ),
        (
            "bad id",
            envelope_with(r#"{"id":"x7","role":"button","name":""}"#, ""),
            "$.tree[0].id: \"x7\" does not match \"^e\\d+$\"",
        ),
        (
            "extra key",
            envelope_with(
                r#"{"id":"e0","role":"button","name":""}"#,
                r#","_clipped":1"#,
            ),
            "$: Additional properties are not allowed ('_clipped' was unexpected)",
        ),
        (
            "duplicate id",
            envelope_with(
                r#"{"id":"e0","role":"button","name":"","children":[{"id":"e0","role":"text","name":"x"}]}"#,
                "",
            ),
            "$.tree[0].children[0].id: duplicate id 'e0' (first at $.tree[0].id)",
        ),
    ] {
        let path = temp_json(&format!("{}.json", case.replace(' ', "_")), &json);
        let out = cup(&["validate", path.to_str().expect("path")], None);
        assert_eq!(out.status.code(), Some(1), "{case}");
        let s = text(&out.stdout);
        assert_eq!(s.lines().count(), 1, "{case}: one line per violation: {s}");
        assert!(s.contains(want), "{case}: {s}");
        assert!(s.starts_with(path.to_str().expect("path")), "{case}: {s}");
    }
}

#[test]
fn invalid_json_reports_line_and_column() {
    let out = cup(
        &["validate", "-"],
        Some("{\n  \"version\": \"0.1.0\",\n  \"tree\": [}\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "cup: error: <stdin>:3:12: invalid JSON: expected value\n"
    );
    let out = cup(&["render", "-"], Some("{\"version\": \"0.1.0\", \"platform\": \"linux\", \"screen\": {\"w\":1,\"h\":1}, \"tree\": [{\"id\":\"e0\",\"role\":\"knob\",\"name\":\"\"}]}"));
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.starts_with("cup: error: <stdin>:1:"), "{err}");
    assert!(
        err.contains("unknown role 'knob'")
            && err.ends_with("run `cup validate -` to list every violation\n"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn missing_file_and_bad_flags_are_usage_errors() {
    let out = cup(&["render", "/nonexistent/cup.json"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read"));
    let out = cup(&["render", EXAMPLE, "--detail", "tiny"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("expected one of: compact (alias standard), full, minimal"));
    let out = cup(&["find", EXAMPLE, "--state", "shiny"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown state 'shiny'"));
}

#[test]
fn find_ranks_and_filters() {
    let out = cup(&["find", EXAMPLE, "explorer tree"], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "# 1 match\n\n[e27] tre \"Explorer\" {foc}\n"
    );
    let out = cup(
        &["find", EXAMPLE, "--role", "button", "--name", "chrome"],
        None,
    );
    assert_eq!(
        text(&out.stdout),
        "# 1 match\n\n[e7] btn \"Google Chrome — pinned\" 1333,1400 40x32 {prs} [clk]\n"
    );
    let out = cup(
        &["find", EXAMPLE, "--state", "focused", "--limit", "2"],
        None,
    );
    assert_eq!(text(&out.stdout).lines().count(), 4);
    let out = cup(&["find", EXAMPLE, "nonexistent gizmo"], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "# 0 matches\n");
    let out = cup(&["find", EXAMPLE], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn page_shows_hidden_items() {
    let mut items = Vec::new();
    for i in 1..=12 {
        items.push(format!(
            r#"{{"id":"e{i}","role":"listitem","name":"Item {i}","bounds":{{"x":0,"y":{},"w":100,"h":10}}}}"#,
            (i - 1) * 10
        ));
    }
    let json = envelope_with(
        &format!(r#"{{"id":"e0","role":"list","name":"L","actions":["scroll"],"bounds":{{"x":0,"y":0,"w":10,"h":40}},"children":[{}]}}"#, items.join(",")),
        "",
    )
    .replace(r#""w":10,"h":10}"#, r#""w":100,"h":100}"#);
    let path = temp_json("page.json", &json);
    let p = path.to_str().expect("path");
    let out = cup(&["render", p], None);
    assert!(text(&out.stdout)
        .contains("# 8 more items — 8 below: page(element_id='e0', direction='down')"));
    let out = cup(&["page", p, "e0", "--direction", "down"], None);
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(
        s.starts_with("# page e0 | items 5-8 of 12 | lst \"L\"\n\n[e5] li \"Item 5\"\n"),
        "{s}"
    );
    assert!(s.contains("# 4 more — page(element_id='e0', direction='down')\n# 4 before — page(element_id='e0', direction='up')\n"), "{s}");
    let out = cup(&["page", p, "e42"], None);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn version_prints_the_crate_version() {
    let out = cup(&["--version"], None);
    assert_eq!(
        text(&out.stdout),
        format!("cup {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn mcp_list_prints_each_profiles_tools_without_serving() {
    let lines = |profile: &str| -> Vec<String> {
        let out = cup(&["mcp", "--list", "--tools", profile], None);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split_whitespace().next().unwrap_or_default().to_owned())
            .collect()
    };
    let (all, cup_tools, driver) = (lines("all"), lines("cup"), lines("driver"));
    assert_eq!(all.len(), cup_tools.len() + driver.len());
    for name in ["snapshot", "action", "find"] {
        assert!(
            cup_tools.iter().any(|t| t == name),
            "{name} in {cup_tools:?}"
        );
    }
    for name in [
        "get_window_state",
        "set_recording",
        "replay_trajectory",
        "set_config",
    ] {
        assert!(driver.iter().any(|t| t == name), "{name} in {driver:?}");
    }
    let refused = cup(&["mcp", "--list", "--http", "127.0.0.1:0"], None);
    assert!(!refused.status.success());
}

#[test]
fn a_desktop_named_for_another_os_is_refused_with_advice() {
    let other = if cfg!(windows) { "linux" } else { "windows" };
    let out = cup(&["snapshot", "--platform", other], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("platform '{other}': this cup runs on"))
            && err.contains("use desktop"),
        "{err}"
    );
}
