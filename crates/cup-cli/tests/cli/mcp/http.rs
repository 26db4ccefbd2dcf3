//! Streamable HTTP: the bearer token, clients kept apart, public binds,
//! bodies that are no JSON-RPC message.

use super::frames::{assert_parse_error, deep_array, initialize};
use super::*;

/// Reads the first stdout line of `cup mcp --http` (where it serves and the
/// token).
fn http_server(env: &[(String, String)]) -> (Child, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cup"))
        .args(["mcp", "--http", "127.0.0.1:0"])
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env_remove("CUP_MCP_TOKEN")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cup mcp --http: {e}"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let mut line = String::new();
    let _ = BufReader::new(stdout).read_line(&mut line);
    // cup mcp: serving http://127.0.0.1:PORT/mcp token HEX
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_owned();
    let token = line
        .split(" token ")
        .nth(1)
        .map(|t| t.trim().to_owned())
        .unwrap_or_else(|| panic!("no token in {line:?}"));
    (child, url, token)
}

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A POST of `body` to `url` with an optional bearer token: the status
/// line and the body of the answer.
fn post(url: &str, token: Option<&str>, body: &str) -> (String, String) {
    let rest = url.trim_start_matches("http://");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream =
        std::net::TcpStream::connect(host).unwrap_or_else(|e| panic!("connect {host}: {e}"));
    let auth = token.map_or_else(String::new, |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        stream,
        "POST /{path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
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

/// A POST of an `initialize` request with an optional bearer token; the
/// status line.
fn raw_post(url: &str, token: Option<&str>) -> String {
    post(url, token, &initialize(1).to_string()).0
}

#[test]
fn http_needs_the_token_and_keeps_each_clients_state_apart() {
    let (_state, env, _pid) = desktop("mcp-http");
    let (child, url, token) = http_server(&env);
    let _server = Kill(child);
    assert!(
        raw_post(&url, None).contains(" 401 "),
        "no token must be refused"
    );
    assert!(
        raw_post(&url, Some("wrong-token-123")).contains(" 401 "),
        "a wrong token must be refused"
    );
    assert!(raw_post(&url, Some(&token)).contains(" 200 "));

    let mut c = Client::start(
        &[
            "http".to_owned(),
            url.clone(),
            token.clone(),
            "2".to_owned(),
        ],
        &[],
    );
    let listed = c.tools();
    assert!(listed["tools"].as_array().is_some_and(|t| t.len() >= 31));
    // Client 0 takes a snapshot and acts; client 1 has no snapshot of its own.
    let snap = ok_text(&c.call_on(0, "snapshot", json!({})), "snapshot");
    let id = id_of(&snap, &["chk \"checkbutton\"", "[clk,tog]"]);
    let other = c.call_on(1, "action", json!({"action": "toggle", "element_id": id}));
    let msg = error_text(&other, "action on another client's ids");
    assert!(msg.contains("no snapshot"), "{msg}");
    let acted = c.call_on(0, "action", json!({"action": "toggle", "element_id": id}));
    ok_text(&acted, "toggle over HTTP");
    assert_eq!(acted["structured"]["effect"], json!("confirmed"), "{acted}");
    let shot = c.call_on(1, "screenshot", json!({}));
    assert_eq!(shot["images"][0]["png"], json!(true), "{shot}");
}

#[test]
fn http_refuses_a_public_bind_without_a_token() {
    let out = Command::new(env!("CARGO_BIN_EXE_cup"))
        .args(["mcp", "--http", "0.0.0.0:0"])
        .env_remove("CUP_MCP_TOKEN")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--token"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn http_answers_unparsable_bodies_with_400_and_a_json_rpc_error() {
    let (child, url, token) = http_server(&[]);
    let _server = Kill(child);
    let token = Some(token.as_str());
    for bad in ["{not json".to_owned(), deep_array(5000)] {
        let (status, body) = post(&url, token, &bad);
        assert!(status.contains(" 400 "), "{status}: {body}");
        let answer: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{body}: {e}"));
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
}
