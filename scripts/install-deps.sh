#!/usr/bin/env bash
# Install the system packages cup's headless desktop (crates/cup-sandbox) and its
# tests need, on Debian 12 (bookworm), as root. Idempotent: installs only what is
# missing (checked with `dpkg -s`) and runs `apt-get update` at most once.
#
#   xvfb             X server without a screen (Xvfb)
#   dbus             session bus (dbus-daemon)
#   at-spi2-core     accessibility bus launcher and registry daemon
#   procps           kill (cup-sandbox signals the processes it started by pid)
#   libglib2.0-bin   gdbus (inspecting the buses by hand)
#   x11-utils        xprop (window manager readiness), xdpyinfo, xwininfo
#   gtk-3-examples   gtk3-widget-factory, gtk3-demo (GTK3 test apps)
#   gtk-4-examples   gtk4-demo (GTK4 test app)
#   qtbase5-examples Qt5 example apps (Qt5 test apps)
#   chromium         browser (AT-SPI and DevTools tests)
#   openbox          optional window manager (SandboxOptions::with_window_manager)
#   sway             the Wayland sandbox (SandboxOptions::wayland; headless, run as nobody)
#   qtwayland5       Qt 5's Wayland platform plugin (the Qt app of the Wayland tests)
#   kwin-wayland     KDE's KWin with its virtual backend (the KDE sandbox and its test)
#   gnome-shell, pipewire, wireplumber, xdg-desktop-portal, xdg-desktop-portal-gnome
#                    GNOME Shell headless (mutter inside) with the PipeWire its
#                    RemoteDesktop input needs, and the desktop portal with its
#                    GNOME backend (the GNOME sandbox and its tests)
#   python3-venv     the venvs of the Python MCP client (MCP tests) and of the Python package's tests
#                    (scripts/install-mcp-client.sh)
#   tk8.6            wish: a Tk text widget, the typing tests' program that is
#                    not on the accessibility bus (and the OCR test's form)
#   libtesseract5, tesseract-ocr-eng
#                    Tesseract 5 and its English data: cup-ocr reads text from
#                    the pixels of windows without a tree (loaded at run time)
#   tesseract-ocr    the `tesseract` command: the OCR bench's side-by-side row
#   tesseract-ocr-deu
#                    German's data: the OCR test of a language beyond English
#   xterm            a terminal with no accessibility tree: the OCR test types
#                    a command into it and reads the output from its pixels
#   python3-gi, gir1.2-gtk-3.0
#                    a GTK 3 form with its bridge off on sway: the Wayland OCR test
#   fonts-dejavu-core, fonts-liberation
#                    the fonts the OCR bench renders its fixtures in
#   gcc-mingw-w64-x86-64       linker for the x86_64-pc-windows-gnu target (cup.exe)
#   binutils-mingw-w64-x86-64  dlltool (windows-link's raw-dylib import libraries)
#   debootstrap      creates the Debian 13 root with Wine 10 (scripts/wine-root.sh)
#   firefox-esr      Firefox (Gecko) for the Firefox tests and bench rows
#   libreoffice-writer, libreoffice-gtk3
#                    LibreOffice Writer with its GTK 3 front end (the one that
#                    speaks AT-SPI) for the Writer test and bench rows
#   libreoffice-calc, libreoffice-impress, thunderbird, vlc, gimp, nautilus, gnome-terminal
#                    the rest of OSWorld's Linux app set (the real-workload tests,
#                    the task suite and the OSWorld bench rows)
#   libatk-adaptor   the AT-SPI bridge as a GTK 2 module (GIMP 2.10 is GTK 2:
#                    started with GTK_MODULES=gail:atk-bridge)
#   gcc              the C compiler the VLC test builds its preload with (VLC
#                    refuses to run as root; the tests run as root)
#   podman, runc     run cup's OCI image in its test (deploy/image/test.sh); runc: crun fails
#                    on cgroup v1 hosts
#   skopeo           inspect the image archive, load it into podman's storage
#   umoci            write the OCI image without a registry (scripts/image.sh)
#   jq               read the image's config and manifest (scripts/image.sh, the image test)
#   binutils         strip: the image's cup keeps its symbols, not its debug info
#   iproute2, util-linux, curl
#                    ip netns/veth, unshare and setpriv, and curl: the fleet test
#                    (cup-bench's fleet: cup serve desktops in network namespaces)
#   adb              the Android Debug Bridge server the Android transport tests talk
#                    to (a device of the tests' own is adopted by it on loopback)
#   nodejs, npm      Node (>= 18; Debian 12 has 18) for the Node package cup-rs
#                    (scripts/node-tests.sh); only when no node/npm is on PATH
#                    (a Node from elsewhere is kept)
set -euo pipefail

PACKAGES=(xvfb dbus at-spi2-core procps libglib2.0-bin x11-utils gtk-3-examples gtk-4-examples
          qtbase5-examples chromium openbox sway qtwayland5 kwin-wayland gnome-shell pipewire wireplumber xdg-desktop-portal xdg-desktop-portal-gnome
          python3-venv tk8.6 libtesseract5 tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr xterm python3-gi gir1.2-gtk-3.0
          fonts-dejavu-core fonts-liberation
          gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 debootstrap
          firefox-esr libreoffice-writer libreoffice-gtk3
          libreoffice-calc libreoffice-impress thunderbird vlc gimp nautilus gnome-terminal
          libatk-adaptor gcc iproute2 util-linux curl
          podman runc skopeo umoci jq binutils adb)

if ! command -v node >/dev/null 2>&1; then
    PACKAGES+=(nodejs)
fi
if ! command -v npm >/dev/null 2>&1; then
    PACKAGES+=(npm)
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: must run as root (try: sudo $0)" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
    echo "install-deps: apt-get/dpkg not found; this script supports Debian 12 only" >&2
    exit 1
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
    if dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
        echo "install-deps: $pkg already installed"
    else
        echo "install-deps: $pkg missing"
        missing+=("$pkg")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-deps: nothing to do"
    exit 0
fi

echo "install-deps: apt-get update"
apt-get update -q >/dev/null
echo "install-deps: installing ${missing[*]}"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done (${#missing[@]} package(s) installed)"
