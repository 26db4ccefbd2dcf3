//! Page scripting, a seam of its own: run JavaScript, get the text or
//! query the DOM of a browser tab and get a JSON value back
//! ([`PageScripting`], the [`PageScript`]s it runs). It is not part of
//! [`Adapter`](crate::Adapter): the tools script a browser's pages
//! whatever adapter their session uses. The web adapter implements it; the
//! tool layer holds a `Box<dyn PageScripting>` its front end makes.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use crate::adapter::AdapterError;

/// How a snapshot's note begins when the page it read was still loading
/// (`document.readyState` not yet `complete`): what it shows may be half
/// a page. `wait` with `until: "load"` waits until a snapshot has no such
/// note.
pub const LOADING_NOTE: &str = "the page is still loading";

/// One page primitive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageScript {
    /// Run JavaScript; its value (awaited if a promise) is returned as JSON.
    ExecuteJavascript(String),
    /// `document.body.innerText`.
    GetText,
    /// `querySelectorAll(selector)`: tag, innerText and `attributes` of
    /// each match.
    QueryDom {
        /// CSS selector.
        selector: String,
        /// Attributes to include.
        attributes: Vec<String>,
    },
}

/// A page script's answer on its way: its JSON value, or why there is
/// none.
pub type PageScriptFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Value, AdapterError>> + Send + 'a>>;

/// Runs page scripts in the tabs of a browser.
///
/// One method, its future boxed by hand (no macro): an implementation is
/// `Box::pin(async move { ... })`.
pub trait PageScripting: Send + Sync {
    /// Runs `script` in the tab whose title, URL or id contains `target`,
    /// else in the foreground tab, and returns its value as JSON.
    ///
    /// # Errors
    ///
    /// No such tab, the page's exception ([`AdapterError::Invalid`] with
    /// its message), a script without what it needs, or the browser's
    /// error.
    fn page_script<'a>(
        &'a self,
        target: Option<&'a str>,
        script: &'a PageScript,
    ) -> PageScriptFuture<'a>;
}
