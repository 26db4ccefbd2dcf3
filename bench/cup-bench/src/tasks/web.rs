//! Web tasks in Chromium (read through its accessibility tree, as any
//! desktop app), on pages served by the task's own HTTP server on the
//! loopback; the oracle reads what the server received when the form was
//! sent.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;

use super::agent::Agent;
use super::oracle::poll;
use super::{Ctx, Launch, Task};

const FORM: &str = r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign up - Example Club</title></head>
<body><h1>Sign up</h1>
<form method="post" action="/submit">
<p><label>Full name <input name="name"></label></p>
<p><label>Email <input type="email" name="email"></label></p>
<p><label>Country <select name="country"><option>France</option><option selected>Germany</option><option>Italy</option><option>Spain</option></select></label></p>
<p><label><input type="checkbox" name="newsletter"> Subscribe to the newsletter</label></p>
<p><button type="submit">Sign up</button></p>
</form></body></html>"#;

const REVIEW: &str = r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Review - Example Shop</title></head>
<body><h1>Review your order</h1>
<form method="post" action="/submit">
<fieldset><legend>Rating</legend>
<label><input type="radio" name="rating" value="1"> 1 star</label>
<label><input type="radio" name="rating" value="2"> 2 stars</label>
<label><input type="radio" name="rating" value="3" checked> 3 stars</label>
<label><input type="radio" name="rating" value="4"> 4 stars</label>
<label><input type="radio" name="rating" value="5"> 5 stars</label></fieldset>
<p><label>Comment <textarea name="comment" rows="3" cols="40"></textarea></label></p>
<p><button type="submit">Send review</button></p>
</form></body></html>"#;

const THANKS: &str = r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thank you</title></head><body><h1>Thank you</h1><p>We got it.</p></body></html>"#;

/// The task's HTTP server: serves one page at `/` and records the body
/// of every POST to `/submit`.
#[derive(Debug)]
pub struct Server {
    port: u16,
    received: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start(page: &'static str) -> Result<Server, String> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|e| format!("cannot listen on the loopback: {e}"))?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("the server's address: {e}"))?
            .port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (got, stopping) = (received.clone(), stop.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::Relaxed) {
                    break;
                }
                if let Ok(s) = stream {
                    serve(s, page, &got);
                }
            }
        });
        Ok(Server {
            port,
            received,
            stop,
        })
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// The form fields of the first POST received, decoded.
    fn fields(&self) -> Option<Vec<(String, String)>> {
        let got = self.received.lock().ok()?;
        got.first().map(|body| decode_form(body))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// One request: GET gets the page (or the thanks page after a POST),
/// POST /submit is recorded.
fn serve(stream: TcpStream, page: &str, received: &Mutex<Vec<String>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).is_err() || line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0).min(1 << 20);
            }
        }
    }
    let mut body = vec![0u8; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let posted = request_line.starts_with("POST /submit");
    if posted {
        if let Ok(mut r) = received.lock() {
            r.push(String::from_utf8_lossy(&body).into_owned());
        }
    }
    let html = if posted {
        THANKS
    } else if request_line.starts_with("GET / ") {
        page
    } else {
        ""
    };
    let status = if html.is_empty() {
        "404 Not Found"
    } else {
        "200 OK"
    };
    let _ = write!(
        writer,
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{html}",
        html.len()
    );
}

/// `a=b&c=d+e` decoded (`+` is a space, `%XX` a byte).
fn decode_form(body: &str) -> Vec<(String, String)> {
    let decode = |s: &str| {
        let bytes = s.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    match u8::from_str_radix(s.get(i + 1..i + 3).unwrap_or(""), 16) {
                        Ok(b) => {
                            out.push(b);
                            i += 2;
                        }
                        Err(_) => out.push(b'%'),
                    }
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    };
    body.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

fn chromium(ctx: &mut Ctx, page: &'static str) -> Result<Launch, String> {
    let server = Server::start(page)?;
    let url = server.url();
    ctx.server = Some(server);
    let profile = ctx.dir.join("chromium-profile");
    std::fs::create_dir_all(&profile).map_err(|e| format!("{}: {e}", profile.display()))?;
    Ok(Launch {
        program: "chromium",
        package: "chromium",
        args: crate::apps::chromium_args(&profile, &url),
        env: Vec::new(),
    })
}

fn prepare_form(ctx: &mut Ctx) -> Result<Launch, String> {
    chromium(ctx, FORM)
}

fn prepare_review(ctx: &mut Ctx) -> Result<Launch, String> {
    chromium(ctx, REVIEW)
}

/// Types `text` into the text box named `name`.
fn fill(agent: &mut Agent, name: &str, text: &str) -> Result<(), String> {
    let field = agent.find_one(json!({"name": name, "role": "text box"}), None)?;
    agent.act(&field.id, "type", Some(text))?;
    Ok(())
}

/// Clicks the button named `name`, then waits for the thanks page.
fn send(agent: &mut Agent, name: &str) -> Result<(), String> {
    let button = agent.find_one(json!({"name": name, "role": "button"}), Some("btn"))?;
    agent.act(&button.id, "click", None)?;
    agent.wait_for("Thank you", 20_000)?;
    Ok(())
}

fn form_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    agent.wait_for("Full name", 60_000)?;
    agent.snapshot()?;
    fill(agent, "Full name", "Ada Lovelace")?;
    fill(agent, "Email", "ada@example.org")?;
    let country = agent.find_one(json!({"name": "Country", "role": "combobox"}), None)?;
    agent.act(&country.id, "select", Some("Italy"))?;
    let news = agent.find_one(json!({"name": "Subscribe to the newsletter"}), Some("chk"))?;
    agent.act(&news.id, "toggle", None)?;
    agent.snapshot()?;
    send(agent, "Sign up")
}

fn received(ctx: &Ctx, want: &[(&str, &str)]) -> Result<(), String> {
    let server = ctx.server.as_ref().ok_or("the task's server is gone")?;
    if !poll(|| server.fields().is_some()) {
        return Err("the server received no form".into());
    }
    let got = server.fields().unwrap_or_default();
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    (got == want)
        .then_some(())
        .ok_or_else(|| format!("the server received {got:?}, not {want:?}"))
}

fn form_check(ctx: &Ctx) -> Result<(), String> {
    received(
        ctx,
        &[
            ("name", "Ada Lovelace"),
            ("email", "ada@example.org"),
            ("country", "Italy"),
            ("newsletter", "on"),
        ],
    )
}

fn review_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    agent.wait_for("Send review", 60_000)?;
    agent.snapshot()?;
    let four = agent.find_one(json!({"name": "4 stars", "role": "radio"}), Some("rad"))?;
    agent.act(&four.id, "click", None)?;
    fill(agent, "Comment", "Arrived early, well packed.")?;
    agent.snapshot()?;
    send(agent, "Send review")
}

fn review_check(ctx: &Ctx) -> Result<(), String> {
    received(
        ctx,
        &[("rating", "4"), ("comment", "Arrived early, well packed.")],
    )
}

pub(super) fn tasks() -> Vec<Task> {
    vec![
        Task {
            key: "web-sign-up",
            app: "Chromium",
            goal: "Sign Ada Lovelace (ada@example.org, Italy) up for the newsletter",
            prepare: prepare_form,
            plan: form_plan,
            check: form_check,
        },
        Task {
            key: "web-review",
            app: "Chromium",
            goal: "Rate the order 4 stars with a comment, and send it",
            prepare: prepare_review,
            plan: review_plan,
            check: review_check,
        },
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn decodes_form_bodies() {
        assert_eq!(
            super::decode_form("name=Ada+Lovelace&email=ada%40example.org&x=%"),
            vec![
                ("name".to_owned(), "Ada Lovelace".to_owned()),
                ("email".to_owned(), "ada@example.org".to_owned()),
                ("x".to_owned(), "%".to_owned())
            ]
        );
    }
}
