//! `cup validate FILE|-`: the envelope against the CUP JSON Schema, plus the
//! rule the schema cannot express (ids are unique).

use std::collections::HashMap;
use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

use crate::commands::Failure;
use crate::{input, output};

pub fn run(path: &Path) -> Result<ExitCode, Failure> {
    let (label, text) = input::read(path)?;
    let value: Value = input::parse_json(&label, &text)?;
    let mut lines: Vec<String> = cup_protocol::schema::validate(&value)
        .iter()
        .map(|v| format!("{label}: {}: {}", v.path, one_line(&v.message)))
        .collect();
    lines.extend(
        duplicate_ids(&value)
            .into_iter()
            .map(|l| format!("{label}: {l}")),
    );
    if lines.is_empty() {
        output::print(&format!("{label}: valid CUP envelope\n"))?;
        Ok(ExitCode::SUCCESS)
    } else {
        let mut text = lines.join("\n");
        text.push('\n');
        output::print(&text)?;
        Ok(ExitCode::from(1))
    }
}

/// Violation messages can quote long values; keep each on one line.
fn one_line(s: &str) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match flat.char_indices().nth(300) {
        Some((i, _)) => format!("{}...", &flat[..i]),
        None => flat,
    }
}

/// `$.tree[0].children[2].id: duplicate id 'e3' (first at $.tree[0].id)`.
fn duplicate_ids(env: &Value) -> Vec<String> {
    let mut seen: HashMap<&str, String> = HashMap::new();
    let mut out = Vec::new();
    let mut stack: Vec<(&Value, String)> = Vec::new();
    if let Some(roots) = env.get("tree").and_then(Value::as_array) {
        stack.extend(
            roots
                .iter()
                .enumerate()
                .rev()
                .map(|(i, n)| (n, format!("$.tree[{i}]"))),
        );
    }
    while let Some((node, path)) = stack.pop() {
        if let Some(id) = node.get("id").and_then(Value::as_str) {
            match seen.get(id) {
                Some(first) => out.push(format!(
                    "{path}.id: duplicate id '{id}' (first at {first}.id); ids must be unique"
                )),
                None => {
                    seen.insert(id, path.clone());
                }
            }
        }
        if let Some(children) = node.get("children").and_then(Value::as_array) {
            stack.extend(
                children
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(i, n)| (n, format!("{path}.children[{i}]"))),
            );
        }
    }
    out
}
