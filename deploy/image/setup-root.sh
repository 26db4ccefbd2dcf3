#!/bin/bash
# Turns a Debian 12 (bookworm) root into the root of cup's image: installs
# the packages of packages.txt for one variant, adds the user `cup`
# (uid/gid 1000, home /home/cup) and removes what an image does not need
# (apt lists and caches, logs, documentation but the copyright files, man
# pages, translations but English). Runs INSIDE the root, as root, in both
# builds:
#
#   deploy/image/Dockerfile   RUN on debian:bookworm-slim
#   scripts/image.sh build    chroot into a `debootstrap --variant=minbase` root
#
#   setup-root.sh VARIANT PACKAGES_TXT     VARIANT: bare or chromium
#
# It changes the cache key of scripts/image.sh (the root is made again when
# this file changes). The apt sources are the caller's (the base image's, or
# those scripts/image.sh wrote).
set -euo pipefail

variant="${1:?usage: setup-root.sh bare|chromium PACKAGES_TXT}"
list="${2:?usage: setup-root.sh bare|chromium PACKAGES_TXT}"
case "$variant" in
    bare | chromium) ;;
    *) echo "setup-root: unknown variant $variant (bare or chromium)" >&2; exit 2 ;;
esac

# The variant's packages: comments and blank lines dropped; "chromium: P"
# lines only for the Chromium variant.
mapfile -t packages < <(sed -e 's/#.*//' "$list" | awk -v v="$variant" '
    NF == 0 { next }
    $1 == "chromium:" { if (v == "chromium") print $2; next }
    { print $1 }')
[ "${#packages[@]}" -gt 0 ] || { echo "setup-root: no packages in $list" >&2; exit 1; }
echo "setup-root: $variant: ${packages[*]}"

export DEBIAN_FRONTEND=noninteractive

# Services are never started while installing (dbus' postinst would try).
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
chmod 0755 /usr/sbin/policy-rc.d

# What dpkg leaves out from now on (debian:bookworm-slim does the same for
# docs, man pages and info). Chromium's UI translations but en-US go too.
cat >/etc/dpkg/dpkg.cfg.d/cup-image <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/help/*
path-exclude /usr/share/gtk-doc/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/libexec/installed-tests/*
path-exclude /usr/share/installed-tests/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-include /usr/share/locale/en*
path-exclude /usr/lib/chromium/locales/*
path-include /usr/lib/chromium/locales/en-US.pak
EOF

apt-get update -q
# The base (a debootstrap root, or the slim image) may predate the archive's
# updates and security fixes.
apt-get upgrade -y -q --no-install-recommends
apt-get install -y -q --no-install-recommends "${packages[@]}"

# The user the image runs as (USER 1000:1000).
if ! getent group cup >/dev/null; then
    groupadd --gid 1000 cup
fi
if ! getent passwd cup >/dev/null; then
    useradd --uid 1000 --gid 1000 --home-dir /home/cup --create-home --shell /bin/bash cup
fi

# What was unpacked before the dpkg excludes above (the base's own packages).
find /usr/share/doc -mindepth 1 ! -type d ! -name copyright -delete
find /usr/share/doc -mindepth 1 -type d -empty -delete
rm -rf /usr/share/man/* /usr/share/info/* /usr/share/help/* /usr/share/gtk-doc/* \
    /usr/share/lintian/* /usr/share/linda/* /usr/libexec/installed-tests /usr/share/installed-tests
find /usr/share/locale -mindepth 1 -maxdepth 1 ! -name 'en*' ! -name locale.alias -exec rm -rf {} +

# The font caches again: a trigger that ran after fontconfig's (the X11
# Type1 font dir's fonts.dir) made one stale, so every app would rebuild it
# in its HOME on start.
if command -v fc-cache >/dev/null; then
    fc-cache --system-only
fi

# apt's lists and caches, logs, leftovers.
apt-get clean
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/debconf/*-old \
    /var/lib/dpkg/*-old /var/log/apt/* /var/log/*.log /var/tmp/* /tmp/* /root/.cache
rm -f /usr/sbin/policy-rc.d
echo "setup-root: done"
