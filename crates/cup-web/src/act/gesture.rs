//! Pixel-level gestures on a page (the driver tools' click at x,y, drag,
//! wheel, typed text) through CDP input events. Points are in the
//! snapshot's pixels (CSS pixels times the device pixel ratio) and are
//! converted to CSS pixels for the browser. Evidence: the element under the
//! point and the page are read before and polled after, as for element
//! actions; a gesture that opens a JavaScript dialog returns at once.

use cup::{ActionResult, AdapterError, Button, Effect, Gesture, Point};
use cup_protocol::{Combo, Direction, Key, Modifier, NamedKey};
use serde_json::{json, Value};

use super::dialog::{dialog_opened, opened_dialog};
use super::element::Element;
use super::observe::{diff_element, diff_page, observe};
use super::press_keys;
use crate::browser::Browser;
use crate::capture;
use crate::keys;

/// CSS pixels one wheel notch scrolls.
const NOTCH: f64 = 100.0;

fn button_name(b: Button) -> &'static str {
    match b {
        Button::Left => "left",
        Button::Middle => "middle",
        Button::Right => "right",
        Button::Back => "back",
        Button::Forward => "forward",
    }
}

/// The `buttons` bit mask of a held button.
fn button_bit(b: Button) -> i64 {
    match b {
        Button::Left => 1,
        Button::Right => 2,
        Button::Middle => 4,
        Button::Back => 8,
        Button::Forward => 16,
    }
}

struct Pointer<'a> {
    el: Element<'a>,
    dpr: f64,
}

impl Pointer<'_> {
    fn css(&self, p: Point) -> (f64, f64) {
        (p.x as f64 / self.dpr, p.y as f64 / self.dpr)
    }

    async fn mouse(
        &self,
        kind: &str,
        at: Point,
        button: &str,
        clicks: u32,
        extra: Value,
    ) -> Result<(), AdapterError> {
        self.el
            .mouse(kind, self.css(at), button, clicks, extra)
            .await
    }
}

/// The backend node of the element under the CSS point, if any.
async fn element_at(el: &Element<'_>, (x, y): (f64, f64)) -> Option<i64> {
    let r = el
        .call(
            "Runtime.evaluate",
            json!({"expression": format!("document.elementFromPoint({x}, {y})")}),
        )
        .await
        .ok()?;
    let object = r.get("result")?.get("objectId")?.as_str()?.to_owned();
    let d = el
        .call("DOM.describeNode", json!({"objectId": object}))
        .await
        .ok()?;
    d.get("node")?.get("backendNodeId")?.as_i64()
}

/// Performs `gesture` on page `page`; `last` is where the pointer was left
/// (the browser does not say), for gestures without a point.
pub(crate) async fn perform(
    browser: &Browser,
    page: &str,
    gesture: &Gesture,
    last: Option<Point>,
) -> Result<ActionResult, AdapterError> {
    let view = capture::viewport(browser, page)
        .await
        .map_err(crate::adapter::adapter_error)?;
    let dpr = if view.dpr > 0.0 { view.dpr } else { 1.0 };
    let page_el = Element {
        browser,
        page: page.to_owned(),
        frame: page.to_owned(),
        backend: 0,
    };
    let start = match gesture {
        Gesture::Click { at, .. } => Some(*at),
        Gesture::Down { at, .. } | Gesture::Up { at, .. } | Gesture::Scroll { at, .. } => {
            at.or(last)
        }
        Gesture::Drag { path, .. } => path.first().copied(),
        Gesture::Move { to } => Some(*to),
        Gesture::Type { .. } => None,
    };
    if let Some(p) = start {
        let (w, h) = (view.width * dpr, view.height * dpr);
        if p.x < 0 || p.y < 0 || p.x as f64 >= w || p.y as f64 >= h {
            return Err(AdapterError::Invalid(format!(
                "point {p} is outside the page's viewport (0,0 to {},{}); use coordinates from the snapshot or screenshot",
                w.round() as i64 - 1,
                h.round() as i64 - 1
            )));
        }
    }
    let backend = match start {
        Some(p) => element_at(&page_el, (p.x as f64 / dpr, p.y as f64 / dpr)).await,
        None => None,
    };
    let target = Element {
        browser,
        page: page.to_owned(),
        frame: page.to_owned(),
        backend: backend.unwrap_or(0),
    };
    let label = match (start, backend) {
        (Some(p), Some(_)) => format!("element at {p}"),
        _ => "page".to_owned(),
    };
    let before = if backend.is_some() {
        target.state().await
    } else {
        Value::Null
    };
    let page_before = page_el.page_state().await;
    let pointer = Pointer { el: page_el, dpr };
    let message = gesture.to_string();
    tokio::select! {
        r = run(&pointer, browser, page, gesture, last) => r?,
        d = opened_dialog(browser, page) => return Ok(dialog_opened(&message, &d)),
    }
    if let Some(d) = browser.dialog(page).await {
        return Ok(dialog_opened(&message, &d));
    }
    let (after, page_after) = if backend.is_some() {
        observe(&target, &before, &page_before, false).await
    } else {
        observe(&pointer.el, &Value::Null, &page_before, false).await
    };
    let mut changes = if backend.is_some() {
        diff_element(&label, &before, &after)
    } else {
        Vec::new()
    };
    changes.extend(diff_page(&page_before, &page_after));
    let effect = if !changes.is_empty() {
        Effect::Confirmed
    } else if matches!(gesture, Gesture::Move { .. }) {
        // Hover leaves no state the page exposes.
        Effect::Unverified
    } else {
        Effect::NoChange
    };
    Ok(ActionResult::observed(message, effect, changes))
}

async fn run(
    p: &Pointer<'_>,
    browser: &Browser,
    page: &str,
    gesture: &Gesture,
    last: Option<Point>,
) -> Result<(), AdapterError> {
    let here = |at: &Option<Point>| {
        at.or(last).ok_or_else(|| {
            AdapterError::Invalid(
                "the pointer has not been placed on this page yet; give x and y".into(),
            )
        })
    };
    match gesture {
        Gesture::Move { to } => p.mouse("mouseMoved", *to, "none", 0, json!({})).await,
        Gesture::Click {
            at,
            button,
            count,
            modifiers,
        } => {
            let mask = keys::modifier_mask(modifiers);
            let b = button_name(*button);
            p.mouse("mouseMoved", *at, "none", 0, json!({"modifiers": mask}))
                .await?;
            for i in 1..=u32::from(*count) {
                let extra = json!({"modifiers": mask, "buttons": button_bit(*button)});
                p.mouse("mousePressed", *at, b, i, extra).await?;
                p.mouse("mouseReleased", *at, b, i, json!({"modifiers": mask}))
                    .await?;
            }
            Ok(())
        }
        Gesture::Down { at, button } => {
            let at = here(at)?;
            let extra = json!({"buttons": button_bit(*button)});
            p.mouse("mousePressed", at, button_name(*button), 1, extra)
                .await
        }
        Gesture::Up { at, button } => {
            let at = here(at)?;
            p.mouse("mouseReleased", at, button_name(*button), 1, json!({}))
                .await
        }
        Gesture::Drag {
            path,
            button,
            duration,
            steps,
            modifiers,
        } => drag(p, path, *button, *duration, *steps, modifiers).await,
        Gesture::Scroll {
            at,
            direction,
            amount,
            modifiers,
        } => {
            let at = here(at)?;
            let d = NOTCH * f64::from(*amount);
            let (dx, dy) = match direction {
                Direction::Up => (0.0, -d),
                Direction::Down => (0.0, d),
                Direction::Left => (-d, 0.0),
                Direction::Right => (d, 0.0),
            };
            let extra =
                json!({"deltaX": dx, "deltaY": dy, "modifiers": keys::modifier_mask(modifiers)});
            p.mouse("mouseWheel", at, "none", 0, extra).await
        }
        Gesture::Type { text, delay } => type_text(p, browser, page, text, *delay).await,
    }
}

async fn drag(
    p: &Pointer<'_>,
    path: &[Point],
    button: Button,
    duration: std::time::Duration,
    steps: Option<u32>,
    modifiers: &[Modifier],
) -> Result<(), AdapterError> {
    let (Some(first), Some(last)) = (path.first(), path.last()) else {
        return Err(AdapterError::Invalid(
            "a drag needs at least two points".into(),
        ));
    };
    let mask = keys::modifier_mask(modifiers);
    let b = button_name(button);
    let held = json!({"modifiers": mask, "buttons": button_bit(button)});
    p.mouse("mouseMoved", *first, "none", 0, json!({"modifiers": mask}))
        .await?;
    p.mouse("mousePressed", *first, b, 1, held.clone()).await?;
    let points = interpolate(path, steps);
    let pause = duration / u32::try_from(points.len().max(1)).unwrap_or(u32::MAX);
    for q in &points {
        if !pause.is_zero() {
            // The pacing is the gesture itself (duration_ms).
            tokio::time::sleep(pause).await;
        }
        p.mouse("mouseMoved", *q, b, 0, held.clone()).await?;
    }
    p.mouse("mouseReleased", *last, b, 1, json!({"modifiers": mask}))
        .await
}

/// Points along `path`: `steps` in all, else about one per 10 px, at least
/// one per segment; the last point of the path is the last one.
fn interpolate(path: &[Point], steps: Option<u32>) -> Vec<Point> {
    let segments: Vec<(Point, Point)> = path.windows(2).map(|w| (w[0], w[1])).collect();
    let length =
        |(a, b): &(Point, Point)| (((b.x - a.x).pow(2) + (b.y - a.y).pow(2)) as f64).sqrt();
    let total: f64 = segments.iter().map(length).sum();
    let wanted = steps.map_or_else(|| (total / 10.0).ceil() as usize, |s| s as usize);
    let mut out = Vec::new();
    for seg in &segments {
        let share = if total > 0.0 {
            length(seg) / total
        } else {
            1.0 / segments.len() as f64
        };
        let n = ((wanted as f64 * share).round() as usize).max(1);
        let (a, b) = seg;
        for i in 1..=n {
            let t = i as f64 / n as f64;
            out.push(Point::new(
                a.x + ((b.x - a.x) as f64 * t).round() as i64,
                a.y + ((b.y - a.y) as f64 * t).round() as i64,
            ));
        }
    }
    out
}

/// Types `text` into the focused element: runs of plain characters as
/// inserted text, newlines as Enter, tabs as Tab.
async fn type_text(
    p: &Pointer<'_>,
    browser: &Browser,
    page: &str,
    text: &str,
    delay: std::time::Duration,
) -> Result<(), AdapterError> {
    let key = |k: NamedKey| Combo {
        modifiers: Vec::new(),
        keys: vec![Key::Named(k)],
    };
    let mut run = String::new();
    let flush = |run: &mut String| {
        let t = std::mem::take(run);
        async move {
            if t.is_empty() {
                return Ok(());
            }
            p.el.call("Input.insertText", json!({"text": t}))
                .await
                .map(|_| ())
        }
    };
    for (i, c) in text.chars().enumerate() {
        if !delay.is_zero() && i > 0 {
            flush(&mut run).await?;
            // Human-paced typing: the delay is the gesture.
            tokio::time::sleep(delay).await;
        }
        match c {
            '\n' => {
                flush(&mut run).await?;
                press_keys(browser, page, &key(NamedKey::Enter)).await?;
            }
            '\t' => {
                flush(&mut run).await?;
                press_keys(browser, page, &key(NamedKey::Tab)).await?;
            }
            c => run.push(c),
        }
    }
    flush(&mut run).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_walked_in_small_steps_ending_on_the_last_point() {
        let path = [Point::new(0, 0), Point::new(100, 0), Point::new(100, 50)];
        let pts = interpolate(&path, None);
        assert_eq!(pts.len(), 15);
        assert_eq!(pts.last(), Some(&Point::new(100, 50)));
        assert!(pts.contains(&Point::new(100, 0)));
        assert_eq!(interpolate(&path, Some(2)).len(), 2);
    }
}
