//! Every tool called with bad arguments; a hung and a killed app.

use super::*;

/// Bad arguments for every property of `schema` (wrong type, and out of
/// range for integers), and `{}` when something is required.
fn bad_arguments(schema: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    if schema["required"].as_array().is_some_and(|r| !r.is_empty()) {
        out.push(json!({}));
    }
    if let Some(props) = schema["properties"].as_object() {
        for (key, prop) in props {
            let wrong = match prop["type"].as_str() {
                Some("integer") => json!("twelve"),
                Some("boolean") => json!("yes"),
                Some("array") => json!(5),
                Some("object") => json!("x"),
                Some("number") => json!("fast"),
                _ => json!(123),
            };
            out.push(json!({ key: wrong }));
            if prop["type"] == json!("integer") {
                out.push(json!({ key: 1_000_000_000_000_i64 }));
            }
            if prop["enum"].is_array() {
                out.push(json!({ key: "no-such-choice" }));
            }
        }
    }
    out.push(json!({"no_such_argument": 1}));
    out
}

#[test]
fn every_tool_refuses_bad_arguments_and_the_server_keeps_serving() {
    let (_state, env, pid) = desktop("mcp-bad");
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);
    // The raw tool list, schemas included.
    let tools = list_with_schemas(&env);
    assert!(tools.len() >= 31, "{}", tools.len());
    for tool in &tools {
        let name = tool["name"].as_str().unwrap_or_default();
        for args in bad_arguments(&tool["inputSchema"]) {
            let answer = c.call(name, args.clone());
            let msg = error_text(&answer, &format!("{name} {args}"));
            assert!(
                !msg.trim().is_empty() && !msg.contains('\n'),
                "{name} {args}: not one line: {msg:?}"
            );
        }
    }
    ok_text(&c.call("overview", json!({})), "overview after bad calls");

    // A hung app: the capture comes back partial, never an error nor a hang
    // (as the library's a_hung_app_gives_a_partial_capture_within_the_deadline).
    let snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
    let id = id_of(&snap, &["chk \"checkbutton\"", "[clk,tog]"]);
    signal(pid, "STOP");
    let started = Instant::now();
    let hung = c.call("snapshot", json!({}));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "snapshot of a hung app took {:?}",
        started.elapsed()
    );
    let hung_text = hung["text"].as_str().unwrap_or_default();
    assert!(
        hung["is_error"] != json!(true)
            && hung_text.contains(&format!("# partial capture: app pid {pid} did not answer")),
        "a hung app's snapshot must be a partial capture: {hung}"
    );
    // Killed: acting on its old ids is an error that says what to do.
    signal(pid, "KILL");
    signal(pid, "CONT");
    let started = Instant::now();
    let gone = c.call("action", json!({"action": "toggle", "element_id": id}));
    let msg = error_text(&gone, "action on a killed app");
    assert!(
        msg.contains("snapshot"),
        "the error should say to take a new snapshot: {msg}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    ok_text(&c.call("overview", json!({})), "overview after the kill");
}

fn signal(pid: u32, sig: &str) {
    let status = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(pid.to_string())
        .status()
        .unwrap_or_else(|e| panic!("kill: {e}"));
    assert!(status.success() || sig == "CONT", "kill -{sig} {pid}");
}

/// tools/list with input schemas, through a raw stdio exchange with
/// `cup mcp` (newline-delimited JSON-RPC, as the protocol defines it).
fn list_with_schemas(env: &[(String, String)]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cup"))
        .arg("mcp")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cup mcp: {e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    writeln!(stdin, "{init}").unwrap_or_else(|e| panic!("{e}"));
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap_or_else(|e| panic!("{e}"));
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let mut tools = Vec::new();
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        let v: Value = serde_json::from_str(&line).unwrap_or_default();
        if v["id"] == json!(2) {
            tools = v["result"]["tools"].as_array().cloned().unwrap_or_default();
            break;
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    tools
}
