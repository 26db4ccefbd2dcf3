//! VLC tasks: settings changed through its menus and Preferences dialog,
//! judged on the `vlcrc` file VLC writes on Save (in the task's own
//! `HOME`). VLC refuses to start as root: it runs through the preload
//! `crates/cup-linux/tests/desktop/support/nonroot.c`, built here.

use serde_json::json;

use super::agent::Agent;
use super::calc::menu_item;
use super::oracle::{poll_file, setting};
use super::{Ctx, Launch, Task};

fn prepare(ctx: &mut Ctx) -> Result<Launch, String> {
    let preload = ctx.dir.join("nonroot.so");
    crate::apps::build_nonroot_preload(&preload)
        .map_err(|e| format!("{e} (cc comes with apt-get install gcc)"))?;
    Ok(Launch {
        program: "vlc",
        package: "vlc",
        args: vec![
            "--no-qt-privacy-ask".to_owned(),
            "--no-video-title-show".to_owned(),
        ],
        env: vec![
            ("HOME".to_owned(), ctx.dir.display().to_string()),
            ("LD_PRELOAD".to_owned(), preload.display().to_string()),
        ],
    })
}

/// Opens Tools > Preferences, ticks the box named `option` and saves.
fn tick_and_save(agent: &mut Agent, option: &str) -> Result<(), String> {
    agent.wait_for("Play", 60_000)?;
    menu_item(agent, "Tools", "Preferences")?;
    agent.wait_for(option, 20_000)?;
    let tick = agent.find_one(json!({"name": option, "role": "checkbox"}), Some("chk"))?;
    let done = agent.act(&tick.id, "toggle", None)?;
    if !done.contains("+checked") {
        return Err(format!("{option:?} was not ticked: {done}"));
    }
    let save = agent.find_one(json!({"name": "Save", "role": "button"}), Some("btn"))?;
    agent.act(&save.id, "click", None)?;
    Ok(())
}

fn vlcrc_says(ctx: &Ctx, key: &str, want: &str) -> Result<(), String> {
    poll_file(&ctx.dir.join(".config/vlc/vlcrc"), |bytes| {
        let got = setting(&String::from_utf8_lossy(bytes), key);
        (got.as_deref() == Some(want))
            .then_some(())
            .ok_or_else(|| format!("vlcrc has {key}={got:?}, not {want}"))
    })
}

fn one_instance_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    tick_and_save(agent, "Allow only one instance")
}

fn one_instance_check(ctx: &Ctx) -> Result<(), String> {
    vlcrc_says(ctx, "one-instance", "1")
}

fn pause_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    tick_and_save(agent, "Pause playback when minimized")
}

fn pause_check(ctx: &Ctx) -> Result<(), String> {
    vlcrc_says(ctx, "qt-pause-minimized", "1")
}

pub(super) fn tasks() -> Vec<Task> {
    vec![
        Task {
            key: "vlc-one-instance",
            app: "VLC",
            goal: "Allow only one instance of VLC (Preferences), and save",
            prepare,
            plan: one_instance_plan,
            check: one_instance_check,
        },
        Task {
            key: "vlc-pause-minimized",
            app: "VLC",
            goal: "Make VLC pause playback when minimized, and save",
            prepare,
            plan: pause_plan,
            check: pause_check,
        },
    ]
}
