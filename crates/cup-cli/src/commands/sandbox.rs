//! `cup sandbox start|run|env|stop`: a private headless desktop kept
//! between invocations through a state file.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use cup_sandbox::{LaunchOptions, Sandbox, SandboxOptions};

use crate::cli::{
    SandboxCommand, SandboxHoldPointerArgs, SandboxRunArgs, SandboxStartArgs, SandboxStateArg,
};
use crate::commands::Failure;
use crate::output;

/// Environment variable naming the state file.
const STATE_ENV: &str = "CUP_SANDBOX_STATE";

pub fn run(command: &SandboxCommand) -> Result<ExitCode, Failure> {
    match command {
        SandboxCommand::Start(args) => start(args),
        SandboxCommand::Run(args) => launch(args),
        SandboxCommand::Env(args) => env(args),
        SandboxCommand::Stop(args) => stop(args),
        SandboxCommand::HoldPointer(args) => hold_pointer(args),
    }
}

fn state_path(arg: &SandboxStateArg) -> PathBuf {
    crate::state_file::path(arg.state.as_ref(), STATE_ENV, "cup-sandbox")
}

fn sandbox_error(e: cup_sandbox::SandboxError) -> Failure {
    Failure {
        code: 1,
        message: e.to_string(),
    }
}

/// `WIDTHxHEIGHT` (each side 64..16384).
pub fn parse_size(size: &str) -> Result<(u32, u32), Failure> {
    let bad = || {
        Failure::usage(format!(
            "--size {size:?}: expected WIDTHxHEIGHT, e.g. 1920x1080"
        ))
    };
    let (w, h) = size.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(64..=16384).contains(&w) || !(64..=16384).contains(&h) {
        return Err(Failure::usage(format!(
            "--size {size}: each side must be 64..16384 pixels"
        )));
    }
    Ok((w, h))
}

/// The shell lines that point a program at the sandbox: `unset` for the
/// variables it must not inherit, `export` for its own.
pub fn env_lines(sandbox: &Sandbox) -> String {
    let mut out = String::new();
    let env = sandbox.env();
    for name in cup_sandbox::REMOVED_ENV {
        if !env.iter().any(|(set, _)| set == name) {
            out.push_str(&format!("unset {name}\n"));
        }
    }
    for (name, value) in &env {
        out.push_str(&format!("export {name}={}\n", shell_quote(value)));
    }
    out
}

fn exports(sandbox: &Sandbox, path: &std::path::Path) -> String {
    let mut out = env_lines(sandbox);
    out.push_str(&format!(
        "export {STATE_ENV}={}\n",
        shell_quote(&path.to_string_lossy())
    ));
    out
}

fn shell_quote(value: &str) -> String {
    if !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/:=,._-+@%".contains(&b))
    {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

fn start(args: &SandboxStartArgs) -> Result<ExitCode, Failure> {
    let path = state_path(&args.state);
    let (width, height) = parse_size(&args.size)?;
    if path.exists() {
        match Sandbox::attach(&path) {
            Ok(running) => {
                return Err(Failure::usage(format!(
                    "a sandbox already runs on {} (state {}); use it (`cup sandbox env`) or end it with `cup sandbox stop`",
                    running.location(),
                    path.display()
                )))
            }
            Err(_) => {
                // A dead sandbox's leftovers: clean them up, then start anew.
                Sandbox::stop_from_file(&path).map_err(sandbox_error)?;
            }
        }
    }
    // `--compositor` (kept for scripts) names it too; it wins.
    let compositor = args
        .compositor
        .as_deref()
        .or(args.wayland.as_deref())
        .unwrap_or("sway");
    let options = SandboxOptions {
        width,
        height,
        with_window_manager: args.wm,
        wayland: args.wayland.is_some(),
        compositor: match compositor {
            "kwin" | "kde" => cup_sandbox::Compositor::KWin,
            "gnome" => cup_sandbox::Compositor::Gnome,
            _ => cup_sandbox::Compositor::Sway,
        },
        shell_extensions: if compositor == "gnome" && !args.without_extension {
            vec![super::gnome_extension()?]
        } else {
            Vec::new()
        },
        ..SandboxOptions::default()
    };
    let held = (options.wayland
        && matches!(
            options.compositor,
            cup_sandbox::Compositor::KWin | cup_sandbox::Compositor::Gnome
        ))
    .then_some(options.compositor);
    let mut sandbox = Sandbox::start(options).map_err(sandbox_error)?;
    if let Some(compositor) = held {
        if let Err(e) = keep_pointer(&mut sandbox, compositor) {
            // Nothing left half-done.
            let _ = sandbox.stop();
            return Err(e);
        }
    }
    if let Err(e) = sandbox.save(&path) {
        // Nothing left half-done: without a state file nobody could stop it.
        let _ = sandbox.stop();
        return Err(sandbox_error(e));
    }
    sandbox.detach();
    eprintln_status(&format!(
        "cup: sandbox on {} ({}x{}{}); state in {}; apps: cup sandbox run -- APP; end: cup sandbox stop",
        sandbox.location(),
        width,
        height,
        if args.wm {
            ", openbox"
        } else if args.wayland.is_some() {
            match compositor {
                "kwin" | "kde" => ", kwin",
                "gnome" if args.without_extension => ", gnome without cup's extension",
                "gnome" => ", gnome",
                _ => ", sway",
            }
        } else {
            ""
        },
        path.display()
    ));
    output::print(&exports(&sandbox, &path))?;
    Ok(ExitCode::SUCCESS)
}

/// Gives a headless KWin or GNOME desktop input devices that outlive each
/// command, as a desktop with a mouse and a keyboard has: this cup holds
/// them for the desktop's life (KWin: a fake-input device, allowed in the
/// desktop's home, see `cup_linux::setup::hold_kde_pointer`; GNOME: a
/// remote-desktop session's keyboard and pointer, see
/// `cup_linux::setup::hold_input`).
#[cfg(feature = "wayland")]
fn keep_pointer(sandbox: &mut Sandbox, compositor: cup_sandbox::Compositor) -> Result<(), Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::usage(format!("cannot tell where this cup is: {e}")))?;
    let args: Vec<std::ffi::OsString> = if compositor == cup_sandbox::Compositor::Gnome {
        vec!["sandbox".into(), "hold-pointer".into(), "--gnome".into()]
    } else {
        vec![
            "sandbox".into(),
            "hold-pointer".into(),
            "--data-home".into(),
            sandbox.home().join(".local/share").into_os_string(),
        ]
    };
    sandbox
        .start_service("pointer", &exe, &args, Duration::from_secs(30))
        .map(|_| ())
        .map_err(sandbox_error)
}

/// Without the `wayland` feature cup does not drive KWin or GNOME: no
/// devices to keep.
#[cfg(not(feature = "wayland"))]
fn keep_pointer(_: &mut Sandbox, _: cup_sandbox::Compositor) -> Result<(), Failure> {
    Ok(())
}

/// `cup sandbox hold-pointer`: allows this cup KWin's fake input in
/// `--data-home`, holds a device, prints one line when it has it, and
/// returns when KWin goes away.
#[cfg(feature = "wayland")]
fn hold_pointer(args: &SandboxHoldPointerArgs) -> Result<ExitCode, Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::usage(format!("cannot start the async runtime: {e}")))?;
    if args.gnome {
        let mut printed = Ok(());
        let why = runtime.block_on(cup_linux::setup::hold_input(
            cup_linux::Desktop::from_env(),
            || {
                printed = output::print("cup: holding a remote-desktop keyboard and pointer\n");
            },
        ));
        printed?;
        return Err(Failure::usage(format!("cannot hold GNOME's input: {why}")));
    }
    let Some(data_home) = &args.data_home else {
        return Err(Failure::usage(
            "hold-pointer: give --data-home (KWin) or --gnome",
        ));
    };
    let exe = std::env::current_exe()
        .map_err(|e| Failure::usage(format!("cannot tell where this cup is: {e}")))?;
    cup_linux::setup::install_kde_desktop_file(data_home, &exe).map_err(|e| {
        Failure::usage(format!(
            "cannot write the desktop file under {}: {e}",
            data_home.display()
        ))
    })?;
    let socket = std::env::var_os("WAYLAND_DISPLAY")
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| Failure::usage("WAYLAND_DISPLAY is not set: run this inside the sandbox"))?;
    let mut printed = Ok(());
    let why = runtime.block_on(cup_linux::setup::hold_kde_pointer(&socket, || {
        printed = output::print("cup: holding KWin's fake-input pointer\n");
    }));
    printed?;
    tracing::info!(%why, "the pointer is no longer held");
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "wayland"))]
fn hold_pointer(_: &SandboxHoldPointerArgs) -> Result<ExitCode, Failure> {
    Err(Failure::usage(
        "this cup was built without the `wayland` feature: it does not drive KWin",
    ))
}

fn launch(args: &SandboxRunArgs) -> Result<ExitCode, Failure> {
    let path = state_path(&args.state);
    let sandbox = Sandbox::attach(&path).map_err(sandbox_error)?;
    let Some((program, rest)) = args.command.split_first() else {
        return Err(Failure::usage(
            "cup sandbox run: name the app after --, e.g. cup sandbox run -- gtk3-widget-factory",
        ));
    };
    let options = LaunchOptions::with_timeout(Duration::from_secs(args.timeout.max(1)));
    let app = sandbox
        .launch_with(program, rest, &options)
        .map_err(sandbox_error)?;
    sandbox.save(&path).map_err(sandbox_error)?;
    output::print(&format!(
        "{} pid {} on {} (accessibility name {:?}, bus {}); log {}\n",
        app.program,
        app.pid,
        sandbox.location(),
        app.name,
        app.bus_name,
        app.log.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn env(args: &SandboxStateArg) -> Result<ExitCode, Failure> {
    let path = state_path(args);
    let sandbox = Sandbox::attach(&path).map_err(sandbox_error)?;
    output::print(&exports(&sandbox, &path))?;
    Ok(ExitCode::SUCCESS)
}

fn stop(args: &SandboxStateArg) -> Result<ExitCode, Failure> {
    let path = state_path(args);
    Sandbox::stop_from_file(&path).map_err(sandbox_error)?;
    eprintln_status(&format!(
        "cup: sandbox stopped ({} removed)",
        path.display()
    ));
    Ok(ExitCode::SUCCESS)
}

fn eprintln_status(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
