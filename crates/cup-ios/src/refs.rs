//! Native references of elements: where an element sits in WDA's source
//! (child indices from the application) and its type, as one string
//! (`wda:0.2.1/Button`; the application itself is `wda:/Application`).
//!
//! WDA's JSON source gives elements no ids, so an action finds its element
//! again in a fresh source ([`locate`]): at this path if the type and name
//! still match, else as the one element of that type and name (the screen
//! shifted). The diff of two captures matches elements by it too.

use std::fmt;
use std::str::FromStr;

use crate::facts::WdaElement;
use crate::map;

/// Where an element is and what it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ElementRef {
    /// Child indices from the application element.
    pub path: Vec<usize>,
    /// Its type without the `XCUIElementType` prefix.
    pub element_type: String,
}

/// A string that is not an iOS element reference.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not an iOS element reference; take a new snapshot and use its ids")]
pub struct BadRef(pub String);

impl fmt::Display for ElementRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path: Vec<String> = self.path.iter().map(usize::to_string).collect();
        write!(f, "wda:{}/{}", path.join("."), self.element_type)
    }
}

impl FromStr for ElementRef {
    type Err = BadRef;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadRef(s.to_owned());
        let rest = s.strip_prefix("wda:").ok_or_else(bad)?;
        let (path, ty) = rest.rsplit_once('/').ok_or_else(bad)?;
        if ty.is_empty() {
            return Err(bad());
        }
        let path = if path.is_empty() {
            Vec::new()
        } else {
            path.split('.')
                .map(|p| p.parse::<usize>().map_err(|_| bad()))
                .collect::<Result<Vec<_>, _>>()?
        };
        Ok(ElementRef {
            path,
            element_type: ty.to_owned(),
        })
    }
}

/// The element `r` (named `name` in the snapshot) in a fresh `tree`: at
/// its path when its type and name still match, else the one element of
/// that type and name; `None` when it is gone or not told apart.
pub fn locate<'a>(tree: &'a WdaElement, r: &ElementRef, name: &str) -> Option<&'a WdaElement> {
    let fits = |e: &WdaElement| e.element_type == r.element_type && map::name(e) == name;
    if let Some(e) = tree.at(&r.path).filter(|e| fits(e)) {
        return Some(e);
    }
    let mut found = Vec::new();
    let mut stack = vec![tree];
    while let Some(e) = stack.pop() {
        if fits(e) {
            found.push(e);
        }
        stack.extend(e.children.iter());
    }
    match found.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(ty: &str, label: &str, children: Vec<WdaElement>) -> WdaElement {
        WdaElement {
            element_type: ty.into(),
            label: Some(label.into()).filter(|l: &String| !l.is_empty()),
            children,
            ..WdaElement::default()
        }
    }

    #[test]
    fn elements_are_found_again_where_they_were_or_where_they_went() {
        let before = named(
            "Application",
            "A",
            vec![
                named("Button", "OK", vec![]),
                named("Button", "Cancel", vec![]),
            ],
        );
        let r = ElementRef {
            path: vec![1],
            element_type: "Button".into(),
        };
        assert_eq!(
            locate(&before, &r, "Cancel").and_then(|e| e.label.as_deref()),
            Some("Cancel")
        );
        // A banner came in first: Cancel is found by type and name.
        let mut after = before.clone();
        after.children.insert(0, named("Other", "Banner", vec![]));
        assert_eq!(
            locate(&after, &r, "Cancel").and_then(|e| e.label.as_deref()),
            Some("Cancel")
        );
        // Two of them, or none: not told apart.
        after.children.push(named("Button", "Cancel", vec![]));
        assert!(locate(&after, &r, "Cancel").is_none());
        assert!(locate(&before, &r, "Delete").is_none());
    }

    #[test]
    fn references_print_and_parse_back() {
        let r = ElementRef {
            path: vec![0, 2, 11],
            element_type: "Button".into(),
        };
        assert_eq!(r.to_string(), "wda:0.2.11/Button");
        assert_eq!("wda:0.2.11/Button".parse::<ElementRef>(), Ok(r));
        let root: ElementRef = "wda:/Application".parse().expect("root");
        assert!(root.path.is_empty());
        for bad in [
            "",
            "wda:",
            "wda:0.x/Button",
            "wda:0/",
            "ax:1|2",
            "0.1/Button",
        ] {
            assert!(bad.parse::<ElementRef>().is_err(), "{bad}");
        }
    }
}
