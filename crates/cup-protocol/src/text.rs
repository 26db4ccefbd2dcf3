//! The schema's limits on a node's strings, and the two cuts every adapter
//! makes with them.

/// Longest name kept (the schema: "Truncated to 200 chars").
pub const NAME_MAX: usize = 200;
/// Longest description kept.
pub const DESCRIPTION_MAX: usize = 200;
/// Longest value kept (text of an input).
pub const VALUE_MAX: usize = 2_000;

/// The object replacement character that stands for an embedded child
/// object in hypertext.
pub const EMBEDDED_OBJECT: char = '\u{fffc}';

/// `s` cut to at most `max` characters (on a character boundary).
pub fn cap(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((end, _)) => s[..end].to_owned(),
        None => s.to_owned(),
    }
}

/// One line of display text: embedded-object characters dropped,
/// whitespace runs collapsed to one space, trimmed, capped.
pub fn one_line(s: &str, max: usize) -> String {
    let words: Vec<&str> = s
        .split(|c: char| c.is_whitespace() || c == EMBEDDED_OBJECT)
        .filter(|w| !w.is_empty())
        .collect();
    cap(&words.join(" "), max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_are_on_characters_and_lines_are_collapsed() {
        assert_eq!(cap("héllo", 2), "hé");
        assert_eq!(cap("hi", 5), "hi");
        assert_eq!(one_line("  Save \n file\u{fffc} ", 200), "Save file");
        assert_eq!(one_line("a  b c", 3), "a b");
    }
}
