//! `cup render FILE|-`: compact text of an envelope.

use std::process::ExitCode;

use cup_protocol::compact::{render, render_overview, Detail, RenderOptions, MIN_TOKENS};
use cup_protocol::Scope;

use crate::cli::RenderArgs;
use crate::commands::Failure;
use crate::{input, output};

pub fn run(args: &RenderArgs) -> Result<ExitCode, Failure> {
    let detail: Detail = args
        .detail
        .parse()
        .map_err(|e| Failure::usage(format!("--detail: {e}")))?;
    let tokens = match args.max_tokens {
        0 => None,
        n if n < MIN_TOKENS => {
            return Err(Failure::usage(format!(
                "--max-tokens {n} is too small: give at least {MIN_TOKENS} (or 0 for no budget)"
            )))
        }
        n => Some(cup::tokens::budget(n)),
    };
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
                tokens,
            },
        )
    };
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
