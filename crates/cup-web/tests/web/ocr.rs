//! A page whose main content is drawn on a `<canvas>`: the canvas's text
//! is read from its pixels (page bounds, `(ocr)`) beside the page's own
//! tree, and a click on a line read so reaches the canvas's handler.

use crate::support::{nodes, Site, Web};
use cup_protocol::Role;

const PAGE: &str = r#"<!doctype html><html><head><title>Sales chart</title></head><body>
<h1>Sales report</h1>
<p>The figures below are drawn on a canvas.</p>
<canvas id=c width=520 height=230></canvas>
<button>Refresh</button>
<script>
const c = document.getElementById('c'), g = c.getContext('2d');
function draw(picked) {
  g.fillStyle = '#fff'; g.fillRect(0, 0, 520, 230);
  g.fillStyle = '#000'; g.font = '20px sans-serif';
  g.fillText('Quarterly revenue 2026', 20, 40);
  g.fillText('North region 1,250 units', 20, 90);
  g.fillText('South region 980 units', 20, 140);
  if (picked) g.fillText('Selected ' + picked, 20, 200);
}
draw('');
c.addEventListener('click', e => {
  const picked = e.offsetY < 115 && e.offsetY > 65 ? 'North' : 'South';
  draw(picked);
  document.title = 'picked ' + picked;
});
</script></body></html>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_canvas_is_read_from_its_pixels_beside_the_tree_and_clicked() {
    let site = Site::serve(&[("/chart.html", PAGE.to_owned())]);
    let mut web = Web::open(&site.url("/chart.html"));
    let snap = web
        .snapshot_until(|s| s.text.contains("North region"))
        .await;
    let all = nodes(&snap);
    // The page's own tree is there.
    assert!(
        all.iter()
            .any(|n| n.role == Role::Heading && n.name == "Sales report")
            && all
                .iter()
                .any(|n| n.role == Role::Button && n.name == "Refresh"),
        "{}",
        snap.text
    );
    // The canvas's lines, in reading order, inside the canvas's bounds.
    let canvas = all
        .iter()
        .find(|n| n.children.iter().any(|c| c.is_from_pixels()))
        .unwrap_or_else(|| panic!("no canvas read from pixels:\n{}", snap.text));
    let area = canvas
        .bounds
        .unwrap_or_else(|| panic!("the canvas has no bounds"));
    // Each line's words (a stray mark at a line's end is not a word).
    let lines: Vec<String> = canvas
        .children
        .iter()
        .map(|c| {
            c.name
                .split_whitespace()
                .map(|w| w.trim_end_matches(['.', ',', '\'', '`']))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(
        lines,
        [
            "Quarterly revenue 2026",
            "North region 1,250 units",
            "South region 980 units"
        ],
        "{}",
        snap.text
    );
    for line in &canvas.children {
        let b = line
            .bounds
            .unwrap_or_else(|| panic!("{line:?} has no bounds"));
        assert!(
            b.x >= area.x
                && b.y >= area.y
                && b.right() <= area.right()
                && b.bottom() <= area.bottom(),
            "{b:?} outside the canvas {area:?}"
        );
    }
    assert!(
        snap.text.contains("txt \"North region 1,250 units\"") && snap.text.contains("(ocr)"),
        "{}",
        snap.text
    );
    cup_protocol::compact::parse(&snap.text).unwrap_or_else(|e| panic!("it parses: {e}"));

    // A click on the North line: the page's handler picks North (the
    // page's title is the oracle) and cup sees the canvas change.
    let north = canvas
        .children
        .iter()
        .find(|c| c.name.starts_with("North"))
        .map(|c| c.id.clone())
        .unwrap_or_default();
    let clicked = web
        .session
        .action(&north, "click", &cup::ActionParams::default())
        .await
        .unwrap_or_else(|e| panic!("click: {e}"));
    let after = web
        .snapshot_until(|s| s.text.contains("picked North"))
        .await;
    assert!(after.text.contains("picked North"), "{}", after.text);
    assert_eq!(clicked.effect, cup::Effect::Confirmed, "{clicked:?}");
    assert!(
        clicked
            .changes
            .iter()
            .any(|c| c.after.as_deref() == Some("Selected North")),
        "{clicked:?}"
    );
}
