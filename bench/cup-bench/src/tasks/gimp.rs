//! GIMP tasks on a 100x80 PNG the task writes: a menu item's dialog with
//! a value set in it, and a menu's submenu; the image is written back
//! with File > Overwrite, and the oracle reads the PNG's header.

use serde_json::json;

use super::agent::{Agent, Found};
use super::calc::menu_item;
use super::oracle::{png_size, poll_file, write_png};
use super::{Ctx, Launch, Task};

const FILE: &str = "photo.png";

fn prepare(ctx: &mut Ctx) -> Result<Launch, String> {
    let image = ctx.dir.join(FILE);
    write_png(&image, 100, 80)?;
    Ok(Launch {
        program: "gimp",
        package: "gimp",
        args: vec![
            "--no-splash".to_owned(),
            "--no-data".to_owned(),
            image.display().to_string(),
        ],
        env: vec![
            ("HOME".to_owned(), ctx.dir.display().to_string()),
            ("GTK_MODULES".to_owned(), "gail:atk-bridge".to_owned()),
        ],
    })
}

/// Waits for the image window (its title names the image).
fn image_window(agent: &mut Agent) -> Result<(), String> {
    agent.wait_for("Image", 60_000)?;
    agent.snapshot_until("the image window", 50, |s| s.contains("[photo]"))?;
    Ok(())
}

/// File > Overwrite photo.png, then the title says so.
fn overwrite(agent: &mut Agent) -> Result<(), String> {
    menu_item(agent, "File", &format!("Overwrite {FILE}"))?;
    agent.snapshot_until("the image overwritten", 50, |s| s.contains("(overwritten)"))?;
    Ok(())
}

fn scale_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    image_window(agent)?;
    menu_item(agent, "Image", "Scale Image...")?;
    agent.wait_for("Width spin button", 20_000)?;
    let width = agent.find_one(json!({"name": "Width", "role": "spin button"}), Some("spn"))?;
    agent.act(&width.id, "setvalue", Some("50"))?;
    // The chain keeps the aspect ratio: the height follows.
    agent.snapshot_until("the height at 40", 20, |s| {
        Found::all(s)
            .iter()
            .any(|f| f.name == "Height" && f.value.as_deref() == Some("40"))
    })?;
    let scale = agent.find_one(json!({"name": "Scale", "role": "button"}), Some("btn"))?;
    agent.act(&scale.id, "click", None)?;
    agent.snapshot_until("the image at 50x40", 50, |s| s.contains(" 50x40 "))?;
    overwrite(agent)
}

fn scale_check(ctx: &Ctx) -> Result<(), String> {
    poll_file(&ctx.dir.join(FILE), |bytes| {
        let size = png_size(bytes)?;
        (size == (50, 40))
            .then_some(())
            .ok_or_else(|| format!("{FILE} is {}x{}, not 50x40", size.0, size.1))
    })
}

fn grayscale_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    image_window(agent)?;
    menu_item(agent, "Image", "Mode")?;
    agent.wait_for("Grayscale", 10_000)?;
    let gray = agent
        .find(json!({"name": "Grayscale"}))?
        .into_iter()
        .find(|f| f.name == "Grayscale" && f.role.starts_with("mi"))
        .ok_or("no Grayscale item in Image > Mode")?;
    agent.act(&gray.id, "click", None)?;
    agent.snapshot_until("the image in grayscale", 50, |s| s.contains("(Grayscale"))?;
    overwrite(agent)
}

fn grayscale_check(ctx: &Ctx) -> Result<(), String> {
    poll_file(&ctx.dir.join(FILE), |bytes| {
        png_size(bytes)?;
        // IHDR's colour type: 0 grey, 4 grey with alpha.
        let colour = bytes.get(25).copied().unwrap_or(255);
        matches!(colour, 0 | 4)
            .then_some(())
            .ok_or_else(|| format!("{FILE} has PNG colour type {colour}, not grey"))
    })
}

pub(super) fn tasks() -> Vec<Task> {
    vec![
        Task {
            key: "gimp-scale",
            app: "GIMP",
            goal: "Scale the image to 50 pixels wide and overwrite the file",
            prepare,
            plan: scale_plan,
            check: scale_check,
        },
        Task {
            key: "gimp-grayscale",
            app: "GIMP",
            goal: "Make the image grayscale and overwrite the file",
            prepare,
            plan: grayscale_plan,
            check: grayscale_check,
        },
    ]
}
