//! Raw frames that are no JSON-RPC message, over stdio and HTTP: each gets
//! JSON-RPC's error, and the server keeps serving. No desktop needed.

use super::*;

fn initialize(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
}

/// `[[[...]]]`, `depth` deep.
fn deep_array(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

fn assert_parse_error(answer: &Value) {
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

/// A POST of `body` to `cup mcp --http`'s `url`: status line and body.
fn post(url: &str, token: &str, body: &str) -> (String, String) {
    let rest = url.trim_start_matches("http://");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream =
        std::net::TcpStream::connect(host).unwrap_or_else(|e| panic!("connect {host}: {e}"));
    write!(
        stream,
        "POST /{path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap_or_else(|e| panic!("write: {e}"));
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (
        head.lines().next().unwrap_or_default().to_owned(),
        body.to_owned(),
    )
}

#[test]
fn http_answers_unparsable_bodies_with_400_and_a_json_rpc_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cup"))
        .args([
            "mcp",
            "--http",
            "127.0.0.1:0",
            "--token",
            "frames-token-123",
        ])
        .env_remove("AT_SPI_BUS_ADDRESS")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cup mcp --http: {e}"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let mut line = String::new();
    let _ = BufReader::new(stdout).read_line(&mut line);
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .map(str::to_owned);
    let checks = std::panic::catch_unwind(|| {
        let url = url.unwrap_or_else(|| panic!("no URL in {line:?}"));
        let token = "frames-token-123";
        for bad in ["{not json".to_owned(), deep_array(5000)] {
            let (status, body) = post(&url, token, &bad);
            assert!(status.contains(" 400 "), "{status}: {body}");
            let answer: Value =
                serde_json::from_str(&body).unwrap_or_else(|e| panic!("{body}: {e}"));
            assert_parse_error(&answer);
        }
        let (status, body) = post(&url, token, r#"{"id": 4, "method": 5}"#);
        assert!(status.contains(" 400 "), "{status}: {body}");
        let answer: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{body}: {e}"));
        assert_eq!(answer["error"]["code"], json!(-32600), "{answer}");
        assert_eq!(answer["id"], json!(4), "{answer}");
        let (status, body) = post(&url, token, &initialize(1).to_string());
        assert!(status.contains(" 200 "), "{status}: {body}");
        assert!(body.contains(r#""serverInfo":{"name":"cup""#), "{body}");
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(panic) = checks {
        std::panic::resume_unwind(panic);
    }
}
