//! The agent cursor: glides along the motion's Bézier to where the agent is
//! about to act, draws a focus rectangle around the element and a ripple
//! on a click, rests for the dwell, and hides after the idle delay. It is
//! drawn only: the real pointer never moves for it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use cup_protocol::Rect;
use tokio::sync::Mutex;
use tokio::time::Instant;

use cup::visual::{Layer, Overlay, Sprite};
use cup::{AdapterError, Point};

use crate::motion::{ease, Path, Pt, Spring};
use crate::sprite;
use crate::CursorSettings;

/// Time between two frames (60 per second).
pub const FRAME: Duration = Duration::from_millis(16);
/// Height of the arrow at scale 1, pixels.
pub const ARROW_SIZE: f64 = 24.0;
/// Side of a cursor picture from a file at scale 1, pixels.
pub const IMAGE_SIZE: f64 = 32.0;
/// How long the click ripple grows and fades.
pub const RIPPLE: Duration = Duration::from_millis(320);
/// Steps of the rotation, degrees (turned pictures are kept per step).
const ANGLE_STEP: f64 = 3.0;
/// The arrow tilts at most this much toward its heading.
const MAX_TILT: f64 = std::f64::consts::FRAC_PI_3;

/// Where the cursor is and what it shows.
#[derive(Debug)]
struct State {
    /// Its position, once it has one.
    at: Option<Pt>,
    /// Its rotation.
    spring: Spring,
    /// The picture at rest and the style it was made from.
    base: Option<(String, Arc<Sprite>)>,
    /// Turned pictures by rotation step.
    turned: HashMap<i64, Arc<Sprite>>,
    /// Counts pointer actions: an idle hide armed before the latest one
    /// does nothing.
    generation: u64,
    /// On screen now.
    visible: bool,
}

/// The animated cursor over one platform overlay.
#[derive(Debug)]
pub struct AgentCursor {
    overlay: Arc<dyn Overlay>,
    state: Arc<Mutex<State>>,
    idle: StdMutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Drop for AgentCursor {
    fn drop(&mut self) {
        if let Ok(mut idle) = self.idle.lock() {
            if let Some(task) = idle.take() {
                task.abort();
            }
        }
    }
}

/// Shortest signed difference of two angles.
fn wrap(a: f64) -> f64 {
    (a + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI
}

impl AgentCursor {
    /// A cursor drawn by `overlay`.
    pub fn new(overlay: Arc<dyn Overlay>) -> AgentCursor {
        AgentCursor {
            overlay,
            state: Arc::new(Mutex::new(State {
                at: None,
                spring: Spring {
                    angle: 0.0,
                    velocity: 0.0,
                },
                base: None,
                turned: HashMap::new(),
                generation: 0,
                visible: false,
            })),
            idle: StdMutex::new(None),
        }
    }

    /// The overlay it draws on.
    pub fn overlay(&self) -> &Arc<dyn Overlay> {
        &self.overlay
    }

    /// Where the cursor is (after its last flight), if it has been shown.
    pub async fn position(&self) -> Option<Point> {
        let st = self.state.lock().await;
        st.at
            .map(|p| Point::new(p.x.round() as i64, p.y.round() as i64))
    }

    /// Whether it is on screen.
    pub async fn visible(&self) -> bool {
        self.state.lock().await.visible
    }

    /// The picture turned by `angle`, from the cache.
    fn picture(
        st: &mut State,
        settings: &CursorSettings,
        scale: f64,
        angle: f64,
    ) -> Result<Arc<Sprite>, AdapterError> {
        let style_key = format!("{:?}@{scale}", settings.style);
        if st.base.as_ref().is_none_or(|(k, _)| *k != style_key) {
            let size = if settings.style.image_path.is_empty() {
                ARROW_SIZE
            } else {
                IMAGE_SIZE
            } * scale;
            let base = settings.style.sprite(size).map_err(AdapterError::Invalid)?;
            st.base = Some((style_key, Arc::new(base)));
            st.turned.clear();
        }
        let base = st
            .base
            .as_ref()
            .map(|(_, b)| b.clone())
            .ok_or_else(|| AdapterError::Platform("no cursor picture".into()))?;
        let step = (angle.to_degrees() / ANGLE_STEP).round() as i64;
        if step == 0 {
            return Ok(base);
        }
        Ok(st
            .turned
            .entry(step)
            .or_insert_with(|| {
                Arc::new(sprite::rotate(
                    &base,
                    (step as f64 * ANGLE_STEP).to_radians(),
                ))
            })
            .clone())
    }

    fn cancel_idle(&self) {
        if let Ok(mut idle) = self.idle.lock() {
            if let Some(task) = idle.take() {
                task.abort();
            }
        }
    }

    /// Flies the cursor to `to` along the motion's Bézier (from where it
    /// is, else from `start`, else it appears at `to`), with a focus
    /// rectangle around `focus`. Returns when it has arrived.
    pub async fn glide(
        &self,
        settings: &CursorSettings,
        start: Option<Point>,
        to: Point,
        focus: Option<Rect>,
    ) -> Result<(), AdapterError> {
        self.cancel_idle();
        let scale = self.overlay.scale();
        let mut st = self.state.lock().await;
        st.generation += 1;
        let m = settings.motion;
        let target = Pt::new(to.x as f64, to.y as f64);
        let from = st
            .at
            .or(start.map(|p| Pt::new(p.x as f64, p.y as f64)))
            .unwrap_or(target);
        if let Some(r) = focus {
            let colour = settings.style.bloom().map_err(AdapterError::Invalid)?;
            let pad = (3.0 * scale).round() as i64;
            let grown = Rect::new(
                r.x - pad,
                r.y - pad,
                r.w + 2 * pad as u64,
                r.h + 2 * pad as u64,
            );
            self.overlay
                .frame(
                    Layer::Focus,
                    grown,
                    colour,
                    (2.0 * scale).round().max(1.0) as u32,
                )
                .await?;
        }
        let path = Path::new(from, target, &m);
        let duration = Duration::from_secs_f64(m.glide_duration_ms / 1000.0);
        let axis = sprite::arrow_axis();
        let started = Instant::now();
        let mut last = started;
        loop {
            let now = Instant::now();
            let s = if duration.is_zero() {
                1.0
            } else {
                now.duration_since(started).as_secs_f64() / duration.as_secs_f64()
            };
            let t = ease(s);
            let p = path.at(t);
            // The arrow tilts toward its heading (a picture turns fully).
            let tilt = match path.heading(t) {
                Some(h) if s < 1.0 => {
                    let want = wrap(h - axis);
                    if settings.style.image_path.is_empty() {
                        want.clamp(-MAX_TILT, MAX_TILT)
                    } else {
                        want
                    }
                }
                _ => 0.0,
            };
            let spring = m.spring;
            st.spring
                .step(tilt, spring, now.duration_since(last).as_secs_f64());
            last = now;
            let angle = st.spring.angle;
            let pic = Self::picture(&mut st, settings, scale, angle)?;
            self.overlay
                .show(
                    Layer::Cursor,
                    pic,
                    Point::new(p.x.round() as i64, p.y.round() as i64),
                )
                .await?;
            st.visible = true;
            st.at = Some(p);
            if s >= 1.0 {
                break;
            }
            let next = last + FRAME;
            tokio::time::sleep_until(next).await;
        }
        st.at = Some(target);
        Ok(())
    }

    /// After the action: the ripple (for a click), the rotation settling,
    /// the dwell (for a click), then the focus rectangle goes and the idle
    /// hide is armed.
    pub async fn after(
        &self,
        settings: &CursorSettings,
        clicked: bool,
    ) -> Result<(), AdapterError> {
        let scale = self.overlay.scale();
        let m = settings.motion;
        let colour = settings.style.bloom().map_err(AdapterError::Invalid)?;
        let mut st = self.state.lock().await;
        let at = st
            .at
            .map(|p| Point::new(p.x.round() as i64, p.y.round() as i64));
        let hold = if clicked {
            RIPPLE.max(Duration::from_secs_f64(m.dwell_after_click_ms / 1000.0))
        } else {
            Duration::ZERO
        };
        let started = Instant::now();
        let mut last = started;
        let mut rippling = clicked;
        while let Some(at) = at {
            let now = Instant::now();
            let elapsed = now.duration_since(started);
            st.spring
                .step(0.0, m.spring, now.duration_since(last).as_secs_f64());
            last = now;
            let angle = st.spring.angle;
            let pic = Self::picture(&mut st, settings, scale, angle)?;
            self.overlay.show(Layer::Cursor, pic, at).await?;
            if rippling {
                let k = elapsed.as_secs_f64() / RIPPLE.as_secs_f64();
                if k >= 1.0 {
                    self.overlay.hide(Layer::Ripple).await?;
                    rippling = false;
                } else {
                    let ring = sprite::ring(
                        (4.0 + 22.0 * ease(k)) * scale,
                        2.5 * scale,
                        colour,
                        1.0 - k * 0.7,
                    );
                    self.overlay.show(Layer::Ripple, Arc::new(ring), at).await?;
                }
            }
            let settled = st.spring.settled(0.0);
            if elapsed >= hold && !rippling && settled {
                break;
            }
            if elapsed >= hold + Duration::from_secs(1) {
                // A spring that keeps moving is not worth a longer wait.
                break;
            }
            tokio::time::sleep_until(last + FRAME).await;
        }
        if rippling {
            self.overlay.hide(Layer::Ripple).await?;
        }
        self.overlay.hide(Layer::Focus).await?;
        let generation = st.generation;
        drop(st);
        self.arm_idle(Duration::from_secs_f64(m.idle_hide_ms / 1000.0), generation);
        Ok(())
    }

    fn arm_idle(&self, after: Duration, generation: u64) {
        self.cancel_idle();
        let state = self.state.clone();
        let overlay = self.overlay.clone();
        let task = tokio::spawn(async move {
            tokio::time::sleep(after).await;
            let mut st = state.lock().await;
            if st.generation != generation {
                return;
            }
            if let Err(e) = hide_all(&*overlay).await {
                tracing::warn!(error = %e, "hiding the agent cursor failed");
            }
            st.visible = false;
        });
        if let Ok(mut idle) = self.idle.lock() {
            *idle = Some(task);
        }
    }

    /// Puts the cursor at `at` at once (the end of a drag).
    pub async fn place(&self, settings: &CursorSettings, at: Point) -> Result<(), AdapterError> {
        let scale = self.overlay.scale();
        let mut st = self.state.lock().await;
        let angle = st.spring.angle;
        let pic = Self::picture(&mut st, settings, scale, angle)?;
        self.overlay.show(Layer::Cursor, pic, at).await?;
        st.at = Some(Pt::new(at.x as f64, at.y as f64));
        st.visible = true;
        Ok(())
    }

    /// Takes everything off the screen now (disabled).
    pub async fn hide(&self) -> Result<(), AdapterError> {
        self.cancel_idle();
        let mut st = self.state.lock().await;
        st.generation += 1;
        st.visible = false;
        hide_all(&*self.overlay).await
    }

    /// Shows the outline of `rect` for `duration`, then takes it away.
    pub async fn highlight(
        &self,
        rect: Rect,
        colour: [u8; 3],
        duration: Duration,
    ) -> Result<(), AdapterError> {
        let thickness = (3.0 * self.overlay.scale()).round().max(1.0) as u32;
        self.overlay
            .frame(Layer::Highlight, rect, colour, thickness)
            .await?;
        tokio::time::sleep(duration).await;
        self.overlay.hide(Layer::Highlight).await
    }
}

/// Runs the pointer action `act` with the cursor around it, as every front
/// end does: with a cursor (on), it glides to `to` (framing `focus`),
/// `act` runs, then the ripple and dwell of a click (`clicked`) and the
/// idle hide, after a jump to `end` (a drag's last point); without one
/// (off), `act` runs alone. A drawing problem never stops the action: it
/// comes back as a note.
#[allow(clippy::too_many_arguments)]
pub async fn pointing<T>(
    cursor: Option<&AgentCursor>,
    settings: &CursorSettings,
    start: Option<Point>,
    to: Point,
    focus: Option<Rect>,
    clicked: bool,
    end: Option<Point>,
    act: impl std::future::Future<Output = T>,
) -> (T, Vec<String>) {
    let Some(cursor) = cursor else {
        return (act.await, Vec::new());
    };
    let mut notes = Vec::new();
    if let Err(e) = cursor.glide(settings, start, to, focus).await {
        notes.push(format!("# agent cursor not drawn: {e}"));
    }
    let out = act.await;
    if cursor.visible().await {
        if let Some(end) = end {
            if let Err(e) = cursor.place(settings, end).await {
                notes.push(format!("# agent cursor: {e}"));
            }
        }
        if let Err(e) = cursor.after(settings, clicked).await {
            notes.push(format!("# agent cursor: {e}"));
        }
    }
    (out, notes)
}

async fn hide_all(overlay: &dyn Overlay) -> Result<(), AdapterError> {
    let mut first = None;
    for layer in Layer::ALL {
        if let Err(e) = overlay.hide(layer).await {
            first.get_or_insert(e);
        }
    }
    first.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::Motion;
    use async_trait::async_trait;

    /// Records what it is asked to draw, with the time.
    #[derive(Debug, Default)]
    struct Recorder {
        calls: StdMutex<Vec<(Instant, String, Option<Point>)>>,
    }

    #[async_trait]
    impl Overlay for Recorder {
        async fn show(&self, layer: Layer, _s: Arc<Sprite>, at: Point) -> Result<(), AdapterError> {
            if let Ok(mut c) = self.calls.lock() {
                c.push((Instant::now(), format!("show {}", layer.name()), Some(at)));
            }
            Ok(())
        }
        async fn frame(
            &self,
            layer: Layer,
            r: Rect,
            _c: [u8; 3],
            _t: u32,
        ) -> Result<(), AdapterError> {
            if let Ok(mut c) = self.calls.lock() {
                c.push((
                    Instant::now(),
                    format!("frame {} {r:?}", layer.name()),
                    None,
                ));
            }
            Ok(())
        }
        async fn hide(&self, layer: Layer) -> Result<(), AdapterError> {
            if let Ok(mut c) = self.calls.lock() {
                c.push((Instant::now(), format!("hide {}", layer.name()), None));
            }
            Ok(())
        }
        async fn attended(&self) -> bool {
            false
        }
    }

    fn settings(glide: f64, dwell: f64, idle: f64) -> CursorSettings {
        CursorSettings {
            enabled: Some(true),
            motion: Motion {
                glide_duration_ms: glide,
                dwell_after_click_ms: dwell,
                idle_hide_ms: idle,
                ..Motion::default()
            },
            ..CursorSettings::default()
        }
    }

    // Time is tokio's paused clock: frames are paced by the clock, and a
    // loaded machine would drop them.
    #[tokio::test(start_paused = true)]
    async fn a_glide_follows_the_path_for_its_duration_then_ripples_dwells_and_hides() {
        let rec = Arc::new(Recorder::default());
        let cursor = AgentCursor::new(rec.clone());
        let s = settings(300.0, 200.0, 150.0);
        let started = Instant::now();
        cursor
            .glide(
                &s,
                Some(Point::new(100, 400)),
                Point::new(500, 400),
                Some(Rect::new(480, 390, 40, 20)),
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let glided = started.elapsed();
        assert!(
            glided >= Duration::from_millis(300) && glided < Duration::from_secs(3),
            "{glided:?}"
        );
        let path = Path::new(Pt::new(100.0, 400.0), Pt::new(500.0, 400.0), &s.motion);
        let calls = rec.calls.lock().map(|c| c.clone()).unwrap_or_default();
        assert!(
            calls[0]
                .1
                .starts_with("frame focus Rect { x: 477, y: 387, w: 46, h: 26"),
            "{:?}",
            calls[0]
        );
        let shown: Vec<Point> = calls
            .iter()
            .filter(|c| c.1 == "show cursor")
            .filter_map(|c| c.2)
            .collect();
        assert!(shown.len() >= 10, "{} frames", shown.len());
        for p in &shown {
            let (_, d) = path.nearest(Pt::new(p.x as f64, p.y as f64));
            assert!(d < 1.0, "{p:?} is {d} px off the path");
        }
        // It arcs: the middle frames are well above the straight line.
        assert!(shown.iter().any(|p| p.y < 360), "{shown:?}");
        assert_eq!(shown.last(), Some(&Point::new(500, 400)));
        assert_eq!(cursor.position().await, Some(Point::new(500, 400)));

        let t = Instant::now();
        cursor
            .after(&s, true)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            t.elapsed() >= Duration::from_millis(320),
            "{:?}",
            t.elapsed()
        );
        let calls = rec.calls.lock().map(|c| c.clone()).unwrap_or_default();
        assert!(calls.iter().any(|c| c.1 == "show ripple"));
        assert!(calls.iter().any(|c| c.1 == "hide focus"));
        assert!(cursor.visible().await);
        tokio::time::sleep(Duration::from_millis(700)).await;
        assert!(!cursor.visible().await, "hidden after idle_hide_ms");
        let calls = rec.calls.lock().map(|c| c.clone()).unwrap_or_default();
        assert!(calls.iter().rev().take(4).all(|c| c.1.starts_with("hide")));
    }

    #[tokio::test(start_paused = true)]
    async fn a_new_action_keeps_the_cursor_past_an_earlier_idle_hide() {
        let rec = Arc::new(Recorder::default());
        let cursor = AgentCursor::new(rec.clone());
        let s = settings(0.0, 0.0, 200.0);
        cursor.glide(&s, None, Point::new(10, 10), None).await.ok();
        cursor.after(&s, false).await.ok();
        tokio::time::sleep(Duration::from_millis(120)).await;
        cursor.glide(&s, None, Point::new(50, 10), None).await.ok();
        tokio::time::sleep(Duration::from_millis(150)).await;
        // 270 ms after the first action, 150 ms after the second: shown.
        assert!(cursor.visible().await);
        cursor.after(&s, false).await.ok();
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert!(!cursor.visible().await);
        cursor.hide().await.ok();
    }

    #[tokio::test]
    async fn a_bad_style_is_an_error_not_a_panic() {
        let cursor = AgentCursor::new(Arc::new(Recorder::default()));
        let mut s = settings(0.0, 0.0, 100.0);
        s.style.image_path = "/nonexistent/cursor.png".into();
        let e = cursor.glide(&s, None, Point::new(1, 1), None).await.err();
        assert!(matches!(e, Some(AdapterError::Invalid(m)) if m.contains("cannot read")));
    }
}
