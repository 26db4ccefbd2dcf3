//! The latest snapshot of this desktop, kept between `cup` invocations so
//! `cup action e12 click` acts on the ids `cup snapshot` printed. Before
//! acting, the adapter re-resolves the id's element and refuses when it is
//! no longer the same one (role, name, reference).

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;

use cup::Snapshot;
use cup_protocol::Envelope;
use serde::{Deserialize, Serialize};

use crate::commands::Failure;

const FORMAT: u32 = 1;

/// The kept file: borrowed from the snapshot when written (a large page's
/// tree is not copied), owned when read.
#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    format: u32,
    /// Which desktop it came from (display and buses).
    desktop: String,
    envelope: Cow<'a, Envelope>,
    refs: Cow<'a, HashMap<String, String>>,
    notes: Cow<'a, [String]>,
    /// Its id, for `cup snapshot --since` (kept files of earlier cups
    /// have none).
    #[serde(default)]
    id: Cow<'a, str>,
    /// Past every element id its chain gave.
    #[serde(default)]
    next_id: u64,
}

/// A key for the current desktop (display and buses) or browser.
fn desktop_key() -> String {
    crate::platform::target_key()
}

fn path() -> PathBuf {
    crate::state_file::path(None, "CUP_SNAPSHOT_STATE", "cup-last-snapshot")
}

/// Keeps `snap` for later invocations (best effort: a failure only loses
/// the ability to act on its ids from another process).
pub fn save(snap: &Snapshot) {
    let stored = Stored {
        format: FORMAT,
        desktop: desktop_key(),
        envelope: Cow::Borrowed(&snap.envelope),
        refs: Cow::Borrowed(&snap.refs),
        notes: Cow::Borrowed(&snap.notes),
        id: Cow::Borrowed(&snap.id),
        next_id: snap.next_id,
    };
    let path = path();
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    let write = |bytes: Vec<u8>| -> std::io::Result<()> {
        use std::io::Write;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        // The snapshot shows what is on screen: readable by its owner only
        // (on Windows the user's profile folder is private already).
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&tmp)?;
        file.write_all(&bytes)?;
        std::fs::rename(&tmp, &path)
    };
    let written = serde_json::to_vec(&stored)
        .map_err(std::io::Error::other)
        .and_then(write);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        tracing::warn!(path = %path.display(), error = %e, "cannot keep the snapshot for cup action");
    }
}

/// The snapshot kept by the last `cup snapshot` on this desktop.
pub fn load() -> Result<Snapshot, Failure> {
    let path = path();
    let bytes = std::fs::read(&path).map_err(|_| {
        Failure::usage("no snapshot to act on; run `cup snapshot` first and use its ids")
    })?;
    let stored: Stored<'_> = serde_json::from_slice(&bytes).map_err(|e| {
        Failure::usage(format!(
            "the kept snapshot {} is unreadable ({e}); run `cup snapshot` again",
            path.display()
        ))
    })?;
    if stored.format != FORMAT || stored.desktop != desktop_key() {
        return Err(Failure::usage(
            "the kept snapshot is from another desktop or cup version; run `cup snapshot` again",
        ));
    }
    // The text is what observe diffs compare: render it as the snapshot
    // showed it.
    let text = cup_protocol::compact::render(
        &stored.envelope,
        &cup_protocol::compact::RenderOptions {
            notes: stored.notes.to_vec(),
            ..cup_protocol::compact::RenderOptions::default()
        },
    );
    Ok(Snapshot {
        envelope: stored.envelope.into_owned(),
        refs: stored.refs.into_owned(),
        notes: stored.notes.into_owned(),
        text,
        id: if stored.id.is_empty() {
            "s0".to_owned()
        } else {
            stored.id.into_owned()
        },
        since: None,
        next_id: stored.next_id,
    })
}
