//! Launching through Launch Services: `open -a BUNDLE [--args ...]`, which
//! starts the app (or brings it to the front when it runs) the way the
//! Dock and Finder do, with the user's environment and sandboxing.

use std::process::Command;

/// Opens the app bundle at `path`, with `args` for the app.
///
/// # Errors
///
/// `open` could not run, or Launch Services refused (its message).
pub fn open(path: &str, args: &[String]) -> Result<(), String> {
    let mut cmd = Command::new("/usr/bin/open");
    cmd.arg("-a").arg(path);
    if !args.is_empty() {
        cmd.arg("--args").args(args);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("could not run /usr/bin/open: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        let msg = String::from_utf8_lossy(&out.stderr);
        Err(format!(
            "Launch Services could not open '{path}': {}",
            msg.trim()
        ))
    }
}
