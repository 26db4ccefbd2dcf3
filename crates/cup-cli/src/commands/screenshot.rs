//! `cup screenshot`: a PNG of the screen, a monitor, a window or a region.

use std::io::Write;
use std::process::ExitCode;

use cup::{Session, ShotTarget};
use cup_protocol::Rect;

use crate::cli::ScreenshotArgs;
use crate::commands::Failure;

/// Parses `x,y,w,h`.
pub fn parse_region(text: &str) -> Result<Rect, Failure> {
    let bad = || {
        Failure::usage(format!(
            "--region {text:?} is not x,y,w,h (four integers, width and height above 0), e.g. --region 0,0,800,600"
        ))
    };
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [x, y, w, h] = parts.as_slice() else {
        return Err(bad());
    };
    let (x, y) = (
        x.parse::<i64>().map_err(|_| bad())?,
        y.parse::<i64>().map_err(|_| bad())?,
    );
    let (w, h) = (
        w.parse::<u64>().map_err(|_| bad())?,
        h.parse::<u64>().map_err(|_| bad())?,
    );
    if w == 0 || h == 0 {
        return Err(bad());
    }
    Ok(Rect { x, y, w, h })
}

pub fn run(args: &ScreenshotArgs) -> Result<ExitCode, Failure> {
    let target = match (&args.window, &args.region, args.monitor) {
        (Some(w), _, _) => ShotTarget::Window(w.clone()),
        (_, Some(r), _) => ShotTarget::Region(parse_region(r)?),
        (_, _, Some(m)) => ShotTarget::Monitor(m),
        _ if args.full_page => ShotTarget::FullPage,
        _ => ShotTarget::Screen,
    };
    let mut session = Session::new(crate::platform::adapter()?);
    let runtime = crate::platform::runtime()?;
    // The PNG, and what to say about it.
    let (png, line) = if args.marks {
        if let Ok(snap) = crate::last::load() {
            session.restore(snap);
        }
        let base = cup_tools::config::load(&cup_tools::config::path())
            .ok()
            .flatten()
            .unwrap_or_default()
            .request();
        let (png, _, line) = runtime
            .block_on(cup_tools::visual::marked(&mut session, &base, &target))
            .map_err(|e| Failure {
                code: 1,
                message: e.0,
            })?;
        (png, line)
    } else {
        let shot = runtime
            .block_on(session.screenshot(&target))
            .map_err(|e| Failure {
                code: 1,
                message: e.to_string(),
            })?;
        let line = format!(
            "{}x{} at {},{} ({} bytes)",
            shot.width,
            shot.height,
            shot.x,
            shot.y,
            shot.png.len()
        );
        (shot.png, line)
    };
    if args.output.as_os_str() == "-" {
        std::io::stdout().lock().write_all(&png)?;
    } else {
        std::fs::write(&args.output, &png).map_err(|e| {
            Failure::usage(format!(
                "cannot write {}: {e}; choose a writable path with -o",
                args.output.display()
            ))
        })?;
        crate::output::print(&format!("{}: {line}\n", args.output.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_parse() {
        assert_eq!(
            parse_region("10, 20,300,400")
                .ok()
                .map(|r| (r.x, r.y, r.w, r.h)),
            Some((10, 20, 300, 400))
        );
        for bad in ["1,2,3", "a,b,c,d", "0,0,0,10", "0,0,-5,10", ""] {
            let e = parse_region(bad)
                .err()
                .map(|f| f.message)
                .unwrap_or_default();
            assert!(e.contains("x,y,w,h"), "{bad}: {e}");
        }
    }
}
