//! Text rules of the compact format: truncation, escaping and number
//! formatting. See `docs/compact-format.md` for the decisions.

use std::fmt::Write as _;

/// Names longer than this many characters are cut and get `...`.
pub const NAME_MAX: usize = 80;
/// Values longer than this many characters are cut and get `...`.
pub const VALUE_MAX: usize = 120;
/// Placeholders are cut to this many characters (no ellipsis).
pub const PLACEHOLDER_MAX: usize = 30;
/// Window titles in the foreground header are cut to this many characters.
pub const WINDOW_TITLE_MAX: usize = 50;
/// URLs in the overview are cut to this many characters and get `...`.
pub const URL_MAX: usize = 80;
/// Ellipsis appended to a cut name or value.
pub const ELLIPSIS: &str = "...";

/// The first `max` characters of `s` (characters, not bytes) and whether
/// anything was cut.
pub fn cut(s: &str, max: usize) -> (&str, bool) {
    match s.char_indices().nth(max) {
        Some((byte, _)) => (&s[..byte], true),
        None => (s, false),
    }
}

/// Appends `s` to `out` as the inside of a quoted compact string: `\` and
/// `"` are escaped, every control character (newline, carriage return, tab,
/// ...) becomes a space, so a quoted string never spans lines.
pub fn push_escaped(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
}

/// Appends `s` cut to `max` characters (plus `...` when `ellipsis`), escaped.
pub fn push_quoted_body(out: &mut String, s: &str, max: usize, ellipsis: bool) {
    let (head, was_cut) = cut(s, max);
    push_escaped(out, head);
    if was_cut && ellipsis {
        out.push_str(ELLIPSIS);
    }
}

/// Appends unquoted text (header titles): control characters become spaces.
pub fn push_plain(out: &mut String, s: &str) {
    out.extend(s.chars().map(|c| if c.is_control() { ' ' } else { c }));
}

/// Appends a number in its shortest round-trip form: `0`, `100.5`, `-3`,
/// never `50.0`.
pub fn push_number(out: &mut String, v: f64) {
    if v == v.trunc() && v.abs() < 1e15 {
        // Integral values print without a fractional part; `as` is exact here.
        #[allow(clippy::cast_possible_truncation)]
        let i = v as i64;
        let _ = write!(out, "{i}");
    } else {
        let _ = write!(out, "{v}");
    }
}

/// Reverses [`push_escaped`] for a quoted body (used by the parser).
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(n) => out.push(n),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_counts_characters() {
        assert_eq!(cut("héllo", 2), ("hé", true));
        assert_eq!(cut("ab", 2), ("ab", false));
    }

    #[test]
    fn escaping_covers_backslash_quote_and_controls() {
        let mut s = String::new();
        push_escaped(&mut s, "a\\b\"c\nd\re\tf");
        assert_eq!(s, "a\\\\b\\\"c d e f");
        assert_eq!(unescape("a\\\\b\\\"c"), "a\\b\"c");
    }

    #[test]
    fn numbers_print_shortest() {
        for (v, want) in [
            (0.0, "0"),
            (100.5, "100.5"),
            (50.0, "50"),
            (-3.0, "-3"),
            (0.1, "0.1"),
            (1e20, "100000000000000000000"),
        ] {
            let mut s = String::new();
            push_number(&mut s, v);
            assert_eq!(s, want);
        }
    }
}
