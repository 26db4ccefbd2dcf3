//! A synthetic dump for benchmarks and size tests: a settings-like list of
//! `rows` rows (a clickable row, an icon, a title, a summary and a
//! checkbox: 5 nodes each) in the androidx shape, all on a 1080x2400
//! screen — the worst case for the compact text's cap, since nothing is
//! off the screen to prune.

use std::fmt::Write as _;

/// The dump's XML (`5 * rows + 2` nodes).
pub fn long_list(rows: usize) -> String {
    let mut xml = String::from(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<hierarchy rotation=\"0\">\r\n  <node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"com.example.bench\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" enabled=\"true\" focusable=\"false\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\" password=\"false\" selected=\"false\" visible-to-user=\"true\" bounds=\"[0,0][1080,2400]\">\r\n    <node index=\"0\" text=\"\" resource-id=\"com.example.bench:id/list\" class=\"androidx.recyclerview.widget.RecyclerView\" package=\"com.example.bench\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" enabled=\"true\" focusable=\"true\" focused=\"false\" scrollable=\"true\" long-clickable=\"false\" password=\"false\" selected=\"false\" visible-to-user=\"true\" bounds=\"[0,0][1080,2400]\">\r\n",
    );
    let height = (2400 / rows.max(1)).max(1);
    for i in 0..rows {
        let top = (i * height).min(2399);
        let bottom = (top + height).min(2400);
        let node = |class: &str, text: &str, flags: &str, l: usize, r: usize| {
            format!(
                "<node index=\"0\" text=\"{text}\" resource-id=\"com.example.bench:id/x\" class=\"{class}\" package=\"com.example.bench\" content-desc=\"\" checkable=\"{c}\" checked=\"false\" clickable=\"{k}\" enabled=\"true\" focusable=\"false\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\" password=\"false\" selected=\"false\" visible-to-user=\"true\" bounds=\"[{l},{top}][{r},{bottom}]\"",
                c = flags.contains('c'),
                k = flags.contains('k'),
            )
        };
        let _ = write!(
            xml,
            "      {}>\r\n        {} />\r\n        {} />\r\n        {} />\r\n        {} />\r\n      </node>\r\n",
            node("android.widget.LinearLayout", "", "k", 0, 1080),
            node("android.widget.ImageView", "", "", 20, 100),
            node("android.widget.TextView", &format!("Setting number {i}"), "", 120, 700),
            node("android.widget.TextView", &format!("What setting {i} changes, in a line"), "", 120, 900),
            node("android.widget.CheckBox", "", "ck", 950, 1060),
        );
    }
    xml.push_str("    </node>\r\n  </node>\r\n</hierarchy>\r\n");
    xml
}
