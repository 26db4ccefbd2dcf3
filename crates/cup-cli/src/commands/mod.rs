//! The subcommands.

mod act;
#[cfg(target_os = "linux")]
mod browser;
mod call;
mod find;
pub mod mcp;
mod page;
mod render;
#[cfg(target_os = "linux")]
pub mod sandbox;
mod screenshot;
mod snapshot;
mod validate;
mod web;

use std::process::ExitCode;

use crate::cli::{Cli, Command};

/// A command that could not do its job: the exit code and a one-line
/// message that says what to do next.
#[derive(Debug)]
pub struct Failure {
    /// Process exit code.
    pub code: u8,
    /// One-line message.
    pub message: String,
}

impl Failure {
    /// Bad usage or unreadable input (exit code 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::usage(format!("cannot write the output: {e}"))
    }
}

/// The major version of the GNOME Shell installed here.
#[cfg(all(target_os = "linux", feature = "wayland"))]
fn gnome_shell_major() -> Result<u32, Failure> {
    cup_linux::setup::gnome_shell_major().map_err(Failure::usage)
}

/// cup's GNOME Shell extension for the GNOME Shell installed here, as the
/// sandbox installs it.
#[cfg(all(target_os = "linux", feature = "wayland"))]
pub(crate) fn gnome_extension() -> Result<cup_sandbox::ShellExtension, Failure> {
    use cup_linux::setup;
    Ok(cup_sandbox::ShellExtension {
        uuid: setup::GNOME_EXTENSION_UUID.to_owned(),
        files: setup::gnome_extension_files().map_err(Failure::usage)?,
        bus_name: Some(setup::GNOME_EXTENSION_BUS_NAME.to_owned()),
    })
}

/// Where the user's data goes: `$XDG_DATA_HOME`, else `~/.local/share`.
#[cfg(all(target_os = "linux", feature = "wayland"))]
fn data_home() -> Result<std::path::PathBuf, Failure> {
    std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/share"))
        })
        .ok_or_else(|| Failure::usage("neither XDG_DATA_HOME nor HOME is set: set HOME"))
}

/// `cup setup gnome`: installs cup's GNOME Shell extension for the
/// installed GNOME Shell and enables it in `org.gnome.shell
/// enabled-extensions` (through `gsettings`); GNOME loads it at the next
/// login.
#[cfg(all(target_os = "linux", feature = "wayland"))]
fn setup_gnome() -> Result<ExitCode, Failure> {
    use cup_linux::setup;
    let major = gnome_shell_major()?;
    let dir = setup::install_gnome_extension(&data_home()?, major)
        .map_err(|e| Failure::usage(format!("cannot write cup's GNOME Shell extension: {e}")))?;
    let gsettings = |args: &[&str]| {
        std::process::Command::new("gsettings")
            .args(args)
            .output()
            .map_err(|e| {
                Failure::usage(format!(
                    "wrote {} but cannot run gsettings ({e}): install libglib2.0-bin, or enable {} with the Extensions app",
                    dir.display(),
                    setup::GNOME_EXTENSION_UUID
                ))
            })
    };
    let current = gsettings(&["get", "org.gnome.shell", "enabled-extensions"])?;
    let list = setup::with_gnome_extension_enabled(&String::from_utf8_lossy(&current.stdout))
        .map_err(|e| Failure::usage(format!("gsettings: {e}")))?;
    let set = gsettings(&["set", "org.gnome.shell", "enabled-extensions", &list])?;
    if !set.status.success() {
        return Err(Failure::usage(format!(
            "wrote {} but gsettings could not enable it: {}; enable {} with the Extensions app",
            dir.display(),
            String::from_utf8_lossy(&set.stderr).trim(),
            setup::GNOME_EXTENSION_UUID
        )));
    }
    crate::output::print(&format!(
        "wrote {} (GNOME Shell {major}) and enabled it; log out and back in: GNOME on Wayland loads a new extension at login\n",
        dir.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// `cup setup kde`: the desktop file that lets this cup (or `--exe`) use
/// KWin's fake input, in `$XDG_DATA_HOME/applications` (else
/// `~/.local/share/applications`); `cup setup gnome`: cup's GNOME Shell
/// extension.
#[cfg(all(target_os = "linux", feature = "wayland"))]
fn setup(args: &crate::cli::SetupArgs) -> Result<ExitCode, Failure> {
    if args.desktop == "gnome" {
        return setup_gnome();
    }
    let exe = match &args.exe {
        Some(p) => p.clone(),
        None => std::env::current_exe().map_err(|e| {
            Failure::usage(format!("cannot tell where this cup is: {e}; pass --exe"))
        })?,
    };
    let data_home = data_home()?;
    let file = cup_linux::setup::install_kde_desktop_file(&data_home, &exe).map_err(|e| {
        Failure::usage(format!(
            "cannot write the desktop file under {}: {e}",
            data_home.display()
        ))
    })?;
    crate::output::print(&format!(
        "wrote {}: KWin now offers its fake input and screenshots to {} (no restart needed unless KWin was asked before)\n",
        file.display(),
        exe.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// What a cup built without the `wayland` feature says to GNOME and KDE
/// set-up.
#[cfg(all(target_os = "linux", not(feature = "wayland")))]
const WITHOUT_WAYLAND: &str = "this cup was built for X11 only (without the cargo feature `wayland`): rebuild it with default features to set up or start a GNOME or KDE desktop";

/// `cup setup gnome|kde` in a cup built for X11 only.
#[cfg(all(target_os = "linux", not(feature = "wayland")))]
fn setup(_args: &crate::cli::SetupArgs) -> Result<ExitCode, Failure> {
    Err(Failure::usage(WITHOUT_WAYLAND))
}

/// cup's GNOME Shell extension, in a cup built for X11 only.
#[cfg(all(target_os = "linux", not(feature = "wayland")))]
pub(crate) fn gnome_extension() -> Result<cup_sandbox::ShellExtension, Failure> {
    Err(Failure::usage(WITHOUT_WAYLAND))
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Render(args) => render::run(&args),
        Command::Validate(args) => validate::run(&args.file),
        Command::Find(args) => find::run(&args),
        Command::Page(args) => page::run(&args),
        Command::Snapshot(args) => snapshot::run(&args),
        Command::Action(args) => act::action(&args),
        Command::Press(args) => act::press(&args),
        Command::Open(args) => act::open(&args),
        Command::Batch(args) => act::batch(&args),
        Command::Screenshot(args) => screenshot::run(&args),
        Command::Mcp(args) => mcp::run(&args),
        #[cfg(target_os = "linux")]
        Command::Serve(args) => crate::serve::run(&args),
        #[cfg(not(target_os = "linux"))]
        Command::Serve(_) => Err(Failure::usage(
            "cup serve needs Linux (Xvfb, D-Bus, AT-SPI); on this OS, use cup mcp --http",
        )),
        Command::Call(args) => call::run(&args),
        Command::Tool(words) => call::run_external(&words),
        Command::Web(command) => web::run(&command),
        #[cfg(target_os = "linux")]
        Command::Browser(command) => browser::run(&command),
        #[cfg(not(target_os = "linux"))]
        Command::Browser(_) => Err(Failure::usage(
            "cup browser start needs Linux so far; start Chromium with --remote-debugging-port and pass --cdp-port",
        )),
        #[cfg(target_os = "linux")]
        Command::Setup(args) => setup(&args),
        #[cfg(not(target_os = "linux"))]
        Command::Setup(_) => Err(Failure::usage(
            "cup setup is for KDE Plasma and GNOME on Linux; nothing to set up on this OS",
        )),
        #[cfg(target_os = "linux")]
        Command::Sandbox(command) => sandbox::run(&command),
        #[cfg(not(target_os = "linux"))]
        Command::Sandbox(_) => Err(Failure::usage(
            "cup sandbox needs Linux (Xvfb, D-Bus, AT-SPI); on this OS, capture the real desktop",
        )),
    }
}
