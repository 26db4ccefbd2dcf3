//! Folding and tokenizing of names and queries.
//!
//! Both sides of every comparison go through [`tokenize`], so a query and a
//! name match whenever they fold to the same tokens.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Splits `text` into folded word tokens.
///
/// Folding: compatibility decomposition (NFKD, so `ﬁ` becomes `fi` and
/// full-width letters become ASCII), full lowercasing, removal of combining
/// marks (accents: `Résumé` → `resume`) and `ß` → `ss`. Tokens are the
/// maximal runs of alphanumeric characters, so non-Latin scripts stay
/// tokens (`日本 語` → `日本`, `語`).
///
/// Deviation from the reference SDK, which lowercases, strips marks after
/// NFD and splits on `[^a-z0-9]+`: that drops every non-Latin word and keeps
/// ligatures and `ß` unfolded.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    for c in text.nfkd().flat_map(char::to_lowercase) {
        if is_combining_mark(c) {
            continue;
        }
        if c == 'ß' {
            current.push_str("ss");
        } else if c.is_alphanumeric() {
            current.push(c);
        } else if !current.is_empty() {
            tokens.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(text: &str) -> Vec<String> {
        tokenize(text)
    }

    #[test]
    fn folds_and_splits() {
        assert_eq!(t("Ŝtraße ﬁle"), ["strasse", "file"]);
        assert_eq!(t("Résumé"), ["resume"]);
        assert_eq!(t("file_name.txt"), ["file", "name", "txt"]);
        assert_eq!(t("Search Bar"), ["search", "bar"]);
        assert_eq!(t("..."), Vec::<String>::new());
        assert_eq!(t(""), Vec::<String>::new());
        assert_eq!(t("日本 語"), ["日本", "語"]);
    }

    #[test]
    fn folds_capital_sharp_s_full_width_and_dotted_i() {
        assert_eq!(t("STRAẞE"), ["strasse"]);
        assert_eq!(t("ＰＬＡＹ１"), ["play1"]);
        assert_eq!(t("İstanbul"), ["istanbul"]);
    }

    #[test]
    fn keeps_other_scripts() {
        assert_eq!(t("Привет, мир!"), ["привет", "мир"]);
        assert_eq!(t("Ελληνικά"), ["ελληνικα"]);
    }
}
