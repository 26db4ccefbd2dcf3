//! A UTF-8 locale for what runs in a sandbox.
//!
//! A container often starts with no locale at all (POSIX, ASCII), and some
//! apps refuse to run without UTF-8: gnome-terminal's server exits ("Non
//! UTF-8 locale is not supported!"), which the bus reports as "Process
//! org.gnome.Terminal exited with status 8". Where the caller's character
//! type is not UTF-8, the sandbox sets `C.UTF-8` (built into glibc since
//! 2.35, shipped by Debian's libc-bin before) in its place; a UTF-8 locale
//! the caller chose is kept.

/// The variables to set so that the character type is UTF-8, given the
/// caller's `LC_ALL`, `LC_CTYPE` and `LANG` (empty when unset): none when
/// it already is. `LC_ALL` wins over `LC_CTYPE`, which wins over `LANG`.
pub(super) fn utf8(lc_all: &str, lc_ctype: &str, lang: &str) -> Vec<(&'static str, &'static str)> {
    const UTF8: &str = "C.UTF-8";
    if !lc_all.is_empty() {
        return if is_utf8(lc_all) {
            Vec::new()
        } else {
            vec![("LC_ALL", UTF8)]
        };
    }
    if !lc_ctype.is_empty() {
        return if is_utf8(lc_ctype) {
            Vec::new()
        } else {
            vec![("LC_CTYPE", UTF8)]
        };
    }
    if is_utf8(lang) {
        Vec::new()
    } else {
        vec![("LANG", UTF8)]
    }
}

/// Whether a locale name says UTF-8 (`en_US.UTF-8`, `C.utf8`).
fn is_utf8(locale: &str) -> bool {
    let l = locale.to_ascii_lowercase();
    l.contains("utf-8") || l.contains("utf8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_locale_gets_c_utf8() {
        assert_eq!(utf8("", "", ""), vec![("LANG", "C.UTF-8")]);
        assert_eq!(utf8("", "", "C"), vec![("LANG", "C.UTF-8")]);
        assert_eq!(utf8("", "", "POSIX"), vec![("LANG", "C.UTF-8")]);
    }

    #[test]
    fn a_utf8_locale_is_kept() {
        assert!(utf8("", "", "en_US.UTF-8").is_empty());
        assert!(utf8("", "", "de_DE.utf8").is_empty());
        assert!(utf8("", "fr_FR.UTF-8", "C").is_empty());
        assert!(utf8("C.UTF-8", "", "").is_empty());
    }

    #[test]
    fn the_variable_that_decides_is_the_one_set() {
        assert_eq!(utf8("C", "", "en_US.UTF-8"), vec![("LC_ALL", "C.UTF-8")]);
        assert_eq!(utf8("", "C", "en_US.UTF-8"), vec![("LC_CTYPE", "C.UTF-8")]);
    }
}
