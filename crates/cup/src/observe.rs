//! What changed between two snapshots, line by line: the compact lines
//! that changed, appeared or disappeared. Elements are matched by their
//! native reference (ids are pre-order and shift when nodes come and go),
//! and only lines the compact text shows are compared, so the diff speaks
//! the language of the snapshot an agent read.

use std::collections::HashMap;

use crate::session::Snapshot;

/// Most lines listed per kind; the rest are counted.
pub const MAX_LINES: usize = 40;

/// The difference of two snapshots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SnapshotDiff {
    /// Lines of elements present in both whose line changed (new line).
    pub changed: Vec<String>,
    /// Lines of elements only the new snapshot has.
    pub added: Vec<String>,
    /// Lines of elements only the old snapshot had (old ids).
    pub removed: Vec<String>,
}

impl SnapshotDiff {
    /// No difference.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.added.is_empty() && self.removed.is_empty()
    }

    /// As text: a header, then `~ ` changed, `+ ` added, `- ` removed
    /// lines (at most [`MAX_LINES`] of each, the rest counted).
    pub fn render(&self) -> String {
        let mut out = format!(
            "# observed: {} changed, {} added, {} removed (ids are the new snapshot's)\n",
            self.changed.len(),
            self.added.len(),
            self.removed.len()
        );
        for (mark, lines) in [
            ("~", &self.changed),
            ("+", &self.added),
            ("-", &self.removed),
        ] {
            for line in lines.iter().take(MAX_LINES) {
                out.push_str(mark);
                out.push(' ');
                out.push_str(line);
                out.push('\n');
            }
            if lines.len() > MAX_LINES {
                out.push_str(&format!("{mark} ... {} more\n", lines.len() - MAX_LINES));
            }
        }
        out
    }
}

/// The node lines of a compact text: (id, line without indentation), in
/// order. Header, hint and window-list lines are skipped.
fn node_lines(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter_map(|l| {
            let line = l.trim_start();
            let rest = line.strip_prefix('[')?;
            let (id, _) = rest.split_once(']')?;
            Some((id, line))
        })
        .collect()
}

/// A line without its `[id] ` prefix.
fn body(line: &str) -> &str {
    line.split_once("] ").map_or(line, |(_, b)| b)
}

/// Compares the compact lines of `before` and `after`.
pub fn diff(before: &Snapshot, after: &Snapshot) -> SnapshotDiff {
    let key = |snap: &Snapshot, id: &str| {
        snap.refs
            .get(id)
            .filter(|r| !r.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("id:{id}"))
    };
    let old: HashMap<String, &str> = node_lines(&before.text)
        .into_iter()
        .map(|(id, line)| (key(before, id), line))
        .collect();
    let mut seen: HashMap<String, ()> = HashMap::new();
    let mut out = SnapshotDiff::default();
    for (id, line) in node_lines(&after.text) {
        let k = key(after, id);
        match old.get(&k) {
            Some(prev) if body(prev) == body(line) => {}
            Some(_) => out.changed.push(line.to_owned()),
            None => out.added.push(line.to_owned()),
        }
        seen.insert(k, ());
    }
    for (id, line) in node_lines(&before.text) {
        if !seen.contains_key(&key(before, id)) {
            out.removed.push(line.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cup_protocol::{Envelope, PlatformId, Screen};

    fn snap(text: &str, refs: &[(&str, &str)]) -> Snapshot {
        Snapshot {
            envelope: Envelope::new(
                PlatformId::Linux,
                Screen {
                    w: 10,
                    h: 10,
                    scale: None,
                },
                Vec::new(),
            ),
            refs: refs
                .iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect(),
            notes: Vec::new(),
            text: text.to_owned(),
            id: "s1".to_owned(),
            since: None,
            next_id: 0,
        }
    }

    #[test]
    fn matches_elements_by_reference_not_by_id() {
        let before = snap(
            "# CUP 0.1.0 | linux | 10x10\n[e0] win \"W\"\n  [e1] chk \"a\" [tog]\n  [e2] btn \"gone\" [clk]\n",
            &[("e0", ":1/w"), ("e1", ":1/a"), ("e2", ":1/g")],
        );
        let after = snap(
            "# CUP 0.1.0 | linux | 10x10\n[e0] win \"W\"\n  [e1] txt \"new\"\n  [e2] chk \"a\" {chk} [tog]\n",
            &[("e0", ":1/w"), ("e1", ":1/n"), ("e2", ":1/a")],
        );
        let d = diff(&before, &after);
        assert_eq!(d.changed, vec!["[e2] chk \"a\" {chk} [tog]"]);
        assert_eq!(d.added, vec!["[e1] txt \"new\""]);
        assert_eq!(d.removed, vec!["[e2] btn \"gone\" [clk]"]);
        assert_eq!(
            d.render(),
            "# observed: 1 changed, 1 added, 1 removed (ids are the new snapshot's)\n~ [e2] chk \"a\" {chk} [tog]\n+ [e1] txt \"new\"\n- [e2] btn \"gone\" [clk]\n"
        );
    }

    #[test]
    fn the_same_snapshot_has_no_diff() {
        let s = snap("[e0] win \"W\"\n", &[("e0", "x")]);
        assert!(diff(&s, &s).is_empty());
    }
}
