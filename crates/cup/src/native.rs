//! Native dumps: the files `cup snapshot --native-dump FILE` writes (each
//! platform's native facts of one capture, as JSON). A folder of them is
//! what the adapters' mapping tests load as fixtures ([`read_dir`]), and
//! what a bug report attaches; an adapter keeps the last capture's in a
//! [`NativeStore`].

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use serde::de::DeserializeOwned;
use serde::Serialize;

/// The native facts of an adapter's last capture, kept for
/// [`Adapter::native_dump`](crate::Adapter::native_dump) (what
/// `cup snapshot --native-dump FILE` writes).
///
/// An adapter holds one as a field, [`keep`](NativeStore::keep)s the
/// facts at the end of every [`Adapter::capture`](crate::Adapter::capture)
/// (the newest replaces the one before), and answers `native_dump` with
/// [`json`](NativeStore::json). An adapter that keeps every capture's
/// facts this way leaves
/// [`Adapter::record_native`](crate::Adapter::record_native) at its
/// default. A panic of another thread while it held the store does not
/// lose the facts (the lock's poison is ignored).
///
/// ```
/// use cup::native::NativeStore;
///
/// #[derive(Debug, Clone, PartialEq, serde::Serialize)]
/// struct Dump {
///     platform: String,
/// }
///
/// let last: NativeStore<Dump> = NativeStore::default();
/// assert_eq!(last.json(), None, "nothing captured yet");
/// last.keep(Dump { platform: "android".into() });
/// assert_eq!(last.json(), Some(serde_json::json!({ "platform": "android" })));
/// assert_eq!(last.last().map(|d| d.platform), Some("android".to_owned()));
/// ```
#[derive(Debug)]
pub struct NativeStore<T> {
    last: Mutex<Option<T>>,
}

impl<T> Default for NativeStore<T> {
    fn default() -> Self {
        NativeStore {
            last: Mutex::new(None),
        }
    }
}

impl<T> NativeStore<T> {
    /// An empty store (nothing captured yet).
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps `facts` as the last capture's, in place of the ones before.
    pub fn keep(&self, facts: T) {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(facts);
    }

    /// A copy of the last capture's facts (`None`: nothing captured yet).
    pub fn last(&self) -> Option<T>
    where
        T: Clone,
    {
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The last capture's facts as JSON: what
    /// [`Adapter::native_dump`](crate::Adapter::native_dump) answers.
    /// `None` when nothing was captured yet, or the facts do not
    /// serialise (a map with keys that are not strings).
    pub fn json(&self) -> Option<serde_json::Value>
    where
        T: Serialize,
    {
        let last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        serde_json::to_value(last.as_ref()?).ok()
    }
}

/// Every `*.json` file in `dir` read as a `T`, with its file name, sorted
/// by name.
///
/// # Errors
///
/// The folder or a file cannot be read, or a file is not a `T` (the
/// message names the file).
pub fn read_dir<T: DeserializeOwned>(dir: &Path) -> Result<Vec<(String, T)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut out = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let dump: T =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push((name, dump));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize)]
    struct Dump {
        platform: String,
        trees: Vec<u32>,
    }

    fn dump(platform: &str, trees: &[u32]) -> Dump {
        Dump {
            platform: platform.into(),
            trees: trees.to_vec(),
        }
    }

    #[test]
    fn a_store_answers_with_the_last_capture_kept() {
        let store = NativeStore::new();
        assert_eq!(store.last(), None);
        assert_eq!(store.json(), None);
        store.keep(dump("windows", &[1]));
        store.keep(dump("windows", &[2, 3]));
        assert_eq!(store.last(), Some(dump("windows", &[2, 3])), "the newest");
        assert_eq!(
            store.json(),
            Some(serde_json::json!({ "platform": "windows", "trees": [2, 3] }))
        );
    }

    #[test]
    fn a_store_keeps_its_facts_past_a_panic_that_held_it() {
        let store = std::sync::Arc::new(NativeStore::new());
        store.keep(dump("macos", &[7]));
        let held = std::sync::Arc::clone(&store);
        let panicked = std::thread::spawn(move || {
            let _guard = held.last.lock();
            panic!("a capture thread failed while it held the store");
        })
        .join();
        assert!(panicked.is_err());
        assert_eq!(store.last(), Some(dump("macos", &[7])));
        store.keep(dump("macos", &[8]));
        assert_eq!(
            store.json().map(|j| j["trees"].clone()),
            Some(serde_json::json!([8]))
        );
    }

    #[test]
    fn facts_that_do_not_serialise_give_no_json() {
        let store = NativeStore::new();
        store.keep(std::collections::HashMap::from([(
            (1, 2),
            "a map keyed by pairs",
        )]));
        assert_eq!(store.json(), None);
        assert!(store.last().is_some());
    }

    #[test]
    fn json_files_are_read_sorted_and_bad_ones_named() {
        let dir = std::env::temp_dir().join(format!("cup-native-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join("b.json"), "[2]").expect("file");
        std::fs::write(dir.join("a.json"), "[1]").expect("file");
        std::fs::write(dir.join("notes.txt"), "not json").expect("file");
        let got: Vec<(String, Vec<u8>)> = read_dir(&dir).expect("dumps");
        assert_eq!(
            got,
            [("a.json".into(), vec![1]), ("b.json".into(), vec![2])]
        );
        std::fs::write(dir.join("c.json"), "{").expect("file");
        let err = read_dir::<Vec<u8>>(&dir).expect_err("bad file");
        assert!(err.contains("c.json"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(read_dir::<Vec<u8>>(&dir).is_err());
    }
}
