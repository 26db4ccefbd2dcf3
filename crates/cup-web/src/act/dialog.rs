//! JavaScript dialogs (alert, confirm, prompt) met by an action or a key.

use std::time::Duration;

use cup::{ActionResult, Change, Effect};

use crate::browser::Browser;

/// Waits until a JavaScript dialog is open on `page`.
pub(super) async fn opened_dialog(browser: &Browser, page: &str) -> String {
    loop {
        if let Some(d) = browser.dialog(page).await {
            return d;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

pub(super) fn dialog_opened(what: &str, dialog: &str) -> ActionResult {
    ActionResult::observed(
        format!("{what}: the page opened a JavaScript {dialog} dialog; press escape to dismiss it or enter to accept it"),
        Effect::Confirmed,
        vec![Change {
            target: "page".into(),
            field: "dialog".into(),
            before: None,
            after: Some(dialog.to_owned()),
        }],
    )
}

pub(super) fn dialog_closed(dialog: &str, accepted: bool) -> ActionResult {
    ActionResult::observed(
        format!(
            "{} the JavaScript {dialog} dialog",
            if accepted { "Accepted" } else { "Dismissed" }
        ),
        Effect::Confirmed,
        vec![Change {
            target: "page".into(),
            field: "dialog".into(),
            before: Some(dialog.to_owned()),
            after: None,
        }],
    )
}
