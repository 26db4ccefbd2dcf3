//! Which installed app a name means: exact name, then whole-word
//! substrings (shortest name first), then substrings, then the query
//! containing the name, then a similarity ratio (Ratcliff–Obershelp, as
//! Python's difflib) of at least 0.5 — over the name, generic name,
//! keywords and the desktop-file id. Ties go to the entry whose id agrees
//! with more of the query's words, then to entries shown in menus.

use super::entry::Entry;

/// Lowercase words (letters and digits), camelCase split.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            current.extend(c.to_lowercase());
        } else {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            prev_lower = false;
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn normal(text: &str) -> String {
    words(text).join(" ")
}

/// Longest common block of `a` and `b` (start in a, start in b, length).
fn longest_block(a: &[char], b: &[char]) -> (usize, usize, usize) {
    let mut best = (0, 0, 0);
    let mut prev = vec![0usize; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        let mut row = vec![0usize; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            if ca == cb {
                row[j + 1] = prev[j] + 1;
                if row[j + 1] > best.2 {
                    best = (i + 1 - row[j + 1], j + 1 - row[j + 1], row[j + 1]);
                }
            }
        }
        prev = row;
    }
    best
}

fn matching_chars(a: &[char], b: &[char]) -> usize {
    let (i, j, n) = longest_block(a, b);
    if n == 0 {
        return 0;
    }
    n + matching_chars(&a[..i], &b[..j]) + matching_chars(&a[i + n..], &b[j + n..])
}

/// Similarity in 0..=1: 2·matches / (len a + len b).
pub fn ratio(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    #[allow(clippy::cast_precision_loss)]
    let r = 2.0 * matching_chars(&a, &b) as f64 / (a.len() + b.len()) as f64;
    r
}

/// How well `query` matches one text: 4 exact, 3 whole-word substring,
/// 2 substring, 1.5 the text inside the query, else the ratio when ≥ 0.5.
fn text_score(query: &str, text: &str) -> f64 {
    let text = normal(text);
    if text.is_empty() {
        return 0.0;
    }
    if text == query {
        return 4.0;
    }
    if let Some(at) = text.find(query) {
        let before = text[..at].chars().next_back().is_none_or(|c| c == ' ');
        let after = text[at + query.len()..]
            .chars()
            .next()
            .is_none_or(|c| c == ' ');
        return if before && after { 3.0 } else { 2.0 };
    }
    if query.contains(&text) {
        return 1.5;
    }
    let r = ratio(query, &text);
    if r >= 0.5 {
        r
    } else {
        0.0
    }
}

/// The score of `entry` for `query` (0 = no match).
pub fn score(query: &str, entry: &Entry) -> f64 {
    let query = normal(query);
    if query.is_empty() {
        return 0.0;
    }
    let name = text_score(&query, &entry.name);
    let others = [&entry.generic_name, &entry.id]
        .into_iter()
        .map(|t| text_score(&query, t))
        .chain(entry.keywords.iter().map(|k| text_score(&query, k)))
        .fold(0.0f64, f64::max);
    // The name counts most; other fields just below an equal name match.
    name.max(others * 0.95)
}

/// The best entry for `query`, with its score.
pub fn best<'a>(query: &str, entries: &'a [Entry]) -> Option<(&'a Entry, f64)> {
    let query_words = words(query);
    let id_agreement = |e: &Entry| {
        let id = words(&e.id);
        query_words.iter().filter(|w| id.contains(w)).count()
    };
    entries
        .iter()
        .filter(|e| !e.hidden)
        .map(|e| (e, score(query, e)))
        .filter(|(_, s)| *s > 0.0)
        .max_by(|(a, sa), (b, sb)| {
            sa.total_cmp(sb)
                .then_with(|| id_agreement(a).cmp(&id_agreement(b)))
                .then_with(|| b.no_display.cmp(&a.no_display))
                .then_with(|| b.name.len().cmp(&a.name.len()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(id: &str, name: &str, no_display: bool) -> Entry {
        Entry {
            id: id.into(),
            name: name.into(),
            no_display,
            exec: id.into(),
            ..Entry::default()
        }
    }

    fn installed() -> Vec<Entry> {
        vec![
            e("gtk3-widget-factory", "Widget Factory", true),
            e("org.gtk.WidgetFactory4", "Widget Factory", false),
            e("org.gtk.Demo4", "GTK Demo", false),
            Entry {
                generic_name: "Web Browser".into(),
                keywords: vec!["browser".into()],
                ..e("chromium", "Chromium Web Browser", false)
            },
            e("gtk3-demo", "GTK Demo", false),
            e("org.gnome.Calculator", "Calculator", false),
        ]
    }

    fn pick(q: &str) -> String {
        let apps = installed();
        best(q, &apps)
            .map(|(e, _)| e.id.clone())
            .unwrap_or_default()
    }

    #[test]
    fn names_and_ties() {
        assert_eq!(
            pick("widget factory"),
            "gtk3-widget-factory",
            "the id agrees with both words"
        );
        assert_eq!(pick("widgetfactory4"), "org.gtk.WidgetFactory4");
        assert_eq!(pick("calculator"), "org.gnome.Calculator");
        assert_eq!(pick("Calc"), "org.gnome.Calculator");
        assert_eq!(pick("browser"), "chromium");
        assert_eq!(pick("web browser"), "chromium");
        assert_eq!(pick("chromium"), "chromium");
        assert_eq!(
            pick("calculater"),
            "org.gnome.Calculator",
            "typo: similarity"
        );
        assert_eq!(pick("zzzz"), "");
    }

    #[test]
    fn words_split_camel_case() {
        assert_eq!(
            words("org.gtk.WidgetFactory4"),
            vec!["org", "gtk", "widget", "factory4"]
        );
        assert_eq!(words("GTK Demo"), vec!["gtk", "demo"]);
    }

    #[test]
    fn ratio_like_difflib() {
        assert!((ratio("abcd", "bcde") - 0.75).abs() < 1e-9);
        assert!((ratio("calculator", "calculater") - 0.9).abs() < 1e-9);
    }
}
