//! The `Exec` key → a program and its arguments, without a shell: quoting
//! as the Desktop Entry spec defines it, field codes expanded (`%f %F %u %U`
//! and the deprecated ones dropped, `%i` → `--icon ICON`, `%c` → the name,
//! `%k` → the file, `%%` → `%`).

use super::entry::Entry;

/// Why an `Exec` line cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Exec line {line:?} of {id}: {reason}")]
pub struct ExecError {
    /// The desktop-file id.
    pub id: String,
    /// The line.
    pub line: String,
    /// What is wrong.
    pub reason: String,
}

/// Splits `line` into arguments (double quotes, with `\"`, `` \` ``, `\$`
/// and `\\` escapes inside them).
fn split(line: &str) -> Result<Vec<String>, String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut in_arg = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                in_arg = true;
                loop {
                    match chars.next() {
                        None => return Err("unterminated quote".into()),
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '`' | '$' | '\\')) => current.push(e),
                            Some(other) => {
                                current.push('\\');
                                current.push(other);
                            }
                            None => return Err("trailing backslash".into()),
                        },
                        Some(other) => current.push(other),
                    }
                }
            }
            ' ' | '\t' => {
                if in_arg {
                    args.push(std::mem::take(&mut current));
                    in_arg = false;
                }
            }
            other => {
                in_arg = true;
                current.push(other);
            }
        }
    }
    if in_arg {
        args.push(current);
    }
    Ok(args)
}

/// The command line of `entry`, launched without files or URLs.
pub fn command_line(entry: &Entry, file: &str) -> Result<Vec<String>, ExecError> {
    let error = |reason: String| ExecError {
        id: entry.id.clone(),
        line: entry.exec.clone(),
        reason,
    };
    let mut out = Vec::new();
    for arg in split(&entry.exec).map_err(error)? {
        match arg.as_str() {
            "%f" | "%F" | "%u" | "%U" | "%d" | "%D" | "%n" | "%N" | "%v" | "%m" => continue,
            "%i" => {
                if let Some(icon) = &entry.icon {
                    out.push("--icon".to_owned());
                    out.push(icon.clone());
                }
                continue;
            }
            _ => {}
        }
        let mut expanded = String::with_capacity(arg.len());
        let mut chars = arg.chars();
        while let Some(c) = chars.next() {
            if c != '%' {
                expanded.push(c);
                continue;
            }
            match chars.next() {
                Some('%') => expanded.push('%'),
                Some('c') => expanded.push_str(&entry.name),
                Some('k') => expanded.push_str(file),
                Some('f' | 'F' | 'u' | 'U' | 'd' | 'D' | 'n' | 'N' | 'v' | 'm' | 'i') => {}
                Some(other) => {
                    return Err(error(format!("unknown field code %{other}")));
                }
                None => return Err(error("a lone % at the end".into())),
            }
        }
        out.push(expanded);
    }
    if out.is_empty() {
        return Err(error("nothing to run".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(exec: &str) -> Entry {
        Entry {
            id: "t".into(),
            name: "Text Editor".into(),
            exec: exec.into(),
            icon: Some("editor".into()),
            ..Entry::default()
        }
    }

    #[test]
    fn field_codes() {
        let args = command_line(&entry("/usr/bin/chromium %U"), "/x.desktop").unwrap_or_default();
        assert_eq!(args, vec!["/usr/bin/chromium"]);
        let args = command_line(&entry("ed %i --title=%c --file %k 100%%"), "/a.desktop")
            .unwrap_or_default();
        assert_eq!(
            args,
            vec![
                "ed",
                "--icon",
                "editor",
                "--title=Text Editor",
                "--file",
                "/a.desktop",
                "100%"
            ]
        );
    }

    #[test]
    fn quoting() {
        let args = command_line(&entry(r#""/opt/My App/run" --x "a \"b\" \\ c" %F"#), "")
            .unwrap_or_default();
        assert_eq!(args, vec!["/opt/My App/run", "--x", r#"a "b" \ c"#]);
        assert!(command_line(&entry(r#"run "open"#), "").is_err());
        assert!(command_line(&entry("run %z"), "").is_err());
        assert!(command_line(&entry("%U"), "").is_err());
    }
}
