//! `cup render FILE|-`: compact text of an envelope.

use std::process::ExitCode;

use cup_protocol::compact::{render, render_overview, Detail, RenderOptions};
use cup_protocol::Scope;

use crate::cli::RenderArgs;
use crate::commands::Failure;
use crate::{input, output};

pub fn run(args: &RenderArgs) -> Result<ExitCode, Failure> {
    let detail: Detail = args
        .detail
        .parse()
        .map_err(|e| Failure::usage(format!("--detail: {e}")))?;
    let (_, env) = input::envelope(&args.file)?;
    let text = if env.scope == Some(Scope::Overview) && env.tree.is_empty() {
        render_overview(
            env.platform,
            &env.screen,
            env.windows.as_deref().unwrap_or_default(),
        )
    } else {
        render(
            &env,
            &RenderOptions {
                detail,
                max_chars: args.max_chars,
                notes: Vec::new(),
                bounds: !args.no_bounds,
            },
        )
    };
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
