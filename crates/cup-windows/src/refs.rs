//! The native reference of a captured element: how cup finds it again for
//! an action. UIA elements are COM objects that live only as long as the
//! capture's cache, so a reference names the window, the child-index path
//! from its root, the `RuntimeId` (checked first; Wine leaves it empty)
//! and the control type (checked on the element the path reaches).

use std::fmt;
use std::str::FromStr;

/// Where an element is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ElementRef {
    /// The top-level window's `HWND`.
    pub hwnd: i64,
    /// Child indexes from the window's root element.
    pub path: Vec<usize>,
    /// `RuntimeId` (empty when the provider gave none).
    pub runtime_id: Vec<i32>,
    /// `ControlType` id.
    pub control_type: i32,
}

fn join<T: ToString>(items: &[T], sep: &str) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

impl fmt::Display for ElementRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "uia:{}|{}|{}|{}",
            self.hwnd,
            join(&self.path, "."),
            join(&self.runtime_id, ","),
            self.control_type
        )
    }
}

/// A reference that is not one of cup's Windows references.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not an element reference of a Windows capture; take a new snapshot and use its ids"
)]
pub struct BadRef(pub String);

fn list<T: FromStr>(s: &str, sep: char) -> Option<Vec<T>> {
    if s.is_empty() {
        return Some(Vec::new());
    }
    s.split(sep).map(|p| p.parse().ok()).collect()
}

impl FromStr for ElementRef {
    type Err = BadRef;

    fn from_str(s: &str) -> Result<Self, BadRef> {
        let bad = || BadRef(s.to_owned());
        let body = s.strip_prefix("uia:").ok_or_else(bad)?;
        let mut parts = body.split('|');
        let (Some(hwnd), Some(path), Some(rid), Some(ct), None) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return Err(bad());
        };
        Ok(ElementRef {
            hwnd: hwnd.parse().map_err(|_| bad())?,
            path: list(path, '.').ok_or_else(bad)?,
            runtime_id: list(rid, ',').ok_or_else(bad)?,
            control_type: ct.parse().map_err(|_| bad())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_reads_back_as_written() {
        let r = ElementRef {
            hwnd: 0x1_0042,
            path: vec![0, 3, 12],
            runtime_id: vec![42, -7, 300],
            control_type: 50000,
        };
        assert_eq!(r.to_string(), "uia:65602|0.3.12|42,-7,300|50000");
        assert_eq!(r.to_string().parse::<ElementRef>(), Ok(r));
        let root = ElementRef {
            hwnd: 5,
            ..ElementRef::default()
        };
        assert_eq!(root.to_string().parse::<ElementRef>(), Ok(root));
    }

    #[test]
    fn foreign_references_are_refused_with_advice() {
        for s in ["", "uia:", "uia:1|x||5", ":1.0|/org/a11y", "uia:1|0|1|2|3"] {
            let e = s.parse::<ElementRef>().expect_err(s);
            assert!(e.to_string().contains("take a new snapshot"), "{e}");
        }
    }
}
