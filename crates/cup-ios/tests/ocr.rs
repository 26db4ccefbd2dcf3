//! An iOS screen whose source says nothing (an app drawn without
//! accessibility elements: XCUITest's nameless `Other` wrappers only),
//! read from WebDriverAgent's screenshot by Tesseract (issue 51), and a
//! tap on a line read from it. WebDriverAgent is a server of the test's
//! own on loopback (a fake: no iPhone runs here) answering each request by
//! its path as WDA does (`FBScreenshotCommands`, `FBElementCommands`,
//! `FBSessionCommands`); its screenshot is the screen rendered by Tk that
//! the Android test shows (`cup-android/tests/fixtures/pixels`), and a tap
//! on the button changes it.

use std::sync::{Arc, Mutex};

use base64::Engine as _;
use cup::{ActionParams, Effect, Session, SnapshotRequest};
use cup_ios::IosAdapter;
use cup_protocol::Node;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The screen: 390x844 points at 3x (an iPhone 14): 1170x2532 pixels.
const SCALE: f64 = 3.0;
const WIDTH: u32 = 1170;
const HEIGHT: u32 = 2532;
/// Where the rendered block sits on the screen (pixels), and its button.
const TOP: u32 = 600;
const BUTTON: (f64, f64, f64, f64) = (60.0, 980.0, 382.0, 104.0);
const SESSION: &str = "5C2E7A10-9D4B-4E8F-A1C3-7B6D2F0E9A44";

#[derive(Default)]
struct Phone {
    placed: bool,
    /// Requests the server has no answer for.
    unexpected: Vec<String>,
    taps: Vec<(f64, f64)>,
}

/// The screen's pixels: white, the order block at [`TOP`].
fn screen(placed: bool) -> String {
    let block: &[u8] = if placed {
        include_bytes!("../../cup-android/tests/fixtures/pixels/order-after.png")
    } else {
        include_bytes!("../../cup-android/tests/fixtures/pixels/order-before.png")
    };
    let (rgb, w, h) = cup::image::rgb_from_png(block).unwrap_or_else(|e| panic!("{e}"));
    let mut out = vec![255_u8; (WIDTH * HEIGHT * 3) as usize];
    for row in 0..h.min(HEIGHT - TOP) {
        let from = (row * w * 3) as usize;
        let to = ((row + TOP) * WIDTH * 3) as usize;
        let n = (w.min(WIDTH) * 3) as usize;
        out[to..to + n].copy_from_slice(&rgb[from..from + n]);
    }
    let png = cup::image::png_from_rgb(&out, WIDTH, HEIGHT).unwrap_or_else(|e| panic!("{e}"));
    base64::engine::general_purpose::STANDARD.encode(png)
}

/// An app drawn without accessibility elements, as `/source?format=json`
/// gives it: the application, its window and nameless `Other`s.
fn source() -> Value {
    let rect = json!({"x": 0, "y": 0, "width": 390, "height": 844});
    let el = |kind: &str, label: Value, children: Vec<Value>| {
        json!({"type": kind, "rawIdentifier": null, "name": label, "value": null,
            "label": label, "rect": rect, "customActions": null, "isEnabled": "1",
            "isVisible": "1", "isAccessible": "0", "isFocused": "0", "traits": "",
            "children": children})
    };
    el(
        "Application",
        json!("Shop"),
        vec![el(
            "Window",
            Value::Null,
            vec![el(
                "Other",
                Value::Null,
                vec![el("Other", Value::Null, vec![])],
            )],
        )],
    )
}

async fn read_request(sock: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut req = httparse::Request::new(&mut headers);
        if let Ok(httparse::Status::Complete(len)) = req.parse(&buf) {
            let line = format!(
                "{} {}",
                req.method.unwrap_or_default(),
                req.path.unwrap_or_default()
            );
            let length: usize = req
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case("content-length"))
                .and_then(|h| std::str::from_utf8(h.value).ok()?.parse().ok())
                .unwrap_or(0);
            let mut body = buf[len..].to_vec();
            while body.len() < length {
                let n = sock.read(&mut chunk).await.ok()?;
                if n == 0 {
                    return None;
                }
                body.extend_from_slice(&chunk[..n]);
            }
            return Some((line, body));
        }
    }
}

/// WDA's answer to one request.
fn answer(phone: &Mutex<Phone>, line: &str, body: &[u8]) -> (u16, Value) {
    let ok = |v: Value| (200, json!({"value": v, "sessionId": SESSION}));
    let mut st = phone
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let path = line.split_once(' ').map_or("", |(_, p)| p);
    match (line.split(' ').next().unwrap_or_default(), path) {
        ("GET", "/wda/screen") => ok(json!({"statusBarSize": {"width": 390, "height": 47},
            "scale": SCALE, "screenSize": {"width": 390, "height": 844}})),
        ("GET", p) if p.starts_with("/source?format=json") => ok(source()),
        ("GET", "/wda/activeAppInfo") => ok(json!({"processArguments": {"env": {}, "args": []},
            "name": "Shop", "pid": 3141, "bundleId": "com.example.shop"})),
        ("GET", "/screenshot") => ok(json!(screen(st.placed))),
        ("POST", "/session") => (
            200,
            json!({"value": {"sessionId": SESSION, "capabilities": {"device": "iphone",
                "sdkVersion": "17.4"}}, "sessionId": SESSION}),
        ),
        ("POST", p) if p == format!("/session/{SESSION}/actions") => {
            let v: Value = serde_json::from_slice(body).unwrap_or_default();
            let moves = v["actions"][0]["actions"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if let Some(m) = moves.iter().find(|a| a["type"] == "pointerMove") {
                let (x, y) = (
                    m["x"].as_f64().unwrap_or(-1.0),
                    m["y"].as_f64().unwrap_or(-1.0),
                );
                st.taps.push((x, y));
                let (px, py) = (x * SCALE, y * SCALE);
                let (bx, by, bw, bh) = BUTTON;
                if px >= bx && px < bx + bw && py >= by && py < by + bh {
                    st.placed = true;
                }
            }
            ok(Value::Null)
        }
        _ => {
            st.unexpected.push(line.to_owned());
            (
                404,
                json!({"value": {"error": "unknown command", "message": line}, "sessionId": null}),
            )
        }
    }
}

async fn serve(listener: TcpListener, phone: Arc<Mutex<Phone>>) {
    while let Ok((mut sock, _)) = listener.accept().await {
        let phone = Arc::clone(&phone);
        tokio::spawn(async move {
            let Some((line, body)) = read_request(&mut sock).await else {
                return;
            };
            let (status, reply) = answer(&phone, &line, &body);
            let text = reply.to_string();
            let head = format!(
                "HTTP/1.1 {status} {}\r\nServer: WebDriverAgent\r\nContent-Type: application/json;charset=UTF-8\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
                if status == 200 { "OK" } else { "Error" },
                text.len()
            );
            let _ = sock.write_all(head.as_bytes()).await;
            let _ = sock.write_all(text.as_bytes()).await;
            let _ = sock.shutdown().await;
        });
    }
}

fn from_pixels(snap: &cup::Snapshot) -> Vec<Node> {
    snap.envelope
        .nodes()
        .filter(|n| n.is_from_pixels())
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_screen_without_elements_is_read_and_tapped_from_its_pixels() {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    let phone = Arc::new(Mutex::new(Phone::default()));
    let server = tokio::spawn(serve(listener, Arc::clone(&phone)));
    let adapter = IosAdapter::new(&format!("http://{addr}"))
        .unwrap_or_else(|e| panic!("{e}"))
        .with_settle(std::time::Duration::from_millis(50));
    let mut session = Session::new(Box::new(adapter));

    let snap = session
        .snapshot(&SnapshotRequest::default())
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .clone();
    let lines = from_pixels(&snap);
    let names: Vec<&str> = lines.iter().map(|n| n.name.as_str()).collect();
    for want in [
        "Your order",
        "Coffee beans, 1 kg: 24.00",
        "Total with delivery: 27.50",
        "Place order",
    ] {
        assert!(
            names.contains(&want),
            "{want:?} in {names:?}\n{}",
            snap.text
        );
    }
    let button = lines
        .iter()
        .find(|n| n.name == "Place order")
        .unwrap_or_else(|| panic!("{names:?}"));
    let b = button.bounds.unwrap_or_else(|| panic!("{button:?}"));
    let (bx, by, bw, bh) = BUTTON;
    assert!(
        b.x as f64 >= bx
            && b.y as f64 >= by
            && (b.x + b.w as i64) as f64 <= bx + bw
            && (b.y + b.h as i64) as f64 <= by + bh,
        "{b:?} in the button's pixels"
    );

    let result = session
        .action(&button.id, "click", &ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let (placed, taps, unexpected) = {
        let p = phone
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (p.placed, p.taps.clone(), p.unexpected.clone())
    };
    // One tap, at the line's centre in points.
    let (cx, cy) = b.center();
    assert_eq!(taps.len(), 1, "{taps:?}");
    assert!(
        (taps[0].0 * SCALE - cx as f64).abs() <= SCALE
            && (taps[0].1 * SCALE - cy as f64).abs() <= SCALE,
        "{taps:?} for the centre {cx},{cy} px"
    );
    assert!(placed, "{result:?}");
    assert_eq!(result.effect, Effect::Confirmed, "{}", result.message);
    assert!(
        result
            .changes
            .iter()
            .any(|c| c.field == "text"
                && c.after.as_deref().is_some_and(|a| a.contains("thank you"))),
        "{result:?}"
    );
    assert!(
        unexpected.is_empty(),
        "requests WDA has no answer for: {unexpected:?}"
    );
    server.abort();
}
