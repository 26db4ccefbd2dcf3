//! A LibreOffice profile that starts without its first-run dialogs: what
//! the tests and the benchmark start LibreOffice with.

use std::path::Path;

/// Writes a LibreOffice user profile into `dir` that shows no first-run
/// dialog, no tip of the day and no Impress template picker (LibreOffice
/// 7.4's keys: `Misc/ShowTipOfTheDay`, `Misc/FirstRun`,
/// `Impress/Misc/NewDoc/AutoPilot`); returns the `-env:UserInstallation=`
/// argument that starts soffice with it.
///
/// # Errors
///
/// The folder or the file cannot be written.
pub fn write_quiet_profile(dir: &Path) -> std::io::Result<String> {
    let user = dir.join("user");
    std::fs::create_dir_all(&user)?;
    let item = |path: &str, prop: &str, value: &str| {
        format!(
            "<item oor:path=\"{path}\"><prop oor:name=\"{prop}\" oor:op=\"fuse\"><value>{value}</value></prop></item>\n"
        )
    };
    let xcu = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<oor:items xmlns:oor=\"http://openoffice.org/2001/registry\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n{}{}{}{}</oor:items>\n",
        item("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay", "false"),
        item("/org.openoffice.Office.Common/Misc", "FirstRun", "false"),
        item("/org.openoffice.Setup/Product", "ooSetupLastVersion", "7.4"),
        item("/org.openoffice.Office.Impress/Misc/NewDoc", "AutoPilot", "false"),
    );
    std::fs::write(user.join("registrymodifications.xcu"), xcu)?;
    Ok(format!("-env:UserInstallation=file://{}", dir.display()))
}
