//! Mounts that services of the sandbox left inside its state directory.
//!
//! A bus-activated `xdg-document-portal` mounts a FUSE file system at
//! `$XDG_RUNTIME_DIR/doc`. When it is killed, the mount stays behind with
//! nobody serving it, and removing the state directory fails with
//! "Transport endpoint is not connected". [`Sandbox::stop`] therefore
//! detaches every mount under the directory (deepest first) once the
//! processes are gone, and only then removes it.
//!
//! [`Sandbox::stop`]: super::Sandbox::stop

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::state_dir_error;
use crate::error::SandboxError;
use crate::procfs;

/// One mount point: where, and its file system type (`fuse.portal`, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Mount {
    pub(super) point: PathBuf,
    pub(super) fstype: String,
}

/// The mounts of `mountinfo` (the text of `/proc/self/mountinfo`) at or
/// under `dir`, deepest first and, at one depth, the last mounted first
/// (mountinfo lists them in mount order), so that each is detached before
/// the one it sits on. A point mounted over twice is listed twice, the top
/// mount first.
pub(super) fn mounts_under(mountinfo: &str, dir: &Path) -> Vec<Mount> {
    let mut found: Vec<Mount> = mountinfo
        .lines()
        .filter_map(parse_line)
        .filter(|m| m.point.starts_with(dir))
        .collect();
    found.reverse();
    found.sort_by_key(|m| std::cmp::Reverse(m.point.components().count()));
    found
}

/// One line of mountinfo: `id parent major:minor root point options
/// [optional fields] - fstype source super-options`.
fn parse_line(line: &str) -> Option<Mount> {
    let (head, tail) = line.split_once(" - ")?;
    let point = head.split(' ').nth(4)?;
    let fstype = tail.split(' ').next()?;
    Some(Mount {
        point: PathBuf::from(unescape(point)),
        fstype: fstype.to_owned(),
    })
}

/// The kernel writes space, tab, newline and backslash in paths as
/// three-digit octal escapes (`\040`).
fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|d| bytes[i] == b'\\' && d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match octal {
            Some(digits) => {
                let value = digits
                    .iter()
                    .fold(0u32, |acc, d| acc * 8 + u32::from(d - b'0'));
                out.push(u8::try_from(value).unwrap_or(b'?'));
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Detaches every mount under `dir`. FUSE mounts go through `fusermount3`
/// (or `fusermount`), which also works for a user's own mounts; others, and
/// FUSE mounts those tools refuse, through `umount --lazy`.
pub(super) fn detach_all(dir: &Path) -> Result<(), SandboxError> {
    let Ok(mountinfo) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return Ok(());
    };
    for mount in mounts_under(&mountinfo, dir) {
        tracing::info!(point = %mount.point.display(), fstype = %mount.fstype, "detaching a mount left in the sandbox directory");
        let fuse = mount.fstype == "fuse" || mount.fstype.starts_with("fuse.");
        let mut tools: Vec<(&str, &[&str])> = Vec::new();
        if fuse {
            tools.push(("fusermount3", &["-u", "-z", "--"]));
            tools.push(("fusermount", &["-u", "-z", "--"]));
        }
        tools.push(("umount", &["--lazy", "--"]));
        let detached = tools.iter().any(|(name, args)| {
            procfs::find_program(name).is_some_and(|program| {
                Command::new(program)
                    .args(*args)
                    .arg(&mount.point)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
            })
        });
        if !detached {
            return Err(state_dir_error(
                dir,
                format!(
                    "a {} mount at {} is left in it and could not be detached; run `umount --lazy {}` as root, then remove the directory",
                    mount.fstype,
                    mount.point.display(),
                    mount.point.display()
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO: &str = "\
22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
30 22 0:26 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
812 22 0:77 / /tmp/cup-sandbox-1-0-ab/runtime/doc rw,nosuid,nodev,relatime shared:400 - fuse.portal portal rw,user_id=0,group_id=0
813 22 0:78 / /tmp/cup-sandbox-1-0-ab/runtime/gvfs rw,nosuid,nodev,relatime shared:401 - fuse.gvfsd-fuse gvfsd-fuse rw,user_id=0,group_id=0
814 813 0:79 / /tmp/cup-sandbox-1-0-ab/runtime/gvfs/inner rw - tmpfs tmpfs rw
815 22 0:80 / /tmp/cup-sandbox-1-0-abc/runtime/doc rw - fuse.portal portal rw
816 22 0:81 / /tmp/cup-sandbox-1-0-ab/my\\040dir rw - tmpfs tmpfs rw
";

    #[test]
    fn only_mounts_inside_the_directory_are_taken_deepest_and_latest_first() {
        let found = mounts_under(MOUNTINFO, Path::new("/tmp/cup-sandbox-1-0-ab"));
        let points: Vec<String> = found
            .iter()
            .map(|m| format!("{} {}", m.point.display(), m.fstype))
            .collect();
        assert_eq!(
            points,
            [
                "/tmp/cup-sandbox-1-0-ab/runtime/gvfs/inner tmpfs",
                "/tmp/cup-sandbox-1-0-ab/runtime/gvfs fuse.gvfsd-fuse",
                "/tmp/cup-sandbox-1-0-ab/runtime/doc fuse.portal",
                "/tmp/cup-sandbox-1-0-ab/my dir tmpfs",
            ]
        );
    }

    #[test]
    fn a_point_mounted_over_is_detached_once_per_mount() {
        let stacked = "\
40 22 0:90 / /tmp/s/runtime/doc rw - fuse.portal portal rw
41 40 0:91 / /tmp/s/runtime/doc rw - tmpfs tmpfs rw
";
        let found = mounts_under(stacked, Path::new("/tmp/s"));
        let types: Vec<&str> = found.iter().map(|m| m.fstype.as_str()).collect();
        assert_eq!(types, ["tmpfs", "fuse.portal"]);
    }

    #[test]
    fn a_directory_without_mounts_has_none() {
        assert!(mounts_under(MOUNTINFO, Path::new("/tmp/cup-sandbox-9")).is_empty());
        assert!(mounts_under("garbage\n\n", Path::new("/tmp")).is_empty());
    }

    #[test]
    fn octal_escapes_are_decoded_and_other_backslashes_kept() {
        assert_eq!(unescape(r"a\040b\011c\134d"), "a b\tc\\d");
        assert_eq!(unescape(r"end\04"), r"end\04");
        assert_eq!(unescape(r"x\9yy"), r"x\9yy");
    }
}
