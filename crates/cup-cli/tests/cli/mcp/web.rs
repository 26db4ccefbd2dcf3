//! Over stdio on a headless Chromium page.

use super::*;

#[test]
fn stdio_web_page_snapshot_action_snapshot_and_screenshot() {
    let (_browser, env, _dir) = headless_page(
        "cup-mcp-web",
        r#"<!doctype html><title>Shop</title><h1>Checkout</h1>
<label><input type=checkbox> Gift wrap</label>
<button onclick="document.title='Sent!'">Send</button>"#,
    );
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);

    let mut snap = String::new();
    for _ in 0..50 {
        snap = ok_text(&c.call("snapshot", json!({})), "snapshot");
        if snap.contains("Checkout") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(snap.starts_with("# CUP 0.1.0 | web |"), "{snap}");
    let send = id_of(&snap, &["btn \"Send\""]);
    let acted = c.call("click", json!({"element_id": send, "observe": true}));
    let acted_text = ok_text(&acted, "click Send");
    assert_eq!(acted["structured"]["effect"], json!("confirmed"), "{acted}");
    assert!(acted_text.contains("Sent!"), "{acted_text}");
    let after = ok_text(&c.call("snapshot", json!({})), "snapshot after");
    assert!(after.contains("doc \"Sent!\""), "{after}");
    // Without bounds (acting by id): the same lines, no x,y wxh.
    let by_id = ok_text(
        &c.call("snapshot", json!({"bounds": false})),
        "snapshot without bounds",
    );
    let has_bounds = |line: &str| {
        line.split_whitespace()
            .any(|t| t.contains(',') && t.chars().all(|ch| ch.is_ascii_digit() || ch == ','))
    };
    assert!(line_of(&by_id, &send).contains("btn \"Send\""), "{by_id}");
    assert!(!has_bounds(line_of(&by_id, &send)), "{by_id}");
    assert!(has_bounds(line_of(&after, &send)), "{after}");
    assert_eq!(by_id.lines().count(), after.lines().count(), "{by_id}");
    // A token budget: the text costs at most that many o200k tokens (the
    // whole page costs about 117), and one too small is refused with what
    // to give.
    let budgeted = ok_text(
        &c.call("snapshot", json!({"max_tokens": 100})),
        "snapshot in 100 tokens",
    );
    assert!(cup::tokens::count(&budgeted) <= 100, "{budgeted}");
    let roomy = ok_text(
        &c.call("snapshot", json!({"max_tokens": 1000})),
        "snapshot in 1,000 tokens",
    );
    assert_eq!(
        roomy, after,
        "a budget above the whole text changes nothing"
    );
    let refused = c.call("snapshot", json!({"max_tokens": 50}));
    assert_eq!(refused["is_error"], json!(true), "{refused}");
    assert!(
        refused["text"]
            .as_str()
            .is_some_and(|t| t.contains("at least 100")),
        "{refused}"
    );

    // A pixel click on the checkbox, seen on the element under the point.
    let gift = id_of(&after, &["chk \"Gift wrap\""]);
    let line = line_of(&after, &gift);
    let xy: Vec<i64> = line
        .split_whitespace()
        .find(|t| t.contains(',') && t.chars().all(|ch| ch.is_ascii_digit() || ch == ','))
        .map(|t| t.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(xy.len(), 2, "{line}");
    let click = c.call("click", json!({"x": xy[0] + 5, "y": xy[1] + 5}));
    let click_text = ok_text(&click, "pixel click");
    assert!(click_text.contains("+checked"), "{click_text}");

    let shot = c.call("screenshot", json!({}));
    ok_text(&shot, "screenshot");
    assert_eq!(shot["images"][0]["png"], json!(true), "{shot}");
    let js = c.call(
        "page",
        json!({"action": "execute_javascript", "javascript": "document.title"}),
    );
    assert_eq!(ok_text(&js, "page js").trim(), "Sent!");
}

/// A page that stays loading until the test lets it finish: its first
/// part, then nothing until `rx` says so, then the rest. A thread per
/// connection: Chromium may open a connection it sends nothing on.
fn slow_page(rx: Receiver<()>) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    let port = listener
        .local_addr()
        .unwrap_or_else(|e| panic!("{e}"))
        .port();
    let rx = std::sync::Arc::new(std::sync::Mutex::new(Some(rx)));
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let rx = std::sync::Arc::clone(&rx);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let n = stream.read(&mut buf).unwrap_or(0);
                if !String::from_utf8_lossy(&buf[..n]).starts_with("GET / ") {
                    let _ = write!(
                        stream,
                        "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    );
                    return;
                }
                // Past the parser's first buffer, so it shows the first part.
                let pad = " ".repeat(4096);
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n\r\n\
                     <!doctype html><title>Slow</title><h1>Part one</h1><!--{pad}-->"
                );
                let _ = stream.flush();
                let held = rx.lock().ok().and_then(|mut r| r.take());
                if let Some(rx) = held {
                    let _ = rx.recv_timeout(Duration::from_secs(60));
                }
                let _ = write!(stream, "<p>Part two</p>");
            });
        }
    });
    port
}

#[test]
fn a_page_still_loading_says_so_and_wait_waits_for_its_load() {
    let (release, rx) = channel();
    let port = slow_page(rx);
    let dir = std::env::temp_dir().join(format!("cup-mcp-slow-{}", std::process::id()));
    let (_browser, env, _dir) = headless_url(dir, &format!("http://127.0.0.1:{port}/"));
    let mut c = Client::start(&stdio_args(&["mcp"]), &env);
    // Poll the page (its first part parsed) to a deadline.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut snap = ok_text(&c.call("snapshot", json!({})), "snapshot while loading");
    while !snap.contains("Part one") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        snap = ok_text(&c.call("snapshot", json!({})), "snapshot while loading");
    }
    assert!(
        snap.contains(
            "# the page is still loading (document.readyState \"loading\", http://127.0.0.1:"
        ),
        "{snap}"
    );
    let early = c.call("wait", json!({"until": "load", "timeout_ms": 300}));
    let early = error_text(&early, "wait until load, while held");
    assert!(early.contains("still loading"), "{early}");
    let _ = release.send(());
    let loaded = c.call("wait", json!({"until": "load", "timeout_ms": 20000}));
    assert!(
        ok_text(&loaded, "wait until load").starts_with("loaded after"),
        "{loaded}"
    );
    let after = ok_text(&c.call("snapshot", json!({})), "snapshot after the load");
    assert!(after.contains("Part two"), "{after}");
    assert!(!after.contains("still loading"), "{after}");
}
