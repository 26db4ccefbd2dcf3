//! Firefox ESR for the tests: a fresh quiet profile (cup-sandbox's
//! preferences: no first-run pages, no background traffic), and pages
//! served over HTTP on loopback by the test itself.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use cup_sandbox::{App, LaunchOptions};

use super::{Desk, TempDir};

pub use cup_sandbox::firefox::FIREFOX;

/// A fresh quiet profile folder (cup-sandbox's preferences).
pub fn profile(prefix: &str) -> TempDir {
    let dir = TempDir::new(prefix);
    cup_sandbox::firefox::write_quiet_profile(dir.path())
        .unwrap_or_else(|e| panic!("cannot write the Firefox profile: {e}"));
    dir
}

/// Starts Firefox ESR on `url` with a fresh `profile`, and waits (on a
/// loaded machine, up to 60 s) until its window is on the accessibility
/// bus.
pub fn launch(desk: &Desk, profile: &TempDir, url: &str) -> App {
    let dir = profile.path().to_string_lossy().into_owned();
    let options = LaunchOptions {
        timeout: Duration::from_secs(60),
        env: vec![("MOZ_CRASHREPORTER_DISABLE".into(), "1".into())],
    };
    desk.sandbox
        .launch_with(
            FIREFOX,
            &["--no-remote", "--new-instance", "--profile", &dir, url],
            &options,
        )
        .unwrap_or_else(|e| {
            panic!("cannot launch {FIREFOX}: {e} (apt-get install firefox-esr, or scripts/install-deps.sh)")
        })
}

/// Pages served on loopback, each by its path; stopped on drop.
pub struct Pages {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Pages {
    /// Serves `pages` (path → HTML) on a free loopback port.
    pub fn serve(pages: &[(&str, &str)]) -> Pages {
        let listener = TcpListener::bind("127.0.0.1:0")
            .unwrap_or_else(|e| panic!("cannot listen on loopback: {e}"));
        let port = listener
            .local_addr()
            .unwrap_or_else(|e| panic!("no local address: {e}"))
            .port();
        listener
            .set_nonblocking(true)
            .unwrap_or_else(|e| panic!("set_nonblocking: {e}"));
        let pages: HashMap<String, String> = pages
            .iter()
            .map(|(p, h)| ((*p).to_owned(), (*h).to_owned()))
            .collect();
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            while !stopping.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => answer(stream, &pages),
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => break,
                }
            }
        });
        Pages {
            port,
            stop,
            thread: Some(thread),
        }
    }

    /// The URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

fn answer(mut stream: TcpStream, pages: &HashMap<String, String>) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // The rest of the head.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let (status, body) = match pages.get(path) {
        Some(html) => ("200 OK", html.as_str()),
        None => ("404 Not Found", "<!doctype html><title>Not found</title>"),
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

impl Drop for Pages {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
