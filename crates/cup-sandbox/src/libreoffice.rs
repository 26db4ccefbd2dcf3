//! A LibreOffice profile that starts without its first-run dialogs: what
//! the tests and the benchmark start LibreOffice with.

use std::path::Path;

/// Writes a LibreOffice user profile into `dir` that shows no first-run
/// dialog, no tip of the day and no Impress template picker (LibreOffice
/// 7.4's keys: `Misc/ShowTipOfTheDay`, `Misc/FirstRun`,
/// `Impress/Misc/NewDoc/AutoPilot`); returns the `-env:UserInstallation=`
/// argument that starts soffice with it.
///
/// # Errors
///
/// The folder or the file cannot be written.
pub fn write_quiet_profile(dir: &Path) -> std::io::Result<String> {
    let user = dir.join("user");
    std::fs::create_dir_all(&user)?;
    let item = |path: &str, prop: &str, value: &str| {
        format!(
            "<item oor:path=\"{path}\"><prop oor:name=\"{prop}\" oor:op=\"fuse\"><value>{value}</value></prop></item>\n"
        )
    };
    let xcu = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<oor:items xmlns:oor=\"http://openoffice.org/2001/registry\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n{}{}{}{}</oor:items>\n",
        item("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay", "false"),
        item("/org.openoffice.Office.Common/Misc", "FirstRun", "false"),
        item("/org.openoffice.Setup/Product", "ooSetupLastVersion", "7.4"),
        item("/org.openoffice.Office.Impress/Misc/NewDoc", "AutoPilot", "false"),
    );
    std::fs::write(user.join("registrymodifications.xcu"), xcu)?;
    Ok(format!("-env:UserInstallation=file://{}", dir.display()))
}

/// Where LibreOffice makes its single-instance pipes: `/tmp`, whatever
/// `TMPDIR` says (sal's pipe code names the folder itself).
const PIPE_DIR: &str = "/tmp";

/// Removes the single-instance pipes (`OSL_PIPE_<uid>_*` sockets in
/// `/tmp`) that LibreOffice instances started since `since` left behind,
/// and returns how many went. An instance ended by a signal, as the
/// sandbox ends its apps, leaves its pipe, and each profile has a pipe of
/// its own: every test or bench run that started LibreOffice with a fresh
/// profile left one more socket file in `/tmp` (about 60 an hour under
/// the test suite). A pipe some process still listens on (listed in
/// `/proc/net/unix`) stays, and so does one made before `since`.
pub fn sweep_stale_pipes(since: std::time::SystemTime) -> usize {
    use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
    let Ok(uid) = std::fs::metadata("/proc/self").map(|m| m.uid()) else {
        return 0;
    };
    let Ok(listening) = std::fs::read_to_string("/proc/net/unix") else {
        return 0;
    };
    let bound = bound_paths(&listening);
    let prefix = format!("OSL_PIPE_{uid}_");
    let Ok(entries) = std::fs::read_dir(PIPE_DIR) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with(&prefix) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let recent = meta.modified().is_ok_and(|t| t >= since);
        let stale = meta.file_type().is_socket()
            && meta.uid() == uid
            && recent
            && !bound.contains(path.to_string_lossy().as_ref());
        if stale && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The paths of the Unix sockets listed in `/proc/net/unix` (its last
/// column, where a socket has one).
fn bound_paths(table: &str) -> std::collections::HashSet<&str> {
    table
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().nth(7))
        .filter(|p| p.starts_with('/'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_paths_are_the_last_column_of_sockets_with_one() {
        let table = "Num       RefCount Protocol Flags    Type St Inode Path\n\
            0000000000000000: 00000002 00000000 00010000 0001 01 26187 /tmp/OSL_PIPE_0_SingleOfficeIPC_ab\n\
            0000000000000000: 00000003 00000000 00000000 0001 03 26190\n\
            0000000000000000: 00000002 00000000 00010000 0001 01 23070 @/tmp/.X11-unix/X0\n";
        let bound = bound_paths(table);
        assert!(bound.contains("/tmp/OSL_PIPE_0_SingleOfficeIPC_ab"));
        assert_eq!(bound.len(), 1, "{bound:?}");
    }

    #[test]
    fn a_pipe_nobody_listens_on_goes_and_a_bound_one_stays() {
        use std::os::unix::net::UnixListener;
        let since = std::time::SystemTime::now() - std::time::Duration::from_secs(1);
        let uid = {
            use std::os::unix::fs::MetadataExt as _;
            std::fs::metadata("/proc/self")
                .map(|m| m.uid())
                .unwrap_or(0)
        };
        let tag = format!("{}_{}", std::process::id(), line!());
        let stale = format!("{PIPE_DIR}/OSL_PIPE_{uid}_SingleOfficeIPC_cupteststale{tag}");
        let live = format!("{PIPE_DIR}/OSL_PIPE_{uid}_SingleOfficeIPC_cuptestlive{tag}");
        // A socket file whose listener is gone: what a killed instance leaves.
        drop(UnixListener::bind(&stale).expect("bind the stale pipe"));
        let listener = UnixListener::bind(&live).expect("bind the live pipe");
        let removed = sweep_stale_pipes(since);
        assert!(removed >= 1);
        assert!(!Path::new(&stale).exists(), "{stale} was left");
        assert!(Path::new(&live).exists(), "{live} was removed");
        drop(listener);
        let _ = std::fs::remove_file(&live);
        // One made before `since` stays.
        drop(UnixListener::bind(&stale).expect("bind again"));
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        sweep_stale_pipes(later);
        assert!(Path::new(&stale).exists(), "an older pipe was removed");
        let _ = std::fs::remove_file(&stale);
    }
}
