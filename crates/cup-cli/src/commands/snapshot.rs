//! `cup snapshot`: capture the live desktop.

use std::process::ExitCode;
use std::time::Duration;

use cup::{CaptureLimits, Session, SnapshotRequest};
use cup_protocol::compact::Detail;
use cup_protocol::Scope;

use crate::cli::SnapshotArgs;
use crate::commands::Failure;
use crate::output;

pub fn run(args: &SnapshotArgs) -> Result<ExitCode, Failure> {
    let scope: Scope = args
        .scope
        .parse()
        .map_err(|e| Failure::usage(format!("--scope: {e}")))?;
    let detail: Detail = args
        .detail
        .parse()
        .map_err(|e| Failure::usage(format!("--detail: {e}")))?;
    if args.app.is_some() && scope != Scope::Full {
        return Err(Failure::usage(
            "--app filters windows of --scope full; add --scope full",
        ));
    }
    let req = SnapshotRequest {
        scope,
        app: args.app.clone(),
        detail,
        max_chars: args.max_chars,
        max_tokens: args.max_tokens,
        ocr: args.ocr.parse().map_err(Failure::usage)?,
        limits: CaptureLimits {
            max_depth: args.depth,
            max_nodes: args.max_nodes,
            deadline: Duration::from_millis(args.deadline_ms),
        },
        since: args.since.clone(),
        bounds: !args.no_bounds,
    };
    let mut session = Session::new(crate::platform::adapter()?);
    if args.since.is_some() {
        session.restore(crate::last::load()?);
    }
    if args.native_dump.is_some() {
        session.adapter().record_native(true);
    }
    let runtime = crate::platform::runtime()?;
    let snap = runtime
        .block_on(session.snapshot(&req))
        .map_err(|e| Failure {
            code: 1,
            message: e.to_string(),
        })?;
    crate::last::save(snap);
    if args.json {
        let mut json = serde_json::to_string_pretty(&snap.envelope)
            .map_err(|e| Failure::usage(format!("cannot serialize the envelope: {e}")))?;
        json.push('\n');
        output::print(&json)?;
    } else {
        output::print(&snap.text)?;
    }
    if let Some(file) = &args.native_dump {
        let dump = session.adapter().native_dump().ok_or_else(|| {
            Failure::usage(format!(
                "--native-dump: the {} adapter recorded no native facts for this capture (it records them on Linux, Windows and the web, for the foreground, full and desktop scopes)",
                session.adapter().platform().name()
            ))
        })?;
        let mut text = serde_json::to_string_pretty(&dump)
            .map_err(|e| Failure::usage(format!("--native-dump: cannot serialize: {e}")))?;
        text.push('\n');
        std::fs::write(file, text).map_err(|e| {
            Failure::usage(format!(
                "--native-dump: cannot write {}: {e}",
                file.display()
            ))
        })?;
    }
    Ok(ExitCode::SUCCESS)
}
