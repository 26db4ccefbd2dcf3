//! Native references read back. A capture hands out one string per element
//! ([`Capture::refs`](crate::Capture::refs), given back to
//! [`Adapter::act`](crate::Adapter::act) as
//! [`Target::native`](crate::Target::native)) and one per window
//! ([`WindowHandle::native`](crate::WindowHandle::native), given back to
//! [`Adapter::capture`](crate::Adapter::capture) and to screenshots): each
//! adapter parses them into its own types with these, so a string that is
//! not one of its own is refused the same way on every platform.

use std::fmt::Display;
use std::str::FromStr;

use crate::adapter::AdapterError;

/// An element's native reference parsed into the adapter's own type `R`
/// (its `FromStr`), at the start of [`Adapter::act`](crate::Adapter::act):
/// `let r: ElementRef = cup::refs::parse_ref(target.native)?;`.
///
/// # Errors
///
/// [`AdapterError::Invalid`] with `R::Err`'s message, as it is: make that
/// message one line that names the reference and says what to do (take a
/// new snapshot and use its ids).
///
/// ```
/// use cup::refs::parse_ref;
/// use cup::AdapterError;
///
/// assert_eq!(parse_ref::<u32>("17"), Ok(17));
/// assert!(matches!(parse_ref::<u32>("e17"), Err(AdapterError::Invalid(_))));
/// ```
pub fn parse_ref<R>(native: &str) -> Result<R, AdapterError>
where
    R: FromStr,
    R::Err: Display,
{
    native
        .parse()
        .map_err(|e: R::Err| AdapterError::Invalid(e.to_string()))
}

/// A window's native reference parsed by `parse` (`None`: not one of the
/// adapter's), at the start of [`Adapter::capture`](crate::Adapter::capture).
/// `what` names the kind of reference with its article, as the error's
/// sentence needs it: `"a Windows window reference"`, `"an Android window
/// reference"`.
///
/// # Errors
///
/// [`AdapterError::Invalid`]: `'{native}' is not {what}; list windows
/// again`.
///
/// ```
/// use cup::refs::window_ref;
///
/// let hwnd = |s: &str| s.strip_prefix("hwnd:")?.parse::<i64>().ok();
/// assert_eq!(window_ref("hwnd:42", "a Windows window reference", hwnd), Ok(42));
/// let err = window_ref("cg:1|2", "a Windows window reference", hwnd).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "'cg:1|2' is not a Windows window reference; list windows again"
/// );
/// ```
pub fn window_ref<T>(
    native: &str,
    what: &str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<T, AdapterError> {
    parse(native).ok_or_else(|| {
        AdapterError::Invalid(format!("'{native}' is not {what}; list windows again"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An element reference of a made-up platform: `el:WINDOW|INDEX`.
    #[derive(Debug, PartialEq)]
    struct Ref {
        window: u32,
        index: usize,
    }

    #[derive(Debug)]
    struct BadRef(String);

    impl Display for BadRef {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(
                f,
                "'{}' is not an element reference; take a new snapshot",
                self.0
            )
        }
    }

    impl FromStr for Ref {
        type Err = BadRef;

        fn from_str(s: &str) -> Result<Self, BadRef> {
            let bad = || BadRef(s.to_owned());
            let (w, i) = s
                .strip_prefix("el:")
                .and_then(|r| r.split_once('|'))
                .ok_or_else(bad)?;
            Ok(Ref {
                window: w.parse().map_err(|_| bad())?,
                index: i.parse().map_err(|_| bad())?,
            })
        }
    }

    #[test]
    fn an_element_reference_parses_or_is_invalid_with_its_own_message() {
        assert_eq!(
            parse_ref::<Ref>("el:3|14"),
            Ok(Ref {
                window: 3,
                index: 14
            })
        );
        assert_eq!(
            parse_ref::<Ref>("e14"),
            Err(AdapterError::Invalid(
                "'e14' is not an element reference; take a new snapshot".into()
            ))
        );
    }

    #[test]
    fn a_window_reference_parses_or_is_invalid_naming_it() {
        let number = |s: &str| s.strip_prefix("cg:")?.parse::<u32>().ok();
        assert_eq!(
            window_ref("cg:7", "a macOS window reference", number),
            Ok(7)
        );
        assert_eq!(
            window_ref("hwnd:7", "an Android window reference", number),
            Err(AdapterError::Invalid(
                "'hwnd:7' is not an Android window reference; list windows again".into()
            ))
        );
    }
}
