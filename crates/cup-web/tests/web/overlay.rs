//! The page overlay of the visual layer in headless Chromium: the agent
//! cursor shows with its hotspot where it is put and moves, a highlight
//! frame shows its edges only, clicks pass through to the page, the host
//! is hidden from the page's script, it comes back after a reload, and
//! nothing is left of it once every layer is hidden.

use std::collections::HashMap;
use std::sync::Arc;

use crate::support::{Site, Web};
use cup::visual::{Layer, Overlay, Sprite};
use cup::{Adapter, Button, Gesture, Point, ShotTarget};
use cup_draw::arrow;
use cup_protocol::Rect;
use cup_web::{Endpoint, PageScript, WebAdapter};

const PAGE: &str = r#"<!doctype html><html><head><title>Overlay</title>
<style>html, body { margin: 0; background: #fff; }</style></head><body>
<button id="b" style="position:absolute; left:100px; top:100px; width:200px; height:80px; background:#fff; border:1px solid #fff; color:#fff"
 onclick="document.title = 'clicked'">Press</button>
<dialog id="d" style="position:fixed; left:600px; top:300px; margin:0; width:300px; height:200px; border:0; padding:0; background:#fff"></dialog>
</body></html>"#;

/// `expr` evaluated in the page's own (main) world.
async fn in_page(page: &WebAdapter, expr: &str) -> serde_json::Value {
    page.page_script(None, &PageScript::ExecuteJavascript(expr.to_owned()))
        .await
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// The viewport's pixels (RGB) and width.
struct Pixels {
    rgb: Vec<u8>,
    width: u32,
    height: u32,
}

impl Pixels {
    async fn take(adapter: &dyn Adapter) -> Pixels {
        let shot = adapter
            .screenshot(&ShotTarget::Screen)
            .await
            .unwrap_or_else(|e| panic!("screenshot: {e}"));
        let (rgb, width, height) = cup::image::rgb_from_png(&shot.png)
            .unwrap_or_else(|e| panic!("the screenshot does not decode: {e}"));
        Pixels { rgb, width, height }
    }

    fn at(&self, x: i64, y: i64) -> [u8; 3] {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return [0; 3];
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// Bounding box (x0, y0, x1, y1 inclusive) of the pixels `hit` picks.
    fn bbox(&self, hit: impl Fn([u8; 3]) -> bool) -> Option<(i64, i64, i64, i64)> {
        let mut b: Option<(i64, i64, i64, i64)> = None;
        for y in 0..i64::from(self.height) {
            for x in 0..i64::from(self.width) {
                if hit(self.at(x, y)) {
                    b = Some(match b {
                        None => (x, y, x, y),
                        Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
                    });
                }
            }
        }
        b
    }
}

fn magenta(p: [u8; 3]) -> bool {
    p[0] > 200 && p[1] < 90 && p[2] > 200
}

fn green(p: [u8; 3]) -> bool {
    p[0] < 60 && p[1] > 150 && p[2] < 60
}

/// Where the sprite's magenta pixels are (over white), relative to its
/// hotspot: x0, y0, x1, y1 inclusive.
fn magenta_of(s: &Sprite) -> (i64, i64, i64, i64) {
    let mut b: Option<(i64, i64, i64, i64)> = None;
    for y in 0..i64::from(s.height) {
        for x in 0..i64::from(s.width) {
            let [r, g, bl, a] = s.pixel(x, y);
            let over =
                |c: u8| ((u32::from(c) * u32::from(a) + 255 * (255 - u32::from(a))) / 255) as u8;
            if magenta([over(r), over(g), over(bl)]) {
                let (x, y) = (x - s.hot_x, y - s.hot_y);
                b = Some(match b {
                    None => (x, y, x, y),
                    Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
                });
            }
        }
    }
    b.unwrap_or_else(|| panic!("the sprite has no magenta"))
}

/// The sprite shows one to one in the screenshot's pixels, its hotspot at
/// `at`, and nothing else is magenta.
fn assert_cursor_at(px: &Pixels, at: Point, sprite: &Sprite, what: &str) {
    let (x0, y0, x1, y1) = px
        .bbox(magenta)
        .unwrap_or_else(|| panic!("{what}: no magenta in the screenshot"));
    let (sx0, sy0, sx1, sy1) = magenta_of(sprite);
    let want = (at.x + sx0, at.y + sy0, at.x + sx1, at.y + sy1);
    let near = |a: i64, b: i64| (a - b).abs() <= 1;
    assert!(
        near(x0, want.0) && near(y0, want.1) && near(x1, want.2) && near(y1, want.3),
        "{what}: magenta at {:?}, the sprite with its hotspot at {},{} would be at {want:?}",
        (x0, y0, x1, y1),
        at.x,
        at.y
    );
}

/// Waits until `expr` is true in the foreground page.
async fn until(page: &WebAdapter, expr: &str) {
    let started = std::time::Instant::now();
    while in_page(page, expr).await != serde_json::json!(true) {
        assert!(started.elapsed().as_secs() < 15, "never true: {expr}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overlay_draws_cursor_and_frame_and_leaves_nothing_when_hidden() {
    let site = Site::serve(&[("/o.html", PAGE.to_owned())]);
    let web = Web::open(&site.url("/o.html"));
    let page = WebAdapter::new(Endpoint::Http {
        host: "127.0.0.1".into(),
        port: web.browser.port(),
    });
    until(
        &page,
        "document.readyState === 'complete' && !!document.getElementById('b')",
    )
    .await;
    let adapter = web.session.adapter();
    let overlay: Arc<dyn Overlay> = adapter
        .overlay()
        .await
        .unwrap_or_else(|e| panic!("overlay: {e}"));
    let again = adapter
        .overlay()
        .await
        .unwrap_or_else(|e| panic!("overlay: {e}"));
    assert!(Arc::ptr_eq(&overlay, &again), "one overlay per adapter");
    let scale = overlay.scale();
    let screen = adapter
        .screen()
        .await
        .unwrap_or_else(|e| panic!("screen: {e}"));
    assert!(
        scale > 0.0 && (scale - screen.scale).abs() < 1e-9,
        "scale {scale} is not the page's devicePixelRatio {}",
        screen.scale
    );
    assert!(
        !overlay.attended().await,
        "a headless browser is unattended"
    );

    // Nothing shown yet: nothing in the page.
    let hosts = "document.querySelectorAll('cup-overlay').length";
    assert_eq!(in_page(&page, hosts).await, 0);
    let blank = Pixels::take(web.session.adapter()).await;
    assert!(blank.bbox(magenta).is_none(), "magenta before showing");

    let sprite = Arc::new(arrow(24.0 * scale, &[[255, 0, 255]], [255, 0, 255]));
    let dev = |x: f64, y: f64| Point::new((x * scale).round() as i64, (y * scale).round() as i64);
    let first = dev(400.0, 300.0);
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), first)
        .await
        .unwrap_or_else(|e| panic!("show: {e}"));
    assert_cursor_at(
        &Pixels::take(web.session.adapter()).await,
        first,
        &sprite,
        "shown",
    );

    // The host is the last element of the document, its shadow root
    // closed, and the overlay's script is not in the page's world.
    assert_eq!(in_page(&page, hosts).await, 1);
    assert_eq!(
        in_page(
            &page,
            "(() => { const h = document.documentElement.lastElementChild; return [h.localName, h.shadowRoot === null, typeof globalThis.__cupOverlay, getComputedStyle(h).pointerEvents]; })()"
        )
        .await,
        serde_json::json!(["cup-overlay", true, "undefined", "none"])
    );

    // Moved: at the new point, none left at the old one.
    let second = dev(700.0, 500.0);
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), second)
        .await
        .unwrap_or_else(|e| panic!("show again: {e}"));
    assert_cursor_at(
        &Pixels::take(web.session.adapter()).await,
        second,
        &sprite,
        "moved",
    );

    // A glide: 60 frames, the picture sent once, then only moved.
    let started = std::time::Instant::now();
    for i in 0..60 {
        overlay
            .show(
                Layer::Cursor,
                Arc::clone(&sprite),
                dev(100.0 + 10.0 * f64::from(i), 300.0),
            )
            .await
            .unwrap_or_else(|e| panic!("glide frame {i}: {e}"));
    }
    let glide = started.elapsed();
    assert!(glide.as_secs_f64() < 3.0, "60 frames took {glide:?}");
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), second)
        .await
        .unwrap_or_else(|e| panic!("show again: {e}"));

    // A frame: green edges, 3 px inside the rectangle, white middle.
    let r = Rect::new(dev(500.0, 100.0).x, dev(500.0, 100.0).y, 300, 200);
    overlay
        .frame(Layer::Highlight, r, [0, 200, 0], 3)
        .await
        .unwrap_or_else(|e| panic!("frame: {e}"));
    let px = Pixels::take(web.session.adapter()).await;
    let (w, h) = (r.w as i64, r.h as i64);
    for (x, y) in [
        (r.x, r.y + h / 2),
        (r.x + 2, r.y + h / 2),
        (r.x + w - 1, r.y + h / 2),
        (r.x + w / 2, r.y),
        (r.x + w / 2, r.y + h - 1),
        (r.x + w / 2, r.y + h - 3),
    ] {
        assert!(
            green(px.at(x, y)),
            "no green edge at {x},{y}: {:?}",
            px.at(x, y)
        );
    }
    for (x, y) in [
        (r.x + w / 2, r.y + h / 2),
        (r.x + 4, r.y + h / 2),
        (r.x - 1, r.y + h / 2),
        (r.x + w / 2, r.y + h),
    ] {
        assert!(!green(px.at(x, y)), "green off the edge at {x},{y}");
    }
    assert_eq!(
        px.bbox(green),
        Some((r.x, r.y, r.x + w - 1, r.y + h - 1)),
        "green beyond the rectangle"
    );
    assert_cursor_at(&px, second, &sprite, "with the frame");

    // The cursor over the button: a click there still reaches it.
    let on_button = dev(200.0, 140.0);
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), on_button)
        .await
        .unwrap_or_else(|e| panic!("show on the button: {e}"));
    assert_eq!(
        in_page(
            &page,
            &format!(
                "document.elementFromPoint({}, {}).id",
                on_button.x as f64 / scale + 3.0,
                on_button.y as f64 / scale + 3.0
            )
        )
        .await,
        "b",
        "the overlay is hit by the pointer"
    );
    adapter
        .input(
            &Gesture::Click {
                at: Point::new(on_button.x + 3, on_button.y + 3),
                button: Button::Left,
                count: 1,
                modifiers: Vec::new(),
            },
            &HashMap::new(),
        )
        .await
        .unwrap_or_else(|e| panic!("click: {e}"));
    assert_eq!(in_page(&page, "document.title").await, "clicked");

    // Every layer hidden: no host left, no colour in the screenshot.
    for layer in Layer::ALL {
        overlay
            .hide(layer)
            .await
            .unwrap_or_else(|e| panic!("hide {layer:?}: {e}"));
    }
    assert_eq!(in_page(&page, hosts).await, 0);
    assert_eq!(
        in_page(&page, "document.documentElement.lastElementChild.localName").await,
        "body"
    );
    let px = Pixels::take(web.session.adapter()).await;
    assert!(px.bbox(magenta).is_none(), "magenta left after hiding");
    assert!(px.bbox(green).is_none(), "green left after hiding");
    assert!(
        px.rgb == blank.rgb,
        "the page does not look as before the overlay"
    );

    // A reload ends the overlay's world: the next show makes it again.
    in_page(&page, "setTimeout(() => location.reload(), 0)").await;
    until(
        &page,
        "document.readyState === 'complete' && document.title === 'Overlay'",
    )
    .await;
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), first)
        .await
        .unwrap_or_else(|e| panic!("show after a reload: {e}"));
    assert_cursor_at(
        &Pixels::take(web.session.adapter()).await,
        first,
        &sprite,
        "after a reload",
    );
    overlay
        .hide(Layer::Cursor)
        .await
        .unwrap_or_else(|e| panic!("hide after a reload: {e}"));
    assert_eq!(in_page(&page, hosts).await, 0);
    assert!(Pixels::take(web.session.adapter())
        .await
        .bbox(magenta)
        .is_none());

    // Above a modal dialog (the page's top layer), opened before or after
    // the cursor shows, and still not in the way of the pointer.
    let on_dialog = dev(700.0, 350.0);
    in_page(&page, "document.getElementById('d').showModal()").await;
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), on_dialog)
        .await
        .unwrap_or_else(|e| panic!("show over a dialog: {e}"));
    assert_cursor_at(
        &Pixels::take(web.session.adapter()).await,
        on_dialog,
        &sprite,
        "over a modal dialog",
    );
    assert_eq!(
        in_page(
            &page,
            &format!(
                "document.elementFromPoint({}, {}).id",
                on_dialog.x as f64 / scale + 3.0,
                on_dialog.y as f64 / scale + 3.0
            )
        )
        .await,
        "d",
        "the overlay is hit by the pointer over the dialog"
    );
    in_page(&page, "document.getElementById('d').close()").await;
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), on_dialog)
        .await
        .unwrap_or_else(|e| panic!("show: {e}"));
    in_page(&page, "document.getElementById('d').showModal()").await;
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), on_dialog)
        .await
        .unwrap_or_else(|e| panic!("show over a dialog opened after: {e}"));
    assert_cursor_at(
        &Pixels::take(web.session.adapter()).await,
        on_dialog,
        &sprite,
        "over a modal dialog opened after it",
    );
    overlay
        .hide(Layer::Cursor)
        .await
        .unwrap_or_else(|e| panic!("hide: {e}"));
    assert_eq!(in_page(&page, hosts).await, 0);
}

/// Sets `page`'s device scale factor (kept while `adapter`'s connection
/// lives).
async fn emulate_dpr(adapter: &WebAdapter, page: &str, dpr: f64) {
    let browser = adapter
        .browser()
        .await
        .unwrap_or_else(|e| panic!("browser: {e}"));
    browser
        .call(
            page,
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": 1280, "height": 800, "deviceScaleFactor": dpr, "mobile": false}),
        )
        .await
        .unwrap_or_else(|e| panic!("Emulation.setDeviceMetricsOverride: {e}"));
}

/// The host elements in the page whose title is `title`.
async fn hosts_in(adapter: &WebAdapter, title: &str) -> serde_json::Value {
    adapter
        .page_script(
            Some(title),
            &PageScript::ExecuteJavascript(
                "document.querySelectorAll('cup-overlay').length".into(),
            ),
        )
        .await
        .unwrap_or_else(|e| panic!("{title}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overlay_in_device_pixels_follows_the_foreground_page() {
    let one = PAGE.replace("<title>Overlay</title>", "<title>One</title>");
    let two = PAGE.replace("<title>Overlay</title>", "<title>Two</title>");
    let site = Site::serve(&[("/1.html", one), ("/2.html", two)]);
    let mut web = Web::open(&site.url("/1.html"));
    let page = WebAdapter::new(Endpoint::Http {
        host: "127.0.0.1".into(),
        port: web.browser.port(),
    });
    until(&page, "document.readyState === 'complete'").await;
    let windows = web
        .session
        .adapter()
        .windows()
        .await
        .unwrap_or_else(|e| panic!("windows: {e}"));
    let first = windows
        .first()
        .map(|w| w.native.clone())
        .unwrap_or_else(|| panic!("no page"));
    emulate_dpr(&page, &first, 2.0).await;
    until(&page, "window.devicePixelRatio === 2").await;

    // The adapter whose session has the emulation (a screenshot takes the
    // scale of its own session).
    let overlay = page
        .overlay()
        .await
        .unwrap_or_else(|e| panic!("overlay: {e}"));
    assert_eq!(
        overlay.scale(),
        2.0,
        "the scale is the page's devicePixelRatio"
    );
    let sprite = Arc::new(arrow(24.0 * 2.0, &[[255, 0, 255]], [255, 0, 255]));
    // Device pixels: (901, 601) is CSS (450.5, 300.5).
    let at = Point::new(901, 601);
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), at)
        .await
        .unwrap_or_else(|e| panic!("show: {e}"));
    let px = Pixels::take(&page).await;
    let screen = page
        .screen()
        .await
        .unwrap_or_else(|e| panic!("screen: {e}"));
    assert_eq!(
        (i64::from(px.width), screen.scale),
        (screen.width, 2.0),
        "a screenshot in device pixels"
    );
    assert_cursor_at(&px, at, &sprite, "at device scale 2");
    let r = Rect::new(200, 300, 400, 100);
    overlay
        .frame(Layer::Focus, r, [0, 200, 0], 4)
        .await
        .unwrap_or_else(|e| panic!("frame: {e}"));
    assert_eq!(
        Pixels::take(&page).await.bbox(green),
        Some((200, 300, 599, 399)),
        "the frame in device pixels"
    );

    // A new tab comes to the front: the overlay moves there at its next
    // drawing and leaves the page behind.
    web.session
        .open_app(&site.url("/2.html"))
        .await
        .unwrap_or_else(|e| panic!("open: {e}"));
    let two_at = Point::new(300, 200);
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), two_at)
        .await
        .unwrap_or_else(|e| panic!("show on the new tab: {e}"));
    assert_eq!(hosts_in(&page, "Two").await, 1, "not drawn on the new tab");
    assert_eq!(hosts_in(&page, "One").await, 0, "left on the old tab");
    let px = Pixels::take(&page).await;
    assert_eq!(px.width, 1280);
    assert_cursor_at(&px, two_at, &sprite, "on the new tab");
    assert!(px.bbox(green).is_none(), "the old tab's frame came along");

    // Back to the first tab (at once: it hid the second).
    let browser = page
        .browser()
        .await
        .unwrap_or_else(|e| panic!("browser: {e}"));
    browser
        .call(&first, "Page.bringToFront", serde_json::json!({}))
        .await
        .unwrap_or_else(|e| panic!("Page.bringToFront: {e}"));
    until(&page, "document.title === 'One'").await;
    overlay
        .show(Layer::Cursor, Arc::clone(&sprite), at)
        .await
        .unwrap_or_else(|e| panic!("show on the first tab: {e}"));
    assert_eq!(hosts_in(&page, "One").await, 1, "not back on the first tab");
    assert_eq!(hosts_in(&page, "Two").await, 0, "left on the second tab");
    assert_cursor_at(&Pixels::take(&page).await, at, &sprite, "back");
    for layer in Layer::ALL {
        overlay
            .hide(layer)
            .await
            .unwrap_or_else(|e| panic!("hide {layer:?}: {e}"));
    }
    assert_eq!(hosts_in(&page, "One").await, 0);
    assert_eq!(hosts_in(&page, "Two").await, 0);
}
