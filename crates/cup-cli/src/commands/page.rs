//! `cup page FILE ID`: items of a container that the snapshot's viewport hid.

use std::process::ExitCode;

use cup_protocol::compact::{page, PageRequest};
use cup_protocol::Direction;

use crate::cli::PageArgs;
use crate::commands::Failure;
use crate::{input, output};

pub fn run(args: &PageArgs) -> Result<ExitCode, Failure> {
    let direction = args
        .direction
        .as_deref()
        .map(str::parse::<Direction>)
        .transpose()
        .map_err(|e| Failure::usage(format!("--direction: {e}")))?;
    let (_, env) = input::envelope(&args.file)?;
    let req = PageRequest {
        direction,
        offset: args.offset,
        limit: args.limit,
        ..PageRequest::default()
    };
    let p = page(&env, &args.id, &req, None).map_err(|e| Failure {
        code: 1,
        message: e.to_string(),
    })?;
    output::print(&p.text)?;
    Ok(ExitCode::SUCCESS)
}
