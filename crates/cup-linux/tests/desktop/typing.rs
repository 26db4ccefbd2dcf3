//! Typed text arrives exactly, code point for code point, through the
//! Session's typing (the path of `cup call type_text`):
//!
//! * into a Tk text widget — a program that is not on the accessibility
//!   bus and takes no `_NET_WM_PING`, so nothing but the keymap handling
//!   keeps its characters right — read back from the widget itself;
//! * into gtk3-widget-factory's entry, read back over AT-SPI.
//!
//! Six kinds of text (characters off the keymap, combining marks, ZWJ
//! emoji sequences, right-to-left text, astral characters, newlines and
//! tabs) and a 2,000-character mix of them all, 20 runs each (the mix 3
//! times into GTK's entry, which takes seconds per run); then, into Tk, a
//! 2,000-character mix of more distinct characters than Xvfb's keymap has
//! keycodes to lend (19), typed in batches. Any lost or changed character
//! fails the test with a diff.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};

use crate::support::{has, nodes, request, snapshot, Desk, TempDir};
use cup::{Gesture, Point, Session};
use cup_protocol::{Role, Scope, State};

/// Runs of each text.
const RUNS: usize = 20;

/// Runs of the 2,000-character mix into GTK's entry (each takes seconds:
/// the entry lays out its whole line again for every key).
const GTK_LONG_RUNS: usize = 3;

/// The kinds of text, by name.
fn kinds() -> Vec<(&'static str, String)> {
    vec![
        (
            "off the keymap",
            "naïve café über résumé 東京 München".to_owned(),
        ),
        (
            "combining marks",
            "cafe\u{301} nai\u{308}ve u\u{308}ber n\u{303}o a\u{30a}".to_owned(),
        ),
        (
            "ZWJ emoji sequences",
            "👩\u{200d}💻 ok 👨\u{200d}👩\u{200d}👧 🏳\u{fe0f}\u{200d}🌈".to_owned(),
        ),
        ("right to left", "שלום עולם مرحبا بالعالم".to_owned()),
        ("astral", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 𠀋𡈽 end".to_owned()),
        (
            "newlines and tabs",
            "line one\n\tindented\nend\tx".to_owned(),
        ),
    ]
}

/// ASCII, twice as likely as the rest.
const ASCII: &str = concat!(
    "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,;:!?'\"()-",
    "abcdefghijklmnopqrstuvwxyz      ",
);

/// A deterministic 2,000-character text of every kind: ASCII, `rest`
/// (off the keymap), `e` with combining marks, ZWJ sequences, and with
/// `with_controls` newlines and tabs.
fn mix(rest: &str, combining: &[char], zwj: &[&str], with_controls: bool) -> String {
    let alphabet: Vec<char> = ASCII.chars().chain(rest.chars()).collect();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(seed >> 33).unwrap_or(0) % n
    };
    let mut out = String::new();
    let mut count = 0;
    while count < 2_000 {
        let piece: String = match next(40) {
            0 => format!("e{}", combining[next(combining.len())]),
            1 => zwj[next(zwj.len())].to_owned(),
            2 if with_controls => "\n".to_owned(),
            3 if with_controls => "\t".to_owned(),
            _ => alphabet[next(alphabet.len())].to_string(),
        };
        let n = piece.chars().count();
        if count + n > 2_000 {
            continue;
        }
        count += n;
        out.push_str(&piece);
    }
    out
}

/// The 2,000-character mix: every kind, 15 distinct keysyms off the
/// keymap (all lent at once).
fn mixed(with_controls: bool) -> String {
    mix(
        "àéüßαж東ש م😀𝔘",
        &['\u{301}'],
        &["👩\u{200d}💻"],
        with_controls,
    )
}

/// A 2,000-character mix of 45 distinct keysyms off the keymap: more than
/// the 19 keycodes Xvfb's keymap has to lend, so typed in batches.
fn wide_mixed(with_controls: bool) -> String {
    mix(
        "àéèêëïöüçñßαβγδεζηθабвгдежз東京日本語שלוםمرحبا😀🚀🌈💻𝔘𝔫𝔦𠀋",
        &['\u{301}', '\u{308}', '\u{303}'],
        &["👩\u{200d}💻", "👨\u{200d}👩\u{200d}👧"],
        with_controls,
    )
}

/// Where two texts first differ, with both sides escaped around it.
fn diff(wanted: &str, got: &str) -> String {
    let w: Vec<char> = wanted.chars().collect();
    let g: Vec<char> = got.chars().collect();
    let at = w.iter().zip(&g).take_while(|(a, b)| a == b).count();
    let show = |s: &[char]| -> String {
        let from = at.saturating_sub(8);
        let to = (at + 12).min(s.len());
        s.get(from..to)
            .unwrap_or_default()
            .iter()
            .collect::<String>()
            .escape_unicode()
            .to_string()
    };
    format!(
        "first difference at character {at} of {} (got {} characters):\n  wanted …{}…\n  got    …{}…",
        w.len(),
        g.len(),
        show(&w),
        show(&g)
    )
}

/// A Tk text widget (not on the accessibility bus) that reports what it
/// holds, through its stdin and stdout.
struct TkReader {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    _dir: TempDir,
}

const READER: &str = r#"
wm geometry . 900x600+0+0
text .t -width 90 -height 30
pack .t -fill both -expand 1
fconfigure stdin -blocking 0 -translation lf
fconfigure stdout -translation lf -buffering line
proc cmd {} {
    if {[gets stdin line] < 0} { if {[eof stdin]} { exit }; return }
    switch -- $line {
        dump { puts [binary encode hex [encoding convertto utf-8 [.t get 1.0 end-1c]]] }
        clear { .t delete 1.0 end; focus -force .t; puts ok }
    }
}
fileevent stdin readable cmd
bind .t <Map> { focus -force .t; puts ready }
"#;

impl TkReader {
    fn start(desk: &Desk) -> TkReader {
        let dir = TempDir::new("cup-tk");
        let script = dir.path().join("reader.tcl");
        std::fs::write(&script, READER).unwrap_or_else(|e| panic!("{e}"));
        let mut child = desk
            .sandbox
            .command("wish")
            .arg(&script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run wish: {e} (apt-get install tk8.6)"));
        let input = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
        let output = BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("no stdout")));
        let mut reader = TkReader {
            child,
            input,
            output,
            _dir: dir,
        };
        assert_eq!(reader.line(), "ready", "the Tk window did not map");
        reader
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.output
            .read_line(&mut line)
            .unwrap_or_else(|e| panic!("reading from wish: {e}"));
        line.trim_end().to_owned()
    }

    fn ask(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").unwrap_or_else(|e| panic!("writing to wish: {e}"));
        self.line()
    }

    fn text(&mut self) -> String {
        let hex = self.ask("dump");
        let bytes: Vec<u8> = (0..hex.len() / 2)
            .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
            .collect();
        String::from_utf8(bytes).unwrap_or_else(|e| panic!("the widget holds no UTF-8: {e}"))
    }

    /// The widget's text once it equals `wanted`, or after 30 s.
    fn text_when(&mut self, wanted: &str) -> String {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let got = self.text();
            if got == wanted || Instant::now() > end {
                return got;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for TkReader {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn type_text(session: &mut Session, text: &str) {
    let gesture = Gesture::Type {
        text: text.to_owned(),
        delay: Duration::ZERO,
    };
    let result = session
        .input(&gesture)
        .await
        .unwrap_or_else(|e| panic!("typing {:?}: {e}", text.escape_unicode().to_string()));
    assert!(result.success, "{result:?}");
}

/// Types each text `runs` times; returns the failures.
async fn runs_into<F>(
    session: &mut Session,
    texts: &[(&str, String)],
    runs: usize,
    mut read: F,
) -> Vec<String>
where
    F: AsyncRead,
{
    let mut failures = Vec::new();
    for (kind, text) in texts {
        for run in 1..=runs {
            read.clear(session).await;
            type_text(session, text).await;
            let got = read.text_when(session, text).await;
            if &got != text {
                failures.push(format!("{kind}, run {run}: {}", diff(text, &got)));
            }
        }
    }
    failures
}

/// Clears and reads back the widget typed into.
trait AsyncRead {
    async fn clear(&mut self, session: &mut Session);
    async fn text_when(&mut self, session: &mut Session, wanted: &str) -> String;
}

impl AsyncRead for &mut TkReader {
    async fn clear(&mut self, _: &mut Session) {
        assert_eq!(self.ask("clear"), "ok");
    }

    async fn text_when(&mut self, _: &mut Session, wanted: &str) -> String {
        TkReader::text_when(self, wanted)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_arrives_exactly_in_a_program_off_the_accessibility_bus() {
    let desk = Desk::start();
    let mut session = desk.session();
    let mut reader = TkReader::start(&desk);
    // The pointer on the widget as well (focus follows it without a
    // window manager).
    let moved = session
        .input(&Gesture::Move {
            to: Point::new(450, 300),
        })
        .await
        .unwrap_or_else(|e| panic!("moving the pointer: {e}"));
    assert!(moved.success, "{moved:?}");
    let mut texts = kinds();
    texts.push(("2,000 mixed characters", mixed(true)));
    let mut failures = runs_into(&mut session, &texts, RUNS, &mut reader).await;
    let wide = [("2,000 characters, 45 off the keymap", wide_mixed(true))];
    failures.extend(runs_into(&mut session, &wide, 1, &mut reader).await);
    assert!(
        failures.is_empty(),
        "{} of {} typed texts did not arrive exactly in Tk:\n{}",
        failures.len(),
        texts.len() * RUNS + 1,
        failures.join("\n")
    );
}

/// gtk3-widget-factory's focused entry, read back over AT-SPI.
struct GtkEntry;

fn entry_value(snap: &cup::Snapshot) -> Option<String> {
    nodes(snap)
        .into_iter()
        .find(|n| n.role == Role::TextBox && has(n, State::Focused))
        .map(|n| n.value.clone().unwrap_or_default())
}

impl AsyncRead for &mut GtkEntry {
    async fn clear(&mut self, session: &mut Session) {
        for combo in ["ctrl+a", "delete"] {
            session
                .press(combo)
                .await
                .unwrap_or_else(|e| panic!("{combo}: {e}"));
        }
    }

    async fn text_when(&mut self, session: &mut Session, wanted: &str) -> String {
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            let snap = snapshot(session, &request(Scope::Foreground)).await;
            let got =
                entry_value(&snap).unwrap_or_else(|| panic!("no focused entry:\n{}", snap.text));
            if got == wanted || Instant::now() > end {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
}

/// Waits until gtk3-widget-factory's entry has the focus (GTK gives it a
/// moment after the window shows on the bus; a busy CI machine has taken
/// the first snapshot before it) and puts the pointer on it (focus follows
/// it without a window manager).
async fn point_at_the_focused_entry(session: &mut Session) {
    let end = Instant::now() + Duration::from_secs(60);
    let entry = loop {
        let snap = snapshot(session, &request(Scope::Foreground)).await;
        let focused = nodes(&snap)
            .into_iter()
            .find(|n| n.role == Role::TextBox && has(n, State::Focused))
            .cloned();
        match focused {
            Some(entry) => break entry,
            None if Instant::now() > end => {
                panic!("no focused entry after 60 s:\n{}", snap.text)
            }
            None => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    let b = entry
        .bounds
        .unwrap_or_else(|| panic!("the entry has no bounds"));
    let centre = Point::new(
        b.x + i64::try_from(b.w / 2).unwrap_or(0),
        b.y + i64::try_from(b.h / 2).unwrap_or(0),
    );
    session
        .input(&Gesture::Move { to: centre })
        .await
        .unwrap_or_else(|e| panic!("moving the pointer: {e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_arrives_exactly_in_a_gtk_entry() {
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    // The focused entry, and the pointer on it (focus follows it). GTK
    // gives the entry focus a moment after the window shows on the bus (a
    // busy CI machine has taken the first snapshot before it), so wait.
    point_at_the_focused_entry(&mut session).await;
    // An entry is one line: Return would activate it and Tab move focus.
    let texts: Vec<(&str, String)> = kinds()
        .into_iter()
        .filter(|(_, t)| !t.contains(['\n', '\t']))
        .collect();
    let mut failures = runs_into(&mut session, &texts, RUNS, &mut GtkEntry).await;
    let long = [("2,000 mixed characters", mixed(false))];
    failures.extend(runs_into(&mut session, &long, GTK_LONG_RUNS, &mut GtkEntry).await);
    assert!(
        failures.is_empty(),
        "{} of {} typed texts did not arrive exactly in the GTK entry:\n{}",
        failures.len(),
        texts.len() * RUNS + GTK_LONG_RUNS,
        failures.join("\n")
    );
}

#[test]
fn the_mixed_texts_are_2000_characters_of_every_kind() {
    for text in [mixed(true), wide_mixed(true)] {
        assert_eq!(text.chars().count(), 2_000);
        for probe in [
            '\n', '\t', '\u{200d}', '\u{301}', '東', 'ש', 'م', '𝔘', 'ж', '😀',
        ] {
            assert!(text.contains(probe), "{probe:?}");
        }
    }
    assert!(!mixed(false).contains(['\n', '\t']));
    assert!(!wide_mixed(false).contains(['\n', '\t']));
}

/// Two processes that keep a core busy each (a loaded 2-core machine),
/// ended on drop.
struct Burners(Vec<Child>);

impl Burners {
    fn start(count: usize) -> Burners {
        Burners(
            (0..count)
                .map(|_| {
                    std::process::Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .spawn()
                        .unwrap_or_else(|e| panic!("cannot start a CPU burner (sh): {e}"))
                })
                .collect(),
        )
    }
}

impl Drop for Burners {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `type_text` returns only once the app has every key, the last one on
/// a lent keycode included: a snapshot taken at once shows the whole text.
/// 50 runs with two CPU burners (the MCP desktop test once saw
/// `héllo ` for `héllo ✓` here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_text_is_all_there_when_type_text_returns_under_load() {
    const RUNS_UNDER_LOAD: usize = 50;
    const TEXT: &str = "héllo ✓";
    let desk = Desk::start();
    desk.launch("gtk3-widget-factory", &[]);
    let mut session = desk.session();
    point_at_the_focused_entry(&mut session).await;
    let _burners = Burners::start(2);
    let mut failures = Vec::new();
    for run in 1..=RUNS_UNDER_LOAD {
        (&mut GtkEntry).clear(&mut session).await;
        let gesture = Gesture::Type {
            text: TEXT.to_owned(),
            delay: Duration::ZERO,
        };
        let result = session
            .input(&gesture)
            .await
            .unwrap_or_else(|e| panic!("typing, run {run}: {e}"));
        // One snapshot, at once: no waiting for the text here.
        let snap = snapshot(&mut session, &request(Scope::Foreground)).await;
        let got = entry_value(&snap).unwrap_or_default();
        if got != TEXT || result.effect != cup::Effect::Confirmed {
            failures.push(format!("run {run}: read {got:?}; {result:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {RUNS_UNDER_LOAD} runs under load:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
