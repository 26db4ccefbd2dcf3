//! The client and the adapter against recorded WebDriverAgent exchanges: a
//! small HTTP server replays a list of (request line + JSON body → reply)
//! in order and fails the test on any request it did not expect.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use cup::{Adapter, CaptureLimits, Effect, ShotTarget, Target};
use cup_protocol::{parse_combo, Action, Role, State};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::client::WdaClient;
use crate::plan;
use crate::IosAdapter;

/// What the server sends back.
enum Reply {
    /// A status and a JSON body (with `Content-Length`).
    Json(u16, Value),
    /// The same, sent in chunks.
    Chunked(u16, Value),
    /// Nothing, ever (the connection stays open).
    Hang,
}

/// One recorded exchange.
struct Exchange {
    /// `METHOD /path?query`.
    request: String,
    /// The JSON body the request must carry.
    body: Option<Value>,
    reply: Reply,
}

fn ex(request: &str, body: Option<Value>, reply: Reply) -> Exchange {
    Exchange {
        request: request.to_owned(),
        body,
        reply,
    }
}

fn ok(value: Value) -> Reply {
    Reply::Json(200, json!({"value": value, "sessionId": null}))
}

#[derive(Default)]
struct Log {
    served: usize,
    errors: Vec<String>,
    bodies: Vec<Vec<u8>>,
}

struct Replay {
    addr: SocketAddr,
    expected: usize,
    log: Arc<Mutex<Log>>,
    task: tokio::task::JoinHandle<()>,
}

async fn read_request(sock: &mut TcpStream) -> Result<(String, Option<String>, Vec<u8>), String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = sock.read(&mut chunk).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the client closed without a request".into());
        }
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut req = httparse::Request::new(&mut headers);
        if let httparse::Status::Complete(len) = req.parse(&buf).map_err(|e| e.to_string())? {
            let line = format!(
                "{} {}",
                req.method.unwrap_or_default(),
                req.path.unwrap_or_default()
            );
            let header = |name: &str| {
                req.headers
                    .iter()
                    .find(|h| h.name.eq_ignore_ascii_case(name))
                    .map(|h| String::from_utf8_lossy(h.value).into_owned())
            };
            let host = header("host");
            let length: usize = header("content-length")
                .and_then(|l| l.parse().ok())
                .unwrap_or(0);
            let mut body = buf[len..].to_vec();
            while body.len() < length {
                let n = sock.read(&mut chunk).await.map_err(|e| e.to_string())?;
                if n == 0 {
                    return Err("the body is shorter than its Content-Length".into());
                }
                body.extend_from_slice(&chunk[..n]);
            }
            return Ok((line, host, body));
        }
    }
}

async fn send(sock: &mut TcpStream, status: u16, body: &Value, chunked: bool) {
    let text = body.to_string();
    let head = format!(
        "HTTP/1.1 {status} {}\r\nServer: WebDriverAgent\r\nContent-Type: application/json;charset=UTF-8\r\nConnection: close\r\n",
        if status == 200 { "OK" } else { "Error" }
    );
    let mut out = head.into_bytes();
    if chunked {
        out.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
        for part in text.as_bytes().chunks(1000) {
            out.extend_from_slice(format!("{:x}\r\n", part.len()).as_bytes());
            out.extend_from_slice(part);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n\r\n");
    } else {
        out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", text.len()).as_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    let _ = sock.write_all(&out).await;
    let _ = sock.shutdown().await;
}

impl Replay {
    async fn start(exchanges: Vec<Exchange>) -> Replay {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("listen");
        let addr = listener.local_addr().expect("address");
        let log = Arc::new(Mutex::new(Log::default()));
        let expected = exchanges.len();
        let shared = Arc::clone(&log);
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            for (i, want) in exchanges.into_iter().enumerate() {
                let Ok((mut sock, _)) = listener.accept().await else {
                    return;
                };
                let fail = |msg: String| {
                    shared.lock().expect("log").errors.push(msg);
                };
                let (line, host, body) = match read_request(&mut sock).await {
                    Ok(r) => r,
                    Err(e) => {
                        fail(format!("request {}: {e}", i + 1));
                        return;
                    }
                };
                let got_body: Option<Value> = if body.is_empty() {
                    None
                } else {
                    match serde_json::from_slice(&body) {
                        Ok(v) => Some(v),
                        Err(e) => {
                            fail(format!("request {} {line}: body is not JSON: {e}", i + 1));
                            return;
                        }
                    }
                };
                if host.as_deref() != Some(addr.to_string().as_str()) {
                    fail(format!("request {} {line}: Host {host:?}", i + 1));
                }
                if line != want.request || got_body != want.body {
                    fail(format!(
                        "request {}: expected {} {:?}, got {line} {got_body:?}",
                        i + 1,
                        want.request,
                        want.body
                    ));
                    send(
                        &mut sock,
                        500,
                        &json!({"value": {"error": "unexpected", "message": "not in the recording"}}),
                        false,
                    )
                    .await;
                    return;
                }
                {
                    let mut log = shared.lock().expect("log");
                    log.served += 1;
                    log.bodies.push(body);
                }
                match want.reply {
                    Reply::Json(status, v) => send(&mut sock, status, &v, false).await,
                    Reply::Chunked(status, v) => send(&mut sock, status, &v, true).await,
                    Reply::Hang => held.push(sock),
                }
            }
            // Hold hung connections open until the test ends.
            std::future::pending::<()>().await;
            drop(held);
        });
        Replay {
            addr,
            expected,
            log,
            task,
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn bodies(&self) -> Vec<Vec<u8>> {
        self.log.lock().expect("log").bodies.clone()
    }

    /// Every exchange happened, and nothing else.
    async fn finish(self) {
        let end = Instant::now() + Duration::from_secs(2);
        loop {
            {
                let log = self.log.lock().expect("log");
                assert!(log.errors.is_empty(), "{:?}", log.errors);
                if log.served == self.expected {
                    break;
                }
                assert!(
                    Instant::now() < end,
                    "only {} of {} recorded requests came",
                    log.served,
                    self.expected
                );
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.task.abort();
    }
}

const SESSION: &str = "8F1D2A9C-5E3B-4C1A-9B7E-2D6F0A4C3E11";

/// `POST /session` with no app, answered as FBSessionCommands.m does
/// (`sessionInformation`: the id and `currentCapabilities`).
fn new_session(id: &str) -> Exchange {
    ex(
        "POST /session",
        Some(json!({"capabilities": {"alwaysMatch": {}}})),
        Reply::Json(
            200,
            json!({"value": {"sessionId": id, "capabilities": {"device": "iphone",
                "sdkVersion": "17.4"}}, "sessionId": id}),
        ),
    )
}

fn done(request: &str, body: Value) -> Exchange {
    ex(
        request,
        Some(body),
        Reply::Json(200, json!({"value": null, "sessionId": SESSION})),
    )
}

fn se_screen() -> Exchange {
    ex(
        "GET /wda/screen",
        None,
        ok(
            json!({"statusBarSize": {"width": 375, "height": 20}, "scale": 2,
            "screenSize": {"width": 375, "height": 667}}),
        ),
    )
}

fn active(bundle: &str, pid: u32) -> Exchange {
    ex(
        "GET /wda/activeAppInfo",
        None,
        ok(
            json!({"processArguments": {"env": {}, "args": []}, "name": "", "pid": pid, "bundleId": bundle}),
        ),
    )
}

/// The raw WDA tree of a fixture (as WDA sends it, not re-serialized).
fn fixture_tree(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let text = std::fs::read_to_string(path).expect("fixture");
    let v: Value = serde_json::from_str(&text).expect("json");
    v["tree"].clone()
}

const SOURCE: &str = "GET /source?format=json&excluded_attributes=frame,nativeFrame";

/// The three reads of a capture, the source sent in chunks.
fn reads(tree: Value, bundle: &str) -> Vec<Exchange> {
    vec![
        se_screen(),
        ex(
            SOURCE,
            None,
            Reply::Chunked(200, json!({"value": tree, "sessionId": null})),
        ),
        active(bundle, 2712),
    ]
}

fn touch(actions: Value) -> Value {
    json!({"actions": [{"type": "pointer", "id": "finger1",
        "parameters": {"pointerType": "touch"}, "actions": actions}]})
}

#[tokio::test]
async fn the_session_is_made_once_and_touches_are_w3c_actions_in_points() {
    let tap = touch(json!([
        {"type": "pointerMove", "duration": 0, "x": 195, "y": 122},
        {"type": "pointerDown", "button": 0},
        {"type": "pause", "duration": 100},
        {"type": "pointerUp", "button": 0}]));
    let hold = touch(json!([
        {"type": "pointerMove", "duration": 0, "x": 50, "y": 25.5},
        {"type": "pointerDown", "button": 0},
        {"type": "pause", "duration": 800},
        {"type": "pointerUp", "button": 0}]));
    let swipe = touch(json!([
        {"type": "pointerMove", "duration": 0, "x": 195, "y": 550},
        {"type": "pointerDown", "button": 0},
        {"type": "pause", "duration": 100},
        {"type": "pointerMove", "duration": 500, "x": 195, "y": 250},
        {"type": "pause", "duration": 100},
        {"type": "pointerUp", "button": 0}]));
    let server = Replay::start(vec![
        new_session(SESSION),
        done(&format!("POST /session/{SESSION}/actions"), tap),
        done(&format!("POST /session/{SESSION}/actions"), hold),
        done(&format!("POST /session/{SESSION}/actions"), swipe),
    ])
    .await;
    let client = WdaClient::new(&server.url()).expect("client");
    let v = client.call(&plan::tap(195.0, 122.0)).await.expect("tap");
    assert_eq!(v, Value::Null);
    client
        .call(&plan::long_press(50.0, 25.5))
        .await
        .expect("long press");
    let table = crate::facts::WdaRect {
        x: 0.0,
        y: 100.0,
        width: 390.0,
        height: 600.0,
    };
    client
        .call(&plan::scroll_swipe(&table, cup::Direction::Down))
        .await
        .expect("swipe");
    assert_eq!(client.current_session().await.as_deref(), Some(SESSION));
    server.finish().await;
}

#[tokio::test]
async fn a_forgotten_session_is_made_again_and_wda_errors_are_one_line() {
    let server = Replay::start(vec![
        new_session("OLD"),
        // WDA restarted: FBRoute.m raises "Session does not exist", which
        // FBExceptionHandler.m answers as `invalid session id`, HTTP 404
        // (FBCommandStatus.m), the call stack as the traceback.
        ex(
            "POST /session/OLD/wda/keys",
            Some(json!({"value": ["a"]})),
            Reply::Json(
                404,
                json!({"value": {"error": "invalid session id", "message": "Session does not exist",
                    "traceback": "(\n\t0   CoreFoundation                      0x0000000180491128 __exceptionPreprocess + 164\n)"},
                    "sessionId": null}),
            ),
        ),
        new_session(SESSION),
        done(
            &format!("POST /session/{SESSION}/wda/keys"),
            json!({"value": ["a"]}),
        ),
        // A simulator has no volume buttons: FBCustomCommands.m answers
        // FBResponseWithUnknownError(error), an HTTP 500 whose message is
        // the NSError's description (FBErrorBuilder.m: domain
        // com.facebook.WebDriverAgent, code 1), the text from
        // XCUIDevice+FBHelpers.m with the sorted names as an NSArray prints
        // them; no traceback.
        ex(
            &format!("POST /session/{SESSION}/wda/pressButton"),
            Some(json!({"name": "volumeup"})),
            Reply::Json(
                500,
                json!({"value": {"error": "unknown error",
                    "message": "Error Domain=com.facebook.WebDriverAgent Code=1 \"The button 'volumeup' is not supported. The device under test only supports the following buttons: (\n    home\n)\" UserInfo={NSLocalizedDescription=The button 'volumeup' is not supported. The device under test only supports the following buttons: (\n    home\n)}",
                    "traceback": ""}, "sessionId": SESSION}),
            ),
        ),
    ])
    .await;
    let client = WdaClient::new(&server.url()).expect("client");
    client
        .call(&plan::keys("a"))
        .await
        .expect("typed in a new session");
    let err = client
        .call(&plan::press_button("volumeup"))
        .await
        .expect_err("refused");
    assert_eq!(
        err.to_string(),
        "WebDriverAgent refused POST /session/{id}/wda/pressButton: unknown error: The button 'volumeup' is not supported. The device under test only supports the following buttons: ( home )"
    );
    server.finish().await;
}

#[tokio::test]
async fn a_wda_that_never_answers_fails_within_the_deadline() {
    let server = Replay::start(vec![ex("GET /wda/screen", None, Reply::Hang)]).await;
    let adapter = IosAdapter::new(&server.url())
        .expect("adapter")
        .with_timeout(Duration::from_millis(300));
    let start = Instant::now();
    let err = adapter.screen().await.expect_err("no answer");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(
        err.to_string(),
        format!(
            "WebDriverAgent at {} did not answer GET /wda/screen within 0.3 s; it may be busy (a long animation, a huge screen) or hung: try again, or restart WDA",
            server.url()
        )
    );
    server.finish().await;
}

#[tokio::test]
async fn no_wda_at_the_url_says_how_to_start_one() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").await.expect("listen");
        l.local_addr().expect("addr").port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let adapter = IosAdapter::new(&url).expect("adapter");
    let err = adapter.windows().await.expect_err("nothing listens");
    assert!(matches!(err, cup::AdapterError::Unavailable(_)), "{err:?}");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("no WebDriverAgent answers at {url} ("))
            && text.ends_with("); start WDA on the device (xcodebuild test-without-building … or go-ios) and forward port 8100"),
        "{text}"
    );
    let checks = adapter.check().await;
    assert_eq!(checks.len(), 3);
    assert!(checks.iter().all(|c| !c.ok && !c.fix.is_empty()));
}

#[tokio::test]
async fn check_reports_wda_the_session_and_the_screen() {
    let server = Replay::start(vec![
        ex(
            "GET /status",
            None,
            ok(json!({"ready": true, "message": "WebDriverAgent is ready to accept commands",
                "state": "success", "os": {"name": "iOS", "version": "17.4", "sdkVersion": "17.4",
                "testmanagerdVersion": 28}, "ios": {"ip": "192.168.1.20"},
                "build": {"time": "Mar 20 2024 10:11:12", "productBundleIdentifier": "com.facebook.WebDriverAgentRunner",
                "version": "7.1.1"}, "device": "iphone"})),
        ),
        new_session(SESSION),
        se_screen(),
    ])
    .await;
    let adapter = IosAdapter::new(&server.url()).expect("adapter");
    let checks = adapter.check().await;
    let rows: Vec<(&str, bool, &str)> = checks
        .iter()
        .map(|c| (c.name.as_str(), c.ok, c.detail.as_str()))
        .collect();
    let ready = format!("ready at {} (iOS 17.4, WDA 7.1.1)", server.url());
    let session = format!("session {SESSION}");
    assert_eq!(
        rows,
        [
            ("WebDriverAgent", true, ready.as_str()),
            ("session", true, session.as_str()),
            ("screen", true, "375x667 pt at 2x (750x1334 px)")
        ]
    );
    server.finish().await;
}

/// A capture, then a toggle on the "Remember me" switch: the element is
/// found again in a fresh source, tapped at its centre in points, and the
/// re-read shows it off.
#[tokio::test]
async fn an_action_is_planned_on_a_fresh_source_and_its_effect_observed() {
    let before = fixture_tree("login.json");
    let mut after = before.clone();
    // The switch is child 1 of the row at 0.0.1.4.
    after["children"][0]["children"][0]["children"][1]["children"][4]["children"][1]["value"] =
        json!("0");
    let tap = touch(json!([
        {"type": "pointerMove", "duration": 0, "x": 329.5, "y": 327.5},
        {"type": "pointerDown", "button": 0},
        {"type": "pause", "duration": 100},
        {"type": "pointerUp", "button": 0}]));
    let mut recording = reads(before.clone(), "com.example.acme");
    recording.extend(reads(before, "com.example.acme"));
    recording.push(new_session(SESSION));
    recording.push(done(&format!("POST /session/{SESSION}/actions"), tap));
    recording.extend(reads(after, "com.example.acme"));
    let server = Replay::start(recording).await;
    let adapter = IosAdapter::new(&server.url())
        .expect("adapter")
        .with_settle(Duration::ZERO);

    let snapshot = adapter
        .capture(&[], &CaptureLimits::default())
        .await
        .expect("capture");
    assert_eq!(snapshot.refs.len(), 51);
    let dump = adapter.native_dump().expect("a dump");
    assert_eq!(dump["bundle_id"], json!("com.example.acme"));
    assert_eq!(dump["screen"]["scale"], json!(2.0));
    let node = snapshot
        .tree
        .iter()
        .flat_map(cup_protocol::Node::iter)
        .find(|n| n.role == Role::Switch)
        .expect("the switch");
    assert_eq!(node.states, [State::Checked]);
    let native = snapshot.refs[&node.id].clone();
    assert_eq!(native, "wda:0.0.1.4.1/Switch");
    let target = Target {
        id: &node.id,
        native: &native,
        node,
        window: &snapshot.tree[0],
    };
    let result = adapter
        .act(
            &target,
            Action::Toggle,
            &cup::ActionParams::default(),
            &snapshot.refs,
        )
        .await
        .expect("acted");
    assert!(result.success);
    assert_eq!(result.message, "Tapped (329.5, 327.5) pt");
    assert_eq!(result.effect, Effect::Confirmed);
    assert_eq!(
        result.changes,
        [cup::Change::new(
            node.id.clone(),
            "states",
            Some("checked".into()),
            Some(String::new())
        )]
    );
    server.finish().await;
}

#[tokio::test]
async fn unicode_text_is_typed_exactly_after_a_tap() {
    let tree = fixture_tree("login.json");
    let text = "naïve café 日本";
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let mut recording = reads(tree.clone(), "com.example.acme");
    recording.push(new_session(SESSION));
    recording.push(done(
        &format!("POST /session/{SESSION}/actions"),
        touch(json!([
            {"type": "pointerMove", "duration": 0, "x": 271.25, "y": 222},
            {"type": "pointerDown", "button": 0},
            {"type": "pause", "duration": 100},
            {"type": "pointerUp", "button": 0}])),
    ));
    recording.push(done(
        &format!("POST /session/{SESSION}/wda/keys"),
        json!({"value": chars}),
    ));
    recording.extend(reads(tree.clone(), "com.example.acme"));
    recording.extend(reads(tree, "com.example.acme"));
    let server = Replay::start(recording).await;
    let adapter = IosAdapter::new(&server.url())
        .expect("adapter")
        .with_settle(Duration::ZERO);
    let node = cup_protocol::Node::new("e9", Role::TextBox, "Email");
    let target = Target {
        id: "e9",
        native: "wda:0.0.1.2/TextField",
        node: &node,
        window: &node,
    };
    let result = adapter
        .act(
            &target,
            Action::Type,
            &cup::ActionParams {
                value: Some(text.to_owned()),
                ..cup::ActionParams::default()
            },
            &HashMap::new(),
        )
        .await
        .expect("typed");
    assert_eq!(
        result.message,
        "Tapped (271.3, 222) pt and typed 13 characters"
    );
    // The recording did not change: nothing seen, after a second look.
    assert_eq!(result.effect, Effect::NoChange);
    let bodies = server.bodies();
    let keys = String::from_utf8(bodies[5].clone()).expect("UTF-8");
    assert!(keys.contains("\"ï\"") && keys.contains("\"日\""), "{keys}");
    server.finish().await;
}

#[tokio::test]
async fn home_is_a_device_button_and_the_change_of_app_is_seen() {
    let mut recording = reads(fixture_tree("login.json"), "com.example.acme");
    recording.push(new_session(SESSION));
    recording.push(done(
        &format!("POST /session/{SESSION}/wda/pressButton"),
        json!({"name": "home"}),
    ));
    let springboard = json!({"type": "Application", "name": "SpringBoard", "label": "SpringBoard",
        "value": null, "rawIdentifier": null,
        "rect": {"x": 0, "y": 0, "width": 375, "height": 667},
        "isEnabled": "1", "isVisible": "1", "isAccessible": "0", "traits": "",
        "children": [{"type": "Window", "rect": {"x": 0, "y": 0, "width": 375, "height": 667},
            "isEnabled": "1", "isVisible": "1", "children": [
            {"type": "Icon", "name": "Settings", "label": "Settings", "value": null,
             "rect": {"x": 27, "y": 60, "width": 60, "height": 74}, "isEnabled": "1", "isVisible": "1",
             "isAccessible": "1", "traits": "Button"}]}]});
    recording.extend(reads(springboard, "com.apple.springboard"));
    let server = Replay::start(recording).await;
    let adapter = IosAdapter::new(&server.url())
        .expect("adapter")
        .with_settle(Duration::ZERO);
    let result = adapter
        .press(&parse_combo("home").expect("combo"), &HashMap::new())
        .await
        .expect("pressed");
    assert_eq!(result.message, "Pressed home");
    assert_eq!(result.effect, Effect::Confirmed);
    assert!(
        result.changes.iter().any(|c| c.field == "windows"),
        "{:?}",
        result.changes
    );
    let err = adapter
        .press(&parse_combo("ctrl+c").expect("combo"), &HashMap::new())
        .await
        .expect_err("no modifiers on iOS");
    assert!(err.to_string().contains("home, volume_up"), "{err}");
    server.finish().await;
}

#[tokio::test]
async fn screenshots_are_the_png_wda_sends() {
    let rgb: Vec<u8> = (0..2 * 3 * 3).map(|i| (i * 10) as u8).collect();
    let png = cup::image::png_from_rgb(&rgb, 2, 3).expect("png");
    let b64 = base64::engine::general_purpose::STANDARD.encode(&png);
    let server = Replay::start(vec![
        ex("GET /screenshot", None, ok(json!(b64))),
        ex("GET /screenshot", None, ok(json!(b64))),
    ])
    .await;
    let adapter = IosAdapter::new(&server.url()).expect("adapter");
    let shot = adapter.screenshot(&ShotTarget::Screen).await.expect("shot");
    assert_eq!(shot.png, png);
    assert_eq!((shot.width, shot.height, shot.x, shot.y), (2, 3, 0, 0));
    let part = adapter
        .screenshot(&ShotTarget::Region(cup_protocol::Rect::new(1, 1, 5, 1)))
        .await
        .expect("region");
    assert_eq!((part.width, part.height, part.x, part.y), (1, 1, 1, 1));
    let (px, _, _) = cup::image::rgb_from_png(&part.png).expect("decodes");
    assert_eq!(px, rgb[9..12].to_vec());
    assert!(adapter.screenshot(&ShotTarget::Monitor(1)).await.is_err());
    server.finish().await;
}

#[tokio::test]
async fn open_app_launches_by_bundle_id_and_waits_for_it_in_front() {
    let server = Replay::start(vec![
        new_session(SESSION),
        done(
            &format!("POST /session/{SESSION}/wda/apps/launch"),
            json!({"bundleId": "com.apple.Preferences"}),
        ),
        active("com.apple.springboard", 61),
        active("com.apple.Preferences", 3120),
        se_screen(),
        active("com.apple.Preferences", 3120),
    ])
    .await;
    let adapter = IosAdapter::new(&server.url()).expect("adapter");
    let launched = adapter.open_app("settings").await.expect("launched");
    assert_eq!((launched.name.as_str(), launched.pid), ("Settings", 3120));
    let window = launched.window.expect("its window");
    assert_eq!(window.info.title, "Settings");
    assert!(window.info.foreground);
    assert_eq!(
        window.info.bounds,
        Some(cup_protocol::Rect::new(0, 0, 750, 1334))
    );
    assert_eq!(window.native, "ios-app:com.apple.Preferences");
    let apps = adapter.apps().await.expect("apps");
    assert_eq!(apps.len(), 1);
    assert_eq!(
        (
            apps[0].name.as_str(),
            apps[0].id.as_str(),
            apps[0].pids.as_slice()
        ),
        ("Settings", "com.apple.Preferences", &[3120][..])
    );
    let err = adapter
        .open_app("photoshop express")
        .await
        .expect_err("unknown");
    assert!(err.to_string().contains("bundle id"), "{err}");
    server.finish().await;
}

/// The replay itself: a request it did not record fails the test.
#[tokio::test]
#[should_panic(expected = "expected POST /session/S/wda/keys")]
async fn the_replay_fails_on_an_unexpected_request() {
    let server = Replay::start(vec![
        new_session("S"),
        done("POST /session/S/wda/keys", json!({"value": ["a"]})),
    ])
    .await;
    let client = WdaClient::new(&server.url()).expect("client");
    let err = client
        .call(&plan::keys("b"))
        .await
        .expect_err("not recorded");
    assert!(err.to_string().contains("not in the recording"), "{err}");
    server.finish().await;
}
