//! `cup web js|text|query`: page scripting in the browser the live
//! commands target (always the web, whatever --platform says).

use std::process::ExitCode;

use cup::page::PageScript;

use crate::cli::WebCommand;
use crate::commands::Failure;
use crate::output;

pub fn run(command: &WebCommand) -> Result<ExitCode, Failure> {
    let (script, page) = match command {
        WebCommand::Js(a) => (PageScript::ExecuteJavascript(a.javascript.clone()), &a.page),
        WebCommand::Text(a) => (PageScript::GetText, a),
        WebCommand::Query(a) => (
            PageScript::QueryDom {
                selector: a.selector.clone(),
                attributes: a.attributes.clone(),
            },
            &a.page,
        ),
    };
    let scripting = crate::platform::page_scripting()?;
    let runtime = crate::platform::runtime()?;
    let value = runtime
        .block_on(scripting.page_script(page.page.as_deref(), &script))
        .map_err(|e| Failure {
            code: 1,
            message: e.to_string(),
        })?;
    let text = match (&script, &value) {
        (PageScript::GetText, serde_json::Value::String(s)) => format!("{s}\n"),
        _ => format!(
            "{}\n",
            serde_json::to_string_pretty(&value)
                .map_err(|e| Failure::usage(format!("cannot print the value: {e}")))?
        ),
    };
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
