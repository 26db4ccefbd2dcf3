//! gnome-terminal tasks: a command typed into the terminal, its output
//! read back from the terminal's text, and an answer built from that
//! output; judged on the files the commands made.

use super::agent::{Agent, Found};
use super::oracle::{poll, poll_file};
use super::{Ctx, Launch, Task};

/// Lines in the file the count task counts.
const LINES: usize = 137;

fn prepare(ctx: &mut Ctx) -> Result<Launch, String> {
    let data: String = (0..LINES).map(|i| format!("record {i}\n")).collect();
    let path = ctx.dir.join("data.txt");
    std::fs::write(&path, data).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Launch {
        program: "gnome-terminal",
        package: "gnome-terminal",
        args: vec![format!("--working-directory={}", ctx.dir.display())],
        env: vec![("HOME".to_owned(), ctx.dir.display().to_string())],
    })
}

/// The terminal (the element that takes typing, named "Terminal"), once
/// its shell's prompt shows.
fn terminal(agent: &mut Agent) -> Result<Found, String> {
    agent.wait_for("Terminal", 60_000)?;
    let text = agent.snapshot_until("the shell's prompt", 50, |s| {
        Found::all(s).iter().any(|f| {
            f.name == "Terminal"
                && f.value
                    .as_deref()
                    .is_some_and(|v| v.contains('#') || v.contains('$'))
        })
    })?;
    Found::all(&text)
        .into_iter()
        .find(|f| f.name == "Terminal" && f.value.is_some())
        .ok_or_else(|| "no terminal".to_owned())
}

/// Types `command` and Enter; the terminal's text (one line in the
/// compact text: its lines joined by spaces) once it satisfies `done`.
fn run(agent: &mut Agent, command: &str, done: impl Fn(&str) -> bool) -> Result<String, String> {
    let term = terminal(agent)?;
    agent.act(&term.id, "type", Some(&format!("{command}\n")))?;
    let text = agent.snapshot_until(&format!("the output of {command:?}"), 50, |s| {
        Found::all(s)
            .iter()
            .any(|f| f.name == "Terminal" && f.value.as_deref().is_some_and(&done))
    })?;
    Ok(Found::all(&text)
        .into_iter()
        .find(|f| f.name == "Terminal" && f.value.is_some())
        .and_then(|f| f.value)
        .unwrap_or_default())
}

/// The numbers written right after `marker` in `text` (the typed command
/// has `marker` followed by `$(`, its output by digits).
fn numbers_after(text: &str, marker: &str) -> Vec<u64> {
    text.split(marker)
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

fn mkdir_plan(agent: &mut Agent, ctx: &Ctx) -> Result<(), String> {
    let out = ctx.dir.join("reports/2026");
    run(
        agent,
        &format!("mkdir -p {} && echo made-it", out.display()),
        // Once in the command, once as its output.
        |v| v.matches("made-it").count() >= 2,
    )?;
    Ok(())
}

fn mkdir_check(ctx: &Ctx) -> Result<(), String> {
    let out = ctx.dir.join("reports/2026");
    poll(|| out.is_dir())
        .then_some(())
        .ok_or_else(|| format!("{} is not a folder", out.display()))
}

fn count_plan(agent: &mut Agent, ctx: &Ctx) -> Result<(), String> {
    let data = ctx.dir.join("data.txt");
    let marker = "lines:";
    let screen = run(
        agent,
        &format!("echo {marker}$(wc -l < {})", data.display()),
        |v| !numbers_after(v, marker).is_empty(),
    )?;
    // The count as the agent reads it off the screen.
    let count = numbers_after(&screen, marker)
        .last()
        .copied()
        .ok_or("no count on the screen")?;
    let answer = ctx.dir.join("answer.txt");
    let again = terminal(agent)?;
    agent.act(
        &again.id,
        "type",
        Some(&format!("echo {count} > {}\n", answer.display())),
    )?;
    Ok(())
}

fn count_check(ctx: &Ctx) -> Result<(), String> {
    poll_file(&ctx.dir.join("answer.txt"), |bytes| {
        let got = String::from_utf8_lossy(bytes);
        (got.trim() == LINES.to_string())
            .then_some(())
            .ok_or_else(|| format!("answer.txt says {got:?}, not {LINES}"))
    })
}

pub(super) fn tasks() -> Vec<Task> {
    vec![
        Task {
            key: "terminal-mkdir",
            app: "Terminal",
            goal: "Make the folder reports/2026 in the terminal and confirm it",
            prepare,
            plan: mkdir_plan,
            check: mkdir_check,
        },
        Task {
            key: "terminal-count",
            app: "Terminal",
            goal: "Count the lines of data.txt and write the count to answer.txt",
            prepare,
            plan: count_plan,
            check: count_check,
        },
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_numbers_after_a_marker() {
        let screen = "root@vm:~# echo lines:$(wc -l < data.txt) lines:137 root@vm:~#";
        assert_eq!(super::numbers_after(screen, "lines:"), vec![137]);
    }
}
