//! Test harness: pages served by the tests' own loopback HTTP servers, a
//! headless Chromium started (and stopped) by cup-sandbox, and a cup
//! session on it through the web adapter.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead as _, BufReader, Write as _};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cup::{Session, Snapshot, SnapshotRequest};
use cup_protocol::{Node, Scope};
use cup_sandbox::{Browser, BrowserOptions};
use cup_web::{Endpoint, WebAdapter};

/// A loopback HTTP server of fixed pages (path → HTML), on its own thread
/// for the life of the test process.
pub struct Site {
    pub port: u16,
}

impl Site {
    pub fn serve(pages: &[(&str, String)]) -> Site {
        let listener = TcpListener::bind("127.0.0.1:0")
            .unwrap_or_else(|e| panic!("cannot bind a loopback port: {e}"));
        let port = listener
            .local_addr()
            .unwrap_or_else(|e| panic!("no local address: {e}"))
            .port();
        let pages: Arc<HashMap<String, String>> = Arc::new(
            pages
                .iter()
                .map(|(p, h)| ((*p).to_owned(), h.clone()))
                .collect(),
        );
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let pages = Arc::clone(&pages);
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(&stream);
                    let mut first = String::new();
                    if reader.read_line(&mut first).is_err() {
                        return;
                    }
                    loop {
                        let mut line = String::new();
                        match reader.read_line(&mut line) {
                            Ok(0) | Err(_) => break,
                            Ok(_) if line == "\r\n" => break,
                            Ok(_) => {}
                        }
                    }
                    let path = first.split_whitespace().nth(1).unwrap_or("/");
                    let path = path.split('?').next().unwrap_or("/");
                    let (status, body) = match pages.get(path) {
                        Some(b) => ("200 OK", b.clone()),
                        None => ("404 Not Found", "not found".to_owned()),
                    };
                    let mut out = &stream;
                    let _ = write!(
                        out,
                        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                });
            }
        });
        Site { port }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

/// A headless Chromium on `url`, and a session on it.
pub struct Web {
    pub browser: Browser,
    pub session: Session,
    /// Held until the browser is gone (fields drop in order).
    _turn: Turn,
}

/// One headless Chromium at a time in this test binary: two of them
/// (plus their renderers) on two cores made page loads and 5,000-row
/// snapshots miss their deadlines. Released on drop, also when a test
/// panics.
struct Turn;

static BROWSER_BUSY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

impl Turn {
    fn take() -> Turn {
        use std::sync::atomic::Ordering;
        while BROWSER_BUSY
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        Turn
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        BROWSER_BUSY.store(false, std::sync::atomic::Ordering::Release);
    }
}

impl Web {
    pub fn open(url: &str) -> Web {
        Web::open_sized(url, (1280, 800))
    }

    pub fn open_sized(url: &str, size: (u32, u32)) -> Web {
        let turn = Turn::take();
        let browser = Browser::start(&BrowserOptions {
            url: Some(url.to_owned()),
            window_size: size,
            ..BrowserOptions::default()
        })
        .unwrap_or_else(|e| {
            panic!(
                "cannot start headless Chromium: {e} (scripts/install-deps.sh installs chromium)"
            )
        });
        let endpoint = Endpoint::Http {
            host: "127.0.0.1".into(),
            port: browser.port(),
        };
        let session = Session::new(Box::new(WebAdapter::new(endpoint)));
        Web {
            browser,
            session,
            _turn: turn,
        }
    }

    /// A CDP connection of its own to this browser (as cup's web adapter
    /// makes it), for reading the walker directly.
    pub async fn cdp(&self) -> Arc<cup_web::browser::Browser> {
        WebAdapter::new(Endpoint::Http {
            host: "127.0.0.1".into(),
            port: self.browser.port(),
        })
        .browser()
        .await
        .unwrap_or_else(|e| panic!("no browser: {e}"))
    }

    /// Takes foreground snapshots until `done` holds (or 30 s pass: a
    /// loaded 2-core machine lays pages out slowly), checks
    /// each against the schema, and returns the last.
    pub async fn snapshot_until(&mut self, done: impl Fn(&Snapshot) -> bool) -> Snapshot {
        let start = Instant::now();
        loop {
            // Debug builds parse big trees slowly: a generous deadline.
            let req = SnapshotRequest {
                scope: Scope::Foreground,
                limits: cup::CaptureLimits {
                    deadline: Duration::from_secs(15),
                    ..cup::CaptureLimits::default()
                },
                ..SnapshotRequest::default()
            };
            let snap = self.session.snapshot(&req).await.cloned();
            if let Ok(snap) = &snap {
                let json = serde_json::to_value(&snap.envelope)
                    .unwrap_or_else(|e| panic!("envelope does not serialize: {e}"));
                let errors = cup_protocol::schema::validate(&json);
                assert!(errors.is_empty(), "schema violations: {errors:?}");
                if done(snap) {
                    return snap.clone();
                }
            }
            if start.elapsed() > Duration::from_secs(30) {
                return snap.unwrap_or_else(|e| panic!("snapshot failed: {e}"));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// A whole walk of `page`'s main frame, decoded; the walker must not have
/// skipped any subtree. `tag` names the step in a failure.
pub async fn whole_walk(
    browser: &cup_web::browser::Browser,
    page: &str,
    tag: &str,
) -> cup_web::walker::Walk {
    use cup_web::walker::{world, Answer};
    match world::walk(browser, page, page, None).await {
        Ok(Answer::Whole(raw)) => {
            assert_eq!(raw.first_error, None, "{tag}: the walker skipped subtrees");
            raw.decode()
                .unwrap_or_else(|e| panic!("{tag}: decode: {e}"))
        }
        other => panic!("{tag}: a whole walk answered {other:?}"),
    }
}

pub fn nodes(snap: &Snapshot) -> Vec<&Node> {
    snap.envelope.tree.iter().flat_map(|r| r.iter()).collect()
}
