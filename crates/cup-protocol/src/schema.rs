//! Validation against the embedded CUP JSON Schema (draft 2020-12) with a
//! real JSON Schema validator.

use std::sync::OnceLock;

use serde_json::Value;

/// The embedded `cup.schema.json` (CUP spec, MIT licence in `data/LICENSE-CUP-SPEC`).
pub const SCHEMA_JSON: &str = include_str!("../data/cup.schema.json");

/// One schema violation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON path of the offending value, e.g. `$.tree[0].role`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

fn validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        // Both the schema text and the validator configuration are part of
        // this crate and covered by its tests.
        #[allow(clippy::expect_used)]
        let schema: Value = serde_json::from_str(SCHEMA_JSON).expect("embedded schema is JSON");
        #[allow(clippy::expect_used)]
        jsonschema::draft202012::new(&schema).expect("embedded schema compiles")
    })
}

/// Every violation of the CUP schema in `instance`, in document order; empty
/// when the instance is a valid envelope.
pub fn validate(instance: &Value) -> Vec<Violation> {
    validator()
        .iter_errors(instance)
        .map(|e| Violation {
            path: pointer_to_path(&e.instance_path().to_string()),
            message: e.to_string(),
        })
        .collect()
}

/// `true` when `instance` is a valid envelope.
pub fn is_valid(instance: &Value) -> bool {
    validator().is_valid(instance)
}

/// `/tree/0/role` → `$.tree[0].role`.
fn pointer_to_path(pointer: &str) -> String {
    let mut out = String::from("$");
    for raw in pointer.split('/').skip(1) {
        let part = raw.replace("~1", "/").replace("~0", "~");
        if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
            out.push('[');
            out.push_str(&part);
            out.push(']');
        } else if !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_') {
            out.push('.');
            out.push_str(&part);
        } else {
            out.push_str("[\"");
            out.push_str(&part.replace('\\', "\\\\").replace('"', "\\\""));
            out.push_str("\"]");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_becomes_path() {
        assert_eq!(pointer_to_path(""), "$");
        assert_eq!(pointer_to_path("/tree/0/role"), "$.tree[0].role");
        assert_eq!(pointer_to_path("/a b"), "$[\"a b\"]");
    }

    #[test]
    fn bad_role_is_reported_with_its_path() {
        let v: Value = serde_json::json!({
            "version": "0.1.0", "platform": "web", "screen": {"w": 1, "h": 1},
            "tree": [{"id": "e0", "role": "buton", "name": ""}]
        });
        let errs = validate(&v);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].path, "$.tree[0].role");
    }
}
