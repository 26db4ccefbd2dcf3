//! LibreOffice Writer tasks on a three-paragraph report, a flat ODF text
//! file (`.fodt`: LibreOffice saves it as it is, with no format question),
//! which the oracle reads as XML.

use serde_json::json;

use super::agent::{Agent, Found};
use super::calc::libreoffice;
use super::oracle::{odf_blocks, poll_file, OdfBlock};
use super::{Ctx, Launch, Task};

const PARAGRAPHS: [&str; 3] = [
    "Quarterly report",
    "Sales grew by twelve percent this quarter.",
    "Costs stayed flat.",
];
const ADDED: &str = "Approved by the board.";

fn prepare(ctx: &mut Ctx) -> Result<Launch, String> {
    let body: String = PARAGRAPHS
        .iter()
        .map(|p| format!("<text:p>{p}</text:p>\n"))
        .collect();
    let fodt = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<office:document xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.3\" office:mimetype=\"application/vnd.oasis.opendocument.text\">\n<office:body><office:text>\n{body}</office:text></office:body></office:document>\n"
    );
    let path = ctx.dir.join("report.fodt");
    std::fs::write(&path, fodt).map_err(|e| format!("{}: {e}", path.display()))?;
    libreoffice(ctx, "writer", &path)
}

/// Waits for the document; its paragraphs (the text lines of the
/// document element), in order.
fn paragraphs(agent: &mut Agent) -> Result<Vec<Found>, String> {
    agent.wait_for(PARAGRAPHS[0], 60_000)?;
    let text = agent.snapshot()?;
    let lines = Found::all(&text);
    let doc = lines
        .iter()
        .position(|f| f.role == "doc")
        .ok_or_else(|| format!("no document in the window:\n{text}"))?;
    let indent = |f: &Found| text_indent(&text, &f.id);
    let depth = indent(&lines[doc]);
    Ok(lines[doc + 1..]
        .iter()
        .take_while(|f| indent(f) > depth)
        .filter(|f| matches!(f.role.as_str(), "txt" | "hdg") && indent(f) == depth + 2)
        .cloned()
        .collect())
}

/// The indentation of element `id`'s line in a compact text.
fn text_indent(text: &str, id: &str) -> usize {
    let tag = format!("[{id}]");
    text.lines()
        .find(|l| l.trim_start().starts_with(&tag))
        .map_or(0, |l| l.len() - l.trim_start().len())
}

/// Selects paragraph `n` (0-based) of the document.
fn select_paragraph(agent: &mut Agent, n: usize) -> Result<(), String> {
    let paras = paragraphs(agent)?;
    let p = paras.get(n).ok_or_else(|| {
        format!(
            "the document shows {} paragraphs, not {}",
            paras.len(),
            n + 1
        )
    })?;
    agent.act(&p.id, "select", None)?;
    Ok(())
}

/// Ctrl+S (a flat ODF file is saved as it is, with no question; the
/// oracle waits for the file to say what it should).
fn save(agent: &mut Agent) -> Result<(), String> {
    agent.press("ctrl+s")?;
    Ok(())
}

fn saved(ctx: &Ctx, judge: impl Fn(&[OdfBlock]) -> Result<(), String>) -> Result<(), String> {
    poll_file(&ctx.dir.join("report.fodt"), |bytes| {
        judge(&odf_blocks(bytes)?)
    })
}

fn bold_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    select_paragraph(agent, 1)?;
    let bold = agent.find_one(json!({"name": "Bold", "role": "button"}), Some("btn"))?;
    let done = agent.act(&bold.id, "click", None)?;
    if !done.contains("+checked") {
        return Err(format!("Bold did not turn on: {done}"));
    }
    save(agent)
}

fn bold_check(ctx: &Ctx) -> Result<(), String> {
    saved(ctx, |blocks| {
        let bold: Vec<bool> = blocks.iter().map(|b| b.bold).collect();
        (bold == [false, true, false] && blocks.get(1).is_some_and(|b| b.text == PARAGRAPHS[1]))
            .then_some(())
            .ok_or_else(|| format!("bold paragraphs: {bold:?} in {blocks:?}"))
    })
}

/// The text box inside the "Paragraph Style" box, in a new snapshot.
fn style_field(agent: &mut Agent) -> Result<String, String> {
    agent.snapshot()?;
    let group = agent.find_one(json!({"name": "Paragraph Style"}), None)?;
    let text = agent.last_snapshot.clone();
    let lines = Found::all(&text);
    let at = lines
        .iter()
        .position(|f| f.id == group.id)
        .ok_or("the Paragraph Style box is not in the snapshot")?;
    let depth = text_indent(&text, &group.id);
    Ok(lines[at + 1..]
        .iter()
        .take_while(|f| text_indent(&text, &f.id) > depth)
        .find(|f| f.role == "tbx")
        .ok_or_else(|| format!("no text box in the Paragraph Style box:\n{text}"))?
        .id
        .clone())
}

fn heading_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    let heading = |s: &str| {
        Found::all(s)
            .iter()
            .any(|f| f.role == "hdg" && f.name == PARAGRAPHS[0])
    };
    select_paragraph(agent, 0)?;
    let field = style_field(agent)?;
    agent.act(&field, "type", Some("Heading 1"))?;
    agent.press("enter")?;
    // On a busy machine LibreOffice can take the Enter and leave the style
    // as it was (the box shows "Default Paragraph Style" again): as a
    // person would, the agent sets it once more when no heading came.
    if agent
        .snapshot_until("the first paragraph a heading", 10, heading)
        .is_err()
    {
        select_paragraph(agent, 0)?;
        let field = style_field(agent)?;
        agent.act(&field, "type", Some("Heading 1"))?;
        agent.press("enter")?;
        agent.snapshot_until("the first paragraph a heading", 30, heading)?;
    }
    save(agent)
}

fn heading_check(ctx: &Ctx) -> Result<(), String> {
    saved(ctx, |blocks| {
        let first = blocks.first();
        first
            .is_some_and(|b| b.kind == "h" && b.style == "Heading_20_1" && b.text == PARAGRAPHS[0])
            .then_some(())
            .ok_or_else(|| format!("the first block is {first:?}"))
    })
}

fn append_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    let paras = paragraphs(agent)?;
    let last = paras.last().ok_or("the document shows no paragraph")?;
    // The caret to the end of the last paragraph, then a new one.
    agent.act(&last.id, "select", None)?;
    agent.press("end")?;
    let doc = agent.find_one(json!({"role": "document"}), Some("doc"))?;
    agent.act(&doc.id, "type", Some(&format!("\n{ADDED}")))?;
    agent.snapshot_until("the new paragraph", 30, |s| {
        Found::all(s)
            .iter()
            .any(|f| f.role == "txt" && f.name == ADDED)
    })?;
    save(agent)
}

fn append_check(ctx: &Ctx) -> Result<(), String> {
    saved(ctx, |blocks| {
        let texts: Vec<&str> = blocks.iter().map(|b| b.text.as_str()).collect();
        let mut want = PARAGRAPHS.to_vec();
        want.push(ADDED);
        (texts == want)
            .then_some(())
            .ok_or_else(|| format!("the saved paragraphs are {texts:?}"))
    })
}

pub(super) fn tasks() -> Vec<Task> {
    vec![
        Task {
            key: "writer-bold",
            app: "Writer",
            goal: "Make the second paragraph bold and save",
            prepare,
            plan: bold_plan,
            check: bold_check,
        },
        Task {
            key: "writer-heading",
            app: "Writer",
            goal: "Make the first paragraph a Heading 1 and save",
            prepare,
            plan: heading_plan,
            check: heading_check,
        },
        Task {
            key: "writer-append",
            app: "Writer",
            goal: "Add \"Approved by the board.\" as a last paragraph and save",
            prepare,
            plan: append_plan,
            check: append_check,
        },
    ]
}
