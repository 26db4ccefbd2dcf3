//! `cup find FILE [QUERY]`: ranked search over the envelope's full tree.

use std::process::ExitCode;

use cup_protocol::compact::format_line;
use cup_protocol::{find, FindQuery, State};

use crate::cli::FindArgs;
use crate::commands::Failure;
use crate::{input, output};

pub fn run(args: &FindArgs) -> Result<ExitCode, Failure> {
    let state = args
        .state
        .as_deref()
        .map(str::parse::<State>)
        .transpose()
        .map_err(|e| Failure::usage(format!("--state: {e}")))?;
    let query = FindQuery {
        query: args.query.clone(),
        role: args.role.clone(),
        name: args.name.clone(),
        state,
        limit: args.limit,
    };
    let (_, env) = input::envelope(&args.file)?;
    let matches = find(&env.tree, &query)
        .map_err(|e| Failure::usage(format!("{e} (e.g. cup find FILE \"save button\")")))?;
    if matches.is_empty() {
        output::print("# 0 matches\n")?;
        return Ok(ExitCode::from(1));
    }
    let mut text = format!(
        "# {} match{}\n\n",
        matches.len(),
        if matches.len() == 1 { "" } else { "es" }
    );
    for m in &matches {
        text.push_str(&format_line(m.node));
        text.push('\n');
    }
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
