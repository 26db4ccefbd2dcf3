//! Native dumps: the files `cup snapshot --native-dump FILE` writes (each
//! platform's native facts of one capture, as JSON). A folder of them is
//! what the adapters' mapping tests load as fixtures, and what a bug
//! report attaches.

use std::path::Path;

use serde::de::DeserializeOwned;

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
