/*
 * probe.c: measures, under Wine, the Win32/UI Automation calls cup-windows relies
 * on (results in FINDINGS.md next to this file). Build on the Debian host:
 *
 *   x86_64-w64-mingw32-gcc -O1 -Wall -o probe.exe probe.c \
 *       -lole32 -loleaut32 -luuid -lshcore -ldwmapi -lshell32 -luser32 -lgdi32 -ladvapi32 -loleacc
 *
 * Run (see FINDINGS.md for the chroot/Xvfb set-up): wine probe.exe [HOST_START_UNIX_MS]
 * It starts Wine's notepad itself, probes, and leaves notepad running (stop the
 * prefix with `wineserver -k`).
 *
 * The UIA interfaces are called through their vtables by index (the Debian 12
 * mingw-w64 headers lack uiautomationclient's interfaces); the indices follow
 * UIAutomationClient.idl's method order, listed next to each macro.
 */
#define COBJMACROS
#define __USE_MINGW_ANSI_STDIO 1
#include <windows.h>
#include <ole2.h>
#include <oleauto.h>
#include <shlobj.h>
#include <shobjidl.h>
#include <knownfolders.h>
#include <dwmapi.h>
#include <shellscalingapi.h>
#include <oleacc.h>
#include <stdio.h>
#include <stdarg.h>

/* ---- GUIDs ---- */
static const GUID CLSID_CUIA = {0xff48dba4, 0x60ef, 0x4201, {0xaa, 0x87, 0x54, 0x10, 0x3e, 0xef, 0x59, 0x4e}};
static const GUID CLSID_CUIA8 = {0xe22ad333, 0xb25f, 0x460c, {0x83, 0xd0, 0x05, 0x81, 0x10, 0x73, 0x95, 0xc9}};
static const GUID IID_UIA = {0x30cbe57d, 0xd9d0, 0x452a, {0xab, 0x13, 0x7a, 0xc5, 0xac, 0x48, 0x25, 0xee}};
static const GUID IID_UIA2 = {0x34723aff, 0x0c9d, 0x49d0, {0x98, 0x96, 0x7a, 0xb5, 0x2d, 0xf8, 0xcd, 0x8a}};
static const GUID IID_UIA3 = {0x73d768da, 0x9b51, 0x4b89, {0x93, 0x6e, 0xc2, 0x09, 0x29, 0x09, 0x73, 0xe7}};
static const GUID IID_UIA4 = {0x1189c02a, 0x05f8, 0x4319, {0x8e, 0x21, 0xe8, 0x17, 0xe3, 0xdb, 0x28, 0x60}};
static const GUID IID_UIA5 = {0x25f700c8, 0xd816, 0x4057, {0xa9, 0xdc, 0x3c, 0xbd, 0xee, 0x77, 0xe2, 0x56}};
static const GUID IID_UIA6 = {0xaae072da, 0x29e3, 0x413d, {0x87, 0xa7, 0x19, 0x2d, 0xbf, 0x81, 0xed, 0x10}};
static const GUID IID_El2 = {0x6749c683, 0xf70d, 0x4487, {0xa6, 0x98, 0x5f, 0x79, 0xd5, 0x52, 0x90, 0xd6}};
static const GUID IID_El4 = {0x3b6e233c, 0x52fb, 0x4063, {0xa4, 0xc9, 0x77, 0xc0, 0x75, 0xc2, 0xa0, 0x6b}};
static const GUID IID_El9 = {0x39325fac, 0x039d, 0x440e, {0xa3, 0xa3, 0x5e, 0xb8, 0x1a, 0x5c, 0xec, 0xc3}};
static const GUID IID_Legacy = {0x828055ad, 0x355b, 0x4435, {0x86, 0xd5, 0x3b, 0x51, 0xc1, 0x4a, 0x9b, 0x1b}};
static const GUID IID_Invoke = {0xfb377fbe, 0x8ea6, 0x46d5, {0x9c, 0x73, 0x64, 0x99, 0x64, 0x2d, 0x30, 0x59}};
static const GUID IID_Value = {0xa94cd8b1, 0x0844, 0x4cd6, {0x9d, 0x2d, 0x64, 0x05, 0x37, 0xab, 0x39, 0xe9}};

/* ---- vtable calls ---- */
typedef void U; /* any COM object */
#define VT(o, i) ((*(void ***)(o))[i])
#define CALL(o, i, ...) (((HRESULT(STDMETHODCALLTYPE *)())VT(o, i))(o, ##__VA_ARGS__))
static ULONG rel(U *o) { return o ? ((ULONG(STDMETHODCALLTYPE *)(U *))VT(o, 2))(o) : 0; }
static HRESULT qi(U *o, const GUID *iid, U **out) { return ((HRESULT(STDMETHODCALLTYPE *)(U *, const GUID *, U **))VT(o, 0))(o, iid, out); }

/* IUIAutomation */
#define UIA_GetRootElement(a, pe) CALL(a, 5, pe)
#define UIA_ElementFromHandle(a, h, pe) CALL(a, 6, h, pe)
#define UIA_ElementFromPoint(a, pt, pe) (((HRESULT(STDMETHODCALLTYPE *)(U *, POINT, U **))VT(a, 7))(a, pt, pe))
#define UIA_GetFocusedElement(a, pe) CALL(a, 8, pe)
#define UIA_GetRootElementBuildCache(a, cr, pe) CALL(a, 9, cr, pe)
#define UIA_ElementFromHandleBuildCache(a, h, cr, pe) CALL(a, 10, h, cr, pe)
#define UIA_GetFocusedElementBuildCache(a, cr, pe) CALL(a, 12, cr, pe)
#define UIA_CreateTreeWalker(a, c, pw) CALL(a, 13, c, pw)
#define UIA_get_ControlViewWalker(a, pw) CALL(a, 14, pw)
#define UIA_get_RawViewWalker(a, pw) CALL(a, 16, pw)
#define UIA_get_ControlViewCondition(a, pc) CALL(a, 18, pc)
#define UIA_CreateCacheRequest(a, pcr) CALL(a, 20, pcr)
#define UIA_CreateTrueCondition(a, pc) CALL(a, 21, pc)
#define UIA_CreateAndCondition(a, c1, c2, pc) CALL(a, 25, c1, c2, pc)
#define UIA_CheckNotSupported(a, v, pb) (((HRESULT(STDMETHODCALLTYPE *)(U *, VARIANT, BOOL *))VT(a, 53))(a, v, pb))
#define UIA_get_ReservedNotSupportedValue(a, pu) CALL(a, 54, pu)
/* IUIAutomationElement */
#define EL_SetFocus(e) CALL(e, 3)
#define EL_GetRuntimeId(e, psa) CALL(e, 4, psa)
#define EL_FindAll(e, s, c, pa) CALL(e, 6, s, c, pa)
#define EL_FindAllBuildCache(e, s, c, cr, pa) CALL(e, 8, s, c, cr, pa)
#define EL_BuildUpdatedCache(e, cr, pe) CALL(e, 9, cr, pe)
#define EL_GetCurrentPropertyValueEx(e, id, ign, pv) CALL(e, 11, id, ign, pv)
#define EL_GetCachedPropertyValueEx(e, id, ign, pv) CALL(e, 13, id, ign, pv)
#define EL_GetCurrentPatternAs(e, id, iid, pp) CALL(e, 14, id, iid, pp)
#define EL_GetCachedPatternAs(e, id, iid, pp) CALL(e, 15, id, iid, pp)
#define EL_GetCurrentPattern(e, id, pp) CALL(e, 16, id, pp)
#define EL_GetCachedPattern(e, id, pp) CALL(e, 17, id, pp)
#define EL_GetCachedParent(e, pe) CALL(e, 18, pe)
#define EL_GetCachedChildren(e, pa) CALL(e, 19, pa)
#define EL_get_CurrentProcessId(e, p) CALL(e, 20, p)
#define EL_get_CurrentControlType(e, p) CALL(e, 21, p)
#define EL_get_CurrentName(e, p) CALL(e, 23, p)
#define EL_get_CurrentIsEnabled(e, p) CALL(e, 28, p)
#define EL_get_CurrentAutomationId(e, p) CALL(e, 29, p)
#define EL_get_CurrentClassName(e, p) CALL(e, 30, p)
#define EL_get_CurrentNativeWindowHandle(e, p) CALL(e, 36, p)
#define EL_get_CurrentBoundingRectangle(e, p) CALL(e, 43, p)
#define EL_get_CachedControlType(e, p) CALL(e, 53, p)
#define EL_get_CachedName(e, p) CALL(e, 55, p)
#define EL_get_CachedBoundingRectangle(e, p) CALL(e, 75, p)
#define EL_GetClickablePoint(e, pt, pb) CALL(e, 84, pt, pb)
/* IUIAutomationElementArray */
#define ARR_get_Length(a, pn) CALL(a, 3, pn)
#define ARR_GetElement(a, i, pe) CALL(a, 4, i, pe)
/* IUIAutomationCacheRequest */
#define CR_AddProperty(c, id) CALL(c, 3, id)
#define CR_AddPattern(c, id) CALL(c, 4, id)
#define CR_get_TreeScope(c, p) CALL(c, 6, p)
#define CR_put_TreeScope(c, s) CALL(c, 7, s)
#define CR_put_TreeFilter(c, f) CALL(c, 9, f)
#define CR_put_AutomationElementMode(c, m) CALL(c, 11, m)
/* IUIAutomationTreeWalker */
#define TW_GetFirstChildElement(w, e, pe) CALL(w, 4, e, pe)
#define TW_GetNextSiblingElement(w, e, pe) CALL(w, 6, e, pe)
#define TW_GetFirstChildElementBuildCache(w, e, cr, pe) CALL(w, 10, e, cr, pe)
#define TW_GetNextSiblingElementBuildCache(w, e, cr, pe) CALL(w, 12, e, cr, pe)
/* patterns */
#define LEG_DoDefaultAction(p) CALL(p, 4)
#define LEG_get_CurrentName(p, pb) CALL(p, 7, pb)
#define LEG_get_CurrentValue(p, pb) CALL(p, 8, pb)
#define LEG_get_CurrentRole(p, pd) CALL(p, 10, pd)
#define LEG_get_CurrentState(p, pd) CALL(p, 11, pd)
#define VAL_get_CurrentValue(p, pb) CALL(p, 4, pb)

enum { TreeScope_Element = 1, TreeScope_Children = 2, TreeScope_Descendants = 4, TreeScope_Subtree = 7 };

/* ---- output ---- */
static void out(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}
static char *u8(const WCHAR *w) { /* rotating buffers */
    static char buf[8][4096];
    static int n;
    char *b = buf[n++ & 7];
    if (!w) return strcpy(b, "(null)");
    WideCharToMultiByte(CP_UTF8, 0, w, -1, b, sizeof buf[0], NULL, NULL);
    return b;
}
static LARGE_INTEGER qpf;
static double now_ms(void) {
    LARGE_INTEGER c;
    QueryPerformanceCounter(&c);
    return c.QuadPart * 1000.0 / qpf.QuadPart;
}
static double unix_ms(void) {
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    ULONGLONG t = ((ULONGLONG)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
    return (t - 116444736000000000ULL) / 10000.0;
}
#define HR "0x%08lx"
#define H(x) ((unsigned long)(x))

/* ---- property ids ---- */
typedef struct { int id; const char *name; } Prop;
static const Prop PROPS[] = {
    {30003, "ControlType"}, {30004, "LocalizedControlType"}, {30005, "Name"}, {30006, "AcceleratorKey"},
    {30007, "AccessKey"}, {30008, "HasKeyboardFocus"}, {30009, "IsKeyboardFocusable"}, {30010, "IsEnabled"},
    {30011, "AutomationId"}, {30012, "ClassName"}, {30013, "HelpText"}, {30001, "BoundingRectangle"},
    {30000, "RuntimeId"}, {30002, "ProcessId"}, {30020, "NativeWindowHandle"}, {30022, "IsOffscreen"},
    {30023, "Orientation"}, {30024, "FrameworkId"}, {30025, "IsRequiredForForm"}, {30019, "IsPassword"},
    {30101, "AriaRole"}, {30102, "AriaProperties"}, {30174, "IsDialog"}, {30173, "HeadingLevel"},
    {30152, "PositionInSet"}, {30153, "SizeOfSet"}, {30154, "Level"},
    {30031, "IsInvokePatternAvailable"}, {30041, "IsTogglePatternAvailable"},
    {30028, "IsExpandCollapsePatternAvailable"}, {30043, "IsValuePatternAvailable"},
    {30033, "IsRangeValuePatternAvailable"}, {30037, "IsSelectionPatternAvailable"},
    {30036, "IsSelectionItemPatternAvailable"}, {30034, "IsScrollPatternAvailable"},
    {30035, "IsScrollItemPatternAvailable"}, {30030, "IsGridPatternAvailable"},
    {30029, "IsGridItemPatternAvailable"}, {30038, "IsTablePatternAvailable"},
    {30039, "IsTableItemPatternAvailable"}, {30044, "IsWindowPatternAvailable"},
    {30040, "IsTextPatternAvailable"}, {30090, "IsLegacyIAccessiblePatternAvailable"},
    {30045, "ValueValue"}, {30046, "ValueIsReadOnly"}, {30086, "ToggleToggleState"},
    {30070, "ExpandCollapseState"}, {30079, "SelectionItemIsSelected"}, {30047, "RangeValueValue"},
    {30050, "RangeValueMinimum"}, {30049, "RangeValueMaximum"}, {30077, "WindowIsModal"},
    {30095, "LegacyRole"}, {30096, "LegacyState"}, {30100, "LegacyDefaultAction"}, {30093, "LegacyValue"},
    {30092, "LegacyName"},
};
#define NPROPS ((int)(sizeof PROPS / sizeof PROPS[0]))
static HRESULT add_hr[NPROPS];

static U *uia;
static IUnknown *not_supported; /* UiaGetReservedNotSupportedValue */
static IUnknown *not_supported2; /* IUIAutomation::get_ReservedNotSupportedValue */

static const char *vt_name(VARTYPE vt) {
    static char b[32];
    switch (vt) {
    case VT_EMPTY: return "VT_EMPTY";
    case VT_I4: return "VT_I4";
    case VT_BOOL: return "VT_BOOL";
    case VT_BSTR: return "VT_BSTR";
    case VT_R8: return "VT_R8";
    case VT_UNKNOWN: return "VT_UNKNOWN";
    case VT_I4 | VT_ARRAY: return "VT_I4|VT_ARRAY";
    case VT_R8 | VT_ARRAY: return "VT_R8|VT_ARRAY";
    case VT_UNKNOWN | VT_ARRAY: return "VT_UNKNOWN|VT_ARRAY";
    }
    snprintf(b, sizeof b, "vt=0x%x", vt);
    return b;
}
/* Formats a VARIANT into b. */
static char *fmt_var(VARIANT *v, char *b, size_t n) {
    const char *t = vt_name(V_VT(v));
    switch (V_VT(v)) {
    case VT_EMPTY: snprintf(b, n, "VT_EMPTY"); break;
    case VT_I4: snprintf(b, n, "%s %ld", t, V_I4(v)); break;
    case VT_BOOL: snprintf(b, n, "%s %s", t, V_BOOL(v) ? "TRUE" : "FALSE"); break;
    case VT_R8: snprintf(b, n, "%s %g", t, V_R8(v)); break;
    case VT_BSTR: snprintf(b, n, "%s \"%s\"", t, u8(V_BSTR(v))); break;
    case VT_UNKNOWN: {
        BOOL ns = FALSE;
        VARIANT c = *v;
        HRESULT hr = UIA_CheckNotSupported(uia, c, &ns);
        snprintf(b, n, "%s %p%s%s (CheckNotSupported " HR " -> %d)", t, (void *)V_UNKNOWN(v),
                 V_UNKNOWN(v) == not_supported ? " = UiaGetReservedNotSupportedValue" : "",
                 V_UNKNOWN(v) == not_supported2 ? " = get_ReservedNotSupportedValue" : "", H(hr), ns);
        break;
    }
    default:
        if (V_VT(v) & VT_ARRAY) {
            SAFEARRAY *sa = V_ARRAY(v);
            LONG lo = 0, hi = -1;
            SafeArrayGetLBound(sa, 1, &lo);
            SafeArrayGetUBound(sa, 1, &hi);
            int k = snprintf(b, n, "%s [", t);
            for (LONG i = lo; i <= hi && k < (int)n - 40; i++) {
                if ((V_VT(v) & ~VT_ARRAY) == VT_R8) {
                    double d;
                    SafeArrayGetElement(sa, &i, &d);
                    k += snprintf(b + k, n - k, "%s%g", i > lo ? "," : "", d);
                } else if ((V_VT(v) & ~VT_ARRAY) == VT_I4) {
                    LONG d;
                    SafeArrayGetElement(sa, &i, &d);
                    k += snprintf(b + k, n - k, "%s%ld", i > lo ? "," : "", d);
                } else {
                    k += snprintf(b + k, n - k, "%s?", i > lo ? "," : "");
                }
            }
            snprintf(b + k, n - k, "]");
        } else {
            snprintf(b, n, "%s", t);
        }
    }
    return b;
}

/* ---- helpers ---- */
static BSTR cached_name(U *e) {
    VARIANT v;
    VariantInit(&v);
    if (SUCCEEDED(EL_GetCachedPropertyValueEx(e, 30005, FALSE, &v)) && V_VT(&v) == VT_BSTR) return V_BSTR(&v);
    VariantClear(&v);
    return NULL;
}
static LONG cached_i4(U *e, int id, LONG dflt) {
    VARIANT v;
    VariantInit(&v);
    LONG r = dflt;
    if (SUCCEEDED(EL_GetCachedPropertyValueEx(e, id, FALSE, &v)) && V_VT(&v) == VT_I4) r = V_I4(&v);
    VariantClear(&v);
    return r;
}
static BOOL cached_rect(U *e, RECT *r) {
    VARIANT v;
    VariantInit(&v);
    BOOL ok = FALSE;
    if (SUCCEEDED(EL_GetCachedPropertyValueEx(e, 30001, FALSE, &v)) && V_VT(&v) == (VT_R8 | VT_ARRAY)) {
        double d[4];
        for (LONG i = 0; i < 4; i++) SafeArrayGetElement(V_ARRAY(&v), &i, &d[i]);
        r->left = (LONG)d[0];
        r->top = (LONG)d[1];
        r->right = (LONG)(d[0] + d[2]);
        r->bottom = (LONG)(d[1] + d[3]);
        ok = TRUE;
    }
    VariantClear(&v);
    return ok;
}

/* A captured tree: elements with depth and parent. */
#define MAXN 4000
typedef struct { U *el[MAXN]; int depth[MAXN]; int parent[MAXN]; int n; int calls; double ms; } Tree;
static void tree_free(Tree *t) {
    for (int i = 0; i < t->n; i++) rel(t->el[i]);
    t->n = 0;
}
static int tree_add(Tree *t, U *e, int depth, int parent) {
    if (t->n >= MAXN) { rel(e); return -1; }
    t->el[t->n] = e;
    t->depth[t->n] = depth;
    t->parent[t->n] = parent;
    return t->n++;
}
static void tree_print(Tree *t, const char *label) {
    out("  [%s] %d nodes:\n", label, t->n);
    for (int i = 0; i < t->n; i++) {
        BSTR nm = cached_name(t->el[i]);
        RECT r = {0};
        BOOL hr = cached_rect(t->el[i], &r);
        out("    %*s#%d ct=%ld name=\"%s\" rect=%s(%ld,%ld %ldx%ld) hwnd=0x%lx class=", t->depth[i] * 2, "", i,
            cached_i4(t->el[i], 30003, -1), u8(nm), hr ? "" : "?", r.left, r.top, r.right - r.left, r.bottom - r.top,
            (unsigned long)cached_i4(t->el[i], 30020, 0));
        VARIANT v;
        VariantInit(&v);
        if (SUCCEEDED(EL_GetCachedPropertyValueEx(t->el[i], 30012, FALSE, &v)) && V_VT(&v) == VT_BSTR)
            out("\"%s\"\n", u8(V_BSTR(&v)));
        else
            out("-\n");
        VariantClear(&v);
        SysFreeString(nm);
    }
}

/* Way 1: GetCachedChildren of a cache built with TreeScope_Subtree. */
static void walk_cached(Tree *t, U *e, int depth, int parent) {
    int me = tree_add(t, e, depth, parent);
    if (me < 0) return;
    U *arr = NULL;
    t->calls++;
    HRESULT hr = EL_GetCachedChildren(e, &arr);
    if (FAILED(hr) || !arr) {
        if (depth == 0) out("  GetCachedChildren(root) -> " HR ", array %p\n", H(hr), arr);
        return;
    }
    int len = 0;
    ARR_get_Length(arr, &len);
    for (int i = 0; i < len; i++) {
        U *c = NULL;
        if (SUCCEEDED(ARR_GetElement(arr, i, &c)) && c) walk_cached(t, c, depth + 1, me);
    }
    rel(arr);
}
/* Way 2: FindAllBuildCache(TreeScope_Children) per element. */
static HRESULT first_fail_hr;
static void walk_findall(Tree *t, U *e, int depth, int parent, U *cond, U *cr) {
    int me = tree_add(t, e, depth, parent);
    if (me < 0 || depth > 40) return;
    U *arr = NULL;
    t->calls++;
    HRESULT hr = EL_FindAllBuildCache(e, TreeScope_Children, cond, cr, &arr);
    if (FAILED(hr)) {
        if (!first_fail_hr) first_fail_hr = hr;
        return;
    }
    if (!arr) return;
    int len = 0;
    ARR_get_Length(arr, &len);
    for (int i = 0; i < len; i++) {
        U *c = NULL;
        if (SUCCEEDED(ARR_GetElement(arr, i, &c)) && c) walk_findall(t, c, depth + 1, me, cond, cr);
    }
    rel(arr);
}
/* Way 3: tree walker with BuildCache navigation. */
static void walk_walker(Tree *t, U *e, int depth, int parent, U *w, U *cr) {
    int me = tree_add(t, e, depth, parent);
    if (me < 0 || depth > 40) return;
    U *c = NULL;
    t->calls++;
    HRESULT hr = TW_GetFirstChildElementBuildCache(w, e, cr, &c);
    if (FAILED(hr) && !first_fail_hr) first_fail_hr = hr;
    while (SUCCEEDED(hr) && c) {
        U *next = NULL;
        ((IUnknown *)c)->lpVtbl->AddRef((IUnknown *)c);
        walk_walker(t, c, depth + 1, me, w, cr);
        t->calls++;
        hr = TW_GetNextSiblingElementBuildCache(w, c, cr, &next);
        if (FAILED(hr) && !first_fail_hr) first_fail_hr = hr;
        rel(c);
        c = next;
    }
}

/* ---- windows ---- */
static void describe_hwnd(HWND h) {
    WCHAR cls[256] = L"", title[512] = L"";
    GetClassNameW(h, cls, 256);
    GetWindowTextW(h, title, 512);
    DWORD pid = 0, tid = GetWindowThreadProcessId(h, &pid);
    RECT r;
    GetWindowRect(h, &r);
    out("    hwnd=%p class=\"%s\" title=\"%s\" pid=%lu tid=%lu style=0x%08lx exstyle=0x%08lx owner=%p rect=(%ld,%ld)-(%ld,%ld)\n",
        (void *)h, u8(cls), u8(title), pid, tid, (unsigned long)GetWindowLongW(h, GWL_STYLE),
        (unsigned long)GetWindowLongW(h, GWL_EXSTYLE), (void *)GetWindow(h, GW_OWNER), r.left, r.top, r.right, r.bottom);
    DWORD cloaked = 0xdead;
    HRESULT hr = DwmGetWindowAttribute(h, DWMWA_CLOAKED, &cloaked, sizeof cloaked);
    RECT fr = {0};
    HRESULT hr2 = DwmGetWindowAttribute(h, DWMWA_EXTENDED_FRAME_BOUNDS, &fr, sizeof fr);
    out("      DWMWA_CLOAKED -> " HR " (value %lu); DWMWA_EXTENDED_FRAME_BOUNDS -> " HR " (%ld,%ld)-(%ld,%ld)\n", H(hr),
        cloaked, H(hr2), fr.left, fr.top, fr.right, fr.bottom);
}
static BOOL CALLBACK enum_visible(HWND h, LPARAM lp) {
    int *count = (int *)lp;
    (*count)++;
    if (IsWindowVisible(h)) describe_hwnd(h);
    return TRUE;
}
static void list_windows(const char *when) {
    int count = 0;
    out("EnumWindows (%s): visible top-level windows:\n", when);
    BOOL ok = EnumWindows(enum_visible, (LPARAM)&count);
    HWND fg = GetForegroundWindow();
    WCHAR cls[256] = L"";
    GetClassNameW(fg, cls, 256);
    out("  EnumWindows -> %d, %d top-level windows in all; GetForegroundWindow -> %p (\"%s\")\n", ok, count, (void *)fg,
        u8(cls));
}
static BOOL CALLBACK find_class(HWND h, LPARAM lp) {
    WCHAR cls[64];
    GetClassNameW(h, cls, 64);
    if (IsWindowVisible(h) && !wcscmp(cls, L"#32768")) {
        *(HWND *)lp = h;
        return FALSE;
    }
    return TRUE;
}

/* ---- monitors ---- */
static BOOL CALLBACK mon_cb(HMONITOR m, HDC dc, LPRECT rc, LPARAM lp) {
    MONITORINFOEXW mi = {.cbSize = sizeof mi};
    BOOL ok = GetMonitorInfoW(m, (MONITORINFO *)&mi);
    UINT dx = 0, dy = 0;
    HRESULT hr = GetDpiForMonitor(m, MDT_EFFECTIVE_DPI, &dx, &dy);
    UINT rx = 0, ry = 0;
    HRESULT hr2 = GetDpiForMonitor(m, MDT_RAW_DPI, &rx, &ry);
    out("  monitor %p rect=(%ld,%ld)-(%ld,%ld) GetMonitorInfoW -> %d device=\"%s\" monitor=(%ld,%ld)-(%ld,%ld) work=(%ld,%ld)-(%ld,%ld) primary=%d\n",
        (void *)m, rc->left, rc->top, rc->right, rc->bottom, ok, u8(mi.szDevice), mi.rcMonitor.left, mi.rcMonitor.top,
        mi.rcMonitor.right, mi.rcMonitor.bottom, mi.rcWork.left, mi.rcWork.top, mi.rcWork.right, mi.rcWork.bottom,
        !!(mi.dwFlags & MONITORINFOF_PRIMARY));
    out("    GetDpiForMonitor(EFFECTIVE) -> " HR " %ux%u; (RAW) -> " HR " %ux%u\n", H(hr), dx, dy, H(hr2), rx, ry);
    return TRUE;
}

/* ---- input ---- */
static void key_unicode(WCHAR c, INPUT *in, int *n) {
    in[*n].type = INPUT_KEYBOARD;
    in[*n].ki = (KEYBDINPUT){.wScan = c, .dwFlags = KEYEVENTF_UNICODE};
    (*n)++;
    in[*n].type = INPUT_KEYBOARD;
    in[*n].ki = (KEYBDINPUT){.wScan = c, .dwFlags = KEYEVENTF_UNICODE | KEYEVENTF_KEYUP};
    (*n)++;
}
static void key_vk(WORD vk, BOOL up, INPUT *in, int *n) {
    in[*n].type = INPUT_KEYBOARD;
    in[*n].ki = (KEYBDINPUT){.wVk = vk, .dwFlags = up ? KEYEVENTF_KEYUP : 0};
    (*n)++;
}
static void pump(int ms) { /* let the other process handle the input */
    Sleep(ms);
}

/* ---- MSAA (oleacc) ---- */
static int msaa_count;
static void msaa_print(IAccessible *acc, LONG cid, int depth) {
    VARIANT c;
    VariantInit(&c);
    V_VT(&c) = VT_I4;
    V_I4(&c) = cid;
    BSTR name = NULL, value = NULL, action = NULL;
    VARIANT role, state;
    VariantInit(&role);
    VariantInit(&state);
    HRESULT hn = IAccessible_get_accName(acc, c, &name);
    IAccessible_get_accRole(acc, c, &role);
    IAccessible_get_accState(acc, c, &state);
    HRESULT hv = IAccessible_get_accValue(acc, c, &value);
    HRESULT ha = IAccessible_get_accDefaultAction(acc, c, &action);
    LONG x = 0, y = 0, w = 0, h = 0;
    HRESULT hl = IAccessible_accLocation(acc, &x, &y, &w, &h, c);
    WCHAR rt[64] = L"?";
    if (V_VT(&role) == VT_I4) GetRoleTextW(V_I4(&role), rt, 64);
    HWND hw = NULL;
    WindowFromAccessibleObject(acc, &hw);
    out("    %*s[%s%ld] role=%ld(%s) name=%s\"%s\" state=0x%lx value=%s\"%s\" action=%s\"%s\" loc=" HR "(%ld,%ld %ldx%ld) hwnd=%p\n",
        depth * 2, "", cid == CHILDID_SELF ? "self" : "child ", cid == CHILDID_SELF ? 0L : cid,
        V_VT(&role) == VT_I4 ? V_I4(&role) : -1L, u8(rt), hn == S_OK ? "" : "!", u8(name),
        V_VT(&state) == VT_I4 ? V_I4(&state) : 0L, hv == S_OK ? "" : "!", u8(value), ha == S_OK ? "" : "!", u8(action),
        H(hl), x, y, w, h, (void *)hw);
    SysFreeString(name);
    SysFreeString(value);
    SysFreeString(action);
    VariantClear(&role);
    VariantClear(&state);
}
static void msaa_walk(IAccessible *acc, int depth, int maxdepth) {
    if (msaa_count++ > 400) return;
    msaa_print(acc, CHILDID_SELF, depth);
    if (depth >= maxdepth) return;
    LONG n = 0;
    HRESULT hr = IAccessible_get_accChildCount(acc, &n);
    if (FAILED(hr) || n <= 0) return;
    VARIANT kids[256];
    LONG got = 0;
    if (n > 256) n = 256;
    hr = AccessibleChildren(acc, 0, n, kids, &got);
    if (FAILED(hr)) { out("    %*sAccessibleChildren -> " HR "\n", depth * 2, "", H(hr)); return; }
    for (LONG i = 0; i < got; i++) {
        if (V_VT(&kids[i]) == VT_DISPATCH && V_DISPATCH(&kids[i])) {
            IAccessible *ca = NULL;
            if (SUCCEEDED(IDispatch_QueryInterface(V_DISPATCH(&kids[i]), &IID_IAccessible, (void **)&ca))) {
                msaa_walk(ca, depth + 1, maxdepth);
                IAccessible_Release(ca);
            }
        } else if (V_VT(&kids[i]) == VT_I4) {
            msaa_count++;
            msaa_print(acc, V_I4(&kids[i]), depth + 1);
        }
        VariantClear(&kids[i]);
    }
}
static void msaa_from_window(HWND h, LONG objid, const char *label, int maxdepth) {
    IAccessible *acc = NULL;
    double t0 = now_ms();
    HRESULT hr = AccessibleObjectFromWindow(h, objid, &IID_IAccessible, (void **)&acc);
    out("  AccessibleObjectFromWindow(%p, %s) -> " HR "\n", (void *)h, label, H(hr));
    if (!acc) return;
    msaa_count = 0;
    msaa_walk(acc, 0, maxdepth);
    out("  (%d MSAA objects, %.1f ms)\n", msaa_count, now_ms() - t0);
    IAccessible_Release(acc);
}
static BOOL CALLBACK child_cb(HWND h, LPARAM lp) {
    HWND *list = (HWND *)lp;
    int n = (int)(INT_PTR)list[0];
    if (n < 63) { list[n + 1] = h; list[0] = (HWND)(INT_PTR)(n + 1); }
    return TRUE;
}

/* ---- file listing ---- */
static void list_dir(const WCHAR *dir, int depth) {
    WCHAR pat[MAX_PATH];
    swprintf(pat, MAX_PATH, L"%ls\\*", dir);
    WIN32_FIND_DATAW fd;
    HANDLE f = FindFirstFileW(pat, &fd);
    if (f == INVALID_HANDLE_VALUE) {
        out("    %*s(FindFirstFileW failed, error %lu)\n", depth * 2, "", GetLastError());
        return;
    }
    do {
        if (!wcscmp(fd.cFileName, L".") || !wcscmp(fd.cFileName, L"..")) continue;
        out("    %*s%s%s\n", depth * 2, "", u8(fd.cFileName), fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY ? "\\" : "");
        if (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
            WCHAR sub[MAX_PATH];
            swprintf(sub, MAX_PATH, L"%ls\\%ls", dir, fd.cFileName);
            list_dir(sub, depth + 1);
        }
    } while (FindNextFileW(f, &fd));
    FindClose(f);
}

/* Dumps every probed property of e (cached and/or current). */
static void dump_props(U *e, const char *label, BOOL cached, BOOL ignore_default) {
    out("  -- %s: %s PropertyValueEx(ignoreDefaultValue=%s)\n", label, cached ? "GetCached" : "GetCurrent",
        ignore_default ? "TRUE" : "FALSE");
    for (int i = 0; i < NPROPS; i++) {
        VARIANT v;
        VariantInit(&v);
        HRESULT hr = cached ? EL_GetCachedPropertyValueEx(e, PROPS[i].id, ignore_default, &v)
                            : EL_GetCurrentPropertyValueEx(e, PROPS[i].id, ignore_default, &v);
        char b[1024];
        if (FAILED(hr))
            out("     %5d %-36s -> " HR "\n", PROPS[i].id, PROPS[i].name, H(hr));
        else
            out("     %5d %-36s -> %s\n", PROPS[i].id, PROPS[i].name, fmt_var(&v, b, sizeof b));
        VariantClear(&v);
    }
}

/* Reads the whole tree's cached properties (what a capture does per node). */
static double read_all_props(Tree *t) {
    double t0 = now_ms();
    for (int i = 0; i < t->n; i++)
        for (int k = 0; k < NPROPS; k++) {
            VARIANT v;
            VariantInit(&v);
            EL_GetCachedPropertyValueEx(t->el[i], PROPS[k].id, TRUE, &v);
            VariantClear(&v);
        }
    return now_ms() - t0;
}

/* The window's element with cache: ElementFromHandleBuildCache, else
 * ElementFromHandle + BuildUpdatedCache (Wine 10: the former is E_NOTIMPL). */
static U *cached_window(HWND h, U *cr) {
    U *e = NULL;
    if (SUCCEEDED(UIA_ElementFromHandleBuildCache(uia, h, cr, &e)) && e) return e;
    U *plain = NULL;
    if (FAILED(UIA_ElementFromHandle(uia, h, &plain)) || !plain) return NULL;
    e = NULL;
    EL_BuildUpdatedCache(plain, cr, &e);
    rel(plain);
    return e;
}

static Tree T1, T2, T3;

int main(int argc, char **argv) {
    QueryPerformanceFrequency(&qpf);
    double main_unix = unix_ms();
    double t_start = now_ms();
    setvbuf(stdout, NULL, _IONBF, 0);
    out("== probe main at unix %.0f ms\n", main_unix);
    if (argc > 1) out("  wine start -> probe main: %.0f ms (host start %s)\n", main_unix - atof(argv[1]), argv[1]);

    /* ---- DPI (first: before any window) ---- */
    out("\n== DPI and screens\n");
    SetLastError(0);
    BOOL dpi_ok = SetProcessDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2);
    out("  SetProcessDpiAwarenessContext(PER_MONITOR_AWARE_V2) -> %d (GetLastError %lu)\n", dpi_ok, GetLastError());
    out("  GetDpiForSystem -> %u; GetAwarenessFromDpiAwarenessContext(GetThreadDpiAwarenessContext()) -> %d\n",
        GetDpiForSystem(), GetAwarenessFromDpiAwarenessContext(GetThreadDpiAwarenessContext()));
    BOOL em = EnumDisplayMonitors(NULL, NULL, mon_cb, 0);
    out("  EnumDisplayMonitors -> %d\n", em);
    int vx = GetSystemMetrics(SM_XVIRTUALSCREEN), vy = GetSystemMetrics(SM_YVIRTUALSCREEN);
    int vw = GetSystemMetrics(SM_CXVIRTUALSCREEN), vh = GetSystemMetrics(SM_CYVIRTUALSCREEN);
    out("  SM_XVIRTUALSCREEN=%d SM_YVIRTUALSCREEN=%d SM_CXVIRTUALSCREEN=%d SM_CYVIRTUALSCREEN=%d SM_CMONITORS=%d SM_CXSCREEN=%d SM_CYSCREEN=%d\n",
        vx, vy, vw, vh, GetSystemMetrics(SM_CMONITORS), GetSystemMetrics(SM_CXSCREEN), GetSystemMetrics(SM_CYSCREEN));

    /* ---- token and desktop ---- */
    out("\n== token and desktop\n");
    HANDLE tok;
    if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &tok)) {
        BYTE buf[256];
        DWORD len = 0;
        BOOL ok = GetTokenInformation(tok, TokenIntegrityLevel, buf, sizeof buf, &len);
        DWORD rid = 0;
        if (ok) {
            PSID sid = ((TOKEN_MANDATORY_LABEL *)buf)->Label.Sid;
            rid = *GetSidSubAuthority(sid, *GetSidSubAuthorityCount(sid) - 1);
        }
        out("  GetTokenInformation(TokenIntegrityLevel) -> %d (error %lu) RID=0x%lx\n", ok, ok ? 0 : GetLastError(), rid);
        DWORD uiacc = 0xdead;
        ok = GetTokenInformation(tok, TokenUIAccess, &uiacc, sizeof uiacc, &len);
        out("  GetTokenInformation(TokenUIAccess) -> %d (error %lu) value=%lu\n", ok, ok ? 0 : GetLastError(), uiacc);
        TOKEN_ELEVATION el = {0xdead};
        ok = GetTokenInformation(tok, TokenElevation, &el, sizeof el, &len);
        out("  GetTokenInformation(TokenElevation) -> %d (error %lu) TokenIsElevated=%lu\n", ok, ok ? 0 : GetLastError(),
            el.TokenIsElevated);
        TOKEN_ELEVATION_TYPE et = 0;
        ok = GetTokenInformation(tok, TokenElevationType, &et, sizeof et, &len);
        out("  GetTokenInformation(TokenElevationType) -> %d value=%d\n", ok, et);
        CloseHandle(tok);
    }
    HDESK desk = OpenInputDesktop(0, FALSE, DESKTOP_READOBJECTS);
    out("  OpenInputDesktop -> %p (error %lu)\n", (void *)desk, desk ? 0 : GetLastError());
    if (desk) {
        WCHAR name[256] = L"";
        DWORD need = 0;
        BOOL ok = GetUserObjectInformationW(desk, UOI_NAME, name, sizeof name, &need);
        out("  GetUserObjectInformationW(UOI_NAME) -> %d \"%s\"\n", ok, u8(name));
        CloseDesktop(desk);
    }

    /* ---- start notepad ---- */
    out("\n== notepad\n");
    STARTUPINFOW si = {.cb = sizeof si};
    PROCESS_INFORMATION pi;
    WCHAR cmd[] = L"notepad.exe";
    double t0 = now_ms();
    BOOL cp = CreateProcessW(NULL, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi);
    out("  CreateProcessW(notepad.exe) -> %d pid=%lu\n", cp, cp ? pi.dwProcessId : 0);
    if (!cp) return 1;
    DWORD wi = WaitForInputIdle(pi.hProcess, 10000);
    out("  WaitForInputIdle -> %lu after %.0f ms\n", wi, now_ms() - t0);
    HWND np = NULL;
    for (int i = 0; i < 200 && !np; i++) {
        HWND h = NULL;
        while ((h = FindWindowExW(NULL, h, L"Notepad", NULL))) {
            DWORD pid;
            GetWindowThreadProcessId(h, &pid);
            if (pid == pi.dwProcessId && IsWindowVisible(h)) { np = h; break; }
        }
        if (!np) Sleep(50);
    }
    out("  notepad window %p after %.0f ms\n", (void *)np, now_ms() - t0);
    if (!np) return 1;
    HWND edit = FindWindowExW(np, NULL, L"Edit", NULL);
    out("  Edit child %p\n", (void *)edit);
    out("  GetDpiForWindow(notepad) -> %u\n", GetDpiForWindow(np));
    list_windows("notepad started");

    /* ---- COM and UIA ---- */
    out("\n== COM / UIA objects\n");
    BOOL sta = getenv("PROBE_STA") != NULL;
    HRESULT hr = CoInitializeEx(NULL, sta ? COINIT_APARTMENTTHREADED : COINIT_MULTITHREADED);
    out("  CoInitializeEx(%s) -> " HR "\n", sta ? "COINIT_APARTMENTTHREADED" : "COINIT_MULTITHREADED", H(hr));
    t0 = now_ms();
    U *uia8 = NULL;
    hr = CoCreateInstance(&CLSID_CUIA8, NULL, CLSCTX_INPROC_SERVER, &IID_UIA, (void **)&uia8);
    out("  CoCreateInstance(CLSID_CUIAutomation8, IID_IUIAutomation) -> " HR " %p (%.1f ms)\n", H(hr), uia8, now_ms() - t0);
    U *uia1 = NULL;
    hr = CoCreateInstance(&CLSID_CUIA, NULL, CLSCTX_INPROC_SERVER, &IID_UIA, (void **)&uia1);
    out("  CoCreateInstance(CLSID_CUIAutomation, IID_IUIAutomation) -> " HR " %p\n", H(hr), uia1);
    uia = uia8 ? uia8 : uia1;
    if (!uia) return 1;
    const GUID *iids[] = {&IID_UIA2, &IID_UIA3, &IID_UIA4, &IID_UIA5, &IID_UIA6};
    for (int i = 0; i < 5; i++) {
        U *x = NULL;
        hr = qi(uia, iids[i], &x);
        out("  QueryInterface(IUIAutomation%d) -> " HR "\n", i + 2, H(hr));
        rel(x);
    }
    HMODULE uiac = GetModuleHandleW(L"uiautomationcore.dll");
    HRESULT(WINAPI * pUiaGetReservedNotSupportedValue)(IUnknown **) =
        (void *)GetProcAddress(uiac, "UiaGetReservedNotSupportedValue");
    hr = pUiaGetReservedNotSupportedValue ? pUiaGetReservedNotSupportedValue(&not_supported) : E_NOINTERFACE;
    out("  UiaGetReservedNotSupportedValue -> " HR " %p\n", H(hr), (void *)not_supported);
    hr = UIA_get_ReservedNotSupportedValue(uia, (U **)&not_supported2);
    out("  IUIAutomation::get_ReservedNotSupportedValue -> " HR " %p\n", H(hr), (void *)not_supported2);

    U *truec = NULL;
    hr = UIA_CreateTrueCondition(uia, &truec);
    out("  CreateTrueCondition -> " HR "\n", H(hr));
    U *cvc = NULL, *andc = NULL;
    hr = UIA_get_ControlViewCondition(uia, &cvc);
    out("  get_ControlViewCondition -> " HR "\n", H(hr));
    hr = UIA_CreateAndCondition(uia, truec, cvc, &andc);
    out("  CreateAndCondition -> " HR "\n", H(hr));
    rel(andc);
    U *w = NULL;
    hr = UIA_get_ControlViewWalker(uia, &w);
    out("  get_ControlViewWalker -> " HR "\n", H(hr));
    rel(w);
    w = NULL;
    hr = UIA_get_RawViewWalker(uia, &w);
    out("  get_RawViewWalker -> " HR "\n", H(hr));
    rel(w);

    /* ---- the cache request ---- */
    out("\n== cache request\n");
    U *cr = NULL;
    hr = UIA_CreateCacheRequest(uia, &cr);
    out("  CreateCacheRequest -> " HR "\n", H(hr));
    int add_failed = 0;
    for (int i = 0; i < NPROPS; i++) {
        add_hr[i] = CR_AddProperty(cr, PROPS[i].id);
        if (FAILED(add_hr[i])) {
            out("  AddProperty(%d %s) -> " HR "\n", PROPS[i].id, PROPS[i].name, H(add_hr[i]));
            add_failed++;
        }
    }
    out("  AddProperty: %d of %d ids failed (the rest returned S_OK)\n", add_failed, NPROPS);
    int pats[] = {10000, 10002, 10015, 10005, 10018};
    for (int i = 0; i < 5; i++) out("  AddPattern(%d) -> " HR "\n", pats[i], H(CR_AddPattern(cr, pats[i])));
    int scope = -1;
    hr = CR_get_TreeScope(cr, &scope);
    out("  get_TreeScope -> " HR " %d\n", H(hr), scope);
    hr = CR_put_TreeScope(cr, TreeScope_Subtree);
    out("  put_TreeScope(TreeScope_Subtree) -> " HR "\n", H(hr));
    scope = -1;
    CR_get_TreeScope(cr, &scope);
    out("  get_TreeScope after -> %d\n", scope);
    hr = CR_put_TreeScope(cr, TreeScope_Element | TreeScope_Children);
    out("  put_TreeScope(Element|Children) -> " HR "\n", H(hr));
    hr = CR_put_TreeScope(cr, TreeScope_Subtree);
    hr = CR_put_TreeFilter(cr, truec);
    out("  put_TreeFilter(TrueCondition) -> " HR "\n", H(hr));
    hr = CR_put_AutomationElementMode(cr, 1);
    out("  put_AutomationElementMode(Full) -> " HR "\n", H(hr));

    /* ---- element from handle ---- */
    out("\n== ElementFromHandle(notepad)\n");
    t0 = now_ms();
    U *win = NULL;
    hr = UIA_ElementFromHandle(uia, np, &win);
    out("  ElementFromHandle -> " HR " %p (%.1f ms)\n", H(hr), win, now_ms() - t0);
    if (!win) return 1;
    const GUID *eiids[] = {&IID_El2, &IID_El4, &IID_El9};
    const int en[] = {2, 4, 9};
    for (int i = 0; i < 3; i++) {
        U *x = NULL;
        hr = qi(win, eiids[i], &x);
        out("  QueryInterface(IUIAutomationElement%d) -> " HR "\n", en[i], H(hr));
        rel(x);
    }
    { /* typed getters */
        int pid = 0, ct = 0, en2 = 0;
        BSTR b = NULL;
        RECT r = {0};
        {
            void *hw = NULL;
            out("  get_CurrentProcessId -> " HR " %d\n", H(EL_get_CurrentProcessId(win, &pid)), pid);
            out("  get_CurrentControlType -> " HR " %d\n", H(EL_get_CurrentControlType(win, &ct)), ct);
            hr = EL_get_CurrentName(win, &b);
            out("  get_CurrentName -> " HR " \"%s\"\n", H(hr), u8(b));
            SysFreeString(b);
            b = NULL;
            out("  get_CurrentIsEnabled -> " HR " %d\n", H(EL_get_CurrentIsEnabled(win, &en2)), en2);
            hr = EL_get_CurrentAutomationId(win, &b);
            out("  get_CurrentAutomationId -> " HR " \"%s\"\n", H(hr), u8(b));
            SysFreeString(b);
            b = NULL;
            hr = EL_get_CurrentClassName(win, &b);
            out("  get_CurrentClassName -> " HR " \"%s\"\n", H(hr), u8(b));
            SysFreeString(b);
            out("  get_CurrentNativeWindowHandle -> " HR " %p\n", H(EL_get_CurrentNativeWindowHandle(win, &hw)), hw);
            hr = EL_get_CurrentBoundingRectangle(win, &r);
            out("  get_CurrentBoundingRectangle -> " HR " (%ld,%ld)-(%ld,%ld)\n", H(hr), r.left, r.top, r.right, r.bottom);
            SAFEARRAY *sa = NULL;
            hr = EL_GetRuntimeId(win, &sa);
            out("  GetRuntimeId -> " HR " %p\n", H(hr), (void *)sa);
            if (sa) SafeArrayDestroy(sa);
            POINT pt = {0};
            BOOL got = 0;
            hr = EL_GetClickablePoint(win, &pt, &got);
            out("  GetClickablePoint -> " HR " got=%d (%ld,%ld)\n", H(hr), got, pt.x, pt.y);
        }
    }
    dump_props(win, "notepad window (not cached)", FALSE, FALSE);

    /* ---- capture way A: ElementFromHandle + BuildUpdatedCache(TreeScope_Subtree) + GetCachedChildren */
    out("\n== way A: ElementFromHandle + BuildUpdatedCache + GetCachedChildren\n");
    t0 = now_ms();
    U *wa = NULL;
    hr = EL_BuildUpdatedCache(win, cr, &wa);
    double t_build = now_ms() - t0;
    out("  BuildUpdatedCache -> " HR " %p (%.1f ms)\n", H(hr), wa, t_build);
    if (wa) {
        U *arr = NULL;
        hr = EL_GetCachedChildren(wa, &arr);
        int len = -1;
        if (arr) ARR_get_Length(arr, &len);
        out("  GetCachedChildren(window) -> " HR " array=%p length=%d\n", H(hr), arr, len);
        rel(arr);
        U *par = NULL;
        hr = EL_GetCachedParent(wa, &par);
        out("  GetCachedParent(window) -> " HR " %p\n", H(hr), par);
        rel(par);
        ((IUnknown *)wa)->lpVtbl->AddRef((IUnknown *)wa);
        t0 = now_ms();
        walk_cached(&T1, wa, 0, -1);
        out("  cached walk: %d nodes, %.1f ms\n", T1.n, now_ms() - t0);
        tree_free(&T1);
        rel(wa);
    }
    out("\n== way B: ElementFromHandleBuildCache\n");
    t0 = now_ms();
    U *wb = NULL;
    hr = UIA_ElementFromHandleBuildCache(uia, np, cr, &wb);
    out("  ElementFromHandleBuildCache -> " HR " %p (%.1f ms)\n", H(hr), wb, now_ms() - t0);
    if (wb) {
        U *arr = NULL;
        hr = EL_GetCachedChildren(wb, &arr);
        int len = -1;
        if (arr) ARR_get_Length(arr, &len);
        out("  GetCachedChildren -> " HR " array=%p length=%d\n", H(hr), arr, len);
        rel(arr);
        rel(wb);
    }

    /* ---- way C: FindAllBuildCache(Children) per element */
    out("\n== way C: FindAllBuildCache(TreeScope_Children, TrueCondition) per element\n");
    for (int rep = 0; rep < 3; rep++) {
        tree_free(&T2);
        T2.calls = 0;
        first_fail_hr = 0;
        t0 = now_ms();
        U *root = cached_window(np, cr);
        if (!root) { out("  no cached window element\n"); break; }
        walk_findall(&T2, root, 0, -1, truec, cr);
        double ms = now_ms() - t0;
        double pm = read_all_props(&T2);
        out("  run %d: %d nodes, %d FindAllBuildCache calls, %.1f ms (%.2f ms/call); first failure " HR
            "; reading %d cached props x %d nodes: %.1f ms\n",
            rep, T2.n, T2.calls, ms, ms / T2.calls, H(first_fail_hr), NPROPS, T2.n, pm);
    }
    tree_print(&T2, "way C tree");

    /* ---- way D: tree walker */
    out("\n== way D: CreateTreeWalker(TrueCondition) + GetFirstChild/NextSiblingElementBuildCache\n");
    U *walker = NULL;
    hr = UIA_CreateTreeWalker(uia, truec, &walker);
    out("  CreateTreeWalker -> " HR "\n", H(hr));
    if (walker) {
        for (int rep = 0; rep < 2; rep++) {
            tree_free(&T3);
            T3.calls = 0;
            first_fail_hr = 0;
            t0 = now_ms();
            U *root = cached_window(np, cr);
            walk_walker(&T3, root, 0, -1, walker, cr);
            double ms = now_ms() - t0;
            out("  run %d: %d nodes, %d navigation calls, %.1f ms (%.2f ms/call); first failure " HR "\n", rep, T3.n,
                T3.calls, ms, ms / T3.calls, H(first_fail_hr));
        }
        U *c = NULL;
        hr = TW_GetFirstChildElement(walker, win, &c);
        out("  GetFirstChildElement (no cache) -> " HR " %p\n", H(hr), c);
        if (c) {
            U *n2 = NULL;
            hr = TW_GetNextSiblingElement(walker, c, &n2);
            out("  GetNextSiblingElement (no cache) -> " HR " %p\n", H(hr), n2);
            rel(n2);
            rel(c);
        }
        tree_free(&T3);
    }

    /* ---- way E: FindAllBuildCache(Descendants / Subtree) */
    out("\n== way E: FindAllBuildCache(TreeScope_Descendants) from the window\n");
    for (int sc = 0; sc < 2; sc++) {
        int s = sc ? TreeScope_Subtree : TreeScope_Descendants;
        t0 = now_ms();
        U *arr = NULL;
        hr = EL_FindAllBuildCache(win, s, truec, cr, &arr);
        int len = -1;
        if (arr) ARR_get_Length(arr, &len);
        out("  FindAllBuildCache(%s) -> " HR " length=%d (%.1f ms)\n", sc ? "Subtree" : "Descendants", H(hr), len,
            now_ms() - t0);
        if (arr && len > 0) {
            U *e0 = NULL;
            ARR_GetElement(arr, 0, &e0);
            if (e0) {
                U *par = NULL;
                hr = EL_GetCachedParent(e0, &par);
                out("    element 0: GetCachedParent -> " HR " %p\n", H(hr), par);
                rel(par);
                rel(e0);
            }
        }
        rel(arr);
        arr = NULL;
        hr = EL_FindAll(win, s, truec, &arr);
        len = -1;
        if (arr) ARR_get_Length(arr, &len);
        out("  FindAll(%s) (no cache) -> " HR " length=%d\n", sc ? "Subtree" : "Descendants", H(hr), len);
        rel(arr);
    }

    /* ---- root element: the desktop's top-level windows */
    out("\n== GetRootElement\n");
    U *root = NULL;
    t0 = now_ms();
    hr = UIA_GetRootElement(uia, &root);
    out("  GetRootElement -> " HR " %p\n", H(hr), root);
    if (root) {
        U *arr = NULL;
        hr = EL_FindAllBuildCache(root, TreeScope_Children, truec, cr, &arr);
        int len = -1;
        if (arr) ARR_get_Length(arr, &len);
        out("  root FindAllBuildCache(Children) -> " HR " length=%d (%.1f ms)\n", H(hr), len, now_ms() - t0);
        for (int i = 0; i < len; i++) {
            U *e = NULL;
            ARR_GetElement(arr, i, &e);
            BSTR nm = cached_name(e);
            out("    child %d: ct=%ld name=\"%s\" hwnd=0x%lx pid=%ld\n", i, cached_i4(e, 30003, -1), u8(nm),
                (unsigned long)cached_i4(e, 30020, 0), cached_i4(e, 30002, -1));
            SysFreeString(nm);
            rel(e);
        }
        rel(arr);
        U *rb = NULL;
        hr = UIA_GetRootElementBuildCache(uia, cr, &rb);
        out("  GetRootElementBuildCache -> " HR "\n", H(hr));
        rel(rb);
    }
    {
        POINT pt = {100, 100};
        U *e = NULL;
        hr = UIA_ElementFromPoint(uia, pt, &e);
        out("  ElementFromPoint(100,100) -> " HR " %p\n", H(hr), e);
        rel(e);
    }


    /* ---- way F: child HWNDs (EnumChildWindows) + ElementFromHandle/BuildUpdatedCache per HWND */
    out("\n== way F: EnumChildWindows + ElementFromHandle + BuildUpdatedCache per child HWND\n");
    HWND kids[64] = {0};
    t0 = now_ms();
    EnumChildWindows(np, child_cb, (LPARAM)kids);
    int nkids = (int)(INT_PTR)kids[0];
    U *edit_el = NULL;
    for (int i = 1; i <= nkids; i++) {
        WCHAR cls[64] = L"";
        GetClassNameW(kids[i], cls, 64);
        U *ce = cached_window(kids[i], cr);
        BSTR nm = ce ? cached_name(ce) : NULL;
        RECT r = {0};
        if (ce) cached_rect(ce, &r);
        out("  child hwnd %p class=\"%s\" parent=%p visible=%d id=%ld -> UIA ct=%ld name=\"%s\" rect=(%ld,%ld %ldx%ld)\n",
            (void *)kids[i], u8(cls), (void *)GetParent(kids[i]), IsWindowVisible(kids[i]),
            (long)GetWindowLongPtrW(kids[i], GWLP_ID), ce ? cached_i4(ce, 30003, -1) : -1, u8(nm), r.left, r.top,
            r.right - r.left, r.bottom - r.top);
        SysFreeString(nm);
        if (ce && kids[i] == edit && !edit_el) edit_el = ce;
        else rel(ce);
    }
    out("  %d child HWNDs, %.1f ms in all\n", nkids, now_ms() - t0);
    if (edit_el) dump_props(edit_el, "Edit child (ElementFromHandle + BuildUpdatedCache)", TRUE, TRUE);

    /* ---- MSAA */
    out("\n== MSAA (oleacc) on notepad\n");
    msaa_from_window(np, OBJID_CLIENT, "OBJID_CLIENT", 3);
    msaa_from_window(np, OBJID_MENU, "OBJID_MENU", 2);
    msaa_from_window(np, OBJID_WINDOW, "OBJID_WINDOW", 1);
    msaa_from_window(np, OBJID_TITLEBAR, "OBJID_TITLEBAR", 1);
    {
        IAccessible *macc = NULL;
        AccessibleObjectFromWindow(np, OBJID_MENU, &IID_IAccessible, (void **)&macc);
        if (macc) {
            U *me = NULL;
            hr = CALL(uia, 56, macc, 1, &me);
            out("  IUIAutomation::ElementFromIAccessible(OBJID_MENU, child 1) -> " HR " %p\n", H(hr), me);
            if (me) {
                dump_props(me, "menu item via ElementFromIAccessible (current)", FALSE, TRUE);
                rel(me);
            }
            me = NULL;
            hr = CALL(uia, 56, macc, CHILDID_SELF, &me);
            out("  IUIAutomation::ElementFromIAccessible(OBJID_MENU, CHILDID_SELF) -> " HR " %p\n", H(hr), me);
            if (me) {
                U *arr = NULL;
                hr = EL_FindAllBuildCache(me, TreeScope_Children, truec, cr, &arr);
                int len = -1;
                if (arr) ARR_get_Length(arr, &len);
                out("    menu bar element FindAllBuildCache(Children) -> " HR " length=%d\n", H(hr), len);
                for (int i = 0; i < len; i++) {
                    U *e = NULL;
                    ARR_GetElement(arr, i, &e);
                    BSTR nm = cached_name(e);
                    RECT r = {0};
                    cached_rect(e, &r);
                    out("      child %d ct=%ld name=\"%s\" rect=(%ld,%ld %ldx%ld)\n", i, cached_i4(e, 30003, -1), u8(nm),
                        r.left, r.top, r.right - r.left, r.bottom - r.top);
                    SysFreeString(nm);
                    rel(e);
                }
                rel(arr);
                rel(me);
            }
            IAccessible_Release(macc);
        }
    }

    /* ---- per element property tables (from way C's tree) */
    out("\n== cached property values (way C tree, GetCachedPropertyValueEx(ignoreDefaultValue=TRUE))\n");
    int i_menubar = -1, i_file = -1, i_edit = -1, i_title = -1, i_button = -1;
    for (int i = 0; i < T2.n; i++) {
        LONG ct = cached_i4(T2.el[i], 30003, 0);
        BSTR nm = cached_name(T2.el[i]);
        if (ct == 50010 && i_menubar < 0) i_menubar = i;
        if (ct == 50011 && i_file < 0) i_file = i;
        if (ct == 50004 && i_edit < 0) i_edit = i;
        if (ct == 50037 && i_title < 0) i_title = i;
        if (ct == 50000 && i_button < 0) i_button = i;
        SysFreeString(nm);
    }
    out("  indices: menubar=%d menuitem=%d edit=%d titlebar=%d button=%d\n", i_menubar, i_file, i_edit, i_title, i_button);
    if (i_edit < 0 && edit_el && T2.n < MAXN) { i_edit = T2.n; T2.el[T2.n] = edit_el; T2.depth[T2.n] = 1; T2.parent[T2.n] = 0; T2.n++; edit_el = NULL; out("  (edit: the Edit child HWND's element, appended as #%d)\n", i_edit); }
    for (int i = 0; i < T2.n; i++) {
        char label[64];
        snprintf(label, sizeof label, "element #%d", i);
        dump_props(T2.el[i], label, TRUE, TRUE);
    }
    if (T2.n > 0) dump_props(T2.el[0], "element #0 (window)", TRUE, FALSE);

    /* ---- focus and patterns */
    out("\n== focus and patterns\n");
    SetForegroundWindow(np);
    SetFocus(edit);
    Sleep(200);
    U *foc = NULL;
    hr = UIA_GetFocusedElement(uia, &foc);
    out("  GetFocusedElement -> " HR " %p\n", H(hr), foc);
    if (foc) { dump_props(foc, "focused element (current)", FALSE, TRUE); rel(foc); }
    foc = NULL;
    hr = UIA_GetFocusedElementBuildCache(uia, cr, &foc);
    out("  GetFocusedElementBuildCache -> " HR " %p\n", H(hr), foc);
    if (foc) {
        BSTR nm = cached_name(foc);
        out("    cached ct=%ld name=\"%s\" hwnd=0x%lx\n", cached_i4(foc, 30003, -1), u8(nm),
            (unsigned long)cached_i4(foc, 30020, 0));
        SysFreeString(nm);
        rel(foc);
    }
    struct { int idx; const char *what; } targets[] = {{T2.n > 0 ? 0 : -1, "window"}, {i_file, "menu item"}, {i_edit, "edit"}};
    for (int k = 0; k < 3; k++) {
        if (targets[k].idx < 0) continue;
        U *e = T2.el[targets[k].idx];
        U *p = NULL;
        hr = EL_GetCurrentPatternAs(e, 10018, &IID_Legacy, (void **)&p);
        out("  %s: GetCurrentPatternAs(LegacyIAccessible) -> " HR " %p\n", targets[k].what, H(hr), p);
        if (p) {
            BSTR b = NULL;
            DWORD role = 0, state = 0;
            hr = LEG_get_CurrentName(p, &b);
            out("    CurrentName -> " HR " \"%s\"\n", H(hr), u8(b));
            SysFreeString(b);
            out("    CurrentRole -> " HR " %lu; CurrentState -> " HR " 0x%lx\n", H(LEG_get_CurrentRole(p, &role)), role,
                H(LEG_get_CurrentState(p, &state)), state);
            rel(p);
        }
        p = NULL;
        hr = EL_GetCurrentPattern(e, 10000, (U **)&p);
        out("  %s: GetCurrentPattern(Invoke) -> " HR " %p\n", targets[k].what, H(hr), p);
        rel(p);
        p = NULL;
        hr = EL_GetCurrentPatternAs(e, 10000, &IID_Invoke, (void **)&p);
        out("  %s: GetCurrentPatternAs(Invoke) -> " HR " %p\n", targets[k].what, H(hr), p);
        rel(p);
        p = NULL;
        hr = EL_GetCurrentPatternAs(e, 10002, &IID_Value, (void **)&p);
        out("  %s: GetCurrentPatternAs(Value) -> " HR " %p\n", targets[k].what, H(hr), p);
        if (p) {
            BSTR b = NULL;
            hr = VAL_get_CurrentValue(p, &b);
            out("    CurrentValue -> " HR " \"%s\"\n", H(hr), u8(b));
            SysFreeString(b);
            rel(p);
        }
        p = NULL;
        hr = EL_GetCachedPattern(e, 10018, (U **)&p);
        out("  %s: GetCachedPattern(LegacyIAccessible) -> " HR " %p\n", targets[k].what, H(hr), p);
        rel(p);
        p = NULL;
        hr = EL_GetCachedPatternAs(e, 10000, &IID_Invoke, (void **)&p);
        out("  %s: GetCachedPatternAs(Invoke) -> " HR " %p\n", targets[k].what, H(hr), p);
        rel(p);
    }
    if (i_edit >= 0) {
        hr = EL_SetFocus(T2.el[i_edit]);
        out("  edit: SetFocus -> " HR "\n", H(hr));
    }

    /* ---- input: typing */
    out("\n== SendInput\n");
    SetForegroundWindow(np);
    SetFocus(edit);
    Sleep(200);
    out("  GetForegroundWindow == notepad: %d; GetFocus (own thread) %p\n", GetForegroundWindow() == np, (void *)GetFocus());
    const WCHAR text[] = L"Hi \x00e9t\x00e9 \xD83D\xDE00 \x4E2D ok";
    INPUT in[128];
    int n = 0;
    for (int i = 0; text[i]; i++) key_unicode(text[i], in, &n);
    t0 = now_ms();
    UINT sent = SendInput(n, in, sizeof(INPUT));
    out("  SendInput(%d KEYEVENTF_UNICODE events for \"%s\") -> %u (error %lu) in %.1f ms\n", n, u8(text), sent,
        sent ? 0 : GetLastError(), now_ms() - t0);
    pump(700);
    WCHAR got[256] = L"";
    LRESULT gl = SendMessageW(edit, WM_GETTEXT, 256, (LPARAM)got);
    out("  WM_GETTEXT -> %ld \"%s\"; exact match: %s\n", (long)gl, u8(got), wcscmp(got, text) ? "NO" : "yes");
    out("  code units read:");
    for (int i = 0; got[i]; i++) out(" %04x", got[i]);
    out("\n");
    if (i_edit >= 0) {
        int ids[] = {30045, 30005, 30093, 30092};
        for (int k = 0; k < 4; k++) {
            VARIANT v;
            VariantInit(&v);
            char b[512];
            hr = EL_GetCurrentPropertyValueEx(T2.el[i_edit], ids[k], TRUE, &v);
            out("  edit GetCurrentPropertyValueEx(%d) -> " HR " %s\n", ids[k], H(hr), SUCCEEDED(hr) ? fmt_var(&v, b, sizeof b) : "");
            VariantClear(&v);
        }
    }
    n = 0;
    key_vk(VK_CONTROL, FALSE, in, &n);
    key_vk('A', FALSE, in, &n);
    key_vk('A', TRUE, in, &n);
    key_vk(VK_CONTROL, TRUE, in, &n);
    sent = SendInput(n, in, sizeof(INPUT));
    pump(300);
    DWORD ss = 0, se = 0;
    SendMessageW(edit, EM_GETSEL, (WPARAM)&ss, (LPARAM)&se);
    out("  SendInput(ctrl+a) -> %u; EM_GETSEL -> %lu..%lu\n", sent, ss, se);
    n = 0;
    key_vk(VK_DELETE, FALSE, in, &n);
    key_vk(VK_DELETE, TRUE, in, &n);
    sent = SendInput(n, in, sizeof(INPUT));
    pump(300);
    got[0] = 0;
    gl = SendMessageW(edit, WM_GETTEXT, 256, (LPARAM)got);
    out("  SendInput(Delete) -> %u; WM_GETTEXT -> %ld \"%s\"\n", sent, (long)gl, u8(got));

    /* ---- input: mouse click on the File menu item (UIA bounds, else MSAA OBJID_MENU child 1) */
    RECT file_r = {0};
    BSTR file_name = NULL;
    U *fe = i_file >= 0 ? T2.el[i_file] : NULL;
    if (fe) { cached_rect(fe, &file_r); file_name = cached_name(fe); }
    else {
        IAccessible *macc = NULL;
        AccessibleObjectFromWindow(np, OBJID_MENU, &IID_IAccessible, (void **)&macc);
        if (macc) {
            VARIANT c1;
            V_VT(&c1) = VT_I4;
            V_I4(&c1) = 1;
            LONG x = 0, y = 0, w2 = 0, h2 = 0;
            IAccessible_accLocation(macc, &x, &y, &w2, &h2, c1);
            IAccessible_get_accName(macc, c1, &file_name);
            file_r = (RECT){x, y, x + w2, y + h2};
            IAccessible_Release(macc);
            out("  File menu item from MSAA OBJID_MENU child 1\n");
        }
    }
    { /* Win32 menu API on another process's menu bar */
        HMENU hm = GetMenu(np);
        int cnt = hm ? GetMenuItemCount(hm) : -1;
        out("  GetMenu(notepad) -> %p; GetMenuItemCount -> %d (error %lu)\n", (void *)hm, cnt, cnt < 0 ? GetLastError() : 0);
        for (int i = 0; i < (cnt < 0 ? 3 : cnt) && i < 10; i++) {
            WCHAR ms[128] = L"";
            int sl = GetMenuStringW(hm, i, ms, 128, MF_BYPOSITION);
            RECT mr = {0};
            BOOL ok = GetMenuItemRect(np, hm, i, &mr);
            MENUBARINFO mbi = {.cbSize = sizeof mbi};
            BOOL ok2 = GetMenuBarInfo(np, OBJID_MENU, i + 1, &mbi);
            MENUITEMINFOW mii = {.cbSize = sizeof mii, .fMask = MIIM_STATE | MIIM_SUBMENU | MIIM_FTYPE};
            BOOL ok3 = GetMenuItemInfoW(hm, i, TRUE, &mii);
            out("    item %d: GetMenuStringW -> %d \"%s\"; GetMenuItemRect -> %d (%ld,%ld)-(%ld,%ld); GetMenuBarInfo -> %d (%ld,%ld)-(%ld,%ld); GetMenuItemInfoW -> %d state=0x%x submenu=%p\n",
                i, sl, u8(ms), ok, mr.left, mr.top, mr.right, mr.bottom, ok2, mbi.rcBar.left, mbi.rcBar.top,
                mbi.rcBar.right, mbi.rcBar.bottom, ok3, mii.fState, (void *)mii.hSubMenu);
            if (i == 0 && !(file_r.right > file_r.left)) {
                if (ok) file_r = mr;
                else if (ok2) file_r = mbi.rcBar;
                if (!file_name) file_name = SysAllocString(ms);
                if (file_r.right > file_r.left) out("  File menu item bounds from the Win32 menu API\n");
            }
        }
    }
    if (!(file_r.right > file_r.left)) { /* last resort: just above the Edit child's top-left */
        RECT er;
        GetWindowRect(edit, &er);
        file_r = (RECT){er.left + 2, er.top - 19, er.left + 38, er.top - 1};
        out("  File menu item bounds guessed from the Edit child's rect (no API gives them)\n");
    }
    if (file_r.right > file_r.left) {
        RECT r = file_r;
        BSTR nm = file_name;
        int cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
        out("  menu item \"%s\" bounds (%ld,%ld)-(%ld,%ld), centre (%d,%d)\n", u8(nm), r.left, r.top, r.right, r.bottom, cx, cy);
        SysFreeString(nm);
        LONG ax = MulDiv(cx - vx, 65535, vw - 1), ay = MulDiv(cy - vy, 65535, vh - 1);
        n = 0;
        in[n].type = INPUT_MOUSE;
        in[n].mi = (MOUSEINPUT){.dx = ax, .dy = ay, .dwFlags = MOUSEEVENTF_MOVE | MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK};
        n++;
        sent = SendInput(n, in, sizeof(INPUT));
        Sleep(100);
        POINT cp2;
        GetCursorPos(&cp2);
        out("  SendInput(move ABSOLUTE|VIRTUALDESK %ld,%ld) -> %u; GetCursorPos -> (%ld,%ld)\n", ax, ay, sent, cp2.x, cp2.y);
        n = 0;
        in[n].type = INPUT_MOUSE;
        in[n].mi = (MOUSEINPUT){.dx = ax, .dy = ay, .dwFlags = MOUSEEVENTF_LEFTDOWN | MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK};
        n++;
        in[n].type = INPUT_MOUSE;
        in[n].mi = (MOUSEINPUT){.dx = ax, .dy = ay, .dwFlags = MOUSEEVENTF_LEFTUP | MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK};
        n++;
        sent = SendInput(n, in, sizeof(INPUT));
        out("  SendInput(left down+up) -> %u\n", sent);
        HWND menu = NULL;
        for (int i = 0; i < 40 && !menu; i++) {
            Sleep(50);
            EnumWindows(find_class, (LPARAM)&menu);
        }
        out("  visible #32768 popup menu after click: %p\n", (void *)menu);
        list_windows("after the click");
        if (menu) {
            U *me = cached_window(menu, cr);
            out("  cached element of the #32768 window: %p\n", me);
            if (me) {
                Tree *t = &T3;
                tree_free(t);
                walk_findall(t, me, 0, -1, truec, cr);
                tree_print(t, "popup menu");
                tree_free(t);
            }
            msaa_from_window(menu, OBJID_CLIENT, "#32768 OBJID_CLIENT", 2);
            HMENU pm = (HMENU)SendMessageW(menu, MN_GETHMENU, 0, 0);
            int pc = pm ? GetMenuItemCount(pm) : -1;
            out("  MN_GETHMENU -> %p; GetMenuItemCount -> %d\n", (void *)pm, pc);
            for (int i = 0; i < pc && i < 20; i++) {
                WCHAR ms[128] = L"";
                GetMenuStringW(pm, i, ms, 128, MF_BYPOSITION);
                RECT mr = {0};
                BOOL ok = GetMenuItemRect(NULL, pm, i, &mr);
                out("    popup item %d \"%s\" GetMenuItemRect -> %d (%ld,%ld)-(%ld,%ld)\n", i, u8(ms), ok, mr.left, mr.top, mr.right, mr.bottom);
            }
            U *arr = NULL;
            hr = EL_FindAllBuildCache(root, TreeScope_Children, truec, cr, &arr);
            int len = -1;
            if (arr) ARR_get_Length(arr, &len);
            out("  root children while the menu is open: " HR " %d\n", H(hr), len);
            rel(arr);
        }
        U *f2 = NULL;
        hr = UIA_GetFocusedElementBuildCache(uia, cr, &f2);
        if (f2) {
            BSTR nm2 = cached_name(f2);
            out("  focused element while menu open: ct=%ld name=\"%s\"\n", cached_i4(f2, 30003, -1), u8(nm2));
            SysFreeString(nm2);
            VARIANT v;
            VariantInit(&v);
            char b[256];
            if (fe) EL_GetCurrentPropertyValueEx(fe, 30070, FALSE, &v);
            if (fe) out("  File item ExpandCollapseState now: %s\n", fmt_var(&v, b, sizeof b));
            VariantClear(&v);
            rel(f2);
        }
        n = 0;
        key_vk(VK_ESCAPE, FALSE, in, &n);
        key_vk(VK_ESCAPE, TRUE, in, &n);
        key_vk(VK_ESCAPE, FALSE, in, &n);
        key_vk(VK_ESCAPE, TRUE, in, &n);
        sent = SendInput(n, in, sizeof(INPUT));
        Sleep(300);
        menu = NULL;
        EnumWindows(find_class, (LPARAM)&menu);
        out("  SendInput(Escape x2) -> %u; popup menu visible after: %p\n", sent, (void *)menu);
    }

    /* ---- screenshot */
    out("\n== GDI screenshot of the virtual screen\n");
    t0 = now_ms();
    HDC sdc = GetDC(NULL);
    HDC mdc = CreateCompatibleDC(sdc);
    HBITMAP bmp = CreateCompatibleBitmap(sdc, vw, vh);
    HGDIOBJ old = SelectObject(mdc, bmp);
    BOOL bb = BitBlt(mdc, 0, 0, vw, vh, sdc, vx, vy, SRCCOPY | CAPTUREBLT);
    SelectObject(mdc, old);
    BITMAPINFO bi = {{.biSize = sizeof(BITMAPINFOHEADER), .biWidth = vw, .biHeight = -vh, .biPlanes = 1, .biBitCount = 32,
                      .biCompression = BI_RGB}};
    DWORD *px = malloc((size_t)vw * vh * 4);
    int lines = GetDIBits(mdc, bmp, 0, vh, px, &bi, DIB_RGB_COLORS);
    double shot_ms = now_ms() - t0;
    size_t nonblack = 0;
    DWORD colours[64];
    int ncol = 0;
    for (size_t i = 0; i < (size_t)vw * vh; i++) {
        DWORD c = px[i] & 0xffffff;
        if (c) nonblack++;
        int seen = 0;
        for (int k = 0; k < ncol; k++) seen |= colours[k] == c;
        if (!seen && ncol < 64) colours[ncol++] = c;
    }
    out("  GetDC(NULL) %p, BitBlt -> %d, GetDIBits -> %d lines of %d; %.1f ms; non-black pixels %zu of %d; >= %d distinct colours\n",
        (void *)sdc, bb, lines, vh, shot_ms, nonblack, vw * vh, ncol);
    { /* write a BMP for inspection */
        HANDLE f = CreateFileW(L"C:\\probe-shot.bmp", GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
        if (f != INVALID_HANDLE_VALUE) {
            BITMAPFILEHEADER fh = {.bfType = 0x4d42, .bfOffBits = sizeof fh + sizeof(BITMAPINFOHEADER)};
            fh.bfSize = fh.bfOffBits + vw * vh * 4;
            DWORD wr;
            WriteFile(f, &fh, sizeof fh, &wr, NULL);
            WriteFile(f, &bi.bmiHeader, sizeof(BITMAPINFOHEADER), &wr, NULL);
            WriteFile(f, px, vw * vh * 4, &wr, NULL);
            CloseHandle(f);
            out("  wrote C:\\probe-shot.bmp\n");
        }
    }
    free(px);
    DeleteObject(bmp);
    DeleteDC(mdc);
    ReleaseDC(NULL, sdc);

    /* ---- start menu and app paths */
    out("\n== Start Menu, App Paths, AppsFolder\n");
    PWSTR path = NULL;
    hr = SHGetKnownFolderPath(&FOLDERID_CommonPrograms, 0, NULL, &path);
    out("  SHGetKnownFolderPath(FOLDERID_CommonPrograms) -> " HR " \"%s\"\n", H(hr), u8(path));
    if (path) { list_dir(path, 1); CoTaskMemFree(path); path = NULL; }
    hr = SHGetKnownFolderPath(&FOLDERID_Programs, 0, NULL, &path);
    out("  SHGetKnownFolderPath(FOLDERID_Programs) -> " HR " \"%s\"\n", H(hr), u8(path));
    if (path) { list_dir(path, 1); CoTaskMemFree(path); path = NULL; }
    HKEY k;
    LONG rc = RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths", 0, KEY_READ, &k);
    out("  RegOpenKeyExW(HKLM\\...\\App Paths) -> %ld\n", rc);
    if (!rc) {
        WCHAR name[256];
        for (DWORD i = 0;; i++) {
            DWORD nl = 256;
            if (RegEnumKeyExW(k, i, name, &nl, NULL, NULL, NULL, NULL)) break;
            WCHAR val[512] = L"";
            DWORD vl = sizeof val;
            RegGetValueW(k, name, NULL, RRF_RT_REG_SZ | RRF_RT_REG_EXPAND_SZ | RRF_NOEXPAND, NULL, val, &vl);
            out("    %s = \"%s\"\n", u8(name), u8(val));
        }
        RegCloseKey(k);
    }
    PIDLIST_ABSOLUTE pidl = NULL;
    hr = SHGetKnownFolderIDList(&FOLDERID_AppsFolder, 0, NULL, &pidl);
    out("  SHGetKnownFolderIDList(FOLDERID_AppsFolder) -> " HR " %p\n", H(hr), (void *)pidl);
    if (pidl) CoTaskMemFree(pidl);
    IShellItem *item = NULL;
    hr = SHGetKnownFolderItem(&FOLDERID_AppsFolder, 0, NULL, &IID_IShellItem, (void **)&item);
    out("  SHGetKnownFolderItem(FOLDERID_AppsFolder, IShellItem) -> " HR " %p\n", H(hr), (void *)item);
    if (item) {
        IEnumShellItems *en3 = NULL;
        hr = IShellItem_BindToHandler(item, NULL, &BHID_EnumItems, &IID_IEnumShellItems, (void **)&en3);
        out("  BindToHandler(BHID_EnumItems) -> " HR "\n", H(hr));
        if (en3) {
            IShellItem *c;
            int cnt = 0;
            while (IEnumShellItems_Next(en3, 1, &c, NULL) == S_OK) {
                PWSTR dn = NULL;
                IShellItem_GetDisplayName(c, SIGDN_NORMALDISPLAY, &dn);
                if (cnt < 30) out("    %s\n", u8(dn));
                cnt++;
                CoTaskMemFree(dn);
                IShellItem_Release(c);
            }
            out("    (%d items)\n", cnt);
            IEnumShellItems_Release(en3);
        }
        IShellItem_Release(item);
    }
    IShellItem *item2 = NULL;
    hr = SHCreateItemFromParsingName(L"shell:AppsFolder", NULL, &IID_IShellItem, (void **)&item2);
    out("  SHCreateItemFromParsingName(\"shell:AppsFolder\") -> " HR "\n", H(hr));
    if (item2) IShellItem_Release(item2);

    out("\n== probe total %.0f ms\n", now_ms() - t_start);
    rel(cr);
    rel(truec);
    rel(cvc);
    rel(win);
    rel(root);
    tree_free(&T2);
    CoUninitialize();
    return 0;
}
