//! Raw frames that are no JSON-RPC message, over stdio: each gets
//! JSON-RPC's error, and the server keeps serving. No desktop needed. (The
//! same bodies over HTTP: `http.rs`, with these helpers.)

use super::*;

/// An `initialize` request with `id`.
pub(super) fn initialize(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
}

/// `[[[...]]]`, `depth` deep.
pub(super) fn deep_array(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

/// Checks that `answer` is JSON-RPC's parse error with id null and a
/// one-line message.
pub(super) fn assert_parse_error(answer: &Value) {
    assert_eq!(answer["jsonrpc"], json!("2.0"), "{answer}");
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], json!(-32700), "{answer}");
    let msg = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(
        msg.starts_with("Parse error: ") && !msg.contains('\n'),
        "{msg:?}"
    );
}

#[test]
fn stdio_answers_unparsable_and_too_deep_lines_and_keeps_serving() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cup"))
        .arg("mcp")
        .env_remove("AT_SPI_BUS_ADDRESS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cup mcp: {e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    writeln!(stdin, "{{not json").unwrap_or_else(|e| panic!("{e}"));
    writeln!(stdin, "{}", deep_array(5000)).unwrap_or_else(|e| panic!("{e}"));
    writeln!(stdin, "{}", initialize(1)).unwrap_or_else(|e| panic!("{e}"));
    stdin.flush().unwrap_or_else(|e| panic!("{e}"));
    let next = || -> Value {
        let line = lines
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|e| panic!("no answer from cup mcp: {e}"));
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {line}: {e}"))
    };
    let answers = [next(), next(), next()];
    assert_parse_error(&answers[0]);
    assert_parse_error(&answers[1]);
    let msg = answers[1]["error"]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("recursion limit"), "{msg}");
    assert_eq!(answers[2]["id"], json!(1), "{}", answers[2]);
    assert_eq!(
        answers[2]["result"]["serverInfo"]["name"],
        json!("cup"),
        "{}",
        answers[2]
    );
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            assert!(status.success(), "cup mcp ended with {status}");
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("cup mcp did not end when its input closed");
}
