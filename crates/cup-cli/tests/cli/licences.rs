//! Every crate the workspace builds (its dependencies included) is under
//! a permissive licence, read from `cargo metadata`: a dependency that
//! brings a copyleft-only or unlicensed crate fails here, naming it.

use std::process::Command;

use serde_json::Value;

/// Licences a user of cup can take without conditions beyond notices.
const PERMISSIVE: &[&str] = &[
    "MIT",
    "MIT-0",
    "Apache-2.0",
    "Apache-2.0 WITH LLVM-exception",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "0BSD",
    "ISC",
    "Zlib",
    "Unlicense",
    "Unicode-3.0",
    "Unicode-DFS-2016",
    "BSL-1.0",
    "CC0-1.0",
];

/// Whether an SPDX expression allows a permissive choice: one of its
/// `OR` alternatives is all permissive (`/` is an old spelling of `OR`).
fn permissive(expr: &str) -> bool {
    let flat = expr.replace(['(', ')'], " ").replace('/', " OR ");
    let words: Vec<&str> = flat.split_whitespace().collect();
    words.split(|w| *w == "OR").any(|alt| {
        let alt = alt.join(" ");
        alt.split(" AND ").all(|id| PERMISSIVE.contains(&id.trim()))
    })
}

#[test]
fn the_licence_rule_reads_spdx() {
    assert!(permissive("MIT OR Apache-2.0"));
    assert!(permissive("(MIT OR Apache-2.0) AND Unicode-3.0"));
    assert!(permissive(
        "Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT"
    ));
    assert!(permissive("MIT/Apache-2.0"));
    assert!(permissive("MIT OR Apache-2.0 OR LGPL-2.1-or-later"));
    assert!(!permissive("GPL-3.0-only"));
    assert!(!permissive("LGPL-2.1-or-later AND MIT"));
    assert!(!permissive(""));
}

#[test]
fn every_dependency_is_permissively_licensed() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .args(["--manifest-path", manifest])
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo metadata: {e}"));
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("cargo metadata printed no JSON: {e}"));
    let packages = meta["packages"].as_array().cloned().unwrap_or_default();
    assert!(packages.len() > 50, "only {} packages", packages.len());
    let bad: Vec<String> = packages
        .iter()
        .filter(|p| !p["license"].as_str().is_some_and(permissive))
        .map(|p| format!("{} {} ({})", p["name"], p["version"], p["license"]))
        .collect();
    assert!(
        bad.is_empty(),
        "crates without a permissive licence (replace them, or check their terms and extend PERMISSIVE): {bad:?}"
    );
}
