//! LibreOffice Calc tasks, on a CSV of 99 items and their amounts (the
//! import options given on the command line, as OSWorld's tasks open
//! their sheets). Saving keeps the CSV format (the agent answers the
//! "Keep current format" question), so the oracle reads plain CSV.

use serde_json::json;

use super::agent::{Agent, Found};
use super::oracle::{csv_rows, poll_file};
use super::{Ctx, Launch, Task};

const ITEMS: u64 = 99;

/// The amount of item `i` (1-based): a fixed pseudo-random sequence.
fn amount(i: u64) -> u64 {
    (i * 7919 + 13) % 997 + 1
}

pub(super) fn libreoffice(ctx: &Ctx, module: &str, file: &Path) -> Result<Launch, String> {
    let profile = cup_sandbox::libreoffice::write_quiet_profile(&ctx.dir.join("profile"))
        .map_err(|e| format!("LibreOffice profile: {e}"))?;
    let mut args = vec![
        format!("--{module}"),
        "--norestore".to_owned(),
        "--nologo".to_owned(),
        profile,
    ];
    if file.extension().is_some_and(|e| e == "csv") {
        args.push("--infilter=CSV:44,34,76,1".to_owned());
    }
    args.push(file.display().to_string());
    Ok(Launch {
        program: "soffice",
        package: match module {
            "calc" => "libreoffice-calc",
            "impress" => "libreoffice-impress",
            _ => "libreoffice-writer",
        },
        args,
        env: vec![("SAL_USE_VCLPLUGIN".to_owned(), "gtk3".to_owned())],
    })
}

use std::path::Path;

fn prepare(ctx: &mut Ctx) -> Result<Launch, String> {
    let mut csv = String::from("Item,Amount\n");
    for i in 1..=ITEMS {
        csv.push_str(&format!("item {i},{}\n", amount(i)));
    }
    let path = ctx.dir.join("sales.csv");
    std::fs::write(&path, csv).map_err(|e| format!("{}: {e}", path.display()))?;
    libreoffice(ctx, "calc", &path)
}

/// Waits for the sheet's window and its cells.
fn open_sheet(agent: &mut Agent) -> Result<String, String> {
    agent.wait_for("Sheet sales", 60_000)?;
    agent.snapshot_until("the sheet's cells", 50, |s| s.contains("cel \"B2\""))
}

/// Whether `s` is a cell address (`B101`).
fn is_address(s: &str) -> bool {
    let letters = s.chars().take_while(char::is_ascii_uppercase).count();
    letters > 0 && s.len() > letters && s[letters..].chars().all(|c| c.is_ascii_digit())
}

/// The Name Box, found by its name (cup names LibreOffice's nameless
/// box); its value is the current cell's address.
fn name_box(agent: &mut Agent) -> Result<Found, String> {
    let boxes = agent.find(json!({"role": "text box", "name": "Name Box", "limit": 3}))?;
    boxes
        .into_iter()
        .find(|f| f.value.as_deref().is_some_and(is_address))
        .ok_or_else(|| {
            format!(
                "no text box named Name Box holds a cell address; the last snapshot:\n{}",
                agent.last_snapshot
            )
        })
}

/// Goes to `address` through the Name Box, then looks again.
fn go_to(agent: &mut Agent, address: &str) -> Result<(), String> {
    let nb = name_box(agent)?;
    agent.act(&nb.id, "type", Some(address))?;
    agent.press("enter")?;
    let first = address.split(':').next().unwrap_or(address).to_owned();
    agent.snapshot_until(&format!("the cursor on {first}"), 30, |s| {
        Found::all(s)
            .iter()
            .any(|f| f.role == "tbx" && f.value.as_deref() == Some(address))
            || Found::all(s)
                .iter()
                .any(|f| f.role == "cel" && f.name == first && f.line.contains("{foc"))
    })?;
    Ok(())
}

/// Types into the sheet (into the current cell; `\n` is Enter).
fn type_in_sheet(agent: &mut Agent, text: &str) -> Result<(), String> {
    let doc = agent.find_one(json!({"role": "document"}), Some("doc"))?;
    agent.act(&doc.id, "type", Some(text))?;
    Ok(())
}

/// The value cup shows for cell `address` in a new snapshot.
fn cell_value(agent: &mut Agent, address: &str) -> Result<Option<String>, String> {
    agent.snapshot()?;
    let found = agent.find(json!({"name": address, "role": "cell"}))?;
    Ok(found
        .into_iter()
        .find(|f| f.name == address)
        .and_then(|f| f.value))
}

/// Ctrl+S, then "Use Text CSV Format!" in the question LibreOffice asks.
fn save_csv(agent: &mut Agent) -> Result<(), String> {
    agent.press("ctrl+s")?;
    agent.wait_for("Use Text CSV Format", 20_000)?;
    let keep = agent.find_one(json!({"query": "Use Text CSV Format"}), Some("btn"))?;
    agent.act(&keep.id, "click", None)?;
    agent.snapshot_until("the question gone", 30, |s| {
        !s.contains("Keep current format")
    })?;
    Ok(())
}

fn saved_rows(
    ctx: &Ctx,
    judge: impl Fn(&[Vec<String>]) -> Result<(), String>,
) -> Result<(), String> {
    poll_file(&ctx.dir.join("sales.csv"), |bytes| judge(&csv_rows(bytes)))
}

fn cell_of(rows: &[Vec<String>], row: usize, column: usize) -> &str {
    rows.get(row)
        .and_then(|r| r.get(column))
        .map_or("", String::as_str)
}

fn sum_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    open_sheet(agent)?;
    go_to(agent, "B101")?;
    type_in_sheet(agent, "=SUM(B2:B100)\n")?;
    let want = (1..=ITEMS).map(amount).sum::<u64>().to_string();
    let shown = cell_value(agent, "B101")?;
    if shown.as_deref() != Some(want.as_str()) {
        return Err(format!("B101 shows {shown:?}, not the sum"));
    }
    save_csv(agent)
}

fn sum_check(ctx: &Ctx) -> Result<(), String> {
    let want = (1..=ITEMS).map(amount).sum::<u64>().to_string();
    saved_rows(ctx, |rows| {
        let got = cell_of(rows, 100, 1);
        (got == want)
            .then_some(())
            .ok_or_else(|| format!("B101 in the saved file is {got:?}, not {want}"))
    })
}

fn formula_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    open_sheet(agent)?;
    go_to(agent, "D1")?;
    type_in_sheet(agent, "4242\n=D1*2\n")?;
    let shown = cell_value(agent, "D2")?;
    if shown.as_deref() != Some("8484") {
        return Err(format!("D2 shows {shown:?}, not 8484"));
    }
    save_csv(agent)
}

fn formula_check(ctx: &Ctx) -> Result<(), String> {
    saved_rows(ctx, |rows| {
        let (d1, d2) = (cell_of(rows, 0, 3), cell_of(rows, 1, 3));
        (d1 == "4242" && d2 == "8484")
            .then_some(())
            .ok_or_else(|| format!("D1, D2 in the saved file are {d1:?}, {d2:?}"))
    })
}

/// Opens menu `menu` of the menu bar and clicks its item `item`.
pub(super) fn menu_item(agent: &mut Agent, menu: &str, item: &str) -> Result<(), String> {
    let bar = agent.find(json!({"name": menu}))?;
    let m = bar
        .into_iter()
        .find(|f| f.name == menu && (f.role == "mnu" || f.role == "mi") && f.line.contains("clk"))
        .ok_or_else(|| {
            format!(
                "no menu {menu:?}; the last snapshot:\n{}",
                agent.last_snapshot
            )
        })?;
    agent.act(&m.id, "click", None)?;
    agent.wait_for(item, 10_000)?;
    let items = agent.find(json!({"name": item}))?;
    let mi = items
        .into_iter()
        .find(|f| f.name == item && matches!(f.role.as_str(), "mi" | "mnu" | "mic" | "mir"))
        .ok_or_else(|| {
            format!(
                "no item {item:?} in {menu}; the last snapshot:\n{}",
                agent.last_snapshot
            )
        })?;
    agent.act(&mi.id, "click", None)?;
    Ok(())
}

fn delete_row_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    open_sheet(agent)?;
    let found = agent.find(json!({"query": "item 2", "role": "cell", "limit": 20}))?;
    let cell = found
        .into_iter()
        .find(|f| f.value.as_deref() == Some("item 2"))
        .ok_or_else(|| "no cell holds \"item 2\"".to_owned())?;
    go_to(agent, &cell.name)?;
    menu_item(agent, "Sheet", "Delete Rows")?;
    agent.snapshot_until("item 2's row gone", 30, |s| {
        !Found::all(s)
            .iter()
            .any(|f| f.value.as_deref() == Some("item 2"))
    })?;
    save_csv(agent)
}

fn delete_row_check(ctx: &Ctx) -> Result<(), String> {
    saved_rows(ctx, |rows| {
        let gone = !rows
            .iter()
            .any(|r| r.first().is_some_and(|c| c == "item 2"));
        let kept = rows.len() == ITEMS as usize && cell_of(rows, 2, 0) == "item 3";
        (gone && kept)
            .then_some(())
            .ok_or_else(|| format!("{} rows saved; the third is {:?}", rows.len(), rows.get(2)))
    })
}

fn sort_plan(agent: &mut Agent, _: &Ctx) -> Result<(), String> {
    open_sheet(agent)?;
    go_to(agent, "B2")?;
    menu_item(agent, "Data", "Sort Descending")?;
    let top = (1..=ITEMS).map(amount).max().unwrap_or(0).to_string();
    agent.snapshot_until("the largest amount on top", 30, |s| {
        Found::all(s)
            .iter()
            .any(|f| f.name == "B2" && f.value.as_deref() == Some(top.as_str()))
    })?;
    save_csv(agent)
}

fn sort_check(ctx: &Ctx) -> Result<(), String> {
    saved_rows(ctx, |rows| {
        if cell_of(rows, 0, 0) != "Item" {
            return Err(format!("the header moved: {:?}", rows.first()));
        }
        let amounts: Vec<u64> = rows
            .iter()
            .skip(1)
            .filter_map(|r| r.get(1).and_then(|a| a.parse().ok()))
            .collect();
        let sorted = amounts.len() == ITEMS as usize && amounts.windows(2).all(|w| w[0] >= w[1]);
        // Each item kept its amount.
        let paired = rows.iter().skip(1).all(|r| {
            let i: Option<u64> = r
                .first()
                .and_then(|c| c.strip_prefix("item ")?.parse().ok());
            let a: Option<u64> = r.get(1).and_then(|c| c.parse().ok());
            matches!((i, a), (Some(i), Some(a)) if amount(i) == a)
        });
        (sorted && paired).then_some(()).ok_or_else(|| {
            format!(
                "not sorted by amount, largest first: {:?}",
                &amounts[..amounts.len().min(5)]
            )
        })
    })
}

pub(super) fn tasks() -> Vec<Task> {
    vec![
        Task {
            key: "calc-sum",
            app: "Calc",
            goal: "Put the sum of column B in B101 and save the sheet",
            prepare,
            plan: sum_plan,
            check: sum_check,
        },
        Task {
            key: "calc-formula",
            app: "Calc",
            goal: "Enter 4242 in D1 and a formula doubling it in D2; read the result; save",
            prepare,
            plan: formula_plan,
            check: formula_check,
        },
        Task {
            key: "calc-delete-row",
            app: "Calc",
            goal: "Delete the row of \"item 2\" and save",
            prepare,
            plan: delete_row_plan,
            check: delete_row_check,
        },
        Task {
            key: "calc-sort",
            app: "Calc",
            goal: "Sort the items by amount, largest first, and save",
            prepare,
            plan: sort_plan,
            check: sort_check,
        },
    ]
}
