//! cup.exe live under Wine 10: the linked Windows build of cup (for
//! `x86_64-pc-windows-gnu`) run in the Debian 13 root that
//! `scripts/wine-root.sh` makes, on a private Xvfb inside it, against
//! Wine's own programs. Every process is started here and stopped by PID
//! (Xvfb) or `wineserver -k` (Wine); /proc is mounted into the root only
//! while a test runs. Nothing is skipped: a missing root or exe fails with
//! what to run.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// One Wine desktop at a time (they share the prefix's wineserver).
static ONE: Mutex<()> = Mutex::new(());

fn root() -> PathBuf {
    let root = PathBuf::from(
        std::env::var("CUP_WINE_ROOT").unwrap_or_else(|_| "/var/lib/cup/wine-trixie".into()),
    );
    assert!(
        root.join(".cup-wine-root-complete").exists(),
        "no Wine 10 root at {} — run scripts/wine-root.sh (as root) first",
        root.display()
    );
    root
}

fn exe() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/x86_64-pc-windows-gnu");
    let built = ["debug", "release"]
        .iter()
        .map(|p| dir.join(p).join("cup.exe"))
        .filter(|p| p.exists())
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok());
    built.unwrap_or_else(|| {
        panic!("no cup.exe — build it: cargo build -p cup-cli --target x86_64-pc-windows-gnu")
    })
}

/// A private X display and Wine session inside the root.
struct WineDesk {
    root: PathBuf,
    display: u32,
    xvfb: Child,
    apps: Vec<Child>,
    mounted: bool,
    _one: MutexGuard<'static, ()>,
}

impl WineDesk {
    fn start() -> WineDesk {
        let one = ONE.lock().unwrap_or_else(PoisonError::into_inner);
        let root = root();
        let proc_dir = root.join("proc");
        let mounted_already = Command::new("mountpoint")
            .arg("-q")
            .arg(&proc_dir)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !mounted_already {
            let ok = Command::new("mount")
                .args(["-t", "proc", "proc"])
                .arg(&proc_dir)
                .status()
                .expect("mount (run the tests as root)");
            assert!(ok.success(), "cannot mount /proc into {}", root.display());
        }
        let display = (90..190)
            .find(|n| {
                !Path::new(&format!("/tmp/.X{n}-lock")).exists()
                    && !root.join(format!("tmp/.X{n}-lock")).exists()
            })
            .expect("a free display number");
        let xvfb = Command::new("env")
            .args(["-i", "/usr/sbin/chroot"])
            .arg(&root)
            .args([
                "/usr/bin/Xvfb",
                &format!(":{display}"),
                "-screen",
                "0",
                "1280x1024x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb in the root");
        let socket = root.join(format!("tmp/.X11-unix/X{display}"));
        let end = Instant::now() + Duration::from_secs(10);
        while !socket.exists() {
            assert!(
                Instant::now() < end,
                "Xvfb :{display} did not start in the root"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        std::fs::copy(exe(), root.join("tmp/cup.exe")).expect("copy cup.exe into the root");
        WineDesk {
            root,
            display,
            xvfb,
            apps: Vec::new(),
            mounted: !mounted_already,
            _one: one,
        }
    }

    fn wine(&self) -> Command {
        let mut c = Command::new("env");
        c.arg("-i")
            .arg("HOME=/root")
            .arg("PATH=/usr/bin:/bin")
            .arg(format!("DISPLAY=:{}", self.display))
            .arg("WINEPREFIX=/wineprefix")
            .arg("WINEDLLOVERRIDES=mscoree,mshtml=;winedbg.exe=d")
            .arg("WINEDEBUG=-all")
            .arg("/usr/sbin/chroot")
            .arg(&self.root)
            .arg("wine");
        c
    }

    fn launch(&mut self, program: &str) {
        let child = self
            .wine()
            .arg(program)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("wine");
        self.apps.push(child);
    }

    /// Runs `cup.exe ARGS` and returns its output (within 60 s).
    fn cup(&self, args: &[&str]) -> Output {
        self.cup_with_stdin(args, None)
    }

    fn cup_with_stdin(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut c = self.wine();
        c.arg("/tmp/cup.exe").args(args);
        c.stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        let mut child = c.spawn().expect("wine cup.exe");
        if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
            use std::io::Write;
            pipe.write_all(text.as_bytes()).expect("stdin");
        }
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            if child.try_wait().expect("wait").is_some() {
                return child.wait_with_output().expect("output");
            }
            if Instant::now() > end {
                let _ = child.kill();
                panic!("cup.exe {args:?} did not finish within 60 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Polls `cup.exe ARGS` until its output contains `wanted`.
    fn cup_until(&self, args: &[&str], wanted: &str, secs: u64) -> String {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let out = self.cup(args);
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            if text.contains(wanted) {
                return text;
            }
            assert!(
                Instant::now() < end,
                "cup.exe {args:?} never showed {wanted:?}; last:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

impl Drop for WineDesk {
    fn drop(&mut self) {
        let _ = self.wine().arg("--version").output();
        let _ = Command::new("env")
            .args([
                "-i",
                "HOME=/root",
                "PATH=/usr/bin:/bin",
                "WINEPREFIX=/wineprefix",
                "/usr/sbin/chroot",
            ])
            .arg(&self.root)
            .args(["wineserver", "-k"])
            .status();
        for app in &mut self.apps {
            let _ = app.kill();
            let _ = app.wait();
        }
        let _ = self.xvfb.kill();
        let _ = self.xvfb.wait();
        if self.mounted {
            let _ = Command::new("umount").arg(self.root.join("proc")).status();
        }
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn notepad_is_seen_typed_into_and_its_menu_opened() {
    let mut desk = WineDesk::start();
    desk.launch("notepad");
    let overview = desk.cup_until(&["snapshot", "--scope", "overview"], "Notepad", 60);
    assert!(overview.contains("Untitled - Notepad"), "{overview}");
    let snap = desk.cup_until(
        &["snapshot", "--scope", "full", "--app", "Notepad"],
        "mnub",
        30,
    );
    assert!(
        snap.contains("mi \"File\""),
        "the menu bar's File item:\n{snap}"
    );
    assert!(snap.contains("tbx"), "the edit area:\n{snap}");
}
