//! Win32 reads and a few writes: top-level windows, monitors, the
//! foreground window, processes and their integrity, DPI awareness.

use windows::core::{BOOL, PWSTR};
use windows::Win32::Foundation::{CloseHandle, HANDLE, HWND, LPARAM, POINT, RECT, WPARAM};
use windows::Win32::Graphics::Dwm::{
    DwmGetWindowAttribute, DWMWA_CLOAKED, DWMWA_EXTENDED_FRAME_BOUNDS,
};
use windows::Win32::Graphics::Gdi::{
    EnumDisplayMonitors, GetMonitorInfoW, HDC, HMONITOR, MONITORINFO, MONITORINFOEXW,
};
use windows::Win32::Security::{
    GetTokenInformation, TokenElevation, TokenIntegrityLevel, TokenUIAccess, TOKEN_ELEVATION,
    TOKEN_MANDATORY_LABEL, TOKEN_QUERY,
};
use windows::Win32::System::Threading::{
    GetCurrentProcess, OpenProcess, OpenProcessToken, QueryFullProcessImageNameW,
    PROCESS_NAME_WIN32, PROCESS_QUERY_LIMITED_INFORMATION,
};
use windows::Win32::UI::HiDpi::{
    GetDpiForMonitor, SetProcessDpiAwarenessContext, DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2,
    MDT_EFFECTIVE_DPI,
};
use windows::Win32::UI::WindowsAndMessaging::{
    EnumWindows, GetClassNameW, GetCursorPos, GetForegroundWindow, GetSystemMetrics, GetWindow,
    GetWindowLongW, GetWindowRect, GetWindowTextW, GetWindowThreadProcessId, IsIconic,
    IsWindowVisible, SendMessageTimeoutW, GWL_EXSTYLE, GWL_STYLE, GW_OWNER, SMTO_ABORTIFHUNG,
    SM_CXVIRTUALSCREEN, SM_CYVIRTUALSCREEN, SM_XVIRTUALSCREEN, SM_YVIRTUALSCREEN, WM_NULL,
};

use crate::facts::{MonitorFacts, ScreenFacts, WindowFacts};

/// An `HWND` from its number.
pub fn hwnd(n: i64) -> HWND {
    HWND(n as usize as *mut core::ffi::c_void)
}

/// The number of an `HWND`.
pub fn number(h: HWND) -> i64 {
    h.0 as usize as i64
}

/// Makes cup per-monitor DPI aware (v2) so every coordinate it reads and
/// writes is in physical pixels. Once per process, before any window call;
/// `Err` says why (a manifest set it already, an old Windows).
pub fn dpi_aware() -> Result<(), String> {
    // SAFETY: a process-wide setting with a constant context.
    unsafe { SetProcessDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2) }.map_err(
        |e| crate::os::call_error(&e, "SetProcessDpiAwarenessContext(PER_MONITOR_AWARE_V2)"),
    )
}

/// Makes the calling thread per-monitor DPI aware (v2), whatever the
/// process's awareness: a host that set another awareness first (a Python
/// library calling `SetProcessDpiAware`, an app's manifest) makes
/// [`dpi_aware`] fail, and window rects, the virtual screen and the cursor
/// would then be scaled on monitors whose DPI differs from the system's.
/// Thread awareness may always be set: every thread that reads or writes
/// coordinates sets it first (UIA workers, blocking Win32 calls).
pub fn thread_dpi_aware() {
    use windows::Win32::UI::HiDpi::SetThreadDpiAwarenessContext;
    // SAFETY: a per-thread setting with a constant context; the previous
    // context it returns is not needed.
    let _ = unsafe { SetThreadDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2) };
}

fn utf16(buf: &[u16], len: i32) -> String {
    let n = usize::try_from(len).unwrap_or(0).min(buf.len());
    String::from_utf16_lossy(&buf[..n])
}

fn ltrb(r: RECT) -> [i32; 4] {
    [r.left, r.top, r.right, r.bottom]
}

/// The executable file name of process `pid` (`notepad.exe`), empty when
/// it cannot be opened.
pub fn process_name(pid: u32) -> String {
    // SAFETY: opening a process for limited queries; the handle is closed
    // below; the buffer outlives the call and its size is passed.
    unsafe {
        let Ok(h) = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, false, pid) else {
            return String::new();
        };
        let mut buf = [0_u16; 1024];
        let mut len = buf.len() as u32;
        let ok =
            QueryFullProcessImageNameW(h, PROCESS_NAME_WIN32, PWSTR(buf.as_mut_ptr()), &mut len);
        let _ = CloseHandle(h);
        if ok.is_err() {
            return String::new();
        }
        let path = utf16(&buf, i32::try_from(len).unwrap_or(0));
        path.rsplit(['\\', '/']).next().unwrap_or("").to_owned()
    }
}

/// The mandatory integrity level (RID: 0x2000 medium, 0x3000 high, 0x4000
/// system) of a process token.
fn integrity(token: HANDLE) -> Option<u32> {
    let mut buf = [0_u8; 256];
    let mut len = 0_u32;
    // SAFETY: the buffer is large enough for a TOKEN_MANDATORY_LABEL and
    // its SID and outlives the call; the SID pointer it holds points into
    // the buffer, read only while it lives.
    unsafe {
        GetTokenInformation(
            token,
            TokenIntegrityLevel,
            Some(buf.as_mut_ptr().cast()),
            buf.len() as u32,
            &mut len,
        )
        .ok()?;
        let label = &*(buf.as_ptr().cast::<TOKEN_MANDATORY_LABEL>());
        let sid = label.Label.Sid;
        let count = *windows::Win32::Security::GetSidSubAuthorityCount(sid);
        let last =
            windows::Win32::Security::GetSidSubAuthority(sid, u32::from(count).saturating_sub(1));
        Some(*last)
    }
}

/// The integrity level of process `pid` (`None` when its token cannot be
/// read: a protected or elevated process seen from a lower level).
pub fn process_integrity(pid: u32) -> Option<u32> {
    // SAFETY: handles are opened for queries and closed below.
    unsafe {
        let p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, false, pid).ok()?;
        let mut token = HANDLE::default();
        let opened = OpenProcessToken(p, TOKEN_QUERY, &mut token);
        let _ = CloseHandle(p);
        opened.ok()?;
        let level = integrity(token);
        let _ = CloseHandle(token);
        level
    }
}

/// cup's own token: integrity level, UIAccess, elevated.
pub fn own_token() -> (Option<u32>, bool, bool) {
    // SAFETY: the current process's pseudo handle needs no closing; the
    // token is closed below; buffers outlive the calls.
    unsafe {
        let mut token = HANDLE::default();
        if OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token).is_err() {
            return (None, false, false);
        }
        let level = integrity(token);
        let mut ui_access = 0_u32;
        let mut len = 0_u32;
        let ui = GetTokenInformation(
            token,
            TokenUIAccess,
            Some((&mut ui_access as *mut u32).cast()),
            4,
            &mut len,
        )
        .is_ok()
            && ui_access != 0;
        let mut elevation = TOKEN_ELEVATION::default();
        let elevated = GetTokenInformation(
            token,
            TokenElevation,
            Some((&mut elevation as *mut TOKEN_ELEVATION).cast()),
            size_of::<TOKEN_ELEVATION>() as u32,
            &mut len,
        )
        .is_ok()
            && elevation.TokenIsElevated != 0;
        let _ = CloseHandle(token);
        (level, ui, elevated)
    }
}

/// The facts of one top-level window that its handle gives (no reads of
/// its process: see [`add_process`]).
pub fn window_facts(h: HWND) -> WindowFacts {
    let mut title = [0_u16; 512];
    let mut class = [0_u16; 256];
    let mut pid = 0_u32;
    let mut rect = RECT::default();
    let mut cloaked = 0_u32;
    // SAFETY: read-only queries of a window handle; every buffer outlives
    // its call and its size is passed.
    unsafe {
        let tl = GetWindowTextW(h, &mut title);
        let cl = GetClassNameW(h, &mut class);
        GetWindowThreadProcessId(h, Some(&mut pid));
        let framed = DwmGetWindowAttribute(
            h,
            DWMWA_EXTENDED_FRAME_BOUNDS,
            (&mut rect as *mut RECT).cast(),
            size_of::<RECT>() as u32,
        );
        if framed.is_err() {
            let _ = GetWindowRect(h, &mut rect);
        }
        let _ = DwmGetWindowAttribute(h, DWMWA_CLOAKED, (&mut cloaked as *mut u32).cast(), 4);
        WindowFacts {
            hwnd: number(h),
            title: utf16(&title, tl),
            class_name: utf16(&class, cl),
            pid,
            rect: ltrb(rect),
            visible: IsWindowVisible(h).as_bool(),
            minimized: IsIconic(h).as_bool(),
            cloaked: cloaked != 0,
            style: GetWindowLongW(h, GWL_STYLE) as u32,
            ex_style: GetWindowLongW(h, GWL_EXSTYLE) as u32,
            owner: GetWindow(h, GW_OWNER).map(number).unwrap_or(0),
            ..WindowFacts::default()
        }
    }
}

/// Adds what the window's process says: its executable's name, and
/// whether it runs above `own_level` (cup's integrity).
pub fn add_process(w: &mut WindowFacts, own_level: Option<u32>) {
    w.process_name = process_name(w.pid);
    w.elevated = match (process_integrity(w.pid), own_level) {
        (Some(theirs), Some(ours)) => theirs > ours,
        // Their token is closed to us: only a higher level does that.
        (None, Some(ours)) => w.pid != 0 && ours < 0x3000,
        _ => false,
    };
}

unsafe extern "system" fn collect(h: HWND, out: LPARAM) -> BOOL {
    // SAFETY: `out` is the `&mut Vec<HWND>` that `top_level` passed, alive
    // for the whole enumeration.
    let list = unsafe { &mut *(out.0 as *mut Vec<HWND>) };
    list.push(h);
    BOOL(1)
}

/// Every top-level window (Z order, top first), with its facts; with
/// `processes`, the app windows among them also with their process's.
pub fn top_level(processes: bool) -> Vec<WindowFacts> {
    let mut handles: Vec<HWND> = Vec::new();
    // SAFETY: the callback only pushes into the vector whose address is
    // passed; the vector outlives the call.
    let _ = unsafe {
        EnumWindows(
            Some(collect),
            LPARAM(&mut handles as *mut Vec<HWND> as isize),
        )
    };
    let mut all: Vec<WindowFacts> = handles.into_iter().map(window_facts).collect();
    if processes {
        let own = own_token().0;
        for w in all.iter_mut().filter(|w| crate::toplevel::is_app_window(w)) {
            add_process(w, own);
        }
    }
    all
}

/// Window `h`'s `GetWindowRect` (`[left, top, right, bottom]`, its
/// invisible resize borders included), `None` for a closed window.
pub fn window_rect(h: i64) -> Option<[i32; 4]> {
    let mut rect = RECT::default();
    // SAFETY: a read-only query writing into a local RECT.
    unsafe { GetWindowRect(hwnd(h), &mut rect) }.ok()?;
    Some(ltrb(rect))
}

/// The root (`GetAncestor(.., GA_ROOT)`) of window `h`, with its title
/// and process, as the input checks name it ([`crate::guard`]).
pub fn top_of(h: i64) -> crate::guard::Top {
    use windows::Win32::UI::WindowsAndMessaging::{GetAncestor, GA_ROOT};
    if h == 0 {
        return crate::guard::Top::default();
    }
    // SAFETY: a plain query with a window handle (a stale one gives null).
    let root = unsafe { GetAncestor(hwnd(h), GA_ROOT) };
    if root.is_invalid() {
        return crate::guard::Top::default();
    }
    let facts = window_facts(root);
    crate::guard::Top {
        root: number(root),
        owner: facts.owner,
        title: facts.title,
        app: process_name(facts.pid),
    }
}

/// The dialog that holds window `h` (its root) disabled, when one does:
/// the enabled popup it owns (`GW_ENABLEDPOPUP`), a modal dialog. Raising
/// a window in that state would activate a window that takes no input.
pub fn modal_over(h: i64) -> Option<crate::guard::Top> {
    use windows::Win32::UI::Input::KeyboardAndMouse::IsWindowEnabled;
    use windows::Win32::UI::WindowsAndMessaging::{GetAncestor, GA_ROOT, GW_ENABLEDPOPUP};
    // SAFETY: plain queries with window handles (a stale one gives null
    // or FALSE).
    unsafe {
        let root = GetAncestor(hwnd(h), GA_ROOT);
        if root.is_invalid() || IsWindowEnabled(root).as_bool() {
            return None;
        }
        let popup = GetWindow(root, GW_ENABLEDPOPUP).ok()?;
        Some(top_of(number(popup)))
    }
}

/// The top-level window on top at screen pixel `x`, `y`
/// (`WindowFromPoint`'s root).
pub fn top_at(x: i64, y: i64) -> crate::guard::Top {
    use windows::Win32::UI::WindowsAndMessaging::WindowFromPoint;
    let p = POINT {
        x: i32::try_from(x).unwrap_or(i32::MAX),
        y: i32::try_from(y).unwrap_or(i32::MAX),
    };
    // SAFETY: a plain query with a point.
    let h = unsafe { WindowFromPoint(p) };
    top_of(number(h))
}

/// `GetForegroundWindow` as a number (0: none).
/// A round trip to the thread of window `hwnd`: returns once that thread
/// has taken a message again (it finished what it was doing: handling a
/// key, building a dialog), or after `timeout_ms`; `false` when it did
/// not answer in time or the window is gone.
pub fn round_trip(hwnd: i64, timeout_ms: u32) -> bool {
    let mut result = 0usize;
    // SAFETY: WM_NULL carries no pointers; `result` outlives the call.
    let r = unsafe {
        SendMessageTimeoutW(
            self::hwnd(hwnd),
            WM_NULL,
            WPARAM(0),
            LPARAM(0),
            SMTO_ABORTIFHUNG,
            timeout_ms,
            Some(&mut result),
        )
    };
    r.0 != 0
}

pub fn foreground() -> i64 {
    // SAFETY: a plain query.
    number(unsafe { GetForegroundWindow() })
}

unsafe extern "system" fn monitor(m: HMONITOR, _dc: HDC, _r: *mut RECT, out: LPARAM) -> BOOL {
    // SAFETY: `out` is the `&mut Vec<HMONITOR>` that `screen` passed.
    let list = unsafe { &mut *(out.0 as *mut Vec<HMONITOR>) };
    list.push(m);
    BOOL(1)
}

/// The virtual screen and every monitor with its effective DPI.
pub fn screen() -> ScreenFacts {
    let mut handles: Vec<HMONITOR> = Vec::new();
    // SAFETY: the callback only pushes into the vector whose address is
    // passed; the vector outlives the call.
    let _ = unsafe {
        EnumDisplayMonitors(
            None,
            None,
            Some(monitor),
            LPARAM(&mut handles as *mut Vec<HMONITOR> as isize),
        )
    };
    let monitors = handles
        .into_iter()
        .filter_map(|m| {
            let mut info = MONITORINFOEXW::default();
            info.monitorInfo.cbSize = size_of::<MONITORINFOEXW>() as u32;
            let (mut dx, mut dy) = (0_u32, 0_u32);
            // SAFETY: `info` is a MONITORINFOEXW with its size set, as the
            // call requires; the DPI outputs are locals.
            unsafe {
                if !GetMonitorInfoW(m, (&mut info as *mut MONITORINFOEXW).cast::<MONITORINFO>())
                    .as_bool()
                {
                    return None;
                }
                if GetDpiForMonitor(m, MDT_EFFECTIVE_DPI, &mut dx, &mut dy).is_err() {
                    dx = 96;
                }
            }
            let name_len = info
                .szDevice
                .iter()
                .position(|c| *c == 0)
                .unwrap_or(info.szDevice.len());
            Some(MonitorFacts {
                name: String::from_utf16_lossy(&info.szDevice[..name_len]),
                rect: ltrb(info.monitorInfo.rcMonitor),
                work: ltrb(info.monitorInfo.rcWork),
                dpi: dx,
                primary: info.monitorInfo.dwFlags & 1 != 0,
            })
        })
        .collect();
    // SAFETY: plain queries.
    let virtual_screen = unsafe {
        [
            GetSystemMetrics(SM_XVIRTUALSCREEN),
            GetSystemMetrics(SM_YVIRTUALSCREEN),
            GetSystemMetrics(SM_CXVIRTUALSCREEN),
            GetSystemMetrics(SM_CYVIRTUALSCREEN),
        ]
    };
    ScreenFacts {
        virtual_screen,
        monitors,
    }
}

/// Where the pointer is, in physical pixels.
pub fn cursor() -> Option<(i64, i64)> {
    let mut p = POINT::default();
    // SAFETY: a query into a local.
    unsafe { GetCursorPos(&mut p) }.ok()?;
    Some((i64::from(p.x), i64::from(p.y)))
}

/// Opens `target` (a shortcut, an executable, a `shell:` path) with
/// `args` through the shell, as the Start menu does; the process id when
/// the shell started a process (a packaged app's activation gives none).
pub fn launch(target: &str, args: &str) -> Result<Option<u32>, String> {
    // The shell activates `shell:AppsFolder` entries and verb handlers
    // through COM, which ShellExecuteEx wants initialised as a
    // single-threaded apartment: on a thread of its own, so no other
    // apartment is disturbed.
    let (target, args) = (target.to_owned(), args.to_owned());
    std::thread::Builder::new()
        .name("cup-launch".into())
        .spawn(move || {
            use windows::Win32::System::Com::{
                CoInitializeEx, CoUninitialize, COINIT_APARTMENTTHREADED, COINIT_DISABLE_OLE1DDE,
            };
            // SAFETY: COM is initialised on this new thread, used by the
            // shell call below and uninitialised after it on the same thread.
            let com =
                unsafe { CoInitializeEx(None, COINIT_APARTMENTTHREADED | COINIT_DISABLE_OLE1DDE) };
            let out = launch_here(&target, &args);
            if com.is_ok() {
                // SAFETY: paired with the successful CoInitializeEx above.
                unsafe { CoUninitialize() };
            }
            out
        })
        .map_err(|e| format!("cannot start the launch thread: {e}"))?
        .join()
        .map_err(|_| "the launch thread panicked".to_owned())?
}

fn launch_here(target: &str, args: &str) -> Result<Option<u32>, String> {
    use windows::core::PCWSTR;
    use windows::Win32::System::Threading::GetProcessId;
    use windows::Win32::UI::Shell::{
        ShellExecuteExW, SEE_MASK_FLAG_NO_UI, SEE_MASK_NOASYNC, SEE_MASK_NOCLOSEPROCESS,
        SHELLEXECUTEINFOW,
    };
    use windows::Win32::UI::WindowsAndMessaging::SW_SHOWNORMAL;
    let wide = |s: &str| -> Vec<u16> { s.encode_utf16().chain(Some(0)).collect() };
    let (file, params, verb) = (wide(target), wide(args), wide("open"));
    let mut info = SHELLEXECUTEINFOW {
        cbSize: size_of::<SHELLEXECUTEINFOW>() as u32,
        // NOASYNC: the call returns only once the shell is done (the
        // thread's apartment ends right after).
        fMask: SEE_MASK_NOCLOSEPROCESS | SEE_MASK_FLAG_NO_UI | SEE_MASK_NOASYNC,
        lpVerb: PCWSTR(verb.as_ptr()),
        lpFile: PCWSTR(file.as_ptr()),
        lpParameters: if args.is_empty() {
            PCWSTR::null()
        } else {
            PCWSTR(params.as_ptr())
        },
        nShow: SW_SHOWNORMAL.0,
        ..SHELLEXECUTEINFOW::default()
    };
    // SAFETY: `info` has its size set and points at NUL-terminated wide
    // strings that outlive the call; the process handle it returns is
    // closed below.
    unsafe {
        ShellExecuteExW(&mut info).map_err(|e| {
            format!(
                "{}; check that '{target}' exists and opens by double-click",
                crate::os::call_error(&e, "ShellExecuteExW")
            )
        })?;
        if info.hProcess.is_invalid() {
            return Ok(None);
        }
        let pid = GetProcessId(info.hProcess);
        let _ = CloseHandle(info.hProcess);
        Ok(Some(pid).filter(|p| *p != 0))
    }
}

/// Brings window `h` to the foreground (before keyboard input to it).
/// Windows may refuse when another app holds the foreground lock.
pub fn raise(h: i64) -> bool {
    use windows::Win32::UI::WindowsAndMessaging::SetForegroundWindow;
    // SAFETY: a plain call with a window handle.
    unsafe { SetForegroundWindow(hwnd(h)) }.as_bool()
}

/// The shell's desktop list view (the icons): `Progman` or a `WorkerW`,
/// then `SHELLDLL_DefView`, then `SysListView32`.
pub fn desktop_list() -> Option<i64> {
    use windows::core::w;
    use windows::Win32::UI::WindowsAndMessaging::{FindWindowExW, FindWindowW};
    // SAFETY: window lookups by class name with constant wide strings.
    unsafe {
        let find_view = |parent: HWND| -> Option<HWND> {
            let view = FindWindowExW(Some(parent), None, w!("SHELLDLL_DefView"), None).ok()?;
            FindWindowExW(Some(view), None, w!("SysListView32"), None).ok()
        };
        if let Ok(progman) = FindWindowW(w!("Progman"), None) {
            if let Some(list) = find_view(progman) {
                return Some(number(list));
            }
        }
        let mut after: Option<HWND> = None;
        while let Ok(worker) = FindWindowExW(None, after, w!("WorkerW"), None) {
            if let Some(list) = find_view(worker) {
                return Some(number(list));
            }
            after = Some(worker);
        }
        None
    }
}

/// The name of the input desktop (`Default`; `Winlogon` on the secure
/// desktop), or why it cannot be opened (the secure desktop is closed to
/// apps).
pub fn input_desktop() -> Result<String, String> {
    use windows::Win32::System::StationsAndDesktops::{
        CloseDesktop, GetUserObjectInformationW, OpenInputDesktop, DESKTOP_CONTROL_FLAGS,
        DESKTOP_READOBJECTS, UOI_NAME,
    };
    // SAFETY: the desktop handle is closed below; the name buffer outlives
    // the call and its size is passed.
    unsafe {
        let d = OpenInputDesktop(DESKTOP_CONTROL_FLAGS(0), false, DESKTOP_READOBJECTS)
            .map_err(|e| crate::os::call_error(&e, "OpenInputDesktop"))?;
        let mut buf = [0_u16; 128];
        let got = GetUserObjectInformationW(
            HANDLE(d.0),
            UOI_NAME,
            Some(buf.as_mut_ptr().cast()),
            (buf.len() * 2) as u32,
            None,
        );
        let _ = CloseDesktop(d);
        got.map_err(|e| crate::os::call_error(&e, "GetUserObjectInformationW(UOI_NAME)"))?;
        let n = buf.iter().position(|c| *c == 0).unwrap_or(buf.len());
        Ok(String::from_utf16_lossy(&buf[..n]))
    }
}

unsafe extern "system" fn collect_child(h: HWND, out: LPARAM) -> BOOL {
    // SAFETY: `out` is the `&mut Vec<HWND>` that `child_windows` passed,
    // alive for the whole enumeration.
    let list = unsafe { &mut *(out.0 as *mut Vec<HWND>) };
    list.push(h);
    BOOL(1)
}

/// The visible direct child windows of `parent`, in Z order.
pub fn child_windows(parent: i64) -> Vec<i64> {
    use windows::Win32::UI::WindowsAndMessaging::{EnumChildWindows, GetAncestor, GA_PARENT};
    let mut all: Vec<HWND> = Vec::new();
    let p = hwnd(parent);
    // SAFETY: the callback only pushes into the vector whose address is
    // passed; the vector outlives the call. The later reads are queries of
    // the handles found.
    unsafe {
        let _ = EnumChildWindows(
            Some(p),
            Some(collect_child),
            LPARAM(&mut all as *mut Vec<HWND> as isize),
        );
        all.into_iter()
            .filter(|h| GetAncestor(*h, GA_PARENT) == p && IsWindowVisible(*h).as_bool())
            .map(number)
            .collect()
    }
}

/// The window with the keyboard focus on the foreground thread (0: none).
pub fn focus_window() -> i64 {
    use windows::Win32::UI::WindowsAndMessaging::{GetGUIThreadInfo, GUITHREADINFO};
    let mut info = GUITHREADINFO {
        cbSize: size_of::<GUITHREADINFO>() as u32,
        ..GUITHREADINFO::default()
    };
    // SAFETY: `info` has its size set; thread 0 is the foreground thread.
    match unsafe { GetGUIThreadInfo(0, &mut info) } {
        Ok(()) => number(info.hwndFocus),
        Err(_) => 0,
    }
}

/// `GWL_STYLE` of window `h` (0 when `h` is 0 or gone).
pub fn style(h: i64) -> u32 {
    if h == 0 {
        return 0;
    }
    // SAFETY: a query of a window handle (a stale one answers 0).
    unsafe { GetWindowLongW(hwnd(h), GWL_STYLE) as u32 }
}

/// Packaged (and all other Start) apps of the shell's Apps folder
/// (`FOLDERID_AppsFolder`): display name and AUMID, opened as
/// `shell:AppsFolder\<AUMID>`. Runs on a UIA worker (COM is started
/// there); empty when the folder does not exist (Wine answers 0x80070002).
pub fn apps_folder() -> Vec<crate::apps::App> {
    use windows::Win32::System::Com::{CoTaskMemFree, IBindCtx};
    use windows::Win32::UI::Shell::{
        BHID_EnumItems, FOLDERID_AppsFolder, IEnumShellItems, IShellItem, SHGetKnownFolderItem,
        KF_FLAG_DEFAULT, SIGDN_NORMALDISPLAY, SIGDN_PARENTRELATIVEPARSING,
    };
    let mut out = Vec::new();
    // SAFETY: called on a worker whose thread started COM; shell items are
    // used on it only; every string the shell allocates is copied and freed
    // with CoTaskMemFree.
    unsafe {
        let folder: IShellItem =
            match SHGetKnownFolderItem(&FOLDERID_AppsFolder, KF_FLAG_DEFAULT, None) {
                Ok(f) => f,
                Err(e) => {
                    tracing::debug!(
                        "{}",
                        crate::os::call_error(&e, "SHGetKnownFolderItem(FOLDERID_AppsFolder)")
                    );
                    return out;
                }
            };
        let Ok(items) =
            folder.BindToHandler::<Option<&IBindCtx>, IEnumShellItems>(None, &BHID_EnumItems)
        else {
            return out;
        };
        let name = |item: &IShellItem, kind| -> Option<String> {
            let p = item.GetDisplayName(kind).ok()?;
            let s = p.to_string().ok();
            CoTaskMemFree(Some(p.0 as *const core::ffi::c_void));
            s
        };
        loop {
            let mut batch: [Option<IShellItem>; 1] = [None];
            let mut fetched = 0_u32;
            if items.Next(&mut batch, Some(&mut fetched)).is_err() || fetched == 0 {
                break;
            }
            let Some(item) = batch[0].take() else { break };
            if let (Some(display), Some(aumid)) = (
                name(&item, SIGDN_NORMALDISPLAY),
                name(&item, SIGDN_PARENTRELATIVEPARSING),
            ) {
                out.push(crate::apps::App {
                    name: display,
                    target: format!(r"shell:AppsFolder\{aumid}"),
                });
            }
        }
    }
    out
}
