//! Helpers shared by the CLI's desktop tests: run the `cup` binary, read
//! its `export` lines, and a sandbox state file that stops its desktop when
//! dropped (even when an assertion failed).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn cup(args: &[&str], env: &[(String, String)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cup"));
    command.args(args).env_remove("AT_SPI_BUS_ADDRESS");
    for (k, v) in env {
        command.env(k, v);
    }
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run cup {args:?}: {e}"))
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `export NAME=VALUE` lines of `cup sandbox start|env`.
pub fn exports(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("export "))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.trim_matches('\'').to_owned()))
        .collect()
}

pub struct StateFile(pub PathBuf);

impl Drop for StateFile {
    fn drop(&mut self) {
        // Clean up even when an assertion failed.
        let _ = Command::new(env!("CARGO_BIN_EXE_cup"))
            .args(["sandbox", "stop", "--state"])
            .arg(&self.0)
            .output();
        // The test's own folder: the state file sits in `<dir>/nested/`.
        if let Some(dir) = self.0.parent().and_then(Path::parent) {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

pub fn state_file(name: &str) -> StateFile {
    let dir = std::env::temp_dir().join(format!("cup-cli-sandbox-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    StateFile(dir.join("nested").join("sandbox.json"))
}

pub fn path_str(p: &Path) -> &str {
    p.to_str()
        .unwrap_or_else(|| panic!("non-UTF-8 temp path {}", p.display()))
}

/// The RGB pixels of a PNG.
pub fn image_rgb(png: &[u8]) -> Vec<u8> {
    cup::image::rgb_from_png(png)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

pub fn var<'a>(env: &'a [(String, String)], name: &str) -> &'a str {
    env.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {name} in {env:?}"))
}

/// The first line of `text` that has every one of `parts`.
pub fn line_with<'a>(text: &'a str, parts: &[&str]) -> &'a str {
    text.lines()
        .find(|l| parts.iter().all(|p| l.contains(p)))
        .unwrap_or_else(|| panic!("no line with {parts:?} in:\n{text}"))
}

/// `x,y wxh` of a compact line.
pub fn bounds(line: &str) -> (i64, i64, i64, i64) {
    bounds_of(line).unwrap_or_else(|| panic!("no bounds in {line:?}"))
}

/// `x,y wxh` of a compact line, when it has bounds.
pub fn bounds_of(line: &str) -> Option<(i64, i64, i64, i64)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find_map(|w| {
        let (x, y) = w[0].split_once(',')?;
        let (bw, bh) = w[1].split_once('x')?;
        Some((
            x.parse().ok()?,
            y.parse().ok()?,
            bw.parse().ok()?,
            bh.parse().ok()?,
        ))
    })
}

/// The sandbox user's uid when the tests run as root (the sandbox runs
/// its processes as `nobody` then). KWin and the desktop portal tell their
/// clients apart through /proc, which they cannot read for a root process:
/// what acts on them runs as this user.
pub fn sandbox_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata("/proc/self")
        .is_ok_and(|m| m.uid() == 0)
        .then_some(65534)
}

/// Held while a test runs a desktop whose compositor renders in software
/// and keeps a core busy (KWin's virtual backend, GNOME Shell headless):
/// two of them side by side on a 2-core machine starved each other (a
/// compositor missed cup's 2 s deadline once). Tests that start one take
/// this first, so they run one at a time.
pub fn one_heavy_desktop() -> std::sync::MutexGuard<'static, ()> {
    static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());
    HEAVY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
