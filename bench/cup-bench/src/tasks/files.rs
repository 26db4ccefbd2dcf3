//! Files (Nautilus) tasks on a folder of a few documents, judged on the
//! file system: a file renamed, a folder made, a file moved to the trash
//! (the task's own `HOME`, so its own trash).

use std::path::Path;

use serde_json::json;

use super::agent::{Agent, Found};
use super::oracle::poll;
use super::{Ctx, Launch, Task};

const FILES: [&str; 4] = ["budget.csv", "draft-old.txt", "notes.txt", "report.txt"];

fn prepare(ctx: &mut Ctx) -> Result<Launch, String> {
    let docs = ctx.dir.join("docs");
    std::fs::create_dir_all(&docs).map_err(|e| format!("{}: {e}", docs.display()))?;
    for f in FILES {
        std::fs::write(docs.join(f), format!("{f}\n")).map_err(|e| format!("{f}: {e}"))?;
    }
    Ok(Launch {
        program: "nautilus",
        package: "nautilus",
        args: vec!["--new-window".to_owned(), docs.display().to_string()],
        env: vec![("HOME".to_owned(), ctx.dir.display().to_string())],
    })
}

/// Waits for the folder's view; the file item named `name`.
fn file_item(agent: &mut Agent, name: &str) -> Result<Found, String> {
    agent.wait_for(name, 60_000)?;
    agent.snapshot()?;
    agent
        .find(json!({"name": name, "role": "cell"}))?
        .into_iter()
        .find(|f| f.name == name && f.line.contains(" [sel]") && f.line.contains('x'))
        .ok_or_else(|| format!("no item {name:?} in the folder:\n{}", agent.last_snapshot))
}

/// Right-clicks `item` and picks `entry` from its menu.
fn context_menu(agent: &mut Agent, item: &Found, entry: &str) -> Result<(), String> {
    agent.act(&item.id, "rightclick", None)?;
    agent.wait_for(entry, 10_000)?;
    let mi = agent
        .find(json!({"name": entry, "role": "menu item"}))?
        .into_iter()
        .find(|f| f.name == entry)
        .ok_or_else(|| format!("no {entry:?} in the menu:\n{}", agent.last_snapshot))?;
    agent.act(&mi.id, "click", None)?;
    Ok(())
}

fn rename_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    let item = file_item(agent, "report.txt")?;
    context_menu(agent, &item, "Rename…")?;
    agent.wait_for("New Filename", 10_000)?;
    let field = agent.find_one(
        json!({"name": "New Filename", "role": "text box"}),
        Some("tbx"),
    )?;
    agent.act(&field.id, "type", Some("report-final.txt"))?;
    agent.press("enter")?;
    agent.snapshot_until("the renamed file", 30, |s| {
        s.contains("\"report-final.txt\"")
    })?;
    Ok(())
}

fn docs(ctx: &Ctx) -> std::path::PathBuf {
    ctx.dir.join("docs")
}

fn rename_check(ctx: &Ctx) -> Result<(), String> {
    let (old, new) = (
        docs(ctx).join("report.txt"),
        docs(ctx).join("report-final.txt"),
    );
    if !poll(|| new.is_file() && !old.exists()) {
        return Err(format!(
            "report-final.txt: {}, report.txt: {}",
            new.is_file(),
            old.exists()
        ));
    }
    let text = std::fs::read_to_string(&new).map_err(|e| format!("{}: {e}", new.display()))?;
    (text == "report.txt\n")
        .then_some(())
        .ok_or_else(|| format!("report-final.txt holds {text:?}"))
}

fn new_folder_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    file_item(agent, "notes.txt")?;
    let menu = agent
        .find(json!({"name": "Current Folder Menu", "role": "button"}))?
        .into_iter()
        .find(|f| f.line.contains("[clk]") && f.line.contains('x'))
        .ok_or("no Current Folder Menu button")?;
    agent.act(&menu.id, "click", None)?;
    agent.wait_for("New Folder…", 10_000)?;
    let item = agent.find_one(
        json!({"name": "New Folder…", "role": "menu item"}),
        Some("mi"),
    )?;
    agent.act(&item.id, "click", None)?;
    agent.wait_for("Folder name", 10_000)?;
    let field = agent.find_one(
        json!({"name": "Folder name", "role": "text box"}),
        Some("tbx"),
    )?;
    agent.act(&field.id, "type", Some("archive"))?;
    // The dialog checks the name before it enables Create (on a thread of
    // its own): a person waits until the button is enabled.
    agent.snapshot_until("Create enabled", 30, |s| {
        s.lines()
            .any(|l| l.contains("btn \"Create\"") && !l.contains("dis"))
    })?;
    let create = agent.find_one(json!({"name": "Create", "role": "button"}), Some("btn"))?;
    agent.act(&create.id, "click", None)?;
    agent.snapshot_until("the new folder", 30, |s| s.contains("\"archive\""))?;
    Ok(())
}

fn new_folder_check(ctx: &Ctx) -> Result<(), String> {
    let dir = docs(ctx).join("archive");
    poll(|| dir.is_dir())
        .then_some(())
        .ok_or_else(|| format!("{} is not a folder", dir.display()))
}

fn trash_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    let item = file_item(agent, "draft-old.txt")?;
    context_menu(agent, &item, "Move to Trash")?;
    agent.snapshot_until("the file gone", 30, |s| !s.contains("\"draft-old.txt\""))?;
    Ok(())
}

fn trash_check(ctx: &Ctx) -> Result<(), String> {
    let gone = docs(ctx).join("draft-old.txt");
    let trashed = ctx.dir.join(".local/share/Trash/files/draft-old.txt");
    let others = FILES
        .iter()
        .filter(|f| **f != "draft-old.txt")
        .all(|f| Path::new(&docs(ctx)).join(f).is_file());
    (poll(|| !gone.exists() && trashed.is_file()) && others)
        .then_some(())
        .ok_or_else(|| {
            format!(
                "draft-old.txt still there: {}; in the trash: {}; the others kept: {others}",
                gone.exists(),
                trashed.is_file()
            )
        })
}

pub(super) fn tasks() -> Vec<Task> {
    vec![
        Task {
            key: "files-rename",
            app: "Files",
            goal: "Rename report.txt to report-final.txt",
            prepare,
            plan: rename_plan,
            check: rename_check,
        },
        Task {
            key: "files-new-folder",
            app: "Files",
            goal: "Make a folder named \"archive\" here",
            prepare,
            plan: new_folder_plan,
            check: new_folder_check,
        },
        Task {
            key: "files-trash",
            app: "Files",
            goal: "Move draft-old.txt to the trash",
            prepare,
            plan: trash_plan,
            check: trash_check,
        },
    ]
}
