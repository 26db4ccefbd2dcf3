//! Reading an envelope from a file or standard input, with errors that say
//! where and what to do.

use std::io::Read;
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::commands::Failure;

/// The text of `path` (`-` = standard input).
pub fn read(path: &Path) -> Result<(String, String), Failure> {
    if path == Path::new("-") {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| Failure::usage(format!("<stdin>: cannot read: {e}")))?;
        Ok(("<stdin>".to_owned(), s))
    } else {
        let label = path.display().to_string();
        let s = std::fs::read_to_string(path).map_err(|e| {
            Failure::usage(format!(
                "{label}: cannot read: {e}; give an existing JSON file, or - for standard input"
            ))
        })?;
        Ok((label, s))
    }
}

/// Parses JSON without serde_json's nesting limit (UI trees can be deep; the
/// command runs on a large stack).
pub fn parse_json<T: DeserializeOwned>(label: &str, text: &str) -> Result<T, Failure> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = T::deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    value.map_err(|e| json_failure(label, &e))
}

fn json_failure(label: &str, e: &serde_json::Error) -> Failure {
    use serde_json::error::Category;
    let at = format!("{label}:{}:{}", e.line(), e.column());
    // serde_json appends " at line L column C"; the position is already up front.
    let text = e.to_string();
    let msg = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(m, _)| m);
    match e.classify() {
        Category::Syntax | Category::Eof => Failure::usage(format!("{at}: invalid JSON: {msg}")),
        Category::Data => {
            let arg = if label == "<stdin>" { "-" } else { label };
            Failure::usage(format!("{at}: not a valid CUP envelope: {msg}; run `cup validate {arg}` to list every violation"))
        }
        Category::Io => Failure::usage(format!("{label}: cannot read: {msg}")),
    }
}

/// Reads and parses an envelope.
pub fn envelope(path: &Path) -> Result<(String, cup_protocol::Envelope), Failure> {
    let (label, text) = read(path)?;
    let env = parse_json(&label, &text)?;
    Ok((label, env))
}
