//! `cup action`, `cup press`, `cup open`, `cup batch`: act on the live
//! desktop and print what was observed.

use std::process::ExitCode;

use cup::{ActionParams, ActionResult, Direction, Effect, Session};

use crate::cli::{ActionArgs, BatchArgs, OpenArgs, PressArgs};
use crate::commands::Failure;
use crate::{input, last, output};

fn session() -> Result<Session, Failure> {
    Ok(Session::new(crate::platform::adapter()?))
}

fn failed(e: impl std::fmt::Display) -> Failure {
    Failure {
        code: 1,
        message: e.to_string(),
    }
}

use cup_tools::results::describe;

fn print_result(result: &ActionResult, json: bool) -> Result<ExitCode, Failure> {
    if json {
        let mut text = serde_json::to_string_pretty(result)
            .map_err(|e| Failure::usage(format!("cannot serialize the result: {e}")))?;
        text.push('\n');
        output::print(&text)?;
    } else {
        output::print(&describe(result))?;
    }
    Ok(if result.success && result.effect != Effect::NoChange {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub fn action(args: &ActionArgs) -> Result<ExitCode, Failure> {
    let params = ActionParams {
        value: args.value.clone(),
        direction: args
            .direction
            .as_deref()
            .map(|d| d.trim().to_ascii_lowercase().parse::<Direction>())
            .transpose()
            .map_err(|e| Failure::usage(format!("--direction: {e}")))?,
        amount: args.amount,
    };
    let mut session = session()?;
    session.restore(last::load()?);
    let runtime = crate::platform::runtime()?;
    let result = runtime
        .block_on(session.action(&args.id, &args.verb, &params))
        .map_err(failed)?;
    print_result(&result, args.json)
}

pub fn press(args: &PressArgs) -> Result<ExitCode, Failure> {
    let mut session = session()?;
    // With the last snapshot, the changes name its elements by id (keys
    // need no snapshot: without one they are named by role and name).
    if let Ok(snap) = last::load() {
        session.restore(snap);
    }
    let runtime = crate::platform::runtime()?;
    let result = runtime
        .block_on(session.press(&args.combo))
        .map_err(failed)?;
    print_result(&result, args.json)
}

pub fn open(args: &OpenArgs) -> Result<ExitCode, Failure> {
    let mut session = session()?;
    let runtime = crate::platform::runtime()?;
    let launched = runtime
        .block_on(session.open_app(&args.name))
        .map_err(failed)?;
    let result = ActionResult {
        success: launched.window.is_some(),
        message: format!(
            "{} launched (pid {}){}",
            launched.name,
            launched.pid,
            launched
                .window
                .as_ref()
                .map(|w| format!(", window \"{}\"", w.info.title))
                .unwrap_or_default()
        ),
        error: launched.window.is_none().then(|| {
            "no window appeared in time; check with cup snapshot --scope overview".to_owned()
        }),
        effect: if launched.window.is_some() {
            Effect::Confirmed
        } else {
            Effect::NoChange
        },
        changes: Vec::new(),
    };
    print_result(&result, args.json)
}

pub fn batch(args: &BatchArgs) -> Result<ExitCode, Failure> {
    let (label, text) = input::read(&args.file)?;
    let steps: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Failure::usage(format!(
            "{label}: not JSON ({e}); expected a list like [{{\"action\":\"click\",\"element_id\":\"e3\"}}]"
        ))
    })?;
    let steps = steps
        .as_array()
        .cloned()
        .ok_or_else(|| Failure::usage(format!("{label}: expected a JSON list of steps")))?;
    let mut session = session()?;
    if let Ok(snap) = last::load() {
        session.restore(snap);
    }
    let runtime = crate::platform::runtime()?;
    let results = runtime.block_on(session.batch(&steps));
    if let Some(snap) = session.last() {
        last::save(snap);
    }
    let mut json = serde_json::to_string_pretty(&results)
        .map_err(|e| Failure::usage(format!("cannot serialize the results: {e}")))?;
    json.push('\n');
    output::print(&json)?;
    let all_ok = results.len() == steps.len() && results.iter().all(|r| r.success);
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
