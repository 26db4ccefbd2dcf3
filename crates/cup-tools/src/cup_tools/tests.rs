//! Unit tests of the page scripting seam: the `page` tool with an
//! `action`, driven through a scripted [`PageScripting`] (what it is asked,
//! what it answers), made once, on first use, by its maker.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use cup::page::{PageScript, PageScriptFuture, PageScripting};
use cup::AdapterError;
use serde_json::{json, Value};

use crate::{Block, Output, PageScriptingMaker, Profile, Toolbox};

type Calls = Arc<Mutex<Vec<(Option<String>, PageScript)>>>;

/// Page scripting that records what it is asked and answers the next of
/// its answers (an error once they run out).
struct Scripted {
    calls: Calls,
    answers: Mutex<Vec<Result<Value, AdapterError>>>,
}

impl PageScripting for Scripted {
    fn page_script<'a>(
        &'a self,
        target: Option<&'a str>,
        script: &'a PageScript,
    ) -> PageScriptFuture<'a> {
        Box::pin(async move {
            self.calls
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((target.map(str::to_owned), script.clone()));
            let mut answers = self.answers.lock().unwrap_or_else(PoisonError::into_inner);
            if answers.is_empty() {
                return Err(AdapterError::Platform("no answer scripted".into()));
            }
            answers.remove(0)
        })
    }
}

/// A toolbox whose page scripting answers `answers`; its calls, and how
/// many times it was made. No session: `page` with an action needs none.
fn toolbox(answers: Vec<Result<Value, AdapterError>>) -> (Toolbox, Calls, Arc<AtomicUsize>) {
    let calls: Calls = Arc::default();
    let made = Arc::new(AtomicUsize::new(0));
    let (c, m) = (Arc::clone(&calls), Arc::clone(&made));
    let slot = Mutex::new(Some(answers));
    let maker: PageScriptingMaker = Box::new(move || {
        m.fetch_add(1, Ordering::SeqCst);
        let answers = slot
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .ok_or_else(|| "made twice".to_owned())?;
        Ok(Box::new(Scripted {
            calls: Arc::clone(&c),
            answers: Mutex::new(answers),
        }) as Box<dyn PageScripting>)
    });
    let mut tb = Toolbox::new(
        Profile::Cup,
        Box::new(|| Err("no session in this test".into())),
    );
    tb.set_page_scripting(maker);
    (tb, calls, made)
}

fn call(tb: &mut Toolbox, args: Value) -> Output {
    let rt = crate::target::runtime().unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(tb.call("page", Some(args)))
}

fn text(out: &Output) -> &str {
    match out.blocks.as_slice() {
        [Block::Text(t)] => t,
        other => panic!("not one text block: {other:?}"),
    }
}

fn calls(calls: &Calls) -> Vec<(Option<String>, PageScript)> {
    calls.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

#[test]
fn page_actions_go_through_the_page_scripting_made_once() {
    let (mut tb, asked, made) = toolbox(vec![
        Ok(json!("Sent!")),
        Ok(json!([{"tag": "a", "innerText": "Home", "href": "/"}])),
        Ok(json!("all the text")),
    ]);
    assert_eq!(made.load(Ordering::SeqCst), 0, "made on first use only");

    let js = call(
        &mut tb,
        json!({"action": "execute_javascript", "javascript": "document.title", "page": "Shop"}),
    );
    assert!(!js.is_error, "{js:?}");
    assert_eq!(text(&js), "Sent!", "a string value is its text");

    let dom = call(
        &mut tb,
        json!({"action": "query_dom", "css_selector": "a[href]", "attributes": ["href"]}),
    );
    assert!(!dom.is_error, "{dom:?}");
    let shown: Value = serde_json::from_str(text(&dom)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        shown,
        json!([{"tag": "a", "innerText": "Home", "href": "/"}])
    );

    let all = call(&mut tb, json!({"action": "get_text"}));
    assert_eq!(text(&all), "all the text");

    assert_eq!(made.load(Ordering::SeqCst), 1);
    assert_eq!(
        calls(&asked),
        vec![
            (
                Some("Shop".to_owned()),
                PageScript::ExecuteJavascript("document.title".into())
            ),
            (
                None,
                PageScript::QueryDom {
                    selector: "a[href]".into(),
                    attributes: vec!["href".into()],
                }
            ),
            (None, PageScript::GetText),
        ]
    );
}

#[test]
fn page_script_errors_and_missing_arguments_are_error_results() {
    let thrown = AdapterError::Invalid("the page threw: boom".into());
    let (mut tb, asked, made) = toolbox(vec![Err(thrown.clone())]);

    // Arguments are checked before page scripting is made.
    let no_js = call(&mut tb, json!({"action": "execute_javascript"}));
    assert!(no_js.is_error);
    assert_eq!(
        text(&no_js),
        "page: execute_javascript needs `javascript`, e.g. \"document.title\""
    );
    let no_selector = call(&mut tb, json!({"action": "query_dom", "css_selector": " "}));
    assert_eq!(
        text(&no_selector),
        "page: query_dom needs `css_selector`, e.g. \"a[href]\""
    );
    assert_eq!(made.load(Ordering::SeqCst), 0);

    // The page's error, as the page scripting words it.
    let threw = call(
        &mut tb,
        json!({"action": "execute_javascript", "javascript": "throw new Error('boom')"}),
    );
    assert!(threw.is_error);
    assert_eq!(text(&threw), thrown.to_string());
    assert_eq!(calls(&asked).len(), 1);
}

#[test]
fn a_maker_that_fails_or_none_says_why() {
    let mut tb = Toolbox::new(Profile::Cup, Box::new(|| Err("no session".into())));
    let none = call(&mut tb, json!({"action": "get_text"}));
    assert!(none.is_error);
    assert_eq!(text(&none), crate::NO_PAGE_SCRIPTING);

    let why = "this desktop has no browser with page tools; start cup serve with --browser URL";
    tb.set_page_scripting(Box::new(move || Err(why.to_owned())));
    let failed = call(&mut tb, json!({"action": "get_text"}));
    assert!(failed.is_error);
    assert_eq!(text(&failed), why);
}
