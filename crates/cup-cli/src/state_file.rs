//! Where the CLI keeps state between invocations (the sandbox, the
//! browser, the last snapshot): an explicit path, else an environment
//! variable, else a per-user file in the temp dir.

use std::path::PathBuf;

/// The real uid, from /proc (keeps libc out of the binary crate).
fn uid() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|v| v.split_whitespace().next().map(str::to_owned))
        })
        .unwrap_or_else(|| "0".into())
}

/// `given`, else `$env_var`, else `<temp>/<stem>-<uid>.json`.
pub fn path(given: Option<&PathBuf>, env_var: &str, stem: &str) -> PathBuf {
    if let Some(p) = given {
        return p.clone();
    }
    if let Some(p) = std::env::var_os(env_var).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    std::env::temp_dir().join(format!("{stem}-{}.json", uid()))
}
