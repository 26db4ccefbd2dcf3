//! Actions on what was read from pixels ([`crate::ocr`]): no element is
//! behind such text, so the pointer and the keyboard act, and the effect
//! is judged from the pixels themselves.
//!
//! - A click on a line read from pixels is a pointer click at its centre.
//!   The pointer goes there first and the region is taken once its hover
//!   drawing has settled, so that a highlight under the pointer is not
//!   taken for the click's effect. After the click: a change the adapter
//!   saw in the tree, else a change in the region's pixels (read again:
//!   the lines that appeared and went are the changes), else `no_change`.
//! - `type` on a window read from pixels focuses it, types with the
//!   keyboard and reads the window again: `confirmed` when the typed text
//!   is read back, `unverified` when the pixels changed but the text was
//!   not read, `no_change` when nothing changed.

use std::time::{Duration, Instant};

use cup_protocol::{Action, Node, PlatformId, Rect};

use crate::action::{ActionParams, ActionResult, Change, Effect, Target};
use crate::adapter::ShotTarget;
use crate::image::RgbShot;
use crate::input::{Button, Gesture, Point};
use crate::session::{Session, SessionError};

/// How long the pixels may take to settle (hover drawing, a redraw after
/// keys): two equal shots in a row end the wait sooner.
const SETTLE: Duration = Duration::from_millis(400);
/// How long a change in the pixels is waited for after keys (a click has
/// already waited for the tree in the adapter).
const TYPED_WAIT: Duration = Duration::from_millis(1_500);
/// Between two shots of a region while waiting.
const POLL: Duration = Duration::from_millis(15);

/// What the pixel path needs of the element acted on, copied out of the
/// snapshot.
pub(crate) struct PixelTarget {
    pub(crate) id: String,
    /// The text itself (a line read from pixels) or the window whose
    /// lines were read.
    pub(crate) node: Node,
    /// The region the lines were read from (a canvas's or the window's
    /// bounds), and its id.
    pub(crate) region: Rect,
    pub(crate) region_id: String,
    /// The window's snapshot id and native reference (to focus it).
    pub(crate) window: Node,
    pub(crate) window_native: String,
}

/// Whether the platform has a pointer that can hover (a phone's touch
/// screen has none).
fn has_pointer(platform: PlatformId) -> bool {
    !matches!(platform, PlatformId::Android | PlatformId::Ios)
}

/// Whether an action on `node` goes through the pixels: any action on a
/// line read from pixels, and `type` on an element whose lines were read
/// from pixels.
pub(crate) fn is_pixel_action(node: &Node, verb: Action) -> bool {
    node.is_from_pixels()
        || (verb == Action::Type && node.children.iter().any(Node::is_from_pixels))
}

impl Session {
    /// Performs `verb` on `target` through the pointer or the keyboard and
    /// judges its effect from the pixels.
    pub(crate) async fn act_on_pixels(
        &mut self,
        target: PixelTarget,
        verb: Action,
        params: &ActionParams,
    ) -> Result<ActionResult, SessionError> {
        match verb {
            Action::Type => self.type_on_pixels(target, params).await,
            _ => self.click_on_pixels(target).await,
        }
    }

    async fn click_on_pixels(&mut self, target: PixelTarget) -> Result<ActionResult, SessionError> {
        let at = target
            .node
            .bounds
            .map(|b| {
                let (x, y) = b.center();
                Point::new(x, y)
            })
            .ok_or_else(|| crate::ActionError::BadParams(format!("{} has no bounds", target.id)))?;
        // The pointer first: what it draws on hover is not the click. (A
        // touch screen has no pointer: its tap is the whole click.)
        if has_pointer(self.adapter.platform()) {
            self.input(&Gesture::Move { to: at }).await?;
        }
        let before = self.settled(target.region, None).await;
        let mut result = self
            .input(&Gesture::Click {
                at,
                button: Button::Left,
                count: 1,
                modifiers: Vec::new(),
            })
            .await?;
        let Some(before) = before else {
            return Ok(result);
        };
        // The adapter waited for the tree; the pixels now tell the rest
        // (and, where the tree changed too, what the region shows now).
        let Some(after) = self.settled(target.region, Some(&before)).await else {
            return Ok(result);
        };
        if after.rgb == before.rgb {
            if result.effect != Effect::Confirmed {
                result.effect = Effect::NoChange;
                result.message = format!(
                    "{}; the region's pixels did not change",
                    result.message.trim_end_matches('.')
                );
            }
            return Ok(result);
        }
        let (old, new) = (self.texts(before).await, self.texts(after).await);
        result.effect = Effect::Confirmed;
        let region_id = target.region_id.clone();
        result.changes.extend(line_changes(&region_id, &old, &new));
        let lines = result
            .changes
            .iter()
            .filter(|c| c.target == region_id && c.field == "text")
            .count();
        result.message = format!(
            "{}; the region's pixels changed{}",
            result.message.trim_end_matches('.'),
            if lines == 0 {
                String::new()
            } else {
                format!(" ({lines} line(s) of text)")
            }
        );
        Ok(result)
    }

    async fn type_on_pixels(
        &mut self,
        target: PixelTarget,
        params: &ActionParams,
    ) -> Result<ActionResult, SessionError> {
        let text = params.value.clone().unwrap_or_default();
        if target.node.is_from_pixels() {
            // A line: the pointer puts the keyboard there.
            self.click_at(&target.node).await?;
        } else {
            // The window: focus it (the pointer stays where it is).
            let refs = self
                .last
                .as_ref()
                .map(|l| l.refs.clone())
                .unwrap_or_default();
            let window = Target {
                id: &target.window.id,
                native: &target.window_native,
                node: &target.window,
                window: &target.window,
            };
            if let Err(e) = self
                .adapter
                .act(&window, Action::Focus, &ActionParams::default(), &refs)
                .await
            {
                tracing::debug!("focusing {} before typing: {e}", target.window.id);
            }
            // Where keyboard focus follows the pointer (an X server without
            // a window manager), the pointer must be over the window too.
            // (A phone's keys go to its focused field.)
            let inside = !has_pointer(self.adapter.platform())
                || self.cursor().await.is_ok_and(|p| {
                    let r = target.region;
                    p.x >= r.x && p.y >= r.y && p.x < r.right() && p.y < r.bottom()
                });
            if !inside {
                let (x, y) = target.region.center();
                self.input(&Gesture::Move {
                    to: Point::new(x, y),
                })
                .await?;
            }
        }
        let before = self.settled(target.region, None).await;
        let typed = self
            .input(&Gesture::Type {
                text: text.clone(),
                delay: Duration::ZERO,
            })
            .await?;
        let mut after = None;
        if let Some(before) = &before {
            let started = Instant::now();
            while started.elapsed() < TYPED_WAIT {
                match self.shot(target.region).await {
                    Some(now) if now.rgb != before.rgb => {
                        after = self.settled(target.region, Some(&now)).await.or(Some(now));
                        break;
                    }
                    Some(_) => tokio::time::sleep(POLL).await,
                    None => break,
                }
            }
        }
        let chars = text.chars().count();
        let Some(after) = after else {
            let mut result = ActionResult::observed(
                format!("Typed {chars} character(s) with the keyboard; the window's pixels did not change"),
                Effect::NoChange,
                typed.changes,
            );
            if before.is_none() {
                result.effect = Effect::Unverified;
                result.message = format!(
                    "Typed {chars} character(s) with the keyboard; the window's pixels could not be read"
                );
            }
            return Ok(result);
        };
        let old = match before {
            Some(b) => self.texts(b).await,
            None => Vec::new(),
        };
        let new = self.texts(after).await;
        let mut changes = line_changes(&target.region_id, &old, &new);
        changes.extend(typed.changes);
        Ok(match read_back(&text, &new) {
            Some(line) => ActionResult::observed(
                format!("Typed {chars} character(s) with the keyboard; read back from the pixels: {line:?}"),
                Effect::Confirmed,
                changes,
            ),
            None => ActionResult::observed(
                format!(
                    "Typed {chars} character(s) with the keyboard; the window's pixels changed but the text was not read back (take a snapshot or a screenshot to see it)"
                ),
                Effect::Unverified,
                changes,
            ),
        })
    }

    /// A pointer click at `node`'s centre (no effect judged: the keys that
    /// follow are).
    async fn click_at(&mut self, node: &Node) -> Result<(), SessionError> {
        if let Some(b) = node.bounds {
            let (x, y) = b.center();
            self.input(&Gesture::Click {
                at: Point::new(x, y),
                button: Button::Left,
                count: 1,
                modifiers: Vec::new(),
            })
            .await?;
        }
        Ok(())
    }

    /// The region's pixels, or None when they cannot be taken.
    async fn shot(&self, region: Rect) -> Option<RgbShot> {
        match self
            .adapter
            .screenshot_rgb(&ShotTarget::Region(region))
            .await
        {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::debug!("reading the pixels of {region:?}: {e}");
                None
            }
        }
    }

    /// The region once two shots in a row are equal (or [`SETTLE`] has
    /// passed), starting from `from` when a shot was just taken.
    async fn settled(&self, region: Rect, from: Option<&RgbShot>) -> Option<RgbShot> {
        let started = Instant::now();
        let mut last = match from {
            Some(s) => self.shot(region).await.or_else(|| Some(s.clone()))?,
            None => self.shot(region).await?,
        };
        while started.elapsed() < SETTLE {
            tokio::time::sleep(POLL).await;
            let now = self.shot(region).await?;
            if now.rgb == last.rgb {
                return Some(now);
            }
            last = now;
        }
        Some(last)
    }

    /// The lines of text in `shot` (none when the reader cannot run).
    async fn texts(&self, shot: RgbShot) -> Vec<String> {
        match self.ocr.read_shot(shot).await {
            Ok(lines) => lines.into_iter().map(|(l, _)| l.text).collect(),
            Err(e) => {
                tracing::debug!("reading text from pixels: {e}");
                Vec::new()
            }
        }
    }
}

/// Text as compared with what was read: lower case, without spaces
/// (Tesseract's spacing is not the typist's).
fn squeezed(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The line of `lines` that shows what was typed: each typed line (Return
/// splits them) read somewhere, the last one's line returned. None when
/// some typed line is not read.
pub(crate) fn read_back(typed: &str, lines: &[String]) -> Option<String> {
    let wanted: Vec<String> = typed
        .lines()
        .map(squeezed)
        .filter(|s| !s.is_empty())
        .collect();
    if wanted.is_empty() {
        return None;
    }
    let mut found = None;
    for w in &wanted {
        found = Some(lines.iter().find(|l| squeezed(l).contains(w.as_str()))?);
    }
    found.cloned()
}

/// The lines that went (`before` only) and appeared (`after` only), as
/// `text` changes of `region` (the window's id).
pub(crate) fn line_changes(region: &str, before: &[String], after: &[String]) -> Vec<Change> {
    let mut changes: Vec<Change> = before
        .iter()
        .filter(|l| !after.contains(l))
        .map(|l| Change {
            target: region.to_owned(),
            field: "text".into(),
            before: Some(l.clone()),
            after: None,
        })
        .collect();
    changes.extend(
        after
            .iter()
            .filter(|l| !before.contains(l))
            .map(|l| Change {
                target: region.to_owned(),
                field: "text".into(),
                before: None,
                after: Some(l.clone()),
            }),
    );
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn typed_text_is_read_back_despite_spacing_and_case() {
        let lines = v(&["Name:", "hello  Cup", "Place order"]);
        assert_eq!(read_back("hello cup", &lines), Some("hello  Cup".into()));
        assert_eq!(read_back("goodbye", &lines), None);
        assert_eq!(read_back("", &lines), None);
        // Each typed line must be read; the last one's line is returned.
        let term = v(&["$ echo cup-42", "cup-42", "$"]);
        assert_eq!(
            read_back("echo cup-42\n", &term),
            Some("$ echo cup-42".into())
        );
        assert_eq!(read_back("echo cup-42\nls\n", &term), None);
    }

    #[test]
    fn lines_that_went_and_appeared_are_the_changes() {
        let c = line_changes("e1", &v(&["Ready", "OK"]), &v(&["Clicked", "OK"]));
        assert_eq!(c.len(), 2);
        assert_eq!(
            (c[0].before.as_deref(), c[0].after.as_deref()),
            (Some("Ready"), None)
        );
        assert_eq!(
            (c[1].before.as_deref(), c[1].after.as_deref()),
            (None, Some("Clicked"))
        );
        assert!(c.iter().all(|c| c.target == "e1" && c.field == "text"));
        assert!(line_changes("e1", &v(&["a"]), &v(&["a"])).is_empty());
    }

    #[test]
    fn pixel_actions_are_lines_and_typing_into_read_windows() {
        let mut line = Node::new("e5", cup_protocol::Role::Text, "OK");
        line.mark_from_pixels(PlatformId::Linux, 90.0);
        let mut window = Node::new("e1", cup_protocol::Role::Window, "Tk");
        assert!(!is_pixel_action(&window, Action::Type));
        window.children.push(line.clone());
        assert!(is_pixel_action(&line, Action::Click));
        assert!(is_pixel_action(&window, Action::Type));
        assert!(!is_pixel_action(&window, Action::Click));
    }
}
