//! How well text read from pixels matches the text that was drawn: word
//! recall and character error rate (the `ocr` bench, issue 51).

/// Words as compared: lower case, trimmed of punctuation at their ends
/// (Tesseract's reading of a comma or a colon is not what is measured).
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The share of `known`'s words (with repeats) found in `read` (each word
/// read counts once).
pub fn word_recall(known: &str, read: &str) -> f64 {
    let wanted = words(known);
    if wanted.is_empty() {
        return 1.0;
    }
    let mut pool = words(read);
    let mut found = 0usize;
    for w in &wanted {
        if let Some(i) = pool.iter().position(|p| p == w) {
            pool.swap_remove(i);
            found += 1;
        }
    }
    found as f64 / wanted.len() as f64
}

/// Text as the error rate compares it: one space between words, lines
/// joined by one space.
fn squeezed(text: &str) -> Vec<char> {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .collect()
}

/// Character error rate: the edit distance (insertions, deletions,
/// substitutions) from `known` to `read`, over `known`'s length, both with
/// their whitespace squeezed; lines must come in the same order.
pub fn char_error_rate(known: &str, read: &str) -> f64 {
    let (a, b) = (squeezed(known), squeezed(read));
    if a.is_empty() {
        return if b.is_empty() { 0.0 } else { 1.0 };
    }
    // One row of the Levenshtein table at a time.
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            let cost = usize::from(ca != cb);
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + cost);
            diagonal = above;
        }
    }
    row[b.len()] as f64 / a.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recall_counts_words_with_repeats_and_ignores_end_punctuation() {
        assert_eq!(word_recall("Save changes?", "save changes"), 1.0);
        assert_eq!(word_recall("OK OK Cancel", "OK Cancel"), 2.0 / 3.0);
        assert_eq!(word_recall("Print invoice", "Prlnt invoice"), 0.5);
        assert_eq!(word_recall("", "anything"), 1.0);
    }

    #[test]
    fn error_rate_is_the_edit_distance_over_the_known_length() {
        assert_eq!(char_error_rate("abc", "abc"), 0.0);
        assert_eq!(char_error_rate("abcd", "abxd"), 0.25);
        // Whitespace is squeezed: line breaks and double spaces are free.
        assert_eq!(char_error_rate("a b\nc", "a  b c"), 0.0);
        assert_eq!(char_error_rate("ab", ""), 1.0);
        assert_eq!(char_error_rate("", ""), 0.0);
        assert_eq!(char_error_rate("kitten", "sitting"), 3.0 / 6.0);
    }
}
