//! Text read from a real window that has no accessibility tree: a Tk form
//! (Tk speaks no AT-SPI) on a private X11 desktop, its pixels taken by
//! cup's screenshot, read by Tesseract through cup-ocr. Every process is
//! started here and stopped by PID; a missing package fails with what to
//! install.
#![cfg(target_os = "linux")]
#![allow(clippy::print_stderr)]

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Instant;

use cup::{OcrMode, Session, ShotTarget, SnapshotRequest};
use cup_linux::{Desktop, LinuxAdapter};
use cup_ocr::{Reader, Rgba};
use cup_protocol::Rect;
use cup_sandbox::{Sandbox, SandboxOptions};

/// The form's texts, each a label or a button: what must come back.
const TEXTS: [&str; 8] = [
    "Customer name",
    "Delivery address",
    "Order total 42.50 EUR",
    "Gift wrapping included",
    "Place order",
    "Cancel",
    "Print invoice",
    "Ship within three days",
];

fn script() -> String {
    // A button says what it did on stdout (the test's oracle) and on the
    // form (what cup sees change); the entry at the bottom has the focus.
    let mut s = String::from(
        "wm title . {Order form}\nwm geometry . +0+0\nproc clicked {t} {\n  .status configure -text \"Done: $t\"\n  puts \"clicked $t\"\n  flush stdout\n}\n",
    );
    for (i, t) in TEXTS.iter().enumerate() {
        if t.contains("order") || t.contains("Cancel") || t.contains("invoice") {
            s.push_str(&format!(
                "button .w{i} -text {{{t}}} -command {{clicked {{{t}}}}}\n"
            ));
        } else {
            s.push_str(&format!("label .w{i} -text {{{t}}}\n"));
        }
        s.push_str(&format!("pack .w{i} -anchor w -padx 12 -pady 4\n"));
    }
    s.push_str("label .status -text {}\npack .status -anchor w -padx 12 -pady 4\n");
    s.push_str("entry .e -width 30\npack .e -anchor w -padx 12 -pady 4\nfocus .e\n");
    // Once drawn, say where: x y width height.
    s.push_str(
        "tkwait visibility .\nupdate\nputs \"[winfo rootx .] [winfo rooty .] [winfo width .] [winfo height .]\"\nflush stdout\n",
    );
    s
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '.')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// A private X11 desktop with the Tk form on it, stopped by PID on drop.
struct Form {
    sandbox: Option<Sandbox>,
    wish: std::process::Child,
    dir: std::path::PathBuf,
    /// Where the window is: x, y, width, height (as wish said).
    at: Vec<i64>,
    /// wish's later lines (what its buttons say they did).
    said: std::sync::mpsc::Receiver<String>,
}

impl Form {
    fn start(name: &str) -> Form {
        Form::start_with(name, &script())
    }

    /// A desktop with wish running `tcl`, which prints where its window is
    /// once drawn (x y width height) as its first line.
    fn start_with(name: &str, tcl: &str) -> Form {
        let sandbox = Sandbox::start(SandboxOptions::default()).unwrap_or_else(|e| {
            panic!("the private desktop did not start: {e} (scripts/install-deps.sh installs Xvfb, D-Bus, AT-SPI)")
        });
        let dir = std::env::temp_dir().join(format!("cup-ocr-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let path = dir.join("form.tcl");
        std::fs::write(&path, tcl).unwrap_or_else(|e| panic!("{e}"));
        let mut wish = sandbox
            .command("wish")
            .arg(&path)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run wish: {e} (apt-get install tk8.6)"));
        // wish's lines, read on a thread so that no read outlives a deadline.
        let stdout = wish.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let line = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .unwrap_or_else(|e| panic!("wish did not say where its window is: {e}"));
        let at: Vec<i64> = line
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        assert_eq!(at.len(), 4, "wish said where its window is: {line:?}");
        Form {
            sandbox: Some(sandbox),
            wish,
            dir,
            at,
            said: rx,
        }
    }

    fn sandbox(&self) -> &Sandbox {
        self.sandbox
            .as_ref()
            .unwrap_or_else(|| panic!("the desktop is stopped"))
    }
}

impl Drop for Form {
    fn drop(&mut self) {
        let _ = self.wish.kill();
        let _ = self.wish.wait();
        if let Some(s) = self.sandbox.take() {
            let _ = s.stop();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The RGBA pixels of `region` on the form's desktop, as cup's screenshot
/// takes them, and their width and height.
fn pixels(form: &Form, region: Rect) -> (Vec<u8>, usize, usize) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut session = Session::new(Box::new(LinuxAdapter::for_desktop(Desktop::from_pairs(
        &form.sandbox().env(),
    ))));
    let shot = rt
        .block_on(session.screenshot(&ShotTarget::Region(region)))
        .unwrap_or_else(|e| panic!("screenshot of the form: {e}"));
    let decoder = png::Decoder::new(std::io::Cursor::new(shot.png));
    let mut png = decoder.read_info().unwrap_or_else(|e| panic!("{e}"));
    let mut buf = vec![0; png.output_buffer_size().unwrap_or(0)];
    let info = png.next_frame(&mut buf).unwrap_or_else(|e| panic!("{e}"));
    let rgba: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => buf[..info.buffer_size()].to_vec(),
        png::ColorType::Rgb => buf[..info.buffer_size()]
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("a screenshot in {other:?}"),
    };
    (rgba, info.width as usize, info.height as usize)
}

/// German labels with umlauts and ß (`CUP_OCR_LANGUAGES=deu`): read
/// exactly with German's data (tesseract-ocr-deu); a language whose data
/// is not installed is refused with the package that installs it.
#[test]
fn german_text_reads_exactly_with_its_language_data() {
    const GERMAN: [&str; 3] = ["Größe ändern", "Übersicht der Straßen", "Schließen"];
    let mut tcl = String::from("wm title . {Fenster}\nwm geometry . +0+0\n");
    for (i, t) in GERMAN.iter().enumerate() {
        tcl.push_str(&format!(
            "label .l{i} -text {{{t}}} -font {{{{DejaVu Sans}} -16}}\npack .l{i} -anchor w -padx 12 -pady 6\n"
        ));
    }
    tcl.push_str(
        "tkwait visibility .\nupdate\nputs \"[winfo rootx .] [winfo rooty .] [winfo width .] [winfo height .]\"\nflush stdout\n",
    );
    let form = Form::start_with("deu", &tcl);
    let g = &form.at;
    let region = Rect::new(g[0], g[1], g[2].unsigned_abs(), g[3].unsigned_abs());
    let (rgba, width, height) = pixels(&form, region);
    drop(form);
    let image = Rgba {
        width,
        height,
        pixels: &rgba,
    };
    let languages = cup_ocr::languages(Some("deu")).unwrap_or_else(|e| panic!("{e}"));
    let mut reader = Reader::with_languages(&languages)
        .unwrap_or_else(|e| panic!("{e} (scripts/install-deps.sh installs tesseract-ocr-deu)"));
    let read: Vec<String> = reader
        .read(&image)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert_eq!(read, GERMAN, "read with deu");
    let missing = match Reader::with_languages("xyz") {
        Ok(_) => panic!("a reader of a language without data"),
        Err(e) => e.to_string(),
    };
    assert!(missing.contains("install tesseract-ocr-xyz"), "{missing}");
}

#[test]
fn a_tk_form_without_a_tree_is_read_from_its_pixels() {
    let mut reader = Reader::new().unwrap_or_else(|e| panic!("{e}"));
    let form = Form::start("read");
    let g = &form.at;
    let region = Rect::new(g[0], g[1], g[2].unsigned_abs(), g[3].unsigned_abs());

    let (rgba, width, height) = pixels(&form, region);
    let image = Rgba {
        width,
        height,
        pixels: &rgba,
    };

    let t = Instant::now();
    let lines = reader.read(&image).unwrap_or_else(|e| panic!("{e}"));
    let cold = t.elapsed();
    let t = Instant::now();
    let again = reader.read(&image).unwrap_or_else(|e| panic!("{e}"));
    let cached = t.elapsed();
    // A changed pixel is another image: read again, now with the engine
    // warm (the first recognition also sets the engine up).
    let mut changed = rgba.clone();
    changed[0] ^= 0xff;
    let t = Instant::now();
    let warm_lines = reader
        .read(&Rgba {
            pixels: &changed,
            ..image
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let warm = t.elapsed();
    eprintln!(
        "{}x{} read in {cold:?} (warm {warm:?}, cached {cached:?}):",
        image.width, image.height
    );
    assert_eq!(warm_lines.len(), lines.len(), "{warm_lines:?}");
    for l in &lines {
        eprintln!("  {:?} at {:?} ({:.0})", l.text, l.bounds, l.confidence);
    }
    drop(form);

    assert_eq!(again, lines, "the cached read is the same");
    assert_eq!(
        reader.cache_stats(),
        (2, 1),
        "the second read was a cache hit"
    );
    let read: Vec<String> = lines.iter().flat_map(|l| words(&l.text)).collect();
    let wanted: Vec<String> = TEXTS.iter().flat_map(|t| words(t)).collect();
    let found = wanted.iter().filter(|w| read.contains(w)).count();
    assert!(
        found * 100 >= wanted.len() * 95,
        "{found} of {} words read (want 95 %): {read:?}",
        wanted.len()
    );
    // A button's border is not read as part of its label.
    assert!(
        lines
            .iter()
            .all(|l| !l.text.ends_with('|') && !l.text.starts_with('|')),
        "{lines:?}"
    );
    // Each line lies inside the image, in reading order (top to bottom).
    let (w, h) = (image.width as i64, image.height as i64);
    for l in &lines {
        let (x, y, lw, lh) = l.bounds;
        assert!(
            x >= 0 && y >= 0 && x + lw as i64 <= w && y + lh as i64 <= h,
            "{l:?} outside {w}x{h}"
        );
    }
    assert!(
        lines.windows(2).all(|p| p[0].bounds.1 <= p[1].bounds.1 + 4),
        "reading order: {lines:?}"
    );
}

/// The form in a snapshot: a window without a tree is read from its
/// pixels (`auto`), its lines marked `(ocr)` with bounds and a click; a
/// click on the "Place order" line is a pointer click at its centre that
/// presses the button (wish's own output is the oracle) and is confirmed
/// by the form's pixels, read again; `type` on the window types into the
/// entry that has the focus and is confirmed by reading the text back.
#[test]
fn a_snapshot_reads_a_window_without_a_tree_and_a_click_acts_on_its_text() {
    let form = Form::start("snapshot");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut session = Session::new(Box::new(LinuxAdapter::for_desktop(Desktop::from_pairs(
        &form.sandbox().env(),
    ))));
    let never = rt
        .block_on(session.snapshot(&SnapshotRequest {
            ocr: OcrMode::Never,
            ..SnapshotRequest::default()
        }))
        .unwrap_or_else(|e| panic!("snapshot: {e}"))
        .text
        .clone();
    let snap = rt
        .block_on(session.snapshot(&SnapshotRequest::default()))
        .unwrap_or_else(|e| panic!("snapshot: {e}"))
        .clone();
    eprintln!("{}", snap.text);
    let place = snap
        .envelope
        .tree
        .iter()
        .flat_map(|r| r.iter())
        .find(|n| n.is_from_pixels() && n.name.contains("Place order"))
        .map(|n| n.id.clone());
    // find searches the text read from pixels like any other.
    let found = session
        .find(&cup_protocol::search::FindQuery {
            query: Some("print invoice".into()),
            ..cup_protocol::search::FindQuery::default()
        })
        .unwrap_or_default();
    // check_permissions names the window without a tree and what to do.
    let checks = rt.block_on(session.check());
    let clicked = place.as_ref().map(|id| {
        rt.block_on(session.action(id, "click", &cup::ActionParams::default()))
            .map(|r| (r.success, r.message, r.effect, r.changes))
    });
    let said = form
        .said
        .recv_timeout(std::time::Duration::from_secs(20))
        .unwrap_or_else(|e| format!("(nothing: {e})"));
    let window = snap
        .envelope
        .tree
        .iter()
        .find(|r| r.children.iter().any(|c| c.is_from_pixels()))
        .map(|r| r.id.clone())
        .unwrap_or_default();
    let typed = rt
        .block_on(session.action(
            &window,
            "type",
            &cup::ActionParams {
                value: Some("hello cup".into()),
                ..cup::ActionParams::default()
            },
        ))
        .map(|r| (r.effect, r.message, r.changes));
    let next = rt
        .block_on(session.snapshot(&SnapshotRequest::default()))
        .map(|s| s.text.clone())
        .unwrap_or_else(|e| format!("snapshot: {e}"));
    eprintln!("click: {clicked:?}\ntype: {typed:?}\n{next}");
    // A token budget and `page` treat the lines like any text: the budget
    // holds, and `page` lists the window's lines, those left out too.
    let budget = (cup::tokens::count(&next) * 2 / 3).max(100);
    let fitted = rt
        .block_on(session.snapshot(&SnapshotRequest {
            max_tokens: budget,
            ..SnapshotRequest::default()
        }))
        .map(|s| s.text.clone())
        .unwrap_or_else(|e| format!("snapshot: {e}"));
    let window_now = next
        .lines()
        .find(|l| l.contains("win \"Order form\""))
        .and_then(|l| l.trim().strip_prefix('['))
        .and_then(|l| l.split(']').next())
        .unwrap_or_default()
        .to_owned();
    let paged = session
        .page(
            &window_now,
            &cup_protocol::compact::PageRequest {
                offset: Some(0),
                limit: Some(50),
                ..cup_protocol::compact::PageRequest::default()
            },
        )
        .unwrap_or_else(|e| format!("page: {e}"));
    drop(form);
    let kept = fitted.lines().filter(|l| l.ends_with("(ocr)")).count();
    let all = next.lines().filter(|l| l.ends_with("(ocr)")).count();
    assert!(
        cup::tokens::count(&fitted) <= budget
            && fitted.contains(&format!("# max_tokens {budget}: "))
            && kept > 0
            && kept < all,
        "{kept} of {all} lines in {budget} tokens:\n{fitted}"
    );
    assert_eq!(
        paged.lines().filter(|l| l.ends_with("(ocr)")).count(),
        all,
        "page lists every line:\n{paged}"
    );

    assert!(
        !never.contains("(ocr)"),
        "ocr=never reads no pixels:\n{never}"
    );
    assert!(
        snap.text.contains("read from its pixels (ocr)"),
        "{}",
        snap.text
    );
    // The X server names the process (Tk sets no _NET_WM_PID): the note
    // says what Tk is.
    assert!(
        snap.text.contains("Tk has no accessibility support"),
        "{}",
        snap.text
    );
    let id = place.unwrap_or_else(|| panic!("no (ocr) line \"Place order\" in:\n{}", snap.text));
    let line = snap
        .text
        .lines()
        .find(|l| l.contains(&format!("[{id}]")))
        .unwrap_or_default();
    assert!(
        line.contains("txt \"Place order\"") && line.contains("[clk]") && line.ends_with("(ocr)"),
        "{line}"
    );
    cup_protocol::compact::parse(&snap.text).unwrap_or_else(|e| panic!("it parses: {e}"));
    let trees = checks.iter().find(|c| c.name == "apps with a tree");
    assert!(
        trees.is_some_and(|c| !c.ok
            && c.detail.contains("'Order form' (wish)")
            && c.detail.contains("pixels")),
        "{checks:?}"
    );
    assert!(
        found
            .first()
            .is_some_and(|n| n.name == "Print invoice" && n.is_from_pixels()),
        "find: {found:?}"
    );
    // The pointer goes to the line's centre.
    let centre = snap
        .node(&id)
        .and_then(|n| n.bounds)
        .map(|b| b.center())
        .unwrap_or_default();
    let at = format!("Clicked at {},{}", centre.0, centre.1);
    assert!(
        matches!(&clicked, Some(Ok((true, m, _, _))) if m.starts_with(&at)),
        "the click ({at}): {clicked:?}"
    );
    // The button ran its command, and cup saw the form change.
    assert_eq!(said, "clicked Place order", "wish's output after the click");
    assert!(
        matches!(&clicked, Some(Ok((_, _, cup::Effect::Confirmed, changes)))
            if changes.iter().any(|c| c.after.as_deref().is_some_and(|t| t.contains("Done")))),
        "the click's effect, from the pixels: {clicked:?}"
    );
    // The typed text is read back from the entry.
    assert!(
        matches!(&typed, Ok((cup::Effect::Confirmed, m, _)) if m.contains("hello cup")),
        "typing into the form: {typed:?}"
    );
    assert!(
        next.contains("txt \"hello cup"),
        "the next snapshot reads the entry:\n{next}"
    );
}

/// xterm has no accessibility tree: a command typed into it (`type` on
/// its window, confirmed by reading the command back from the pixels)
/// shows its output in the next snapshot, read from the pixels.
#[test]
fn a_command_typed_into_xterm_shows_its_output_in_the_next_snapshot() {
    let sandbox = Sandbox::start(SandboxOptions::default()).unwrap_or_else(|e| {
        panic!("the private desktop did not start: {e} (scripts/install-deps.sh installs Xvfb, D-Bus, AT-SPI)")
    });
    let mut xterm = sandbox
        .command("xterm")
        .args(["-geometry", "60x10+0+0", "-e", "sh"])
        .env("PS1", "ready> ")
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run xterm: {e} (apt-get install xterm)"));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut session = Session::new(Box::new(LinuxAdapter::for_desktop(Desktop::from_pairs(
        &sandbox.env(),
    ))));
    // Ready once a snapshot reads the prompt (each try is a round trip).
    let started = Instant::now();
    let mut window = None;
    let mut last = String::new();
    while started.elapsed() < std::time::Duration::from_secs(30) {
        // Until xterm maps its window, there is none to read.
        let snap = match rt.block_on(session.snapshot(&SnapshotRequest::default())) {
            Ok(s) => s,
            Err(e) => {
                last = e.to_string();
                continue;
            }
        };
        last = snap.text.clone();
        window = snap
            .envelope
            .tree
            .iter()
            .find(|r| {
                r.children
                    .iter()
                    .any(|c| c.is_from_pixels() && c.name.contains("ready"))
            })
            .map(|r| r.id.clone());
        if window.is_some() {
            break;
        }
    }
    let typed = window.as_ref().map(|w| {
        rt.block_on(session.action(
            w,
            "type",
            &cup::ActionParams {
                value: Some("seq 1040 1042\n".into()),
                ..cup::ActionParams::default()
            },
        ))
        .map(|r| (r.effect, r.message))
    });
    let next = rt
        .block_on(session.snapshot(&SnapshotRequest::default()))
        .map(|s| s.text.clone())
        .unwrap_or_else(|e| format!("snapshot: {e}"));
    eprintln!("type: {typed:?}\n{next}");
    let _ = xterm.kill();
    let _ = xterm.wait();
    let _ = sandbox.stop();

    assert!(
        window.is_some(),
        "no prompt read from xterm's pixels:\n{last}"
    );
    assert!(
        matches!(&typed, Some(Ok((cup::Effect::Confirmed, m))) if m.contains("seq 1040 1042")),
        "the command read back: {typed:?}"
    );
    assert!(
        next.lines()
            .any(|l| l.contains("txt \"1041\"") && l.ends_with("(ocr)")),
        "the output in the next snapshot:\n{next}"
    );
}
