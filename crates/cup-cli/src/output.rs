//! Writing to stdout (results) and stderr (errors).

use std::io::{self, Write};

/// Writes `text` to stdout. A closed pipe (`cup render f | head`) is not an
/// error.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Writes one `cup: error: ...` line to stderr.
pub fn error_line(message: &str) {
    let _ = writeln!(io::stderr().lock(), "cup: error: {message}");
}
