//! Page scripting, as the driver tool `page` offers it: run JavaScript and
//! get its (JSON) value, get the page's text, or query the DOM with a CSS
//! selector for tags, text and chosen attributes. Errors thrown by the page
//! come back as errors with the page's message. The [`WebAdapter`] is
//! cup's [`PageScripting`] (the seam the tool layer scripts pages through).

use cup::page::{PageScriptFuture, PageScripting};
use cup::AdapterError;
use serde_json::{json, Value};

use crate::adapter::WebAdapter;
use crate::browser::Browser;
use crate::cdp::CdpError;

/// One page primitive (cup's, so that page scripting needs no web types).
pub use cup::page::PageScript;

/// Longest text of one element in `query_dom` results.
const MAX_ELEMENT_TEXT: usize = 2000;

fn page_error(e: CdpError) -> AdapterError {
    match e {
        CdpError::Protocol {
            message, method, ..
        } if method == "Runtime.evaluate" => {
            AdapterError::Invalid(format!("the page threw: {message}"))
        }
        other => crate::adapter::adapter_error(other),
    }
}

/// Runs `script` in page `page`.
///
/// # Errors
///
/// The page's exception (as [`AdapterError::Invalid`] with its message), a
/// bad request, or the browser's error.
pub async fn run(
    browser: &Browser,
    page: &str,
    script: &PageScript,
) -> Result<Value, AdapterError> {
    let expression = match script {
        PageScript::ExecuteJavascript(js) => {
            if js.trim().is_empty() {
                return Err(AdapterError::Invalid(
                    "execute_javascript needs javascript, e.g. \"document.title\"".into(),
                ));
            }
            js.clone()
        }
        PageScript::GetText => "document.body ? document.body.innerText : ''".to_owned(),
        PageScript::QueryDom {
            selector,
            attributes,
        } => {
            if selector.trim().is_empty() {
                return Err(AdapterError::Invalid(
                    "query_dom needs css_selector, e.g. \"table tr\"".into(),
                ));
            }
            format!(
                "Array.from(document.querySelectorAll({sel})).map(e => {{ const o = {{tag: e.tagName.toLowerCase(), innerText: (e.innerText || '').slice(0, {max})}}; for (const a of {attrs}) o[a] = e.getAttribute(a); return o; }})",
                sel = json!(selector),
                max = MAX_ELEMENT_TEXT,
                attrs = json!(attributes)
            )
        }
    };
    browser
        .evaluate(page, &expression)
        .await
        .map_err(page_error)
}

impl PageScripting for WebAdapter {
    /// [`WebAdapter::page_script`]: `target` is the page whose title, URL
    /// or target id contains it.
    fn page_script<'a>(
        &'a self,
        target: Option<&'a str>,
        script: &'a PageScript,
    ) -> PageScriptFuture<'a> {
        Box::pin(WebAdapter::page_script(self, target, script))
    }
}
