//! LibreOffice Impress tasks on a deck of three titled slides, a flat ODF
//! presentation (`.fodp`, saved as it is), read back as XML.

use serde_json::json;

use super::agent::{Agent, Found};
use super::calc::libreoffice;
use super::oracle::{poll_file, slide_titles};
use super::{Ctx, Launch, Task};

const TITLES: [&str; 3] = ["Topic 1", "Topic 2", "Topic 3"];
const NEW_TITLE: &str = "Next steps";

fn prepare(ctx: &mut Ctx) -> Result<Launch, String> {
    let pages: String = TITLES
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                "<draw:page draw:name=\"Slide{}\" presentation:presentation-page-layout-name=\"AL1T0\"><draw:frame presentation:class=\"title\" svg:x=\"2cm\" svg:y=\"1cm\" svg:width=\"24cm\" svg:height=\"3cm\"><draw:text-box><text:p>{t}</text:p></draw:text-box></draw:frame></draw:page>",
                i + 1
            )
        })
        .collect();
    let fodp = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<office:document xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:draw=\"urn:oasis:names:tc:opendocument:xmlns:drawing:1.0\" xmlns:presentation=\"urn:oasis:names:tc:opendocument:xmlns:presentation:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" xmlns:svg=\"urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0\" xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\" office:version=\"1.3\" office:mimetype=\"application/vnd.oasis.opendocument.presentation\">\n<office:styles/><office:master-styles><style:master-page style:name=\"Default\"/></office:master-styles>\n<office:body><office:presentation>{pages}</office:presentation></office:body></office:document>\n"
    );
    let path = ctx.dir.join("deck.fodp");
    std::fs::write(&path, fodp).map_err(|e| format!("{}: {e}", path.display()))?;
    libreoffice(ctx, "impress", &path)
}

fn saved_titles(ctx: &Ctx, want: &[&str]) -> Result<(), String> {
    poll_file(&ctx.dir.join("deck.fodp"), |bytes| {
        let got = slide_titles(bytes)?;
        (got == want)
            .then_some(())
            .ok_or_else(|| format!("the saved slides are titled {got:?}, not {want:?}"))
    })
}

/// The slide thumbnails of the "Slides View" pane, in order.
fn thumbnails(agent: &mut Agent) -> Result<(String, Vec<Found>), String> {
    let text = agent.snapshot()?;
    let lines = Found::all(&text);
    let at = lines
        .iter()
        .position(|f| f.role == "doc" && f.name == "Slides View")
        .ok_or_else(|| format!("no Slides View:\n{text}"))?;
    let pane = lines[at].id.clone();
    let slides = lines[at + 1..]
        .iter()
        .take_while(|f| f.role == "grp" && f.name.starts_with("Slide"))
        .cloned()
        .collect();
    Ok((pane, slides))
}

fn new_slide_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    agent.wait_for(TITLES[0], 60_000)?;
    agent.snapshot()?;
    let button = agent.find_one(json!({"name": "New Slide", "role": "button"}), Some("btn"))?;
    agent.act(&button.id, "click", None)?;
    // Right after loading, on a busy machine, LibreOffice may drop a
    // toolbar command whose state it has not yet updated (the click's
    // result lists the toolbar's states arriving): as a person would,
    // the agent clicks again when no slide came.
    let added = |s: &str| s.contains("\"Click to add Title\"");
    if agent
        .snapshot_until("the new slide's title box", 10, added)
        .is_err()
    {
        let button = agent.find_one(json!({"name": "New Slide", "role": "button"}), Some("btn"))?;
        agent.act(&button.id, "click", None)?;
        agent.snapshot_until("the new slide's title box", 30, added)?;
    }
    // The title placeholder: select it, Enter edits its text.
    let title = agent.find_one(json!({"name": "PresentationTitle"}), Some("grp"))?;
    agent.act(&title.id, "select", None)?;
    agent.press("enter")?;
    let docs = agent.find(json!({"role": "document"}))?;
    let slide = docs
        .into_iter()
        .find(|f| f.name.contains("Presentation"))
        .ok_or("no presentation document")?;
    agent.act(&slide.id, "type", Some(NEW_TITLE))?;
    agent.press("escape")?;
    agent.snapshot_until("the title typed", 30, |s| {
        Found::all(s).iter().any(|f| f.name == NEW_TITLE)
    })?;
    agent.press("ctrl+s")?;
    Ok(())
}

fn new_slide_check(ctx: &Ctx) -> Result<(), String> {
    saved_titles(ctx, &[TITLES[0], NEW_TITLE, TITLES[1], TITLES[2]])
}

fn delete_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    agent.wait_for(TITLES[0], 60_000)?;
    // LibreOffice fills its Slides View pane after the slide shows (on a
    // loaded machine, seconds later): as a person would, the agent looks
    // again until the pane lists every slide.
    agent.snapshot_until("the Slides View with every slide", 60, |s| {
        let lines = Found::all(s);
        lines
            .iter()
            .position(|f| f.role == "doc" && f.name == "Slides View")
            .is_some_and(|at| {
                lines[at + 1..]
                    .iter()
                    .take_while(|f| f.role == "grp" && f.name.starts_with("Slide"))
                    .count()
                    == TITLES.len()
            })
    })?;
    let (pane, slides) = thumbnails(agent)?;
    if slides.len() != TITLES.len() {
        return Err(format!("the Slides View shows {} slides", slides.len()));
    }
    // The second slide, in the pane that has the keyboard (focusing it
    // renews its thumbnails: looked at again).
    agent.act(&pane, "focus", None)?;
    let (_, slides) = thumbnails(agent)?;
    let second = slides.get(1).ok_or("the Slides View lost its slides")?;
    agent.act(&second.id, "select", None)?;
    agent.snapshot_until("slide 2 shown", 30, |s| s.contains("\"PageShape: Slide2\""))?;
    agent.press("delete")?;
    agent.snapshot_until("two slides left", 30, |s| {
        !s.contains("\"Slide2\"") && s.contains("\"Slide3\"")
    })?;
    agent.press("ctrl+s")?;
    Ok(())
}

fn delete_check(ctx: &Ctx) -> Result<(), String> {
    saved_titles(ctx, &[TITLES[0], TITLES[2]])
}

pub(super) fn tasks() -> Vec<Task> {
    vec![
        Task {
            key: "impress-new-slide",
            app: "Impress",
            goal: "Add a slide after the first, titled \"Next steps\", and save",
            prepare,
            plan: new_slide_plan,
            check: new_slide_check,
        },
        Task {
            key: "impress-delete-slide",
            app: "Impress",
            goal: "Delete the second slide and save",
            prepare,
            plan: delete_plan,
            check: delete_check,
        },
    ]
}
