//! D-Bus server addresses (`unix:path=...`, `unix:abstract=...`).

use std::path::PathBuf;

use super::WireError;

/// Where a Unix-socket D-Bus server listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnixAddress {
    /// A socket file.
    Path(PathBuf),
    /// A Linux abstract socket name.
    Abstract(Vec<u8>),
}

/// The first Unix-socket entry of a D-Bus address list (entries are
/// separated by `;`, values percent-escaped).
pub fn parse(address: &str) -> Result<UnixAddress, WireError> {
    for entry in address.split(';') {
        let Some(params) = entry.strip_prefix("unix:") else {
            continue;
        };
        for pair in params.split(',') {
            let Some((key, value)) = pair.split_once('=') else {
                continue;
            };
            match key {
                "path" => {
                    let bytes = unescape(value)?;
                    let path = String::from_utf8(bytes).map_err(|_| {
                        WireError::Address(format!("'{address}': path is not UTF-8"))
                    })?;
                    return Ok(UnixAddress::Path(PathBuf::from(path)));
                }
                "abstract" => return Ok(UnixAddress::Abstract(unescape(value)?)),
                _ => {}
            }
        }
    }
    Err(WireError::Address(format!(
        "'{address}' names no unix:path= or unix:abstract= socket"
    )))
}

fn unescape(value: &str) -> Result<Vec<u8>, WireError> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = value
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| WireError::Address(format!("bad escape in '{value}'")))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_abstract_names() {
        assert_eq!(
            parse("unix:path=/run/user/0/at-spi2-X/socket").expect("parses"),
            UnixAddress::Path("/run/user/0/at-spi2-X/socket".into())
        );
        assert_eq!(
            parse("unix:path=/tmp/a%20b,guid=0123").expect("parses"),
            UnixAddress::Path("/tmp/a b".into())
        );
        assert_eq!(
            parse("tcp:host=x,port=1;unix:abstract=/tmp/dbus-ab,guid=9").expect("parses"),
            UnixAddress::Abstract(b"/tmp/dbus-ab".to_vec())
        );
    }

    #[test]
    fn unusable_addresses_say_why() {
        assert!(parse("tcp:host=localhost,port=4").is_err());
        assert!(parse("unix:dir=/tmp").is_err());
        assert!(parse("unix:path=/tmp/%zz").is_err());
        assert!(parse("").is_err());
    }
}
