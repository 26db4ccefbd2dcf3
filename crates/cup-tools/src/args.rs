//! A tool call's arguments, read with one-line errors that name the
//! argument, what was wrong and what to send instead.

use serde_json::{Map, Value};

/// A tool error: one line, saying what to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError(pub String);

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E: std::fmt::Display> From<E> for ToolError
where
    E: std::error::Error,
{
    fn from(e: E) -> Self {
        ToolError(e.to_string())
    }
}

/// Shorthand for an error result.
pub fn fail<T>(message: impl Into<String>) -> Result<T, ToolError> {
    Err(ToolError(message.into()))
}

/// The arguments of one call of tool `tool`.
#[derive(Debug)]
pub struct Args<'a> {
    tool: &'a str,
    map: Map<String, Value>,
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl<'a> Args<'a> {
    /// Wraps `value` (an object, or null/absent for no arguments).
    pub fn new(tool: &'a str, value: Option<Value>) -> Result<Args<'a>, ToolError> {
        let map = match value {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m,
            Some(other) => {
                return fail(format!(
                    "{tool}: arguments must be a JSON object, got {}",
                    kind(&other)
                ))
            }
        };
        Ok(Args { tool, map })
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        self.tool
    }

    fn bad(&self, key: &str, want: &str, got: &Value) -> ToolError {
        ToolError(format!(
            "{}: `{key}` must be {want}, got {}",
            self.tool,
            short(got)
        ))
    }

    /// Refuses arguments the tool does not take (a typo would otherwise be
    /// silently ignored).
    pub fn only(&self, known: &[&str]) -> Result<(), ToolError> {
        for key in self.map.keys() {
            if !known.contains(&key.as_str()) {
                return fail(format!(
                    "{}: unknown argument `{key}`; it takes: {}",
                    self.tool,
                    if known.is_empty() {
                        "no arguments".to_owned()
                    } else {
                        known.join(", ")
                    }
                ));
            }
        }
        Ok(())
    }

    /// Checks every given argument the schema knows against its type and
    /// choices (arguments the schema does not list are left to the tool,
    /// which accepts some aliases).
    pub fn check_schema(&self, schema: &Map<String, Value>) -> Result<(), ToolError> {
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            return Ok(());
        };
        for (key, value) in &self.map {
            if value.is_null() {
                continue;
            }
            let Some(prop) = props.get(key) else {
                continue;
            };
            let types: Vec<&str> = match prop.get("type") {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
                _ => continue,
            };
            if !types.iter().any(|t| has_type(value, t)) {
                let want: Vec<String> = types.iter().map(|t| article(t)).collect();
                return Err(self.bad(key, &want.join(" or "), value));
            }
            if let (Some(choices), Value::String(v)) =
                (prop.get("enum").and_then(Value::as_array), value)
            {
                let folded = v.trim().to_ascii_lowercase();
                if !choices.iter().any(|c| c.as_str() == Some(folded.as_str())) {
                    let names: Vec<&str> = choices.iter().filter_map(Value::as_str).collect();
                    return fail(format!(
                        "{}: `{key}` must be one of {}, got {v:?}",
                        self.tool,
                        names.join(", ")
                    ));
                }
            }
            if let (Some(items), Value::Array(list)) = (prop.get("items"), value) {
                if let Some(t) = items.get("type").and_then(Value::as_str) {
                    if let Some(bad) = list.iter().find(|i| !has_type(i, t)) {
                        return Err(self.bad(key, &format!("a list of {}s", t), bad));
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether `key` was given (and is not null).
    pub fn has(&self, key: &str) -> bool {
        self.map.get(key).is_some_and(|v| !v.is_null())
    }

    /// The raw value of `key` (any JSON type; not null).
    pub fn value(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// An optional string (numbers are not strings).
    pub fn str(&self, key: &str) -> Result<Option<String>, ToolError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.bad(key, "a string", v)),
        }
    }

    /// A required, non-blank string; `example` shows a good value.
    pub fn req_str(&self, key: &str, example: &str) -> Result<String, ToolError> {
        match self.str(key)? {
            Some(s) if !s.trim().is_empty() => Ok(s),
            Some(_) => fail(format!(
                "{}: `{key}` must not be empty, e.g. {example}",
                self.tool
            )),
            None => fail(format!(
                "{}: missing `{key}`, e.g. {{\"{key}\": {example}}}",
                self.tool
            )),
        }
    }

    /// An optional integer within `min..=max`.
    pub fn int(&self, key: &str, min: i64, max: i64) -> Result<Option<i64>, ToolError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let n = match v {
            Value::Number(n) => n
                .as_i64()
                .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
            _ => None,
        };
        let Some(n) = n else {
            return Err(self.bad(key, "an integer", v));
        };
        if n < min || n > max {
            return fail(format!(
                "{}: `{key}` must be from {min} to {max}, got {n}",
                self.tool
            ));
        }
        Ok(Some(n))
    }

    /// An optional boolean.
    pub fn bool(&self, key: &str) -> Result<Option<bool>, ToolError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.bad(key, "true or false", v)),
        }
    }

    /// An optional list of strings; a single string counts as a list of
    /// one (split on `+` when `split_plus`).
    pub fn strings(&self, key: &str, split_plus: bool) -> Result<Vec<String>, ToolError> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Value::String(s)) if split_plus => Ok(s
                .split('+')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
                .collect()),
            Some(Value::String(s)) => Ok(vec![s.clone()]),
            Some(Value::Array(items)) => items
                .iter()
                .map(|i| match i {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(self.bad(key, "a list of strings", other)),
                })
                .collect(),
            Some(v) => Err(self.bad(key, "a list of strings", v)),
        }
    }

    /// An optional array (of anything).
    pub fn array(&self, key: &str) -> Result<Option<&Vec<Value>>, ToolError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a)),
            Some(v) => Err(self.bad(key, "an array", v)),
        }
    }

    /// An optional string that must be one of `choices`.
    pub fn choice(&self, key: &str, choices: &[&str]) -> Result<Option<String>, ToolError> {
        let Some(s) = self.str(key)? else {
            return Ok(None);
        };
        let folded = s.trim().to_ascii_lowercase();
        if choices.contains(&folded.as_str()) {
            Ok(Some(folded))
        } else {
            fail(format!(
                "{}: `{key}` must be one of {}, got {s:?}",
                self.tool,
                choices.join(", ")
            ))
        }
    }
}

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "integer" => v.as_i64().is_some() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true,
    }
}

fn article(t: &str) -> String {
    match t {
        "integer" | "array" | "object" => format!("an {t}"),
        "boolean" => "true or false".to_owned(),
        t => format!("a {t}"),
    }
}

/// A value shortened for an error message.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        let cut: String = s.chars().take(37).collect();
        format!("{cut}...")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Args<'static> {
        match Args::new("click", Some(v)) {
            Ok(a) => a,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn wrong_types_and_ranges_are_named() {
        let a = args(json!({"x": "12", "y": 5000000, "count": 2.0, "flag": 1}));
        assert_eq!(
            a.int("x", 0, 10).err().map(|e| e.0),
            Some("click: `x` must be an integer, got \"12\"".into())
        );
        assert_eq!(
            a.int("y", 0, 100_000).err().map(|e| e.0),
            Some("click: `y` must be from 0 to 100000, got 5000000".into())
        );
        assert_eq!(a.int("count", 1, 3).ok().flatten(), Some(2));
        assert!(a.bool("flag").is_err());
        assert_eq!(
            a.req_str("element_id", "\"e3\"").err().map(|e| e.0),
            Some("click: missing `element_id`, e.g. {\"element_id\": \"e3\"}".into())
        );
    }

    #[test]
    fn unknown_arguments_are_refused_with_the_known_ones() {
        let a = args(json!({"elemnt_id": "e1"}));
        assert_eq!(
            a.only(&["element_id", "x"]).err().map(|e| e.0),
            Some("click: unknown argument `elemnt_id`; it takes: element_id, x".into())
        );
    }

    #[test]
    fn strings_take_a_list_or_a_plus_joined_string() {
        let a = args(json!({"m": "ctrl+shift", "k": ["a", "b"], "bad": [1]}));
        assert_eq!(
            a.strings("m", true).ok(),
            Some(vec!["ctrl".into(), "shift".into()])
        );
        assert_eq!(
            a.strings("k", false).ok(),
            Some(vec!["a".into(), "b".into()])
        );
        assert!(a.strings("bad", false).is_err());
        assert!(Args::new("t", Some(json!([1]))).is_err());
    }
}
