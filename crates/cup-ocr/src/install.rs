//! Where libtesseract and its language data are on each desktop OS, in the
//! order they are tried, and what to install when none is there. Pure:
//! the environment and the file system come in as functions.
//!
//! - Linux: Debian's `libtesseract.so.5` (the loader finds it), its data
//!   where Tesseract looks by default.
//! - Windows: the UB Mannheim build in `Program Files\Tesseract-OCR` (or a
//!   per-user install), vcpkg's and MSYS2's DLL names on `PATH`; the data
//!   in the install's `tessdata`.
//! - macOS: Homebrew (`/opt/homebrew`, `/usr/local`) and MacPorts
//!   (`/opt/local`); the data in `share/tessdata` beside `lib`.
//!
//! `CUP_TESSERACT_DIR` (the folder holding the library) goes first
//! everywhere; `TESSDATA_PREFIX`, when set, is Tesseract's own choice of
//! data and wins.

use std::path::{Path, PathBuf};

/// A desktop OS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// Linux.
    Linux,
    /// Windows.
    Windows,
    /// macOS.
    Macos,
}

impl Os {
    /// The OS this build runs on.
    pub fn this() -> Os {
        if cfg!(target_os = "windows") {
            Os::Windows
        } else if cfg!(target_os = "macos") {
            Os::Macos
        } else {
            Os::Linux
        }
    }
}

/// A library to try, and the language data to start it with (None:
/// Tesseract's default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// A path, or a bare file name the loader searches for.
    pub library: PathBuf,
    /// The `tessdata` folder.
    pub tessdata: Option<PathBuf>,
}

/// What to install on this OS when no library loads.
pub const ADVICE: &str = if cfg!(target_os = "windows") {
    "install Tesseract 5 with English data (the UB Mannheim build, into Program Files\\Tesseract-OCR), or set CUP_TESSERACT_DIR to the folder holding libtesseract-5.dll"
} else if cfg!(target_os = "macos") {
    "install Tesseract 5 (brew install tesseract), or set CUP_TESSERACT_DIR to the folder holding libtesseract.5.dylib"
} else {
    "install libtesseract5 and tesseract-ocr-eng (apt-get install tesseract-ocr-eng)"
};

/// The libraries to try on `os`, first to last. `env` reads a variable,
/// `exists` tells whether a path is there.
pub fn places(
    os: Os,
    env: &dyn Fn(&str) -> Option<PathBuf>,
    exists: &dyn Fn(&Path) -> bool,
) -> Vec<Place> {
    let names: &[&str] = match os {
        Os::Linux => &["libtesseract.so.5"],
        Os::Windows => &[
            "libtesseract-5.dll",
            "tesseract55.dll",
            "tesseract54.dll",
            "tesseract53.dll",
        ],
        Os::Macos => &["libtesseract.5.dylib"],
    };
    let mut dirs: Vec<PathBuf> = env("CUP_TESSERACT_DIR").into_iter().collect();
    match os {
        Os::Linux => {}
        Os::Windows => {
            for (var, sub) in [
                ("ProgramFiles", "Tesseract-OCR"),
                ("ProgramFiles(x86)", "Tesseract-OCR"),
                ("LOCALAPPDATA", "Programs\\Tesseract-OCR"),
            ] {
                if let Some(base) = env(var) {
                    dirs.push(base.join(sub));
                }
            }
        }
        Os::Macos => {
            for d in ["/opt/homebrew/lib", "/usr/local/lib", "/opt/local/lib"] {
                dirs.push(PathBuf::from(d));
            }
        }
    }
    // The data beside an install, unless Tesseract is told where.
    let data_for = |dir: &Path| -> Option<PathBuf> {
        if env("TESSDATA_PREFIX").is_some() {
            return None;
        }
        let candidates = match os {
            Os::Windows => vec![dir.join("tessdata")],
            _ => vec![
                dir.join("tessdata"),
                dir.parent()
                    .map(|p| p.join("share").join("tessdata"))
                    .unwrap_or_default(),
            ],
        };
        candidates
            .into_iter()
            .find(|c| !c.as_os_str().is_empty() && exists(c))
    };
    let mut out = Vec::new();
    for dir in &dirs {
        for name in names {
            let library = dir.join(name);
            if exists(&library) {
                out.push(Place {
                    tessdata: data_for(dir),
                    library,
                });
            }
        }
    }
    // Last, the bare names: the loader's own search (Linux's ld.so.cache,
    // Windows' PATH, macOS's DYLD paths).
    out.extend(names.iter().map(|n| Place {
        library: PathBuf::from(n),
        tessdata: None,
    }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    fn run(os: Os, vars: &[(&str, &str)], files: &[&str]) -> Vec<Place> {
        let vars: HashMap<String, PathBuf> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), PathBuf::from(v)))
            .collect();
        let files: HashSet<PathBuf> = files.iter().map(PathBuf::from).collect();
        places(os, &|k| vars.get(k).cloned(), &|p| files.contains(p))
    }

    #[test]
    fn linux_asks_the_loader_for_debians_library() {
        assert_eq!(
            run(Os::Linux, &[], &[]),
            vec![Place {
                library: "libtesseract.so.5".into(),
                tessdata: None
            }]
        );
    }

    #[test]
    fn windows_finds_the_installers_folder_and_its_data() {
        let got = run(
            Os::Windows,
            &[("ProgramFiles", "C:/PF")],
            &[
                "C:/PF/Tesseract-OCR/libtesseract-5.dll",
                "C:/PF/Tesseract-OCR/tessdata",
            ],
        );
        assert_eq!(
            got[0],
            Place {
                library: "C:/PF/Tesseract-OCR/libtesseract-5.dll".into(),
                tessdata: Some("C:/PF/Tesseract-OCR/tessdata".into())
            }
        );
        // Then the names the loader searches PATH for.
        assert_eq!(got.len(), 1 + 4);
        assert_eq!(got[1].library, PathBuf::from("libtesseract-5.dll"));
        // TESSDATA_PREFIX is Tesseract's own choice.
        let told = run(
            Os::Windows,
            &[("ProgramFiles", "C:/PF"), ("TESSDATA_PREFIX", "D:/data")],
            &[
                "C:/PF/Tesseract-OCR/libtesseract-5.dll",
                "C:/PF/Tesseract-OCR/tessdata",
            ],
        );
        assert_eq!(told[0].tessdata, None);
    }

    #[test]
    fn macos_finds_homebrew_and_its_share_folder_and_the_users_folder_first() {
        let got = run(
            Os::Macos,
            &[("CUP_TESSERACT_DIR", "/Users/a/tess/lib")],
            &[
                "/opt/homebrew/lib/libtesseract.5.dylib",
                "/opt/homebrew/share/tessdata",
                "/Users/a/tess/lib/libtesseract.5.dylib",
            ],
        );
        assert_eq!(
            got[0].library,
            PathBuf::from("/Users/a/tess/lib/libtesseract.5.dylib")
        );
        assert_eq!(
            got[1],
            Place {
                library: "/opt/homebrew/lib/libtesseract.5.dylib".into(),
                tessdata: Some("/opt/homebrew/share/tessdata".into())
            }
        );
        assert_eq!(
            got.last().map(|p| p.library.clone()),
            Some(PathBuf::from("libtesseract.5.dylib"))
        );
    }
}
