//! The recorder's part of a tool call: what it notes before the call runs
//! (the elements the arguments name, the point a click aims at, the time)
//! and the turn it writes after.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

use serde_json::Value;

use super::{
    element_ids, iso8601, locate_all, look, write_turn, Locator, Look, Recorded, Turn, CLICKS,
};
use crate::{Args, Block, Output, Toolbox};

/// A call being recorded.
pub struct Pending {
    tool: String,
    arguments: Value,
    elements: BTreeMap<String, Locator>,
    click_point: Option<[i64; 2]>,
    called_at: SystemTime,
}

impl Pending {
    /// Notes what a replay needs before `tool` runs with `arguments`
    /// (`args`, read): the elements its ids name in the latest snapshot (the
    /// session is made if needed: `cup call` restores that snapshot into
    /// it) and, for a click, the point it aims at (zoom pixels turned into
    /// screen ones, else its element's centre).
    pub fn before(tb: &mut Toolbox, tool: &str, arguments: Value, args: &Args<'_>) -> Pending {
        let elements = if element_ids(&arguments).is_empty() {
            BTreeMap::new()
        } else {
            tb.session()
                .ok()
                .and_then(|s| s.last())
                .map(|s| locate_all(s, &arguments))
                .unwrap_or_default()
        };
        let click_point = if CLICKS.contains(&tool) {
            match tb.point(args, "x", "y") {
                Ok(Some(p)) => Some([p.x, p.y]),
                _ => args
                    .str("element_id")
                    .ok()
                    .flatten()
                    .and_then(|id| element_centre(tb, &id)),
            }
        } else {
            None
        };
        Pending {
            tool: tool.to_owned(),
            arguments,
            elements,
            click_point,
            called_at: SystemTime::now(),
        }
    }

    /// Writes the turn, with a look at the foreground window after the
    /// call; a failure to write is added to `out` (the call itself was
    /// made).
    pub async fn after(self, tb: &mut Toolbox, dir: &Path, elapsed_ms: f64, out: &mut Output) {
        let req = tb.base_request();
        let look = match tb.session() {
            Ok(session) => look(session, &req).await,
            Err(e) => Look {
                text: None,
                png: None,
                origin: (0, 0),
                error: Some(e.0),
            },
        };
        let turn = Turn {
            tool: self.tool,
            arguments: self.arguments,
            elements: self.elements,
            result: Recorded::of(out),
            timestamp: iso8601(self.called_at),
            elapsed_ms,
            state_error: look.error.clone(),
            click_point: self.click_point,
            screenshot_origin: None,
        };
        match write_turn(dir, &turn, &look) {
            Ok(folder) => tracing::debug!(folder = %folder.display(), "turn recorded"),
            Err(e) => out.blocks.push(Block::Text(format!(
                "# recording: the call was made but its turn could not be written into {}: {e}; fix the directory or set_recording elsewhere",
                dir.display()
            ))),
        }
    }
}

/// The centre of element `id` of the latest snapshot, if it has bounds.
fn element_centre(tb: &Toolbox, id: &str) -> Option<[i64; 2]> {
    let snap = tb.existing_session()?.last()?;
    let b = snap
        .envelope
        .tree
        .iter()
        .flat_map(cup_protocol::Node::iter)
        .find(|n| n.id == id)?
        .bounds?;
    let half = |v: u64| i64::try_from(v / 2).unwrap_or(0);
    Some([b.x + half(b.w), b.y + half(b.h)])
}
