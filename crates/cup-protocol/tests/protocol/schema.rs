//! Schema validity with a real JSON Schema validator: the spec example and
//! every vector input, as given and as cup re-emits them; and the invalid
//! envelopes the validator must reject.
#![allow(clippy::expect_used)]

use cup_protocol::schema::validate;
use cup_protocol::Envelope;
use serde_json::{json, Value};

fn assert_valid_and_reemitted_valid(label: &str, raw: &Value) {
    assert_eq!(validate(raw), vec![], "{label} as given");
    let env: Envelope = serde_json::from_value(raw.clone()).expect("parses as an envelope");
    let ours = serde_json::to_value(&env).expect("serializes");
    assert_eq!(validate(&ours), vec![], "{label} as cup emits it");
}

#[test]
fn spec_example_is_valid() {
    let raw: Value = serde_json::from_str(include_str!("../../data/example.json")).expect("json");
    assert_valid_and_reemitted_valid("example.json", &raw);
}

#[test]
fn every_vector_input_is_valid() {
    let v: Value =
        serde_json::from_str(include_str!("../fixtures/reference-sdk-vectors.json")).expect("json");
    let mut n = 0;
    for case in v["inputs"]["compact"].as_array().expect("compact") {
        let mut env = case["env"].clone();
        if let Some(w) = case.get("window_list") {
            env["windows"] = w.clone();
        }
        assert_valid_and_reemitted_valid(case["name"].as_str().expect("name"), &env);
        n += 1;
    }
    for case in v["inputs"]["search"].as_array().expect("search") {
        let env = json!({"version": "0.1.0", "platform": "web", "screen": {"w": 800, "h": 600}, "tree": case["tree"]});
        assert_valid_and_reemitted_valid(case["name"].as_str().expect("name"), &env);
        n += 1;
    }
    for case in v["inputs"]["overview"].as_array().expect("overview") {
        let env = json!({"version": "0.1.0", "platform": case["platform"], "screen": {"w": case["w"], "h": case["h"]},
                         "scope": "overview", "tree": [], "windows": case["windows"]});
        assert_valid_and_reemitted_valid(case["name"].as_str().expect("name"), &env);
        n += 1;
    }
    assert_eq!(n, 14);
}

fn base() -> Value {
    json!({"version": "0.1.0", "platform": "linux", "screen": {"w": 10, "h": 10},
           "tree": [{"id": "e0", "role": "button", "name": "OK"}]})
}

#[test]
fn invalid_envelopes_are_rejected_with_paths() {
    type Mutation = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Mutation, &str)> = vec![
        (
            "bad role",
            Box::new(|v| v["tree"][0]["role"] = json!("knob")),
            "$.tree[0].role",
        ),
        (
            "bad id",
            Box::new(|v| v["tree"][0]["id"] = json!("7")),
            "$.tree[0].id",
        ),
        (
            "extra top-level key",
            Box::new(|v| v["extra"] = json!(true)),
            "$",
        ),
        (
            "bad state",
            Box::new(|v| v["tree"][0]["states"] = json!(["shiny"])),
            "$.tree[0].states[0]",
        ),
        (
            "bad action",
            Box::new(|v| v["tree"][0]["actions"] = json!(["poke"])),
            "$.tree[0].actions[0]",
        ),
        (
            "duplicate state",
            Box::new(|v| v["tree"][0]["states"] = json!(["focused", "focused"])),
            "$.tree[0].states",
        ),
        (
            "negative width",
            Box::new(|v| v["tree"][0]["bounds"] = json!({"x": 0, "y": 0, "w": -1, "h": 1})),
            "$.tree[0].bounds.w",
        ),
        (
            "private field",
            Box::new(|v| v["tree"][0]["_clipped"] = json!({})),
            "$.tree[0]",
        ),
        (
            "tool without name",
            Box::new(|v| v["tools"] = json!([{"description": "x"}])),
            "$.tools[0]",
        ),
        (
            "bad version",
            Box::new(|v| v["version"] = json!("1.0")),
            "$.version",
        ),
        (
            "missing screen",
            Box::new(|v| {
                v.as_object_mut().expect("object").remove("screen");
            }),
            "$",
        ),
        (
            "bad attribute",
            Box::new(|v| v["tree"][0]["attributes"] = json!({"level": 0})),
            "$.tree[0].attributes.level",
        ),
    ];
    for (label, mutate, path) in cases {
        let mut v = base();
        mutate(&mut v);
        let errs = validate(&v);
        assert!(!errs.is_empty(), "{label}: accepted");
        assert!(errs.iter().any(|e| e.path == path), "{label}: {errs:?}");
        // cup's own types refuse the same input.
        assert!(
            serde_json::from_value::<Envelope>(v).is_err(),
            "{label}: cup's types accepted it"
        );
    }
}
