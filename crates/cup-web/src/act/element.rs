//! A page element seen through CDP: its session, its JavaScript object, its
//! box, and the input that reaches it (pointer at its centre, keys).

use cup::AdapterError;
use serde_json::{json, Value};

use crate::adapter::adapter_error;
use crate::browser::Browser;
use crate::keys;

use super::observe::{ELEMENT_PROBE, PAGE_PROBE};

/// An element of a page: which target's session holds it, and its node.
pub(super) struct Element<'a> {
    pub(super) browser: &'a Browser,
    pub(super) page: String,
    pub(super) frame: String,
    pub(super) backend: i64,
}

pub(super) fn platform(e: impl std::fmt::Display) -> AdapterError {
    AdapterError::Platform(e.to_string())
}

impl Element<'_> {
    pub(super) async fn call(&self, method: &str, params: Value) -> Result<Value, AdapterError> {
        self.browser
            .call(&self.frame, method, params)
            .await
            .map_err(adapter_error)
    }

    pub(super) async fn object(&self) -> Result<String, AdapterError> {
        let r = self
            .call("DOM.resolveNode", json!({"backendNodeId": self.backend}))
            .await
            .map_err(|_| {
                AdapterError::NotFound(
                    "the element is gone from the page; take a new snapshot".to_owned(),
                )
            })?;
        r.get("object")
            .and_then(|o| o.get("objectId"))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| {
                AdapterError::NotFound("the element is gone; take a new snapshot".into())
            })
    }

    /// Calls `function` on the element with `args`; returns its value.
    pub(super) async fn run(&self, function: &str, args: &[Value]) -> Result<Value, AdapterError> {
        let object = self.object().await?;
        let arguments: Vec<Value> = args.iter().map(|a| json!({"value": a})).collect();
        let r = self
            .call(
                "Runtime.callFunctionOn",
                json!({"objectId": object, "functionDeclaration": function,
                       "arguments": arguments, "returnByValue": true, "awaitPromise": true}),
            )
            .await?;
        if let Some(text) = crate::cdp::exception_text(&r) {
            return Err(AdapterError::Platform(format!("the page threw: {text}")));
        }
        Ok(r.get("result")
            .and_then(|r| r.get("value"))
            .cloned()
            .unwrap_or(Value::Null))
    }

    pub(super) async fn state(&self) -> Value {
        self.run(ELEMENT_PROBE, &[])
            .await
            .unwrap_or_else(|_| json!({"connected": false}))
    }

    pub(super) async fn page_state(&self) -> Value {
        self.browser
            .evaluate(&self.page, PAGE_PROBE)
            .await
            .unwrap_or(Value::Null)
    }

    /// Scrolls the element into view and returns the centre of its first
    /// content quad (viewport CSS pixels of its frame).
    pub(super) async fn centre(&self) -> Result<(f64, f64), AdapterError> {
        let _ = self
            .call(
                "DOM.scrollIntoViewIfNeeded",
                json!({"backendNodeId": self.backend}),
            )
            .await;
        let quads = self
            .call("DOM.getContentQuads", json!({"backendNodeId": self.backend}))
            .await
            .map_err(|_| {
                AdapterError::Platform(
                    "the element has no box on the page (hidden or not rendered); it cannot be clicked"
                        .to_owned(),
                )
            })?;
        let quad = quads
            .get("quads")
            .and_then(Value::as_array)
            .and_then(|q| q.first())
            .and_then(Value::as_array)
            .ok_or_else(|| {
                AdapterError::Platform(
                    "the element has no visible box; it cannot be clicked".into(),
                )
            })?;
        let n = |i: usize| quad.get(i).and_then(Value::as_f64).unwrap_or(0.0);
        Ok((
            (n(0) + n(2) + n(4) + n(6)) / 4.0,
            (n(1) + n(3) + n(5) + n(7)) / 4.0,
        ))
    }

    pub(super) async fn mouse(
        &self,
        kind: &str,
        (x, y): (f64, f64),
        button: &str,
        clicks: u32,
        extra: Value,
    ) -> Result<(), AdapterError> {
        let mut params = json!({"type": kind, "x": x, "y": y, "button": button,
                                "clickCount": clicks, "pointerType": "mouse"});
        if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        self.call("Input.dispatchMouseEvent", params)
            .await
            .map(|_| ())
    }

    pub(super) async fn click(&self, button: &str, count: u32) -> Result<(), AdapterError> {
        let at = self.centre().await?;
        self.mouse("mouseMoved", at, "none", 0, json!({})).await?;
        for i in 1..=count {
            self.mouse("mousePressed", at, button, i, json!({})).await?;
            self.mouse("mouseReleased", at, button, i, json!({}))
                .await?;
        }
        Ok(())
    }

    pub(super) async fn key(
        &self,
        def: &keys::KeyDef,
        mask: i64,
        command: Option<&str>,
    ) -> Result<(), AdapterError> {
        let mut down = json!({
            "type": if def.text.is_some() { "keyDown" } else { "rawKeyDown" },
            "key": def.key, "code": def.code, "windowsVirtualKeyCode": def.vk,
            "nativeVirtualKeyCode": def.vk, "modifiers": mask, "location": def.location,
        });
        if let Some(t) = &def.text {
            down["text"] = json!(t);
            down["unmodifiedText"] = json!(t);
        }
        if let Some(c) = command {
            down["commands"] = json!([c]);
        }
        self.call("Input.dispatchKeyEvent", down).await?;
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": def.key, "code": def.code,
                   "windowsVirtualKeyCode": def.vk, "nativeVirtualKeyCode": def.vk,
                   "modifiers": mask, "location": def.location}),
        )
        .await
        .map(|_| ())
    }

    pub(super) async fn focus(&self) -> Result<(), AdapterError> {
        self.call("DOM.focus", json!({"backendNodeId": self.backend}))
            .await
            .map(|_| ())
    }
}
