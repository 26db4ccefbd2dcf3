//! The native reference of a captured element: how cup finds it again for
//! an action. AX elements are handles that live only in the capturing
//! process, so a reference names the app (pid), the window
//! (`kCGWindowNumber`), the child-index path from the window's element,
//! and the element's `AXRole` (checked on the element the path reaches,
//! so a changed window is reported instead of acted on).

use std::fmt;
use std::str::FromStr;

/// Where an element is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ElementRef {
    /// The app's process id.
    pub pid: i32,
    /// The window's `kCGWindowNumber`.
    pub window: u32,
    /// Child indexes from the window's `AXWindow` element.
    pub path: Vec<usize>,
    /// `AXRole` of the element.
    pub role: String,
}

impl fmt::Display for ElementRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path: Vec<String> = self.path.iter().map(ToString::to_string).collect();
        write!(
            f,
            "ax:{}|{}|{}|{}",
            self.pid,
            self.window,
            path.join("."),
            self.role
        )
    }
}

/// A reference that is not one of cup's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a macOS element reference (ax:PID|WINDOW|PATH|ROLE); take a new snapshot")]
pub struct BadRef(pub String);

impl FromStr for ElementRef {
    type Err = BadRef;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadRef(s.to_owned());
        let rest = s.strip_prefix("ax:").ok_or_else(bad)?;
        let mut parts = rest.splitn(4, '|');
        let pid = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let window = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let path_text = parts.next().ok_or_else(bad)?;
        let path = if path_text.is_empty() {
            Vec::new()
        } else {
            path_text
                .split('.')
                .map(|i| i.parse().map_err(|_| bad()))
                .collect::<Result<Vec<usize>, BadRef>>()?
        };
        let role = parts.next().ok_or_else(bad)?.to_owned();
        Ok(ElementRef {
            pid,
            window,
            path,
            role,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let r = ElementRef {
            pid: 412,
            window: 9031,
            path: vec![0, 3, 1],
            role: "AXButton".into(),
        };
        assert_eq!(r.to_string(), "ax:412|9031|0.3.1|AXButton");
        assert_eq!(r.to_string().parse::<ElementRef>(), Ok(r));
        let root: ElementRef = "ax:1|2||AXWindow".parse().expect("root");
        assert!(root.path.is_empty());
        assert!("uia:1|2|3|4".parse::<ElementRef>().is_err());
        assert!("ax:1|2|x|AXButton".parse::<ElementRef>().is_err());
    }
}
